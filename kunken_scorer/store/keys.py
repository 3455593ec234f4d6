"""Idempotency keys: the deal a key stored and the answer to replay for a retry."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .db import Database, _dumps, _now
from .errors import KeyReused
from .rows import DealRow


class KeysMixin(Database):
    """A retried request (the same idempotency key) stores nothing twice and gets the same answer."""

    # Defined by another mixin of Store; declared here for the type checker only.
    if TYPE_CHECKING:

        @staticmethod
        def _deal(row: dict[str, Any], number: int | None) -> DealRow: ...

        def _deal_row(self, session_id: str, deal_id: int) -> dict[str, Any]: ...

        def _number(self, row: dict[str, Any]) -> int | None: ...

    def _key_row(
        self, session_id: str, key: str, request: str | None
    ) -> tuple[int | None, int | None, str | None] | None:
        """(deal_id, status, response) of ``key``, or None; ``KeyReused`` when it was first sent with another
        ``request`` (a page's form key has none, and is not compared)."""
        row = self.db.execute(
            "SELECT deal_id, status, response, request FROM idempotency WHERE session_id = ? AND key = ?",
            [session_id, key],
        ).fetchone()
        if row is not None and request is not None and row[3] is not None and row[3] != request:
            raise KeyReused(key)
        return None if row is None else (row[0], row[1], row[2])

    def _claim_key(
        self,
        session_id: str,
        key: str,
        deal_id: int,
        response: dict[str, Any] | None,
        now: str,
        request: str | None = None,
    ) -> None:
        """Tie an idempotency key to the deal it stored, with the answer to replay (None: saved later).

        A key that only had a saved response (nothing stored, e.g. a rejected deal) is claimed now;
        its stale response is dropped.
        """
        self.db.execute(
            "INSERT INTO idempotency (session_id, key, deal_id, response, status, created_at, request)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, key) DO UPDATE SET"
            " deal_id = excluded.deal_id, response = excluded.response, status = excluded.status,"
            " created_at = excluded.created_at, request = excluded.request",
            [session_id, key, deal_id, *((None, None) if response is None else (_dumps(response), 201)), now, request],
        )

    def save_response(
        self, session_id: str, key: str, status: int, body: dict[str, Any], request: str | None = None
    ) -> None:
        """Remember the response sent for an idempotency key, for replaying it. ``request`` (what the key was
        sent with) is kept only for a key not seen before: a key's first request is the one ``add_deal`` stored,
        and a key kept from before requests were remembered (NULL) is never compared."""
        with self._write():
            self._session_row(session_id)
            self.db.execute(
                "INSERT INTO idempotency (session_id, key, deal_id, response, status, created_at, request)"
                " VALUES (?, ?, NULL, ?, ?, ?, ?) ON CONFLICT (session_id, key) DO UPDATE SET"
                " response = excluded.response, status = excluded.status",
                [session_id, key, _dumps(body), status, _now(), request],
            )

    def deal_for_key(self, session_id: str, key: str | None) -> DealRow | None:
        """The deal an idempotency key already stored, if any (a double tap on Record)."""
        if not key:
            return None
        row = self.db.execute(
            "SELECT deal_id FROM idempotency WHERE session_id = ? AND key = ?", [session_id, key]
        ).fetchone()
        if row is None or row[0] is None:
            return None
        deal = self._deal_row(session_id, row[0])
        return self._deal(deal, self._number(deal))

    def stored_response(
        self, session_id: str, key: str, request: str | None = None
    ) -> tuple[int, dict[str, Any]] | None:
        """Return (status, body) saved for this idempotency key, or None; ``KeyReused`` when the key was first
        sent with another ``request``."""
        row = self._key_row(session_id, key, request)
        if row is None or row[1] is None or row[2] is None:
            return None
        return row[1], json.loads(row[2])
