"""Player statistics, kept up to date as sessions change, and the tally a recording adds its deal to."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..cache import Place
from ..core.deal import DealReport
from ..core.fields import player_key
from ..core.rules import RuleSet
from ..core.session import session_status
from ..store import (
    DealScore,
    MergeRow,
    SessionStatsRow,
    StorageUnavailable,
    Store,
)
from .board import CACHE, Scoreboard, deal_scores, place_of, scoreboard

# -- player statistics, kept up to date as sessions change --------------------------------------

_Entry = TypeVar("_Entry")


@dataclass
class PlayerHistory:
    """One player's record across every session on this install (names compared by ``player_key``: capitals and
    the way a letter was typed aside; two names merged are one player)."""

    name: str
    sessions: int = 0
    won: int = 0
    deals: int = 0
    points: int = 0
    expresses: int = 0
    last_played: str | None = None

    @property
    def average(self) -> float:
        """Average deal score (0 before the first deal)."""
        return self.points / self.deals if self.deals else 0.0


@dataclass(frozen=True)
class Tally:
    """What a session's statistics, and the answer to a recording, need of its deals: their sums."""

    session_id: str
    version: int
    game: str
    created_at: str
    players: tuple[str, ...]
    points: dict[str, int]  # each player's total over the scored deals (redeals score nothing)
    deals: int  # scored deals (redeals do not count)
    expresses: dict[str, int]  # express wins by player

    def add(self, record: dict[str, Any], report: DealReport, version: int, rules: RuleSet) -> Tally:
        """The tally with one more deal (its record as stored, and its report)."""
        if record.get("redeal"):
            return replace(self, version=version)
        scores = report.scores
        expresses = dict(self.expresses)
        went_out = record.get("went_out")
        if record.get("express") and rules.express and went_out in self.players:
            expresses[went_out] = expresses.get(went_out, 0) + 1
        return replace(
            self,
            version=version,
            deals=self.deals + 1,
            expresses=expresses,
            points={n: self.points[n] + scores.get(n, 0) for n in self.players},
        )


def tally_of(board: Scoreboard) -> Tally:
    """A session's tally, from its scoreboard."""
    names, rules = board.players, board.rules
    points = {n: 0 for n in names}
    deals = 0
    expresses: dict[str, int] = {}
    for scored in board.deals:
        deal = scored.deal
        if deal is None or deal.redeal:
            continue
        deals += 1
        for name, score in scored.scores.items():
            if name in points:
                points[name] += score
        if deal.express and rules.express and deal.went_out in names:
            expresses[deal.went_out] = expresses.get(deal.went_out, 0) + 1
    session = board.session
    return Tally(session.id, board.version, session.game, session.created_at, tuple(names), points, deals, expresses)


def _remember(place: Place | None, tally: Tally) -> Tally:
    if place is not None:
        CACHE.put_at(place, ("tally", tally.session_id, tally.version), tally)
    return tally


def tally_after(
    place: Place | None, session_id: str, record: dict[str, Any], report: DealReport, version: int, rules: RuleSet
) -> Tally | None:
    """The session's tally at ``version``, the version the deal ``record`` is making: the tally of the
    version before (kept in ``CACHE`` for the database ``place``) plus this deal. None when that tally is
    not known (nothing is summed again).

    Called inside the deal's transaction, so nothing is remembered here: the caller remembers the
    tally (``remember_tally``) once the deal is committed, and a rolled-back deal leaves no trace.
    """
    known = None if place is None else CACHE.find_at(place, ("tally", session_id, version - 1))
    return None if known is None else known.add(record, report, version, rules)


def remember_tally(place: Place | None, tally: Tally) -> Tally:
    """Keep a committed version's tally for the recordings after it."""
    return _remember(place, tally)


def session_tally(store: Store, session_id: str) -> Tally:
    """The session's tally now."""
    place = place_of(store)
    version = store.version(session_id)
    known = None if place is None else CACHE.find_at(place, ("tally", session_id, version))
    return known or _remember(place, tally_of(scoreboard(store, session_id)))


