"""What the app does beside the requests, with plain values (paths, a logger; never the web app): its start (the
catalogs checked, the secret key kept, the database file opened) and the players' statistics and ratings brought up
to date on a thread of their own (at once under test, where a test waits for them)."""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from logging import Logger
from pathlib import Path

from ..store import StorageUnavailable, Store, StoreError
from .ratings import ratings_stale_in, refresh_ratings_in
from .stats import refresh_stale_stats_in, stats_stale_in


class StartupError(RuntimeError):
    """The app cannot start (a database path it cannot open, an instance folder it cannot write)."""


def secret_key(instance: Path) -> str:
    """Read the instance's secret key, creating it (owner-only) on first run."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip()


def kept_secret_key(instance: Path) -> str:
    """``secret_key``, or a ``StartupError`` saying the instance folder cannot keep it."""
    try:
        return secret_key(instance)
    except OSError as err:
        raise StartupError(f"cannot keep the secret key in {instance}: {err.strerror or err}") from None


def stale_catalogs(directories: str | Path) -> list[Path]:
    """Each ``messages.po`` whose compiled ``.mo`` is missing or older (``make catalogs`` compiles them).

    ``directories`` is Flask-Babel's ``BABEL_TRANSLATION_DIRECTORIES`` (paths separated by ``;``).
    The app only reads the catalogs: nothing is compiled or written at start-up.
    """
    stale = []
    for directory in str(directories).split(";"):
        for po in sorted(Path(directory).glob("*/LC_MESSAGES/messages.po")):
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                stale.append(po)
    return stale


def check_catalogs(directories: str | Path) -> None:
    """A ``StartupError`` when a catalog is not compiled: the pages would be in English without a word."""
    stale = stale_catalogs(directories)
    if stale:
        raise StartupError(
            f"the message catalog {stale[0].with_suffix('.mo')} is missing or older than its .po; "
            "run `make catalogs` (make run does it) and start again"
        )


def start_database(database: str, *, at_once: bool, log: Logger) -> None:
    """Open the database once (its folder made, WAL and migrations), then bring the statistics of sessions changed
    before a crash (or by a migration) up to date: in the background unless ``at_once`` (many sessions, an upgraded
    database, take a while: the server answers meanwhile). A ``StartupError`` when the file cannot be opened or read.

    A file that cannot be written now (read-only, full) is not a reason not to start: the statistics are worked out
    again at the next look at /players.
    """
    try:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        Store.open(database).close()
    except (OSError, sqlite3.Error, StorageUnavailable) as err:
        why = getattr(err, "strerror", None) or str(err)
        raise StartupError(f"cannot open the database {database}: {why}") from None
    try:
        stale = stats_stale_in(database) or ratings_stale_in(database)
    except StorageUnavailable as err:
        raise StartupError(f"cannot read the database {database}: {err}") from None
    if not stale:
        return
    if at_once:
        _refresh_all(database, log)
    else:
        threading.Thread(target=_refresh_all, args=(database, log), name="kunken-stats", daemon=True).start()


def _refresh_all(database: str, log: Logger) -> None:
    try:
        refresh_stale_stats_in(database)
        refresh_ratings_in(database)
    except (sqlite3.Error, StoreError) as err:
        log.warning("player statistics not brought up to date at start: %s", err)


#: The files whose ratings a background thread is replaying (one thread a file at a time).
_REPLAYING: set[str] = set()
_REPLAYING_LOCK = threading.Lock()


def catch_up_ratings(database: str, *, at_once: bool, log: Logger) -> None:
    """Replay the ratings of ``database`` in the background, as at start-up (a request found an older ended session
    changed in a long history); at once with ``at_once``. Nothing when a replay of that file is already running."""
    if at_once:
        _refresh_all(database, log)
        return
    with _REPLAYING_LOCK:
        if database in _REPLAYING:
            return
        _REPLAYING.add(database)

    def job() -> None:
        try:
            _refresh_all(database, log)
        finally:
            with _REPLAYING_LOCK:
                _REPLAYING.discard(database)

    threading.Thread(target=job, name="kunken-ratings", daemon=True).start()
