"""Players' ratings (issue 37) and head to head.

A rating is openskill's Plackett-Luce rating (``mu``, ``sigma``; shown as its ordinal, ``mu - 3 sigma``), a pure
function of the history: every ended session's final order (its totals, best first; equal totals share a place),
folded in the order the sessions ended (``ended_at`` in UTC, then the session's id), a club night's tables at the
night's start, round by round and table by table (``rating_key``). The store keeps the result
(``store.ratings``) and the last session folded in (``rating_mark``):

- a session that ends after every session already rated is folded in on its own (``refresh_ratings``);
- an ended session that sorts before the last one rated (an import of an evening played earlier), or one whose
  version moved since it was rated, starts the whole history again (``replay_ratings``): at once for a small file
  (``INLINE_REPLAY`` ended sessions), else by the background catch-up, the ratings shown meanwhile as they were.

A session's totals are read from its player statistics (``service.stats``), worked out first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce

from ..core.fields import bad_field, clean_name, player_key
from ..core.messages import Reason
from ..core.rules import GAMES
from ..store import RatingRow, Standing, StorageUnavailable, Store, UnratedSession
from .stats import PlayerHistory, player_history, refresh_stale_stats

#: The rating model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: A rating is provisional until its player has this many rated sessions.
PROVISIONAL_UNTIL = 5
#: The most ended sessions a request replays itself (≈ 0.1 s); a longer history is replayed in the background.
INLINE_REPLAY = 1000
#: The most sessions waiting to be rated a request looks at; more (an upgraded file) are left to the background.
PENDING_LOOK = 500
#: The sessions the head-to-head lists (the latest first); the counts are over every one.
TOGETHER_SHOWN = 100


@dataclass(frozen=True)
class Rating:
    """One player's rating: openskill's ``mu`` and ``sigma``, and the ended sessions rated."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    sessions: int = 0

    @property
    def ordinal(self) -> float:
        """What the pages show: ``mu - 3 sigma`` (openskill's ``ordinal()``), 0 before the first session."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """Fewer than ``PROVISIONAL_UNTIL`` rated sessions: the rating says little yet."""
        return self.sessions < PROVISIONAL_UNTIL


@dataclass(frozen=True)
class RatedPlayers:
    """The players' statistics (as ``player_history``) and their ratings (by casefolded name); ``current``: False
    while older history is being replayed in the background (the ratings are then as last worked out)."""

    history: list[PlayerHistory]
    ratings: dict[str, Rating]
    current: bool

    def rating(self, name: str) -> Rating:
        """The rating of the player ``name`` (a player with no ended session: the starting rating)."""
        return self.ratings.get(player_key(name), Rating())


def end_key(ended_at: str) -> str:
    """The order sessions ended in: ``ended_at`` in UTC, fixed width (a time without an offset is read as UTC).

    >>> end_key("2026-11-30T20:00:00+02:00"), end_key("2026-11-30T18:30:00")
    ('2026-11-30T18:00:00.000000', '2026-11-30T18:30:00.000000')
    """
    try:
        when = datetime.fromisoformat(ended_at)
    except ValueError:
        return ended_at
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%f")


def rating_key(ended_at: str, night_place: tuple[str, int, int] | None) -> str:
    """Where a session folds into the ratings: a session alone at ``end_key(ended_at)``; a club night's table at
    when the night started, then its round, then its table (``night_place``), whatever order the scorers ended the
    tables in, so that ending the night's tables in any order gives the same ratings.

    >>> rating_key("2026-11-30T20:00:00+00:00", None)
    '2026-11-30T20:00:00.000000'
    >>> rating_key("2026-11-30T23:00:00", ("2026-11-30T19:00:00", 2, 3))
    '2026-11-30T19:00:00.000000 r0002 t0003'
    """
    if night_place is None:
        return end_key(ended_at)
    started, round_no, table = night_place
    return f"{end_key(started)} r{round_no:04d} t{table:04d}"


def places(points: Sequence[int]) -> list[int]:
    """Each total's place, best first; equal totals share a place.

    >>> places([30, -5, 30, 10])
    [1, 4, 1, 3]
    """
    return [1 + sum(other > mine for other in points) for mine in points]


def rate_session(current: dict[str, RatingRow], standings: Sequence[Standing]) -> list[RatingRow]:
    """The new ratings of one session's players from its final totals (``current``: their ratings before)."""
    if len(standings) < 2:
        return []
    before = [current.get(s.player) or RatingRow(s.player, s.name, MODEL.mu, MODEL.sigma, 0) for s in standings]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places([s.points for s in standings])])
    return [
        RatingRow(s.player, s.name, team[0].mu, team[0].sigma, old.sessions + 1)
        for s, old, team in zip(standings, before, after, strict=True)
    ]


