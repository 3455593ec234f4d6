"""The import form: an exported session, uploaded or pasted."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from flask_wtf.file import FileField
from wtforms import HiddenField, SubmitField, TextAreaField

from ...core.messages import KunkenError
from ...service.exports import read_json
from ..languages import gettext
from ..wording import reason_text
from .base import PageForm


class ImportForm(PageForm):
    """Upload or paste a session exported as JSON."""

    file = FileField(lazy_gettext("Exported file (.json)"))
    text = TextAreaField(lazy_gettext("Or paste the exported JSON"))
    #: one key per render of the form: sending it twice imports once
    form_key = HiddenField()
    submit = SubmitField(lazy_gettext("Import"))

    def validate(self, extra_validators: Any = None) -> bool:
        """Check that exactly one source was given and that it is JSON; keep it as ``document``."""
        self.document = None
        if not super().validate(extra_validators):
            return False
        upload = self.file.data
        has_file = upload is not None and getattr(upload, "filename", None)
        text = (self.text.data or "").strip()
        if has_file and text:
            self.form_errors.append(gettext("Choose a file or paste the text, not both."))
            return False
        if not has_file and not text:
            self.form_errors.append(gettext("Choose an exported file or paste its text."))
            return False
        field = self.file if has_file else self.text
        if has_file:
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                field.errors.append(gettext("The file is not UTF-8 text; choose the .json file the export gave you."))
                return False
        try:
            self.document = read_json(text.lstrip("\ufeff"))
        except KunkenError as err:
            field.errors.append(reason_text(err.reason))
            return False
        return True
