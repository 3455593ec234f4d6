"""The rules desk (settling a dispute at the table) and the rules reference pages.

The desk asks the core the five questions a table argues about and answers in words, each
reason linking to the paragraph of the rules reference it comes from. Opened from a session
(``?session=<sid>``) it uses that session's stored rule set and the melds recorded in its
last deal; opened alone, the preset of the game chosen on the page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import LazyString, gettext
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, ValidationError

from .. import service
from ..core.cards import parse_cards
from ..core.disputes import ANSWERS
from ..core.messages import KunkenError
from ..core.notation import read_card_lines, shown_cards
from ..core.rules import GAMES, HOUSE_RULES, RuleSet
from .database import get_store
from .forms import PageForm
from .languages import current_language
from .wording import reason_text, rule_lines

bp = Blueprint("desk", __name__)

#: The most lines a "melds, one per line" field takes (a deal's table rarely holds 30).
MAX_LINES = 60
MAX_LINE_FIELD = 6000
MAX_CARD_FIELD = 400


# -- forms ---------------------------------------------------------------------------------

CARD_INPUT = {"data-keypad": True, "autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


class Cards:
    """Validator: the field holds cards in English or Russian notation (``single``: exactly one)."""

    def __init__(self, single: bool = False):
        self.single = single

    def __call__(self, _form, field) -> None:
        try:
            cards = parse_cards(field.data or "")
        except KunkenError as err:
            raise ValidationError(reason_text(err.reason)) from None
        if self.single and len(cards) != 1:
            raise ValidationError(gettext("Enter exactly one card."))


class MeldLines:
    """Validator: one meld per line, every line's cards readable; the error names the line."""

    def __call__(self, _form, field) -> None:
        _, reasons = read_card_lines(field.data, MAX_LINES)
        if reasons:
            raise ValidationError(reason_text(reasons[0]))


def _cards_field(label, single=False, required=True, example="5♥ JK 7♥"):
    validators = [Length(max=MAX_CARD_FIELD), Cards(single=single)]
    if required:
        validators.insert(0, DataRequired(message=_l("Enter the cards.") if not single else _l("Enter a card.")))
    placeholder = LazyString(lambda: shown_cards(example, current_language() == "ru"))  # in the page's notation
    return StringField(label, validators=validators, render_kw={**CARD_INPUT, "placeholder": placeholder})


def _lines_field(label, required=False):
    validators = [Length(max=MAX_LINE_FIELD), MeldLines()]
    if required:
        validators.insert(0, DataRequired(message=_l("Enter at least one meld.")))
    return TextAreaField(label, validators=validators, render_kw={**CARD_INPUT, "rows": 3})


class MeldForm(PageForm):
    """Is this meld legal, what does each joker stand for, what does it score?"""

    cards = _cards_field(_l("Meld"))
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check the meld"))


class SwapForm(PageForm):
    """May this card replace that joker?"""

    meld = _cards_field(_l("Meld with a joker"), example="JK K♠ K♣")
    card = _cards_field(_l("Natural card offered for the joker"), single=True, example="K♦")
    has_layout = BooleanField(_l("The player swapping already has a layout on the table"), default=True)
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check the swap"))


class OpeningForm(PageForm):
    """May I take the bank with this card and these melds?"""

    melds = _lines_field(_l("Melds laid this turn, one per line"), required=True)
    bank_card = _cards_field(_l("Bank card taken"), single=True, example="7♥")
    has_layout = BooleanField(_l("I already have a layout on the table"))
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check taking the bank"))


class DiscardForm(PageForm):
    """Does this discard fit a meld on the table ("Rummy!")?"""

    card = _cards_field(_l("Discarded card"), single=True, example="Q♦")
    melds = _lines_field(_l("Melds on the table, one per line"), required=True)
    submit = SubmitField(_l("Check the discard"))


class VistForm(PageForm):
    """Does this vist fit that meld?"""

    meld = _cards_field(_l("Meld on the table"), example="2♥ 3♥ 4♥")
    cards = _cards_field(_l("Cards added (the vist)"), example="5♥")
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check the vist"))


QUESTIONS = {"meld": MeldForm, "swap": SwapForm, "opening": OpeningForm, "discard": DiscardForm, "vist": VistForm}


# -- views ---------------------------------------------------------------------------------


@bp.route("/rules/desk", methods=["GET", "POST"])
def desk():
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
def reference(game: str):
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
