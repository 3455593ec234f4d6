"""The files beside the database: its write-ahead log (``-wal``) and shared memory (``-shm``), watched and repaired.

SQLite in WAL mode keeps every recent write in the ``-wal`` file until a checkpoint copies it into the database
file. Two things can go wrong with that file while the server runs, and are handled here:

- **the -wal file deleted or replaced** (issue 35). A connection keeps writing to the file it opened, which no
  longer has a name: its writes are acknowledged, and lost at the next start. Every connection remembers the
  identity (device, inode) of the -wal it opened (``WalWatch``) and looks again before each commit and each
  request: one that finds another file (or none) commits nothing more. The first to notice *rescues* the log: it
  checkpoints what the lost file holds into the database file (``PRAGMA wal_checkpoint(TRUNCATE)``, read through
  its own open descriptor), so nothing acknowledged is lost; connections opened afterwards start a new -wal. Until
  the rescue, no connection of this process may open the database (``WalWatch.start``): a new one would write to
  a new -wal while the shared memory still describes the lost one.
- **a -wal or -shm the server cannot write** while the database file itself is writable (``repair_companions``):
  SQLite creates both with the database file's mode, so a ``chmod 444`` of the file left a mode-0444 -shm behind
  that refused every write after the file was writable again, even after a restart.

Standard library and ``sqlite3`` only, like the rest of the store.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import threading
import weakref
from dataclasses import dataclass

from .errors import StorageUnavailable

__all__ = ["WalWatch", "free_wal", "keep_room", "repair_companions", "size_on_disk", "within_cap"]

_log = logging.getLogger("kunken_scorer.store")

#: a file's identity: (device, inode)
Ident = tuple[int, int]
#: a -wal file as this process's connections know it: (database path, database file, -wal file)
WalKey = tuple[str, Ident, Ident]

_LOCK = threading.Lock()
#: the open connections of this process writing to each -wal file
_LIVE: dict[WalKey, int] = {}
#: the lost -wal files whose content was checkpointed into the database file: their connections are obsolete
_RESCUED: set[WalKey] = set()


def _ident(path: str) -> Ident | None:
    """The file's identity, None when there is no such file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _refuse_beside_lost(path: str, main: Ident, wal: Ident | None) -> None:
    """Raise when this process has connections on another -wal of the database file ``main`` than ``wal`` (the one
    beside it now, None: none), lost and not yet saved. Called holding ``_LOCK``."""
    if any(k[:2] == (path, main) and k[2] != wal and k not in _RESCUED for k in _LIVE):
        raise StorageUnavailable(
            "wal_lost",
            f"{path}-wal was deleted or replaced while the server ran; what it held is not yet saved into {path}: "
            "no connection is opened until it is (the next request tries). Do not stop the server.",
            file=f"{path}-wal",
        )


def _release(key: WalKey) -> None:
    """One connection on ``key`` fewer; the last one takes the file's entries with it."""
    with _LOCK:
        left = _LIVE.get(key, 0) - 1
        if left > 0:
            _LIVE[key] = left
        else:
            _LIVE.pop(key, None)
            _RESCUED.discard(key)


