"""The deal form, a player's part and the scorer's draft form.

They read what a person typed into the API's plain data (``Deal.from_dict``'s shape); ``validate`` then has the core
read and check it, and every problem or input error goes next to the field its ``Reason.seat`` and ``Reason.field``
name. No game rule is applied here: every rule lives in the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from flask_babel import lazy_gettext
from wtforms import (
    BooleanField,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import NumberRange, Optional, Regexp
from wtforms.widgets import NumberInput

from ...core.draft import deal_body, read_part
from ...core.messages import KunkenError, Reason
from ...core.notation import HAND_ENTRY_WORDS, PART_FIELDS, deal_field, part_field, place, read_part_texts, typed_part
from ...core.notation import Placed as Placed  # a deal's problems placed on a form, where forms/ names it
from ...core.reading import HAND_COUNTS, MAX_NOTE, MAX_SWAPS, hand_entries
from ...core.rules import RuleSet
from ...service import Checked, check_record, draft_end
from ..languages import gettext
from ..wording import reason_text
from .base import (
    FORM_KEY,
    MAX_CARDS_TEXT,
    MAX_HAND_TEXT,
    PageForm,
    SeatList,
    SubForm,
    WholeField,
    add_error,
    at_most,
    new_form_key,
    plain_text,
)

T = TypeVar("T")


def _count_field(label: Any) -> IntegerField:
    return WholeField(
        label,
        widget=NumberInput(min=0),
        validators=[Optional(), NumberRange(min=0, message=lazy_gettext("Enter a whole number, 0 or more."))],
    )


#: A hidden field holding a version, revision or deal number: a whole number, or the form is damaged.
_WHOLE = Regexp(r"\A[0-9]{1,9}\Z", message=lazy_gettext("The form is damaged; reload it."))  # not "٣"
#: ...or none at all: only an empty value is none (a blank " " is damaged, not missing)
_NONE_OR_WHOLE = [Optional(strip_whitespace=False), _WHOLE]
#: The parts a new deal's form was filled in from: "seat:revision" pairs
_PARTS_SEEN = Regexp(
    r"\A[0-9]{1,2}:[0-9]{1,9}(,[0-9]{1,2}:[0-9]{1,9}){0,11}\Z", message=lazy_gettext("The form is damaged; reload it.")
)


class PlayerForm(SubForm):
    """One player's part of a deal, as typed: melds and vists one per line, cards left in hand."""

    # short labels; how to write each field is its description, one tap away (``_entry.html``)
    melds = TextAreaField(
        lazy_gettext("Melds"),
        description=lazy_gettext("One meld per line, cards like K♠ 10♥ JK; a run by its ends: 6♥…10♥."),
        validators=[at_most(MAX_CARDS_TEXT)],
    )
    vists = TextAreaField(
        lazy_gettext("Vists"),
        description=lazy_gettext(
            "One per line: the player’s name, a colon, the cards (“Anna: 5♥”, or “Anna 2: 5♥” for her meld 2)."
        ),
        validators=[at_most(MAX_CARDS_TEXT)],
    )
    swaps = TextAreaField(
        lazy_gettext("Joker swaps"),
        description=lazy_gettext(
            "One per line: whose meld, a colon, the card put in the joker’s place (“Anna: K♦”, or “Anna 2: K♦”)."
        ),
        validators=[at_most(MAX_CARDS_TEXT)],
    )
    hand = StringField(
        lazy_gettext("Cards left in hand"),
        description=lazy_gettext(
            "Each card’s rank (9 9 K JK), the cards (K♠ 10♥), or the points and then the jokers (35 JK)."
        ),
        validators=[at_most(MAX_HAND_TEXT)],
    )
    #: a player's part only (the deal form says who went out once, for the deal): this player has no cards left
    out = BooleanField(lazy_gettext("I went out: no cards left in hand"))
    # counts of the cards left in hand (the "counts" way of entering hands)
    small = _count_field(lazy_gettext("Small cards, 2 to 10"))
    faces = _count_field(lazy_gettext("J Q K"))
    aces = _count_field(lazy_gettext("Aces"))
    jokers = _count_field(lazy_gettext("Jokers"))


