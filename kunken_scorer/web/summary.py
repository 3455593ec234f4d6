"""Sharing the evening: the printable summary, the chart, CSV and JSON exports, import, player history.

Everything here reads: anyone with a session's id may see its summary and exports. Scores are
always computed by ``service``/the core from the stored deal records; this module formats them.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import KunkenError, service
from ..core.charts import bar_chart
from ..core.messages import Reason
from ..core.rules import GAMES
from ..service import Scoreboard, merges, pages
from ..service.exports import csv_text, download_name, export_document
from ..service.ratings import SamePlayer, UnknownPlayer
from .auth import set_scorer_cookie
from .bodies import json_body
from .database import get_store
from .errors import Refusal
from .filters import average_filter, day_filter
from .forms import FORM_KEY, ImportForm, new_form_key
from .languages import current_language, gettext, ngettext
from .limits import creation_allowed
from .members import MEMBERS_ONLY
from .startup import catch_up_ratings
from .wording import go_to, h2h_refusal, reason_text

bp = Blueprint("summary", __name__)
#: ``/api/v1/players/merges``: registered inside the API's blueprint (``web/__init__``), so it is the API's (JSON
#: errors, no CSRF, endpoints ``api.merges.*``), routed here with the players page's merge form.
api_bp = Blueprint("merges", __name__, url_prefix="/players/merges")
#: Merging two names shows who played whom across sessions as viewing /players does: the same members' gate.
MEMBERS_ONLY.update(
    dict.fromkeys(
        ("summary.merge_names", "summary.undo_merge", "api.merges.list_merges", "api.merges.merge", "api.merges.undo")
    )
)


def _download(body: str | bytes, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response


def scoreboard_chart(board: Scoreboard, phone: bool = False) -> str:
    """The running-totals chart of a scoreboard in the page's language (``pages.scoreboard_chart``)."""
    return pages.scoreboard_chart(board, gettext, phone)


bp.add_app_template_global(pages.chart_size, "running_chart_size")


@bp.app_template_global("running_chart_svg")
def running_chart_svg(board: Scoreboard) -> Markup:
    """The running-totals chart of ``board`` as inline SVG (a template global, used by ``_chart.html``)."""
    return Markup(scoreboard_chart(board))


# -- the summary page -----------------------------------------------------------------------


@bp.get("/s/<sid>/summary")
def summary(sid: str) -> str:
    """The evening's summary: standings, every deal, the rules in force, overrides and the chart."""
    return render_template("summary.html", sid=sid, page=pages.summary_page(get_store(), sid))


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
        try:
            imported = service.import_session(get_store(), form.document, form.form_key.data, creation_allowed)
        except KunkenError as err:
            imported = service.NotImported(err.reason)
        if isinstance(imported, service.NotImported):
            form.form_errors.append(gettext("Nothing was imported: %(why)s", why=reason_text(imported.reason)))
        else:
            return _imported(imported, len((form.document or {}).get("deals") or []))
    status = 400 if request.method == "POST" else 200
    return render_template("import.html", form=form), status


# -- player history -------------------------------------------------------------------------


def _catch_up() -> None:
    """Replay the ratings in the background (an older ended session changed in a long history, or a merge)."""
    catch_up_ratings(current_app._get_current_object(), current_app.config["DATABASE"])  # type: ignore[attr-defined]


def _players(status: int = 200, merge_error: str | None = None) -> tuple[str, int]:
    """The players page; after a merge form that was refused, with ``merge_error`` and the names as typed."""
    page = pages.players_page(get_store(), request.args.get("game"), request.args.get("all") == "1")
    if not page.rated.current:
        _catch_up()
    title, bars = gettext("Average deal score"), page.bars
    chart_svg = Markup(bar_chart(bars, title=title, format_value=average_filter)) if bars else None
    typed = {f"merge_{field}": (request.form.get(field) or "")[:40] for field in ("from", "into")}
    standing = service.standing_merges(get_store())
    return render_template(
        "players.html", page=page, chart_svg=chart_svg, games=GAMES, merges=standing, merge_error=merge_error, **typed
    ), status


@bp.get("/players")
def players() -> tuple[str, int]:
    """Player history across every session on this install, with a chart of average deal scores: the first
    ``PLAYERS_SHOWN`` (the most wins first), or every player with ``?all=1``; the form that merges two names of one
    person, and the merges that stand."""
    return _players()


