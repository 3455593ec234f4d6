"""What the players' phones sent, kept where nobody loses it unseen (issue 45): a save of a part the server refused
(shown on the scorer's page), the parts the draft held when its deal was recorded, and a part a phone kept after its
deal was recorded, sent to the scorer as a proposed correction of that deal."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .db import Database, _dumps, _now
from .errors import NotFound
from .rows import CorrectionRow, DealRow, PartRow, RefusalRow

#: What the scorer did with a proposed correction.
OUTCOMES = ("applied", "dismissed")


class KeptMixin(Database):
    """Refused saves of parts, the parts a recorded deal was made from, and proposed corrections of a deal."""

    # Defined by another mixin of Store; declared here for the type checker only.
    if TYPE_CHECKING:

        @staticmethod
        def _deal(row: dict[str, Any], number: int | None) -> DealRow: ...

        def _number(self, row: dict[str, Any]) -> int | None: ...

        def _seat_row(self, session_id: str, seat: int) -> dict[str, Any]: ...

        def _generation(self, session_id: str) -> int: ...

        def _touch_draft(self, session_id: str, now: str, end: dict[str, Any] | None = None) -> int: ...

    # -- refused saves -------------------------------------------------------------------------------

    def refuse_part(self, session_id: str, seat: int, message: str, typed: str, *, generation: int | None) -> bool:
        """Keep that a save of ``seat``'s part was refused (``message``, and what was ``typed``), for the draft
        ``generation`` it was typed for (None: the open one); True when kept. A refusal for a draft recorded since,
        or in an ended session, is not kept: the phone itself says what became of it."""
        with self._write():
            row = self._seat_row(session_id, seat)
            if row["ended_at"] is not None or (generation is not None and generation != self._generation(session_id)):
                return False
            now = _now()
            self.db.execute(
                "INSERT INTO part_refusals (session_id, seat, message, typed, at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (session_id, seat) DO UPDATE SET message = excluded.message, typed = excluded.typed,"
                " at = excluded.at",
                [session_id, seat, message[:2000], typed[:2000], now],
            )
            self._touch_draft(session_id, now)
            return True

    def _refusals(self, session_id: str) -> dict[int, RefusalRow]:
        return {
            r[0]: RefusalRow(message=r[1], typed=r[2], at=r[3])
            for r in self.db.execute(
                "SELECT seat, message, typed, at FROM part_refusals WHERE session_id = ? ORDER BY seat", [session_id]
            )
        }

    def _forget_refusals(self, session_id: str, seat: int | None = None) -> None:
        if seat is None:
            self.db.execute("DELETE FROM part_refusals WHERE session_id = ?", [session_id])
        else:
            self.db.execute("DELETE FROM part_refusals WHERE session_id = ? AND seat = ?", [session_id, seat])

    # -- the parts a recorded deal was made from ------------------------------------------------------

    def _keep_parts(self, session_id: str, seq: int) -> None:
        """Keep the draft's parts as they are when the deal ``seq`` is recorded (before the draft is emptied)."""
        self.db.execute(
            "INSERT OR REPLACE INTO recorded_parts (session_id, seq, seat, part, revision, written_by, written_at)"
            " SELECT session_id, ?, seat, part, revision, written_by, written_at FROM draft_parts WHERE session_id = ?",
            [seq, session_id],
        )

    def recorded_parts(self, session_id: str, seq: int) -> dict[int, PartRow]:
        """The parts the draft held when the deal ``seq`` was recorded, by seat (none: the draft was empty)."""
        return {
            r[0]: PartRow(part=json.loads(r[1]), revision=r[2], written_by=r[3], written_at=r[4])
            for r in self.db.execute(
                "SELECT seat, part, revision, written_by, written_at FROM recorded_parts"
                " WHERE session_id = ? AND seq = ? ORDER BY seat",
                [session_id, seq],
            )
        }

    def deal_of_draft(self, session_id: str, generation: int) -> DealRow | None:
        """The deal recorded from the draft ``generation`` (the deal whose ``seq`` follows it), None while that draft
        is open or when the deal is deleted since."""
        row = self._one("SELECT * FROM deals WHERE session_id = ? AND seq = ?", [session_id, generation + 1])
        if row is None or row["deleted_at"] is not None:
            return None
        return self._deal(row, self._number(row))

    # -- proposed corrections ------------------------------------------------------------------------

    def propose_correction(
        self, session_id: str, deal_id: int, seat: int, part: dict[str, Any], typed: str
    ) -> tuple[CorrectionRow, bool]:
        """Keep a part sent for the recorded deal ``deal_id`` as a proposed correction of ``seat``'s part of it;
        return it and whether it is new (the same part sent again while open is kept once)."""
        with self._write():
            self._seat_row(session_id, seat)
            text = _dumps(part)
            same = self._one(
                "SELECT * FROM corrections WHERE session_id = ? AND deal_id = ? AND seat = ? AND part = ?"
                " AND resolved_at IS NULL",
                [session_id, deal_id, seat, text],
            )
            if same is not None:
                return _correction(same), False
            now = _now()
            self.db.execute(
                "INSERT INTO corrections (session_id, deal_id, seat, part, typed, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [session_id, deal_id, seat, text, typed[:2000], now],
            )
            made = self._one("SELECT * FROM corrections WHERE rowid = last_insert_rowid()", [])
            self._touch_draft(session_id, now)  # the scorer's page of the draft shows it
            assert made is not None
            return _correction(made), True

    def corrections(self, session_id: str, *, open_only: bool = True) -> list[CorrectionRow]:
        """The session's proposed corrections, oldest first (only the open ones by default)."""
        where = " AND resolved_at IS NULL" if open_only else ""
        rows = self.db.execute(f"SELECT * FROM corrections WHERE session_id = ?{where} ORDER BY id", [session_id])
        columns = [c[0] for c in rows.description]
        return [_correction(dict(zip(columns, r, strict=True))) for r in rows]

    def correction(self, session_id: str, correction_id: int) -> CorrectionRow:
        """One proposed correction of the session (``NotFound`` for none)."""
        row = None
        if isinstance(correction_id, int) and 0 < correction_id < 2**63:
            row = self._one("SELECT * FROM corrections WHERE session_id = ? AND id = ?", [session_id, correction_id])
        if row is None:
            raise NotFound(f"This score sheet has no proposed correction {correction_id!r}.")
        return _correction(row)

    def resolve_correction(self, session_id: str, correction_id: int, outcome: str) -> bool:
        """Mark a proposed correction applied or dismissed; False when it was resolved already."""
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}")
        with self._write():
            self.correction(session_id, correction_id)
            now = _now()
            changed = self.db.execute(
                "UPDATE corrections SET resolved_at = ?, outcome = ? WHERE id = ? AND resolved_at IS NULL",
                [now, outcome, correction_id],
            ).rowcount
            if changed:
                self._touch_draft(session_id, now)
            return bool(changed)


def _correction(row: dict[str, Any]) -> CorrectionRow:
    return CorrectionRow(
        id=row["id"],
        deal_id=row["deal_id"],
        seat=row["seat"],
        part=json.loads(row["part"]),
        typed=row["typed"],
        created_at=row["created_at"],
        resolved_at=row["resolved_at"],
        outcome=row["outcome"],
    )
