"""Errors as the pages and the API answer them: the error page (or ``{"error": ...}`` for the API) for an
HTTP error, an expired form, a missing session, an ended session and a database that cannot be used."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, flash, g, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadHost, HTTPException, RequestEntityTooLarge, SecurityError
from werkzeug.exceptions import NotFound as PageNotFound
from werkzeug.wrappers import Response as BaseResponse

from ..core.messages import KunkenError
from ..store import Conflict, KeyReused, NotFound, SessionEnded, StorageUnavailable
from .languages import gettext, wants_json
from .wording import reason_text


class Refusal(Exception):
    """A request refused with an HTTP ``status`` and a ``message`` to act on; the API's answer also carries the
    ``extra`` fields (the problems of a deal, the part as it is now…)."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def refusal(err: Refusal) -> Response:
    response = error_response(err.status, err.message, **err.extra)
    if err.status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


def error_response(code: int, message: str, /, **extra: Any) -> Response:
    """An error as ``{"error": message, **extra}`` for the API, else as the error page; with its status."""
    if wants_json():
        response = jsonify(error=message, **extra)
    elif _bad_host():  # no address can be built for the request, so no page with links: just the words
        response = current_app.response_class(message + "\n", mimetype="text/plain")
    else:
        response = current_app.make_response(render_template("error.html", code=code, message=message))
    response.status_code = code
    return response


def _bad_host() -> bool:
    """The request's Host header is no host (``a..b``) or one ``KUNKEN_TRUSTED_HOSTS`` does not list."""
    return isinstance(request.routing_exception, (BadHost, SecurityError))


#: An HTTP error's words by status, translated when one is answered.
HTTP_ERRORS = {
    400: lazy_gettext("The request could not be read."),
    404: lazy_gettext("There is no such page or session."),
    405: lazy_gettext("That action is not allowed here."),
    413: lazy_gettext("The request is too large: at most %(size)s."),
    500: lazy_gettext("Something went wrong on the server; nothing was saved by this request. Try again."),
}


def http_error(error: HTTPException) -> Response:
    assert error.code is not None  # Flask returns a proxy exception (no code) before calling a handler
    # (a refused host's own text repeats the host, in English)
    custom = error.description if error.description != type(error).description and not _bad_host() else None
    known = HTTP_ERRORS.get(error.code)
    if known is not None and error.code == 413:
        known = known % {"size": size_text(request.max_content_length or 0)}
    message = custom or (str(known) if known else gettext("The request could not be completed."))
    response = error_response(error.code, message)
    if error.code == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    allowed = getattr(error, "valid_methods", None)  # a 405 says which methods the address takes
    if allowed:
        response.headers["Allow"] = ", ".join(allowed)
    retry = getattr(error, "retry_after", None)
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response


