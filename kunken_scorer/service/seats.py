"""Seats and the players' draft: take, move and free a seat, save a part, discard the draft; each use case once.

Who may take a held seat is the store's one rule (``Store.take_seat``); these functions turn its answers into
outcomes the pages and the API put in their own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.messages import KunkenError, Reason
from ..store import Conflict, DraftClosed, SeatHeld, Store
from .answers import Say
from .deals import Ask, record_draft, replayed
from .drafts import Draft, PartPage
from .outcomes import Changed, DraftMoved, MoveCode, PartSaved, PartStale, Recording, SeatHeldBy, SeatTaken


def take_seat(
    store: Store, session_id: str, seat: int, *, token: str | None, scorer: bool, move: str | None
) -> SeatTaken | SeatHeldBy:
    """This phone takes ``seat`` ("this is me"): a free seat for anyone; the seat it holds (``token``) again changes
    nothing; a seat another phone holds for the scorer or with the seat's ``move`` code."""
    try:
        held, took_over = store.take_seat(session_id, seat, token=token, scorer=scorer, move=move)
    except SeatHeld as err:
        return SeatHeldBy(err.wrong_code)
    return SeatTaken(held, took_over, again=token is not None and held == token)


def move_seat(store: Store, session_id: str, seat: int, token: str | None) -> MoveCode | None:
    """A one-time move code and link for a held seat, made by the phone holding it (``token``) or the scorer
    (``token`` None: the caller checked the edit token); None when nobody holds the seat (or ``token`` does not)."""
    made = store.new_move_code(session_id, seat, token)
    return None if made is None else MoveCode(made.code, made.link, made.expires_at)


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
    return PartPage(draft, seat, writer, lost)


@dataclass(frozen=True)
class NotRead:
    """Nothing was recorded: the draft, ended as asked, does not read (``reason``)."""

    reason: Reason


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
