"""The pages' forms, one module a page: ``base`` (what they share), ``session`` (the start form), ``deal`` (the deal
form, a player's part, the scorer's draft), ``desk`` (the rules desk's questions), ``imports`` (an import).

A form reads what a person typed; its ``validate`` has the core (through ``service``) read it and puts every
refusal next to its field. No form queries the database or applies a game rule.
"""

from .base import FORM_KEY, MAX_SEATS, OPEN_SEATS, PageForm, add_error, hidden_number, new_form_key
from .corrections import CorrectionForm
from .deal import HAND_ENTRY_NAMES, DealForm, DraftForm, PartForm, Placed, deal_form, part_form
from .desk import QUESTIONS, desk_forms, posted_question
from .imports import ImportForm
from .night import NightForm
from .session import RulesForm, SessionForm, raw_switch, switch_values

__all__ = [
    "FORM_KEY",
    "HAND_ENTRY_NAMES",
    "MAX_SEATS",
    "OPEN_SEATS",
    "QUESTIONS",
    "CorrectionForm",
    "DealForm",
    "DraftForm",
    "ImportForm",
    "NightForm",
    "PageForm",
    "PartForm",
    "Placed",
    "RulesForm",
    "SessionForm",
    "add_error",
    "desk_forms",
    "deal_form",
    "hidden_number",
    "new_form_key",
    "part_form",
    "posted_question",
    "raw_switch",
    "switch_values",
]
