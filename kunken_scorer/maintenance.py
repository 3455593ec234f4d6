"""The commands that look after the database file: ``kunken-scorer backup TARGET`` and ``kunken-scorer restore
BACKUP``, and the lock a server holds on the file while it serves (``held_while_serving``), by which a restore
knows it must wait.

Each command prints one line of what it did, or one line on stderr saying why not, with the exit status 2 when
it refused before changing anything (a target that exists, a symbolic link, a server running, a file that is no
backup) and 1 when it failed on the way (the disk full, a folder it may not write); in both cases nothing is left
half-written.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, NoReturn, Protocol, TypeVar

from .store import BackupRefused, Store, StoreError
from .web import configuration

#: The descriptors of the database files this process serves, open for the process's whole life: closing one would
#: end its lock, and would drop SQLite's own locks on the file in this process too (POSIX locks end with any
#: descriptor of the file closed), so they are never closed.
_SERVING: list[int] = []


class _Configured(Protocol):
    """The app, as far as the lock needs it: its settings."""

    @property
    def config(self) -> Mapping[str, Any]: ...


App = TypeVar("App", bound=_Configured)


def _fail(message: str, status: int) -> NoReturn:
    print(f"kunken-scorer: {message}", file=sys.stderr)
    sys.exit(status)


def _stamp() -> str:
    """The time now as a file name's part: 2025-05-17-214502 (local time, as a person reads it on the server)."""
    return datetime.now().strftime("%Y-%m-%d-%H%M%S")


def _own_files(database: str) -> set[str]:
    """The database file and the files SQLite keeps beside it."""
    return {database, *(database + end for end in ("-wal", "-shm", "-journal"))}


def backup(target: str, *, force: bool = False) -> None:
    """Copy the database to ``target`` (consistent while the server writes); print what was copied.

    An existing folder gets a dated file inside it (``kunken-2025-05-17-214502.db``), as ``cp`` into a folder does.
    An existing file is replaced only with ``force``; a symbolic link is never followed: refused, or with ``force``
    the link itself replaced by the copy, never the file it points to."""
    database = os.path.realpath(configuration()["DATABASE"])  # only reads: no migration, no start-up work
    if os.path.isdir(target):
        target = os.path.join(target, f"kunken-{_stamp()}.db")
    # the real folder, the name as given: a link at the name is the name itself, never the file it points to
    where = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(target))), os.path.basename(target))
    if where in _own_files(database) or os.path.realpath(target) in _own_files(database):
        _fail("the backup must go to another file than the database and its -wal, -shm files", 2)
    if os.path.islink(target) and not force:
        _fail(
            f"{target} is a symbolic link, which a backup never follows: give another name, or --force to "
            "replace the link itself (never the file it points to)",
            2,
        )
    if os.path.lexists(target) and not force:
        _fail(f"{target} exists: give another name, or --force to replace it", 2)
    try:
        store = Store.connect(database)
        try:
            copied = store.backup(target, replace=force)
        finally:
            store.close()
    except (StoreError, OSError) as err:
        _fail(f"backup failed: {err}", 1)
    print(
        f"Backed up {database} to {target}: {copied.sessions} sessions, {copied.deals} deals, "
        f"integrity {copied.integrity}"
    )


def restore(backup_file: str) -> None:
    """Replace the database by the file ``backup_file`` (a backup ``backup`` made), once it is checked to be this
    app's database and sound; the file it replaces is kept beside it as ``<database>.before-restore-<time>``.
    Refused while a server has the database open: the server holds a lock on it (``held_while_serving``), which
    the restore takes for itself until it is done, so no server starts on the file meanwhile."""
    database = os.path.realpath(configuration()["DATABASE"])
    if not os.path.isfile(backup_file):
        _fail(f"cannot restore {backup_file}: there is no such file", 2)
    if os.path.realpath(backup_file) in _own_files(database):
        _fail(f"{backup_file} is the database itself: give a backup of it", 2)
    try:
        lock = _lock(database, exclusive=True)
    except BlockingIOError:
        _fail(f"a server is running on {database}: stop it first (systemctl stop kunken-scorer)", 2)
    keep = f"{database}.before-restore-{_stamp()}"
    try:
        restored = Store.restore(backup_file, database, keep)
    except BackupRefused as err:
        _fail(f"{backup_file} is no backup to restore: {err}; nothing was changed", 2)
    except (StoreError, OSError) as err:
        _fail(f"restore failed: {err}", 1)
    finally:
        if lock is not None:
            os.close(lock)  # this process has no connection to the file: no lock of SQLite's ends with it
    kept = f"; the file it replaced is kept as {keep}" if os.path.exists(keep) else ""
    print(
        f"Restored {database} from {backup_file}: {restored.sessions} sessions, {restored.deals} deals, "
        f"integrity {restored.integrity}{kept}"
    )


def held_while_serving(load: Callable[[], App]) -> App:
    """The app ``load`` builds, with the lock a server holds on its database file for its whole life (shared: two
    servers may serve one file; a restore takes it alone). A restore running now stops the start (status 2).

    Taken before ``load`` (which migrates the file) when the file exists, else once ``load`` has made it."""
    held = _hold(os.path.realpath(configuration()["DATABASE"]))
    app = load()
    if not held:
        _hold(os.path.realpath(app.config["DATABASE"]))
    return app


def _hold(database: str) -> bool:
    """Take the shared lock on ``database`` for the life of the process (False: there is no file yet); stop the
    start while a restore has it."""
    try:
        lock = _lock(database, exclusive=False)
    except BlockingIOError:
        _fail(f"{database} is being restored (kunken-scorer restore): start the server again once it has finished", 2)
    if lock is None:
        return False
    _SERVING.append(lock)
    return True


def _lock(database: str, *, exclusive: bool) -> int | None:
    """A descriptor of ``database`` holding its lock (``flock``, which SQLite's own POSIX locks do not touch), None
    when there is no file to lock; ``BlockingIOError`` when another process holds it the other way."""
    try:
        fd = os.open(database, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)  # before any connection of this process to the file: no lock of SQLite's ends with it
        raise
    return fd