def _fold(current: dict[str, RatingRow], sessions: Iterable[Sequence[Standing]]) -> set[str]:
    """Fold sessions' final totals into ``current``, in order; the players whose rating changed."""
    changed: set[str] = set()
    for standings in sessions:
        for row in rate_session(current, standings):
            current[row.player] = row
            changed.add(row.player)
    return changed


def replay_ratings(store: Store) -> bool:
    """Work every rating out again from the whole history, in the order the sessions ended; False when another
    writer changed the ratings meanwhile (nothing written: look again)."""
    mark = store.rating_mark()
    ended = sorted(
        ((rating_key(e, place), sid), version, standings)
        for sid, e, version, place, standings in store.ended_standings()
    )
    current: dict[str, RatingRow] = {}
    _fold(current, (standings for _, _, standings in ended))
    last = ended[-1][0] if ended else ("", "")
    rated = [(key[1], version) for key, version, _ in ended]
    return store.save_ratings(mark.generation, list(current.values()), rated, last, replace=True)


def refresh_ratings(store: Store, inline: int = INLINE_REPLAY) -> bool:
    """Bring the ratings up to date with the ended sessions: fold in the sessions that ended after every one rated,
    or replay the whole history when an older one changed and the file has at most ``inline`` ended sessions.
    True when the ratings are up to date; False when what is left is for the background catch-up."""
    pending = store.unrated_sessions(PENDING_LOOK + 1)
    if not pending:
        return True
    mark = store.rating_mark()
    keyed = sorted(((rating_key(p.ended_at, p.night_place), p.id), p) for p in pending)
    if len(pending) > PENDING_LOOK or any(
        p.rated_version or key <= (mark.ended_key, mark.session_id) for key, p in keyed
    ):  # an older ended session changed, or very many ended at once (an upgraded file): the whole history again
        return store.ended_count() <= inline and replay_ratings(store) and not store.unrated_sessions(1)
    ready: list[tuple[tuple[str, str], UnratedSession]] = []
    for key, p in keyed:
        if not p.stats_fresh:  # its totals are not worked out yet: it, and every session after it, waits
            break
        ready.append((key, p))
    if not ready:
        return False
    standings = store.session_standings([p.id for _, p in ready])
    current = store.ratings(sorted({s.player for rows in standings.values() for s in rows}))
    changed = _fold(current, (standings[p.id] for _, p in ready))
    rated = [(p.id, p.version) for _, p in ready]
    saved = store.save_ratings(mark.generation, [current[p] for p in sorted(changed)], rated, ready[-1][0])
    return saved and len(ready) == len(pending)


def _rating(row: RatingRow) -> Rating:
    return Rating(row.mu, row.sigma, row.sessions)


def rated_players(store: Store, game: str | None = None, limit: int | None = None) -> RatedPlayers:
    """``player_history`` with every listed player's rating (brought up to date first, when that is quick)."""
    history = player_history(store, game, limit)
    try:
        current = refresh_ratings(store)
    except StorageUnavailable:
        current = False  # a file that cannot be written now: the ratings as last worked out
    rows = store.ratings([player_key(p.name) for p in history])
    return RatedPlayers(history, {player: _rating(row) for player, row in rows.items()}, current)


def asked_game(game: str | None) -> str | None:
    """The game the API's ``?game=`` asks statistics of (empty or left out: every game); a ``KunkenError`` naming
    the games for any other."""
    if game and game not in GAMES:
        raise bad_field("game", Reason("expected_one_of", {"options": ", ".join(GAMES)}))
    return game or None


def ratings_stale_in(database: str) -> bool:
    """True when some ended session of the file ``database`` is not rated yet (read on a connection of its own)."""
    store = Store.connect(database)
    try:
        return bool(store.unrated_sessions(1))
    finally:
        store.close()


