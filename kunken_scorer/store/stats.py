"""Player statistics (worked out by the service; the store keeps them and their sums), and whole sessions
in and out: import and export."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .db import HAND_ENTRIES, _now
from .rows import DealRow, PlayerStatsRow, SessionRow, SessionStatsRow
from .scores import ScoresMixin, check_scores


class StatsMixin(ScoresMixin):
    """Player statistics, and sessions imported and exported whole."""

    # Defined by another mixin of Store; declared here for the type checker only.
    if TYPE_CHECKING:

        def _insert_session(
            self,
            game: str,
            rules: dict[str, Any],
            players: list[str],
            target: dict[str, Any] | None,
            now: str,
            ended_at: str | None = None,
            scored: bool = True,
        ) -> tuple[str, str]: ...

        def _created_with(self, key: str | None) -> str | None: ...

        def merges_generation(self) -> int: ...

        def _remember_creation(self, key: str | None, session_id: str, now: str) -> None: ...

        def get_session(self, session_id: str) -> SessionRow: ...

        @staticmethod
        def _deal(row: dict[str, Any], number: int | None) -> DealRow: ...

        def _insert_deal(
            self, session_id: str, seq: int, record: dict[str, Any], override: bool, note: str | None, now: str
        ) -> dict[str, Any]: ...

    def stale_stats(self, limit: int = 1000) -> list[str]:
        """Sessions whose statistics were worked out for an older version (or never)."""
        return [
            r[0] for r in self.db.execute("SELECT id FROM sessions WHERE stats_version != version LIMIT ?", [limit])
        ]

    def set_many_session_stats(
        self, entries: Sequence[tuple[str, int, str, Sequence[SessionStatsRow]]], merges: int | None = None
    ) -> int:
        """``set_session_stats`` for many sessions in one transaction; returns how many were written. ``merges``: the
        merges' generation (``merges_generation``) the entries were worked out under; a merge made or undone since
        writes none of them (0), as they count its names as they no longer do."""
        with self._write():
            if merges is not None and self.merges_generation() != merges:
                return 0
            return sum(self.set_session_stats(*entry) for entry in entries)

    def set_session_stats(self, session_id: str, version: int, game: str, rows: Sequence[SessionStatsRow]) -> bool:
        """Replace a session's per-player statistics, as worked out at ``version``; keep the sums per game.

        ``rows``: one per player (``player`` the key, ``core.fields.player_key``, or the player a merge counts it
        as), or none for a session that does not count.
        Statistics of an older version than those stored are not written (a later request wrote newer ones).
        Returns True when written.
        """
        with self._write():
            row = self._session_row(session_id)
            if row["stats_version"] >= version or row["version"] != version:
                return False
            old = list(
                self.db.execute(
                    "SELECT player, deals, points, expresses, won FROM session_stats WHERE session_id = ?", [session_id]
                )
            )
            touched = {(game, p[0]) for p in old} | {(game, r.player) for r in rows}
            for player, deals, points, expresses, won in old:
                self.db.execute(
                    "UPDATE player_stats SET sessions = sessions - 1, deals = deals - ?, points = points - ?,"
                    " expresses = expresses - ?, won = won - ? WHERE game = ? AND player = ?",
                    [deals, points, expresses, won, game, player],
                )
            self.db.execute("DELETE FROM session_stats WHERE session_id = ?", [session_id])
            for r in rows:
                self.db.execute(
                    "INSERT INTO session_stats (session_id, player, name, game, deals, points, expresses, won,"
                    " played_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        session_id,
                        r.player,
                        r.name,
                        game,
                        r.deals,
                        r.points,
                        r.expresses,
                        int(r.won),
                        r.played_at,
                    ],
                )
                self.db.execute(
                    "INSERT INTO player_stats (game, player, name, sessions, won, deals, points, expresses,"
                    " last_played) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?) ON CONFLICT(game, player) DO UPDATE SET"
                    " sessions = sessions + 1, won = won + excluded.won, deals = deals + excluded.deals,"
                    " points = points + excluded.points, expresses = expresses + excluded.expresses",
                    [
                        game,
                        r.player,
                        r.name,
                        int(r.won),
                        r.deals,
                        r.points,
                        r.expresses,
                        r.played_at,
                    ],
                )
            for game_key, player in touched:
                latest = self.db.execute(
                    "SELECT name, played_at FROM session_stats WHERE game = ? AND player = ?"
                    " ORDER BY played_at DESC, rowid DESC LIMIT 1",
                    [game_key, player],
                ).fetchone()
                if latest is None:
                    self.db.execute("DELETE FROM player_stats WHERE game = ? AND player = ?", [game_key, player])
                else:
                    self.db.execute(
                        "UPDATE player_stats SET name = ?, last_played = ? WHERE game = ? AND player = ?",
                        [latest[0], latest[1], game_key, player],
                    )
            self.db.execute("UPDATE sessions SET stats_version = ? WHERE id = ?", [version, session_id])
        return True

    def player_stats(self, game: str | None = None, limit: int | None = None) -> list[PlayerStatsRow]:
        """Each player's sums over every game (or over ``game``), the most wins first, then the best average
        deal score, then the name (``name`` as written when last played); the first ``limit`` players only,
        when given.

        Summed and ranked by SQLite: the first 50 of 1,000 players take 1.2 ms, all of them 2.2 ms, against
        4.8 ms for all of them summed and ranked in Python before."""
        where, params = ("WHERE game = ?", [game]) if game else ("", [])
        # a bare column beside MAX() is taken from the row holding the maximum (SQLite's documented rule);
        # ``player`` is the player's key (the casefolded NFC name), and UTF-8 sorts as Python sorts code points. The
        # order sums every game's row: a column's name in an ORDER BY expression is the row's column, not the sum's.
        rows = self.db.execute(
            "SELECT player, name, SUM(sessions), SUM(won), SUM(deals), SUM(points), "
            f"SUM(expresses), MAX(last_played) FROM player_stats {where} GROUP BY player ORDER BY SUM(won) DESC, "
            "CASE WHEN SUM(deals) THEN CAST(SUM(points) AS REAL) / SUM(deals) ELSE 0.0 END DESC, player "
            + ("LIMIT ?" if limit is not None else ""),
            params + ([limit] if limit is not None else []),
        ).fetchall()
        return [PlayerStatsRow(*row) for row in rows]

    def player_count(self, game: str | None = None) -> int:
        """How many players have statistics (of ``game``, or of any game)."""
        where, params = ("WHERE game = ?", [game]) if game else ("", [])
        count: int = self.db.execute(f"SELECT COUNT(DISTINCT player) FROM player_stats {where}", params).fetchone()[0]
        return count

    def import_session(
        self,
        game: str,
        rules: dict[str, Any],
        players: list[str],
        target: dict[str, Any] | None,
        deals: Sequence[Mapping[str, Any]],
        *,
        created_at: str | None = None,
        ended_at: str | None = None,
        idempotency_key: str | None = None,
        hand_entry: str | None = None,
        allow: Callable[[], None] | None = None,
    ) -> tuple[SessionRow, str | None]:
        """Create a session with all its deals in one transaction; return (session, token).

        ``created_at``/``ended_at`` keep an exported session's dates (ISO text); by default it
        is dated now and open. ``hand_entry`` is the table's way of entering hands (``set_hand_entry``).
        A repeated ``idempotency_key`` (a double tap on Import) stores nothing and returns the session it
        imported before, with ``None`` for the token (only its hash is kept). A deal's ``scores`` (``DealScore``
        rows) are its results (``store.scores``): the session's are complete when every deal has them. ``allow``
        is called in the transaction only when a session is made now (``create_session``'s).
        """
        for deal in deals:
            check_scores(deal.get("scores"))
        scored = all(deal.get("scores") is not None for deal in deals)
        with self._write():
            earlier = self._created_with(idempotency_key)
            if earlier is not None:
                return self.get_session(earlier), None
            if allow is not None:
                allow()
            now = _now()
            session_id, token = self._insert_session(
                game, rules, players, target, created_at or now, ended_at, scored=scored
            )
            if hand_entry is not None:
                if hand_entry not in HAND_ENTRIES:
                    raise ValueError(f"hand_entry must be one of {HAND_ENTRIES}")
                self.db.execute("UPDATE sessions SET hand_entry = ? WHERE id = ?", [hand_entry, session_id])
            self._remember_creation(idempotency_key, session_id, now)
            # Encoded one by one inside the transaction: a bad deal anywhere rolls back
            # the session and every deal before it.
            for seq, deal in enumerate(deals, start=1):
                stored = self._insert_deal(
                    session_id,
                    seq,
                    deal["record"],
                    deal.get("override", False),
                    deal.get("note"),
                    now,
                )
                if deal.get("scores") is not None:
                    self._write_scores(stored["id"], deal["scores"])
            self._log(session_id, "import", {"deals": len(deals)}, at=now)
        return self.get_session(session_id), token

    def all_sessions_with_deals(self) -> Iterator[tuple[SessionRow, list[DealRow]]]:
        """Yield (session, live deals) for every session, oldest first."""
        # Read everything in one transaction for a consistent snapshot, then yield, so
        # no transaction stays open while the caller works.
        with self.db.atomic():
            sessions = [
                self._session(row) for row in self.db.table("sessions").rows_where(order_by="created_at, rowid")
            ]
            deal_rows = list(self.db.table("deals").rows_where("deleted_at IS NULL", order_by="session_id, seq"))
        by_session: dict[str, list[DealRow]] = {}
        for row in deal_rows:
            live = by_session.setdefault(row["session_id"], [])
            live.append(self._deal(row, len(live) + 1))
        for session in sessions:
            yield session, by_session.get(session.id, [])
