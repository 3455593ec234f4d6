"""Club nights (issue 37): the start form, the night page, the room screen, the printable summary, and the API's
``/api/v1/nights``. Adapters over ``service.nights`` (the API's answers: ``service.answers``): each route reads
its request, calls one service function and puts the outcome in words. Whoever started the night keeps the
night's token in a cookie (as a scorer keeps a session's edit token, ``auth``) and is shown every table's scorer
link; everyone else sees the tables and scores.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import service
from ..cache import Cache
from ..core.nights import MAX_TABLES_TEXT, tables_from_text
from ..core.rules import GAMES, SWITCHES, read_rules
from ..service import answers, rounds
from ..service.nights import night_page, night_settings, renew_night_token, sent_table_tokens, start_night
from ..service.rounds import SeatingAsk
from . import deltas
from .auth import night_token, set_night_cookie
from .bodies import json_body as _body
from .bodies import polled, session_links
from .database import get_store
from .errors import Refusal, night_input_text
from .forms import FORM_KEY, NightForm, hidden_number, new_form_key, switch_values
from .languages import current_language, gettext, ngettext
from .limits import creation_allowed
from .links import public_base_url
from .security import no_store
from .wording import game_name, go_to

bp = Blueprint("nights", __name__)
#: ``/api/v1/nights``: registered inside the API's blueprint (``web/__init__``), so it is the API's (JSON errors,
#: no CSRF, endpoints ``api.nights.*``).
api_bp = Blueprint("nights", __name__, url_prefix="/nights")


# -- pages -------------------------------------------------------------------------------------------


def _rule_defaults(game: str) -> dict[str, Any]:
    """The house rules' fields as ``game``'s defaults fill them (what a form that did not send a switch keeps): a
    whole number or a tick as it is, any other as the text its field holds."""
    return {
        name: value if SWITCHES[name].kind in ("int", "bool") else str(value)
        for name, value in switch_values(game).items()
    }


def _render_new(form: NightForm, text: str = "", error: str | None = None) -> str:
    """The start form, with a fresh one-time key (a double tap on Start starts one night)."""
    form.form_key.data = new_form_key()
    return render_template("night_new.html", form=form, tables_text=text, error=error)


@bp.get("/nights/new")
def new_night() -> str:
    """The form that starts a club night: the game, its name, ranking, hand entry and house rules, and each table's
    players, a line a table."""
    return _render_new(NightForm(formdata=None, data={"rules": _rule_defaults("kunken")}))


@bp.post("/nights")
def create_night() -> tuple[str, int] | BaseResponse:
    """Start the night from the form; this phone keeps the night's token and is shown the scorer links."""
    sent = request.form.copy()  # a switch not sent (by a hand-made form: a browser sends each) keeps its default
    if sent.get("game") not in GAMES:
        sent["game"] = "kunken"
    for name, value in _rule_defaults(sent.get("defaults_for", "kunken")).items():
        if f"rules-{name}" not in sent and SWITCHES[name].kind != "bool":  # an unticked box is never sent
            sent[f"rules-{name}"] = str(value)
    form = NightForm(formdata=sent)
    text = request.form.get("tables", "")[:MAX_TABLES_TEXT]
    key = request.form.get("form_key", "")
    if not form.validate():
        return _render_new(form, text), 422
    (rules, settings), tables = form.chosen, tables_from_text(text)
    try:  # each table counted as a session started from this address; the form's key sent again counts nothing
        made = start_night(
            get_store(), rules, tables, key if FORM_KEY.match(key) else None, settings=settings, allow=creation_allowed
        )
    except service.NightInputError as err:
        return _render_new(form, text, night_input_text(err.on_page())), 422
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


def _owner_page(nid: str, what: str) -> str:
    """The night's token of this phone, when it holds it (a 404 for an unknown night; else a 403 saying ``what``
    needs the phone that started the night)."""
    get_store().get_night(nid)  # an unknown night: its 404
    token = night_token(nid)
    if token is None or not service.is_night_owner(get_store(), nid, token):
        abort(403, description=what)
    return token


def _page_ask(form: Any) -> SeatingAsk:
    """A page's seating ask: the preview's mode, arrivals (a name a line, or commas) and players leaving, or the
    tables its Confirm sends back as the preview showed them (``table-1``, ``table-2``…: each a table's names)."""
    if form.get("seating") == "tables":
        tables: list[list[str]] = []
        while f"table-{len(tables) + 1}" in form and len(tables) <= service.MAX_TABLES:
            tables.append(form.getlist(f"table-{len(tables) + 1}"))
        return SeatingAsk("tables", tables)
    leaving = form.getlist("leaving")
    return SeatingAsk(form.get("mode", "fresh"), None, form.get("arrivals", "")[:MAX_TABLES_TEXT], leaving)


