"""Each deal's scores in the file, for whoever reads it with SQL (Datasette, the sqlite3 shell): the table
``deal_results`` and the view ``deal_scores`` (migration m013).

The store computes no score: the scores need the rules, which are the core's. The service passes each deal's
results (``DealScore`` rows, one per player, from the core's report) with every write that changes a deal: record,
edit and import; delete, undo and redo keep the rows (the view shows the live deals only, numbered as the app
numbers them). A write made without them leaves the session's results incomplete: its ``scores_version`` stays
behind its version, ``stale_scores`` lists it, and ``set_session_scores`` fills it in (the backfill, once for the
sessions stored before m013, and after any write that passed no scores).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .db import Database
from .rows import DealScore

__all__ = ["ScoresMixin", "check_scores"]


def check_scores(scores: Sequence[DealScore] | None) -> None:
    """Raise TypeError/ValueError unless ``scores`` is None or ``DealScore`` rows of distinct players (a caller's
    mistake, told before anything is written)."""
    if scores is None:
        return
    players = set()
    for row in scores:
        if not isinstance(row, DealScore):
            raise TypeError(f"a deal's scores are DealScore rows, not {type(row).__name__}")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (row.plus, row.minus, row.score)):
            raise TypeError(f"the scores of {row.player!r} must be whole numbers")
        if row.player in players:
            raise ValueError(f"{row.player!r} is scored twice in one deal")
        players.add(row.player)


class ScoresMixin(Database):
    """The deals' results as the service scored them, kept in step with the deals."""

    def _write_scores(self, deal_id: int, scores: Sequence[DealScore] | None) -> None:
        """Replace the deal's result rows with ``scores`` (None: forget them; the session is then incomplete, which
        the caller says to ``_bump_version``)."""
        self.db.execute("DELETE FROM deal_results WHERE deal_id = ?", [deal_id])
        for row in scores or ():
            self.db.execute(
                "INSERT INTO deal_results (deal_id, player, plus, minus, score) VALUES (?, ?, ?, ?, ?)",
                [deal_id, row.player, row.plus, row.minus, row.score],
            )

    def _has_scores(self, deal_id: int) -> bool:
        """True when the deal has result rows (a deal deleted before m013 has none)."""
        return self.db.execute("SELECT 1 FROM deal_results WHERE deal_id = ? LIMIT 1", [deal_id]).fetchone() is not None

    def stale_scores(self, limit: int = 1000) -> list[str]:
        """Sessions whose deal results are not complete for their version (stored before m013, or changed by a
        write that passed no scores): the backfill gives them with ``set_session_scores``."""
        return [
            r[0] for r in self.db.execute("SELECT id FROM sessions WHERE scores_version != version LIMIT ?", [limit])
        ]

    def set_session_scores(self, session_id: str, version: int, deals: Mapping[int, Sequence[DealScore]]) -> bool:
        """Write the results of the session's live deals (``deals``: deal id → its rows, every live deal of the
        session as it was at ``version``), and mark them complete. Nothing is written when the session changed
        since ``version`` (the next round of the backfill reads it again); True when written.

        The backfill: for each ``stale_scores()`` session, the service scores its deals (its scoreboard) and passes
        them here, with the version it read them at.
        """
        for scores in deals.values():
            check_scores(scores)
        with self._write():
            row = self._session_row(session_id)
            if row["version"] != version:
                return False
            ids = {r[0] for r in self.db.execute("SELECT id FROM deals WHERE session_id = ?", [session_id])}
            for deal_id, scores in deals.items():
                if deal_id not in ids:
                    raise ValueError(f"deal {deal_id} is not a deal of session {session_id!r}")
                self._write_scores(deal_id, scores)
            self.db.execute("UPDATE sessions SET scores_version = version WHERE id = ?", [session_id])
        return True

    def set_many_session_scores(self, entries: Sequence[tuple[str, int, Mapping[int, Sequence[DealScore]]]]) -> int:
        """``set_session_scores`` for many sessions in one transaction; returns how many were written."""
        with self._write():
            return sum(self.set_session_scores(*entry) for entry in entries)

    def deal_scores(self, session_id: str) -> dict[int, list[DealScore]]:
        """The view ``deal_scores`` for one session: each live deal's results by the deal's number (as the app
        numbers it), in the order they were given."""
        self._session_row(session_id)
        found: dict[int, list[DealScore]] = {}
        for deal, player, plus, minus, score in self.db.execute(
            "SELECT s.deal, s.player, s.plus, s.minus, s.score FROM deal_scores AS s"
            " JOIN deal_results AS r ON r.deal_id = s.deal_id AND r.player = s.player"
            " WHERE s.session_id = ? ORDER BY s.deal, r.rowid",
            [session_id],
        ):
            found.setdefault(deal, []).append(DealScore(player, plus, minus, score))
        return found
