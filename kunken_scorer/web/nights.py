"""Club nights (issue 37): the start form, the night page, the room screen, the printable summary, and the API's
``/api/v1/nights``. Adapters over ``service.nights`` (the API's answers: ``service.answers``): each route reads
its request, calls one service function and puts the outcome in words. Whoever started the night keeps the
night's token in a cookie (as a scorer keeps a session's edit token, ``auth``) and is shown every table's scorer
link; everyone else sees the tables and scores.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import service
from ..core.nights import MAX_TABLES_TEXT, tables_from_text
from ..core.rules import GAMES, RuleSet, read_rules
from ..service import answers
from ..service.nights import night_page, renew_night_token, sent_table_tokens, start_night
from .auth import night_token, set_night_cookie
from .bodies import json_body as _body
from .bodies import polled, session_links
from .database import get_store
from .errors import Refusal, night_input_text
from .forms import FORM_KEY, hidden_number, new_form_key
from .languages import gettext
from .limits import creation_allowed
from .links import public_base_url
from .security import no_store
from .wording import game_name, go_to

bp = Blueprint("nights", __name__)
#: ``/api/v1/nights``: registered inside the API's blueprint (``web/__init__``), so it is the API's (JSON errors,
#: no CSRF, endpoints ``api.nights.*``).
api_bp = Blueprint("nights", __name__, url_prefix="/nights")


# -- pages -------------------------------------------------------------------------------------------


def _render_new(text: str = "", game: str = "kunken", error: str | None = None) -> str:
    """The start form, with a fresh one-time key (a double tap on Start starts one night)."""
    games = [(g, game_name(g)) for g in GAMES]
    return render_template(
        "night_new.html", tables_text=text, game=game, games=games, error=error, form_key=new_form_key()
    )


@bp.get("/nights/new")
def new_night() -> str:
    """The form that starts a club night: the game, and each table's players, a line a table."""
    return _render_new()


@bp.post("/nights")
def create_night() -> tuple[str, int] | BaseResponse:
    """Start the night from the form; this phone keeps the night's token and is shown the scorer links."""
    game = request.form.get("game", "kunken")
    game = game if game in GAMES else "kunken"
    text = request.form.get("tables", "")[:MAX_TABLES_TEXT]
    key = request.form.get("form_key", "")
    rules, tables = RuleSet.for_game(game, {}), tables_from_text(text)
    try:  # each table counted as a session started from this address; the form's key sent again counts nothing
        made = start_night(get_store(), rules, tables, key if FORM_KEY.match(key) else None, allow=creation_allowed)
    except service.NightInputError as err:
        return _render_new(text, game, night_input_text(err.on_page())), 422
    if made.token is None:  # a double tap or a resent form: the first answer made this phone the night's owner
        return go_to("nights.night", nid=made.night.id)
    message = gettext("The night has started. Give each table its scorer link.")
    return set_night_cookie(go_to("nights.night", message, nid=made.night.id), made.night.id, made.token)


@bp.get("/nights/<nid>")
def night(nid: str) -> str:
    """The night: who sits at which table (with each table's scorer link and its QR code for whoever started the
    night), the standings across the tables, the way to the room screen, the summary and the next round."""
    board = service.night_board(get_store(), nid)
    page = night_page(get_store(), board, night_token(nid))
    if page.owner:
        no_store()  # the page shows the scorer links, tokens and all
    base = public_base_url()
    scorer_urls = {sid: base + url_for("views.scorer", sid=sid, token=token) for sid, token in page.tokens.items()}
    token = night_token(nid)
    owner_url = base + url_for("nights.own", nid=nid, token=token) if page.owner and token else None
    return render_template(
        "night.html",
        board=board,
        owner=page.owner,
        owner_url=owner_url,
        scorer_urls=scorer_urls,
        game=game_name(board.night.game),
        repeats=page.repeats,
    )


@bp.post("/nights/<nid>/rounds")
def next_round(nid: str) -> BaseResponse:
    """Start the next round with new seats (only whoever started the night)."""
    get_store().get_night(nid)  # an unknown night: its 404
    token = night_token(nid)
    if token is None or not service.is_night_owner(get_store(), nid, token):
        abort(403, description=gettext("Only the phone that started the night can start a round."))
    round_no = hidden_number("round")
    if round_no is None:
        abort(400, description=gettext("The form is damaged; reload it."))
    if service.next_round(get_store(), nid, token, round_no) is None:  # a double tap, or another of the night's phones
        message = gettext("Round %(n)s has already started: see who sits where.", n=round_no)
    else:
        message = gettext("The next round has started: see who sits where.")
    return go_to("nights.night", message, nid=nid)