def _round_page(nid: str, ask: SeatingAsk, error: str | None = None) -> tuple[str, int] | str:
    """The next round's preview for ``ask`` (or the error that stops it, with a 422)."""
    board = service.night_board(get_store(), nid)
    plan = None
    if error is None:
        try:
            plan = rounds.plan_round(get_store(), nid, ask)
        except service.NightInputError as err:
            error = night_input_text(err.on_page())
    no_store()
    page = render_template(
        "night_round.html", board=board, plan=plan, ask=ask, error=error, game=game_name(board.night.game)
    )
    return (page, 422) if error else page


@bp.get("/nights/<nid>/rounds/new")
def plan_round(nid: str) -> tuple[str, int] | str:
    """The next round as it would be seated (the organiser's preview): choose the mode, who arrives and who leaves,
    then confirm; nothing starts before the confirm."""
    _owner_page(nid, gettext("Only the phone that started the night can start a round."))
    return _round_page(nid, _page_ask(request.args))


@bp.post("/nights/<nid>/rounds")
def next_round(nid: str) -> tuple[str, int] | str | BaseResponse:
    """Start the next round with the seats the preview showed (only whoever holds the night's token)."""
    token = _owner_page(nid, gettext("Only the phone that started the night can start a round."))
    round_no = hidden_number("round")
    if round_no is None:
        abort(400, description=gettext("The form is damaged; reload it."))
    try:
        made = rounds.start_round(get_store(), nid, token, round_no, _page_ask(request.form))
    except service.NightInputError as err:
        return _round_page(nid, SeatingAsk(), night_input_text(err.on_page()))
    if made is None:  # a double tap, or another of the night's phones
        message = gettext("Round %(n)s has already started: see who sits where.", n=round_no)
    else:
        message = gettext("Round %(n)s has started: see who sits where.", n=round_no)
    return go_to("nights.night", message, nid=nid)


@bp.post("/nights/<nid>/rounds/<int:n>/undo")
def undo_round(nid: str, n: int) -> BaseResponse:
    """Undo the last round (started by mistake) while nothing was typed at its tables."""
    _owner_page(nid, gettext("Only the phone that started the night can undo a round."))
    try:
        rounds.undo_round(get_store(), nid, n)
    except service.NightInputError as err:
        return go_to("nights.night", night_input_text(err.on_page()), "error", nid=nid)
    return go_to("nights.night", gettext("Round %(n)s was undone: everyone sits as before.", n=n), nid=nid)


@bp.post("/nights/<nid>/rounds/<int:n>/end")
def end_round(nid: str, n: int) -> BaseResponse:
    """End every table of round ``n`` still playing."""
    _owner_page(nid, gettext("Only the phone that started the night can end a round."))
    try:
        ended = rounds.end_round(get_store(), nid, n)
    except service.NightInputError as err:
        return go_to("nights.night", night_input_text(err.on_page()), "error", nid=nid)
    message = ngettext(
        "Round %(n)s ended: %(num)s table stopped.", "Round %(n)s ended: %(num)s tables stopped.", ended.ended, n=n
    )
    return go_to("nights.night", message, nid=nid)


@bp.post("/nights/<nid>/end")
def end_night(nid: str) -> BaseResponse:
    """End the night: every table still playing, and no more rounds."""
    _owner_page(nid, gettext("Only the phone that started the night can end it."))
    rounds.end_night(get_store(), nid)
    return go_to("nights.night", gettext("The night has ended: the ratings count every table."), nid=nid)


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


#: The room screen's live part by night, version, language and address (``deltas``), as views' ``_LIVE_HTML``.
_ROOM_HTML = Cache(64)


def _rendered_room(nid: str, version: str) -> dict[str, Any]:
    """The room screen's live part in this request's language: ``{board, screen}``."""
    base = public_base_url()

    def render() -> dict[str, Any]:
        board = service.night_board(get_store(), nid)
        view_url = base + url_for("nights.night", nid=nid)
        game = game_name(board.night.game)
        marked = render_template("_room_live.html", board=board, game=game, view_url=view_url, live_marks=True)
        return {"board": board, "screen": deltas.screen(marked)}

    return _ROOM_HTML.get(current_app.config["DATABASE"], (nid, version, current_language(), base), render)


