"""Club nights (issue 37): a night, its token, and the tables of each round (each one a session of its own).

A table's edit token is kept sealed with the night's token (``seal``): the file alone gives no table's token
away, and the night's starter (who holds the night's token) can be shown every table's scorer link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .db import Database, _dumps, _hash_token, _now
from .errors import NightNotFound
from .rows import NightRow, NightTableRow, RecentNight, SessionNight

#: The sessions of one round of a night (parameters: the night's id, the round).
_ROUND_SESSIONS = "SELECT session_id FROM night_tables WHERE night_id = ? AND round = ?"


#: The columns of a ``NightRow``, in the order ``_night_row`` reads them.
_NIGHT_COLUMNS = "id, game, rules, created_at, name, ranking, hand_entry, ended_at"


def _night_row(row: Any) -> NightRow:
    """A ``NightRow`` of a row of ``nights`` read with ``_NIGHT_COLUMNS`` (a mapping of them)."""
    return NightRow(
        id=row["id"],
        game=row["game"],
        rules=json.loads(row["rules"]),
        created_at=row["created_at"],
        name=row["name"],
        ranking=row["ranking"],
        hand_entry=row["hand_entry"],
        ended_at=row["ended_at"],
    )


def _pad(night_token: str, session_id: str, size: int) -> bytes:
    """The bytes a table's token is sealed with: only the night's token makes them (SHA-256 in counter mode)."""
    key = night_token.encode("utf-8", "surrogatepass")
    out = b""
    block = 0
    while len(out) < size:
        out += hmac.new(key, f"table-token:{session_id}:{block}".encode(), hashlib.sha256).digest()
        block += 1
    return out[:size]


def seal(night_token: str, session_id: str, token: str) -> str:
    """A table's edit token sealed with the night's token (``unseal`` opens it).

    >>> unseal("night", "s1", seal("night", "s1", "abc-token")), unseal("other", "s1", seal("night", "s1", "abc"))
    ('abc-token', None)
    """
    raw = token.encode()
    mac = hmac.new(night_token.encode("utf-8", "surrogatepass"), raw, hashlib.sha256).digest()[:8]
    mixed = bytes(a ^ b for a, b in zip(raw, _pad(night_token, session_id, len(raw)), strict=True))
    return base64.urlsafe_b64encode(mac + mixed).decode()


def unseal(night_token: str, session_id: str, sealed: str) -> str | None:
    """The table's edit token ``seal`` sealed, or None when ``night_token`` is not the one it was sealed with."""
    try:
        data = base64.urlsafe_b64decode(sealed.encode())
    except ValueError:
        return None
    mac, mixed = data[:8], data[8:]
    raw = bytes(a ^ b for a, b in zip(mixed, _pad(night_token, session_id, len(mixed)), strict=True))
    expected = hmac.new(night_token.encode("utf-8", "surrogatepass"), raw, hashlib.sha256).digest()[:8]
    if not hmac.compare_digest(mac, expected):
        return None
    return raw.decode(errors="replace")