class CardReading:
    """Reading the card fields of a player's part (``notation``): melds, vists and swaps by line, the hand."""

    names: list[str] = []
    rules: RuleSet = RuleSet.preset()
    #: how the hands are entered (the session's setting; a deal's edit keeps the way it was entered): a hidden field
    hand_mode = RadioField(lazy_gettext("Cards left in hand are entered as"), choices=[], default="ranks")

    def seat_players(self, names: list[str], rules: RuleSet) -> None:
        """Read for these players under these rules; offer the ways of entering hands the rules allow."""
        self.names, self.rules = list(names), rules
        self.hand_mode.choices = [(mode, HAND_ENTRY_NAMES[mode]) for mode in hand_entries(rules)]
        if self.hand_mode.data not in dict(self.hand_mode.choices):
            self.hand_mode.data = "ranks"

    def read_player(self, entry: Any) -> dict[str, Any]:
        """A player's fields as one seat's part (``notation.read_part_texts``), the hand read the way the form enters
        hands (``hand_mode``); each reason a field did not read for becomes one of its errors. A text that already
        failed its field's own check (too long) is not read."""
        texts = {name: entry[name].data for name in PART_FIELDS if not entry[name].errors}
        part, reasons = read_part_texts(texts, self.names, self.rules, self.hand_mode.data)
        for name, found in reasons.items():
            entry[name].errors = [*entry[name].errors, *(reason_text(r) for r in found)]
        if entry["out"].data:  # "I went out": a hand of no cards, said (a blank hand is one not entered)
            if part["hand"] is not None:
                add_error(entry["out"], gettext("Cards left in hand are typed, yet “I went out” is ticked: clear one."))
            part["hand"] = ""
        return part

    def place(self, reasons: Iterable[Reason]) -> Placed:
        """The core's ``reasons``, each next to the field its location (``Reason.seat``, ``Reason.field``) names."""
        return place(reasons, lambda reason: None if (field := self.field_at(reason)) is None else field.id)

    def field_at(self, reason: Reason) -> Any:
        """The field of this form a reason belongs next to, or None."""
        raise NotImplementedError

    def _core_read(self, ok: bool, read: Callable[[], T]) -> T | None:
        """What the core reads from the form's plain data once its fields are ``ok`` (else None). A reason the core
        could not read it for goes next to its field (named as the page names it), or among the form's own errors."""
        if not ok:
            return None
        try:
            return read()
        except KunkenError as err:
            reason = err.reason
        field = self.field_at(reason)
        if field is None:
            self.form_errors.append(reason_text(reason))  # type: ignore[attr-defined]  # the form's, next in the MRO
        else:
            add_error(field, reason_text(Reason(reason.code, {**reason.params, "field": str(field.label.text)})))
        return None

    def _fields_valid(self, extra_validators: Any, entries: list[Any], holder: str) -> bool:
        """The form's fields checked; with hands not entered by counts, the count fields' errors do not count."""
        ok: bool = super().validate(extra_validators)  # type: ignore[misc]  # FlaskForm's, next in every form using this
        if self.hand_mode.data != "counts":
            for entry, key in ((entry, key) for entry in entries for key in HAND_COUNTS):
                entry[key].errors = []
            ok = not any(f.errors for name, f in self._fields.items() if name != holder)  # type: ignore[attr-defined]  # the form's, next in the MRO
        return ok


class DealEnd:
    """How a deal ended, and "record anyway": the fields the deal form and the draft share."""

    went_out = SelectField(lazy_gettext("Who went out"), choices=[])
    express = BooleanField(lazy_gettext("Express: went out in a single turn"))
    redeal = BooleanField(lazy_gettext("Redeal: no scores, the cards are ignored"))
    override = BooleanField(lazy_gettext("Record anyway, despite the problems"))
    note = TextAreaField(
        lazy_gettext("Note (needed to record anyway)"),
        validators=[at_most(MAX_NOTE), lambda _form, field: plain_text(field)],
    )
    form_key = HiddenField(validators=[Regexp(FORM_KEY, message=lazy_gettext("The form is damaged; reload it."))])

    def note_text(self) -> str | None:
        """The note as stored: stripped, None when blank."""
        return (self.note.data or "").strip() or None


