"""What the app does once, as it starts: the secret key kept in the instance folder, the check that the
message catalogs are compiled, the players' statistics brought up to date, and the WSGI wrapper that
reads a query string as a browser sends it."""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask

from ..service import refresh_stale_stats_in, stats_stale_in
from ..service.ratings import ratings_stale_in, refresh_ratings_in
from ..store import StorageUnavailable, StoreError

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


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


_RAW_BYTE = re.compile(rb"[\x80-\xff]")


def browser_query(wsgi_app: WSGIApplication) -> WSGIApplication:
    r"""The app with a query string's raw bytes past ASCII percent-encoded, as a browser sends them.
    A script may send them raw (``?x=\xed``); Werkzeug reads a raw byte that is no UTF-8 as an error,
    which every page would have answered with a 500."""

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        query = environ.get("QUERY_STRING", "")
        if not query.isascii():
            try:
                raw = query.encode("latin-1")  # PEP 3333: the bytes as latin-1 text
            except UnicodeEncodeError:  # a server that passed text, not bytes
                raw = query.encode("utf-8")
            environ["QUERY_STRING"] = _RAW_BYTE.sub(lambda m: b"%%%02X" % m[0][0], raw).decode("ascii")
        return wsgi_app(environ, start_response)

    return app


def refresh_stale_stats_at_start(app: Flask, database: str) -> None:
    """Statistics of sessions changed before a crash (or by a migration), on a connection of its own.

    A file that cannot be written now (read-only, full) is not a reason not to start: the
    statistics are worked out again at the next look at /players.
    """
    try:
        stale = stats_stale_in(database) or ratings_stale_in(database)
    except StorageUnavailable as err:
        raise StartupError(f"cannot read the database {database}: {err}") from None
    if not stale:
        return
    if app.testing:
        _refresh_all_stats(app, database)
    else:  # many sessions (an upgraded database) take a while: the server answers meanwhile
        threading.Thread(target=_refresh_all_stats, args=(app, database), name="kunken-stats", daemon=True).start()


def _refresh_all_stats(app: Flask, database: str) -> None:
    try:
        refresh_stale_stats_in(database)
        refresh_ratings_in(database)
    except (sqlite3.Error, StoreError) as err:
        app.logger.warning("player statistics not brought up to date at start: %s", err)


#: The files whose ratings a background thread is replaying (one thread a file at a time).
_REPLAYING: set[str] = set()
_REPLAYING_LOCK = threading.Lock()


def catch_up_ratings(app: Flask, database: str) -> None:
    """Replay the ratings of ``database`` in the background, as at start-up (a request found an older ended session
    changed in a long history); at once under test. Nothing when a replay of that file is already running."""
    if app.testing:
        _refresh_all_stats(app, database)
        return
    with _REPLAYING_LOCK:
        if database in _REPLAYING:
            return
        _REPLAYING.add(database)

    def job() -> None:
        try:
            _refresh_all_stats(app, database)
        finally:
            with _REPLAYING_LOCK:
                _REPLAYING.discard(database)

    threading.Thread(target=job, name="kunken-ratings", daemon=True).start()
