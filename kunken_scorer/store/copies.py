"""Copies of the database file: a backup written beside its target and renamed into place, and a backup checked
and made ready to replace the database (``Store.backup``, ``Store.restore``).

Each copy is written to a temporary file in the folder it ends up in, then renamed over its name in one step
(``os.replace``, or ``os.link`` when nothing may be replaced): whatever fails on the way (a full disk, a damaged
backup, Ctrl-C), the temporary file and the -journal, -wal and -shm SQLite made beside it are deleted, and the name
holds the old file or the whole new one, never a part. The name's last part is never followed when it is a
symbolic link: replacing it replaces the link, never the file it points to.

Standard library and ``sqlite3`` only, like the rest of the store.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import StoreError
from .rows import BackupReport

__all__ = ["BackupRefused", "backup_to", "fold_wal", "keep_aside", "owned_like", "place", "prepared", "report"]

#: the files SQLite keeps beside a database file
COMPANIONS = ("-journal", "-wal", "-shm")


class BackupRefused(StoreError):
    """The file given as a backup is no backup of this app's database: not an SQLite file, damaged, or without the
    app's tables. Nothing was changed."""


@contextlib.contextmanager
def scratch(final: Path) -> Iterator[Path]:
    """A new empty temporary file in the folder of ``final`` (made if missing), deleted with what SQLite made beside
    it when the block ends, unless the block renamed it."""
    final.parent.mkdir(parents=True, exist_ok=True)  # "backups/kunken-<date>.db" on a fresh clone
    fd, name = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".partial")
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
    finally:
        for leftover in (temp, *(Path(f"{temp}{end}") for end in COMPANIONS)):
            leftover.unlink(missing_ok=True)


def report(conn: sqlite3.Connection) -> BackupReport:
    """What the database of ``conn`` holds (its sessions and live deals) and its ``integrity_check``;
    ``BackupRefused`` for a file that is not this app's database."""
    try:
        integrity: str = conn.execute("PRAGMA integrity_check").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as err:
        if "not a database" in str(err):  # another kind of file, or a damaged first page
            raise BackupRefused(f"it is not an SQLite database ({err})") from None
        raise BackupRefused(f"it failed its integrity check ({err})") from None
    if integrity != "ok":
        raise BackupRefused(f"it failed its integrity check ({integrity.splitlines()[0]})")
    if not {"sessions", "deals"} <= tables:
        raise BackupRefused("it holds no score sheets (no sessions and deals tables)")
    sessions: int = conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
    deals: int = conn.execute("SELECT count(*) FROM deals WHERE deleted_at IS NULL").fetchone()[0]
    return BackupReport(sessions=sessions, deals=deals, integrity=integrity)


def backup_to(source: sqlite3.Connection, final: Path, *, replace: bool) -> BackupReport:
    """Copy the database of ``source`` to ``final`` with SQLite's online backup (consistent while others write),
    in a temporary file renamed into place once it passes ``integrity_check``. Without ``replace`` an existing
    ``final`` (or a link there) is never touched: ``StoreError``."""
    with scratch(final) as temp:
        try:
            copy = sqlite3.connect(str(temp))
        except sqlite3.Error as err:
            raise StoreError(f"cannot write {temp}: {err}") from None
        try:
            source.backup(copy)
            copied = report(copy)
        except sqlite3.Error as err:
            raise StoreError(f"the copy could not be made: {err}") from None
        except BackupRefused as err:
            raise StoreError(f"the copy is not sound: {err}") from None
        finally:
            copy.close()
        place(temp, final, replace=replace)
    return copied


@contextlib.contextmanager
def prepared(backup: Path, final: Path) -> Iterator[tuple[Path, BackupReport]]:
    """A copy of the file ``backup`` (and of its -wal, if one is beside it) in a temporary file beside ``final``,
    checked (``report``), for the caller to finish and ``place``; deleted at the end unless placed.

    The backup's bytes are copied, never opened by SQLite: a read-only connection would leave a -wal and -shm
    beside it, and a writable one might change it."""
    with scratch(final) as temp:
        try:
            shutil.copyfile(backup, temp)
            if Path(f"{backup}-wal").is_file():  # a copy of a live file: what its log holds is part of it
                shutil.copyfile(f"{backup}-wal", f"{temp}-wal")
        except OSError as err:
            raise StoreError(f"cannot copy {backup}: {err.strerror or err}") from None
        try:
            conn = sqlite3.connect(f"file:{temp}?mode=rw", uri=True)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the copy {temp}: {err}") from None
        try:
            checked = report(conn)
        finally:
            conn.close()
        yield temp, checked


def keep_aside(database: Path, keep: Path) -> None:
    """Keep the database file as ``keep`` (a second name of the same file when the filesystem allows, else a copy),
    its -wal as ``keep``-wal when it holds anything; then delete its -wal and -shm, which must never lie beside
    another file (SQLite would read the old log into it). Only while no connection has the file open."""
    for end in ("", "-wal"):
        source = Path(f"{database}{end}")
        if end and (not source.is_file() or source.stat().st_size == 0):
            continue
        try:
            os.link(source, f"{keep}{end}", follow_symlinks=False)
        except FileExistsError:
            raise StoreError(f"{keep}{end} exists already") from None
        except OSError:  # a filesystem without hard links
            shutil.copy2(source, f"{keep}{end}")
    for end in ("-wal", "-shm"):
        Path(f"{database}{end}").unlink(missing_ok=True)


def fold_wal(path: Path) -> None:
    """Checkpoint the -wal beside the file ``path`` into it, so the file alone holds everything (a kept file is
    copied or moved alone); a damaged one keeps its -wal beside it."""
    if not Path(f"{path}-wal").exists():
        return
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True)
    except sqlite3.Error:
        return
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error:
        pass  # left as it is: the file and its -wal together are what the database held
    finally:
        conn.close()  # the last connection: SQLite deletes the emptied -wal and the -shm


def owned_like(temp: Path, final: Path) -> None:
    """Give ``temp`` the owner and mode of the file ``final`` it is to replace, so the server's user can still
    write it when root restored it; with no such file, the owner of its folder (a service's state folder) and the
    mode SQLite gives a new file."""
    reference = final if final.exists() else final.parent
    st = reference.stat()
    if final.exists():
        mode = stat.S_IMODE(st.st_mode)
    else:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    os.chmod(temp, mode)
    if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
        os.chown(temp, st.st_uid, st.st_gid)


def place(temp: Path, final: Path, *, replace: bool) -> None:
    """Rename ``temp`` to ``final`` in one step and make the rename durable; without ``replace`` only where nothing
    is (a hard link fails on an existing name, a link there included)."""
    _sync(temp)
    try:
        if not replace:
            try:
                os.link(temp, final, follow_symlinks=False)
            except FileExistsError:
                raise
            except OSError:  # a filesystem without hard links: look, then rename
                if os.path.lexists(final):
                    raise FileExistsError(final) from None
                os.replace(temp, final)
            else:
                temp.unlink()
        else:
            os.replace(temp, final)  # a symbolic link at ``final`` is replaced itself, not what it points to
    except FileExistsError:
        raise StoreError(f"{final} exists already") from None
    except OSError as err:
        raise StoreError(f"cannot write {final}: {err.strerror or err}") from None
    _sync(final.parent)


def _sync(path: Path) -> None:
    """Flush ``path`` (a file or a folder) to the disk, so a power cut after the rename finds the whole copy."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
