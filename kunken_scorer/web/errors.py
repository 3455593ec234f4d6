"""Errors as the pages and the API answer them: the error page (or ``{"error": ...}`` for the API) for an
HTTP error, an expired form, a missing session or seat, an ended session, a night's tables refused and a database
that cannot be used."""

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
from ..service.nights import NightInputError, NightStateError, NightTokenWrong
from ..service.seats import NoSeat
from ..store import Conflict, KeyReused, NightNotFound, NotFound, SessionEnded, StorageUnavailable
from .languages import gettext, wants_json
from .wording import reason_text


class Refusal(Exception):
    """A request refused with an HTTP ``status`` and a ``message`` to act on; the API's answer also carries the
    ``extra`` fields (the problems of a deal, the part as it is now…)."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def error_response(code: int, message: str, /, **extra: Any) -> Response:
    """An error as ``{"error": message, **extra}`` for the API, else as the error page; with its status (a 401 says
    the token it wants)."""
    if wants_json():
        response = jsonify(error=message, **extra)
    elif _bad_host():  # no address can be built for the request, so no page with links: just the words
        response = current_app.response_class(message + "\n", mimetype="text/plain")
    else:
        response = current_app.make_response(render_template("error.html", code=code, message=message))
    response.status_code = code
    if code == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
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
    that failed before any write is told that nothing could be read: it would have saved nothing anyway. A damaged
    file is named, with how to check it and the command that restores a backup (the log has its whole path)."""
    file = error.file or (str(current_app.config["DATABASE"]) if error.kind == "corrupt" else None)
    current_app.logger.error("storage unavailable: %s", error.for_the_log(file))
    g.storage_fault = True  # this thread's connection is not kept: the next request opens afresh
    reading = request.method in ("GET", "HEAD") and not error.writing
    response = error_response(503, gettext(error.words(reading), file=os.path.basename(file or "")))
    response.headers["Retry-After"] = "5" if error.kind in ("busy", "wal_lost") else "60"
    return response


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


def _said(status: int, words: Any, page: Callable[[Any], ResponseReturnValue] | None = None) -> Callable[[Any], Any]:
    """``_by_audience`` with the same ``words`` (a ``lazy_gettext``) for every error."""
    return _by_audience(status, lambda _err: str(words), page)


def _too_large(_err: RequestEntityTooLarge) -> str:
    return gettext("The request is too large: at most %(limit)s bytes.", limit=request.max_content_length)


def night_input_text(err: NightInputError) -> str:
    """A night's tables refused, in words: the service's message id, a table's reason quoted (``why``)."""
    why = {"why": reason_text(err.reason)} if err.reason else {}
    return gettext(err.message, **err.params, **why)


def _no_seat(err: NoSeat) -> str:
    return gettext("This score sheet has no seat %(seat)s (seats are counted from 0).", seat=err.seat)


#: Every way a request can fail, once: the API answers JSON (in the language ``languages.select_locale`` picks:
#: the ``lang`` cookie, else ``Accept-Language``, else English for the API), a page answers a page.
HANDLERS: tuple[tuple[type[Exception], Callable[[Any], ResponseReturnValue]], ...] = (
    (HTTPException, http_error),
    (RequestEntityTooLarge, _by_audience(413, _too_large, http_error)),
    (
        CSRFError,
        _said(400, lazy_gettext("The form expired or was sent from another page. Reload the page and try again.")),
    ),
    (Refusal, lambda err: error_response(err.status, err.message, **err.extra)),
    (KunkenError, _by_audience(400, lambda err: reason_text(err.reason))),
    (NightStateError, _by_audience(409, night_input_text)),
    (NightInputError, _by_audience(400, night_input_text)),
    (NotFound, _said(404, lazy_gettext("There is no score sheet with this id."), not_found)),
    (NightNotFound, _said(404, lazy_gettext("There is no club night with this id."))),
    (NightTokenWrong, _said(403, lazy_gettext("This token is not the night's edit token."))),
    (NoSeat, _by_audience(404, _no_seat, not_found)),
    (SessionEnded, _said(409, lazy_gettext("This score sheet has ended; it can no longer be changed."), refuse_ended)),
    (Conflict, _said(409, lazy_gettext("The score sheet was changed on another device. Reload it and try again."))),
    (
        KeyReused,
        _said(
            422,
            lazy_gettext(
                "This Idempotency-Key was already used with a different request body; nothing was stored. "
                "Send a new key for a new deal, or the same body to repeat the first request."
            ),
        ),
    ),
    (StorageUnavailable, storage_error),
    (sqlite3.Error, lambda err: storage_error(StorageUnavailable.from_error(err))),
)