@dataclass(eq=False)
class WalWatch:
    """The -wal file one open connection writes to, and whether it is still the one beside the database."""

    path: str
    key: WalKey
    #: ends this connection's count (also when the connection is collected without being closed)
    done: weakref.finalize  # type: ignore[type-arg]  # generic only in typeshed

    @property
    def wal(self) -> str:
        """The -wal file's path."""
        return self.path + "-wal"

    @classmethod
    def start(cls, owner: object, path: str) -> WalWatch | None:
        """Watch the -wal of the connection ``owner`` just opened on ``path`` (it has read the database, so its
        -wal is open); None for a database without one (in memory, not in WAL mode).

        Raises ``StorageUnavailable`` ("wal_lost") when another -wal of this process's connections was lost and
        not yet rescued: the caller closes the new connection without writing.
        """
        main, wal = _ident(path), _ident(path + "-wal")
        if main is None or wal is None:
            return None
        key = (path, main, wal)
        with _LOCK:
            _refuse_beside_lost(path, main, wal)
            _LIVE[key] = _LIVE.get(key, 0) + 1
        return cls(path, key, weakref.finalize(owner, _release, key))

    @staticmethod
    def before_open(path: str) -> None:
        """Raise ``StorageUnavailable`` ("wal_lost") when a connection may not be opened on ``path`` now: its -wal
        is not the one this process's connections write to, and what theirs holds is not yet saved. (Checked again
        by ``start``, once the connection has opened its -wal.)"""
        main = _ident(path)
        if main is not None:
            with _LOCK:
                _refuse_beside_lost(path, main, _ident(path + "-wal"))

    def lost(self) -> bool:
        """True when the -wal beside the database is no longer the file this connection writes to."""
        return _ident(self.wal) != self.key[2]

    def rescued(self) -> bool:
        """True when the lost -wal's content was saved into the database file (by any connection)."""
        with _LOCK:
            return self.key in _RESCUED

    def rescue(self, conn: sqlite3.Connection) -> StorageUnavailable:
        """Save what the lost -wal holds into the database file, through ``conn`` (this watch's connection, outside
        any transaction, its caller holding the process's write lock); return the error the request answers with.

        The checkpoint reads the lost file through the descriptor ``conn`` still has, copies every committed page
        into the database file and empties the log, so the next connection starts a new -wal.
        """
        if not self.rescued():
            try:
                busy, _log_frames, _copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error as err:
                busy, why = 1, str(err)
            else:
                why = "readers kept it busy"
            if busy:
                _log.error(
                    "%s was deleted or replaced; saving what it held into %s failed (%s)", self.wal, self.path, why
                )
                return StorageUnavailable(
                    "wal_lost",
                    f"{self.wal} was deleted or replaced while the server ran, and what it held could not be saved "
                    f"into {self.path} yet ({why}): do not stop the server; the next request tries again.",
                    file=self.wal,
                )
            with _LOCK:
                _RESCUED.add(self.key)
            _log.error(
                "%s was deleted or replaced while the server ran: everything it held was saved into %s; a new -wal "
                "is started. Never delete or replace the -wal or -shm files of a running server.",
                self.wal,
                self.path,
            )
        return StorageUnavailable(
            "wal_lost",
            f"{self.wal} was deleted or replaced while the server ran; everything written before was saved into "
            f"{self.path}. This request saved nothing: send it again.",
            file=self.wal,
        )

    def close(self) -> None:
        """The connection is closing: it counts no more."""
        self.done()


def size_on_disk(path: str) -> int:
    """The bytes the database takes: its file and its -wal."""
    total = 0
    for name in (path, path + "-wal"):
        try:
            total += os.stat(name).st_size
        except OSError:
            pass
    return total


def within_cap(conn: sqlite3.Connection, path: str, cap: int, *, refuse: bool) -> None:
    """Keep the database file ``path`` and its -wal within ``cap`` bytes together (``KUNKEN_DATABASE_MAX_MB``):
    past it, a checkpoint copies the -wal into the file and empties it (the file alone cannot pass the cap: its
    ``max_page_count``). Still past it before a write (``refuse``: readers kept the -wal busy), the write is refused
    as "full". Called with the process's write lock held, outside any transaction of ``conn``."""
    if size_on_disk(path) <= cap:
        return
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error as err:
        if refuse:
            raise StorageUnavailable.from_error(err, writing=True) from None
    size = size_on_disk(path)
    if refuse and size > cap:
        raise StorageUnavailable(
            "full", f"{path} and its -wal take {size} bytes, past the cap of {cap} bytes", writing=True
        )


