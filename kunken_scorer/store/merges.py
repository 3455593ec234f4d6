"""Two names merged into one player (``player_merges``, migration m021): the merges recorded and undone, and the
sessions whose statistics and ratings a merge changes marked to be worked out again. Which player a name counts
as, chains followed, is the service's (``service.stats.merge_targets``): the store keeps the rows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .db import Database, _now
from .rows import MergeRow

_COLUMNS = "id, from_player, from_name, into_player, into_name, created_at, undone_at"


class MergesMixin(Database):
    """Merges of two names: recorded, undone, listed."""

    @contextmanager
    def merge_write(self) -> Iterator[None]:
        """One transaction for a merge or its undoing: what it is checked against, the merge, and the sessions it
        marks to be worked out again."""
        with self._write():
            yield

    def player_merges(self) -> tuple[int, list[MergeRow]]:
        """(the merges' generation, the standing merges, the oldest first), read in one snapshot. The generation
        grows with every merge made or undone (rows are never deleted): statistics worked out under one generation
        are not written under another (``set_many_session_stats``)."""
        with self.db.atomic():
            generation = self.merges_generation()
            rows = self.db.execute(
                f"SELECT {_COLUMNS} FROM player_merges WHERE undone_at IS NULL ORDER BY id"
            ).fetchall()
        return generation, [MergeRow(*row) for row in rows]

    def merges_generation(self) -> int:
        """A number that grows with every merge made (a new id) and undone (one more undone): the merges' state."""
        found: int = self.db.execute("SELECT coalesce(max(id), 0) + count(undone_at) FROM player_merges").fetchone()[0]
        return found

    def get_merge(self, merge_id: int) -> MergeRow | None:
        """The merge ``merge_id``, standing or undone; None when there is none."""
        row = self.db.execute(f"SELECT {_COLUMNS} FROM player_merges WHERE id = ?", [merge_id]).fetchone()
        return MergeRow(*row) if row else None

    def add_merge(self, from_player: str, from_name: str, into_player: str, into_name: str) -> MergeRow:
        """Record that the player ``from_player`` counts as ``into_player`` from now on. A player merged already (a
        standing merge from it) is refused by the unique index: the service checks that first."""
        with self._write():
            cursor = self.db.execute(
                "INSERT INTO player_merges (from_player, from_name, into_player, into_name, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [from_player, from_name, into_player, into_name, _now()],
            )
            merge_id = cursor.lastrowid
        found = self.get_merge(int(merge_id or 0))
        assert found is not None  # just written, in this connection
        return found

    def end_merge(self, merge_id: int) -> MergeRow | None:
        """Undo the merge ``merge_id`` (its ``undone_at`` set, once); the merge as it is now, None when there is
        none."""
        with self._write():
            self.db.execute(
                "UPDATE player_merges SET undone_at = ? WHERE id = ? AND undone_at IS NULL", [_now(), merge_id]
            )
            return self.get_merge(merge_id)

    def mark_players_stale(self, players: Sequence[str]) -> int:
        """Mark every session one of ``players`` (player keys) counts in as stale for the statistics and the ratings
        (as m019 does): the next look works their statistics out again under the merges as they stand, and the
        ratings replay the history. A deal's results (``deal_results``) name players as typed: a merge leaves them.
        Returns how many sessions were marked."""
        if not players:
            return 0
        marks = ", ".join("?" * len(players))
        params: list[Any] = list(players)
        with self._write():
            # the index (game, player, played_at) serves ``player IN`` once the game is named (as ``together`` does)
            cursor = self.db.execute(
                "UPDATE sessions SET stats_version = 0, rated_version = 0 WHERE id IN (SELECT session_id FROM"
                f" session_stats WHERE game IN (SELECT DISTINCT game FROM player_stats) AND player IN ({marks}))",
                params,
            )
            return int(cursor.rowcount)
