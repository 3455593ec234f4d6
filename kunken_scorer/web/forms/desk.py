"""The rules desk's five question forms, made from the questions' fields (``core.disputes.QUESTIONS``): cards typed
in English or Russian notation, one meld per line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, ValidationError

from ...core import disputes
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


def _field(spec: disputes.Field) -> Any:
    """The form field asking what ``spec`` describes."""
    label = _l(spec.label)
    if spec.kind == "flag":
        return BooleanField(label, default=spec.checked)
    if spec.kind == "lines":
        validators: list[Any] = [Length(max=MAX_LINE_FIELD), MeldLines()]
        if spec.required:
            validators.insert(0, DataRequired(message=_l("Enter at least one meld.")))
        return TextAreaField(label, validators=validators, render_kw={**CARD_INPUT, "rows": 3})
    single = spec.kind == "card"
    validators = [DataRequired(message=_l("Enter a card.") if single else _l("Enter the cards."))]
    validators += [Length(max=MAX_CARD_FIELD), Cards(single=single)]
    placeholder = LazyString(lambda: shown_cards(spec.example, current_language() == "ru"))  # in the page's notation
    return StringField(label, validators=validators, render_kw={**CARD_INPUT, "placeholder": placeholder})


#: question -> its form class, in the order the desk asks them
QUESTIONS: dict[str, type[PageForm]] = {
    question: type(
        f"{question.title()}Form",
        (PageForm,),
        {**{spec.name: _field(spec) for spec in fields}, "submit": SubmitField(_l(button))},
    )
    for question, (fields, button) in disputes.QUESTIONS.items()
}


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
