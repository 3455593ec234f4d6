"""Players' ratings (worked out by the service from the ended sessions' final orders; the store keeps them), and
the sessions two players played together."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .db import Database
from .rows import RatingMark, RatingRow, Standing, TogetherRow, UnratedSession

#: Ended sessions read a batch at a time by ``ended_standings`` (a replay reads every one).
_BATCH = 5000
#: A session's club night and its place there, when it is a night's table.
_NIGHT_JOIN = " LEFT JOIN night_tables AS t ON t.session_id = s.id LEFT JOIN nights AS n ON n.id = t.night_id"


def _night_place(row: Sequence[Any]) -> tuple[str, int, int] | None:
    """(night started, round, table) from the night join's columns; None for a session that is no night's table."""
    return None if row[0] is None else (str(row[0]), int(row[1]), int(row[2]))


class RatingsMixin(Database):
    """Ratings and where they have come to; the sessions two players played together."""

    def unrated_sessions(self, limit: int) -> list[UnratedSession]:
        """Ended sessions whose place in the ratings is not worked out for their version (at most ``limit``; a
        partial index: cheap when there are none)."""
        rows = self.db.execute(
            "SELECT s.id, s.ended_at, s.version, s.rated_version, s.stats_version = s.version, n.created_at, t.round,"
            " t.table_no FROM sessions AS s" + _NIGHT_JOIN + " WHERE s.ended_at IS NOT NULL AND"
            " s.rated_version != s.version LIMIT ?",
            [limit],
        ).fetchall()
        return [UnratedSession(r[0], r[1], r[2], r[3], bool(r[4]), _night_place(r[5:])) for r in rows]

    def rating_mark(self) -> RatingMark:
        """The last session the ratings folded in (empty before the first) and the ratings' generation."""
        row = self.db.execute("SELECT ended_key, session_id, generation FROM rating_mark WHERE id = 1").fetchone()
        return RatingMark(*row) if row else RatingMark("", "", 0)

    def session_standings(self, session_ids: Sequence[str]) -> dict[str, list[Standing]]:
        """Each session's final totals by player (its player statistics; none for a session without a scored deal)."""
        found: dict[str, list[Standing]] = {sid: [] for sid in session_ids}
        for start in range(0, len(session_ids), 500):
            part = list(session_ids[start : start + 500])
            rows = self.db.execute(
                "SELECT session_id, player, name, points FROM session_stats"
                f" WHERE session_id IN ({', '.join('?' * len(part))}) ORDER BY session_id, rowid",
                part,
            )
            for sid, player, name, points in rows:
                found[sid].append(Standing(player, name, points))
        return found

    def ended_standings(self) -> Iterator[tuple[str, str, int, tuple[str, int, int] | None, list[Standing]]]:
        """(id, ended_at, version, night place, final totals) of every ended session whose statistics are up to
        date, in no particular order (read a batch of sessions at a time, each batch in one snapshot); the night
        place as ``UnratedSession.night_place``."""
        after = ""
        while True:
            with self.db.atomic():
                sessions = self.db.execute(
                    "SELECT s.id, s.ended_at, s.version, n.created_at, t.round, t.table_no FROM sessions AS s"
                    + _NIGHT_JOIN
                    + " WHERE s.ended_at IS NOT NULL AND s.stats_version = s.version AND s.id > ? ORDER BY s.id"
                    " LIMIT ?",
                    [after, _BATCH],
                ).fetchall()
                standings = self.session_standings([s[0] for s in sessions])
            for sid, ended_at, version, *place in sessions:
                yield sid, ended_at, version, _night_place(place), standings[sid]
            if len(sessions) < _BATCH:
                return
            after = sessions[-1][0]

    def ratings(self, players: Sequence[str] | None = None) -> dict[str, RatingRow]:
        """The ratings of ``players`` (casefolded names), or of everyone rated; a player never rated is missing."""
        if players is None:
            rows = self.db.execute("SELECT player, name, mu, sigma, sessions FROM ratings").fetchall()
        else:
            rows = []
            for start in range(0, len(players), 500):
                part = list(players[start : start + 500])
                rows += self.db.execute(
                    "SELECT player, name, mu, sigma, sessions FROM ratings"
                    f" WHERE player IN ({', '.join('?' * len(part))})",
                    part,
                ).fetchall()
        return {r[0]: RatingRow(*r) for r in rows}

    def save_ratings(
        self,
        generation: int,
        ratings: Sequence[RatingRow],
        rated: Sequence[tuple[str, int]],
        mark: tuple[str, str],
        *,
        replace: bool = False,
    ) -> bool:
        """Write ``ratings`` (``replace``: in place of every rating), mark the sessions ``rated`` (id, version) as
        rated at that version and ``mark`` (ended key, id) as the last folded in; only while the ratings are still
        at ``generation`` (another writer since: nothing is written, False)."""
        with self._write():
            if self.rating_mark().generation != generation:
                return False
            if replace:
                self.db.execute("DELETE FROM ratings")
            self.db.conn.executemany(
                "INSERT INTO ratings (player, name, mu, sigma, sessions) VALUES (?, ?, ?, ?, ?) ON CONFLICT(player)"
                " DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
                " sessions = excluded.sessions",
                [(r.player, r.name, r.mu, r.sigma, r.sessions) for r in ratings],
            )
            self.db.conn.executemany(
                "UPDATE sessions SET rated_version = ? WHERE id = ? AND version = ?",
                [(version, sid, version) for sid, version in rated],
            )
            self.db.execute(
                "INSERT INTO rating_mark (id, ended_key, session_id, generation) VALUES (1, ?, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET ended_key = excluded.ended_key, session_id = excluded.session_id,"
                " generation = excluded.generation",
                [mark[0], mark[1], generation + 1],
            )
        return True

    def ended_count(self) -> int:
        """How many sessions have ended."""
        count: int = self.db.execute("SELECT count(*) FROM sessions WHERE ended_at IS NOT NULL").fetchone()[0]
        return count

    def player_name(self, player: str) -> str | None:
        """The name a player (casefolded) was last written with, or None when they have no statistics."""
        row = self.db.execute(
            "SELECT name FROM player_stats WHERE player = ? ORDER BY last_played DESC LIMIT 1", [player]
        ).fetchone()
        return row[0] if row else None

    def together(self, a: str, b: str, limit: int) -> tuple[list[TogetherRow], tuple[int, int, int]]:
        """The last ``limit`` sessions (with a scored deal) that players ``a`` and ``b`` (casefolded) both played,
        the latest first, and over every one of them: (sessions ``a`` finished ahead in, ``b`` ahead, level)."""
        join = (
            " FROM session_stats AS x JOIN session_stats AS y ON y.session_id = x.session_id AND y.player = ?"
            " WHERE x.game IN (SELECT DISTINCT game FROM player_stats) AND x.player = ?"
        )
        ahead, behind, level = self.db.execute(
            "SELECT coalesce(sum(x.points > y.points), 0), coalesce(sum(x.points < y.points), 0),"
            " coalesce(sum(x.points = y.points), 0)" + join,
            [b, a],
        ).fetchone()
        rows = self.db.execute(
            "SELECT x.session_id, x.game, x.played_at, s.ended_at, x.points, y.points"
            + join.replace(" WHERE", " JOIN sessions AS s ON s.id = x.session_id WHERE")
            + " ORDER BY x.played_at DESC, x.rowid DESC LIMIT ?",
            [b, a, limit],
        ).fetchall()
        return [TogetherRow(*r) for r in rows], (ahead, behind, level)
