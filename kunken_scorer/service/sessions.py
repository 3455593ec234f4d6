"""Starting, importing and ending a session, and its scorer's token: each use case once, for the pages and the API."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.messages import KunkenError, Reason
from ..core.reading import hand_entries
from ..core.rules import HOUSE_RULES, RuleSet, RuleSetError, raw_switch
from ..core.session import Target, TargetError
from ..store import SessionRow, Store
from .exports import DocumentError, import_document
from .outcomes import Created, Ended, NotImported, TokenMade, TokenStale
from .reading import player_named, session_players


@dataclass(frozen=True)
class StartRefused:
    """A part of the start form refused: the core's ``reason`` and the field it belongs to, a house rule's
    (``switch``) or a name's (``seat``, the form's seat number); neither: the rules or the players as a whole, or the
    target (``start_target``)."""

    reason: Reason
    switch: str | None = None
    seat: int | None = None


def start_rules(game: str, shown: str, typed: Mapping[str, Any]) -> RuleSet | StartRefused:
    """The rules the start form chose: ``game``'s preset plus the switches ``typed`` changed from the defaults shown.

    The switches show the defaults of ``shown``; a switch left as shown takes the chosen game's own default, so
    choosing another game without reloading the defaults works.
    """
    try:
        as_shown = RuleSet.for_game(shown, {name: raw_switch(name, typed[name]) for name in HOUSE_RULES})
    except RuleSetError as err:
        switch = err.reason.params.get("switch")
        return StartRefused(err.reason, switch=switch if switch in HOUSE_RULES else None)
    try:
        return RuleSet.for_game(game, as_shown.differences())
    except RuleSetError as err:
        return StartRefused(err.reason)


def typed_players(typed: Sequence[str | None], past: Sequence[str]) -> tuple[list[str], list[int | None]]:
    """The names typed in the start form's seats (blanks ignored), then those sent past its seats (``past``), and the
    seat each came from (None: past the form's seats): what ``start_players`` reads.

    >>> typed_players(["Anna", "", None, " ", "Boris"], ["Vera"])
    (['Anna', 'Boris', 'Vera'], [0, 4, None])
    """
    names: list[str] = []
    seats: list[int | None] = []
    for i, name in enumerate(typed):
        if name and name.strip():
            names.append(name)
            seats.append(i)
    return names + list(past), seats + [None] * len(past)


def start_players(rules: RuleSet, names: list[str], seats: list[int | None]) -> list[str] | StartRefused:
    """The ``names`` typed, as the core takes them for the game; ``seats``: the form's seat of each name (None: past
    the form's seats), where a refusal of one name belongs; a name past the seats is named by its place ("player
    13"), not by the API's path."""
    try:
        return session_players(rules, names)
    except KunkenError as err:
        at = err.reason.seat
        seat = seats[at] if at is not None and at < len(seats) else None
        return StartRefused(err.reason if seat is not None else player_named(err.reason), seat=seat)


def start_target(kind: str | None, value: Any) -> Target | StartRefused | None:
    """The target the start form chose, as the core reads it (``Target.from_dict``): None when no ``kind`` is chosen;
    a refusal (its range is the core's) belongs to the target's value.

    >>> start_target("deals", 8), start_target("", None), start_target("score", None).reason.code
    (Target(kind='deals', value=8), None, 'bad_target')
    """
    if not kind:
        return None
    try:
        return Target.from_dict({"kind": kind, "value": value})
    except TargetError as err:
        return StartRefused(err.reason)


def create_session(
    store: Store,
    rules: RuleSet,
    players: list[str],
    target: Target | None,
    *,
    key: str | None = None,
    hand_entry: str | None = None,
    allow: Callable[[], None] | None = None,
) -> Created:
    """Start a session under ``rules`` (players already checked by ``session_players``); ``key`` makes a double tap
    one session (``Created.token`` None the second time); ``hand_entry``, the table's way of entering hands, when
    the game has it. ``allow`` (the address's count of sessions started: it raises to refuse) is called only when
    the session is made now: a double tap is not counted twice."""
    session, token = store.create_session(
        rules.game, rules.to_dict(), players, target.to_dict() if target else None, idempotency_key=key, allow=allow
    )
    if token is not None and hand_entry in hand_entries(rules):
        store.set_hand_entry(session.id, hand_entry)
        session = store.get_session(session.id)
    return Created(session, token)


def import_session(
    store: Store, document: Any, key: str | None = None, allow: Callable[[], None] | None = None
) -> Created | NotImported:
    """Store an exported document as a new session (new id and token, the same scores); a deal with problems the
    table did not record anyway is ``NotImported``, and nothing is stored. A document that cannot be read raises
    its ``KunkenError``. ``allow`` is ``create_session``'s: called only when a session is made now."""
    try:
        session, token = import_document(store, document, key, allow)
    except DocumentError as err:
        if err.code != "import_deal_problems":
            raise
        return NotImported(err.reason)
    return Created(session, token)


def end_session(store: Store, session: SessionRow) -> Ended:
    """End the session: it stays readable, nothing can be changed (``already`` when it had ended before, or another
    request ended it at the same moment)."""
    return Ended(already=bool(session.ended_at) or not store.end_now(session.id))


def new_token(store: Store, session_id: str, old: str, key: str | None = None) -> TokenMade | TokenStale:
    """A new edit token in place of ``old`` (the old one stops at once); the same form ``key`` sent twice gets the
    same new token. ``TokenStale`` when ``old`` is no longer the session's token."""
    token = store.new_token(session_id, old, key)
    return TokenStale() if token is None else TokenMade(token)


def set_hand_entry(store: Store, session: SessionRow, mode: str) -> SessionRow:
    """The table chose how to enter hands: kept for the next deal; the session as it is now."""
    if mode == session.hand_entry:
        return session
    store.set_hand_entry(session.id, mode)
    return replace(session, hand_entry=mode)
