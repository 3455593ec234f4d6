"""The start form: game, players in seat order, house rules (one field per switch of ``rules.SWITCHES``), target.

Its ``validate`` has the service read the rules, the players and the target, and puts each refusal next to its field.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, FormField, HiddenField, SelectChoice, SelectField, StringField, SubmitField
from wtforms.validators import Length, NumberRange, Optional
from wtforms.widgets import NumberInput

from ...core.messages import Reason
from ...core.reading import MAX_NAME
from ...core.rules import GAMES, HOUSE_RULES, PRESETS, SWITCHES, RuleSet
from ...core.rules import raw_switch as raw_switch  # the start form's reading of a switch, where forms/ names it
from ...core.rules import switch_values as switch_values
from ...core.session import Target
from ...service.sessions import StartRefused, start_players, start_rules, start_target, typed_players
from ..languages import gettext
from ..wording import GAME_NAMES, reason_text
from .base import FROM_TO, MAX_SEATS, OPEN_SEATS, PageForm, SeatList, SubForm, WholeField, add_error, at_most
from .deal import HAND_ENTRY_NAMES

TARGET_KINDS = [
    SelectChoice("", lazy_gettext("No target")),
    SelectChoice("deals", lazy_gettext("A number of deals")),
    SelectChoice("score", lazy_gettext("A score to reach")),
    SelectChoice("penalty", lazy_gettext("A penalty limit (a player at minus this is out)")),
]


def _switch_field(name: str) -> Any:
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
            validators=[NumberRange(switch.lo, switch.hi, message=FROM_TO)],
        )
    return StringField(
        label,
        description=hint,
        validators=[at_most(20)],
        render_kw={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"},
    )


#: The house-rule switches of the start form, one field each (names as in ``rules.HOUSE_RULES``).
RulesForm = type(
    "RulesForm",
    (SubForm,),
    {"__doc__": "The house-rule switches, one field each.", **{name: _switch_field(name) for name in HOUSE_RULES}},
)


def _players_of(game: str) -> Any:
    """A game's name and number of players, said in the page's language when the form shows it."""
    preset = PRESETS[game]
    return lazy_gettext(
        "%(game)s (%(min)s–%(max)s players)", game=GAME_NAMES[game], min=preset.min_players, max=preset.max_players
    )


#: The game's choices of a start form: each game with its number of players.
GAME_CHOICES = [SelectChoice(g, _players_of(g)) for g in GAMES]


class SessionForm(PageForm):
    """Start a session: game, players in seat order, house rules and an optional target."""

    #: each game with its number of players
    game = SelectField(lazy_gettext("Game"), choices=GAME_CHOICES)
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
        lazy_gettext("Cards left in hand are entered"),
        default="ranks",
        choices=[SelectChoice(mode, name) for mode, name in HAND_ENTRY_NAMES.items()],
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
        """Bind the form, with no error about the players or the house rules as a whole yet."""
        super().__init__(*args, **kwargs)
        #: errors about the player list as a whole, and about the house rules as a whole
        self.players_errors: list[str] = []
        self.rules_errors: list[str] = []

    @property
    def shown_game(self) -> str:
        """The game whose defaults the switches showed."""
        return self.defaults_for.data if self.defaults_for.data in GAMES else "kunken"

    def process(
        self, formdata: Any = None, obj: Any = None, data: Any = None, extra_filters: Any = None, **kw: Any
    ) -> None:
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
        return typed_players([entry.data for entry in self.players.entries], self.past_seats)

    #: (rules, players, target) once ``validate`` passed: what the core made of the form
    chosen: tuple[RuleSet, list[str], Target | None]

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, then have the core read the rules, the players and the target; each refusal goes
        next to its field (a switch's, a seat's, the target value's)."""
        valid = super().validate(extra_validators)
        target = self._chosen_target()  # its error is said with the form's other errors
        if not valid:
            return False
        rules = start_rules(self.game.data, self.shown_game, {name: self.rules[name].data for name in HOUSE_RULES})
        if isinstance(rules, StartRefused):
            return self._refused(rules, self.rules_errors)
        players = start_players(rules, *self.names())
        if isinstance(players, StartRefused):
            return self._refused(players, self.players_errors)
        if self.target_value.errors:
            return False
        self.chosen = (rules, players, target)
        return True

    def _chosen_target(self) -> Target | None:
        """The target chosen, or None; the core's refusal of it (its range is the core's) goes on the value's field."""
        if self.target_kind.errors or self.target_value.errors:
            return None
        target = start_target(self.target_kind.data, self.target_value.data)
        if isinstance(target, StartRefused):
            add_error(self.target_value, reason_text(target.reason))
            return None
        return target

    def _refused(self, refused: StartRefused, whole: list[str]) -> bool:
        """Say a refusal next to its field (a switch's, a seat's), else with ``whole``, its part's errors; False."""
        if refused.switch is not None:
            add_error(self.rules.form[refused.switch], reason_text(refused.reason))
        elif refused.seat is not None:  # said next to the name's field, naming the seat as the page does
            seat = gettext("Seat %(n)s", n=refused.seat + 1)
            shown = Reason(refused.reason.code, {**refused.reason.params, "field": seat})
            add_error(self.players.entries[refused.seat], reason_text(shown))
        else:
            whole.append(reason_text(refused.reason))
        return False
