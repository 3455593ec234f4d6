"""The club night's start form (issue 47): the game, the night's name, its ranking, the way hands are entered at
its tables, its house rules and each table's players (a line a table).

Its ``validate`` has the service read the rules (``start_rules``, as the session's start form) and the settings
(``night_settings``); the tables are read when the night starts (``service.start_night``), whose refusal the page
puts next to the tables' field.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from wtforms import FormField, HiddenField, SelectChoice, SelectField, StringField

from ...core.rules import GAMES, HOUSE_RULES, RuleSet
from ...service.nights import MAX_NIGHT_NAME, NightInputError, NightSettings, night_settings
from ...service.sessions import StartRefused, start_rules
from ..errors import night_input_text
from ..wording import reason_text
from .base import PageForm, add_error, at_most
from .deal import HAND_ENTRY_NAMES
from .session import GAME_CHOICES, RulesForm

RANKING_NAMES = {
    "points": lazy_gettext("Place points: fair across tables of different sizes"),
    "total": lazy_gettext("Total: the points scored, added up"),
}


class NightForm(PageForm):
    """Start a club night: the game, a name, the ranking, the hand entry and the house rules (the tables' players
    are the template's own textarea, ``tables``, read by the service)."""

    game = SelectField(lazy_gettext("Game"), id="night-game", default="kunken", choices=GAME_CHOICES)
    name = StringField(
        lazy_gettext("Name of the night (optional)"),
        id="night-name",
        validators=[at_most(MAX_NIGHT_NAME)],
        render_kw={"autocomplete": "off", "maxlength": MAX_NIGHT_NAME},
    )
    ranking = SelectField(
        lazy_gettext("Standings ranked by"),
        id="night-ranking-choice",
        default="points",
        choices=[SelectChoice(k, v) for k, v in RANKING_NAMES.items()],
    )
    hand_entry = SelectField(
        lazy_gettext("Cards left in hand are entered"),
        id="night-hand-entry",
        default="ranks",
        choices=[SelectChoice(mode, name) for mode, name in HAND_ENTRY_NAMES.items()],
    )
    rules = FormField(RulesForm, label=lazy_gettext("House rules"))
    #: the game whose defaults the switches showed; only switches changed from them are kept
    defaults_for = HiddenField(default="kunken")
    form_key = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Bind the form, with no error about the house rules as a whole yet."""
        super().__init__(*args, **kwargs)
        self.rules_errors: list[str] = []

    #: (rules, settings) once ``validate`` passed
    chosen: tuple[RuleSet, NightSettings]

    def validate(self, extra_validators: Any = None) -> bool:
        """Check the fields, then have the service read the rules and the night's settings; a refusal goes next to
        its field (a switch's, the name's), else with the house rules as a whole."""
        if not super().validate(extra_validators):
            return False
        shown = self.defaults_for.data if self.defaults_for.data in GAMES else "kunken"
        rules = start_rules(self.game.data, shown, {name: self.rules[name].data for name in HOUSE_RULES})
        if isinstance(rules, StartRefused):
            if rules.switch is not None:
                add_error(self.rules.form[rules.switch], reason_text(rules.reason))
            else:
                self.rules_errors.append(reason_text(rules.reason))
            return False
        try:
            settings = night_settings(rules, self.name.data, self.ranking.data, self.hand_entry.data)
        except NightInputError as err:
            add_error(self.hand_entry, night_input_text(err.on_page()))
            return False
        self.chosen = (rules, settings)
        return True
