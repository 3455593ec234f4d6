"""Seats and the players' draft: take, move and free a seat, save a part, discard the draft; each use case once.

Who may take a held seat is the store's one rule (``Store.take_seat``); these functions turn its answers into
outcomes the pages and the API put in their own words. What a request names is read here too: the name at a seat
(``NoSeat`` past the table, answered by the web's one table of errors), a move code, a part as the API writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.draft import read_part
from ..core.fields import bad_field, read_whole
from ..core.messages import M_, KunkenError, Reason
from ..core.rules import RuleSet
from ..store import Conflict, DraftClosed, SeatHeld, SessionEnded, SessionRow, Store
from .answers import Say
from .board import scoreboard
from .deals import Ask, record_draft, replayed
from .drafts import Draft, PartPage, load_draft, replaced_part
from .outcomes import Changed, DraftMoved, MoveCode, PartSaved, PartStale, Recording, SeatHeldBy, SeatTaken, Waiting
from .reading import asked_end

#: The longest move code (or one-time link's secret) a form or the API may send: anything longer is no code.
MAX_MOVE_CODE = 100


class NoSeat(LookupError):
    """The session has no seat ``seat`` (seats are counted from 0): the pages' 404, and the API's in words."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


def name_at(players: list[str], seat: int) -> str:
    """The name at ``seat`` of a table of ``players``; ``NoSeat`` past the table."""
    if not 0 <= seat < len(players):
        raise NoSeat(seat)
    return players[seat]


def seat_name(store: Store, session_id: str, seat: int) -> str:
    """The name at ``seat`` of the session (``NoSeat`` past the table; the store's ``NotFound`` for an unknown
    session)."""
    return name_at(store.get_session(session_id).players, seat)


def asked_move_code(code: Any) -> str | None:
    """The ``move_code`` a request sent, its spaces dropped (left out, null or blank: None); a ``DealInputError``
    naming it for anything but text of at most ``MAX_MOVE_CODE`` characters."""
    if code is None:
        return None
    if not isinstance(code, str) or len(code) > MAX_MOVE_CODE:
        raise bad_field("move_code", M_("the seat's move code, as text"))
    return "".join(code.split()) or None


def take_seat(
    store: Store,
    session_id: str,
    seat: int,
    *,
    token: str | None,
    scorer: bool,
    move: str | None,
    leave: str | None = None,
) -> SeatTaken | SeatHeldBy:
    """This phone takes ``seat`` ("this is me"): a free seat for anyone; the seat it holds (``token``) again changes
    nothing; a seat another phone holds for the scorer or with the seat's ``move`` code. The seat this phone held
    before (its token ``leave``) is freed once it has the new one."""
    try:
        held, took_over = store.take_seat(session_id, seat, token=token, scorer=scorer, move=move, leave=leave)
    except SeatHeld as err:
        return SeatHeldBy(err.code)
    return SeatTaken(held, took_over, again=token is not None and held == token)


def move_seat(store: Store, session_id: str, seat: int, token: str | None) -> MoveCode | None:
    """A one-time move code and link for a held seat, made by the phone holding it (``token``) or the scorer
    (``token`` None: the caller checked the edit token); None when nobody holds the seat (or ``token`` does not)."""
    made = store.new_move_code(session_id, seat, token)
    return None if made is None else MoveCode(made.code, made.link, made.expires_at)


@dataclass(frozen=True)
class MoveLinkPage:
    """A one-time move link's page: the seat it moves and its player (None: no such link, or one used up or
    expired), and ``mine`` when this phone holds that seat already."""

    seat: int | None
    name: str | None
    mine: bool


def move_link_page(store: Store, session_id: str, link: str, *, claimed: tuple[int | None, str | None]) -> MoveLinkPage:
    """The page of the one-time ``link`` (its secret), for a request whose seat cookie names ``claimed`` (its seat
    and token); it changes nothing (``NotFound`` for an unknown session)."""
    names = store.get_session(session_id).players
    seat = store.move_of(session_id, link) if len(link) <= MAX_MOVE_CODE else None
    if seat is None:
        return MoveLinkPage(None, None, mine=False)
    return MoveLinkPage(seat, names[seat], mine=claimed[0] == seat and store.seat_of(session_id, claimed[1]) == seat)


def free_seat(store: Store, session_id: str, seat: int, token: str | None = None) -> bool:
    """Free a seat: the phone holding it (``token``) or the scorer (``token`` None); True when it was held."""
    return store.free_seat(session_id, seat, token)


def save_part(
    store: Store,
    session_id: str,
    seat: int,
    part: dict[str, Any] | None,
    *,
    revision: int,
    by: str,
    deal: int | None,
    generation: int | None,
) -> PartSaved | PartStale | DraftMoved:
    """Save a seat's part written ``by`` the seat's phone or the scorer, from the part's ``revision`` the writer saw,
    for the deal (and draft ``generation``) the writer was entering. The same part sent again is stored once."""
    try:
        saved = store.save_part(session_id, seat, part, revision=revision, by=by, deal=deal, generation=generation)
    except DraftClosed as err:
        return DraftMoved(err.deal)
    except Conflict:
        current = store.draft(session_id).parts.get(seat)
        return PartStale(current.written_by if current else None)
    return PartSaved(saved.revision)


@dataclass(frozen=True)
class AskedPart:
    """A seat's part as a request writes it: the part, the part's revision its writer saw (0: none), and the deal
    and the draft (its generation) it was written for (None: not said)."""

    part: dict[str, Any] | None
    revision: int
    deal: int | None = None
    generation: int | None = None


