"""The base of ``Store``: the connection (opened, kept, closed), the write transaction, the backup, and the
helpers every concern shares (the session's row, its version, the history log, ``_now``, ``_dumps``,
``_hash_token``)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self
from urllib.parse import quote

import sqlite_utils

from .copies import backup_to, fold_wal, keep_aside, owned_like, place, prepared
from .errors import Conflict, NotFound, SessionEnded, StorageUnavailable
from .files import WalWatch, free_wal, keep_room, repair_companions, within_cap
from .migrations import migrations
from .rows import BackupReport, SessionRow

#: The values ``set_hand_entry`` stores (the store imports no core module: ``reading.HAND_ENTRIES`` is the
#: same list, and which of them a game offers is the core's ``hand_entries``).
HAND_ENTRIES = ("ranks", "points", "counts", "cards")

HISTORY_ACTIONS = frozenset({"record", "edit", "delete", "undo", "redo", "end", "import", "token"})


def _now() -> str:
    """Return the current UTC time as an ISO 8601 string."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _dumps(value: Any) -> str:
    """Encode a value as strict JSON (no NaN/Infinity) in UTF-8 text a person can read in any SQLite tool ("Аня",
    not "\\u0410\\u043d\\u044f"). A lone surrogate, which UTF-8 cannot hold, keeps its ``\\udXXX`` escape, so a
    name holding one is stored and read back as it was."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    if _SURROGATE.search(text) is not None:
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)
    return text


def _hash_token(token: str) -> str:
    """Return the sha256 hex digest of an edit token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


_WRITER_LOCKS: dict[str, threading.Lock] = {}
_WRITER_LOCKS_LOCK = threading.Lock()
#: the file each open Database writes to, looked up once (forgotten with the Database)
_DB_PATHS: weakref.WeakKeyDictionary[sqlite_utils.Database, str] = weakref.WeakKeyDictionary()


def _writer_lock(db: sqlite_utils.Database) -> threading.Lock:
    """This process's lock for writing to the database file of ``db`` (one per file)."""
    path = _DB_PATHS.get(db)
    if path is None:
        row = db.execute("PRAGMA database_list").fetchone()
        path = _DB_PATHS[db] = (row[2] if row else "") or f"memory:{id(db)}"
    with _WRITER_LOCKS_LOCK:
        return _WRITER_LOCKS.setdefault(path, threading.Lock())


class _WalLost(Exception):
    """Raised inside a transaction whose connection's -wal was found lost: it rolls back."""


def _refused(error: StorageUnavailable | None) -> StorageUnavailable:
    """The error a write refused for its lost -wal answers with (``files.WalWatch.rescue``'s)."""
    error = error or StorageUnavailable("wal_lost")
    error.writing = True
    return error


def _before_opening(path: str) -> None:
    """Before a connection opens the database file ``path``: its -wal and -shm writable again if they were left
    read-only (``files.repair_companions``), and no new -wal beside one of this process's lost ones."""
    repair_companions(path)
    WalWatch.before_open(path)


#: Each thread's kept connection (``Store.kept``): (the file's identity, the store).
_KEPT = threading.local()


