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
from .forms import QUESTIONS
from .languages import current_language
from .wording import reason_text, rule_lines

bp = Blueprint("desk", __name__)

# -- views ---------------------------------------------------------------------------------


@bp.route("/rules/desk", methods=["GET", "POST"])
def desk() -> tuple[str, int]:
    """One page, five questions; a POST answers the question whose form was sent."""
    sid = request.args.get("session")
    session = service.desk_session(get_store(), sid) if sid else None
    if session:
        rules = session["rules"]
        game = rules.game
    else:
        game = request.args.get("game", "kunken")
        if game not in GAMES:
            abort(404)
        rules = RuleSet.preset(game)

    posted = None
    if request.method == "POST":
        posted = next((q for q in QUESTIONS if any(k.startswith(q + "-") for k in request.form)), None)
        if posted is None:
            abort(400)

    russian = current_language() == "ru"
    prefill = "\n".join(shown_cards(line, russian) for line in session["table"]) if session else ""
    forms: dict[str, Any] = {}
    for question, form_class in QUESTIONS.items():
        if question == posted:
            forms[question] = form_class(prefix=question)
        else:
            defaults = {"melds" if question == "discard" else "table": prefill}
            forms[question] = form_class(formdata=None, prefix=question, data=defaults)

    answers = {}
    status = 200
    if posted:
        form = forms[posted]
        if form.validate_on_submit():
            try:
                answers[posted] = ANSWERS[posted](form.data, rules)
            except KunkenError as err:
                form.form_errors.append(reason_text(err.reason))
                status = 422
        else:
            status = 422

    def rule_url(anchor: str) -> str:
        return url_for("desk.reference", game=rules.game, session=sid) + "#" + anchor

    action = url_for("desk.desk", session=sid) if session else url_for("desk.desk", game=game)
    return render_template(
        "desk.html",
        forms=forms,
        answers=answers,
        rules=rules,
        game=game,
        games=GAMES,
        session=session,
        action=action,
        prefill=prefill,
        rule_url=rule_url,
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
