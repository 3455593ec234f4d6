"""Sharing the evening: the printable summary, the chart, CSV and JSON exports, import, player history.

Everything here reads: anyone with a session's id may see its summary and exports. Scores are
always computed by ``service``/the core from the stored deal records; this module formats them.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from babel import numbers
from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import KunkenError, RuleSet, service
from ..core.charts import ChartWords, bar_chart, running_chart, running_chart_size
from ..core.rules import GAMES, KEY_SWITCHES, SWITCHES
from ..exports import csv_text, download_name, export_document
from ..service import Scoreboard, player_history
from ..service.ratings import PROVISIONAL_UNTIL, HeadToHead, head_to_head, rated_players
from .auth import set_scorer_cookie
from .database import get_store
from .filters import day_text, local_time, when_filter
from .forms import FORM_KEY, ImportForm, new_form_key
from .languages import current_language, gettext, ngettext
from .limits import creation_allowed
from .startup import catch_up_ratings
from .wording import game_name, h2h_refusal, reason_text, rule_lines

bp = Blueprint("summary", __name__)


def rules_in_force(rules: RuleSet) -> dict[str, Any]:
    """The game, every switch that differs from the preset, and the preset's key values kept."""
    changed = rules.differences()
    return {
        "game": game_name(rules.game),
        "changed": rule_lines(rules, changed),
        # a default that means nothing here (the express's multiplier where no express is played) is left out
        "kept": rule_lines(rules, [n for n in KEY_SWITCHES if n not in changed and SWITCHES[n].applies(rules)]),
    }