class Database:
    """One SQLite connection and its transactions: the base every concern's mixin of ``Store`` builds on."""

    def __init__(self, db: sqlite_utils.Database, *, migrate: bool = True, max_bytes: int | None = None) -> None:
        """Wrap an open Database: set per-connection pragmas, watch its -wal and apply pending migrations.

        ``migrate=False`` skips the migrations check, for a server that migrated at start-up. ``max_bytes`` caps
        the file and its -wal together (``_write``). ``StorageUnavailable`` ("wal_lost") while a -wal of this
        process's connections is lost and not yet saved (``files.WalWatch``): the caller closes ``db``.
        """
        self.db = db
        self.max_bytes = max_bytes or None
        # Both pragmas are per connection and off/zero by default, so set them every time.
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA busy_timeout = 5000")
        row = self.db.execute("PRAGMA database_list").fetchone()
        self.path: str = (row[2] if row else "") or ""
        self.db.execute("PRAGMA schema_version").fetchone()  # reads the file: its -wal is open from here on
        self.wal_watch = WalWatch.start(self, self.path) if self.path else None
        if migrate and migrations.pending(self.db):
            # Under the write lock, so two processes opening a fresh file at once
            # cannot both run the same migration; apply() re-checks what is pending.
            with self._write():
                migrations.apply(self.db)

    @classmethod
    def connect(cls, path: str, *, max_bytes: int | None = None) -> Self:
        """A connection to an existing, migrated database file, for one request.

        Never creates the file or a table: a missing or foreign file raises ``StorageUnavailable``
        (a write would otherwise land in tables made on the fly, outside the migrations).
        ``max_bytes`` caps the size of the file and its -wal (SQLite's ``max_page_count`` for the file, and a
        checkpoint before a write that would find them past it). A -wal or -shm left read-only beside a writable
        file is made writable first (``files.repair_companions``), or named in the ``StorageUnavailable``.
        """
        resolved = str(Path(path).resolve())
        _before_opening(resolved)
        try:
            conn = sqlite3.connect(f"file:{quote(resolved)}?mode=rw", uri=True)
        except sqlite3.Error as err:
            raise StorageUnavailable("missing", str(err)) from None
        store = None
        try:
            store = cls(sqlite_utils.Database(conn), migrate=False, max_bytes=max_bytes)
            if store.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sessions'").fetchone() is None:
                raise StorageUnavailable("missing", f"{path} holds no score sheets")
            if max_bytes:
                page = store.db.execute("PRAGMA page_size").fetchone()[0]
                store.db.execute(f"PRAGMA max_page_count = {max(1, int(max_bytes) // page)}")
        except (sqlite3.Error, StorageUnavailable) as err:
            if store is not None:
                store.close()
            else:
                conn.close()
            if isinstance(err, StorageUnavailable):
                raise
            raise StorageUnavailable.from_error(err) from None
        return store

    @classmethod
    def open(cls, path: str) -> Self:
        """Open (or create) the database file at path, enable WAL and migrate it (a -wal or -shm left read-only
        beside a writable file is made writable first, as by ``connect``); then checkpoint its -wal (``free_wal``),
        so a server that starts on a disk its -wal filled writes again once there is room for the checkpoint."""
        if path != ":memory:":
            _before_opening(str(Path(path).resolve()))
        db = sqlite_utils.Database(path)
        try:
            db.execute("PRAGMA busy_timeout = 5000")
            if not db.memory:
                # Persistent in the file; enable_wal() is a no-op once it is on.
                db.enable_wal()
            store = cls(db)
            if store.wal_watch is not None:
                free_wal(db.conn, store.path, "opening the database")
            return store
        except BaseException:
            db.close()
            raise

    def close(self) -> None:
        """Close the database connection (no longer counted as writing to its -wal first: see ``files``)."""
        if self.wal_watch is not None:
            self.wal_watch.close()
        self.db.close()

    @classmethod
    def kept(cls, path: str, *, max_bytes: int | None = None) -> Self:
        """This thread's connection to the file ``path``, kept between calls (opening one costs as much as a
        whole small request).

        The file is looked at (``stat``) on every call: a file deleted, replaced, or whose owner or
        permissions changed since the connection was opened gets a fresh connection, and a missing file is
        ``StorageUnavailable``. A connection kept to a deleted file would go on acknowledging writes that no
        file holds; the file is never created here either (``open`` makes and migrates it). So is its -wal: a
        connection whose -wal was deleted or replaced saves what that file held into the database file and is
        dropped, and the request answers ``StorageUnavailable`` ("wal_lost"); see ``files``.
        """
        try:
            st = os.stat(path)
        except OSError as err:
            cls.drop_kept()
            raise StorageUnavailable("missing", f"{path}: {err.strerror}") from None
        key = (path, max_bytes, st.st_dev, st.st_ino, st.st_mode, st.st_uid, st.st_gid)
        kept = getattr(_KEPT, "store", None)
        if kept is not None and kept[1].wal_watch is not None and kept[1].wal_watch.lost():
            lost = cls._rescue(kept[1])
            cls.drop_kept()
            if lost is not None:
                raise lost
            kept = None
        if kept is None or kept[0] != key:
            cls.drop_kept()
            _KEPT.store = (key, cls.connect(path, max_bytes=max_bytes))
        store: Self = _KEPT.store[1]
        return store

    @staticmethod
    def _rescue(store: Database) -> StorageUnavailable | None:
        """Save what the lost -wal of ``store`` held into the database file, unless another connection did;
        the error to answer (None: it was saved before, the connection is simply replaced)."""
        watch = store.wal_watch
        if watch is None or watch.rescued():
            return None
        with _writer_lock(store.db):
            return watch.rescue(store.db.conn)

    @staticmethod
    def drop_kept() -> None:
        """Close this thread's kept connection (the next ``kept`` opens afresh)."""
        kept = getattr(_KEPT, "store", None)
        _KEPT.store = None
        if kept is not None:
            kept[1].close()

    def backup(self, target: str, *, replace: bool = False) -> BackupReport:
        """Copy the whole database to the file ``target``, consistent while others write (``copies.backup_to``);
        an existing ``target`` (a symbolic link: the link itself) is replaced only with ``replace``. Returns what
        the copy holds (its sessions and live deals) and its integrity."""
        return backup_to(self.db.conn, Path(os.path.abspath(target)), replace=replace)

    @classmethod
    def restore(cls, backup: str, database: str, keep: str) -> BackupReport:
        """Replace the file ``database`` by a copy of the file ``backup``, once the copy is found to be this app's
        database and sound (``copies.report``: ``BackupRefused`` else) and migrated; the file it replaces is kept as
        ``keep``. Returns what was restored. Only while no server has ``database`` open (``maintenance``)."""
        final = Path(os.path.abspath(database))
        with prepared(Path(backup), final) as (temp, restored):
            cls.open(str(temp)).close()  # migrated, its -wal (if the backup had one) checkpointed into it
            owned_like(temp, final)
            if final.exists():
                keep_aside(final, Path(keep))
            place(temp, final, replace=True)
        fold_wal(Path(keep))
        return restored

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """Run the block in one transaction holding SQLite's write lock from the start.

        Writers of one process first queue on a lock of their own: SQLite's busy handler makes a
        writer that finds the file locked sleep (1, 2, 5, 10 … 100 ms) before it looks again, so
        eight phones recording at once would wait far longer than the writes take. Under a size cap
        (``max_bytes``) the file and its -wal are kept within it (``files.within_cap``); on a nearly full disk the
        -wal is checkpointed while it still can be (``files.keep_room``), and again when a write finds the disk full.
        """
        if self.db.conn.in_transaction:
            # Inside a caller's transaction: become a savepoint of it.
            with self.db.atomic():
                yield
            return
        with _writer_lock(self.db):
            if self.max_bytes is not None and self.wal_watch is not None:
                within_cap(self.db.conn, self.path, self.max_bytes, refuse=True)
            if self.wal_watch is not None:
                keep_room(self.db.conn, self.path)
            try:
                with self._transaction():
                    yield
            except StorageUnavailable as err:
                # A full disk: the -wal may be what fills it. Emptied now, the next write finds the room again
                # (this one is refused all the same: it was rolled back).
                if err.kind == "full" and self.wal_watch is not None and not self.db.conn.in_transaction:
                    free_wal(self.db.conn, self.path, "the disk or the size cap is full")
                raise
            if self.max_bytes is not None and self.wal_watch is not None:
                within_cap(self.db.conn, self.path, self.max_bytes, refuse=False)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE … COMMIT; an SQLite failure rolls back and is ``StorageUnavailable``.

        Nothing is committed to a -wal that is no longer the database's (``files``): found lost before the
        commit, the transaction rolls back; lost between the look and the commit, what it held (this write
        too) is saved into the database file at once, or the write is refused.
        """
        # db.atomic() would issue a deferred BEGIN: two connections could then both read
        # the same version or idempotency key before either writes. BEGIN IMMEDIATE
        # takes the write lock first (waiting up to busy_timeout), so each
        # read-check-write below is atomic across connections. Table API calls inside
        # the block nest as savepoints of this transaction.
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StorageUnavailable.from_error(err, writing=True) from None
        watch = self.wal_watch
        try:
            yield
            if watch is not None and watch.lost():
                raise _WalLost
            self.db.execute("COMMIT")
        except _WalLost:
            self._rollback()
            raise _refused(watch.rescue(self.db.conn) if watch is not None else None) from None
        except sqlite3.Error as err:
            # Nothing of this transaction is stored: say why the file could not take it.
            self._rollback()
            raise StorageUnavailable.from_error(err, writing=True) from None
        except BaseException:
            self._rollback()
            raise
        if watch is not None and watch.lost():
            error = watch.rescue(self.db.conn)
            if not watch.rescued():  # the write is in the lost -wal alone
                raise _refused(error)

    def _rollback(self) -> None:
        try:
            self.db.conn.rollback()
        except sqlite3.Error:
            pass  # the transaction is gone with the file

    def _one(self, sql: str, params: list[Any]) -> dict[str, Any] | None:
        """Return the first row of a query as a dict, or None."""
        cursor = self.db.execute(sql, params)
        row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip((column[0] for column in cursor.description), row, strict=True))

    def _session_row(self, session_id: str) -> dict[str, Any]:
        """Return the raw sessions row or raise NotFound."""
        row = self._one("SELECT * FROM sessions WHERE id = ?", [session_id])
        if row is None:
            raise NotFound(f"There is no score sheet with id {session_id!r}.")
        return row

    @staticmethod
    def _session(row: dict[str, Any]) -> SessionRow:
        """Turn a sessions row into the public session row."""
        return SessionRow(
            id=row["id"],
            game=row["game"],
            rules=json.loads(row["rules"]),
            players=json.loads(row["players"]),
            target=None if row["target"] is None else json.loads(row["target"]),
            created_at=row["created_at"],
            ended_at=row["ended_at"],
            version=row["version"],
            hand_entry=row.get("hand_entry"),
        )

    @staticmethod
    def _check_writable(row: dict[str, Any]) -> None:
        """Raise SessionEnded if the session (a sessions row) has ended."""
        if row["ended_at"] is not None:
            raise SessionEnded("This score sheet has ended; it can no longer be changed.")

    def _writable_session(self, session_id: str) -> dict[str, Any]:
        """Return the sessions row, raising NotFound or SessionEnded."""
        row = self._session_row(session_id)
        self._check_writable(row)
        return row

    def _check_version(self, row: dict[str, Any], expected_version: int | None) -> None:
        """Raise Conflict if the caller saw a different session version."""
        if expected_version is not None and row["version"] != expected_version:
            raise Conflict(
                "The score sheet was changed on another device (version "
                f"{row['version']}, you saw version {expected_version}). Reload to see it."
            )

    def _bump_version(self, session_id: str, *, scored: bool = True) -> None:
        """Increase the session's version by one (its statistics are then out of date). ``scored``: the change kept
        the deals' results (``scores``) in step: complete before, they are complete at the new version too."""
        self.db.execute(
            "UPDATE sessions SET version = version + 1, scores_version = CASE WHEN ? AND scores_version = version"
            " THEN version + 1 ELSE scores_version END WHERE id = ?",
            [int(scored), session_id],
        )

    def _log(
        self, session_id: str, action: str, detail: dict[str, Any], deal_id: int | None = None, at: str | None = None
    ) -> None:
        """Append one history row."""
        assert action in HISTORY_ACTIONS, action
        self.db.execute(
            "INSERT INTO history (session_id, deal_id, action, detail, at) VALUES (?, ?, ?, ?, ?)",
            [session_id, deal_id, action, _dumps(detail), at or _now()],
        )
