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

from .. import service
from ..core.disputes import ANSWERS
from ..core.messages import KunkenError
from ..core.notation import shown_cards
from ..core.rules import GAMES, HOUSE_RULES, RuleSet
from .database import get_store
from .forms import desk_forms, posted_question
from .languages import current_language
from .wording import reason_text, rule_lines

bp = Blueprint("desk", __name__)

# -- views ---------------------------------------------------------------------------------


def _rules_of(session: dict[str, Any] | None) -> RuleSet:
    """The rules the desk answers under: the session's, else the preset of the game the page asks for."""
    if session:
        return session["rules"]  # type: ignore[no-any-return]  # desk_session's RuleSet
    game = request.args.get("game", "kunken")
    if game not in GAMES:
        abort(404)
    return RuleSet.preset(game)


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
    session = service.desk_session(get_store(), sid) if sid else None
    rules = _rules_of(session)
    posted = posted_question(request.form) if request.method == "POST" else None
    if request.method == "POST" and posted is None:
        abort(400)
    russian = current_language() == "ru"
    prefill = "\n".join(shown_cards(line, russian) for line in session["table"]) if session else ""
    forms = desk_forms(posted, prefill)
    answers, status = _answered(forms, posted, rules)
    action = url_for("desk.desk", session=sid) if session else url_for("desk.desk", game=rules.game)
    return render_template(
        "desk.html",
        forms=forms,
        answers=answers,
        rules=rules,
        game=rules.game,
        games=GAMES,
        session=session,
        action=action,
        prefill=prefill,
        rule_url=lambda anchor: url_for("desk.reference", game=rules.game, session=sid) + "#" + anchor,
        differences=rule_lines(rules, rules.differences()),
    ), status


@bp.get("/rules/<game>")
def reference(game: str) -> str | BaseResponse:
    """The rules of ``game`` in the page's language, with the rules in force (a session's, if given)."""
    if game not in GAMES:
        abort(404)
    sid = request.args.get("session")
    session = None
    rules = RuleSet.preset(game)
    if sid:
        session = service.desk_session(get_store(), sid)
        rules = session["rules"]
        if rules.game != game:
            return redirect(url_for("desk.reference", game=rules.game, session=sid))
    language = current_language()
    return render_template(
        "rules_reference.html",
        game=game,
        games=GAMES,
        session=session,
        rows=rule_lines(rules, [*HOUSE_RULES, *(n for n in rules.differences() if n not in HOUSE_RULES)]),
        content=f"rules/{game}_{language}.html",
        language=language,
        house_rules=rule_lines(RuleSet.preset(game), HOUSE_RULES),
        desk_url=url_for("desk.desk", session=sid) if session else url_for("desk.desk", game=game),
    )
