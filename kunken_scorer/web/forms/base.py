"""What every page form shares: reading a browser's form data safely, whole numbers, seat lists, one-time keys."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

from flask import request
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from flask_wtf.i18n import translations as wtforms_translations
from werkzeug.datastructures import CombinedMultiDict, MultiDict
from wtforms import FieldList, Form, IntegerField
from wtforms.validators import Length, StopValidation, ValidationError

from ...core.messages import Reason
from ...core.reading import has_control
from ..languages import gettext
from ..wording import reason_text

#: Seats on the start form (ordered rummy plays up to 12); the first ``OPEN_SEATS`` are shown open, the
#: others behind "More seats" (Kunken plays at most 5).
MAX_SEATS = 12
OPEN_SEATS = 5
#: Longest text accepted in one card field (a textarea of melds or vists).
MAX_CARDS_TEXT = 2000
MAX_HAND_TEXT = 500
#: An idempotency key of a form render: "form-" and 22 URL-safe characters.
FORM_KEY = re.compile(r"^form-[A-Za-z0-9_-]{16,40}$")

_WHOLE_NUMBER = re.compile(r"[+-]?\d+")
FROM_TO = lazy_gettext("Enter a whole number from %(min)s to %(max)s.")


def hidden_number(name: str) -> int | None:
    """A number a page's form carries hidden (a version, a revision, a deal's id, a round): ASCII digits, at most 9
    (``int()`` would also read "٣", "1_0" and 25 digits); None when it is missing or damaged."""
    value = request.form.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


#: The methods whose form data a form reads (Flask-WTF's own list).
_SUBMITTED = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class PageForm(FlaskForm):  # type: ignore[misc]  # Flask-WTF ships no types: its FlaskForm is Any
    """A form of a page, read from what a browser's form sends: its text fields, and a file only for a file
    field. A JSON body, or a file sent for a text field, is no form a page sends: Flask-WTF would read them
    (a number, a list or a file where text is expected then failed as a 500); here they read as nothing."""

    class Meta(FlaskForm.Meta):  # type: ignore[misc]  # Flask-WTF ships no types: its Meta is Any
        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            if request.is_json and formdata is not None and not isinstance(formdata, MultiDict):
                # Flask-WTF's own would read the JSON body (a list there failed, a 500)
                return request.form if request.method in _SUBMITTED else None
            formdata = super().wrap_formdata(form, formdata)
            if not isinstance(formdata, CombinedMultiDict):
                return formdata
            wanted = {name for name, field in form._fields.items() if isinstance(field, FileField)}
            files = MultiDict([(k, v) for k, v in request.files.items(multi=True) if k in wanted])
            return CombinedMultiDict((files, request.form)) if files else request.form


class SubForm(Form):  # type: ignore[misc]  # WTForms ships no types: its Form is Any
    """A form inside another (a player's part, the house rules): WTForms' own messages in the page's
    language, as a ``FlaskForm``'s are (a plain ``Form`` speaks English)."""

    class Meta:
        def get_translations(self, _form: Any) -> Any:
            return wtforms_translations


class WholeField(IntegerField):  # type: ignore[misc]  # WTForms ships no types: its IntegerField is Any
    """A whole number typed in a form: anything else, blank aside, is one error, "Enter a whole number.",
    and no range check follows it. More than 9 digits is no number a table types (``NumberRange`` would
    fail to compare a 400-digit number with a float)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = None
        if not text:
            return
        if len(text.lstrip("+-")) > 9 or not _WHOLE_NUMBER.fullmatch(text):
            raise ValueError(gettext("Enter a whole number."))
        self.data = int(text)

    def pre_validate(self, _form: Any) -> None:
        if self.process_errors:
            raise StopValidation()

    def _value(self) -> str:
        """What the input shows again: the number read, else nothing (an ``<input type="number">`` holds a number
        or nothing; a crafted "abc" or "+5" echoed back would make the page invalid HTML)."""
        return "" if self.data is None else str(self.data)


class SeatList(FieldList):  # type: ignore[misc]  # WTForms ships no types: its FieldList is Any
    """A list of seats (the start form's names, the deal form's parts): WTForms' ``FieldList``, reading a
    seat's number only from ASCII digits, at most six (its own ``isdigit`` took "players-²" and a
    5,000-digit number, which ``int()`` then refused: a 500)."""

    def _extract_indices(self, prefix: str, formdata: Any) -> Iterator[int]:
        for key in formdata:
            if key.startswith(prefix + "-"):
                index = key[len(prefix) + 1 :].split("-", 1)[0]
                if index.isascii() and index.isdigit() and len(index) <= 6:
                    yield int(index)

    def indices(self, formdata: Any) -> list[int]:
        """The seat numbers ``formdata`` names, as the list reads them (each once, in order)."""
        return sorted(set(self._extract_indices(self.name, formdata)))


def plain_text(field: Any) -> None:
    """A text field's words: no control characters (the core's rule for notes, ``reading.has_control``)."""
    if field.data and has_control(field.data):
        raise ValidationError(reason_text(Reason("note_control", {"field": field.label.text})))


def at_most(characters: int) -> Length:
    """A text field's length limit, said as the table reads it."""
    return Length(max=characters, message=lazy_gettext("Too long: at most %(max)d characters."))


def add_error(field: Any, message: str) -> None:
    """Show ``message`` with the field's other errors."""
    field.errors = [*field.errors, message]


def new_form_key() -> str:
    """A fresh idempotency key for one render of a deal form."""
    return "form-" + secrets.token_urlsafe(16)