def keep_room(conn: sqlite3.Connection, path: str) -> None:
    """Before a write: checkpoint the -wal (``free_wal``) once it takes half of the disk's free space, while the
    checkpoint still fits. A checkpoint copies the log's pages into the database file, which may grow by as much as
    the log holds; left until the disk is full, the log could no longer be checkpointed at all, and held the disk
    full for good (a 2.9 MB -wal on a 3 MB disk). Two ``stat`` calls a write; called with the process's write lock
    held, outside any transaction of ``conn``."""
    try:
        wal = os.stat(path + "-wal").st_size
        disk = os.statvfs(path)
    except OSError:
        return
    # root may also use the blocks a filesystem keeps back for it; any other user only the available ones
    free = (disk.f_bfree if os.geteuid() == 0 else disk.f_bavail) * disk.f_frsize
    if wal and free < 2 * wal:
        free_wal(conn, path, "the disk is nearly full")


def free_wal(conn: sqlite3.Connection, path: str, why: str) -> bool:
    """Copy what the -wal holds into the database file ``path`` and truncate the -wal to nothing, which gives back
    the disk space it held; True when it is empty now. Called ``why``: a write found the disk full, or the server
    starts.

    The -wal only grows between checkpoints, and SQLite's own checkpoint waits until it holds 1000 pages (4 MB): on
    a small disk the -wal alone filled it, and with nothing checkpointing it every write was refused, even after a
    restart. A checkpoint needs room for the pages the file gains; when even that is lacking it fails, the -wal is
    kept whole, and freeing some space lets the next one succeed. Called with the process's write lock held (or
    before serving), outside any transaction of ``conn``."""
    size = size_on_disk(path)
    try:
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    except sqlite3.Error as err:
        _log.error("%s: checkpointing %s-wal (%s) failed: %s; free some disk space", why, path, size, err)
        return False
    if busy:  # another connection was reading or writing throughout busy_timeout: the next call tries again
        _log.warning("%s: %s-wal could not be emptied (busy); the next checkpoint tries again", why, path)
        return False
    if size_on_disk(path) < size:  # worth a warning on a disk running full; as a start goes, routine
        level = logging.WARNING if "full" in why else logging.INFO
        now = size_on_disk(path)
        _log.log(level, "%s: %s-wal checkpointed into the file: %s bytes take %s now", why, path, size, now)
    return True


def repair_companions(path: str) -> list[str]:
    """Make the -wal and -shm beside a writable database file writable again; return the files repaired.

    A companion the server owns gets the database file's permission bits (SQLite made it with the mode the file
    had then). One the server may not change raises ``StorageUnavailable`` ("read_only") naming it. Nothing is
    done while the database file itself is read-only, or missing. A file the process owns is judged by its owner
    bit, for root too (a mode-0444 file is read-only as its owner meant it); any other as the system says.
    """
    try:
        main = os.stat(path)
    except OSError:
        return []
    if not _writable(path, main):
        return []
    repaired = []
    for companion in (path + "-shm", path + "-wal"):
        try:
            st = os.stat(companion)
        except OSError:
            continue
        if _writable(companion, st):
            continue
        if st.st_uid != os.geteuid():
            raise StorageUnavailable(
                "read_only",
                f"{companion} cannot be written by the server (user {os.geteuid()}), though {path} can: make it "
                f"writable (chmod 666 {companion}, or chown it to the server's user), or delete it while the server "
                "is stopped",
                file=companion,
            )
        try:
            os.chmod(companion, stat.S_IMODE(main.st_mode) | stat.S_IRUSR | stat.S_IWUSR)
        except OSError as err:
            raise StorageUnavailable(
                "read_only", f"{companion} cannot be written and its mode not changed ({err.strerror})", file=companion
            ) from None
        _log.warning("%s was read-only while %s is writable: it has the database file's mode again", companion, path)
        repaired.append(companion)
    return repaired


def _writable(path: str, st: os.stat_result) -> bool:
    """Whether the process may write the file: by its owner bit when the process owns it, else as the system says."""
    if st.st_uid == os.geteuid():
        return bool(st.st_mode & stat.S_IWUSR)
    return os.access(path, os.W_OK)
