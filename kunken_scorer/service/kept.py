"""A part a phone kept after its deal was recorded, sent to the scorer as a proposed correction of that deal (issue
45): the two versions side by side, the scores before and after; applied as an edit, or dismissed. (A part the
scorer's form replaced when recording is said on the seat's page: ``drafts.replaced_part``.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.deal import DealReport, evaluate_deal
from ..core.draft import part_of, with_part
from ..core.messages import KunkenError, Reason
from ..core.reading import Deal
from ..core.rules import RuleSet
from ..store import CorrectionRow, DealRow, NotFound, SessionRow, Store
from .deals import Ask, edit_deal
from .outcomes import Changed, Edited, Refused
from .reading import check_deal


@dataclass(frozen=True)
class CorrectionSent:
    """A part kept on a phone is before the scorer as a proposed correction of deal ``number`` (``created`` False: the
    same part was sent before and is still open)."""

    number: int | None
    correction: CorrectionRow
    created: bool


@dataclass(frozen=True)
class DealGone:
    """The draft the part was typed for is still open (``open``: save it there), or its deal was deleted since."""

    open: bool


def send_correction(
    store: Store, session: SessionRow, seat: int, part: dict[str, Any], typed: str, generation: int
) -> CorrectionSent | DealGone:
    """A part a phone typed for the draft ``generation``, whose deal has been recorded since, sent to the scorer as a
    proposed correction of that deal (the next deal's draft is left alone)."""
    if generation >= store.draft(session.id).generation:
        return DealGone(open=True)
    deal = store.deal_of_draft(session.id, generation)
    if deal is None:
        return DealGone(open=False)
    row, created = store.propose_correction(session.id, deal.id, seat, part, typed)
    return CorrectionSent(deal.number, row, created)


@dataclass(frozen=True)
class CorrectionPage:
    """A proposed correction beside the deal it would change: the seat's ``name``, its part as ``recorded`` and as
    ``proposed``; the deal's report now (``before``) and with the correction (``after``, or why it does not read:
    ``unread``); ``deal`` None when the deal was deleted since."""

    correction: CorrectionRow
    deal: DealRow | None
    name: str
    recorded: dict[str, Any] | None
    proposed: dict[str, Any]
    before: DealReport | None
    after: DealReport | None
    unread: Reason | None
    record: dict[str, Any] | None


def correction_page(store: Store, session: SessionRow, correction_id: int) -> CorrectionPage:
    """The data of a proposed correction's page (``NotFound`` for none)."""
    correction = store.correction(session.id, correction_id)
    name = session.players[correction.seat]
    try:
        deal: DealRow | None = store.get_deal(session.id, correction.deal_id)
    except NotFound:
        deal = None
    if deal is None or deal.number is None:
        return CorrectionPage(correction, None, name, None, correction.part, None, None, None, None)
    rules = RuleSet.from_dict(session.rules)
    before = evaluate_deal(Deal.from_dict(deal.record), rules)
    record = with_part(deal.record, name, correction.part)
    try:
        after, unread = check_deal(session, record).report, None
    except KunkenError as err:
        after, unread = None, err.reason
    return CorrectionPage(
        correction, deal, name, part_of(deal.record, name), correction.part, before, after, unread, record
    )


@dataclass(frozen=True)
class AlreadyResolved:
    """The correction was applied or dismissed before (a second tap, another phone): nothing changed."""

    outcome: str | None


def apply_correction(
    store: Store, session: SessionRow, correction_id: int, ask: Ask
) -> Edited | Refused | Changed | AlreadyResolved:
    """Apply a proposed correction as an edit of its deal (kept in the history), made from the deal's revision
    ``ask.expected`` the scorer saw; a deal with problems needs "record anyway" and a note, as every edit does."""
    page = correction_page(store, session, correction_id)
    if page.correction.resolved_at is not None:
        return AlreadyResolved(page.correction.outcome)
    if page.deal is None or page.record is None:
        return Changed(version=store.version(session.id), deleted=True)
    checked = check_deal(session, page.record)
    outcome = edit_deal(store, session, page.deal.id, checked, ask)
    if isinstance(outcome, Edited):
        store.resolve_correction(session.id, correction_id, "applied")
    return outcome


def dismiss_correction(store: Store, session: SessionRow, correction_id: int) -> AlreadyResolved | None:
    """Dismiss a proposed correction (the deal stays as it is); ``AlreadyResolved`` when it was resolved before."""
    if store.resolve_correction(session.id, correction_id, "dismissed"):
        return None
    return AlreadyResolved(store.correction(session.id, correction_id).outcome)


def open_corrections(store: Store, session: SessionRow) -> list[tuple[CorrectionRow, str, int | None]]:
    """The open proposed corrections, each with its player's name and its deal's number (None: deleted since)."""
    out = []
    for row in store.corrections(session.id):
        try:
            number = store.get_deal(session.id, row.deal_id).number
        except NotFound:
            number = None
        out.append((row, session.players[row.seat], number))
    return out
