"""The table app's forms: starting a session and recording a deal.

Forms read what a person typed and turn it into the API's plain data (the shape
``Deal.from_dict`` and ``RuleSet.for_game`` read); they never query the database and never
apply a game rule — every rule lives in the core, which the views call.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from typing import Any

from flask import request
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from flask_wtf.i18n import translations as wtforms_translations
from werkzeug.datastructures import CombinedMultiDict, MultiDict
from wtforms import (
    BooleanField,
    FieldList,
    Form,
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
from wtforms.validators import Length, NumberRange, Optional, Regexp, StopValidation, ValidationError
from wtforms.widgets import NumberInput

from ..core.draft import deal_body, read_part
from ..core.messages import KunkenError, Reason
from ..core.notation import read_card_lines, read_hand, read_vist_lines
from ..core.reading import HAND_COUNTS, MAX_MELDS, MAX_NAME, MAX_NOTE, MAX_SWAPS, hand_entries, has_control
from ..core.rules import GAMES, HOUSE_RULES, PRESETS, SWITCHES, RuleSet, RuleSetError
from ..core.session import Target, TargetError
from ..exports import read_json
from ..service import Checked, check_record, session_players
from .wording import GAME_NAMES, reason_text

#: Seats on the start form (ordered rummy plays up to 12); the first ``OPEN_SEATS`` are shown open, the
#: others behind "More seats" (Kunken plays at most 5).
MAX_SEATS = 12
OPEN_SEATS = 8
#: Longest text accepted in one card field (a textarea of melds or vists).
MAX_CARDS_TEXT = 2000
MAX_HAND_TEXT = 500
#: An idempotency key of a form render: "form-" and 22 URL-safe characters.
FORM_KEY = re.compile(r"^form-[A-Za-z0-9_-]{16,40}$")


TARGET_KINDS = [
    SelectChoice("", lazy_gettext("No target")),
    SelectChoice("deals", lazy_gettext("A number of deals")),
    SelectChoice("score", lazy_gettext("A score to reach")),
    SelectChoice("penalty", lazy_gettext("A penalty limit (a player at minus this is out)")),
]

_WHOLE_NUMBER = re.compile(r"[+-]?\d+")
_FROM_TO = lazy_gettext("Enter a whole number from %(min)s to %(max)s.")


#: The methods whose form data a form reads (Flask-WTF's own list).
_SUBMITTED = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class PageForm(FlaskForm):
    """A form of a page, read from what a browser's form sends: its text fields, and a file only for a file
    field. A JSON body, or a file sent for a text field, is no form a page sends: Flask-WTF would read them
    (a number, a list or a file where text is expected then failed as a 500); here they read as nothing."""

    class Meta(FlaskForm.Meta):
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


class SubForm(Form):
    """A form inside another (a player's part, the house rules): WTForms' own messages in the page's
    language, as a ``FlaskForm``'s are (a plain ``Form`` speaks English)."""

    class Meta:
        def get_translations(self, _form: Any) -> Any:
            return wtforms_translations


class WholeField(IntegerField):
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


class SeatList(FieldList):
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


#: The fields of a player's part a reason can be shown at.
PART_FIELDS = frozenset({"melds", "vists", "swaps", "hand", *HAND_COUNTS})


@dataclass
class Placed:
    """A deal's problems placed on a form: by field id, and those that name no field."""

    at: dict[str, list[Reason]] = dataclass_field(default_factory=dict)
    general: list[Reason] = dataclass_field(default_factory=list)


def _plain_text(field: Any) -> None:
    """A text field's words: no control characters (the core's rule for notes, ``reading.has_control``)."""
    if field.data and has_control(field.data):
        raise ValidationError(reason_text(Reason("note_control", {"field": field.label.text})))


def _at_most(characters: int) -> Length:
    """A text field's length limit, said as the table reads it."""
    return Length(max=characters, message=lazy_gettext("Too long: at most %(max)d characters."))


def _switch_field(name: str):
    """A form field for one house-rule switch, from its entry in ``rules.SWITCHES``."""
    switch = SWITCHES[name]
    label, hint = lazy_gettext(switch.label), lazy_gettext(switch.help) if switch.help else None
    if switch.kind == "choice":
        return SelectField(
            label,
            description=hint,
            choices=[SelectChoice(str(v), lazy_gettext(switch.words[v])) for v in switch.choices],
        )
    if switch.kind == "bool":
        return BooleanField(label, description=hint)
    if switch.kind == "int":
        return WholeField(
            label,
            description=hint,
            widget=NumberInput(min=switch.lo, max=switch.hi),
            validators=[NumberRange(switch.lo, switch.hi, message=_FROM_TO)],
        )
    return StringField(
        label,
        description=hint,
        validators=[_at_most(20)],
        render_kw={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"},
    )


#: The house-rule switches of the start form, one field each (names as in ``rules.HOUSE_RULES``).
RulesForm = type(
    "RulesForm",
    (SubForm,),
    {"__doc__": "The house-rule switches, one field each.", **{name: _switch_field(name) for name in HOUSE_RULES}},
)


def switch_values(game: str) -> dict:
    """The values of the start form's switches for ``game``'s preset (as the form shows them)."""
    preset = PRESETS.get(game, PRESETS["kunken"]).to_dict()
    return {name: "" if preset[name] is None else preset[name] for name in HOUSE_RULES}


def raw_switch(name: str, value: Any) -> Any:
    """A switch value as typed, ready for ``RuleSet.for_game`` (which reads and checks it)."""
    if isinstance(value, str):
        value = value.strip()
        if name == "wild_card" and not value:
            return None
    return value


class SessionForm(PageForm):
    """Start a session: game, players in seat order, house rules and an optional target."""

    game = SelectField(lazy_gettext("Game"), choices=[SelectChoice(g, GAME_NAMES.get(g, g)) for g in GAMES])
    players = SeatList(
        StringField(
            lazy_gettext("Player"),
            validators=[Optional(), Length(max=MAX_NAME, message=lazy_gettext("At most %(max)d characters."))],
            render_kw={"autocomplete": "off", "autocapitalize": "words"},
        ),
        label=lazy_gettext("Players, in seating order"),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    target_kind = SelectField(lazy_gettext("Target"), choices=TARGET_KINDS, default="")
    #: its range is the core's (``Target.from_dict``), which refuses a blank or 0 alike once a target is chosen
    target_value = WholeField(lazy_gettext("Target value"), widget=NumberInput(min=1, max=100000))
    rules = FormField(RulesForm, label=lazy_gettext("House rules"))
    hand_entry = SelectField(
        lazy_gettext("Cards left in hand are entered as"),
        default="cards",
        choices=[
            SelectChoice("cards", lazy_gettext("cards (or points)")),
            SelectChoice("counts", lazy_gettext("counts (Kunken)")),
            SelectChoice("points", lazy_gettext("points and jokers")),
        ],
    )
    #: the seats shown open; the others are behind "More seats"
    open_seats = OPEN_SEATS
    #: one-time key of this rendering of the form: a double tap on Start creates one session
    form_key = HiddenField()
    #: the game whose defaults the switches showed; only switches changed from them are kept
    defaults_for = HiddenField(default="kunken")
    show_defaults = SubmitField(lazy_gettext("Show the chosen game's defaults"))
    create = SubmitField(lazy_gettext("Start the session"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Bind the form; game choices show each game's number of players."""
        super().__init__(*args, **kwargs)
        #: errors about the player list as a whole, and about the house rules as a whole
        self.players_errors: list[str] = []
        self.rules_errors: list[str] = []
        self.game.choices = [
            SelectChoice(
                g,
                gettext(
                    "%(game)s (%(min)s–%(max)s players)",
                    game=GAME_NAMES.get(g, g),
                    min=PRESETS[g].min_players,
                    max=PRESETS[g].max_players,
                ),
            )
            for g in GAMES
        ]

    @property
    def shown_game(self) -> str:
        """The game whose defaults the switches showed."""
        return self.defaults_for.data if self.defaults_for.data in GAMES else "kunken"

    def process(self, formdata: Any = None, obj: Any = None, data: Any = None, extra_filters: Any = None, **kw: Any):
        """Read the form. Names sent past its seats (only a hand-made form has them: the list keeps the first
        ``MAX_SEATS`` fields sent) are kept in ``past_seats``, so that the game's player count refuses them
        rather than have them dropped unseen."""
        super().process(formdata, obj, data, extra_filters, **kw)
        sent = self.meta.wrap_formdata(self, formdata) or MultiDict()
        past = self.players.indices(sent)[MAX_SEATS:]  # the list keeps the first MAX_SEATS
        typed = (name for seat in past for name in sent.getlist(f"players-{seat}"))
        self.past_seats = [name for name in typed if isinstance(name, str) and name.strip()]

    def names(self) -> tuple[list[str], list[int | None]]:
        """The names typed (blanks ignored) and the seat each came from (None: past the form's seats)."""
        names: list[str] = []
        seats: list[int | None] = []
        for i, entry in enumerate(self.players.entries):
            if (entry.data or "").strip():
                names.append(entry.data)
                seats.append(i)
        return names + self.past_seats, seats + [None] * len(self.past_seats)

    def target(self) -> dict | None:
        """The target as plain data (``Target.from_dict`` reads it)."""
        if not self.target_kind.data:
            return None
        return {"kind": self.target_kind.data, "value": self.target_value.data}

    #: (rules, players, target) once ``validate`` passed: what the core made of the form
    chosen: tuple[RuleSet, list[str], Target | None]

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, then have the core read the rules, the players and the target; each refusal goes
        next to its field (a switch's, a seat's, the target value's)."""
        valid = super().validate(extra_validators)
        target = self._chosen_target()  # its error is said with the form's other errors
        if not valid:
            return False
        rules = self._chosen_rules()
        players = None if rules is None else self._chosen_players(rules)
        if rules is None or players is None or self.target_value.errors:
            return False
        self.chosen = (rules, players, target)
        return True

    def _chosen_target(self) -> Target | None:
        """The target chosen, or None; the core's refusal of it (its range is the core's) goes on the value's field."""
        if self.target_kind.errors or self.target_value.errors:
            return None
        try:
            return Target.from_dict(self.target())
        except TargetError as err:
            add_error(self.target_value, reason_text(err.reason))
            return None

    def _chosen_players(self, rules: RuleSet) -> list[str] | None:
        """The names typed, as the core takes them for the game; None, with the refusal on its field, otherwise."""
        names, seats = self.names()
        try:
            return session_players(rules, names)
        except KunkenError as err:
            seat = seats[err.reason.seat] if err.reason.seat is not None and err.reason.seat < len(seats) else None
            if seat is not None:  # said next to the name's field, naming the seat as the page does
                shown = Reason(err.reason.code, {**err.reason.params, "field": gettext("Seat %(n)s", n=seat + 1)})
                add_error(self.players.entries[seat], reason_text(shown))
            else:
                self.players_errors.append(reason_text(err.reason))
            return None

    def _chosen_rules(self) -> RuleSet | None:
        """The chosen game's preset plus the switches the table changed from the defaults shown.

        The switches show the defaults of ``self.shown_game``; a switch left as shown takes the
        chosen game's own default, so choosing another game without reloading the defaults works.
        """
        shown = self.shown_game
        raw = {name: raw_switch(name, self.rules[name].data) for name in HOUSE_RULES}
        try:
            as_shown = RuleSet.for_game(shown, raw)
        except RuleSetError as err:
            switch = err.reason.params.get("switch")
            if switch in HOUSE_RULES:
                add_error(self.rules.form[switch], reason_text(err.reason))
            else:
                self.rules_errors.append(reason_text(err.reason))
            return None
        try:
            return RuleSet.for_game(self.game.data, as_shown.differences())
        except RuleSetError as err:
            self.rules_errors.append(reason_text(err.reason))
            return None


# -- recording a deal -----------------------------------------------------------------------


def _count_field(label: Any) -> IntegerField:
    return WholeField(
        label,
        widget=NumberInput(min=0),
        validators=[Optional(), NumberRange(min=0, message=lazy_gettext("Enter a whole number, 0 or more."))],
    )


#: A hidden field holding a version, revision or deal number: a whole number, or the form is damaged.
_WHOLE = Regexp(r"\A[0-9]{1,9}\Z", message=lazy_gettext("The form is damaged; reload it."))  # not "٣"


class PlayerForm(SubForm):
    """One player's part of a deal, as typed: melds and vists one per line, cards left in hand."""

    melds = TextAreaField(
        lazy_gettext("Melds, one per line"),
        validators=[_at_most(MAX_CARDS_TEXT)],
    )
    vists = TextAreaField(
        lazy_gettext("Vists, one per line: name: cards (or name 2: cards for their meld 2)"),
        validators=[_at_most(MAX_CARDS_TEXT)],
    )
    swaps = TextAreaField(
        lazy_gettext("Joker swaps, one per line: name: the card put in (or name 2: card for their meld 2)"),
        validators=[_at_most(MAX_CARDS_TEXT)],
    )
    hand = StringField(
        lazy_gettext("Cards left in hand, or their points and jokers (35 JK)"),
        validators=[_at_most(MAX_HAND_TEXT)],
    )
    # counts of the cards left in hand (the "counts" way of entering hands)
    small = _count_field(lazy_gettext("Small cards, 2 to 10"))
    faces = _count_field(lazy_gettext("J Q K"))
    aces = _count_field(lazy_gettext("Aces"))
    jokers = _count_field(lazy_gettext("Jokers"))


class CardReading:
    """Reading the card fields of a player's part (``notation``): melds, vists and swaps by line, the hand."""

    names: list[str] = []
    rules: RuleSet = RuleSet.preset()
    hand_mode = RadioField(lazy_gettext("Cards left in hand are entered as"), choices=[], default="cards")

    def seat_players(self, names: list[str], rules: RuleSet) -> None:
        """Read for these players under these rules; offer the ways of entering hands the rules allow."""
        self.names, self.rules = list(names), rules
        self.hand_mode.choices = [(mode, HAND_ENTRY_NAMES[mode]) for mode in hand_entries(rules)]
        if self.hand_mode.data not in dict(self.hand_mode.choices):
            self.hand_mode.data = "cards"

    def read_player(self, entry: Any) -> dict:
        """A player's fields as one seat's part (``draft.read_part``'s shape: melds, vists, swaps, hand), the
        hand read the way the form enters hands (``hand_mode``)."""
        melds = self._read(entry.melds, read_card_lines, MAX_MELDS)
        vists = self._read(entry.vists, read_vist_lines, self.names)
        swapped = self._read(entry.swaps, read_vist_lines, self.names, one_card=True) or []
        swaps = [{"from": s["to"], "meld": s["meld"], "card": s["cards"]} for s in swapped]
        if self.hand_mode.data == "counts":
            hand = {key: getattr(entry, key).data or 0 for key in HAND_COUNTS}
        else:
            hand = self._read(entry.hand, read_hand, self.rules, points=self.hand_mode.data == "points")
        return {"melds": melds, "vists": vists, "swaps": swaps, "hand": hand}

    @staticmethod
    def _read(field: Any, read: Callable[..., tuple[Any, list]], *args: Any, **kwargs: Any) -> Any:
        """What ``read`` makes of a field's text, each reason it did not read becoming one of the field's
        errors. A text that already failed its field's own check (too long) is not read: None."""
        if field.errors:
            return None
        value, reasons = read(field.data, *args, **kwargs)
        field.errors = [*field.errors, *(reason_text(r) for r in reasons)]
        return value

    def part_field(self, entry: Any, name: str | None) -> Any:
        """The field of a player's part (``entry``) that the core's field ``name`` is shown at (None: none): a hand
        entered by counts shows its problems at the small cards, one typed as text shows its counts' problems."""
        if name == "hand" and self.hand_mode.data == "counts":
            name = "small"
        elif name in HAND_COUNTS and self.hand_mode.data != "counts":
            name = "hand"
        return entry[name] if name in PART_FIELDS else None

    def place(self, reasons: Iterable[Reason]) -> Placed:
        """The core's ``reasons``, each next to the field its location (``Reason.seat``, ``Reason.field``) names."""
        placed = Placed()
        for reason in reasons:
            field = self.field_at(reason)
            if field is None:
                placed.general.append(reason)
            else:
                placed.at.setdefault(field.id, []).append(reason)
        return placed

    def field_at(self, reason: Reason) -> Any:
        """The field of this form a reason belongs next to, or None."""
        raise NotImplementedError

    def place_input_error(self, reason: Reason) -> None:
        """A reason the core could not read the form's deal for, next to its field (named as the page names it),
        or among the form's own errors."""
        field = self.field_at(reason)
        if field is None:
            self.form_errors.append(reason_text(reason))  # type: ignore[attr-defined]  # the form's, next in the MRO
            return
        add_error(field, reason_text(Reason(reason.code, {**reason.params, "field": str(field.label.text)})))

    def _fields_valid(self, extra_validators: Any, entries: list, holder: str) -> bool:
        """The form's fields checked; with hands not entered by counts, the count fields' errors do not count."""
        ok = super().validate(extra_validators)  # type: ignore[misc]  # FlaskForm's, next in every form using this
        if self.hand_mode.data != "counts":
            for entry, key in ((entry, key) for entry in entries for key in HAND_COUNTS):
                entry[key].errors = []
            ok = not any(f.errors for name, f in self._fields.items() if name != holder)  # type: ignore[attr-defined]
        return ok


class DealEnd:
    """How a deal ended, and "record anyway": the fields the deal form and the draft share."""

    went_out = SelectField(lazy_gettext("Who went out"), choices=[])
    express = BooleanField(lazy_gettext("Express: went out in a single turn"))
    redeal = BooleanField(lazy_gettext("Redeal: no scores, the cards are ignored"))
    override = BooleanField(lazy_gettext("Record anyway, despite the problems"))
    note = TextAreaField(
        lazy_gettext("Note (needed to record anyway)"),
        validators=[_at_most(MAX_NOTE), lambda _form, field: _plain_text(field)],
    )
    form_key = HiddenField(validators=[Regexp(FORM_KEY, message=lazy_gettext("The form is damaged; reload it."))])

    def note_text(self) -> str | None:
        """The note as stored: stripped, None when blank."""
        return (self.note.data or "").strip() or None


class DealForm(DealEnd, CardReading, PageForm):
    """A whole deal: each player's cards, who went out, express, redeal, and "record anyway"."""

    expected = HiddenField(validators=[_WHOLE])  # the version or revision this form was filled in against
    check = SubmitField(lazy_gettext("Check"))
    save = SubmitField(lazy_gettext("Save"))

    body: dict | None = None
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
        if ok:
            try:
                self.checked = check_record(self.rules, self.names, body)
            except KunkenError as err:
                self.place_input_error(err.reason)
                return False
        return ok

    def field_at(self, reason: Reason) -> Any:
        if reason.field in ("went_out", "express", "redeal", "note"):
            return self[reason.field]
        if reason.seat is None or not 0 <= reason.seat < len(self.players.entries):
            return None
        return self.part_field(self.players.entries[reason.seat].form, reason.field)

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
    draft = HiddenField(
        validators=[Optional(), _WHOLE]
    )  # which draft (``Draft.generation``): a page before it had none
    save = SubmitField(lazy_gettext("Save my part"))

    part: dict | None = None

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, read the cards, then have the core read the part: ``part`` holds it (the API's
        shape) on success; an input error is placed at its field."""
        ok = self._fields_valid(extra_validators, [self.player.form], "player")
        part = self.read_player(self.player.form)
        ok = ok and not self.player.form.errors
        self.part = None
        if ok:
            try:
                self.part = read_part(part, rules=self.rules)
            except KunkenError as err:
                self.place_input_error(err.reason)
                return False
        return ok

    def field_at(self, reason: Reason) -> Any:
        return self.part_field(self.player.form, reason.field)


def part_form(names: list[str], rules: RuleSet, **kwargs: Any) -> PartForm:
    """A part form for a session's players; ``kwargs`` go to the form (``data=`` to prefill)."""
    form = PartForm(**kwargs)
    form.seat_players(names, rules)
    return form


class DraftForm(DealEnd, PageForm):
    """The scorer's part of a draft: how the deal ended, "record anyway", and Record."""

    version = HiddenField(validators=[_WHOLE])
    deal = HiddenField(validators=[_WHOLE])
    draft = HiddenField(validators=[Optional(), _WHOLE])  # which draft (``Draft.generation``)
    record = SubmitField(lazy_gettext("Record the deal"))
    check = SubmitField(lazy_gettext("Check"))

    def end(self, names: list[str]) -> dict:
        """The draft's end as ``service.DRAFT_END`` keeps it: ``went_out`` is "auto", "none" or a seat."""
        choice = self.went_out.data or "auto"
        went_out = names[int(choice)] if choice.isascii() and choice.isdigit() and int(choice) < len(names) else None
        return {
            "went_out": went_out,
            "went_out_set": choice != "auto",
            "express": bool(self.express.data),
            "redeal": bool(self.redeal.data),
        }


@lru_cache(maxsize=16)
def _deal_form_class(seats: int) -> type:
    return type(
        f"DealForm{seats}",
        (DealForm,),
        {"players": SeatList(FormField(PlayerForm), min_entries=seats, max_entries=seats)},
    )


HAND_ENTRY_NAMES = {"counts": lazy_gettext("counts"), "points": lazy_gettext("points"), "cards": lazy_gettext("cards")}


def deal_form(names: list[str], rules: RuleSet, **kwargs: Any) -> DealForm:
    """A deal form for these players (in seat order); ``kwargs`` go to the form (``data=`` to prefill)."""
    form = _deal_form_class(len(names))(**kwargs)
    form.seat_players(names, rules)
    form.went_out.choices = [SelectChoice("", gettext("Nobody (the stock ran out)"))] + [SelectChoice(n) for n in names]
    if not form.form_key.data or not FORM_KEY.match(form.form_key.data):
        form.form_key.data = new_form_key()
    return form


def add_error(field: Any, message: str) -> None:
    """Show ``message`` with the field's other errors."""
    field.errors = [*field.errors, message]


def new_form_key() -> str:
    """A fresh idempotency key for one render of a deal form."""
    return "form-" + secrets.token_urlsafe(16)


# -- importing a session ------------------------------------------------------------------


class ImportForm(PageForm):
    """Upload or paste a session exported as JSON."""

    file = FileField(lazy_gettext("Exported file (.json)"))
    text = TextAreaField(lazy_gettext("Or paste the exported JSON"))
    #: one key per render of the form: sending it twice imports once
    form_key = HiddenField()
    submit = SubmitField(lazy_gettext("Import"))

    def validate(self, extra_validators=None) -> bool:
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