class DealForm(DealEnd, CardReading, PageForm):
    """A whole deal: each player's cards, who went out, express, redeal, and "record anyway"."""

    expected = HiddenField(validators=[_WHOLE])  # the version or revision this form was filled in against
    #: a new deal: the revisions of the players' parts the form was filled in from ("0:3,2:1"; "": none)
    parts_seen = HiddenField(validators=[Optional(strip_whitespace=False), _PARTS_SEEN])
    check = SubmitField(lazy_gettext("Check"))
    save = SubmitField(lazy_gettext("Save"))

    body: dict[str, Any] | None = None
    #: the deal as the core read and checked it, once ``validate`` passed
    checked: Checked | None = None

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, read every card line, then have the core read and check the deal: ``body`` holds
        the API's deal and ``checked`` the core's report on success; an input error is placed at its field."""
        ok = self._fields_valid(extra_validators, [e.form for e in self.players.entries], "players")
        redeal = bool(self.redeal.data)
        parts = {} if redeal else {i: self.read_player(e.form) for i, e in enumerate(self.players.entries)}
        body = deal_body(self.names, parts, self.went_out.data or None, bool(self.express.data), redeal)
        if len(body["swaps"]) > MAX_SWAPS:
            add_error(self.players.entries[-1].form.swaps, gettext("At most %(limit)s lines.", limit=MAX_SWAPS))
        ok = ok and not any(e.form.errors for e in self.players.entries)
        self.body = body if ok else None
        self.checked = self._core_read(ok, lambda: check_record(self.rules, self.names, body))
        return self.checked is not None

    def field_at(self, reason: Reason) -> Any:
        at = deal_field(reason, len(self.players.entries), self.hand_mode.data)
        if at is None:
            return None
        seat, name = at
        return self[name] if seat is None else self.players.entries[seat].form[name]

    def seen_parts(self) -> dict[int, int] | None:
        """The revisions of the players' parts a new deal's form was filled in from (None: a form that does not say,
        an edit's or one made before forms said it)."""
        if not self.parts_seen.raw_data:  # not in the form: no parts were shown
            return None
        pairs = (pair.split(":") for pair in (self.parts_seen.data or "").split(",") if pair)
        return {int(seat): int(revision) for seat, revision in pairs}

    def mark_missing(self, missing: Iterable[str]) -> None:
        """Mark what a deal with problems still needs to be recorded anyway (``service.record_anyway``)."""
        if "override" in missing:
            add_error(
                self.override,
                gettext(
                    "The deal has problems (see the fields marked). Fix them, or tick “Record anyway” and write a note."
                ),
            )
        if "note" in missing:
            add_error(self.note, gettext("Write why the deal is recorded anyway: the history shows the note."))


class PartForm(CardReading, PageForm):
    """One seat's part of the draft, entered on that player's phone (or by the scorer)."""

    player = FormField(PlayerForm)
    deal = HiddenField(validators=[_WHOLE])  # the deal and the part's revision this form was filled in against
    revision = HiddenField(validators=[_WHOLE])
    #: which draft (``Draft.generation``): a page before it had none
    draft = HiddenField(validators=_NONE_OR_WHOLE)
    save = SubmitField(lazy_gettext("Save my part"))

    part: dict[str, Any] | None = None

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, read the cards, then have the core read the part: ``part`` holds it (the API's
        shape) on success; an input error is placed at its field."""
        ok = self._fields_valid(extra_validators, [self.player.form], "player")
        part = self.read_player(self.player.form)
        self.part = self._core_read(ok and not self.player.form.errors, lambda: read_part(part, rules=self.rules))
        return self.part is not None

    def field_at(self, reason: Reason) -> Any:
        name = part_field(reason.field, self.hand_mode.data)
        return None if name is None else self.player.form[name]

    def damaged(self) -> bool:
        """The form's own hidden fields (or its CSRF token) do not read: no person typed what is wrong."""
        return bool(self.deal.errors or self.revision.errors or self.draft.errors or self.errors.get("csrf_token"))

    def error_text(self) -> str:
        """Every error the form's fields have, once each, as one text (why a save was refused)."""
        found = [m for f in self.player.form for m in f.errors] + list(self.form_errors)
        return " ".join(dict.fromkeys(str(m) for m in found)) or gettext("The part could not be read.")

    def typed(self) -> str:
        """What the form holds, as one line (kept in a message when it could not be saved)."""
        entry = self.player.form
        return typed_part(entry.data, self.hand_mode.data, {k: entry[k].label.text for k in HAND_COUNTS})


def part_form(names: list[str], rules: RuleSet, **kwargs: Any) -> PartForm:
    """A part form for a session's players; ``kwargs`` go to the form (``data=`` to prefill)."""
    form = PartForm(**kwargs)
    form.seat_players(names, rules)
    return form


class DraftForm(DealEnd, PageForm):
    """The scorer's part of a draft: how the deal ended, "record anyway", and Record."""

    version = HiddenField(validators=[_WHOLE])
    deal = HiddenField(validators=[_WHOLE])
    draft = HiddenField(validators=_NONE_OR_WHOLE)  # which draft (``Draft.generation``)
    record = SubmitField(lazy_gettext("Record the deal"))
    check = SubmitField(lazy_gettext("Check"))

    def end(self, names: list[str]) -> dict[str, Any]:
        """The draft's end as ``service.DRAFT_END`` keeps it (``service.draft_end``): ``went_out`` is "auto", "none"
        or a seat."""
        return draft_end(names, self.went_out.data, bool(self.express.data), bool(self.redeal.data))


@lru_cache(maxsize=16)
def _deal_form_class(seats: int) -> type:
    return type(
        f"DealForm{seats}",
        (DealForm,),
        {"players": SeatList(FormField(PlayerForm), min_entries=seats, max_entries=seats)},
    )


#: The ways of entering hands, as the start form, the session's setting and the deal form name them.
HAND_ENTRY_NAMES = {mode: lazy_gettext(words) for mode, words in HAND_ENTRY_WORDS.items()}


def deal_form(names: list[str], rules: RuleSet, **kwargs: Any) -> DealForm:
    """A deal form for these players (in seat order); ``kwargs`` go to the form (``data=`` to prefill)."""
    form: DealForm = _deal_form_class(len(names))(**kwargs)
    form.seat_players(names, rules)
    form.went_out.choices = [SelectChoice("", gettext("Nobody (the stock ran out)"))] + [SelectChoice(n) for n in names]
    if not form.form_key.data or not FORM_KEY.match(form.form_key.data):
        form.form_key.data = new_form_key()
    return form