def merge_refusal(outcome: merges.MergeRefusal | merges.NoSuchMerge) -> str:
    """Why a merge was refused (or an undo found no merge), in words (page and API)."""
    if isinstance(outcome, merges.NoSuchPlayer):
        return gettext("No player named %(name)s has a scored session on this device.", name=outcome.name)
    if isinstance(outcome, merges.SameName):
        return gettext("Both names are “%(name)s”: choose two different names.", name=outcome.name)
    if isinstance(outcome, merges.MergedAlready):
        return gettext(
            "“%(name)s” is merged into “%(into)s” already; undo that merge first.", name=outcome.name, into=outcome.into
        )
    if isinstance(outcome, merges.OnePlayerAlready):
        return gettext(
            "“%(into)s” is merged into “%(name)s” already: they are one player.", name=outcome.name, into=outcome.into
        )
    if isinstance(outcome, merges.PlayedTogether):
        a, b = outcome.names
        return gettext(
            "“%(a)s” and “%(b)s” played in one session (%(day)s): they sat at one table, so they are two different"
            " players. Nothing was merged.",
            a=a,
            b=b,
            day=day_filter(outcome.played_at),
        )
    return gettext("There is no merge number %(n)s.", n=outcome.merge_id)


@bp.post("/players/merges")
def merge_names() -> BaseResponse | tuple[str, int]:
    """Merge two names into one player (the form on /players); refused, the page again with why (422)."""
    try:
        outcome = service.merge_players(get_store(), request.form.get("from"), request.form.get("into"))
    except KunkenError as err:  # a name left out, too long, or of characters no name holds
        return _players(422, reason_text(err.reason))
    if not isinstance(outcome, merges.Merged):
        return _players(422, merge_refusal(outcome))
    name, into = outcome.merge.from_name, outcome.merge.into_name
    message = gettext(
        "“%(name)s” is merged into “%(into)s”: one player now, with the sessions of both.", name=name, into=into
    )
    return go_to("summary.players", message)


@bp.post("/players/merges/<int:merge_id>/undo")
def undo_merge(merge_id: int) -> BaseResponse | tuple[str, int]:
    """Undo a merge (its Undo button on /players): the two names are two players again."""
    outcome = service.undo_merge(get_store(), merge_id)
    if isinstance(outcome, merges.NoSuchMerge):
        return _players(404, merge_refusal(outcome))
    if outcome.already:
        return go_to("summary.players", gettext("This merge was undone already."))
    name, into = outcome.merge.from_name, outcome.merge.into_name
    message = gettext("The merge is undone: “%(name)s” and “%(into)s” are two players again.", name=name, into=into)
    return go_to("summary.players", message)


@api_bp.get("")
def list_merges() -> dict[str, Any]:
    """The merges that stand, the oldest first."""
    return merges.merges_answer(service.standing_merges(get_store()))


@api_bp.post("")
def merge() -> tuple[dict[str, Any], int]:
    """Merge ``from`` into ``into`` (names): 201 with the merge; 422 with why it was refused."""
    body = json_body()
    outcome = service.merge_players(get_store(), body.get("from"), body.get("into"))
    if not isinstance(outcome, merges.Merged):
        raise Refusal(422, merge_refusal(outcome))
    return _merge_answer(outcome), 201


@api_bp.delete("/<merge_id>")
def undo(merge_id: str) -> dict[str, Any]:
    """Undo the merge ``merge_id`` (one undone before: answered as it is, 200); 404 for no such merge."""
    outcome = service.undo_merge(get_store(), merge_id)
    if isinstance(outcome, merges.NoSuchMerge):
        raise Refusal(404, merge_refusal(outcome))
    return _merge_answer(outcome)


def _merge_answer(outcome: merges.Merged | merges.Unmerged) -> dict[str, Any]:
    """The merge made or undone as the API answers it; its ratings replayed in the background when long."""
    if not outcome.ratings_current:
        _catch_up()
    return {**merges.merge_answer(outcome.merge), "ratings_current": outcome.ratings_current}


@bp.get("/players/h2h")
def players_h2h() -> tuple[str, int]:
    """Head to head: the sessions two players (``?a=…&b=…``) played together and who finished ahead in each; without
    the names, the form to choose them."""
    page = pages.head_to_head_page(get_store(), request.args.get("a"), request.args.get("b"))
    status, error = 200, None
    if isinstance(page.outcome, Reason):  # names that could not be read
        status, error = 400, reason_text(page.outcome)
    elif isinstance(page.outcome, UnknownPlayer | SamePlayer):
        status, error = h2h_refusal(page.outcome)
    return render_template("head_to_head.html", page=page, error=error), status
