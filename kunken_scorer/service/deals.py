"""Recording and changing deals: each use case once, for the deal form, the players' draft and the API alike.

A deal is read and checked by the core (``check_deal``, ``check_draft_deal``), then one of the use cases stores it.
The rule of "record anyway" lives in one place (``reading.record_anyway``), for these and for an import: a deal with
problems is stored only when the table says so and writes a note, and is then marked; a valid deal is never marked.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.deal import DealReport, evaluate_deal
from ..core.reading import Deal
from ..core.rules import RuleSet
from ..store import (
    Conflict,
    DealRow,
    KeyReused,
    NotFound,
    PartsChanged,
    SessionEnded,
    SessionRow,
    StorageUnavailable,
    Store,
)
from .answers import Say, deal_answer
from .board import deal_scores, place_of, scoreboard, totals_through
from .drafts import Draft, with_end
from .outcomes import Changed, Checked, Done, Edited, KeyClash, Recorded, Refused, Unseen, Waiting
from .reading import check_draft_deal, record_anyway, request_digest
from .stats import Tally, remember_tally, tally_after, tally_of

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ask:
    """How a deal is asked to be stored: "record anyway" and its note; the request's idempotency ``key`` (a form's
    key, an ``Idempotency-Key``) with a ``digest`` of what it asks for (None: the deal itself); ``expected``, the
    version of the session, the deal or the draft the request was made from (None: not checked); ``parts_seen``,
    the players' parts a deal form was filled in from (a part written since is ``Changed(parts_changed=True)``)."""

    override: bool = False
    note: str | None = None
    key: str | None = None
    digest: str | None = None
    expected: int | None = None
    #: a deal form filled in from the players' parts: each seat's part revision it showed (None: not one)
    parts_seen: Mapping[int, int] | None = None


# -- the use cases ---------------------------------------------------------------------------


def resent(store: Store, session_id: str, key: str | None) -> bool:
    """True when a page's form ``key`` recorded a deal before: the form is sent again (kept offline, a double tap) and
    is answered again (``replayed``), although the session may have ended since."""
    return store.deal_for_key(session_id, key) is not None


def replayed(store: Store, session_id: str, ask: Ask, say: Say) -> Recorded | KeyClash | None:
    """The deal a repeated key recorded before (a double tap, a retry), answered again; None for a new key.
    Checked before anything else: a retry of a request that succeeded replays it, although the session has
    changed (or ended) since."""
    if ask.key is None:
        return None
    try:
        stored = store.stored_response(session_id, ask.key, ask.digest)
    except KeyReused:
        return KeyClash()
    if stored is not None:
        return Recorded(stored[1]["number"], created=False, answer=stored[1])
    deal = store.deal_for_key(session_id, ask.key)  # a key whose answer was not kept: made again
    return None if deal is None else _answered(store, session_id, deal, None, None, ask.key, ask.digest, say)


def record_deal(
    store: Store, session: SessionRow, checked: Checked, ask: Ask, say: Say
) -> Recorded | Refused | Changed | KeyClash:
    """Record a new deal (the deal form, ``POST …/deals``) made from the session at version ``ask.expected``."""
    anyway = record_anyway(checked.report, ask.override, ask.note)
    if anyway.refused:
        return Refused(checked.report, anyway.missing)
    digest = ask.digest
    if digest is None and ask.key is not None:
        digest = request_digest({"record": checked.record, "override": anyway.override, "note": ask.note})
    try:
        return _store_new(
            store,
            session,
            checked,
            anyway.override,
            ask,
            digest,
            say,
            expected_version=ask.expected,
            parts_seen=ask.parts_seen,
        )
    except PartsChanged:
        return Changed(version=store.version(session.id), parts_changed=True)
    except Conflict:
        return Changed(version=store.version(session.id))
    except KeyReused:
        if session.ended_at:  # a form resent after the end with other fields: nothing more can be recorded
            raise SessionEnded() from None
        return KeyClash()


def record_draft(
    store: Store, draft: Draft, end: dict[str, Any], ask: Ask, say: Say
) -> Recorded | Refused | Changed | KeyClash | Waiting:
    """Record the players' draft, ended as ``end`` says (who went out, express, redeal), as the next deal, if it is
    still at the version ``ask.expected`` the scorer saw; the draft is emptied."""
    if ask.expected is not None and ask.expected != draft.version:
        return Changed(version=draft.version)
    checked = check_draft_deal(with_end(draft, end))
    if isinstance(checked, Waiting):
        return checked
    anyway = record_anyway(checked.report, ask.override, ask.note)
    if anyway.refused:
        return Refused(checked.report, anyway.missing)
    try:
        return _store_new(
            store, draft.session, checked, anyway.override, ask, ask.digest, say, draft_version=draft.version
        )
    except Conflict:
        return Changed(version=store.draft(draft.session.id).version)
    except KeyReused:
        return KeyClash()


