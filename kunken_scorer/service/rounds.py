"""A club night's rounds (issue 47): the organiser plans the next round's seating, starts it, undoes a round started
by mistake, ends a round's tables or the whole night. The page and the API both call these.

- ``plan_round``: the next round's seating as asked (a ``SeatingAsk``: a mode, or the tables given; late arrivals
  and drop-outs), checked, nothing stored: the page's preview and the API's ``"preview"``;
- ``start_round``: the round planned, started: one session a table, in one transaction;
- ``undo_round``: the last round removed while nothing was typed at its tables;
- ``end_round`` and ``end_night``: the tables ended (a round's, or every one), so that the ratings count them.

The seating modes (``SEATING_MODES``): ``"fresh"`` (everyone meeting as few players again as can be, over the
whole night: ``core.seating.fresh_seating``), ``"standings"`` (the night's leaders together, in the night's
ranking) and ``"rating"`` (the players' ratings, best first); ``"tables"`` when the tables are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.fields import clean_name, player_key
from ..core.messages import N_, KunkenError
from ..core.nights import Seating, meetings
from ..core.rules import RuleSet
from ..core.seating import fresh_seating, ranked_seating, table_sizes, tables_for
from ..store import StorageUnavailable, Store
from .nights import NightBoard, NightInputError, NightMade, NightStateError, _seat_round, night_board, night_tables
from .ratings import MODEL, refresh_ratings

#: How the next round may be seated when its tables are not given.
SEATING_MODES = ("fresh", "standings", "rating")


def _key(name: str) -> str:
    """How two names are compared: in any capitals (names are kept NFC)."""
    return player_key(name)


@dataclass(frozen=True)
class SeatingAsk:
    """What the organiser asks of the next round: a seating ``mode`` (``SEATING_MODES``) or the ``tables`` given,
    the names arriving late and the names leaving (neither when the tables are given: they say who plays)."""

    mode: str = "fresh"
    tables: Any = None
    arrivals: Any = ()
    leaving: Any = ()

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> SeatingAsk:
        """The ask of an API body: ``mode``, ``tables``, ``arrivals``, ``leaving`` (read by ``plan_round``)."""
        tables = body.get("tables")
        mode = body.get("mode", "tables" if tables is not None else "fresh")
        return cls(mode, tables, body.get("arrivals") or (), body.get("leaving") or ())


@dataclass(frozen=True)
class RoundPlan:
    """The next round as it would be seated: its number, how (``mode``), its tables, who arrives and who leaves
    against the last round, how many times two players at one of its tables have met tonight already (``repeats``)
    and the earlier rounds' tables still playing (``open_tables``: (round, table)s)."""

    round: int
    mode: str
    tables: Seating
    arrivals: tuple[str, ...]
    leaving: tuple[str, ...]
    repeats: int
    open_tables: tuple[tuple[int, int], ...]


def _names(value: Any, field: str) -> list[str]:
    """A list of names (arrivals, or players leaving), each well formed."""
    if isinstance(value, str):
        value = [n for n in value.replace("\n", ",").split(",") if n.strip()]
    if not isinstance(value, list | tuple):
        raise NightInputError(N_("%(field)s: expected a list of names."), field=field)
    out = []
    for i, name in enumerate(value):
        try:
            out.append(clean_name(name, f"{field}[{i}]"))
        except KunkenError as err:
            raise NightInputError(N_("%(field)s: %(why)s"), err.reason, field=field) from None
    return out


def _present(board: NightBoard, arrivals: list[str], leaving: list[str]) -> list[str]:
    """The players of the next round: the last round's, less those leaving, and the arrivals after them."""
    last = [name for t in board.tables for name in t.players]
    here = {_key(n) for n in last}
    for name in leaving:
        if _key(name) not in here:
            raise NightInputError(N_("%(name)s is not playing this round: nobody of that name can leave."), name=name)
    for name in arrivals:
        if _key(name) in here:
            raise NightInputError(N_("%(name)s is already playing: an arrival is a new name."), name=name)
    gone = {_key(n) for n in leaving}
    players = [n for n in last if _key(n) not in gone]
    seen = {_key(n) for n in players}
    for name in arrivals:
        if _key(name) not in seen:  # the same arrival twice counts once; one who left earlier may come back
            seen.add(_key(name))
            players.append(name)
    return players


def _ordinals(store: Store, players: Sequence[str]) -> dict[str, float]:
    """Each player's rating ordinal (the starting one, 0, for a player never rated), the ratings brought up to date
    first when that is quick."""
    try:
        refresh_ratings(store)
    except StorageUnavailable:
        pass  # the ratings as last worked out
    rows = store.ratings(sorted({_key(n) for n in players}))
    start = MODEL.mu - 3 * MODEL.sigma
    return {n: (rows[_key(n)].mu - 3 * rows[_key(n)].sigma) if _key(n) in rows else start for n in players}


def _seated(store: Store, board: NightBoard, ask: SeatingAsk, players: list[str]) -> Seating:
    """The next round's tables for ``players`` seated by ``ask.mode``, as many tables as the last round when every
    one keeps the game's number of players."""
    rules = RuleSet.from_dict(board.night.rules)
    try:
        count = tables_for(len(players), len(board.tables), rules.min_players, rules.max_players)
    except ValueError:
        raise NightInputError(
            N_("%(count)s players cannot sit at tables of %(min)s to %(max)s."),
            count=len(players),
            min=rules.min_players,
            max=rules.max_players,
        ) from None
    sizes = table_sizes(len(players), count)
    if ask.mode == "fresh":
        return fresh_seating(board.seating, players, sizes, seed=board.night.id)
    if ask.mode == "standings":
        place = {_key(s.name): i for i, s in enumerate(board.ranked)}
        order = sorted(players, key=lambda n: place.get(_key(n), len(place)))  # arrivals after everyone placed
        return ranked_seating(order, sizes)
    ordinals = _ordinals(store, players)
    return ranked_seating(sorted(players, key=lambda n: -ordinals[n]), sizes)