@bp.get("/nights/<nid>/room")
def room(nid: str) -> str:
    """The room screen: a TV shows the standings of the whole night big, following every table by itself
    (static/live.js takes the parts that changed, static/room.js lays them out)."""
    rendered = _rendered_room(nid, get_store().night_version(nid))
    board, live_html = rendered["board"], Markup(rendered["screen"].html)
    return render_template("night_room.html", board=board, game=game_name(board.night.game), live_html=live_html)


@bp.get("/nights/<nid>/live")
def live(nid: str) -> BaseResponse:
    """``{version}`` of the night (any table's change changes it); 304 while it is the one the screen has. With
    ``screen=room``, also what changed on the room screen since the version ``since`` it shows (``deltas.answer``).
    """
    version = get_store().night_version(nid)
    if request.args.get("screen") != "room":
        return polled(version, lambda: {"version": version})
    since, base = request.args.get("since", ""), public_base_url()

    def answer() -> dict[str, Any]:
        before = _ROOM_HTML.find(current_app.config["DATABASE"], (nid, since, current_language(), base))
        screen = _rendered_room(nid, version)["screen"]
        return deltas.answer({"version": version}, screen, before and before["screen"])

    return polled(version, answer, ("Accept-Language",))


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
    rules = read_rules(body)
    settings = night_settings(rules, body.get("name"), body.get("ranking"), body.get("hand_entry"))
    made = start_night(get_store(), rules, body.get("tables"), settings=settings, allow=creation_allowed)
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
    token = _sent_night_token(nid)
    made = renew_night_token(get_store(), nid, token)
    if made is None:  # another token, or one a renewal sent at the same moment has just replaced
        raise Refusal(403, gettext("This token is not the night's edit token."))
    no_store()  # the answer carries the night's new token
    return {"edit_token": made, "edit_url": public_base_url() + url_for("nights.own", nid=nid, token=made)}


def _sent_night_token(nid: str) -> str:
    """The token the API request sends for the night: 404 for an unknown night, 401 without one (not checked)."""
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
    return token


def _owner_api(nid: str) -> str:
    """The night's token the API request sends: 404 for an unknown night, 401 without one, 403 for another."""
    token = _sent_night_token(nid)
    if not service.is_night_owner(get_store(), nid, token):
        raise Refusal(403, gettext("This token is not the night's edit token."))
    return token


@api_bp.post("/<nid>/rounds")
def start_round_api(nid: str) -> tuple[dict[str, Any], int]:
    """Start the next round: ``{"mode"}`` (``fresh``, ``standings``, ``rating``) with ``arrivals`` and ``leaving``,
    or ``{"tables"}``; ``"round"``, the round meant (a double tap: 200 with it); ``"preview": true``: the plan,
    nothing started."""
    token = _owner_api(nid)
    body = _body()
    ask = rounds.SeatingAsk.from_body(body)
    if body.get("preview") is True:
        return answers.plan_answer(rounds.plan_round(get_store(), nid, ask)), 200
    round_no = body.get("round")
    if round_no is not None and (isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1):
        raise Refusal(400, gettext("round: expected the number of the round to start (1 or more)."))
    made = rounds.start_round(get_store(), nid, token, round_no, ask)
    board = service.night_board(get_store(), nid)
    number = round_no if made is None and round_no is not None else len(board.rounds)
    tokens = sent_table_tokens(get_store(), board, token)
    no_store()  # the answer carries the tables' edit tokens
    return answers.round_answer(board, number, tokens, session_links), 200 if made is None else 201


@api_bp.delete("/<nid>/rounds/<int:n>")
def undo_round_api(nid: str, n: int) -> dict[str, Any]:
    """Undo the last round while nothing was typed at its tables."""
    _owner_api(nid)
    rounds.undo_round(get_store(), nid, n)
    return {"undone": n, "round": len(service.night_board(get_store(), nid).rounds)}


@api_bp.post("/<nid>/rounds/<int:n>/end")
def end_round_api(nid: str, n: int) -> dict[str, Any]:
    """End every table of round ``n`` still playing."""
    _owner_api(nid)
    return answers.ended_tables_answer(rounds.end_round(get_store(), nid, n))


@api_bp.post("/<nid>/end")
def end_night_api(nid: str) -> dict[str, Any]:
    """End the night: every table of every round."""
    _owner_api(nid)
    return answers.ended_tables_answer(rounds.end_night(get_store(), nid))