def edit_deal(
    store: Store, session: SessionRow, deal_id: int, checked: Checked, ask: Ask
) -> Edited | Refused | Changed:
    """Change a recorded deal made from its revision ``ask.expected``: another phone's change in between is
    reported (``Changed`` with the deal as it is now, or deleted), never overwritten."""
    anyway = record_anyway(checked.report, ask.override, ask.note)
    if anyway.refused:
        return Refused(checked.report, anyway.missing)
    sent = (checked.record, anyway.override, ask.note)
    try:
        return Edited(
            store.update_deal(
                session.id,
                deal_id,
                checked.record,
                override=anyway.override,
                note=ask.note,
                expected_revision=ask.expected if ask.expected is not None else -1,
                scores=deal_scores(session.players, checked.report),
            )
        )
    except Conflict:
        pass
    except NotFound:
        if not store.was_deleted(session.id, deal_id):
            raise
        return Changed(version=store.version(session.id), deleted=True)
    try:
        current = store.get_deal(session.id, deal_id)
    except NotFound:
        return Changed(version=store.version(session.id), deleted=True)
    if (current.record, current.override, current.note) == sent:  # the other phone saved exactly this
        return Edited(current, created=False)
    return Changed(version=store.version(session.id), current=current)


def undo_deal(store: Store, session_id: str, expected_version: int | None) -> Done | Changed | Unseen:
    """Take back the last deal (kept in the history), if the session is still at the version the phone showed."""
    if expected_version is None:
        return Unseen()
    try:
        return Done(store.undo_last(session_id, expected_version=expected_version))
    except Conflict:
        return Changed(version=store.version(session_id))


def redo_deal(store: Store, session_id: str, deal_id: int, expected_version: int | None) -> Done | Changed | Unseen:
    """Bring back the deal the last undo took back, if nothing changed since."""
    if expected_version is None:
        return Unseen()
    try:
        return Done(store.redo_undone(session_id, deal_id, expected_version=expected_version))
    except NotFound:
        return Done(None)
    except Conflict:
        return Changed(version=store.version(session_id))


def delete_deal(store: Store, session_id: str, deal_id: int, expected_revision: int | None) -> Done | Changed | Unseen:
    """Delete a deal (kept in the history) at the revision the phone showed; a deal deleted already is
    ``Done(None)``."""
    try:
        deal = store.get_deal(session_id, deal_id)
    except NotFound:
        deal = None
    if deal is not None and expected_revision is None:
        return Unseen()
    try:
        store.delete_deal(session_id, deal_id, expected_revision=expected_revision)
    except Conflict:
        return Changed(version=store.version(session_id), current=store.get_deal(session_id, deal_id))
    return Done(deal)


# -- storing a new deal and its answer ----------------------------------------------------------


def _store_new(
    store: Store,
    session: SessionRow,
    checked: Checked,
    override: bool,
    ask: Ask,
    digest: str | None,
    say: Say,
    **options: Any,
) -> Recorded:
    """Store a new deal and make its answer (its scores, the totals and the version after it). The answer is kept
    for a retry with the same key, in the deal's own transaction when the totals before it are known."""
    session_id, rules = session.id, RuleSet.from_dict(session.rules)
    record, report = checked.record, checked.report
    made: list[tuple[Tally, dict[str, Any]] | None] = []
    versions: list[int] = []
    place = place_of(store)

    def answer(deal: Any, version: int) -> dict[str, Any] | None:
        versions.append(version)
        tally = tally_after(place, session_id, record, report, version, rules)
        made.append(None if tally is None else (tally, deal_answer(deal.number, report, tally.points, version, say)))
        return made[-1][1] if made[-1] else None

    deal, created = store.add_deal(
        session_id,
        record,
        override=override,
        note=ask.note,
        idempotency_key=ask.key,
        answer=answer,
        request=digest,
        scores=deal_scores(session.players, report),
        **options,
    )
    if created and made[-1] is not None:
        tally, body = made[-1]
        remember_tally(place, tally)  # the deal is committed: the next recording may start from its tally
        return Recorded(deal.number, True, body)
    if not created:  # the same key stored a deal before, or in a request running alongside this one
        assert ask.key is not None  # add_deal stores nothing only for a key it has seen
        stored = store.stored_response(session_id, ask.key, digest)
        if stored is not None:
            return Recorded(deal.number, False, stored[1])
    return _answered(
        store, session_id, deal, report if created else None, versions[-1] if created else None, ask.key, digest, say
    )


def _answered(
    store: Store,
    session_id: str,
    deal: DealRow,
    report: DealReport | None,
    version: int | None,
    key: str | None,
    digest: str | None,
    say: Say,
) -> Recorded:
    """The answer to a stored deal, made after its commit (``report`` and ``version`` None: worked out again), and
    kept for a retry with ``key``. The deals recorded since by other phones are left out of its totals."""
    board = scoreboard(store, session_id)
    remember_tally(place_of(store), tally_of(board))  # one moment's session and deals: the next recording adds to it
    if report is None:
        report = evaluate_deal(Deal.from_dict(deal.record), board.rules)
    body = deal_answer(deal.number, report, totals_through(board, deal.id), version or board.version, say)
    if key is not None:
        try:
            store.save_response(session_id, key, 201, body, digest)
        except StorageUnavailable as err:  # the deal is stored: a retry rebuilds this answer from it
            _log.warning("answer to %s not kept for retries: %s", key, err)
    return Recorded(deal.number, version is not None, body)
