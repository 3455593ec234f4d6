"""Club nights (issue 37): several tables, each a session of its own, and the standings across them.

- ``night_tables``: the tables a request asks for, read and checked (a ``NightInputError`` naming what is wrong);
- ``create_night``: start a night with its first round's tables (one ``create_session`` a table); ``start_night``:
  the tables a request asks for, read, checked and started;
- ``night_board``: the night as every page and answer shows it: each round's tables and the standings;
  ``night_page``: the night's page, for the request's token;
- ``night_settings``: a night's name, ranking and way of entering hands, read and checked (its rounds:
  ``service.rounds``);
- ``table_tokens``: the tables' edit tokens, for whoever holds the night's token (``sent_table_tokens``: a token
  sent that is not the night's is a ``NightTokenWrong``);
- ``renew_night_token``: a new night's token (a new owner link), the old one and every phone holding it stopped.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.fields import player_key
from ..core.hands import hand_entries
from ..core.messages import N_, KunkenError, Reason
from ..core.nights import NightStanding, Seating, TableResult, meetings, night_standings, table_results
from ..core.rules import RuleSet
from ..store import NightRow, NightTableRow, Store
from ..store.nights import seal, unseal
from .board import Scoreboard, scoreboard
from .reading import player_named, session_players
from .sessions import create_session

#: The most tables a night may have (each one a session; the room screen shows every player).
MAX_TABLES = 20


class NightInputError(ValueError):
    """A night's tables that cannot be started: ``message`` says what, as an English message id (marked ``N_`` for
    the catalogs) whose ``%(name)s`` fields are ``params``; for a table's players, ``reason`` is the core's and the
    message quotes it as ``why``."""

    def __init__(self, message: str, reason: Reason | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message, self.reason, self.params = message, reason, params

    def on_page(self) -> NightInputError:
        """The error as a page says it: a table's player named "player 2", not by the API's path ``players[1]``."""
        reason = None if self.reason is None else player_named(self.reason)
        return NightInputError(self.message, reason, **self.params)


class NightStateError(NightInputError):
    """A round asked for that the night's state refuses, however well formed: the night has ended, the round to undo
    is not the last or has deals typed, the round to start is past the next (the API's ``409``)."""


class NightTokenWrong(Exception):
    """A token sent for a night that is not the night's (another, or an old one made anew): refused, never read as
    no token at all."""


def night_tables(rules: RuleSet, tables: Any) -> Seating:
    """The first round's tables as asked for: a list of 1 to ``MAX_TABLES`` tables, each the game's range of
    well-formed names (``session_players``), and no name at two tables (in any capitals)."""
    if not isinstance(tables, list):
        raise NightInputError(N_("tables: expected a list of tables, each a list of names."))
    if not tables:
        raise NightInputError(N_("Name the players of at least one table."))
    if len(tables) > MAX_TABLES:
        raise NightInputError(N_("A night has at most %(limit)s tables."), limit=MAX_TABLES)
    seen: dict[str, int] = {}
    out = []
    for number, names in enumerate(tables, start=1):
        try:
            players = session_players(rules, names)
        except KunkenError as err:
            raise NightInputError(N_("Table %(table)s: %(why)s"), err.reason, table=number) from None
        for name in players:
            other = seen.setdefault(player_key(name), number)
            if other != number:
                message = N_("%(name)s is at table %(other)s and at table %(table)s: a player sits at one table.")
                raise NightInputError(message, name=name, table=number, other=other)
        out.append(players)
    return out


@dataclass(frozen=True)
class NightMade:
    """A night started (or a round added): the night, its token (None for a round, or for a night its start form's
    key had started before: found, not made), the new tables' sessions with their edit tokens, in table order."""

    night: NightRow
    token: str | None
    tables: tuple[tuple[str, str], ...]


def _seat_round(store: Store, night: NightRow, token: str, round_no: int, seating: Seating) -> list[tuple[str, str]]:
    """One session a table of ``seating``, made table ``n`` of round ``round_no``: (session id, edit token)s."""
    rules = RuleSet.from_dict(night.rules)
    made = []
    for number, players in enumerate(seating, start=1):
        created = create_session(store, rules, players, None, hand_entry=night.hand_entry)
        assert created.token is not None  # no key: always a new session with its token
        store.add_night_table(
            night.id, round_no, number, created.session.id, seal(token, created.session.id, created.token)
        )
        made.append((created.session.id, created.token))
    return made


#: How a night's standings may rank: by place points (the fair one across tables of different sizes, the default)
#: or by total.
RANKINGS = ("points", "total")


@dataclass(frozen=True)
class NightSettings:
    """What a night is started with besides its tables: its ``name`` (None: shown as its date), its ``ranking``
    (``RANKINGS``) and the way its tables enter hands (None: the game's default)."""

    name: str | None = None
    ranking: str = "points"
    hand_entry: str | None = None


def night_settings(rules: RuleSet, name: Any = None, ranking: Any = None, hand_entry: Any = None) -> NightSettings:
    """A night's settings as a request sends them, checked: a ``NightInputError`` says what is wrong."""
    if name is not None and not isinstance(name, str):
        raise NightInputError(N_("name: expected the night's name as text."))
    name = " ".join(name.split()) if name else None
    if name is not None and len(name) > MAX_NIGHT_NAME:
        raise NightInputError(N_("The night's name is at most %(limit)s characters."), limit=MAX_NIGHT_NAME)
    if name is not None:
        name = unicodedata.normalize("NFC", name)
    ranking = "points" if ranking in (None, "") else ranking
    if ranking not in RANKINGS:
        raise NightInputError(N_("ranking: expected one of %(options)s."), options=", ".join(RANKINGS))
    hand_entry = None if hand_entry in (None, "") else hand_entry
    if hand_entry is not None and hand_entry not in hand_entries(rules):
        raise NightInputError(N_("hand_entry: expected one of %(options)s."), options=", ".join(hand_entries(rules)))
    return NightSettings(name or None, ranking, hand_entry)


#: The longest night's name kept.
MAX_NIGHT_NAME = 80


def create_night(
    store: Store,
    rules: RuleSet,
    tables: Seating,
    key: str | None = None,
    *,
    settings: NightSettings = NightSettings(),
    allow: Callable[[], None] | None = None,
) -> NightMade:
    """Start a night under ``rules`` with its first round's ``tables`` (checked by ``night_tables``) and its
    ``settings``, all in one transaction: the night, and one session a table. ``key`` (the start form's one-time
    key) makes a double tap one night: the same key again finds the night it started (``NightMade.token`` None, no
    tables made). ``allow`` is called once a table in that transaction, only when the night is made now (the
    address's count of sessions started: it raises to refuse, and nothing is stored)."""
    with store.night_write():
        night, token = store.create_night(
            rules.game,
            rules.to_dict(),
            key,
            name=settings.name,
            ranking=settings.ranking,
            hand_entry=settings.hand_entry,
        )
        if token is None:
            return NightMade(night, None, ())
        if allow is not None:
            for _ in tables:
                allow()
        made = _seat_round(store, night, token, 1, tables)
    return NightMade(night, token, tuple(made))


def start_night(
    store: Store,
    rules: RuleSet,
    tables: Any,
    key: str | None = None,
    *,
    settings: NightSettings = NightSettings(),
    allow: Callable[[], None] | None = None,
) -> NightMade:
    """Start a night as a request asks: its ``tables`` read and checked (``night_tables``: a ``NightInputError``
    says what is wrong, and nothing is made), then started (``create_night``, with its ``settings``, the start
    form's ``key`` and the address's ``allow``)."""
    return create_night(store, rules, night_tables(rules, tables), key, settings=settings, allow=allow)


@dataclass(frozen=True)
class NightTable:
    """One table of one round, with its scoreboard."""

    round: int
    number: int
    row: NightTableRow
    board: Scoreboard

    @property
    def session_id(self) -> str:
        return self.row.session_id

    @property
    def players(self) -> list[str]:
        return self.board.players


@dataclass(frozen=True)
class NightBoard:
    """A night as every page and answer shows it: each round's tables, the standings summed over them (best total
    first), the same players by place points, and the version tag that changes with any table."""

    night: NightRow
    rounds: tuple[tuple[NightTable, ...], ...]
    standings: tuple[NightStanding, ...]
    version: str
    by_points: tuple[NightStanding, ...] = field(default=())

    @property
    def ranked(self) -> tuple[NightStanding, ...]:
        """The standings in the night's ranking (``NightRow.ranking``): by place points, or by total."""
        return self.by_points if self.night.ranking == "points" else self.standings

    def place(self, standing: NightStanding) -> int:
        """A player's place in the night's ranking."""
        return standing.points_place if self.night.ranking == "points" else standing.place

    @property
    def tables(self) -> tuple[NightTable, ...]:
        """The current round's tables."""
        return self.rounds[-1] if self.rounds else ()

    @property
    def deals(self) -> int:
        """The deals played at every table of every round."""
        return sum(t.board.status.deals_played for tables in self.rounds for t in tables)

    @property
    def seating(self) -> list[Seating]:
        """Every round's tables as lists of names."""
        return [[t.players for t in tables] for tables in self.rounds]


def night_board(store: Store, night_id: str) -> NightBoard:
    """The night ``night_id`` (``NotFound`` when unknown) with every table scored by its scoreboard."""
    version = store.night_version(night_id)
    night = store.get_night(night_id)
    rounds: dict[int, list[NightTable]] = {}
    results: list[TableResult] = []
    for row in store.night_tables(night_id):
        board = scoreboard(store, row.session_id)
        rounds.setdefault(row.round, []).append(NightTable(row.round, row.table, row, board))
        results += table_results(row.round, row.table, board.totals, board.status.deals_played)
    standings = night_standings(results)
    by_points = sorted(standings, key=lambda s: (s.points_place, -s.total, player_key(s.name)))
    return NightBoard(
        night, tuple(tuple(t) for _, t in sorted(rounds.items())), tuple(standings), version, tuple(by_points)
    )


def repeat_meetings(board: NightBoard) -> int:
    """How many times two players of the current round had met at an earlier round's table."""
    earlier = meetings(board.seating[:-1])
    return sum(
        earlier[frozenset((a, b))] for t in board.tables for i, a in enumerate(t.players) for b in t.players[i + 1 :]
    )


@dataclass(frozen=True)
class NightPage:
    """The night's page: the night, ``owner`` when the request holds the night's token (its phone started the
    night), each table's edit token for that phone (``table_tokens``) and, after the first round, how many times
    players of the current round had met at an earlier round's table (``repeat_meetings``)."""

    board: NightBoard
    owner: bool
    tokens: dict[str, str]
    repeats: int | None


def night_page(store: Store, board: NightBoard, token: str | None) -> NightPage:
    """The page of the night ``board`` for a request carrying the night's ``token`` (or another, or none)."""
    repeats = repeat_meetings(board) if len(board.rounds) > 1 else None
    owner = is_night_owner(store, board.night.id, token)
    return NightPage(board, owner, table_tokens(store, board, token), repeats)


def is_night_owner(store: Store, night_id: str, token: str | None) -> bool:
    """True when ``token`` is the night's token: its holder started the night."""
    return store.check_night_token(night_id, token)


def table_tokens(store: Store, board: NightBoard, token: str | None) -> dict[str, str]:
    """Each table's edit token (by session id) for the holder of the night's ``token``; a table whose scorer link
    was made anew on its own page since is left out (the old token no longer works)."""
    if not store.check_night_token(board.night.id, token):
        return {}
    assert token is not None
    tokens = {}
    for tables in board.rounds:
        for table in tables:
            opened = unseal(token, table.session_id, table.row.sealed_token)
            if opened is not None and store.check_token(table.session_id, opened):
                tokens[table.session_id] = opened
    return tokens


def sent_table_tokens(store: Store, board: NightBoard, token: str | None) -> dict[str, str]:
    """``table_tokens`` for a token the request sent itself (the API's Bearer): without one, none; one that is not
    the night's raises ``NightTokenWrong`` (a page's old cookie is only no longer the owner's: ``table_tokens``)."""
    if token is not None and not store.check_night_token(board.night.id, token):
        raise NightTokenWrong()
    return table_tokens(store, board, token)


def renew_night_token(store: Store, night_id: str, token: str | None) -> str | None:
    """A new token for the night ``night_id`` (``NightNotFound`` when unknown), for the holder of its current
    ``token``: the old owner link and every phone that opened it stop at once, and the tables' scorer links are
    shown to the new token's holder. None when ``token`` is not the night's (no token, another, or one just
    replaced by a renewal sent at the same moment)."""
    store.get_night(night_id)
    if not token:
        return None
    return store.renew_night_token(night_id, token)
