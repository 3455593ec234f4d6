"""JSON in and out that routes share: the JSON body of a request, read once and refused in words (the API and the
club nights), the links to a session an answer gives, and a live poll's answer (the session, the draft, the night)."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any, cast

from flask import Response, g, jsonify, request, url_for

from ..service.exports import read_json
from .errors import Refusal
from .languages import gettext
from .links import public_base_url
from .security import no_store


def json_body() -> dict[str, Any]:
    """The request body as a JSON object, read once per request; it must be sent as JSON
    (``Content-Type: application/json``).

    Requiring the JSON content type keeps other web sites out: a browser sends a cross-site
    request with that header only after a CORS preflight, which this API never grants.
    """
    seen = g._get_current_object()  # the request's g and request, looked up once (each proxy costs a lookup)
    body = seen.get("body")
    if body is not None:  # a recording reads it for its Idempotency-Key's digest first
        return cast("dict[str, Any]", body)  # the object read below, kept on g (whose attributes are untyped)
    if not request.is_json:
        raise Refusal(415, gettext("Send the body as JSON, with the header Content-Type: application/json."))
    raw = request.get_data(cache=True)  # RequestEntityTooLarge past the request's limit
    if not raw.strip():
        raise Refusal(400, gettext("Send a JSON object in the request body."))
    try:
        text = raw.removeprefix(codecs.BOM_UTF8).decode()
    except UnicodeDecodeError:
        raise Refusal(400, gettext("The request body is not UTF-8 text.")) from None
    body = read_json(text)  # a KunkenError: 400 with its words
    if not isinstance(body, dict):
        raise Refusal(400, gettext("Send a JSON object in the request body, not %(kind)s.", kind=_json_kind(body)))
    seen.body = body
    return body


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return gettext("a list")
    if isinstance(value, str):
        return gettext("a string")
    if value is None:
        return "null"
    if isinstance(value, bool):
        return gettext("true or false")
    return gettext("a number")


def session_links(session_id: str, token: str | None) -> dict[str, str]:
    """A session's id and page address; with its edit ``token``, also the token and the scorer's address."""
    base = public_base_url()
    view_url = base + url_for("views.session", sid=session_id)
    if token is None:
        return {"id": session_id, "view_url": view_url}
    no_store()  # the answer carries the edit token
    edit_url = base + url_for("views.scorer", sid=session_id, token=token)
    return {"id": session_id, "edit_token": token, "view_url": view_url, "edit_url": edit_url}


def polled(tag: str, answer: Callable[[], dict[str, Any]], vary: tuple[str, ...] = ()) -> Response:
    """A live poll's answer: werkzeug's bodiless 304 while ``If-None-Match`` is ``tag``, else ``answer()`` as JSON,
    worked out only then (docs/decisions.md, "Live updates"); with the weak ETag ``tag``, ``no-cache`` and ``vary``."""
    response = Response(status=304) if request.if_none_match.contains_weak(tag) else jsonify(answer())
    response.set_etag(tag, weak=True)  # the same answer, compressed or not
    response.headers["Cache-Control"] = "no-cache"
    response.vary.update(vary)
    return response
