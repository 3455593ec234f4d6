"""Deals: recording one, editing it, deleting it, undo and redo (reading them is ``reads``, replaying a
retry is ``keys``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .db import _dumps, _now
from .errors import Conflict, NotFound, PartsChanged
from .rows import DealRow, DealScore
from .scores import ScoresMixin, check_scores


def _check_record(record: Any) -> None:
    """Raise TypeError unless the deal record is a JSON object (a dict)."""
    if not isinstance(record, dict):
        raise TypeError(f"a deal record must be a dict, not {type(record).__name__}")


class DealsMixin(ScoresMixin):
    """Recording and changing deals (and their results, when the caller gives them: ``scores``)."""

    # Defined by another mixin of Store; declared here for the type checker only.
    if TYPE_CHECKING:

        def _key_row(
            self, session_id: str, key: str, request: str | None
        ) -> tuple[int | None, int | None, str | None] | None: ...

        def _claim_key(
            self,
            session_id: str,
            key: str,
            deal_id: int,
            response: dict[str, Any] | None,
            now: str,
            request: str | None = None,
        ) -> None: ...

        def _draft_version(self, session_id: str) -> int: ...

        def _clear_draft(self, session_id: str, now: str) -> None: ...

        def _keep_parts(self, session_id: str, seq: int) -> None: ...

    @staticmethod
    def _deal(row: dict[str, Any], number: int | None) -> DealRow:
        """Turn a deals row into the public deal row."""
        return DealRow(
            id=row["id"],
            number=number,
            seq=row["seq"],
            record=json.loads(row["record"]),
            override=bool(row["override"]),
            note=row["note"],
            revision=row["revision"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )

    @staticmethod
    def _snapshot(row: dict[str, Any]) -> dict[str, Any]:
        """Return the parts of a deal the history records before and after a change."""
        return {
            "record": json.loads(row["record"]),
            "override": bool(row["override"]),
            "note": row["note"],
            "revision": row["revision"],
        }

    def _deal_row(self, session_id: str, deal_id: int) -> dict[str, Any]:
        """Return the raw deals row (deleted or not) of this session, or raise NotFound."""
        if isinstance(deal_id, int) and not -(2**63) <= deal_id < 2**63:
            # Beyond SQLite's INTEGER (a hand-typed URL): no such deal, not an OverflowError.
            raise NotFound(f"This score sheet has no deal with id {deal_id!r}.")
        rows = list(self.db.table("deals").rows_where("id = ? AND session_id = ?", [deal_id, session_id]))
        if not rows:
            raise NotFound(f"This score sheet has no deal with id {deal_id!r}.")
        return rows[0]

    def _number(self, row: dict[str, Any]) -> int | None:
        """Return the deal's 1-based position among live deals (None if deleted)."""
        if row["deleted_at"] is not None:
            return None
        number: int = self.db.execute(
            "SELECT count(*) FROM deals WHERE session_id = ? AND deleted_at IS NULL AND seq <= ?",
            [row["session_id"], row["seq"]],
        ).fetchone()[0]
        return number

    def _live_deal_row(self, session_id: str, deal_id: int) -> dict[str, Any]:
        """Return a live deal of this session for changing it, or raise Conflict/NotFound."""
        row = self._deal_row(session_id, deal_id)
        if row["deleted_at"] is not None:
            raise Conflict("This deal was deleted on another device. Reload to see the current deals.")
        return row

    def _part_revisions(self, session_id: str) -> dict[int, int]:
        """Each written seat's part revision in the draft."""
        rows = self.db.execute("SELECT seat, revision FROM draft_parts WHERE session_id = ?", [session_id])
        return {seat: revision for seat, revision in rows}

    def _insert_deal(
        self, session_id: str, seq: int, record: dict[str, Any], override: bool, note: str | None, now: str
    ) -> dict[str, Any]:
        """Insert one deals row and return it."""
        _check_record(record)
        row: dict[str, Any] = {
            "session_id": session_id,
            "seq": seq,
            "record": _dumps(record),
            "override": int(bool(override)),
            "note": note,
            "revision": 1,
            "created_at": now,
            "updated_at": now,
            "deleted_at": None,
        }
        # plain SQL: the Table API looks the table up again on each insert (recording is the hot path)
        cursor = self.db.execute(
            "INSERT INTO deals (session_id, seq, record, override, note, revision, created_at, updated_at, deleted_at)"
            " VALUES (:session_id, :seq, :record, :override, :note, :revision, :created_at, :updated_at, :deleted_at)",
            row,
        )
        return {"id": cursor.lastrowid, **row}

    def add_deal(
        self,
        session_id: str,
        record: dict[str, Any],
        *,
        override: bool = False,
        note: str | None = None,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        draft_version: int | None = None,
        answer: Callable[[DealRow, int], dict[str, Any] | None] | None = None,
        request: str | None = None,
        scores: Sequence[DealScore] | None = None,
        parts_seen: Mapping[int, int] | None = None,
    ) -> tuple[DealRow, bool]:
        """Store a deal; return (deal, created) — a repeated idempotency key stores nothing.

        The draft of the next deal is emptied (the deal it was for is now recorded); with
        ``draft_version`` the deal is the draft's and is stored only if the draft is still at it.
        ``answer(deal, version)``, called in the same transaction with the session's version the deal
        made, gives the response to replay for ``idempotency_key`` (None: the caller saves one later).
        ``request``: a digest of the request the key comes with; the key already used with another one is
        ``KeyReused``. ``scores``: the deal's results (``store.scores``); without them the session's results are
        incomplete until the backfill. ``parts_seen``: each seat's part revision the deal form was filled in from
        (a deal form's, not the draft's own recording): a part written, changed or removed since is ``PartsChanged``.
        """
        _check_record(record)
        check_scores(scores)
        with self._write():
            row = self._session_row(session_id)
            if idempotency_key is not None:
                claimed = self._key_row(session_id, idempotency_key, request)
                # Checked before the version and the end: a retry of a request that
                # succeeded must replay it, although it has since changed the version.
                if claimed is not None and claimed[0] is not None:
                    done = self._deal_row(session_id, claimed[0])
                    return self._deal(done, self._number(done)), False
            self._check_writable(row)
            self._check_version(row, expected_version)
            if draft_version is not None and self._draft_version(session_id) != draft_version:
                raise Conflict("A part of this deal changed since it was shown. Look at it again, then record it.")
            if parts_seen is not None and self._part_revisions(session_id) != dict(parts_seen):
                raise PartsChanged("A player's phone wrote a part of this deal since the form was filled in.")
            now = _now()
            seq, number = self.db.execute(
                "SELECT (SELECT coalesce(max(seq), 0) + 1 FROM deals WHERE session_id = :id),"
                " (SELECT count(*) + 1 FROM deals WHERE session_id = :id AND deleted_at IS NULL)",
                {"id": session_id},
            ).fetchone()
            self._keep_parts(session_id, seq)  # what the phones had sent stays readable beside the deal
            self._clear_draft(session_id, now)
            stored = self._insert_deal(session_id, seq, record, override, note, now)
            if scores is not None:
                self._write_scores(stored["id"], scores)
            self._bump_version(session_id, scored=scores is not None)
            self._log(session_id, "record", {"after": self._snapshot(stored)}, stored["id"], now)
            deal = self._deal(stored, number)
            response = answer(deal, row["version"] + 1) if answer is not None else None
            if idempotency_key is not None:
                self._claim_key(session_id, idempotency_key, stored["id"], response, now, request)
            return deal, True

    def update_deal(
        self,
        session_id: str,
        deal_id: int,
        record: dict[str, Any],
        *,
        override: bool,
        note: str | None,
        expected_revision: int,
        scores: Sequence[DealScore] | None = None,
    ) -> DealRow:
        """Replace a deal's record, override and note if it is still at expected_revision (and its results by
        ``scores``; without them, its old results are dropped and the session's are incomplete until the backfill)."""
        _check_record(record)
        check_scores(scores)
        with self._write():
            self._writable_session(session_id)
            before = self._live_deal_row(session_id, deal_id)
            if before["revision"] != expected_revision:
                raise Conflict(
                    "This deal was changed on another device (revision "
                    f"{before['revision']}, you edited revision {expected_revision}). "
                    "Reload to see it."
                )
            now = _now()
            self.db.table("deals").update(
                deal_id,
                {
                    "record": _dumps(record),
                    "override": int(bool(override)),
                    "note": note,
                    "revision": before["revision"] + 1,
                    "updated_at": now,
                },
            )
            self._write_scores(deal_id, scores)
            self._bump_version(session_id, scored=scores is not None)
            after = self._deal_row(session_id, deal_id)
            self._log(
                session_id,
                "edit",
                {"before": self._snapshot(before), "after": self._snapshot(after)},
                deal_id,
                now,
            )
            return self._deal(after, self._number(after))

    def _soft_delete(self, session_id: str, row: dict[str, Any], action: str) -> DealRow:
        """Mark a live deal deleted, log it and return it as it was (with its number)."""
        deal = self._deal(row, self._number(row))
        now = _now()
        self.db.table("deals").update(
            row["id"],
            {"deleted_at": now, "updated_at": now, "revision": row["revision"] + 1},
        )
        self._bump_version(session_id)
        self._log(session_id, action, {"before": self._snapshot(row)}, row["id"], now)
        return deal

    def delete_deal(self, session_id: str, deal_id: int, *, expected_revision: int | None = None) -> None:
        """Soft-delete a deal; deleting an already deleted deal does nothing."""
        with self._write():
            self._writable_session(session_id)
            row = self._deal_row(session_id, deal_id)
            if row["deleted_at"] is not None:
                return  # a repeated delete (double tap, retry) has nothing left to do
            if expected_revision is not None and row["revision"] != expected_revision:
                raise Conflict(
                    "This deal was changed on another device (revision "
                    f"{row['revision']}, you saw revision {expected_revision}). "
                    "Reload to see it before deleting it."
                )
            self._soft_delete(session_id, row, "delete")

    def undo_last(self, session_id: str, *, expected_version: int | None = None) -> DealRow | None:
        """Soft-delete the last live deal and return it, or return None if there is none."""
        with self._write():
            row = self._writable_session(session_id)
            self._check_version(row, expected_version)
            last = list(
                self.db.table("deals").rows_where(
                    "session_id = ? AND deleted_at IS NULL",
                    [session_id],
                    order_by="seq DESC",
                    limit=1,
                )
            )
            if not last:
                return None
            return self._soft_delete(session_id, last[0], "undo")

    def redo_undone(self, session_id: str, deal_id: int, *, expected_version: int | None = None) -> DealRow | None:
        """Bring back a deal taken back by an undo, as the last deal again, and return it; None when there
        is nothing to bring back (already back, or not an undone deal). Conflict when the session changed
        since the undo (a deal recorded after it would otherwise be overtaken)."""
        with self._write():
            session = self._writable_session(session_id)
            self._check_version(session, expected_version)
            row = self._deal_row(session_id, deal_id)
            undone = self.db.execute(
                "SELECT deal_id FROM history WHERE session_id = ? AND action IN ('undo', 'redo') "
                "ORDER BY id DESC LIMIT 1",
                [session_id],
            ).fetchone()
            if row["deleted_at"] is None or undone is None or undone[0] != deal_id:
                return None
            later = self.db.execute(
                "SELECT count(*) FROM deals WHERE session_id = ? AND deleted_at IS NULL AND seq > ?",
                [session_id, row["seq"]],
            ).fetchone()[0]
            if later:
                raise Conflict("A deal was recorded after the undo: the undone deal cannot come back before it.")
            now = _now()
            self.db.table("deals").update(
                row["id"], {"deleted_at": None, "updated_at": now, "revision": row["revision"] + 1}
            )
            self._bump_version(session_id, scored=self._has_scores(row["id"]))
            self._log(session_id, "redo", {"after": self._snapshot(row)}, row["id"], now)
            back = self._deal_row(session_id, deal_id)
            return self._deal(back, self._number(back))
