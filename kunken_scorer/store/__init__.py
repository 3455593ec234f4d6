"""Persistence for score sheets: sessions, their deals and an audit history, in SQLite.

The store keeps JSON documents and nothing else. It knows no game rules: a deal is
stored exactly as the table recorded it, and scores are always computed elsewhere from
these records. It never imports Flask or the rest of ``kunken_scorer``.

Every write runs in one ``BEGIN IMMEDIATE`` transaction, so the read-check-write steps
inside it (the session version, a deal's revision, an idempotency key) cannot interleave
with another connection's: two phones retrying the same request store one deal, and two
phones editing the same deal get a ``Conflict`` instead of a silent overwrite.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlite_utils import Database, Migrations

__all__ = [
    "Conflict",
    "DraftClosed",
    "KeyReused",
    "NotFound",
    "SeatHeld",
    "SessionEnded",
    "StorageUnavailable",
    "Store",
    "StoreError",
    "migrations",
]


class StoreError(Exception):
    """Base class for every failure the store reports."""


class NotFound(StoreError):
    """The session or deal does not exist (or the deal was deleted)."""


class Conflict(StoreError):
    """The data changed on another device since the caller last read it."""


class KeyReused(StoreError):
    """An idempotency key already answered a different request: a retry must send the same body."""


class SessionEnded(StoreError):
    """The session has ended: it can be read but no longer changed."""


class StorageUnavailable(StoreError):
    """The database file cannot be used: missing, read-only, full or busy (``kind`` says which)."""

    KINDS = ("missing", "read_only", "full", "busy", "unknown")

    def __init__(self, kind: str, detail: str = "") -> None:
        """``kind``: one of ``KINDS``; ``detail``: SQLite's own words."""
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind if kind in self.KINDS else "unknown"

    @classmethod
    def from_error(cls, error: sqlite3.Error) -> StorageUnavailable:
        """Classify an SQLite error by SQLite's own message."""
        text = str(error).lower()
        if "readonly" in text or "read-only" in text:
            kind = "read_only"
        elif "full" in text:
            kind = "full"
        elif "locked" in text or "busy" in text:
            kind = "busy"
        elif any(w in text for w in ("unable to open", "no such table", "disk i/o", "not a database")):
            kind = "missing"
        else:
            kind = "unknown"
        return cls(kind, str(error))


class SeatHeld(StoreError):
    """Another phone holds the seat, and the request is neither the scorer's, nor the holder's, nor sent with a
    valid move code for it: nothing changed. ``wrong_code``: a move code was sent, and it is not (or no longer)
    one for this seat."""

    def __init__(self, seat: int, wrong_code: bool = False) -> None:
        super().__init__(f"Seat {seat} is held by another phone.")
        self.seat = seat
        self.wrong_code = wrong_code


class DraftClosed(Conflict):
    """A write to the draft of a deal that has since been recorded (or whose number changed)."""

    def __init__(self, message: str, deal: int) -> None:
        """``deal``: the number of the deal the draft is for now."""
        super().__init__(message)
        self.deal = deal


# Append-only: never edit or reorder a migration that has shipped; add a new function
# below the last one. Each runs inside the store's write transaction, so a migration
# must be transactional (no VACUUM).
migrations = Migrations("kunken_scorer")