class NightsMixin(Database):
    """Club nights and their tables."""

    @contextmanager
    def night_write(self) -> Iterator[None]:
        """One transaction for a night's whole change (the night, its sessions and their tables, or a round)."""
        with self._write():
            yield

    def create_night(
        self,
        game: str,
        rules: dict[str, Any],
        key: str | None = None,
        *,
        name: str | None = None,
        ranking: str = "points",
        hand_entry: str | None = None,
    ) -> tuple[NightRow, str | None]:
        """Store a new night with its ``name``, ``ranking`` and tables' ``hand_entry``; (the night, its token). The
        token is kept only hashed.

        A ``key`` (the start form's one-time key) already used (a double tap on Start, a resent form) stores
        nothing and returns the night started with it before, with ``None`` for the token; inside a caller's
        ``night_write`` two forms sent at once so make one night.
        """
        with self._write():
            earlier = self._night_with(key)
            if earlier is not None:
                return self.get_night(earlier), None
            night_id = secrets.token_urlsafe(12)
            token = secrets.token_urlsafe(24)
            self.db.execute(
                "INSERT INTO nights (id, game, rules, token_hash, created_at, form_key, name, ranking, hand_entry)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [night_id, game, _dumps(rules), _hash_token(token), _now(), key, name, ranking, hand_entry],
            )
        return self.get_night(night_id), token

    def _night_with(self, key: str | None) -> str | None:
        """The night an earlier start form with this one-time key started, if any."""
        if key is None:
            return None
        row = self.db.execute("SELECT id FROM nights WHERE form_key = ?", [key]).fetchone()
        return row[0] if row else None

    def add_night_table(self, night_id: str, round_no: int, table: int, session_id: str, sealed: str) -> None:
        """Make the session ``session_id`` table ``table`` of round ``round_no`` of the night."""
        with self._write():
            self.db.execute(
                "INSERT INTO night_tables (night_id, round, table_no, session_id, sealed_token) VALUES (?, ?, ?, ?, ?)",
                [night_id, round_no, table, session_id, sealed],
            )

    def get_night(self, night_id: str) -> NightRow:
        """The night, or ``NightNotFound``."""
        row = self._one(f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE id = ?", [night_id])
        if row is None:
            raise NightNotFound(f"There is no club night with id {night_id!r}.")
        return _night_row(row)

    def recent_nights(self, limit: int) -> list[RecentNight]:
        """Up to ``limit`` nights, the last started first, each with its count of rounds and tables."""
        rows = self.db.execute(
            f"SELECT {_NIGHT_COLUMNS}, (SELECT count(DISTINCT round) FROM night_tables WHERE night_id = nights.id),"
            " (SELECT count(*) FROM night_tables WHERE night_id = nights.id)"
            " FROM nights ORDER BY created_at DESC, rowid DESC LIMIT ?",
            [limit],
        ).fetchall()
        names = [*_NIGHT_COLUMNS.split(", "), "rounds", "tables"]
        return [RecentNight(_night_row(dict(zip(names, row, strict=True))), row[-2], row[-1]) for row in rows]

    def night_of(self, session_id: str) -> SessionNight | None:
        """The night, round and table the session ``session_id`` is (None: a session of its own)."""
        row = self.db.execute(
            "SELECT night_id, round, table_no FROM night_tables WHERE session_id = ?", [session_id]
        ).fetchone()
        return SessionNight(row[0], row[1], row[2]) if row else None

    def night_tables(self, night_id: str) -> list[NightTableRow]:
        """Every table of the night, round by round, in order."""
        rows = self.db.execute(
            "SELECT round, table_no, session_id, sealed_token FROM night_tables WHERE night_id = ?"
            " ORDER BY round, table_no",
            [night_id],
        ).fetchall()
        return [NightTableRow(round=r[0], table=r[1], session_id=r[2], sealed_token=r[3]) for r in rows]

    def night_version(self, night_id: str) -> str:
        """A tag that changes whenever any table of the night changes, a round is added or undone, or the night
        ends (each session's version only grows, as does the night's revision); ``NightNotFound`` for an unknown
        night."""
        row = self.db.execute(
            "SELECT count(s.id), coalesce(sum(s.version), 0), n.revision FROM nights AS n"
            " LEFT JOIN night_tables AS t ON t.night_id = n.id LEFT JOIN sessions AS s ON s.id = t.session_id"
            " WHERE n.id = ? GROUP BY n.id",
            [night_id],
        ).fetchone()
        if row is None:
            raise NightNotFound(f"There is no club night with id {night_id!r}.")
        return f"{row[0]}-{row[1]}-{row[2]}"

    def check_night_token(self, night_id: str, token: str | None) -> bool:
        """True when ``token`` is the night's token (constant-time compare)."""
        if not token:
            return False
        row = self.db.execute("SELECT token_hash FROM nights WHERE id = ?", [night_id]).fetchone()
        return row is not None and hmac.compare_digest(_hash_token(token), row[0])

    def renew_night_token(self, night_id: str, token: str) -> str | None:
        """Replace the night's token with a new one, for the holder of the current ``token``; the new token, or None
        when ``token`` is not (or no longer) the night's. Every table's kept edit token is sealed anew with the new
        token in the same transaction, so the new holder is shown the scorer links and the old token opens nothing:
        of two renewals sent with one token at once, one gets the new token and the other None."""
        new = secrets.token_urlsafe(24)
        with self._write():  # checked and replaced in one transaction: the old token stops for everyone at once
            if not self.check_night_token(night_id, token):
                return None
            for table in self.night_tables(night_id):
                opened = unseal(token, table.session_id, table.sealed_token)
                if opened is None:  # cannot be: every table is sealed with the night's token (kept as it is)
                    continue
                self.db.execute(
                    "UPDATE night_tables SET sealed_token = ? WHERE night_id = ? AND round = ? AND table_no = ?",
                    [seal(new, table.session_id, opened), night_id, table.round, table.table],
                )
            self.db.execute("UPDATE nights SET token_hash = ? WHERE id = ?", [_hash_token(new), night_id])
        return new

    def end_night(self, night_id: str) -> None:
        """Mark the night ended (its tables are ended one by one by the caller, in the same ``night_write``)."""
        with self._write():
            self.db.execute(
                "UPDATE nights SET ended_at = coalesce(ended_at, ?), revision = revision + (ended_at IS NULL)"
                " WHERE id = ?",
                [_now(), night_id],
            )

    def round_typed(self, night_id: str, round_no: int) -> bool:
        """True when anything was typed at a table of the round: a deal recorded, or a part on a phone (kept in
        the draft, or refused and kept) — a round is only undone while nothing would be lost."""
        row = self.db.execute(
            "SELECT EXISTS (SELECT 1 FROM deals WHERE session_id IN (" + _ROUND_SESSIONS + "))"
            " OR EXISTS (SELECT 1 FROM draft_parts WHERE session_id IN (" + _ROUND_SESSIONS + "))"
            " OR EXISTS (SELECT 1 FROM part_refusals WHERE session_id IN (" + _ROUND_SESSIONS + "))",
            [night_id, round_no] * 3,
        ).fetchone()
        return bool(row[0])

    def remove_round(self, night_id: str, round_no: int) -> list[str]:
        """Remove the round's tables and their sessions (and everything kept of them: seats, drafts, logs), for an
        undone round; the sessions removed. The caller checks first that nothing was typed (``round_typed``), in
        the same ``night_write``."""
        with self._write():
            sessions = [r[0] for r in self.db.execute(_ROUND_SESSIONS, [night_id, round_no]).fetchall()]
            self.db.execute("DELETE FROM night_tables WHERE night_id = ? AND round = ?", [night_id, round_no])
            kept = [
                name
                for (name,) in self.db.execute(
                    "SELECT m.name FROM sqlite_master AS m WHERE m.type = 'table' AND m.name != 'sessions' AND"
                    " EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'session_id')"
                ).fetchall()
            ]
            for session_id in sessions:
                for table in kept:
                    self.db.execute(f"DELETE FROM [{table}] WHERE session_id = ?", [session_id])
                self.db.execute("DELETE FROM sessions WHERE id = ?", [session_id])
            self.db.execute("UPDATE nights SET revision = revision + 1 WHERE id = ?", [night_id])
        return sessions