#: The most points, either way, one session adds to a player's statistics: sums over any number of sessions
#: stay SQLite integers. Only a hand an older release let through scores more (100 doubling jokers: 32 digits,
#: which SQLite refused, and /players failed for every session).
MOST_STATS_POINTS = 10**15


@dataclass(frozen=True)
class MergedInto:
    """The player a merged name counts as: its key, and the name it is shown by."""

    player: str
    name: str


def merge_targets(merges: Iterable[MergeRow]) -> dict[str, MergedInto]:
    """Each merged player's key -> the player it counts as, chains followed: A merged into B, and B into C, counts
    as C (shown by the name C was given when B was merged into it). A loop, which the service never lets through
    (``service.merges``), counts each of its names as itself.

    >>> first = MergeRow(1, "лёня", "Лёня", "леня", "Леня", "", None)
    >>> then = MergeRow(2, "леня", "Леня", "лёва", "Лёва", "", None)
    >>> {key: into.name for key, into in merge_targets([first, then]).items()}
    {'лёня': 'Лёва', 'леня': 'Лёва'}
    """
    direct = {m.from_player: m for m in merges}
    found: dict[str, MergedInto] = {}
    for start, merge in direct.items():
        seen = {start}
        while merge.into_player in direct and merge.into_player not in seen:
            seen.add(merge.into_player)
            merge = direct[merge.into_player]
        if merge.into_player not in seen:
            found[start] = MergedInto(merge.into_player, merge.into_name)
    return found


def session_players(names: Iterable[str], merged: Mapping[str, MergedInto]) -> list[tuple[str, str]]:
    """The (player key, name shown) each of a session's ``names`` counts as in the statistics: its ``player_key``,
    or the player a standing merge counts it as (``merged``), with that player's name.

    Two names of one session are never one player there: a session m019 left with two spellings of one name (NFC
    would make them one) keys its names casefolded as typed, as before; a merge that would make two of its names
    one (a session recorded with both names after the merge) is not applied to those names in that session.

    >>> into = {"лёня": MergedInto("леня", "Леня")}
    >>> session_players(["Лёня", "Вера"], into)
    [('леня', 'Леня'), ('вера', 'Вера')]
    >>> session_players(["Лёня", "Леня"], into)
    [('лёня', 'Лёня'), ('леня', 'Леня')]
    """
    names = list(names)
    keys = [player_key(name) for name in names]
    if len(set(keys)) < len(keys):
        keys = [name.casefold() for name in names]
    targets = [merged.get(key) for key in keys]
    counts = Counter(target.player if target else key for key, target in zip(keys, targets, strict=True))
    return [
        (target.player, target.name) if target and counts[target.player] == 1 else (key, name)
        for name, key, target in zip(names, keys, targets, strict=True)
    ]


def stats_rows(tally: Tally, merged: Mapping[str, MergedInto] | None = None) -> list[SessionStatsRow]:
    """Each player's part of the statistics from one session; none while it has no scored deal.

    A session counts once it has at least one scored deal (redeals do not count). Its winner
    is whoever leads after its last deal, ended or not; players tied for the lead each win.
    Its points count up to ``MOST_STATS_POINTS`` either way. A player is keyed by ``player_key``; a name a
    standing merge counts as another player (``merged``: ``merge_targets``) is keyed, and named, as that player
    (the session itself keeps the name as typed).
    """
    if not tally.deals:
        return []
    names = list(tally.players)
    winners = {s.name for s in session_status(names, [tally.points], None).standings if s.place == 1}
    return [
        SessionStatsRow(
            player=player,
            name=shown,
            deals=tally.deals,
            points=max(-MOST_STATS_POINTS, min(MOST_STATS_POINTS, tally.points[name])),
            expresses=tally.expresses.get(name, 0),
            won=name in winners,
            played_at=tally.created_at,
        )
        for name, (player, shown) in zip(names, session_players(names, merged or {}), strict=True)
    ]


