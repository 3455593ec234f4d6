"""A club night on paper and in files: a round's printable table cards, and the night as CSV and JSON downloads and
the API's ``/api/v1/nights/<id>/export``. Adapters over ``service.night_files``: the document and the rows are
built there; here they are put in words, links and downloads.

The cards carry each table's scorer link (its QR code and address) only for the phone holding the night's token;
everyone else's cards carry the table's public scores link. The files never carry a token. Like the night's own
pages, all of it is for the club's members, or whoever runs the night (``MEMBERS_ONLY``).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, render_template, url_for

from .. import service
from ..service.night_files import NoSuchRound, night_csv_text, night_document, night_download_name, round_cards
from .auth import night_token
from .database import get_store
from .languages import gettext, ngettext
from .links import public_base_url
from .members import MEMBERS_ONLY
from .security import no_store
from .wording import game_name

bp = Blueprint("night_files", __name__)
#: ``/api/v1/nights/<id>/export``: registered inside the API's blueprint (``web/__init__``), so it is the API's
#: (JSON errors, endpoint ``api.night_files.export``).
api_bp = Blueprint("night_files", __name__, url_prefix="/nights")
#: Whoever may see the night's page may see its cards and files: the same gate, with the same holders let in.
MEMBERS_ONLY.update(
    dict.fromkeys(
        ("night_files.cards", "night_files.export_csv", "night_files.export_json", "api.night_files.export"),
        MEMBERS_ONLY["nights.night"],
    )
)


@bp.get("/nights/<nid>/rounds/<int:n>/cards")
def cards(nid: str, n: int) -> str:
    """Round ``n``'s table cards to print, one a table: the night, the round and table, the seats in order, and a
    QR code: the table's scorer link for the phone that holds the night's token, else its public scores link."""
    board = service.night_board(get_store(), nid)  # an unknown night: its 404
    try:
        page = round_cards(get_store(), board, n, night_token(nid))
    except NoSuchRound as err:
        abort(
            404,
            description=ngettext(
                "This night has no round %(n)s: it has %(num)s round so far.",
                "This night has no round %(n)s: it has %(num)s rounds so far.",
                err.rounds,
                n=err.round_no,
            ),
        )
    if page.tokens:
        no_store()  # the cards carry the scorer links, tokens and all
    base, tokens = public_base_url(), page.tokens
    links = {t.session_id: base + _card_path(t.session_id, tokens.get(t.session_id)) for t in page.tables}
    return render_template("night_cards.html", page=page, links=links, game=game_name(board.night.game))


def _card_path(sid: str, token: str | None) -> str:
    """A card's link: the table's scorer link with its edit ``token``, else its public scores page."""
    return url_for("views.scorer", sid=sid, token=token) if token else url_for("views.session", sid=sid)


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body.encode("utf-8"), mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response


@bp.get("/nights/<nid>/export.csv")
def export_csv(nid: str) -> Response:
    """The night as CSV: a row per player per table, with the player's standing over the night (UTF-8, BOM)."""
    board = service.night_board(get_store(), nid)
    return _download(night_csv_text(board, gettext), "text/csv", night_download_name(board.night, "csv"))


@bp.get("/nights/<nid>/export.json")
def export_json(nid: str) -> Response:
    """The night as the API's ``kunken-night`` document, as a download."""
    board = service.night_board(get_store(), nid)
    body = json.dumps(night_document(board), ensure_ascii=False, indent=2)
    return _download(body, "application/json", night_download_name(board.night, "json"))


@api_bp.get("/<nid>/export")
def export(nid: str) -> dict[str, Any]:
    """The night as the ``kunken-night`` document: its settings, every round's tables, the standings."""
    return night_document(service.night_board(get_store(), nid))
