"""What the app does once, as it starts (``service.background`` does the work: the catalogs checked, the secret key
kept, the database opened), and the WSGI wrapper that reads a query string as a browser sends it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask

from ..service import background

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


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


def start(app: Flask) -> None:
    """What the app checks and does once, as it starts (``service.background``): compiled catalogs, the secret key,
    the database opened and its stale statistics brought up to date; a ``StartupError`` saying what to do else."""
    background.check_catalogs(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = background.kept_secret_key(Path(app.instance_path))
    background.start_database(str(app.config["DATABASE"]), at_once=app.testing, log=app.logger)


def catch_up_ratings(app: Flask, database: str) -> None:
    """Replay the ratings of ``database`` in the background (``service.background.catch_up_ratings``); at once
    under test."""
    background.catch_up_ratings(database, at_once=app.testing, log=app.logger)
