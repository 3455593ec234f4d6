"""Reading deals: the live deals in order (all of them, or only those a cache lacks), one deal, the history."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from .db import Database
from .errors import NotFound
from .rows import DealRow, HistoryRow, LiveDealRow, SessionRow


class ReadsMixin(Database):
    """The deals and the history as the pages and the API read them."""

    # Defined by another mixin of Store; declared here for the type checker only.
    if TYPE_CHECKING:

        @staticmethod
        def _deal(row: dict[str, Any], number: int | None) -> DealRow: ...

        def _deal_row(self, session_id: str, deal_id: int) -> dict[str, Any]: ...

        def _number(self, row: dict[str, Any]) -> int | None: ...

        def get_session(self, session_id: str) -> SessionRow: ...

    def list_deals(self, session_id: str) -> list[DealRow]:
        """Return the live deals in recorded order, numbered from 1."""
        self._session_row(session_id)
        rows = self.db.table("deals").rows_where("session_id = ? AND deleted_at IS NULL", [session_id], order_by="seq")
        return [self._deal(row, number) for number, row in enumerate(rows, start=1)]

    def session_and_deals(
        self, session_id: str, known: Collection[tuple[int, int]]
    ) -> tuple[SessionRow, list[LiveDealRow]]:
        """The session and its live deals (``deals_known``) read in one read transaction: the deals are those of
        the session's version (a tally kept by that version holds exactly them)."""
        with self.db.atomic():
            return self.get_session(session_id), self.deals_known(session_id, known)

    def deals_known(self, session_id: str, known: Collection[tuple[int, int]]) -> list[LiveDealRow]:
        """The live deals in order, like ``list_deals``, reading the record only of the deals whose
        ``(id, revision)`` is not in ``known`` (a caller's cache): ``record`` is None for the others.

        One read transaction: the rows and the records are of the same moment.
        """
        with self.db.atomic():
            self._session_row(session_id)
            cursor = self.db.execute(
                "SELECT id, seq, revision, override, note, created_at, updated_at FROM deals"
                " WHERE session_id = ? AND deleted_at IS NULL ORDER BY seq",
                [session_id],
            )
            heads = cursor.fetchall()
            wanted = [r[0] for r in heads if (r[0], r[2]) not in known]
            records: dict[int, dict[str, Any]] = {}
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                records.update(
                    (deal_id, json.loads(record))
                    for deal_id, record in self.db.execute(
                        f"SELECT id, record FROM deals WHERE session_id = ? AND id IN ({marks})", [session_id, *chunk]
                    ).fetchall()
                )
        return [
            LiveDealRow(
                id=r[0],
                number=n,
                seq=r[1],
                revision=r[2],
                record=records.get(r[0]),
                override=bool(r[3]),
                note=r[4],
                created_at=r[5],
                updated_at=r[6],
            )
            for n, r in enumerate(heads, start=1)
        ]

    def get_deal(self, session_id: str, deal_id: int) -> DealRow:
        """Return one live deal of this session, or raise NotFound."""
        row = self._deal_row(session_id, deal_id)
        if row["deleted_at"] is not None:
            raise NotFound(f"Deal {deal_id!r} was deleted.")
        return self._deal(row, self._number(row))

    def was_deleted(self, session_id: str, deal_id: int) -> bool:
        """True when this session had the deal and it has been deleted (or undone)."""
        try:
            return self._deal_row(session_id, deal_id)["deleted_at"] is not None
        except NotFound:
            return False

    def history(self, session_id: str) -> list[HistoryRow]:
        """Return the session's history, newest first, with details decoded."""
        self._session_row(session_id)
        rows = self.db.table("history").rows_where("session_id = ?", [session_id], order_by="id DESC")
        return [
            HistoryRow(
                id=row["id"],
                session_id=row["session_id"],
                deal_id=row["deal_id"],
                action=row["action"],
                detail=json.loads(row["detail"]),
                at=row["at"],
            )
            for row in rows
        ]
