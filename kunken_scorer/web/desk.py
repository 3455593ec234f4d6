"""The rules desk (settling a dispute at the table) and the rules reference pages.

The desk asks the core the five questions a table argues about and answers in words, each
reason linking to the paragraph of the rules reference it comes from. Opened from a session
(``?session=<sid>``) it uses that session's stored rule set and the melds recorded in its
last deal; opened alone, the preset of the game chosen on the page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..core.disputes import ANSWERS
from ..core.messages import KunkenError
from ..core.rules import GAMES, RuleSet
from ..service import pages
from .database import get_store
from .forms import desk_forms, posted_question
from .languages import current_language
from .wording import reason_text, rule_lines

bp = Blueprint("desk", __name__)


def _answered(forms: dict[str, Any], posted: str | None, rules: RuleSet) -> tuple[dict[str, Any], int]:
    """The core's answer to the question sent (``posted``), or the form's refusal: (answers, status)."""
    if posted is None:
        return {}, 200
    form = forms[posted]
    if not form.validate_on_submit():
        return {}, 422
    try:
        return {posted: ANSWERS[posted](form.data, rules)}, 200
    except KunkenError as err:
        form.form_errors.append(reason_text(err.reason))
        return {}, 422


@bp.route("/rules/desk", methods=["GET", "POST"])
def desk() -> tuple[str, int]:
    """One page, five questions; a POST answers the question whose form was sent."""
    sid = request.args.get("session")
    page = pages.rules_page(get_store(), sid, request.args.get("game", "kunken"))
    if page is None:
        abort(404)
    posted = posted_question(request.form) if request.method == "POST" else None
    if request.method == "POST" and posted is None:
        abort(400)
    prefill = page.table_text(current_language() == "ru")
    forms = desk_forms(posted, prefill)
    answers, status = _answered(forms, posted, page.rules)
    game = page.rules.game
    return render_template(
        "desk.html",
        page=page,
        forms=forms,
        answers=answers,
        games=GAMES,
        action=url_for("desk.desk", session=sid) if page.session else url_for("desk.desk", game=game),
        prefill=prefill,
        rule_url=lambda anchor: url_for("desk.reference", game=game, session=sid) + "#" + anchor,
        differences=rule_lines(page.rules, page.rules.house_rules_changed()),
    ), status


@bp.get("/rules/<game>")
def reference(game: str) -> str | BaseResponse:
    """The rules of ``game`` in the page's language, with the rules in force (a session's, if given)."""
    sid = request.args.get("session")
    page = pages.rules_page(get_store(), sid, game) if game in GAMES else None
    if page is None:
        abort(404)
    rules = page.rules
    if rules.game != game:
        return redirect(url_for("desk.reference", game=rules.game, session=sid))
    language = current_language()
    return render_template(
        "rules_reference.html",
        page=page,
        game=game,
        games=GAMES,
        rows=rule_lines(rules, page.shown_switches),
        content=f"rules/{game}_{language}.html",
        language=language,
        house_rules=rule_lines(RuleSet.preset(game), page.house_switches),
        desk_url=url_for("desk.desk", session=sid) if page.session else url_for("desk.desk", game=game),
    )