def refresh_ratings_in(database: str) -> None:
    """The background catch-up: every session's statistics, then the ratings, up to date, on a connection of its
    own (a whole replay when an older session changed, however long the history)."""
    store = Store.connect(database)
    try:
        refresh_stale_stats(store)
        for _ in range(5):  # another writer in between: look again (a few times; the next look does the rest)
            if refresh_ratings(store, inline=10**9):
                return
    finally:
        store.close()


# -- head to head ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Meeting:
    """One session two players both played: each one's total, and who finished ahead (0: the first, 1: the
    second, None: level)."""

    session_id: str
    game: str
    played_at: str
    ended: bool
    points: tuple[int, int]

    @property
    def ahead(self) -> int | None:
        first, second = self.points
        return None if first == second else 0 if first > second else 1


@dataclass(frozen=True)
class HeadToHead:
    """Two players' sessions together: how many, who finished ahead how often, and the latest of them."""

    names: tuple[str, str]
    wins: tuple[int, int]
    level: int
    meetings: list[Meeting]

    @property
    def sessions(self) -> int:
        return self.wins[0] + self.wins[1] + self.level


@dataclass(frozen=True)
class UnknownPlayer:
    """No player of this name has a scored session on this install."""

    name: str


@dataclass(frozen=True)
class SamePlayer:
    """Both names are one player (names compared casefolded)."""

    name: str


def head_to_head(store: Store, first: Any, second: Any) -> HeadToHead | UnknownPlayer | SamePlayer:
    """The sessions the players ``first`` and ``second`` (names as typed, any capitals) played together, with who
    finished ahead; a name that is no name raises its ``KunkenError``."""
    typed = (clean_name(first, "a"), clean_name(second, "b"))
    if player_key(typed[0]) == player_key(typed[1]):
        return SamePlayer(typed[0])
    try:
        refresh_stale_stats(store, budget=500)
    except StorageUnavailable:
        pass  # the statistics as last worked out
    names = []
    for name in typed:
        known = store.player_name(player_key(name))
        if known is None:
            return UnknownPlayer(name)
        names.append(known)
    rows, (ahead, behind, level) = store.together(player_key(typed[0]), player_key(typed[1]), TOGETHER_SHOWN)
    meetings = [
        Meeting(r.session_id, r.game, r.played_at, r.ended_at is not None, (r.a_points, r.b_points)) for r in rows
    ]
    return HeadToHead((names[0], names[1]), (ahead, behind), level, meetings)


# -- the API's answers -------------------------------------------------------------------------------------------


def rating_answer(rating: Rating) -> dict[str, float]:
    """A rating as the API answers it (to 4 decimals)."""
    return {"mu": round(rating.mu, 4), "sigma": round(rating.sigma, 4), "ordinal": round(rating.ordinal, 4)}


def players_answer(rated: RatedPlayers) -> dict[str, Any]:
    """``GET /api/v1/players``: every player's statistics, as /players shows them, and rating."""
    players = []
    for p in rated.history:
        rating = rated.rating(p.name)
        players.append(
            {
                "name": p.name,
                "sessions": p.sessions,
                "wins": p.won,
                "deals": p.deals,
                "average": round(p.average, 1),
                "points": p.points,
                "expresses": p.expresses,
                "last_played": p.last_played,
                "rating": rating_answer(rating),
                "rated_sessions": rating.sessions,
                "provisional": rating.provisional,
            }
        )
    return {"players": players, "ratings_current": rated.current}


def head_to_head_answer(found: HeadToHead) -> dict[str, Any]:
    """``GET /api/v1/players/h2h``: the sessions two players played together and who finished ahead."""
    a, b = found.names
    return {
        "players": [a, b],
        "sessions": found.sessions,
        "ahead": {a: found.wins[0], b: found.wins[1]},
        "level": found.level,
        "together": [
            {
                "id": m.session_id,
                "game": m.game,
                "played_at": m.played_at,
                "ended": m.ended,
                "points": {a: m.points[0], b: m.points[1]},
                "ahead": None if m.ahead is None else found.names[m.ahead],
            }
            for m in found.meetings
        ],
    }