def _plan(store: Store, board: NightBoard, ask: SeatingAsk) -> RoundPlan:
    """``plan_round`` on a board read already (inside the transaction that starts the round, or not)."""
    if board.night.ended_at:
        raise NightStateError(N_("The night has ended: no round can start."))
    last = [name for t in board.tables for name in t.players]
    if ask.mode == "tables":
        tables = night_tables(RuleSet.from_dict(board.night.rules), ask.tables)
        seated = {_key(n) for t in tables for n in t}
        here = {_key(n) for n in last}
        arrivals = tuple(n for t in tables for n in t if _key(n) not in here)
        leaving = tuple(n for n in last if _key(n) not in seated)
    elif ask.mode in SEATING_MODES:
        if ask.tables is not None:
            raise NightInputError(N_("Send either the tables or a seating mode, not both."))
        arrivals_in, leaving_in = _names(ask.arrivals, "arrivals"), _names(ask.leaving, "leaving")
        players = _present(board, arrivals_in, leaving_in)
        tables = _seated(store, board, ask, players)
        arrivals = tuple(n for n in players if _key(n) not in {_key(m) for m in last})
        leaving = tuple(n for n in last if _key(n) in {_key(m) for m in leaving_in})
    else:
        raise NightInputError(N_("mode: expected one of %(options)s."), options=", ".join((*SEATING_MODES, "tables")))
    met = meetings([[[_key(n) for n in t] for t in r] for r in board.seating])
    repeats = sum(met[frozenset((_key(a), _key(b)))] for t in tables for i, a in enumerate(t) for b in t[i + 1 :])
    still = tuple((t.round, t.number) for r in board.rounds for t in r if t.board.session.ended_at is None)
    return RoundPlan(len(board.rounds) + 1, ask.mode, tables, arrivals, leaving, repeats, still)


def plan_round(store: Store, night_id: str, ask: SeatingAsk) -> RoundPlan:
    """The next round of the night ``night_id`` as ``ask`` seats it, nothing stored (a ``NightInputError`` says what
    is wrong with the ask). The same night and ask give the same plan, so the preview a page shows is the round
    its Confirm starts (the page sends the tables back as given)."""
    return _plan(store, night_board(store, night_id), ask)


def start_round(store: Store, night_id: str, token: str, round_no: int | None, ask: SeatingAsk) -> NightMade | None:
    """Start the next round of the night as ``ask`` seats it, one session a table, in one transaction: the night's
    standings, the tables and the new round are read and written together, so two taps at once make one round.
    ``round_no`` (the round the organiser saw as next; None: whichever is next) makes a double tap one round: None
    is returned when that round has started already; a round past the next is a ``NightInputError``. Whoever calls
    it holds the night's ``token``."""
    with store.night_write():
        board = night_board(store, night_id)
        if round_no is not None and round_no > len(board.rounds) + 1:
            raise NightStateError(N_("There is no round %(n)s to start yet: reload the night's page."), n=round_no)
        if round_no is not None and round_no <= len(board.rounds):
            return None
        plan = _plan(store, board, ask)
        made = _seat_round(store, board.night, token, plan.round, plan.tables)
    return NightMade(board.night, None, tuple(made))


def undo_round(store: Store, night_id: str, round_no: int) -> None:
    """Remove round ``round_no``, the last one, started by mistake: its tables and their sessions, while nothing was
    typed at any of them (no deal, no part on a phone); the night is as before it started. Round 1 is the night
    itself; an earlier round, or one where something was typed, is a ``NightInputError``."""
    with store.night_write():
        board = night_board(store, night_id)
        if round_no < 2 or round_no != len(board.rounds):
            raise NightStateError(N_("Only the last round, from round 2, can be undone."))
        if store.round_typed(night_id, round_no):
            raise NightStateError(
                N_("Round %(n)s cannot be undone: a deal or a player's part is already typed at its tables."),
                n=round_no,
            )
        store.remove_round(night_id, round_no)


@dataclass(frozen=True)
class TablesEnded:
    """Tables ended by the organiser: how many ended now (the others had ended before)."""

    ended: int
    tables: int


def end_round(store: Store, night_id: str, round_no: int) -> TablesEnded:
    """End every table of round ``round_no`` still playing (``NightInputError`` for a round the night does not
    have): their scores stand, nothing more is recorded, and the ratings count them (in round and table order,
    whatever order the tables end in)."""
    with store.night_write():
        board = night_board(store, night_id)
        if not 1 <= round_no <= len(board.rounds):
            raise NightInputError(N_("The night has no round %(n)s."), n=round_no)
        tables = board.rounds[round_no - 1]
        ended = sum(store.end_now(t.session_id) for t in tables)
    return TablesEnded(ended, len(tables))


def end_night(store: Store, night_id: str) -> TablesEnded:
    """End the night: every table of every round still playing, ended, and the night marked ended (no round can
    start). Ending it again ends nothing more."""
    with store.night_write():
        board = night_board(store, night_id)
        tables = [t for r in board.rounds for t in r]
        ended = sum(store.end_now(t.session_id) for t in tables)
        store.end_night(night_id)
    return TablesEnded(ended, len(tables))
