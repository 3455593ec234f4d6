"""House-rule switches: every switch a table may set (``SWITCHES``), how its value is read and checked,
and how a page says it; which of them the rules reference calls house rules, and which a summary shows.

``RuleSet`` (``rules``) holds one value of each; these names are importable from ``rules`` as before.

>>> SWITCHES["joker_limit"].convert("two"), SWITCHES["ace_low"].convert("off")
(<JokerLimit.TWO: 'two'>, False)
>>> str(SWITCHES["decks"].describe(2))
'2'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import Card, CardError
from .messages import M_, KunkenError, Reason, Text


class JokerLimit(StrEnum):
    """How many jokers one meld may hold."""

    HALF = "half"
    TWO = "two"
    ONE = "one"
    MINORITY = "minority"


class ShortAce(StrEnum):
    """When an ace in a run scores less (``short_ace_points``)."""

    RUN_OF_THREE = "run_of_three"
    LOW = "low"
    OFF = "off"


JOKER_LIMITS = tuple(JokerLimit)
SHORT_ACE = tuple(ShortAce)


class RuleSetError(KunkenError):
    """An unknown game, switch or switch value."""


def bad_switch_value(switch: str, label: str, value: Any, expected: Any) -> RuleSetError:
    """A switch refused a value: text is quoted as typed, any other value (``null``, ``5``) written as sent.

    >>> str(bad_switch_value("decks", "Decks", None, "1 to 4"))
    'House rule “Decks”: null is not allowed; expected 1 to 4.'
    >>> str(bad_switch_value("decks", "Decks", "null", "1 to 4"))
    'House rule “Decks”: "null" is not allowed; expected 1 to 4.'
    """
    code = "bad_switch_value" if isinstance(value, str) else "bad_switch_value_sent"
    return RuleSetError(Reason(code, {"switch": switch, "label": label, "value": value, "expected": expected}))


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "on", "yes", "1"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "off", "no", "0", ""):
        return False
    raise ValueError


def _whole(value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool):
        raise ValueError
    if isinstance(value, str):
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError
    return value


def _wild_card(value: Any) -> str | None:
    if value in (None, ""):
        return None
    card = Card.parse(value)
    if card.is_joker:
        raise ValueError
    return str(card)


_YES_NO = {True: M_("yes"), False: M_("no")}


@dataclass(frozen=True)
class Switch:
    """One house-rule switch: how its value is read and checked, and how a page says it.

    ``kind`` is ``bool``, ``int`` (from ``lo`` to ``hi``), ``choice`` (the values of ``words``),
    ``card`` (a natural card or nothing), or ``int_or_word`` (a number, or ``word``).
    """

    name: str
    kind: str
    label: Text
    help: Text | None = None
    lo: int = 0
    hi: int = 100
    #: a value -> its words (choices, yes and no, and the one word an ``int_or_word`` switch takes)
    words: Mapping[Any, Text] = field(default_factory=dict)
    #: the word an ``int_or_word`` switch takes besides a number (``None`` stands for it when stored)
    word: str | None = None
    #: how that word is written in a page's language, and the other spellings it is read from (any case)
    word_text: Text | None = None
    aliases: tuple[str, ...] = ()
    #: how a number of this switch reads ("count_points", "times", ...), a message code
    unit: str = "number"
    #: (another switch, its value): this one means something only then (printed jokers, when no card is wild)
    only_with: tuple[str, Any] | None = None

    def applies(self, rules: object) -> bool:
        """Whether this switch means anything under ``rules``, a ``RuleSet`` (a summary leaves out the ones
        that do not).

        >>> from kunken_scorer.core.rules import RuleSet
        >>> SWITCHES["jokers"].applies(RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"}))
        False
        """
        return self.only_with is None or getattr(rules, self.only_with[0]) == self.only_with[1]

    def convert(self, value: Any) -> Any:
        """The value as stored, from what a table typed or sent; ``RuleSetError`` when not allowed.

        >>> SWITCHES["joker_limit"].convert("two"), SWITCHES["wrap"].convert("on")
        (<JokerLimit.TWO: 'two'>, True)
        """
        try:
            return self._convert(value)
        except (ValueError, TypeError, CardError):
            raise bad_switch_value(self.name, self.label, value, self.expected) from None

    def _convert(self, value: Any) -> Any:
        if self.kind == "bool":
            return _bool(value)
        if self.kind == "choice":
            choices = {str(v): v for v in self.words}
            if not isinstance(value, str) or value not in choices:
                raise ValueError
            return choices[value]
        if self.kind == "card":
            return _wild_card(value)
        if self.kind == "int_or_word" and (
            value == self.word
            or (value is None and self.word == "face")
            or (isinstance(value, str) and value.strip().casefold() in self.aliases)
        ):
            return None if self.word == "face" else self.word
        return _whole(value, self.lo, self.hi)

    @property
    def expected(self) -> Any:
        """What a value must be, for the message that refuses another."""
        if self.kind == "bool":
            return M_("true or false")
        if self.kind == "choice":
            return Reason("expected_one_of", {"options": ", ".join(str(v) for v in self.words)})
        if self.kind == "card":
            return M_("a natural card such as 7♠, or nothing")
        if self.kind == "int_or_word":
            return Reason("expected_range_or", {"lo": self.lo, "hi": self.hi, "word": self.word_text or self.word})
        return Reason("expected_range", {"lo": self.lo, "hi": self.hi})

    @property
    def choices(self) -> tuple[Any, ...]:
        """The values of a ``choice`` switch, in the order a page lists them."""
        return tuple(self.words) if self.kind == "choice" else ()

    def describe(self, value: Any) -> Any:
        """The value in words: a ``Text`` or a ``Reason`` for the page to translate.

        >>> from kunken_scorer.core.messages import render
        >>> [render(SWITCHES[n].describe(v)) for n, v in (("wrap", False), ("joker_in_hand", 25),
        ...                                               ("joker_limit", "two"), ("express_multiplier", 2))]
        ['no', '25 minus points', 'at most two, and one in a 3-card meld', '×2']
        """
        words: Mapping[Any, Text] = _YES_NO if self.kind == "bool" else self.words
        if (value is None or isinstance(value, (bool, str))) and value in words:
            return Reason("words", {"text": words[value]})
        if value is None:
            return Reason("words", {"text": M_("none")})
        return Reason(self.unit, {"count": value})


def _switch(name: str, kind: str, label: Text, help: Text | None = None, **more: Any) -> tuple[str, Switch]:
    return name, Switch(name, kind, label, help, **more)


#: Every switch a table may set, in the order pages list them, with its words (one table for every page).
SWITCHES: dict[str, Switch] = dict(
    [
        _switch("ace_low", "bool", M_("The ace may be played low (A 2 3)")),
        _switch("wrap", "bool", M_("Runs may wrap around (K A 2)")),
        _switch(
            "joker_limit",
            "choice",
            M_("Jokers allowed in one meld"),
            words={
                JokerLimit.HALF: M_("at most half of the meld's cards"),
                JokerLimit.TWO: M_("at most two, and one in a 3-card meld"),
                JokerLimit.ONE: M_("at most one"),
                JokerLimit.MINORITY: M_("fewer jokers than natural cards"),
            },
        ),
        _switch("no_adjacent_jokers", "bool", M_("No two jokers side by side in a run")),
        _switch(
            "swap_own_melds",
            "bool",
            M_("A joker may be swapped out of one's own melds too"),
            M_("Off: only out of the other players' melds, as the rule texts say."),
        ),
        _switch("ace_points", "int", M_("Points for an ace"), unit="count_points"),
        _switch("hand_size", "int", M_("Cards dealt to each player"), lo=1, hi=20, unit="count_cards"),
        _switch("opening_points", "int", M_("Points needed to take the bank"), hi=1000, unit="count_points"),
        _switch(
            "joker_in_hand",
            "int_or_word",
            M_("A joker left in hand counts"),
            M_("Minus points, or “double”: it doubles that player's minus."),
            hi=1000,
            word="double",
            word_text=M_("double"),
            aliases=("double", "x2", "×2", "*2", "удвоить", "вдвойне"),
            words={"double": M_("doubles the hand's minus points")},
            unit="count_minus_points",
        ),
        _switch(
            "express_multiplier",
            "int",
            M_("Express multiplies the deal by"),
            lo=1,
            hi=10,
            unit="times",
            only_with=("express", True),
        ),
        _switch(
            "short_ace",
            "choice",
            M_("An ace in a short run scores less"),
            words={
                ShortAce.RUN_OF_THREE: M_("in a run of at most three cards"),
                ShortAce.LOW: M_("when played low, below the 2"),
                ShortAce.OFF: M_("never"),
            },
        ),
        _switch(
            "wild_card",
            "card",
            M_("Wild card instead of printed jokers"),
            M_("A natural card that plays as a joker, like 7♠; empty: printed jokers."),
            words={None: M_("none (printed jokers)")},
        ),
        _switch("min_players", "int", M_("Fewest players"), lo=1, hi=12),
        _switch("max_players", "int", M_("Most players"), lo=1, hi=12),
        _switch("decks", "int", M_("Decks"), lo=1, hi=4),
        _switch("jokers", "int", M_("Printed jokers in the deck"), hi=16, only_with=("wild_card", None)),
        _switch(
            "number_points",
            "int_or_word",
            M_("Points of a card 2 to 10"),
            word="face",
            words={None: M_("face value")},
            unit="count_points",
        ),
        _switch("court_points", "int", M_("Points of J, Q, K"), unit="count_points"),
        _switch("short_ace_points", "int", M_("Points of an ace in a short run"), unit="count_points"),
        _switch("first_meld_run", "bool", M_("A player's first meld must be a run")),
        _switch("express", "bool", M_("Express is played")),
        _switch("rummy_call", "bool", M_("“Rummy!” penalty for a discard that fits")),
    ]
)

#: The switches the rules reference names as house rules a table may turn (the start form shows them).
HOUSE_RULES = (
    "ace_low",
    "wrap",
    "joker_limit",
    "no_adjacent_jokers",
    "swap_own_melds",
    "ace_points",
    "hand_size",
    "opening_points",
    "joker_in_hand",
    "express_multiplier",
    "short_ace",
    "wild_card",
)
#: The values a printed summary shows even when the table kept the preset's.
KEY_SWITCHES = (
    "hand_size",
    "decks",
    "jokers",
    "wild_card",
    "joker_limit",
    "ace_low",
    "wrap",
    "no_adjacent_jokers",
    "swap_own_melds",
    "number_points",
    "court_points",
    "ace_points",
    "short_ace",
    "opening_points",
    "first_meld_run",
    "joker_in_hand",
    "express",
    "express_multiplier",
    "rummy_call",
)
