"""The limits on what a request may ask: an import's larger body, and how many sessions one address may
start in a minute (``KUNKEN_CREATE_LIMIT``)."""

from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import TooManyRequests

from .database import get_store
from .languages import gettext

#: The addresses that take an exported session back: their own limit on a body (``IMPORT_MAX_CONTENT_LENGTH``).
IMPORTS = frozenset({"summary.import_page", "api.import_session"})


def import_limit() -> None:
    """An import may send a long evening's export: a larger body than any other request."""
    if request.endpoint in IMPORTS:
        request.max_content_length = current_app.config["IMPORT_MAX_CONTENT_LENGTH"]


def creation_allowed() -> None:
    """429 when this address has started too many sessions in the last minute (``KUNKEN_CREATE_LIMIT``)."""
    limit = int(current_app.config.get("CREATE_LIMIT") or 0)
    if limit <= 0:
        return
    if not get_store().allow_creation(request.remote_addr or "unknown", limit):
        raise TooManyRequests(
            gettext(
                "Too many sessions were started or imported from this address in the last "
                "minute (at most %(n)s). Nothing was created; wait a minute and try again.",
                n=limit,
            ),
            retry_after=60,
        )