def asked_part(body: dict[str, Any], rules: RuleSet) -> AskedPart:
    """The part a JSON ``body`` writes (the API's): ``revision`` (required), ``deal``, ``draft`` (which draft, the
    answers' "draft": a deal deleted meanwhile keeps it) and the part's own fields (``draft.read_part``); a field
    that does not read is a ``DealInputError`` naming it."""
    revision, deal = read_whole(body, "revision", required=True), read_whole(body, "deal")
    generation = read_whole(body, "draft")
    part = read_part({k: v for k, v in body.items() if k not in ("revision", "deal", "draft")}, "part", rules)
    return AskedPart(part, revision or 0, deal, generation)


def write_asked_part(
    store: Store, draft: Draft, seat: int, asked: AskedPart, *, by: str
) -> tuple[PartSaved | PartStale | DraftMoved, Draft]:
    """Save the ``asked`` part of ``seat`` of ``draft``'s session, written ``by`` the seat's phone or the scorer
    (``save_part``): the outcome, and the draft as it is then."""
    sid = draft.session.id
    saved = save_part(
        store, sid, seat, asked.part, revision=asked.revision, by=by, deal=asked.deal, generation=asked.generation
    )
    return saved, load_draft(store, sid)


def refuse_part(store: Store, session_id: str, seat: int, message: str, typed: str, *, generation: int | None) -> None:
    """Keep that the phone holding ``seat`` had its save refused (``message``; what was ``typed``), for the draft
    ``generation`` it typed on: the scorer's page shows the seat as refused until its next save is stored."""
    store.refuse_part(session_id, seat, message, typed, generation=generation)


def discard_draft(store: Store, session_id: str) -> None:
    """Empty the draft: every part and how the deal ended (the seats stay taken)."""
    store.discard_draft(session_id)


def save_draft_end(
    store: Store, session_id: str, end: dict[str, Any], *, deal: int, generation: int | None
) -> DraftMoved | None:
    """Keep how the deal being entered ended (who went out, express, redeal) for the draft of ``deal`` (and draft
    ``generation``); ``DraftMoved`` when that deal has been recorded meanwhile."""
    try:
        store.save_draft_end(session_id, end, deal=deal, generation=generation)
    except DraftClosed as err:
        return DraftMoved(err.deal)
    return None


def part_writer(
    store: Store, session_id: str, seat: int, *, seat_token: str | None, edit_token: str | None
) -> str | None:
    """Who a request writes a seat's part as (the one rule, for the pages and the API): ``"player"`` for the phone
    holding the seat (its seat token), ``"scorer"`` for the edit token; None for anyone else."""
    if seat_token is not None and store.seat_of(session_id, seat_token) == seat:
        return "player"
    if edit_token is not None and store.check_token(session_id, edit_token):
        return "scorer"
    return None


def part_page(
    store: Store, draft: Draft, seat: int, *, claimed: tuple[int | None, str | None], edit_token: str | None
) -> PartPage:
    """A seat's part page for a request holding the seat cookie ``claimed`` (its seat and token) and ``edit_token``:
    who it writes the part as, and whether its phone lost the seat (taken by another phone, or freed)."""
    writer = part_writer(store, draft.session.id, seat, seat_token=claimed[1], edit_token=edit_token)
    lost = None
    if writer is None and claimed[0] == seat:
        lost = "taken" if seat in draft.taken else "freed"
    finished = scoreboard(store, draft.session.id).status.finished
    return PartPage(draft, seat, writer, lost, replaced_part(store, draft, seat), finished)


@dataclass(frozen=True)
class NotRead:
    """Nothing was recorded: the draft, ended as asked, does not read (``reason``)."""

    reason: Reason


def waiting_reason(waiting: Waiting) -> Reason:
    """Why the draft cannot be recorded yet, as the core's reason (``draft_waiting``): the players whose part is
    missing."""
    return Reason("draft_waiting", {"players": ", ".join(waiting.players)})


def record_shown_draft(
    store: Store, draft: Draft, end: dict[str, Any], ask: Ask, say: Say, *, deal: int, generation: int | None
) -> Recording | NotRead:
    """Record the draft as the scorer's page showed it: draft ``generation`` (None, from a page made before forms
    said so: deal ``deal``), at version ``ask.expected``, ended as ``end`` says. A repeated form key answers again;
    a page shown for another draft is ``Changed``."""
    outcome = replayed(store, draft.session.id, ask, say)
    if outcome is not None:
        return outcome
    if (deal != draft.deal) if generation is None else (generation != draft.generation):
        return Changed(version=draft.version)
    try:
        return record_draft(store, draft, end, ask, say)
    except KunkenError as err:
        return NotRead(err.reason)


def record_asked_draft(store: Store, session: SessionRow, body: dict[str, Any], ask: Ask, say: Say) -> Recording:
    """Record the draft as the next deal as a request asks (the API's, like a deal's): a repeated key answers again;
    an ended session is ``SessionEnded``, said before the draft is read; how the deal ended as ``body`` says
    (``asked_end``: a bad field is a ``KunkenError``)."""
    outcome = replayed(store, session.id, ask, say)
    if outcome is not None:
        return outcome
    if session.ended_at:
        raise SessionEnded()
    draft = load_draft(store, session.id)
    return record_draft(store, draft, asked_end(draft, body), ask, say)
