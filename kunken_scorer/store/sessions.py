"""Sessions: creating one (once per one-time key), reading it, its edit token, ending it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from .db import HAND_ENTRIES, Database, _dumps, _hash_token, _now
from .errors import NotFound
from .rows import SessionRow


def _derived_token(old: str, key: str) -> str:
    """The token that replaces ``old`` for the form rendering ``key``: unguessable without both (the key
    is only in the scorer's own page), the same for the same two."""
    digest = hmac.new(old.encode("utf-8", "surrogatepass"), b"new-token:" + key.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


class SessionsMixin(Database):
    """Sessions and their edit tokens."""

    def _insert_session(
        self,
        game: str,
        rules: dict[str, Any],
        players: list[str],
        target: dict[str, Any] | None,
        now: str,
        ended_at: str | None = None,
        scored: bool = True,
    ) -> tuple[str, str]:
        """Insert a sessions row; return (id, edit token). ``scored``: its deals' results will be complete."""
        session_id = secrets.token_urlsafe(18)  # 144 random bits
        token = secrets.token_urlsafe(24)  # 192 random bits
        self.db.table("sessions").insert(
            {
                "id": session_id,
                "game": game,
                "rules": _dumps(rules),
                "players": _dumps(list(players)),
                "target": None if target is None else _dumps(target),
                "token_hash": _hash_token(token),
                "created_at": now,
                "ended_at": ended_at,
                "version": 1,
                "scores_version": int(scored),
            }
        )
        return session_id, token

    def _created_with(self, key: str | None) -> str | None:
        """The session an earlier form with this one-time key created, if any."""
        if key is None:
            return None
        row = self.db.execute("SELECT session_id FROM creation_keys WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def _remember_creation(self, key: str | None, session_id: str, now: str) -> None:
        if key is not None:
            self.db.table("creation_keys").insert({"key": key, "session_id": session_id, "created_at": now})

    def create_session(
        self,
        game: str,
        rules: dict[str, Any],
        players: list[str],
        target: dict[str, Any] | None,
        *,
        idempotency_key: str | None = None,
        allow: Callable[[], None] | None = None,
    ) -> tuple[SessionRow, str | None]:
        """Create a session; return (session, edit token) — the token is stored only hashed.

        A repeated ``idempotency_key`` (a double tap on Start) stores nothing and returns the
        session created before, with ``None`` for the token. ``allow`` is called in the same
        transaction only when a session is made now (the address's count of sessions started:
        it raises to refuse, and nothing is stored), so a repeat is not counted.
        """
        with self._write():
            earlier = self._created_with(idempotency_key)
            if earlier is not None:
                return self.get_session(earlier), None
            if allow is not None:
                allow()
            now = _now()
            session_id, token = self._insert_session(game, rules, players, target, now)
            self._remember_creation(idempotency_key, session_id, now)
        return self.get_session(session_id), token

    def get_session(self, session_id: str) -> SessionRow:
        """Return the session with its JSON fields decoded, or raise NotFound."""
        return self._session(self._session_row(session_id))

    def session_for(self, session_id: str, token: str | None) -> tuple[SessionRow, bool]:
        """The session (NotFound when unknown) and whether ``token`` is its edit token, from one read."""
        row = self._session_row(session_id)
        return self._session(row), bool(token and hmac.compare_digest(_hash_token(token), row["token_hash"]))

    def check_token(self, session_id: str, token: str | None) -> bool:
        """Return True if token is this session's edit token (constant-time compare)."""
        if not token:
            return False
        row = self.db.execute("SELECT token_hash FROM sessions WHERE id = ?", [session_id]).fetchone()
        if row is None:
            return False
        return hmac.compare_digest(_hash_token(token), row[0])

    def new_token(self, session_id: str, old: str | None = None, key: str | None = None) -> str | None:
        """Replace the session's edit token; return the new one (the old one stops at once).

        With ``old``, only while ``old`` is still the token, checked inside the write: of two requests made
        with it at the same moment one replaces it, and the other gets None (its token has just stopped).
        With a ``key`` as well (one per rendering of the page's form), the new token is derived from the old
        one and the key, so the same form sent twice (a double tap) gets the same new token both times.
        """
        token = _derived_token(old, key) if old and key else secrets.token_urlsafe(24)
        with self._write():
            current = self._session_row(session_id)["token_hash"]
            if old is not None and not hmac.compare_digest(_hash_token(old), current):
                return token if key and hmac.compare_digest(_hash_token(token), current) else None
            self.db.execute("UPDATE sessions SET token_hash = ? WHERE id = ?", [_hash_token(token), session_id])
            self._log(session_id, "token", {})
        return token

    def recent_sessions(self, limit: int = 20) -> list[SessionRow]:
        """Return up to limit sessions, the last stored first (an imported session's own date does not count)."""
        rows = self.db.table("sessions").rows_where(order_by="rowid DESC", limit=limit)
        return [self._session(row) for row in rows]

    def allow_creation(self, address: str, limit: int, window: int = 60) -> bool:
        """Count a session created from ``address``; False (and nothing counted) past ``limit`` in ``window`` s."""
        now = datetime.now(UTC)
        since = (now - timedelta(seconds=window)).isoformat(timespec="microseconds")
        with self._write():
            self.db.execute("DELETE FROM creations WHERE at < ?", [since])
            count: int = self.db.execute(
                "SELECT count(*) FROM creations WHERE address = ? AND at >= ?", [address, since]
            ).fetchone()[0]
            if count >= limit:
                return False
            self.db.execute(
                "INSERT INTO creations (address, at) VALUES (?, ?)", [address, now.isoformat(timespec="microseconds")]
            )
        return True

    def version(self, session_id: str) -> int:
        """Return the session's version (bumped on every change), or raise NotFound."""
        row = self.db.execute("SELECT version FROM sessions WHERE id = ?", [session_id]).fetchone()
        if row is None:
            raise NotFound(f"There is no score sheet with id {session_id!r}.")
        version: int = row[0]
        return version

    def set_hand_entry(self, session_id: str, hand_entry: str) -> None:
        """Remember how the table enters hands (not a change of the score sheet: no new version)."""
        if hand_entry not in HAND_ENTRIES:
            raise ValueError(f"hand_entry must be one of {HAND_ENTRIES}")
        with self._write():
            self._writable_session(session_id)  # an ended session takes no change
            self.db.execute("UPDATE sessions SET hand_entry = ? WHERE id = ?", [hand_entry, session_id])

    def end_session(self, session_id: str) -> SessionRow:
        """End the session (a no-op if it already ended); return the session."""
        self.end_now(session_id)
        return self.get_session(session_id)

    def end_now(self, session_id: str) -> bool:
        """End the session; True when this call ended it, False when it had ended before (two ends at once: one)."""
        with self._write():
            if self._session_row(session_id)["ended_at"] is not None:
                return False
            now = _now()
            self.db.execute(
                "UPDATE sessions SET ended_at = ?, version = version + 1, scores_version = CASE"
                " WHEN scores_version = version THEN version + 1 ELSE scores_version END WHERE id = ?",
                [now, session_id],
            )
            self._log(session_id, "end", {}, at=now)
        return True
