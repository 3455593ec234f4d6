"""The installable web app: the manifest (a phone's home screen) and the service worker (offline), served
from the root."""

from __future__ import annotations

from flask import Response, current_app, render_template, send_from_directory


def service_worker() -> Response:
    """The service worker (``static/sw.js``), served from the root so that it may keep every page of the app.

    Never at a versioned address and never ``immutable`` (web/assets.py): the browser looks for a new worker at
    this one address, and a new release's worker must reach the phones at their next visit."""
    assert current_app.static_folder is not None  # the app factory always gives one
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


def manifest() -> Response:
    """The web app manifest (install on a phone's home screen), in the page language."""
    response = current_app.response_class(render_template("manifest.webmanifest"), mimetype="application/manifest+json")
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response