@bp.get("/nights/<nid>/own/<token>")
def own(nid: str, token: str) -> BaseResponse:
    """The night's own link (the API's ``edit_url``): the phone opening it keeps the night's token."""
    get_store().get_night(nid)  # an unknown night: its 404
    if not service.is_night_owner(get_store(), nid, token):
        abort(403, description=gettext("This link is not valid for this night."))
    return set_night_cookie(
        go_to("nights.night", gettext("This phone now holds the night's scorer links."), nid=nid), nid, token
    )


@bp.post("/nights/<nid>/token")
def new_owner_link(nid: str) -> BaseResponse:
    """Make a new owner link (only the phone holding the night's token): the old link and every phone that opened
    it stop at once; this phone keeps the new token."""
    made = renew_night_token(get_store(), nid, night_token(nid))  # an unknown night: its 404
    if made is None:
        abort(403, description=gettext("Only the phone that holds the night's owner link can make a new one."))
    message = gettext(
        "A new owner link was made: the old one, and every phone that opened it, no longer work. This phone keeps"
        " the new one."
    )
    return set_night_cookie(go_to("nights.night", message, nid=nid), nid, made)


@bp.get("/nights/<nid>/room")
def room(nid: str) -> str:
    """The room screen: a TV shows the standings of the whole night big, following every table by itself
    (static/table.js, as the table screen)."""
    board = service.night_board(get_store(), nid)
    view_url = public_base_url() + url_for("nights.night", nid=nid)
    return render_template("night_room.html", board=board, game=game_name(board.night.game), view_url=view_url)


@bp.get("/nights/<nid>/live")
def live(nid: str) -> BaseResponse:
    """``{version}`` of the night (any table's change changes it); 304 while it is the one the screen has."""
    version = get_store().night_version(nid)
    return polled(version, lambda: {"version": version})


@bp.get("/nights/<nid>/summary")
def summary(nid: str) -> str:
    """The night's printable summary: the standings, and each round's tables with their totals."""
    board = service.night_board(get_store(), nid)
    return render_template("night_summary.html", board=board, game=game_name(board.night.game))


# -- the API -----------------------------------------------------------------------------------------


@api_bp.post("")
def create_night_api() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Start a night: ``{"tables": [[names], ...], "game", "rules"}``; 201 with each table's links and token."""
    body = _body()
    made = start_night(get_store(), read_rules(body), body.get("tables"), allow=creation_allowed)
    night_id, base = made.night.id, public_base_url()
    view_url = base + url_for("nights.night", nid=night_id)
    edit_url = base + url_for("nights.own", nid=night_id, token=made.token)
    no_store()  # the answer carries the night's token
    answer = answers.night_made_answer(made, view_url, edit_url, session_links)
    return answer, 201, {"Location": url_for("api.nights.get_night", nid=night_id)}


@api_bp.get("/<nid>")
def get_night(nid: str) -> dict[str, Any]:
    """The night: its round's tables (their edit tokens for the night's Bearer; another token: 403), the standings."""
    board = service.night_board(get_store(), nid)
    return answers.night_answer(board, sent_table_tokens(get_store(), board, night_token(nid)), session_links)


@api_bp.post("/<nid>/token")
def new_night_token(nid: str) -> dict[str, str]:
    """A new night's token (Bearer: the current one): the old owner link and every phone that opened it stop."""
    get_store().get_night(nid)  # an unknown night: its 404 before a word about tokens
    token = night_token(nid)
    if token is None:
        abort(
            401,
            description=gettext(
                "Changing a night needs its token: send the header “Authorization: Bearer <edit_token>” with the "
                "night's edit_token."
            ),
        )
    made = renew_night_token(get_store(), nid, token)
    if made is None:  # another token, or one a renewal sent at the same moment has just replaced
        raise Refusal(403, gettext("This token is not the night's edit token."))
    no_store()  # the answer carries the night's new token
    return {"edit_token": made, "edit_url": public_base_url() + url_for("nights.own", nid=nid, token=made)}