@migrations()
def m001_create_tables(db: Database) -> None:
    """Create sessions, deals, history and idempotency tables."""
    db.table("sessions").create(
        {
            "id": str,
            "game": str,
            "rules": str,
            "players": str,
            "target": str,
            "token_hash": str,
            "created_at": str,
            "ended_at": str,
            "version": int,
        },
        pk="id",
        not_null=["game", "rules", "players", "token_hash", "created_at", "version"],
        defaults={"version": 1},
        strict=True,
    )
    db.table("sessions").create_index(["created_at"])
    db.table("deals").create(
        {
            "id": int,
            "session_id": str,
            "seq": int,
            "record": str,
            "override": int,
            "note": str,
            "revision": int,
            "created_at": str,
            "updated_at": str,
            "deleted_at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=[
            "session_id",
            "seq",
            "record",
            "override",
            "revision",
            "created_at",
            "updated_at",
        ],
        defaults={"override": 0, "revision": 1},
        strict=True,
    )
    # Serves list_deals (live deals in order), numbering, and the next seq.
    db.table("deals").create_index(["session_id", "seq"], unique=True)
    db.table("history").create(
        {
            "id": int,
            "session_id": str,
            "deal_id": int,
            "action": str,
            "detail": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id"), ("deal_id", "deals", "id")],
        not_null=["session_id", "action", "detail", "at"],
        strict=True,
    )
    db.table("history").create_index(["session_id", "id"])
    db.table("idempotency").create(
        {
            "session_id": str,
            "key": str,
            "deal_id": int,
            "response": str,
            "status": int,
            "created_at": str,
        },
        pk=("session_id", "key"),
        foreign_keys=[("session_id", "sessions", "id"), ("deal_id", "deals", "id")],
        not_null=["session_id", "key", "created_at"],
        strict=True,
    )


@migrations()
def m002_creation_keys(db: Database) -> None:
    """Remember the one-time key of each form that created a session (start or import)."""
    db.table("creation_keys").create(
        {"key": str, "session_id": str, "created_at": str},
        pk="key",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["session_id", "created_at"],
        strict=True,
    )


@migrations()
def m003_hand_entry(db: Database) -> None:
    """How the table enters the cards left in hand (cards, counts or points); empty: the game's default."""
    db.table("sessions").add_column("hand_entry", str)


@migrations()
def m004_drafts(db: Database) -> None:
    """The draft of each session's next deal: one part per seat, and the phones holding the seats."""
    db.table("drafts").create(
        {"session_id": str, "end": str, "version": int, "updated_at": str},
        pk="session_id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["end", "version", "updated_at"],
        strict=True,
    )
    db.table("draft_parts").create(
        {"session_id": str, "seat": int, "part": str, "revision": int, "written_by": str, "written_at": str},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["part", "revision", "written_by", "written_at"],
        strict=True,
    )
    db.table("seats").create(
        {"session_id": str, "seat": int, "holder_hash": str, "taken_at": str},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["holder_hash", "taken_at"],
        strict=True,
    )


@migrations()
def m005_creations(db: Database) -> None:
    """When each address created (or imported) a session: the per-address limit reads it."""
    db.table("creations").create({"address": str, "at": str}, not_null=["address", "at"], strict=True)
    db.table("creations").create_index(["address", "at"])


@migrations()
def m006_player_stats(db: Database) -> None:
    """Player statistics kept up to date: each session's summary per player, and their sums per game."""
    db.table("session_stats").create(
        {
            "session_id": str,
            "player": str,
            "name": str,
            "game": str,
            "deals": int,
            "points": int,
            "expresses": int,
            "won": int,
            "played_at": str,
        },
        pk=("session_id", "player"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["name", "game", "deals", "points", "expresses", "won", "played_at"],
        strict=True,
    )
    db.table("session_stats").create_index(["game", "player", "played_at"])
    db.table("player_stats").create(
        {
            "game": str,
            "player": str,
            "name": str,
            "sessions": int,
            "won": int,
            "deals": int,
            "points": int,
            "expresses": int,
            "last_played": str,
        },
        pk=("game", "player"),
        not_null=["name", "sessions", "won", "deals", "points", "expresses", "last_played"],
        strict=True,
    )
    # the session version the statistics were last worked out for (0: never; they are then worked out)
    db.table("sessions").add_column("stats_version", int, not_null_default=0)
    db.execute("CREATE INDEX sessions_stale_stats ON sessions (id) WHERE stats_version != version")


@migrations()
def m007_live_deals(db: Database) -> None:
    """Index a session's live deals, so counting them (a deal's number) reads the index alone."""
    # pays: a deal's number on a 900-deal session 101 µs → 37 µs. deleted_at is a column too: without
    # it SQLite (3.40) still visits each row to test the index's own condition.
    db.execute("CREATE INDEX deals_live ON deals (session_id, seq, deleted_at) WHERE deleted_at IS NULL")


@migrations()
def m008_rescore_player_stats(db: Database) -> None:
    """Work the player statistics out again: the scoring of jokers in vists and swaps and of the decks'
    copies was corrected (2026-12), and statistics kept from before would disagree with the sessions."""
    db.execute("UPDATE sessions SET stats_version = 0")


@migrations()
def m009_part_floors(db: Database) -> None:
    """The last revision of each seat's part that the draft threw away (discarded, or removed): a part written
    afterwards numbers on from it, so a phone still holding that revision cannot overwrite the new part."""
    db.table("draft_floors").create(
        {"session_id": str, "seat": int, "revision": int},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["revision"],
        strict=True,
    )


@migrations()
def m010_key_requests(db: Database) -> None:
    """What each API idempotency key was first sent with (a digest of the request body): the same key with
    another body is refused instead of answered with the first request's answer. NULL: a page's form key."""
    db.table("idempotency").add_column("request", str)


@migrations()
def m011_seat_moves(db: Database) -> None:
    """The one move code of each held seat (issue 33): a short code to type and a long secret for the one-time
    link, both kept as hashes only, when they stop working, and the wrong tries made against the code."""
    db.table("seat_moves").create(
        {
            "session_id": str,
            "seat": int,
            "code_hash": str,
            "link_hash": str,
            "created_at": str,
            "expires_at": str,
            "wrong_tries": int,
        },
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["code_hash", "link_hash", "created_at", "expires_at", "wrong_tries"],
        strict=True,
    )
    db.table("seat_moves").create_index(["link_hash"], unique=True)


#: Who wrote a part of a draft: the phone holding the seat, or the scorer.
WRITERS = ("player", "scorer")

#: The values ``set_hand_entry`` stores (the store imports no core module: ``reading.HAND_ENTRIES`` is the
#: same list, and which of them a game offers is the core's ``hand_entries``).
HAND_ENTRIES = ("counts", "points", "cards")

HISTORY_ACTIONS = frozenset({"record", "edit", "delete", "undo", "redo", "end", "import", "token"})


def _now() -> str:
    """Return the current UTC time as an ISO 8601 string."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dumps(value: Any) -> str:
    """Encode a value as strict JSON (no NaN/Infinity; lone surrogates escaped)."""
    return json.dumps(value, allow_nan=False)


def _hash_token(token: str) -> str:
    """Return the sha256 hex digest of an edit token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


#: How long a seat's move code (and its one-time link) works, how many digits it has, and how many wrong
#: tries it takes before it stops working: one guess in 200,000 per code, and a new code needs the holder
#: or the scorer.
MOVE_CODE_LIFETIME = timedelta(minutes=10)
MOVE_CODE_DIGITS = 6
MOVE_CODE_TRIES = 5


def _move_code_hash(session_id: str, seat: int, code: str) -> str:
    """A move code as the store keeps it: hashed together with its session and seat."""
    return _hash_token(f"{session_id}:{seat}:{''.join(code.split())}")  # "123 456" as typed is 123456


def _derived_token(old: str, key: str) -> str:
    """The token that replaces ``old`` for the form rendering ``key``: unguessable without both (the key
    is only in the scorer's own page), the same for the same two."""
    digest = hmac.new(old.encode("utf-8", "surrogatepass"), b"new-token:" + key.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def _check_record(record: Any) -> None:
    """Raise TypeError unless the deal record is a JSON object (a dict)."""
    if not isinstance(record, dict):
        raise TypeError(f"a deal record must be a dict, not {type(record).__name__}")


_WRITER_LOCKS: dict[str, threading.Lock] = {}
_WRITER_LOCKS_LOCK = threading.Lock()
#: the file each open Database writes to, looked up once (forgotten with the Database)
_DB_PATHS: weakref.WeakKeyDictionary[Database, str] = weakref.WeakKeyDictionary()


def _writer_lock(db: Database) -> threading.Lock:
    """This process's lock for writing to the database file of ``db`` (one per file)."""
    path = _DB_PATHS.get(db)
    if path is None:
        row = db.execute("PRAGMA database_list").fetchone()
        path = _DB_PATHS[db] = (row[2] if row else "") or f"memory:{id(db)}"
    with _WRITER_LOCKS_LOCK:
        return _WRITER_LOCKS.setdefault(path, threading.Lock())


#: Each thread's kept connection (``Store.kept``): (the file's identity, the store).
_KEPT = threading.local()


class Store:
    """Sessions, deals and history kept in one SQLite database."""

    def __init__(self, db: Database, *, migrate: bool = True) -> None:
        """Wrap an open Database: set per-connection pragmas and apply pending migrations.

        ``migrate=False`` skips the migrations check, for a server that migrated at start-up.
        """
        self.db = db
        # Both pragmas are per connection and off/zero by default, so set them every time.
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA busy_timeout = 5000")
        if migrate and migrations.pending(self.db):
            # Under the write lock, so two processes opening a fresh file at once
            # cannot both run the same migration; apply() re-checks what is pending.
            with self._write():
                migrations.apply(self.db)

    @classmethod
    def connect(cls, path: str, *, max_bytes: int | None = None) -> Store:
        """A connection to an existing, migrated database file, for one request.

        Never creates the file or a table: a missing or foreign file raises ``StorageUnavailable``
        (a write would otherwise land in tables made on the fly, outside the migrations).
        ``max_bytes`` caps the file's size (SQLite's ``max_page_count``).
        """
        try:
            conn = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=rw", uri=True)
        except sqlite3.Error as err:
            raise StorageUnavailable("missing", str(err)) from None
        try:
            store = cls(Database(conn), migrate=False)
            if store.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sessions'").fetchone() is None:
                raise StorageUnavailable("missing", f"{path} holds no score sheets")
            if max_bytes:
                page = store.db.execute("PRAGMA page_size").fetchone()[0]
                store.db.execute(f"PRAGMA max_page_count = {max(1, int(max_bytes) // page)}")
        except sqlite3.Error as err:
            conn.close()
            raise StorageUnavailable.from_error(err) from None
        except StorageUnavailable:
            conn.close()
            raise
        return store

    @classmethod
    def open(cls, path: str) -> Store:
        """Open (or create) the database file at path, enable WAL and migrate it."""
        db = Database(path)
        db.execute("PRAGMA busy_timeout = 5000")
        if not db.memory:
            # Persistent in the file; enable_wal() is a no-op once it is on.
            db.enable_wal()
        return cls(db)

    def close(self) -> None:
        """Close the database connection."""
        self.db.close()

    @classmethod
    def kept(cls, path: str, *, max_bytes: int | None = None) -> Store:
        """This thread's connection to the file ``path``, kept between calls (opening one costs as much as a
        whole small request).

        The file is looked at (``stat``) on every call: a file deleted, replaced, or whose owner or
        permissions changed since the connection was opened gets a fresh connection, and a missing file is
        ``StorageUnavailable``. A connection kept to a deleted file would go on acknowledging writes that no
        file holds; the file is never created here either (``open`` makes and migrates it).
        """
        try:
            st = os.stat(path)
        except OSError as err:
            cls.drop_kept()
            raise StorageUnavailable("missing", f"{path}: {err.strerror}") from None
        key = (path, max_bytes, st.st_dev, st.st_ino, st.st_mode, st.st_uid, st.st_gid)
        kept = getattr(_KEPT, "store", None)
        if kept is None or kept[0] != key:
            cls.drop_kept()
            _KEPT.store = (key, cls.connect(path, max_bytes=max_bytes))
        return _KEPT.store[1]

    @staticmethod
    def drop_kept() -> None:
        """Close this thread's kept connection (the next ``kept`` opens afresh)."""
        kept = getattr(_KEPT, "store", None)
        _KEPT.store = None
        if kept is not None:
            kept[1].close()

    def backup(self, target: str) -> dict:
        """Copy the whole database to ``target`` with SQLite's online backup (consistent while others write).

        The copy is written beside ``target`` and renamed into place once it passes
        ``integrity_check``; returns ``{"sessions", "deals", "integrity"}`` of the copy.
        """
        final = Path(target).resolve()
        final.parent.mkdir(parents=True, exist_ok=True)  # "backups/kunken-<date>.db" on a fresh clone
        partial = final.with_name(final.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            copy = sqlite3.connect(str(partial))
        except sqlite3.Error as err:
            raise StoreError(f"cannot write {partial}: {err}") from None
        try:
            self.db.conn.backup(copy)
            integrity = copy.execute("PRAGMA integrity_check").fetchone()[0]
            sessions = copy.execute("SELECT count(*) FROM sessions").fetchone()[0]
            deals = copy.execute("SELECT count(*) FROM deals WHERE deleted_at IS NULL").fetchone()[0]
        except sqlite3.Error as err:
            raise StoreError(f"the copy could not be made: {err}") from None
        finally:
            copy.close()
        if integrity != "ok":
            partial.unlink(missing_ok=True)
            raise StoreError(f"the copy failed its integrity check: {integrity}")
        partial.replace(final)
        return {"sessions": sessions, "deals": deals, "integrity": integrity}

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """Run the block in one transaction holding SQLite's write lock from the start.

        Writers of one process first queue on a lock of their own: SQLite's busy handler makes a
        writer that finds the file locked sleep (1, 2, 5, 10 … 100 ms) before it looks again, so
        eight phones recording at once would wait far longer than the writes take.
        """
        if self.db.conn.in_transaction:
            # Inside a caller's transaction: become a savepoint of it.
            with self.db.atomic():
                yield
            return
        with _writer_lock(self.db):
            with self._transaction():
                yield

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE … COMMIT; an SQLite failure rolls back and is ``StorageUnavailable``."""
        # db.atomic() would issue a deferred BEGIN: two connections could then both read
        # the same version or idempotency key before either writes. BEGIN IMMEDIATE
        # takes the write lock first (waiting up to busy_timeout), so each
        # read-check-write below is atomic across connections. Table API calls inside
        # the block nest as savepoints of this transaction.
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StorageUnavailable.from_error(err) from None
        try:
            yield
            self.db.execute("COMMIT")
        except sqlite3.Error as err:
            # Nothing of this transaction is stored: say why the file could not take it.
            self._rollback()
            raise StorageUnavailable.from_error(err) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        try:
            self.db.conn.rollback()
        except sqlite3.Error:
            pass  # the transaction is gone with the file

    def _one(self, sql: str, params: list) -> dict | None:
        """Return the first row of a query as a dict, or None."""
        cursor = self.db.execute(sql, params)
        row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip((column[0] for column in cursor.description), row, strict=True))

    # -- sessions ---------------------------------------------------------------------

    def _session_row(self, session_id: str) -> dict:
        """Return the raw sessions row or raise NotFound."""
        row = self._one("SELECT * FROM sessions WHERE id = ?", [session_id])
        if row is None:
            raise NotFound(f"There is no score sheet with id {session_id!r}.")
        return row

    @staticmethod
    def _session(row: dict) -> dict:
        """Turn a sessions row into the public session dict."""
        return {
            "id": row["id"],
            "game": row["game"],
            "rules": json.loads(row["rules"]),
            "players": json.loads(row["players"]),
            "target": None if row["target"] is None else json.loads(row["target"]),
            "created_at": row["created_at"],
            "ended_at": row["ended_at"],
            "version": row["version"],
            "hand_entry": row.get("hand_entry"),
        }

    @staticmethod
    def _check_writable(row: dict) -> None:
        """Raise SessionEnded if the session (a sessions row) has ended."""
        if row["ended_at"] is not None:
            raise SessionEnded("This score sheet has ended; it can no longer be changed.")

    def _writable_session(self, session_id: str) -> dict:
        """Return the sessions row, raising NotFound or SessionEnded."""
        row = self._session_row(session_id)
        self._check_writable(row)
        return row

    def _check_version(self, row: dict, expected_version: int | None) -> None:
        """Raise Conflict if the caller saw a different session version."""
        if expected_version is not None and row["version"] != expected_version:
            raise Conflict(
                "The score sheet was changed on another device (version "
                f"{row['version']}, you saw version {expected_version}). Reload to see it."
            )

    def _bump_version(self, session_id: str) -> None:
        """Increase the session's version by one (its statistics are then out of date)."""
        self.db.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", [session_id])

    def _log(
        self, session_id: str, action: str, detail: dict, deal_id: int | None = None, at: str | None = None
    ) -> None:
        """Append one history row."""
        assert action in HISTORY_ACTIONS, action
        self.db.execute(
            "INSERT INTO history (session_id, deal_id, action, detail, at) VALUES (?, ?, ?, ?, ?)",
            [session_id, deal_id, action, _dumps(detail), at or _now()],
        )

    def _insert_session(
        self, game: str, rules: dict, players: list[str], target: dict | None, now: str, ended_at: str | None = None
    ) -> tuple[str, str]:
        """Insert a sessions row; return (id, edit token)."""
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
        self, game: str, rules: dict, players: list[str], target: dict | None, *, idempotency_key: str | None = None
    ) -> tuple[dict, str | None]:
        """Create a session; return (session, edit token) — the token is stored only hashed.

        A repeated ``idempotency_key`` (a double tap on Start) stores nothing and returns the
        session created before, with ``None`` for the token.
        """
        with self._write():
            earlier = self._created_with(idempotency_key)
            if earlier is not None:
                return self.get_session(earlier), None
            now = _now()
            session_id, token = self._insert_session(game, rules, players, target, now)
            self._remember_creation(idempotency_key, session_id, now)
        return self.get_session(session_id), token

    def get_session(self, session_id: str) -> dict:
        """Return the session with its JSON fields decoded, or raise NotFound."""
        return self._session(self._session_row(session_id))

    def session_for(self, session_id: str, token: str | None) -> tuple[dict, bool]:
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

    def recent_sessions(self, limit: int = 20) -> list[dict]:
        """Return up to limit sessions, the last stored first (an imported session's own date does not count)."""
        rows = self.db.table("sessions").rows_where(order_by="rowid DESC", limit=limit)
        return [self._session(row) for row in rows]

    def allow_creation(self, address: str, limit: int, window: int = 60) -> bool:
        """Count a session created from ``address``; False (and nothing counted) past ``limit`` in ``window`` s."""
        now = datetime.now(UTC)
        since = (now - timedelta(seconds=window)).isoformat(timespec="microseconds")
        with self._write():
            self.db.execute("DELETE FROM creations WHERE at < ?", [since])
            count = self.db.execute(
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
        return row[0]

    def set_hand_entry(self, session_id: str, hand_entry: str) -> None:
        """Remember how the table enters hands (not a change of the score sheet: no new version)."""
        if hand_entry not in HAND_ENTRIES:
            raise ValueError(f"hand_entry must be one of {HAND_ENTRIES}")
        with self._write():
            self._session_row(session_id)
            self.db.execute("UPDATE sessions SET hand_entry = ? WHERE id = ?", [hand_entry, session_id])

    def end_session(self, session_id: str) -> dict:
        """End the session (a no-op if it already ended); return the session."""
        with self._write():
            row = self._session_row(session_id)
            if row["ended_at"] is None:
                now = _now()
                self.db.execute(
                    "UPDATE sessions SET ended_at = ?, version = version + 1 WHERE id = ?",
                    [now, session_id],
                )
                self._log(session_id, "end", {}, at=now)
        return self.get_session(session_id)

    # -- deals ------------------------------------------------------------------------

    @staticmethod
    def _deal(row: dict, number: int | None) -> dict:
        """Turn a deals row into the public deal dict."""
        return {
            "id": row["id"],
            "number": number,
            "seq": row["seq"],
            "record": json.loads(row["record"]),
            "override": bool(row["override"]),
            "note": row["note"],
            "revision": row["revision"],
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
        }

    @staticmethod
    def _snapshot(row: dict) -> dict:
        """Return the parts of a deal the history records before and after a change."""
        return {
            "record": json.loads(row["record"]),
            "override": bool(row["override"]),
            "note": row["note"],
            "revision": row["revision"],
        }

    def _deal_row(self, session_id: str, deal_id: int) -> dict:
        """Return the raw deals row (deleted or not) of this session, or raise NotFound."""
        if isinstance(deal_id, int) and not -(2**63) <= deal_id < 2**63:
            # Beyond SQLite's INTEGER (a hand-typed URL): no such deal, not an OverflowError.
            raise NotFound(f"This score sheet has no deal with id {deal_id!r}.")
        rows = list(self.db.table("deals").rows_where("id = ? AND session_id = ?", [deal_id, session_id]))
        if not rows:
            raise NotFound(f"This score sheet has no deal with id {deal_id!r}.")
        return rows[0]

    def _number(self, row: dict) -> int | None:
        """Return the deal's 1-based position among live deals (None if deleted)."""
        if row["deleted_at"] is not None:
            return None
        return self.db.execute(
            "SELECT count(*) FROM deals WHERE session_id = ? AND deleted_at IS NULL AND seq <= ?",
            [row["session_id"], row["seq"]],
        ).fetchone()[0]

    def _live_deal_row(self, session_id: str, deal_id: int) -> dict:
        """Return a live deal of this session for changing it, or raise Conflict/NotFound."""
        row = self._deal_row(session_id, deal_id)
        if row["deleted_at"] is not None:
            raise Conflict("This deal was deleted on another device. Reload to see the current deals.")
        return row

    def _insert_deal(self, session_id: str, seq: int, record: dict, override: bool, note: str | None, now: str) -> dict:
        """Insert one deals row and return it."""
        _check_record(record)
        row = {
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
        record: dict,
        *,
        override: bool = False,
        note: str | None = None,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        draft_version: int | None = None,
        answer: Callable[[dict, int], dict | None] | None = None,
        request: str | None = None,
    ) -> tuple[dict, bool]:
        """Store a deal; return (deal, created) — a repeated idempotency key stores nothing.

        The draft of the next deal is emptied (the deal it was for is now recorded); with
        ``draft_version`` the deal is the draft's and is stored only if the draft is still at it.
        ``answer(deal, version)``, called in the same transaction with the session's version the deal
        made, gives the response to replay for ``idempotency_key`` (None: the caller saves one later).
        ``request``: a digest of the request the key comes with; the key already used with another one is
        ``KeyReused``.
        """
        _check_record(record)
        with self._write():
            row = self._session_row(session_id)
            if idempotency_key is not None:
                claimed = self._key_row(session_id, idempotency_key, request)
                # Checked before the version and the end: a retry of a request that
                # succeeded must replay it, although it has since changed the version.
                if claimed is not None and claimed[0] is not None:
                    deal = self._deal_row(session_id, claimed[0])
                    return self._deal(deal, self._number(deal)), False
            self._check_writable(row)
            self._check_version(row, expected_version)
            if draft_version is not None and self._draft_version(session_id) != draft_version:
                raise Conflict("A part of this deal changed since it was shown. Look at it again, then record it.")
            now = _now()
            self._clear_draft(session_id, now)
            seq, number = self.db.execute(
                "SELECT (SELECT coalesce(max(seq), 0) + 1 FROM deals WHERE session_id = :id),"
                " (SELECT count(*) + 1 FROM deals WHERE session_id = :id AND deleted_at IS NULL)",
                {"id": session_id},
            ).fetchone()
            stored = self._insert_deal(session_id, seq, record, override, note, now)
            self._bump_version(session_id)
            self._log(session_id, "record", {"after": self._snapshot(stored)}, stored["id"], now)
            deal = self._deal(stored, number)
            response = answer(deal, row["version"] + 1) if answer is not None else None
            if idempotency_key is not None:
                self._claim_key(session_id, idempotency_key, stored["id"], response, now, request)
            return deal, True

    def _key_row(self, session_id: str, key: str, request: str | None) -> tuple | None:
        """(deal_id, status, response) of ``key``, or None; ``KeyReused`` when it was first sent with another
        ``request`` (a page's form key has none, and is not compared)."""
        row = self.db.execute(
            "SELECT deal_id, status, response, request FROM idempotency WHERE session_id = ? AND key = ?",
            [session_id, key],
        ).fetchone()
        if row is not None and request is not None and row[3] is not None and row[3] != request:
            raise KeyReused(key)
        return None if row is None else tuple(row[:3])

    def _claim_key(
        self, session_id: str, key: str, deal_id: int, response: dict | None, now: str, request: str | None = None
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

    def save_response(self, session_id: str, key: str, status: int, body: dict, request: str | None = None) -> None:
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

    def deal_for_key(self, session_id: str, key: str | None) -> dict | None:
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

    def stored_response(self, session_id: str, key: str, request: str | None = None) -> tuple[int, dict] | None:
        """Return (status, body) saved for this idempotency key, or None; ``KeyReused`` when the key was first
        sent with another ``request``."""
        row = self._key_row(session_id, key, request)
        if row is None or row[2] is None:
            return None
        return row[1], json.loads(row[2])

    def list_deals(self, session_id: str) -> list[dict]:
        """Return the live deals in recorded order, numbered from 1."""
        self._session_row(session_id)
        rows = self.db.table("deals").rows_where("session_id = ? AND deleted_at IS NULL", [session_id], order_by="seq")
        return [self._deal(row, number) for number, row in enumerate(rows, start=1)]

    def session_and_deals(self, session_id: str, known: Any) -> tuple[dict, list[dict]]:
        """The session and its live deals (``deals_known``) read in one read transaction: the deals are those of
        the session's version (a tally kept by that version holds exactly them)."""
        with self.db.atomic():
            return self.get_session(session_id), self.deals_known(session_id, known)

    def deals_known(self, session_id: str, known: Any) -> list[dict]:
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
            rows = [
                {
                    "id": r[0],
                    "number": n,
                    "seq": r[1],
                    "revision": r[2],
                    "record": None,
                    "override": bool(r[3]),
                    "note": r[4],
                    "created_at": r[5],
                    "updated_at": r[6],
                }
                for n, r in enumerate(cursor, start=1)
            ]
            wanted = [r["id"] for r in rows if (r["id"], r["revision"]) not in known]
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                records = dict(
                    self.db.execute(
                        f"SELECT id, record FROM deals WHERE session_id = ? AND id IN ({marks})", [session_id, *chunk]
                    ).fetchall()
                )
                for r in rows:
                    if r["id"] in records:
                        r["record"] = json.loads(records[r["id"]])
        return rows

    def get_deal(self, session_id: str, deal_id: int) -> dict:
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

    def update_deal(
        self, session_id: str, deal_id: int, record: dict, *, override: bool, note: str | None, expected_revision: int
    ) -> dict:
        """Replace a deal's record, override and note if it is still at expected_revision."""
        _check_record(record)
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
            self._bump_version(session_id)
            after = self._deal_row(session_id, deal_id)
            self._log(
                session_id,
                "edit",
                {"before": self._snapshot(before), "after": self._snapshot(after)},
                deal_id,
                now,
            )
            return self._deal(after, self._number(after))

    def _soft_delete(self, session_id: str, row: dict, action: str) -> dict:
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

    def undo_last(self, session_id: str, *, expected_version: int | None = None) -> dict | None:
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

    def redo_undone(self, session_id: str, deal_id: int, *, expected_version: int | None = None) -> dict | None:
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
            self._bump_version(session_id)
            self._log(session_id, "redo", {"after": self._snapshot(row)}, row["id"], now)
            back = self._deal_row(session_id, deal_id)
            return self._deal(back, self._number(back))

    def history(self, session_id: str) -> list[dict]:
        """Return the session's history, newest first, with details decoded."""
        self._session_row(session_id)
        rows = self.db.table("history").rows_where("session_id = ?", [session_id], order_by="id DESC")
        return [
            {
                "id": row["id"],
                "session_id": row["session_id"],
                "deal_id": row["deal_id"],
                "action": row["action"],
                "detail": json.loads(row["detail"]),
                "at": row["at"],
            }
            for row in rows
        ]

    # -- the draft of the next deal, and the seats -----------------------------------------

    def next_number(self, session_id: str) -> int:
        """The number the next recorded deal will have."""
        return self.db.execute(
            "SELECT count(*) + 1 FROM deals WHERE session_id = ? AND deleted_at IS NULL", [session_id]
        ).fetchone()[0]

    def _draft_version(self, session_id: str) -> int:
        row = self.db.execute("SELECT version FROM drafts WHERE session_id = ?", [session_id]).fetchone()
        return row[0] if row else 0

    def _touch_draft(self, session_id: str, now: str, end: dict | None = None) -> int:
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

    def _generation(self, session_id: str) -> int:
        """Which draft is open: the deals ever recorded in the session, deleted and undone ones too. Only
        recording a deal moves it on; deleting or undoing an earlier deal renumbers the next deal, not this."""
        return self.db.execute("SELECT coalesce(max(seq), 0) FROM deals WHERE session_id = ?", [session_id]).fetchone()[
            0
        ]

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

    def _seat_row(self, session_id: str, seat: int) -> dict:
        """The sessions row, after checking that ``seat`` is one of its seats (NotFound otherwise)."""
        row = self._session_row(session_id)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(json.loads(row["players"])):
            raise NotFound(f"This score sheet has no seat {seat!r}.")
        return row

    def draft(self, session_id: str) -> dict:
        """The draft of the next deal: its number and version, the end, every part and every taken seat."""
        with self.db.atomic():  # one snapshot
            row = self._session_row(session_id)
            found = self._one("SELECT [end], version, updated_at FROM drafts WHERE session_id = ?", [session_id])
            parts = {
                r[0]: {"part": json.loads(r[1]), "revision": r[2], "written_by": r[3], "written_at": r[4]}
                for r in self.db.execute(
                    "SELECT seat, part, revision, written_by, written_at FROM draft_parts WHERE session_id = ?"
                    " ORDER BY seat",
                    [session_id],
                )
            }
            seats = {
                r[0]: {"taken_at": r[1]}
                for r in self.db.execute(
                    "SELECT seat, taken_at FROM seats WHERE session_id = ? ORDER BY seat", [session_id]
                )
            }
            number = self.next_number(session_id)
            generation = self._generation(session_id)
        return {
            "deal": number,
            "generation": generation,
            "version": found["version"] if found else 0,
            "session_version": row["version"],
            "end": json.loads(found["end"]) if found else {},
            "parts": parts,
            "seats": seats,
            "ended": row["ended_at"] is not None,
        }

    def draft_tag(self, session_id: str) -> str:
        """A tag that changes whenever the session or its draft (parts, end, seats) changes: an ETag."""
        row = self.db.execute(
            "SELECT s.version, coalesce(d.version, 0) FROM sessions s LEFT JOIN drafts d ON d.session_id = s.id"
            " WHERE s.id = ?",
            [session_id],
        ).fetchone()
        if row is None:
            raise NotFound(f"There is no score sheet with id {session_id!r}.")
        return f"{row[0]}-{row[1]}"

    def save_part(
        self,
        session_id: str,
        seat: int,
        part: dict | None,
        *,
        revision: int | None,
        by: str,
        deal: int | None = None,
        generation: int | None = None,
    ) -> dict:
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
            if revision is not None and revision != stored:
                if current is not None and part is not None and json.loads(current["part"]) == part:
                    # the same part sent again (a phone that did not hear the answer): stored once, not a conflict
                    return {
                        "part": part,
                        "revision": stored,
                        "written_by": current["written_by"],
                        "written_at": current["written_at"],
                        "version": self._draft_version(session_id),
                    }
                raise Conflict("This part was changed on another phone since you saw it.")
            now = _now()
            if part is None:
                self._throw_parts(session_id, seat)
                entry: dict[str, Any] = {"part": None, "revision": 0, "written_by": by, "written_at": now}
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
                entry = {"part": part, "revision": stored + 1, "written_by": by, "written_at": now}
            entry["version"] = self._touch_draft(session_id, now)
            return entry

    def save_draft_end(
        self, session_id: str, end: dict, *, deal: int | None = None, generation: int | None = None
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

    def take_seat(
        self, session_id: str, seat: int, *, token: str | None = None, scorer: bool = False, move: str | None = None
    ) -> tuple[str, bool]:
        """Give ``seat`` to this phone; return (its seat token, True if another phone held the seat).

        The one rule of who may take a seat (the pages and the API both come here):

        - a free seat: anyone;
        - the seat this phone holds already (``token`` is its seat token): nothing changes, the same token back;
        - a seat another phone holds: the scorer (``scorer``: the caller checked the edit token), or a phone
          sending ``move``, the seat's move code or the secret of its one-time link, which it uses up. The old
          phone's token stops at once; the part already entered stays.

        Anyone else gets ``SeatHeld`` and nothing changes, except that a wrong ``move`` counts against the
        seat's move code: after ``MOVE_CODE_TRIES`` wrong ones it stops working (ask for a new one).
        """
        refused: SeatHeld | None = None
        with self._write():
            self._check_writable(self._seat_row(session_id, seat))
            now = _now()
            held = self._one("SELECT holder_hash FROM seats WHERE session_id = ? AND seat = ?", [session_id, seat])
            if held is not None:
                if token and hmac.compare_digest(_hash_token(token), held["holder_hash"]):
                    return token, False
                if not scorer and not (move and self._use_move(session_id, seat, move, now)):
                    refused = SeatHeld(seat, wrong_code=bool(move))
            if refused is None:
                token = secrets.token_urlsafe(18)
                self.db.table("seats").upsert(
                    {"session_id": session_id, "seat": seat, "holder_hash": _hash_token(token), "taken_at": now},
                    pk=("session_id", "seat"),
                )
                self._drop_move(session_id, seat)  # a code belongs to one phone's holding of the seat
                self._touch_draft(session_id, now)
        if refused is not None:  # raised after the write: a wrong try is kept
            raise refused
        assert token is not None
        return token, held is not None

    def _use_move(self, session_id: str, seat: int, move: str, now: str) -> bool:
        """True when ``move`` is the seat's live move code (or its link's secret); a wrong one is counted."""
        row = self._one(
            "SELECT code_hash, link_hash, expires_at, wrong_tries FROM seat_moves WHERE session_id = ? AND seat = ?",
            [session_id, seat],
        )
        if row is None or row["expires_at"] <= now or row["wrong_tries"] >= MOVE_CODE_TRIES:
            return False
        # both compared, in constant time: neither answer says which one was close
        right_code = hmac.compare_digest(_move_code_hash(session_id, seat, move), row["code_hash"])
        right_link = hmac.compare_digest(_hash_token(move), row["link_hash"])
        if right_code or right_link:
            return True
        self.db.execute(
            "UPDATE seat_moves SET wrong_tries = wrong_tries + 1 WHERE session_id = ? AND seat = ?", [session_id, seat]
        )
        return False

    def _drop_move(self, session_id: str, seat: int) -> None:
        self.db.execute("DELETE FROM seat_moves WHERE session_id = ? AND seat = ?", [session_id, seat])

    def new_move_code(self, session_id: str, seat: int, token: str | None = None) -> dict | None:
        """A new one-time move code for ``seat``, replacing the seat's earlier one: ``{"code", "link",
        "expires_at"}`` (``code`` to type, ``link`` the secret of the one-time link; only their hashes are kept).

        With ``token``, only for the phone holding the seat; without, the caller is the scorer (it checked the
        edit token). None when nobody holds the seat, or ``token`` does not hold it.
        """
        with self._write():
            self._check_writable(self._seat_row(session_id, seat))
            held = self._one("SELECT holder_hash FROM seats WHERE session_id = ? AND seat = ?", [session_id, seat])
            if held is None or (token is not None and not hmac.compare_digest(_hash_token(token), held["holder_hash"])):
                return None
            code = f"{secrets.randbelow(10**MOVE_CODE_DIGITS):0{MOVE_CODE_DIGITS}d}"
            link = secrets.token_urlsafe(16)  # 128 random bits: the link cannot be guessed, the code is counted
            now = datetime.now(UTC)
            expires_at = (now + MOVE_CODE_LIFETIME).isoformat(timespec="microseconds")
            self.db.execute(
                "INSERT INTO seat_moves (session_id, seat, code_hash, link_hash, created_at, expires_at, wrong_tries)"
                " VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT (session_id, seat) DO UPDATE SET"
                " code_hash = excluded.code_hash, link_hash = excluded.link_hash, created_at = excluded.created_at,"
                " expires_at = excluded.expires_at, wrong_tries = 0",
                [
                    session_id,
                    seat,
                    _move_code_hash(session_id, seat, code),
                    _hash_token(link),
                    now.isoformat(timespec="microseconds"),
                    expires_at,
                ],
            )
        return {"code": code, "link": link, "expires_at": expires_at}

    def move_of(self, session_id: str, link: str) -> int | None:
        """The seat a one-time link's secret moves, while it still works (unused, in time, not tried too often);
        None otherwise. Reads only: the link's page changes nothing."""
        row = self._one(
            "SELECT seat, expires_at, wrong_tries FROM seat_moves WHERE session_id = ? AND link_hash = ?",
            [session_id, _hash_token(link)],
        )
        if row is None or row["expires_at"] <= _now() or row["wrong_tries"] >= MOVE_CODE_TRIES:
            return None
        return row["seat"]

    def free_seat(self, session_id: str, seat: int, token: str | None = None) -> bool:
        """Free ``seat`` (only if ``token`` holds it, when given); return True if it was held."""
        with self._write():
            self._seat_row(session_id, seat)
            if token is not None and self.seat_of(session_id, token) != seat:
                return False
            gone = self.db.execute("DELETE FROM seats WHERE session_id = ? AND seat = ?", [session_id, seat]).rowcount
            self._drop_move(session_id, seat)
            if gone:
                self._touch_draft(session_id, _now())
            return bool(gone)

    def written_seats(self, session_id: str) -> list[int]:
        """The seats whose part of the next deal is saved in the draft, in seat order."""
        return [
            r[0]
            for r in self.db.execute("SELECT seat FROM draft_parts WHERE session_id = ? ORDER BY seat", [session_id])
        ]

    def taken_seats(self, session_id: str) -> list[int]:
        """The seats a phone holds, in seat order."""
        return [
            r[0] for r in self.db.execute("SELECT seat FROM seats WHERE session_id = ? ORDER BY seat", [session_id])
        ]

    def seat_of(self, session_id: str, token: str | None) -> int | None:
        """The seat this seat token holds in the session, or None."""
        if not token:
            return None
        row = self.db.execute(
            "SELECT seat FROM seats WHERE session_id = ? AND holder_hash = ?", [session_id, _hash_token(token)]
        ).fetchone()
        return row[0] if row else None

    # -- player statistics (worked out by the service; the store keeps them and their sums) ---------

    def stale_stats(self, limit: int = 1000) -> list[str]:
        """Sessions whose statistics were worked out for an older version (or never)."""
        return [
            r[0] for r in self.db.execute("SELECT id FROM sessions WHERE stats_version != version LIMIT ?", [limit])
        ]

    def set_many_session_stats(self, entries: list[tuple[str, int, str, list[dict]]]) -> int:
        """``set_session_stats`` for many sessions in one transaction; returns how many were written."""
        with self._write():
            return sum(self.set_session_stats(*entry) for entry in entries)

    def set_session_stats(self, session_id: str, version: int, game: str, rows: list[dict]) -> bool:
        """Replace a session's per-player statistics, as worked out at ``version``; keep the sums per game.

        ``rows``: ``{"player" (a key, casefolded), "name", "deals", "points", "expresses", "won",
        "played_at"}`` per player, or none for a session that does not count. Statistics of an
        older version than those stored are not written (a later request wrote newer ones).
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
            touched = {(game, p[0]) for p in old} | {(game, r["player"]) for r in rows}
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
                        r["player"],
                        r["name"],
                        game,
                        r["deals"],
                        r["points"],
                        r["expresses"],
                        int(r["won"]),
                        r["played_at"],
                    ],
                )
                self.db.execute(
                    "INSERT INTO player_stats (game, player, name, sessions, won, deals, points, expresses,"
                    " last_played) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?) ON CONFLICT(game, player) DO UPDATE SET"
                    " sessions = sessions + 1, won = won + excluded.won, deals = deals + excluded.deals,"
                    " points = points + excluded.points, expresses = expresses + excluded.expresses",
                    [
                        game,
                        r["player"],
                        r["name"],
                        int(r["won"]),
                        r["deals"],
                        r["points"],
                        r["expresses"],
                        r["played_at"],
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

    def player_stats(self, game: str | None = None, limit: int | None = None) -> list[tuple]:
        """Each player's sums over every game (or over ``game``), the most wins first, then the best average
        deal score, then the name: ``(player, name, sessions, won, deals, points, expresses, last_played)``,
        the name as written when last played; the first ``limit`` players only, when given.

        Summed and ranked by SQLite: the first 50 of 1,000 players take 1.2 ms, all of them 2.2 ms, against
        4.8 ms for all of them summed and ranked in Python before."""
        where, params = ("WHERE game = ?", [game]) if game else ("", [])
        # a bare column beside MAX() is taken from the row holding the maximum (SQLite's documented rule);
        # ``player`` is the casefolded name, and UTF-8 sorts as Python sorts code points
        return self.db.execute(
            "SELECT player, name, SUM(sessions), SUM(won) AS won, SUM(deals) AS deals, SUM(points) AS points, "
            f"SUM(expresses), MAX(last_played) FROM player_stats {where} GROUP BY player "
            "ORDER BY won DESC, CASE WHEN deals THEN CAST(points AS REAL) / deals ELSE 0.0 END DESC, player "
            + ("LIMIT ?" if limit is not None else ""),
            params + ([limit] if limit is not None else []),
        ).fetchall()

    def player_count(self, game: str | None = None) -> int:
        """How many players have statistics (of ``game``, or of any game)."""
        where, params = ("WHERE game = ?", [game]) if game else ("", [])
        return self.db.execute(f"SELECT COUNT(DISTINCT player) FROM player_stats {where}", params).fetchone()[0]

    # -- whole sessions ---------------------------------------------------------------

    def import_session(
        self,
        game: str,
        rules: dict,
        players: list[str],
        target: dict | None,
        deals: list[dict],
        *,
        created_at: str | None = None,
        ended_at: str | None = None,
        idempotency_key: str | None = None,
        hand_entry: str | None = None,
    ) -> tuple[dict, str | None]:
        """Create a session with all its deals in one transaction; return (session, token).

        ``created_at``/``ended_at`` keep an exported session's dates (ISO text); by default it
        is dated now and open. ``hand_entry`` is the table's way of entering hands (``set_hand_entry``).
        A repeated ``idempotency_key`` (a double tap on Import) stores nothing and returns the session it
        imported before, with ``None`` for the token (only its hash is kept).
        """
        with self._write():
            earlier = self._created_with(idempotency_key)
            if earlier is not None:
                return self.get_session(earlier), None
            now = _now()
            session_id, token = self._insert_session(game, rules, players, target, created_at or now, ended_at)
            if hand_entry is not None:
                if hand_entry not in HAND_ENTRIES:
                    raise ValueError(f"hand_entry must be one of {HAND_ENTRIES}")
                self.db.execute("UPDATE sessions SET hand_entry = ? WHERE id = ?", [hand_entry, session_id])
            self._remember_creation(idempotency_key, session_id, now)
            # Encoded one by one inside the transaction: a bad deal anywhere rolls back
            # the session and every deal before it.
            for seq, deal in enumerate(deals, start=1):
                self._insert_deal(
                    session_id,
                    seq,
                    deal["record"],
                    deal.get("override", False),
                    deal.get("note"),
                    now,
                )
            self._log(session_id, "import", {"deals": len(deals)}, at=now)
        return self.get_session(session_id), token

    def all_sessions_with_deals(self) -> Iterator[tuple[dict, list[dict]]]:
        """Yield (session, live deals) for every session, oldest first."""
        # Read everything in one transaction for a consistent snapshot, then yield, so
        # no transaction stays open while the caller works.
        with self.db.atomic():
            sessions = [
                self._session(row) for row in self.db.table("sessions").rows_where(order_by="created_at, rowid")
            ]
            deal_rows = list(self.db.table("deals").rows_where("deleted_at IS NULL", order_by="session_id, seq"))
        by_session: dict[str, list[dict]] = {}
        for row in deal_rows:
            live = by_session.setdefault(row["session_id"], [])
            live.append(self._deal(row, len(live) + 1))
        for session in sessions:
            yield session, by_session.get(session["id"], [])