def _download(body: str | bytes, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response


def scoreboard_chart(board: Scoreboard, phone: bool = False) -> str:
    """The running-totals chart of a scoreboard in the page's language (x axis: deal numbers, redeals left out);
    ``phone``: the narrower chart a phone shows."""
    numbers = [d.number for d in board.deals if d.deal is None or not d.deal.redeal]
    return running_chart(
        board.players,
        board.running,
        deal_numbers=numbers,
        words=ChartWords(gettext("Running totals"), gettext("Total"), gettext("Deal")),
        phone=phone,
    )


@bp.app_template_global("running_chart_size")
def chart_size(board: Scoreboard, phone: bool = False) -> tuple[int, int]:
    """The chart's width and height in whole pixels, for an ``<img>`` of ``chart.svg`` that keeps its place."""
    width, height = running_chart_size(board.players, board.running, phone)
    return round(width), round(height)


@bp.app_template_global("running_chart_svg")
def running_chart_svg(board: Scoreboard) -> Markup:
    """The running-totals chart of ``board`` as inline SVG (a template global, used by ``_chart.html``)."""
    return Markup(scoreboard_chart(board))


# -- the summary page -----------------------------------------------------------------------


@bp.get("/s/<sid>/summary")
def summary(sid: str) -> str:
    """The evening's summary: standings, every deal, the rules in force, overrides and the chart."""
    board = service.scoreboard(get_store(), sid)
    rows = board.lines
    created = local_time(board.session.created_at)
    return render_template(
        "summary.html",
        sid=sid,
        board=board,
        rows=rows,
        overrides=[row for row in rows if row.override or row.note],
        rules=rules_in_force(board.rules),
        date=day_text(created, "long") if created else "",
        ended=when_filter(board.session.ended_at) if board.session.ended_at else None,
        redeals=sum(1 for row in rows if row.redeal),
    )


@bp.get("/s/<sid>/chart.svg")
def chart(sid: str) -> BaseResponse:
    """The running-totals chart as an SVG image (``?size=phone``: the one drawn for a phone's width)."""
    board = service.scoreboard(get_store(), sid)
    phone = request.args.get("size") == "phone"
    response = Response(scoreboard_chart(board, phone), mimetype="image/svg+xml")
    response.set_etag(f"{sid}-{board.version}-{current_language()}{'-phone' if phone else ''}", weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = "Cookie, Accept-Language"
    return response.make_conditional(request)


@bp.get("/s/<sid>/export.csv", endpoint="csv")
def csv_export(sid: str) -> Response:
    """The score sheet as CSV: one row per player per deal, UTF-8 with a byte-order mark."""
    board = service.scoreboard(get_store(), sid)
    return _download(
        csv_text(board, gettext).encode("utf-8"), "text/csv", download_name(dataclasses.asdict(board.session), "csv")
    )


@bp.get("/s/<sid>/export.json")
def export_json(sid: str) -> Response:
    """The session as the API's JSON export document, as a download."""
    doc = export_document(get_store(), sid)
    body = json.dumps(doc, ensure_ascii=False, indent=2)
    return _download(body.encode("utf-8"), "application/json", download_name(doc, "json"))


# -- import ---------------------------------------------------------------------------------


def _imported(imported: service.Created, deals: int) -> BaseResponse:
    """The session page after an import; the importer's device becomes its scorer."""
    response = redirect(url_for("views.session", sid=imported.session.id))
    # token None: a double tap or a resent form; that import is stored already (whatever file this form now
    # holds), and the phone that sent it got the scorer cookie with the first answer.
    if imported.token is None:
        message = gettext(
            "This form has already imported a score sheet: that one is shown, and nothing more was "
            "imported. To import another file, open the import page again."
        )
        flash(message, "ok")  # a double tap lands here too: the import it made is the one shown
        return response
    message = ngettext(
        "The score sheet was imported with %(num)s deal. You keep score for it on this device.",
        "The score sheet was imported with %(num)s deals. You keep score for it on this device.",
        deals,
    )
    flash(message, "success")
    return set_scorer_cookie(response, imported.session.id, imported.token)


@bp.route("/import", methods=["GET", "POST"])
def import_page() -> tuple[str, int] | BaseResponse:
    """Import an exported session; the importer becomes its scorer on this device."""
    form = ImportForm()
    if not FORM_KEY.match(form.form_key.data or ""):
        form.form_key.data = new_form_key()
    if form.validate_on_submit():
        creation_allowed()
        try:
            imported = service.import_session(get_store(), form.document, form.form_key.data)
        except KunkenError as err:
            imported = service.NotImported(err.reason)
        if isinstance(imported, service.NotImported):
            form.form_errors.append(gettext("Nothing was imported: %(why)s", why=reason_text(imported.reason)))
        else:
            return _imported(imported, len((form.document or {}).get("deals") or []))
    status = 400 if request.method == "POST" else 200
    return render_template("import.html", form=form), status


# -- player history -------------------------------------------------------------------------


#: An average with one decimal, grouped, in the page's language (the pattern read once, not per number).
_AVERAGE = numbers.parse_pattern("#,##0.0")


def _average(value: float) -> str:
    return str(_AVERAGE.apply(value, get_locale()))  # Babel's apply() declares no return type


#: The players the page shows until "Show all" is tapped: a club with years of play has hundreds of names,
#: and its page stays as quick to read, to serve and to print as a family's (1,000 players in full: 75 ms and
#: 626 KB; benchmarks/bench_club.py, the "crowd" part).
PLAYERS_SHOWN = 50


@bp.get("/players")
def players() -> str:
    """Player history across every session on this install, with a chart of average deal scores: the first
    ``PLAYERS_SHOWN`` (the most wins first), or every player with ``?all=1``."""
    game = request.args.get("game") or None
    if game not in GAMES:
        game = None
    store = get_store()
    show_all = request.args.get("all") == "1"
    rated = rated_players(store, game, None if show_all else PLAYERS_SHOWN)
    if not rated.current:  # an older ended session changed in a long history: replayed in the background
        catch_up_ratings(current_app._get_current_object(), current_app.config["DATABASE"])  # type: ignore[attr-defined]
    history = rated.history
    total = len(history) if show_all or len(history) < PLAYERS_SHOWN else store.player_count(game)
    bars = [(p.name, round(p.average, 1)) for p in history]
    chart_svg = Markup(bar_chart(bars, title=gettext("Average deal score"), format_value=_average)) if bars else None
    played = {p.name: local_time(p.last_played) for p in history}
    last = {name: day_text(when) if when else "" for name, when in played.items()}
    return render_template(
        "players.html",
        history=history,
        chart_svg=chart_svg,
        game=game,
        games=[(g, game_name(g)) for g in GAMES],
        average=_average,
        last=last,
        total=total,
        show_all=show_all,
        shown_first=PLAYERS_SHOWN,
        rated=rated,
        provisional_until=PROVISIONAL_UNTIL,
        names=[p.name for p in history],
    )


@bp.get("/players/h2h")
def players_h2h() -> tuple[str, int]:
    """Head to head: the sessions two players (``?a=…&b=…``) played together and who finished ahead in each; without
    the names, the form to choose them."""
    first, second = request.args.get("a"), request.args.get("b")
    found: HeadToHead | None = None
    status, error = 200, None
    if first is not None or second is not None:
        try:
            outcome = head_to_head(get_store(), first, second)
        except KunkenError as err:
            outcome, status, error = None, 400, reason_text(err.reason)
        if isinstance(outcome, HeadToHead):
            found = outcome
        elif outcome is not None:
            status, error = h2h_refusal(outcome)
    return render_template(
        "head_to_head.html",
        first=(first or "")[:40],
        second=(second or "")[:40],
        found=found,
        error=error,
        names=[p.name for p in player_history(get_store(), None, PLAYERS_SHOWN)],
        game_name=game_name,
        day=_day,
    ), status


def _day(stamp: str) -> str:
    when = local_time(stamp)
    return day_text(when) if when else ""
