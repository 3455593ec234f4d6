"""The rules desk's five questions (a meld, a joker swap, taking the bank, a discard, a vist), answered as data.

Each ``answer_*`` reads the typed fields of its question (``data``: field name -> text or flag, melds
one per line) and answers with the core's checks; the rules desk page puts the answer in words.

>>> answer_meld({"cards": "5♥ 6♥ JK", "table": ""}, RuleSet.preset())["meld"]["cards"]
'5♥ 6♥ JK=7♥'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import format_cards
from .fields import cards_arg, rules_arg
from .melds import MeldCheck, check_discard, check_meld, check_opening, check_swap, check_vist, on_table
from .messages import M_, N_, KunkenError, Reason
from .notation import split_lines
from .rules import RuleSet


def meld_lines(text: str | None) -> list[str]:
    """The melds typed one per line."""
    return [line for _, line in split_lines(text)]


def _fields(data: Any, rules: Any, *names: str) -> tuple[Any, ...]:
    """The typed fields ``names`` of a question, text or a flag each (a field left out: None); ``KunkenError``
    naming what is of the wrong kind.

    >>> _fields({"cards": "5♥", "table": 5}, RuleSet.preset(), "cards", "table")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.messages.KunkenError: table: expected text, melds one per line.
    """
    rules_arg(rules)
    if not isinstance(data, Mapping):
        raise KunkenError(Reason("bad_field", {"field": "data", "expected": M_("an object")}))
    values = tuple(data.get(name) for name in names)
    for name, value in zip(names, values, strict=True):
        if name in {"table", "melds"} and value is not None and not isinstance(value, str):
            raise KunkenError(Reason("bad_field", {"field": name, "expected": M_("text, melds one per line")}))
    return values


def meld_summary(check: MeldCheck, rules: RuleSet) -> dict[str, Any]:
    """What the answer says about one meld: each joker's written position (1-based), the card it stands
    for and, in a set whose joker may take more than one suit, every card it could be."""
    options = [str(card) for card in check.joker_options]
    jokers = [
        {"position": i + 1, "card": str(card), "options": options if i in check.open_jokers else []}
        for i, card in check.jokers
    ]
    # a joker with a choice of suits is shown as written, not pinned to the first suit
    shown = check.written if check.joker_options else on_table(check.assigned or check.written, rules)
    return {
        "legal": check.legal,
        "kind": check.kind,
        "points": check.points,
        "cards": format_cards(shown),
        "written": format_cards(check.written),
        "jokers": jokers,
    }


def answer_meld(data: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The answer to "is this meld legal?"."""
    cards, table = _fields(data, rules, "cards", "table")
    check = check_meld(cards, rules, meld_lines(table))
    return {"legal": check.legal, "meld": meld_summary(check, rules), "reasons": list(check.reasons)}


