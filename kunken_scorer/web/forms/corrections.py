"""The scorer's form of a proposed correction: apply it as an edit of its deal (anyway, with a note, when the deal
then has problems), or dismiss it."""

from __future__ import annotations

from flask_babel import lazy_gettext
from wtforms import BooleanField, HiddenField, SubmitField, TextAreaField
from wtforms.validators import Regexp

from ...core.reading import MAX_NOTE
from .base import PageForm, at_most, plain_text


class CorrectionForm(PageForm):
    """Apply or dismiss a proposed correction; ``expected`` is the revision of the deal the page showed."""

    expected = HiddenField(
        validators=[Regexp(r"\A[0-9]{1,9}\Z", message=lazy_gettext("The form is damaged; reload it."))]
    )
    override = BooleanField(lazy_gettext("Record anyway, despite the problems"))
    note = TextAreaField(
        lazy_gettext("Note (needed to record anyway)"),
        validators=[at_most(MAX_NOTE), lambda _form, field: plain_text(field)],
    )
    apply = SubmitField(lazy_gettext("Apply as an edit of the deal"))
    dismiss = SubmitField(lazy_gettext("Dismiss: keep the deal as recorded"))

    def note_text(self) -> str | None:
        """The note as stored: stripped, None when blank."""
        return (self.note.data or "").strip() or None
