"""The draft of the next deal: each seat's part, the end, its version, and which deal it is for."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .db import Database, _dumps, _now
from .errors import Conflict, DraftClosed, NotFound
from .rows import DraftRow, PartRow, RefusalRow, SavedPart, SeatRow

#: Who wrote a part of a draft: the phone holding the seat, or the scorer.
WRITERS = ("player", "scorer")


class DraftsMixin(Database):
    """The draft of the next deal, written by the seats and the scorer."""

    # Defined by another mixin of Store (``kept``); declared here for the type checker only.
    if TYPE_CHECKING:

        def _refusals(self, session_id: str) -> dict[int, RefusalRow]: ...

        def _forget_refusals(self, session_id: str, seat: int | None = None) -> None: ...

    def next_number(self, session_id: str) -> int:
        """The number the next recorded deal will have."""
        number: int = self.db.execute(
            "SELECT count(*) + 1 FROM deals WHERE session_id = ? AND deleted_at IS NULL", [session_id]
        ).fetchone()[0]
        return number

    def _draft_version(self, session_id: str) -> int:
        row = self.db.execute("SELECT version FROM drafts WHERE session_id = ?", [session_id]).fetchone()
        version: int = row[0] if row else 0
        return version

    def _touch_draft(self, session_id: str, now: str, end: dict[str, Any] | None = None) -> int:
        """Bump the draft's version (creating the draft), optionally replacing its end; return the version."""
        self.db.execute(
            "INSERT INTO drafts (session_id, [end], version, updated_at) VALUES (?, ?, 1, ?)"
            " ON CONFLICT(session_id) DO UPDATE SET version = version + 1, updated_at = excluded.updated_at",
            [session_id, _dumps(end or {}), now],
        )
        if end is not None:
            self.db.execute("UPDATE drafts SET [end] = ? WHERE session_id = ?", [_dumps(end), session_id])
        return self._draft_version(session_id)

    def _clear_draft(self, session_id: str, now: str) -> None:
        """Empty the draft for the next deal (parts and end); the seats stay taken. Its version moves on even
        when nothing was written to it: a second record of the same untouched draft (a redeal, say) is refused.
        The next deal's parts number from 1 again (a write for the recorded deal is refused by its number)."""
        self.db.execute("DELETE FROM draft_parts WHERE session_id = ?", [session_id])
        self.db.execute("DELETE FROM draft_floors WHERE session_id = ?", [session_id])
        self._forget_refusals(session_id)
        self._touch_draft(session_id, now, {})

    def _throw_parts(self, session_id: str, seat: int | None = None) -> None:
        """Remove parts of this deal's draft (one seat's, or all), keeping their revisions as floors."""
        where, args = (
            ("session_id = ?", [session_id]) if seat is None else ("session_id = ? AND seat = ?", [session_id, seat])
        )
        self.db.execute(
            f"INSERT INTO draft_floors (session_id, seat, revision) SELECT session_id, seat, revision FROM draft_parts"
            f" WHERE {where} ON CONFLICT (session_id, seat) DO UPDATE SET revision = excluded.revision",
            args,
        )
        self.db.execute(f"DELETE FROM draft_parts WHERE {where}", args)
        self._forget_refusals(session_id, seat)

    def _generation(self, session_id: str) -> int:
        """Which draft is open: the deals ever recorded in the session, deleted and undone ones too. Only
        recording a deal moves it on; deleting or undoing an earlier deal renumbers the next deal, not this."""
        generation: int = self.db.execute(
            "SELECT coalesce(max(seq), 0) FROM deals WHERE session_id = ?", [session_id]
        ).fetchone()[0]
        return generation

    def _check_deal_number(self, session_id: str, deal: int | None, generation: int | None = None) -> None:
        """Raise DraftClosed when the caller's draft was for another deal than the next one: by its
        ``generation`` (``draft()``'s) when given, else by the deal's number."""
        number = self.next_number(session_id)
        if generation is not None:
            if generation != self._generation(session_id):
                raise DraftClosed(
                    f"The draft of deal {deal} has been recorded; the draft is for deal {number}.", number
                )
        elif deal is not None and deal != number:
            raise DraftClosed(f"Deal {deal} is no longer being entered; the draft is for deal {number}.", number)

    def _seat_row(self, session_id: str, seat: int) -> dict[str, Any]:
        """The sessions row, after checking that ``seat`` is one of its seats (NotFound otherwise)."""
        row = self._session_row(session_id)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(json.loads(row["players"])):
            raise NotFound(f"This score sheet has no seat {seat!r}.")
        return row

    def draft(self, session_id: str) -> DraftRow:
        """The draft of the next deal: its number and version, the end, every part and every taken seat."""
        with self.db.atomic():  # one snapshot
            row = self._session_row(session_id)
            found = self._one("SELECT [end], version, updated_at FROM drafts WHERE session_id = ?", [session_id])
            parts = {
                r[0]: PartRow(part=json.loads(r[1]), revision=r[2], written_by=r[3], written_at=r[4])
                for r in self.db.execute(
                    "SELECT seat, part, revision, written_by, written_at FROM draft_parts WHERE session_id = ?"
                    " ORDER BY seat",
                    [session_id],
                )
            }
            seats = {
                r[0]: SeatRow(taken_at=r[1])
                for r in self.db.execute(
                    "SELECT seat, taken_at FROM seats WHERE session_id = ? ORDER BY seat", [session_id]
                )
            }
            number = self.next_number(session_id)
            generation = self._generation(session_id)
            refusals = self._refusals(session_id)
        return DraftRow(
            deal=number,
            generation=generation,
            version=found["version"] if found else 0,
            session_version=row["version"],
            end=json.loads(found["end"]) if found else {},
            parts=parts,
            seats=seats,
            ended=row["ended_at"] is not None,
            refusals=refusals,
        )

    def draft_tag(self, session_id: str) -> str:
        """A tag that changes whenever the session, its way of entering hands or its draft (parts, end, seats)
        changes: an ETag."""
        row = self.db.execute(
            "SELECT s.version, coalesce(d.version, 0), coalesce(s.hand_entry, '') FROM sessions s"
            " LEFT JOIN drafts d ON d.session_id = s.id"
            " WHERE s.id = ?",
            [session_id],
        ).fetchone()
        if row is None:
            raise NotFound(f"There is no score sheet with id {session_id!r}.")
        return f"{row[0]}-{row[1]}-{row[2]}"

    def save_part(
        self,
        session_id: str,
        seat: int,
        part: dict[str, Any] | None,
        *,
        revision: int | None,
        by: str,
        deal: int | None = None,
        generation: int | None = None,
    ) -> SavedPart:
        """Write (or with ``None`` remove) one seat's part; return it with its new revision.

        ``revision`` is the part's revision the writer last saw (0: no part yet); another one means
        someone else wrote the part since, and the write is refused with ``Conflict``. ``None``
        writes regardless. ``deal`` is the deal the writer was entering: once it is recorded the
        write is refused with ``DraftClosed`` (with ``generation``, the draft's own, a deal deleted or undone
        meanwhile does not close it).
        """
        if by not in WRITERS:
            raise ValueError(f"by must be one of {WRITERS}")
        if part is not None and not isinstance(part, dict):
            raise TypeError("a part must be a dict")
        with self._write():
            self._check_writable(self._seat_row(session_id, seat))
            self._check_deal_number(session_id, deal, generation)
            current = self._one(
                "SELECT part, revision, written_by, written_at FROM draft_parts WHERE session_id = ? AND seat = ?",
                [session_id, seat],
            )
            stored = current["revision"] if current else 0
            if current is not None and part is not None and json.loads(current["part"]) == part:
                # the same part sent again (a phone that did not hear the answer, or a field left without a
                # change): stored once, neither a conflict nor a new revision, and the draft's version stays
                return SavedPart(
                    part=part,
                    revision=stored,
                    written_by=current["written_by"],
                    written_at=current["written_at"],
                    version=self._draft_version(session_id),
                )
            if revision is not None and revision != stored:
                raise Conflict("This part was changed on another phone since you saw it.")
            now = _now()
            if part is None:
                self._throw_parts(session_id, seat)
                written = 0
            else:
                if current is None:  # a first part of this deal, or one written again after being thrown away
                    floor = self._one(
                        "SELECT revision FROM draft_floors WHERE session_id = ? AND seat = ?", [session_id, seat]
                    )
                    stored = floor["revision"] if floor else 0
                self.db.execute(
                    "INSERT INTO draft_parts (session_id, seat, part, revision, written_by, written_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(session_id, seat) DO UPDATE SET part = excluded.part,"
                    " revision = excluded.revision, written_by = excluded.written_by,"
                    " written_at = excluded.written_at",
                    [session_id, seat, _dumps(part), stored + 1, by, now],
                )
                written = stored + 1
                self._forget_refusals(session_id, seat)  # this seat's last save is stored: no refusal stands
            return SavedPart(
                part=part, revision=written, written_by=by, written_at=now, version=self._touch_draft(session_id, now)
            )

    def save_draft_end(
        self, session_id: str, end: dict[str, Any], *, deal: int | None = None, generation: int | None = None
    ) -> int:
        """Keep how the deal ended (who went out, express, redeal) in the draft; return its version."""
        if not isinstance(end, dict):
            raise TypeError("the end of a draft must be a dict")
        with self._write():
            self._writable_session(session_id)
            self._check_deal_number(session_id, deal, generation)
            return self._touch_draft(session_id, _now(), end)

    def discard_draft(self, session_id: str) -> int:
        """Empty the draft (every part and the end; seats stay taken); return its new version."""
        with self._write():
            self._writable_session(session_id)
            self._throw_parts(session_id)
            return self._touch_draft(session_id, _now(), {})