def _catch_up(
    store: Store,
    stale: Callable[[int], list[str]],
    entry: Callable[[Scoreboard], _Entry],
    write: Callable[[list[_Entry]], int],
    batch: int,
    budget: int | None,
) -> int:
    """Work out, from each stale session's scoreboard, what the store keeps of it (``entry``) and ``write`` it,
    ``batch`` sessions a transaction, at most ``budget`` sessions; the number worked out. Stops when a batch wrote
    nothing: requests changed those sessions meanwhile, and work theirs out themselves."""
    done = 0
    while budget is None or done < budget:
        sessions = stale(batch)
        if not sessions:
            return done
        written = write([entry(scoreboard(store, session_id)) for session_id in sessions])
        done += len(sessions)
        if not written:
            return done
    return done


def refresh_stale_stats(store: Store, budget: int | None = None) -> int:
    """Bring the sessions' statistics up to date (those changed outside a request, or before a
    crash), at most ``budget`` of them; returns how many were worked out. Cheap when none is
    stale (a partial index)."""

    # the standing merges, read once a call and only when some session is stale, with their generation: a merge
    # made or undone meanwhile writes nothing (``set_many_session_stats``), and the next look works them out again
    read: list[tuple[int, dict[str, MergedInto]]] = []

    def merges() -> tuple[int, dict[str, MergedInto]]:
        if not read:
            generation, standing = store.player_merges()
            read.append((generation, merge_targets(standing)))
        return read[0]

    def entry(board: Scoreboard) -> tuple[str, int, str, list[SessionStatsRow]]:
        tally = tally_of(board)
        return (board.session.id, tally.version, tally.game, stats_rows(tally, merges()[1]))

    def write(entries: list[tuple[str, int, str, list[SessionStatsRow]]]) -> int:
        return store.set_many_session_stats(entries, merges()[0])

    return _catch_up(store, store.stale_stats, entry, write, 500, budget)


def player_history(store: Store, game: str | None = None, limit: int | None = None) -> list[PlayerHistory]:
    """Every player's sessions played and won, deals, points and expresses, the most wins first, then the
    best average (the first ``limit`` players, when given). Read from the statistics the store keeps, so the
    cost does not grow with the number of sessions."""
    # The sessions changed since the last look (a write only makes its session's statistics stale;
    # working them out here costs one tally each, usually remembered from the recording itself).
    try:
        refresh_stale_stats(store, budget=500)
    except StorageUnavailable:
        pass  # a file that cannot be written now: the statistics as they were last worked out
    return [
        PlayerHistory(row.name, row.sessions, row.won, row.deals, row.points, row.expresses, row.last_played)
        for row in store.player_stats(game, limit)
    ]


def refresh_stale_scores(store: Store, budget: int | None = None) -> int:
    """Bring the ``deal_scores`` of every session marked incomplete up to date (a file from before the table, a deal
    brought back without its rows), at most ``budget`` sessions; the number of sessions done."""

    def entry(board: Scoreboard) -> tuple[str, int, dict[int, list[DealScore]]]:
        return (board.session.id, board.version, {d.row.id: deal_scores(board.players, d.report) for d in board.deals})

    return _catch_up(store, store.stale_scores, entry, store.set_many_session_scores, 200, budget)


def stats_stale_in(database: str) -> bool:
    """True when some session's player statistics in the file ``database`` are out of date (read on a
    connection of its own; ``StorageUnavailable`` when the file cannot be read)."""
    store = Store.connect(database)
    try:
        return bool(store.stale_stats(1) or store.stale_scores(1))
    finally:
        store.close()


def refresh_stale_stats_in(database: str) -> None:
    """Bring every session's player statistics in the file ``database`` up to date, on a connection of its own."""
    store = Store.connect(database)
    try:
        refresh_stale_stats(store)
        refresh_stale_scores(store)
    finally:
        store.close()
