"""The rules desk's five question forms: cards typed in English or Russian notation, one meld per line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Length, ValidationError

from ...core.cards import parse_cards
from ...core.messages import KunkenError
from ...core.notation import read_card_lines, shown_cards
from ..languages import current_language, gettext
from ..wording import reason_text
from .base import PageForm

#: The most lines a "melds, one per line" field takes (a deal's table rarely holds 30).
MAX_LINES = 60
MAX_LINE_FIELD = 6000
MAX_CARD_FIELD = 400


CARD_INPUT = {"data-keypad": True, "autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


class Cards:
    """Validator: the field holds cards in English or Russian notation (``single``: exactly one)."""

    def __init__(self, single: bool = False) -> None:
        self.single = single

    def __call__(self, _form: Any, field: Any) -> None:
        try:
            cards = parse_cards(field.data or "")
        except KunkenError as err:
            raise ValidationError(reason_text(err.reason)) from None
        if self.single and len(cards) != 1:
            raise ValidationError(gettext("Enter exactly one card."))


class MeldLines:
    """Validator: one meld per line, every line's cards readable; the error names the line."""

    def __call__(self, _form: Any, field: Any) -> None:
        _, reasons = read_card_lines(field.data, MAX_LINES)
        if reasons:
            raise ValidationError(reason_text(reasons[0]))


def _cards_field(label: Any, single: bool = False, required: bool = True, example: str = "5♥ JK 7♥") -> Any:
    validators = [Length(max=MAX_CARD_FIELD), Cards(single=single)]
    if required:
        validators.insert(0, DataRequired(message=_l("Enter the cards.") if not single else _l("Enter a card.")))
    placeholder = LazyString(lambda: shown_cards(example, current_language() == "ru"))  # in the page's notation
    return StringField(label, validators=validators, render_kw={**CARD_INPUT, "placeholder": placeholder})


def _lines_field(label: Any, required: bool = False) -> Any:
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


def posted_question(form: Mapping[str, Any]) -> str | None:
    """Which of the desk's questions a POST sent (its fields carry the question's prefix), or None."""
    return next((q for q in QUESTIONS if any(k.startswith(q + "-") for k in form)), None)


def desk_forms(posted: str | None, prefill: str) -> dict[str, PageForm]:
    """The desk's five forms: the one ``posted`` read from the request, the others blank, their table of melds
    ``prefill``ed (a session's last deal)."""
    forms: dict[str, PageForm] = {}
    for question, form_class in QUESTIONS.items():
        if question == posted:
            forms[question] = form_class(prefix=question)
        else:
            defaults = {"melds" if question == "discard" else "table": prefill}
            forms[question] = form_class(formdata=None, prefix=question, data=defaults)
    return forms