def answer_swap(data: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The answer to "may this card replace that joker?"."""
    meld, offered, typed, has_layout, own = _fields(data, rules, "meld", "card", "table", "has_layout", "own_meld")
    table = meld_lines(typed)
    result = check_swap(meld, offered, rules, table, has_layout=bool(has_layout), own_meld=bool(own))
    card = format_cards(cards_arg(offered, "card"))
    answer = {
        "legal": result.legal,
        "card": card,
        "reasons": list(result.reasons),
        "meld": meld_summary(result.meld, rules) if result.meld is not None else None,
    }
    if result.legal and result.joker is not None and result.meld is not None:  # a joker is found in a meld
        answer["joker_position"] = result.joker + 1
        pin = result.meld.assigned[result.joker].pin
        # a set's joker has an open suit: it stands for whichever missing card replaces it
        answer["stands_for"] = card if result.meld.kind == "set" or not pin else str(pin)
    return answer


def answer_opening(data: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The answer to "may I take the bank with this card and these melds?"."""
    melds, bank_card, typed, flag = _fields(data, rules, "melds", "bank_card", "table", "has_layout")
    has_layout = bool(flag)
    table = meld_lines(typed)
    result = check_opening(meld_lines(melds), bank_card, rules, has_layout=has_layout, table=table)
    return {
        "legal": result.legal,
        "points": result.points,
        "needed": rules.opening_points,
        "has_layout": has_layout,
        "reasons": list(result.reasons),
        "melds": [meld_summary(m, rules) for m in result.melds],
    }


def answer_discard(data: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The answer to "does this discard fit a meld on the table?"."""
    card, typed = _fields(data, rules, "card", "melds")
    melds = meld_lines(typed)
    result = check_discard(card, melds, rules)
    answer = {
        "legal": result.fits,
        "fits": result.fits,
        "card": format_cards(cards_arg(card, "card")),
        # the verdict itself says the card fits no meld: the reasons keep only what more there is to say
        "reasons": [r for r in result.reasons if r.code != "discard_no_fit"],
        "rummy_call": rules.rummy_call,
    }
    if result.fits and result.meld is not None:
        answer["meld_number"] = result.meld + 1
        answer["meld_cards"] = format_cards(cards_arg(melds[result.meld], "melds"))
    return answer


def answer_vist(data: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The answer to "does this vist fit that meld?"."""
    meld, cards, typed = _fields(data, rules, "meld", "cards", "table")
    added = cards_arg(cards, "cards")
    table = meld_lines(typed)
    base = check_meld(meld, rules, table)
    if not base.legal:  # a meld that could not lie on the table takes nothing: say why it is not one
        return {
            "legal": False,
            "base_illegal": True,
            "meld": meld_summary(base, rules),
            "reasons": list(base.reasons),
            "added": format_cards(added),
            "added_points": None,
        }
    check = check_vist(meld, added, rules, table)
    added_points = sum(check.card_points[len(check.card_points) - len(added) :]) if check.legal else None
    return {
        "legal": check.legal,
        "base_illegal": False,
        "meld": meld_summary(check, rules),
        "reasons": list(check.reasons),
        "added": format_cards(added),
        "added_points": added_points,
    }


#: question -> its answer, in the order the desk asks them
ANSWERS: dict[str, Callable[[Mapping[str, Any], RuleSet], dict[str, Any]]] = {
    "meld": answer_meld,
    "swap": answer_swap,
    "opening": answer_opening,
    "discard": answer_discard,
    "vist": answer_vist,
}


@dataclass(frozen=True)
class Field:
    """One typed field of a desk question: ``kind`` "card" (exactly one), "cards", "lines" (melds one per line)
    or "flag" (``checked``: ticked at first); ``example``: the cards a card field shows as its placeholder."""

    name: str
    kind: str
    label: str
    example: str = "5♥ JK 7♥"
    required: bool = True
    checked: bool = False


_TABLE = Field("table", "lines", N_("Other melds on the table, one per line (optional)"), required=False)

#: question -> (its fields, its button's label), in the order the desk asks them; the forms are made from these
QUESTIONS: dict[str, tuple[tuple[Field, ...], str]] = {
    "meld": ((Field("cards", "cards", N_("Meld")), _TABLE), N_("Check the meld")),
    "swap": (
        (
            Field("meld", "cards", N_("Meld with a joker"), "JK K♠ K♣"),
            Field("card", "card", N_("Natural card offered for the joker"), "K♦"),
            Field("has_layout", "flag", N_("The player swapping already has a layout on the table"), checked=True),
            Field("own_meld", "flag", N_("The meld belongs to the player swapping")),
            _TABLE,
        ),
        N_("Check the swap"),
    ),
    "opening": (
        (
            Field("melds", "lines", N_("Melds laid this turn, one per line")),
            Field("bank_card", "card", N_("Bank card taken"), "7♥"),
            Field("has_layout", "flag", N_("I already have a layout on the table")),
            _TABLE,
        ),
        N_("Check taking the bank"),
    ),
    "discard": (
        (
            Field("card", "card", N_("Discarded card"), "Q♦"),
            Field("melds", "lines", N_("Melds on the table, one per line")),
        ),
        N_("Check the discard"),
    ),
    "vist": (
        (
            Field("meld", "cards", N_("Meld on the table"), "2♥ 3♥ 4♥"),
            Field("cards", "cards", N_("Cards added (the vist)"), "5♥"),
            _TABLE,
        ),
        N_("Check the vist"),
    ),
}
