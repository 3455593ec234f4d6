"""Rule sets: the presets of each game and every house-rule switch, as plain data.

>>> rules = RuleSet.for_game("kunken", {"joker_limit": "two"})
>>> str(rules.joker_limit), rules.opening_points
('two', 50)
>>> RuleSet.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

from .cards import ALL_NATURALS, Card, CardError, Rank
from .messages import M_, KunkenError, Reason, Text

GAMES = ("kunken", "ordered-rummy")


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


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides legality and points: a game's preset plus house-rule switches."""

    game: str = "kunken"
    min_players: int = 2
    max_players: int = 5
    hand_size: int = 13
    decks: int = 2
    jokers: int = 4
    wild_card: str | None = None
    ace_low: bool = True
    wrap: bool = False
    joker_limit: JokerLimit = JokerLimit.HALF
    no_adjacent_jokers: bool = False
    number_points: int | None = 5
    court_points: int = 10
    ace_points: int = 10
    short_ace: ShortAce = ShortAce.OFF
    short_ace_points: int = 1
    opening_points: int = 50
    first_meld_run: bool = False
    joker_in_hand: int | Literal["double"] = 10
    express: bool = True
    express_multiplier: int = 2
    rummy_call: bool = False

    def __post_init__(self) -> None:
        """Check every value as it is built: a rule set that exists is one the scorer can play.

        >>> RuleSet(joker_limit="bogus")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        kunken_scorer.core.rules.RuleSetError: House rule “Jokers allowed in one meld”: "bogus" is not allowed;
        expected one of half, two, one, minority.
        """
        if self.game not in GAMES:
            raise RuleSetError(Reason("unknown_game", {"game": self.game, "games": ", ".join(GAMES)}))
        for name, switch in SWITCHES.items():
            value = getattr(self, name)
            converted = switch.convert(value)
            if converted is not value:
                object.__setattr__(self, name, converted)
        if self.min_players > self.max_players:
            raise bad_switch_value(
                "min_players",
                SWITCHES["min_players"].label,
                self.min_players,
                Reason("expected_at_most", {"limit": self.max_players}),
            )

    # -- construction -------------------------------------------------------------

    @classmethod
    def preset(cls, game: str = "kunken") -> RuleSet:
        """The game's preset rule set.

        >>> RuleSet.preset("ordered-rummy").ace_points
        15
        """
        if not isinstance(game, str) or game not in PRESETS:
            raise RuleSetError(Reason("unknown_game", {"game": game, "games": ", ".join(GAMES)}))
        return PRESETS[game]

    @classmethod
    def for_game(cls, game: str | None = "kunken", switches: Mapping[str, Any] | None = None) -> RuleSet:
        """The preset of ``game`` with the table's house-rule ``switches`` applied.

        >>> RuleSet.for_game("kunken", {"ace_points": 5}).ace_points
        5
        """
        base = cls.preset(game or "kunken")
        if switches is None:
            return base
        key = _intern_key(base.game, switches)
        if key is not None and key in _INTERNED:
            return _INTERNED[key]
        if not isinstance(switches, Mapping):
            raise RuleSetError(
                Reason("bad_field", {"field": "rules", "expected": M_("an object of house-rule switches")})
            )
        changes = {}
        for name, value in switches.items():
            if name == "game":
                if value != base.game:
                    raise bad_switch_value(name, M_("Game"), value, base.game)
                continue
            if name not in SWITCHES:
                raise RuleSetError(Reason("unknown_switch", {"switch": name}))
            changes[name] = SWITCHES[name].convert(value)
        rules = replace(base, **changes)
        if key is not None:
            if len(_INTERNED) >= 256:
                _INTERNED.clear()
            _INTERNED[key] = rules
        return rules

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rebuild a rule set stored with ``to_dict`` (the game's preset, then every stored value).

        >>> RuleSet.from_dict({"game": "ordered-rummy", "wild_card": "7♠"}).deck_jokers
        2
        """
        if not isinstance(data, Mapping):
            raise RuleSetError(Reason("bad_field", {"field": "rules", "expected": M_("an object")}))
        data = dict(data)
        game = data.pop("game", "kunken")
        return cls.for_game(game, data)

    def to_dict(self) -> dict[str, Any]:
        """Every value of the rule set as plain JSON-able data.

        >>> RuleSet.preset().to_dict()["joker_limit"]
        'half'
        """
        return {name: _plain(getattr(self, name)) for name in _FIELD_NAMES}

    def differences(self) -> dict[str, Any]:
        """The switches whose value differs from the game's preset.

        >>> RuleSet.for_game("kunken", {"opening_points": 40}).differences()
        {'opening_points': 40}
        """
        base = self.preset(self.game)
        return {name: getattr(self, name) for name in _FIELD_NAMES if getattr(base, name) != getattr(self, name)}

    # -- card values --------------------------------------------------------------

    @cached_property
    def wild(self) -> Card | None:
        """The natural card that acts as a joker, if the table named one."""
        return Card.parse(self.wild_card) if self.wild_card else None

    @cached_property
    def joker_cards(self) -> frozenset[Card]:
        """Every card that plays as a joker: the printed joker, pinned to a card or not, and the wild card.

        >>> Card.parse("JK=7♠") in RuleSet.preset().joker_cards, Card.parse("7♠") in RuleSet.preset().joker_cards
        (True, False)
        """
        jokers = {Card.joker(), *(Card.joker(card) for card in ALL_NATURALS)}
        if self.wild is not None:
            jokers.add(self.wild)
        return frozenset(jokers)

    def is_joker(self, card: Card) -> bool:
        """True if ``card`` plays as a joker: a printed joker, or a copy of the wild card.

        >>> RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"}).is_joker(Card.parse("7♠"))
        True
        """
        return card in self.joker_cards

    def points(self, card: Card) -> int:
        """Points of a natural card (jokers are valued by the card they stand for).

        >>> RuleSet.preset().points(Card.parse("7♥")), RuleSet.preset("ordered-rummy").points(Card.parse("7♥"))
        (5, 7)
        """
        if card.rank is None:  # a joker: no points of its own (the table has no entry for it)
            raise KeyError(card.rank)
        return self.rank_points(card.rank)

    def face_points(self, card: Card) -> int:
        """Points of a card standing for nothing in particular: its own points, 0 for a joker.

        >>> RuleSet.preset().face_points(Card.parse("JK")), RuleSet.preset().face_points(Card.parse("K♠"))
        (0, 10)
        """
        rank = card.rank
        return 0 if rank is None or self.is_joker(card) else self.points_by_rank[rank]

    def rank_points(self, rank: Rank) -> int:
        """Points of a natural card of ``rank``.

        >>> RuleSet.preset().rank_points(Rank.ACE)
        10
        """
        return self.points_by_rank[rank]

    @cached_property
    def natural_points(self) -> dict[Card, int]:
        """Natural card -> its points; a card that plays as a joker (the wild card's copies) is not in it.

        >>> RuleSet.preset().natural_points[Card.parse("K♠")], Card.parse("JK") in RuleSet.preset().natural_points
        (10, False)
        """
        return {card: self.face_points(card) for card in ALL_NATURALS if card not in self.joker_cards}

    @cached_property
    def points_by_rank(self) -> dict[Rank, int]:
        """Rank -> points of a natural card of that rank (computed once per rule set)."""
        table: dict[Rank, int] = {}
        for rank in Rank:
            if rank == Rank.ACE:
                table[rank] = self.ace_points
            elif rank >= Rank.JACK:
                table[rank] = self.court_points
            else:
                table[rank] = int(rank) if self.number_points is None else self.number_points
        return table

    @cached_property
    def hand_points(self) -> int:
        """The points natural cards left in a hand can add up to, as bits: bit ``p`` set when some cards of the
        decks (a wild card's copies play as jokers) are worth ``p`` in all.

        >>> [p for p in range(12) if RuleSet.preset("ordered-rummy").hand_points >> p & 1]
        [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        """
        reach = 1
        for rank, value in self.points_by_rank.items():
            wild = self.wild is not None and self.wild.rank == rank
            for _ in range(4 * self.decks - (self.decks if wild else 0)):
                reach |= reach << value
        return reach

    def joker_limit_for(self, size: int) -> int:
        """How many jokers a meld of ``size`` cards may hold.

        >>> [RuleSet.preset().joker_limit_for(n) for n in (3, 4, 5, 6)]
        [1, 2, 2, 3]
        """
        return _JOKER_LIMIT[self.joker_limit](size)

    @property
    def deck_jokers(self) -> int:
        """How many cards in the decks play as jokers (printed jokers or wild cards)."""
        return self.decks if self.wild_card else self.jokers


def read_rules(data: Mapping[str, Any]) -> RuleSet:
    """The rule set a request asks for: the ``game`` preset (Kunken when left out) with its ``rules`` switches.

    >>> read_rules({"game": "ordered-rummy", "rules": {"ace_points": 5}}).ace_points
    5
    """
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise RuleSetError(Reason("bad_field", {"field": "game", "expected": M_('"kunken" or "ordered-rummy"')}))
    return RuleSet.for_game(game or "kunken", data.get("rules"))


_FIELD_NAMES = tuple(f.name for f in fields(RuleSet))


def _plain(value: Any) -> Any:
    """A switch value as a plain scalar (a choice's ``str``, not its enum member)."""
    return str(value) if isinstance(value, StrEnum) else value


#: Rule sets already built, by (game, switches): a session's stored rules are read on every
#: request, and the same value object keeps its cached properties (``joker_cards``, ``natural_points``, ...).
_InternKey = tuple[str, tuple[tuple[str, type, Any], ...]]
# pays: a session's rules read and a deal scored under them 1.95× slower without it, the rules read alone 8×
# (in-process A/B, issue 34; benchmarks/bench_tricks.py interned_rules: POST deals/score 1.47×)
_INTERNED: dict[_InternKey, RuleSet] = {}


def _intern_key(game: str, switches: Any) -> _InternKey | None:
    """A hashable key for ``switches``, or None when they are not plain hashable values."""
    if not isinstance(switches, Mapping):
        return None
    try:
        # each value with its type: True, 1 and 1.0 are one dict key, but only True is a yes-or-no switch's value
        key = (game, tuple(sorted((name, type(value), value) for name, value in switches.items())))
        hash(key)
    except TypeError:
        return None
    return key


_JOKER_LIMIT: dict[JokerLimit, Callable[[int], int]] = {
    JokerLimit.HALF: lambda n: n // 2,
    JokerLimit.TWO: lambda n: 1 if n <= 3 else 2,
    JokerLimit.ONE: lambda _n: 1,
    JokerLimit.MINORITY: lambda n: (n - 1) // 2,
}


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

    def applies(self, rules: RuleSet) -> bool:
        """Whether this switch means anything under ``rules`` (a summary leaves out the ones that do not).

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


PRESETS = {
    "kunken": RuleSet(),
    "ordered-rummy": RuleSet(
        game="ordered-rummy",
        min_players=2,
        max_players=12,  # "any number of players": as many as the switch allows (12 × 8 cards of 108)
        hand_size=8,
        number_points=None,
        court_points=10,
        ace_points=15,
        short_ace=ShortAce.RUN_OF_THREE,
        opening_points=0,
        first_meld_run=True,
        joker_in_hand=25,
        express=False,
        express_multiplier=1,
        rummy_call=True,
    ),
}