def size_text(limit: int) -> str:
    """A size limit as a person reads it: "256 KB", "4 MB"."""
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return gettext("%(n)s MB", n=limit // (1024 * 1024))
    return gettext("%(n)s KB", n=max(1, limit // 1024))


def not_found(_error: NotFound) -> Response:
    """A session, deal or seat the store does not have: the 404 page."""
    return http_error(PageNotFound())


def storage_error(error: StorageUnavailable) -> Response:
    """The database cannot be read or written: 503, nothing acknowledged, a message to act on. A read (GET, HEAD)
    that failed before any write is told that nothing could be read: it would have saved nothing anyway."""
    current_app.logger.error("storage unavailable: %s", error)
    g.storage_fault = True  # this thread's connection is not kept: the next request opens afresh
    reading = request.method in ("GET", "HEAD") and not error.writing
    response = error_response(503, _read_fault(error) if reading else _write_fault(error))
    response.headers["Retry-After"] = "5" if error.kind in ("busy", "wal_lost") else "60"
    return response


def _write_fault(error: StorageUnavailable) -> str:
    """What a write refused for a storage fault is told: nothing of it was saved, and what to do."""
    if error.kind == "read_only" and error.file:
        return gettext(
            "The server's database file %(file)s is read-only, so nothing can be saved. Nothing was saved "
            "by this request. Tell whoever runs the server to make that file writable.",
            file=os.path.basename(error.file),
        )
    return {
        "missing": gettext(
            "The server's database file is missing, so nothing can be saved. Nothing was saved by "
            "this request. Tell whoever runs the server: restore the file from a backup and "
            "restart it."
        ),
        "read_only": gettext(
            "The server's database file is read-only, so nothing can be saved. Nothing was saved "
            "by this request. Tell whoever runs the server to make the file writable."
        ),
        "full": gettext(
            "The server's disk (or database size limit) is full, so nothing can be saved. Nothing was "
            "saved by this request. Tell whoever runs the server to free some space."
        ),
        "busy": gettext("The server's database is busy. Nothing was saved by this request; try again in a moment."),
        "wal_lost": gettext(
            "The server's database log (its -wal file) was deleted or replaced while the server ran; what was "
            "saved before is kept. Nothing was saved by this request: send it again. Tell whoever runs the "
            "server never to delete the -wal or -shm file of a running server."
        ),
    }.get(error.kind) or gettext(
        "The server's database cannot be used right now. Nothing was saved by this "
        "request. Tell whoever runs the server."
    )


def _read_fault(error: StorageUnavailable) -> str:
    """What a read refused for a storage fault is told: nothing could be read, and what to do."""
    return {
        "missing": gettext(
            "The server's database file is missing, so nothing can be read. Tell whoever runs the server: "
            "restore the file from a backup and restart it."
        ),
        "busy": gettext("The server's database is busy, so nothing could be read; try again in a moment."),
        "wal_lost": gettext(
            "The server's database log (its -wal file) was deleted or replaced while the server ran, so "
            "nothing could be read this time; try again in a moment, and tell whoever runs the server."
        ),
    }.get(error.kind) or gettext("The server's database cannot be read right now. Tell whoever runs the server.")


def csrf_error(_error: CSRFError) -> Response:
    message = gettext("The form expired or was sent from another page. Reload the page and try again.")
    return error_response(400, message)


def refuse_ended(_error: SessionEnded | None = None) -> BaseResponse:
    """Turn a write on an ended session away, with a message on its page (also the pages' SessionEnded handler)."""
    message = gettext("This session has ended: it can be read but no longer changed.")
    if request.headers.get("X-Kunken-Keep"):  # a Save a phone kept and sends again: it keeps the deal on a refusal
        return error_response(409, message)
    flash(message, "error")
    sid = (request.view_args or {}).get("sid")
    return redirect(url_for("views.session", sid=sid) if sid else url_for("views.home"), 303)


def _by_audience(
    status: int, words: Callable[[Any], str], page: Callable[[Any], ResponseReturnValue] | None = None
) -> Callable[[Any], ResponseReturnValue]:
    """A handler answering the API with ``status`` and ``words``, a page with ``page`` (the error page if None)."""
    return lambda err: error_response(status, words(err)) if wants_json() or page is None else page(err)


def _too_large(_err: RequestEntityTooLarge) -> str:
    return gettext("The request is too large: at most %(limit)s bytes.", limit=request.max_content_length)


#: Every way a request can fail, once: the API answers JSON (in the language ``languages.select_locale`` picks:
#: the ``lang`` cookie, else ``Accept-Language``, else English for the API), a page answers a page.
HANDLERS: tuple[tuple[type[Exception], Callable[[Any], ResponseReturnValue]], ...] = (
    (HTTPException, http_error),
    (RequestEntityTooLarge, _by_audience(413, _too_large, http_error)),
    (CSRFError, csrf_error),
    (Refusal, refusal),
    (KunkenError, _by_audience(400, lambda err: reason_text(err.reason))),
    (NotFound, _by_audience(404, lambda _: gettext("There is no score sheet with this id."), not_found)),
    (
        SessionEnded,
        _by_audience(409, lambda _: gettext("This score sheet has ended; it can no longer be changed."), refuse_ended),
    ),
    (
        Conflict,
        _by_audience(409, lambda _: gettext("The score sheet was changed on another device. Reload it and try again.")),
    ),
    (
        KeyReused,
        _by_audience(
            422,
            lambda _: gettext(
                "This Idempotency-Key was already used with a different request body; nothing was stored. "
                "Send a new key for a new deal, or the same body to repeat the first request."
            ),
        ),
    ),
    (StorageUnavailable, storage_error),
    (sqlite3.Error, lambda err: storage_error(StorageUnavailable.from_error(err))),
)
