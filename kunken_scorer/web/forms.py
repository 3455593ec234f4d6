"""The table app's forms: starting a session and recording a deal.

Forms read what a person typed and turn it into the API's plain data (the shape
``Deal.from_dict`` and ``RuleSet.for_game`` read); they never query the database and never
apply a game rule — every rule lives in the core, which the views call.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
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
from wtforms.validators import Length, NumberRange, Optional, Regexp, ValidationError
from wtforms.widgets import NumberInput

from ..cards import CardError, format_cards, parse_cards
from ..deal import HAND_COUNTS, MAX_MELDS, MAX_NAME, MAX_NOTE, MAX_SWAPS, MAX_VISTS, HandSummary, hand_entries
from ..rules import GAMES, HOUSE_RULES, PRESETS, SWITCHES, RuleSet
from . import GAME_NAMES, reason_text, shown_cards

#: Seats on the start form (ordered rummy plays up to 8).
MAX_SEATS = 8
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

_DOUBLE_WORDS = {"double", "x2", "×2", "*2"}


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
        return IntegerField(
            label,
            description=hint,
            widget=NumberInput(),
            validators=[NumberRange(min=0, max=100000, message=lazy_gettext("Enter a whole number."))],
        )
    return StringField(
        label,
        description=hint,
        validators=[Length(max=20)],
        render_kw={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"},
    )


#: The house-rule switches of the start form, one field each (names as in ``rules.HOUSE_RULES``).
RulesForm = type(
    "RulesForm",
    (Form,),
    {"__doc__": "The house-rule switches, one field each.", **{name: _switch_field(name) for name in HOUSE_RULES}},
)


def switch_values(game: str) -> dict:
    """The values of the start form's switches for ``game``'s preset (as the form shows them)."""
    preset = PRESETS.get(game, PRESETS["kunken"]).to_dict()
    return {name: "" if preset[name] is None else preset[name] for name in HOUSE_RULES}


def raw_switch(name: str, value: Any) -> Any:
    """A switch value as typed, ready for ``RuleSet.for_game`` (which checks it)."""
    if isinstance(value, str):
        value = value.strip()
        if name == "joker_in_hand" and value.casefold() in _DOUBLE_WORDS | {gettext("double").casefold()}:
            return "double"
        if name == "wild_card" and not value:
            return None
    return value


class SessionForm(FlaskForm):
    """Start a session: game, players in seat order, house rules and an optional target."""

    game = SelectField(lazy_gettext("Game"), choices=[SelectChoice(g, GAME_NAMES.get(g, g)) for g in GAMES])
    players = FieldList(
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
    target_value = IntegerField(
        lazy_gettext("Target value"),
        widget=NumberInput(min=1, max=100000),
        validators=[Optional(), NumberRange(min=1, max=100000)],
    )
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

    def validate_target_value(self, field: IntegerField) -> None:
        """A target needs a value."""
        if self.target_kind.data and field.data is None:
            raise ValidationError(gettext("Enter the target's value."))

    @property
    def shown_game(self) -> str:
        """The game whose defaults the switches showed."""
        return self.defaults_for.data if self.defaults_for.data in GAMES else "kunken"

    def names(self) -> tuple[list[str], list[int]]:
        """The names typed (blanks ignored) and the seat each came from."""
        names, seats = [], []
        for i, entry in enumerate(self.players.entries):
            if (entry.data or "").strip():
                names.append(entry.data)
                seats.append(i)
        return names, seats

    def target(self) -> dict | None:
        """The target as plain data (``Target.from_dict`` reads it)."""
        if not self.target_kind.data:
            return None
        return {"kind": self.target_kind.data, "value": self.target_value.data}


# -- recording a deal -----------------------------------------------------------------------


class VistSyntaxError(ValueError):
    """A vist line that does not read as ``name: cards`` or ``name meld: cards``."""


def split_lines(text: str | None) -> list[tuple[int, str]]:
    """The non-blank lines of a textarea, with their 1-based line numbers."""
    return [(n, line.strip()) for n, line in enumerate((text or "").splitlines(), start=1) if line.strip()]


def _shown(line: str) -> str:
    return line if len(line) <= 40 else line[:39] + "…"


def line_error(number: int, line: str, why: str) -> str:
    """An error message that names the line it is about."""
    return gettext("Line %(n)s (“%(line)s”): %(why)s", n=number, line=_shown(line), why=why)


_AFTER_NAME = re.compile(r"^\s*(?:[#№]\s*)?(?P<meld>\d+)?\s*:(?P<cards>.*)$", re.S)


def parse_vist_line(line: str, names: list[str]) -> dict:
    """Read ``Boris: 5♥ 6♥`` or ``Boris 2: 5♥`` (meld 2 of Boris) into the API's vist dict.

    >>> parse_vist_line("boris 2: 5ч", ["Anna", "Boris"])
    {'to': 'Boris', 'meld': 1, 'cards': '5♥'}
    >>> parse_vist_line("Anna: K♠", ["Anna", "Boris"])
    {'to': 'Anna', 'meld': None, 'cards': 'K♠'}
    """
    folded = line.casefold()
    for name in sorted(names, key=len, reverse=True):
        if not folded.startswith(name.casefold()):
            continue
        match = _AFTER_NAME.match(line[len(name) :])
        if not match:
            continue
        meld = match["meld"]
        if meld is not None and int(meld) < 1:
            raise VistSyntaxError(gettext("melds are numbered from 1."))
        cards_text = match["cards"].strip()
        if not cards_text:
            raise VistSyntaxError(gettext("no cards after the colon."))
        try:
            cards = parse_cards(cards_text)
        except CardError as err:
            raise VistSyntaxError(reason_text(err.reason)) from None
        return {"to": name, "meld": None if meld is None else int(meld) - 1, "cards": format_cards(cards)}
    if ":" not in line:
        example = (names[0] if names else "Anna") + ": 5♥"
        raise VistSyntaxError(
            gettext("write the player's name, a colon, then the cards, like “%(example)s”.", example=example)
        )
    raise VistSyntaxError(
        gettext(
            "“%(who)s” is not a player in this session (%(players)s).",
            who=line.split(":", 1)[0].strip(),
            players=", ".join(names),
        )
    )


def vist_line(vist: dict, names: Sequence[str] = ()) -> str:
    """A stored vist written back as a line of the vists field (``#`` where a name would be ambiguous).

    >>> vist_line({"to": "Boris", "meld": 1, "cards": "5♥"})
    'Boris 2: 5♥'
    >>> vist_line({"to": "Boris", "meld": 1, "cards": "5♥"}, ["Boris", "Boris 2"])
    'Boris #2: 5♥'
    """
    meld = vist.get("meld")
    where = vist["to"] if meld is None else f"{vist['to']} {meld + 1}"
    if meld is not None and where.casefold() in {n.casefold() for n in names}:
        where = f"{vist['to']} #{meld + 1}"  # "Boris 2" is a player of its own
    return f"{where}: {vist.get('cards', '')}"


def _at_most(characters: int) -> Length:
    """A text field's length limit, said as the table reads it."""
    return Length(max=characters, message=lazy_gettext("Too long: at most %(max)d characters."))


class PlayerForm(Form):
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
    small = IntegerField(
        lazy_gettext("Small cards, 2 to 10"), widget=NumberInput(min=0), validators=[Optional(), NumberRange(min=0)]
    )
    faces = IntegerField(lazy_gettext("J Q K"), widget=NumberInput(min=0), validators=[Optional(), NumberRange(min=0)])
    aces = IntegerField(lazy_gettext("Aces"), widget=NumberInput(min=0), validators=[Optional(), NumberRange(min=0)])
    jokers = IntegerField(
        lazy_gettext("Jokers"), widget=NumberInput(min=0), validators=[Optional(), NumberRange(min=0)]
    )


class CardReading:
    """Reading the card fields of a player's part: melds, vists and swaps by line, the hand."""

    names: list[str] = []
    rules: RuleSet = RuleSet.preset()

    def read_player(self, entry: Any, counts: bool) -> tuple[dict, list[dict]]:
        """A player's fields as the API's player record (without the name) and their swaps."""
        melds = self._card_lines(entry.melds, MAX_MELDS)
        vists = self._vist_lines(entry.vists)
        swaps = [
            {"from": s["to"], "meld": s["meld"], "card": s["cards"]}
            for s in self._vist_lines(entry.swaps, one_card=True)
        ]
        if counts:
            hand = {key: getattr(entry, key).data or 0 for key in HAND_COUNTS}
        else:
            hand = self._hand(entry.hand)
        return {"melds": melds, "vists": vists, "hand": hand}, swaps

    @staticmethod
    def _error(field, message: str) -> None:
        field.errors = [*field.errors, message]

    @staticmethod
    def clear_count_errors(entry: Any) -> None:
        """Hands not entered by counts: the count fields' errors do not count."""
        for key in HAND_COUNTS:
            entry[key].errors = []

    def _card_lines(self, field, limit: int) -> list[str]:
        """Each non-blank line as canonical cards; a line that does not read is an error naming it."""
        lines = split_lines(field.data)
        if len(lines) > limit:
            self._error(field, gettext("At most %(limit)s lines.", limit=limit))
            return []
        out = []
        for number, line in lines:
            try:
                out.append(format_cards(parse_cards(line)))
            except CardError as err:
                self._error(field, line_error(number, line, reason_text(err.reason)))
        return out

    def _vist_lines(self, field, one_card: bool = False) -> list[dict]:
        """Vist lines (``Anna 2: 5♥``), or swap lines when ``one_card``: one natural card put in a joker's place."""
        lines = split_lines(field.data)
        if len(lines) > MAX_VISTS:
            self._error(field, gettext("At most %(limit)s lines.", limit=MAX_VISTS))
            return []
        out = []
        for number, line in lines:
            try:
                vist = parse_vist_line(line, self.names)
            except VistSyntaxError as err:
                self._error(field, line_error(number, line, str(err)))
                continue
            if one_card and len(vist["cards"].split()) != 1:
                self._error(
                    field, line_error(number, line, gettext("a swap puts exactly one card in the joker’s place."))
                )
                continue
            out.append(vist)
        return out

    def _hand(self, field) -> Any:
        """The hand as cards, or in short as points then jokers (``35 JK JK``): the API's hand value."""
        text = (field.data or "").strip()
        words = text.split(None, 1)  # any white space between the points and the jokers
        first = words[0] if words else ""
        rest = words[1] if len(words) > 1 else ""
        if not _NUMBER.fullmatch(first):
            return self._cards(field)
        if not first.isdigit():
            self._error(field, gettext("The points of a hand are a whole number, 0 or more, like “35 JK”."))
            return ""
        try:
            jokers = parse_cards(rest)
        except CardError as err:
            self._error(field, reason_text(err.reason))
            return ""
        if not all(self.rules.is_joker(c) and c.pin is None for c in jokers):
            self._error(field, gettext("After the points, write only the jokers, like “35 JK JK”."))
            return ""
        return {"points": int(first), "jokers": len(jokers)}

    def _cards(self, field) -> str:
        try:
            return format_cards(parse_cards(field.data or ""))
        except CardError as err:
            self._error(field, reason_text(err.reason))
            return ""


class DealEnd:
    """How a deal ended, and "record anyway": the fields the deal form and the draft share."""

    went_out = SelectField(lazy_gettext("Who went out"), choices=[])
    hand_mode = RadioField(lazy_gettext("Cards left in hand are entered as"), choices=[], default="cards")
    express = BooleanField(lazy_gettext("Express: went out in a single turn"))
    redeal = BooleanField(lazy_gettext("Redeal: no scores, the cards are ignored"))
    override = BooleanField(lazy_gettext("Record anyway, despite the problems"))
    note = TextAreaField(
        lazy_gettext("Note (needed to record anyway)"),
        validators=[_at_most(MAX_NOTE)],
    )
    form_key = HiddenField(validators=[Regexp(FORM_KEY, message=lazy_gettext("The form is damaged; reload it."))])


class DealForm(DealEnd, CardReading, FlaskForm):
    """A whole deal: each player's cards, who went out, express, redeal, and "record anyway"."""

    expected = HiddenField()
    check = SubmitField(lazy_gettext("Check"))
    save = SubmitField(lazy_gettext("Save"))

    body: dict | None = None

    def validate_expected(self, field: HiddenField) -> None:
        """The version or revision this form was filled in against: a whole number."""
        if not re.fullmatch(r"\d{1,9}", field.data or ""):
            raise ValidationError(gettext("The form is damaged; reload it."))

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, then read every card line; ``body`` holds the API's deal on success."""
        ok = super().validate(extra_validators)
        if self.hand_mode.data != "counts":  # the counts are not what this form is entering
            for entry in self.players.entries:
                self.clear_count_errors(entry.form)
            ok = not any(f.errors for name, f in self._fields.items() if name != "players")
        players: list[dict[str, Any]] = []
        swaps: list[dict[str, Any]] = []
        body = {
            "players": players,
            "went_out": self.went_out.data or None,
            "express": bool(self.express.data),
            "redeal": bool(self.redeal.data),
            "swaps": swaps,
        }
        for name, entry in zip(self.names, self.players.entries, strict=False):
            if self.redeal.data:
                players.append({"name": name})
                continue
            player, own_swaps = self.read_player(entry.form, self.hand_mode.data == "counts")
            swaps += [{"by": name, **s} for s in own_swaps]
            players.append({"name": name, **player})
        if len(swaps) > MAX_SWAPS:
            self._error(self.players.entries[-1].form.swaps, gettext("At most %(limit)s lines.", limit=MAX_SWAPS))
        ok = ok and not any(e.form.errors for e in self.players.entries)
        self.body = body if ok else None
        return ok


class PartForm(CardReading, FlaskForm):
    """One seat's part of the draft, entered on that player's phone (or by the scorer)."""

    player = FormField(PlayerForm)
    hand_mode = RadioField(lazy_gettext("Cards left in hand are entered as"), choices=[], default="cards")
    deal = HiddenField()
    revision = HiddenField()
    save = SubmitField(lazy_gettext("Save my part"))

    part: dict | None = None

    def validate_deal(self, field: HiddenField) -> None:
        """The deal number and the part's revision this form was filled in against: whole numbers."""
        if not re.fullmatch(r"\d{1,9}", field.data or "") or not re.fullmatch(r"\d{1,9}", self.revision.data or ""):
            raise ValidationError(gettext("The form is damaged; reload it."))

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, then read the cards; ``part`` holds the part (the API's shape) on success."""
        ok = super().validate(extra_validators)
        counts = self.hand_mode.data == "counts"
        if not counts:
            self.clear_count_errors(self.player.form)
            ok = not any(f.errors for name, f in self._fields.items() if name != "player")
        record, swaps = self.read_player(self.player.form, counts)
        ok = ok and not self.player.form.errors
        self.part = {**record, "swaps": swaps} if ok else None
        return ok


def part_form(names: list[str], rules: RuleSet, **kwargs: Any) -> PartForm:
    """A part form for a session's players; ``kwargs`` go to the form (``data=`` to prefill)."""
    form = PartForm(**kwargs)
    form.names = list(names)
    form.rules = rules
    form.hand_mode.choices = [(mode, HAND_ENTRY_NAMES[mode]) for mode in hand_entries(rules)]
    if form.hand_mode.data not in dict(form.hand_mode.choices):
        form.hand_mode.data = "cards"
    return form


def part_form_data(part: dict | None, seat: int, names: list[str], rules: RuleSet, russian: bool) -> dict:
    """A stored part of ``seat`` as the part form's player data (cards in the page's notation)."""
    name = names[seat]
    part = part or {}
    record = {
        "players": [{"name": name, **{k: v for k, v in part.items() if k != "swaps"}}],
        "swaps": [{"by": name, **s} for s in part.get("swaps") or []],
    }
    return deal_form_data(record, names, rules=rules, russian=russian)["players"][seat]


class DraftForm(DealEnd, FlaskForm):
    """The scorer's part of a draft: how the deal ended, "record anyway", and Record."""

    hand_mode = None  # the parts say how their hands are entered
    version = HiddenField(validators=[Regexp(r"^\d{1,9}$")])
    deal = HiddenField(validators=[Regexp(r"^\d{1,9}$")])
    record = SubmitField(lazy_gettext("Record the deal"))
    check = SubmitField(lazy_gettext("Check"))

    def end(self, names: list[str]) -> dict:
        """The draft's end as ``service.DRAFT_END`` keeps it: ``went_out`` is "auto", "none" or a seat."""
        choice = self.went_out.data or "auto"
        went_out = names[int(choice)] if choice.isdigit() and int(choice) < len(names) else None
        return {
            "went_out": went_out,
            "went_out_set": choice != "auto",
            "express": bool(self.express.data),
            "redeal": bool(self.redeal.data),
        }


_NUMBER = re.compile(r"[+\-−]?\d+(?:[.,]\d*)?")


def hand_text(hand: Any, rules: RuleSet | None = None) -> str:
    """A stored hand as the hand field shows it: cards, or points then jokers (counts become points).

    >>> hand_text({"points": 35, "jokers": 2}), hand_text("K♠ JK")
    ('35 JK JK', 'K♠ JK')
    >>> hand_text({"small": 1, "aces": 1, "jokers": 0}, RuleSet.preset())
    '15'
    """
    if not isinstance(hand, dict):
        return hand or ""
    summary = HandSummary.from_value(hand, "hand")
    return " ".join([str(summary.points_under(rules or RuleSet.preset()))] + ["JK"] * summary.jokers)


@lru_cache(maxsize=16)
def _deal_form_class(seats: int) -> type:
    return type(
        f"DealForm{seats}",
        (DealForm,),
        {"players": FieldList(FormField(PlayerForm), min_entries=seats, max_entries=seats)},
    )


HAND_ENTRY_NAMES = {"counts": lazy_gettext("counts"), "points": lazy_gettext("points"), "cards": lazy_gettext("cards")}


def deal_form(names: list[str], rules: RuleSet | None = None, **kwargs: Any) -> DealForm:
    """A deal form for these players (in seat order); ``kwargs`` go to the form (``data=`` to prefill)."""
    form = _deal_form_class(len(names))(**kwargs)
    form.names = list(names)
    form.rules = rules or RuleSet.preset()
    form.hand_mode.choices = [(mode, HAND_ENTRY_NAMES[mode]) for mode in hand_entries(rules or RuleSet.preset())]
    if form.hand_mode.data not in dict(form.hand_mode.choices):
        form.hand_mode.data = "cards"
    form.went_out.choices = [SelectChoice("", gettext("Nobody (the stock ran out)"))] + [SelectChoice(n) for n in names]
    if not form.form_key.data or not FORM_KEY.match(form.form_key.data):
        form.form_key.data = new_form_key()
    return form


def new_form_key() -> str:
    """A fresh idempotency key for one render of a deal form."""
    return "form-" + secrets.token_urlsafe(16)


def deal_form_data(
    record: dict,
    names: list[str],
    override: bool = False,
    note: str | None = None,
    rules: RuleSet | None = None,
    russian: bool = False,
) -> dict:
    """A stored deal record as the deal form's data, players in seat order (swaps under the swapper),
    cards in the page's notation."""
    by_name = {p.get("name"): p for p in record.get("players", []) if isinstance(p, dict)}
    swaps = [s for s in record.get("swaps") or [] if isinstance(s, dict)]
    players = []
    for name in names:
        p = by_name.get(name, {})
        hand = p.get("hand")
        counts = hand if isinstance(hand, dict) and "points" not in hand else {}
        players.append(
            {
                **{key: counts.get(key, 0) for key in HAND_COUNTS},
                "melds": "\n".join(shown_cards(m, russian) for m in p.get("melds") or []),
                "vists": "\n".join(
                    vist_line({**v, "cards": shown_cards(v.get("cards", ""), russian)}, names)
                    for v in p.get("vists") or []
                ),
                "swaps": "\n".join(
                    vist_line({"to": s["from"], "meld": s.get("meld"), "cards": shown_cards(s["card"], russian)}, names)
                    for s in swaps
                    if s.get("by") == name
                ),
                "hand": shown_cards(hand_text(p.get("hand"), rules), russian),
            }
        )
    return {
        "players": players,
        "went_out": record.get("went_out") or "",
        "express": bool(record.get("express")),
        "redeal": bool(record.get("redeal")),
        "override": override,
        "note": note or "",
    }
