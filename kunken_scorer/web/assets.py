"""Static files kept by browsers for good: each one's address carries its content's hash (``?v=``), so a phone
never asks again for a file it has, and a new release, whose files have new hashes, is fetched at once.

The hashes are worked out once, as the app starts (the files do not change while it runs; an edit shows after a
restart, as ``BASE_CSS`` does). ``url_for('static', filename=...)`` adds the hash to every address a page, the
manifest or a script's template writes; a request with the current hash is answered ``immutable`` for a year, one
without it (or with an old one, from a page kept from before an upgrade) as before: ``no-cache``, revalidated.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from flask.typing import ResponseReturnValue

#: ``Cache-Control`` of a static file asked for under its current hash: its content never changes at that address.
FOREVER = "public, max-age=31536000, immutable"
#: The query parameter that carries the hash.
VERSION = "v"
_KEY = "kunken_static_versions"


def content_hashes(folder: str | os.PathLike[str]) -> dict[str, str]:
    """Every file under ``folder`` (its path relative to it, with ``/``) and the first 12 hex digits of the SHA-256
    of its content: enough to tell versions apart, short enough for an address."""
    root = Path(folder)
    hashes = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            hashes[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return hashes


def init_assets(app: Flask) -> None:
    """Version the app's static addresses: hash its static folder now, add ``?v=`` to every ``url_for('static')``,
    and answer a request with the current hash as cacheable for good."""
    assert app.static_folder is not None  # the app factory always gives one
    app.extensions[_KEY] = content_hashes(app.static_folder)
    app.url_defaults(_versioned)
    plain = app.view_functions["static"]

    def static(filename: str) -> ResponseReturnValue:
        response: Any = plain(filename=filename)
        wanted = current_app.extensions[_KEY].get(filename)
        if wanted is not None and request.args.get(VERSION) == wanted and response.status_code in (200, 304):
            response.headers["Cache-Control"] = FOREVER
        return response  # type: ignore[no-any-return]

    app.view_functions["static"] = static


def _versioned(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for``'s hook: a static file's address gets its content hash (a file not there at start-up, none)."""
    if endpoint != "static" or VERSION in values:
        return
    version = current_app.extensions[_KEY].get(values.get("filename", ""))
    if version is not None:
        values[VERSION] = version
