"""Rule sets: the presets of each game and every house-rule switch, as plain data.

>>> rules = RuleSet.for_game("kunken", {"joker_limit": "two"})
>>> rules.joker_limit, rules.opening_points
('two', 50)
>>> RuleSet.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, Mapping, Optional, Union

from .cards import Card, CardError, Rank
from .messages import M_, KunkenError, Reason

GAMES = ("kunken", "ordered-rummy")
JOKER_LIMITS = ("half", "two", "one", "minority")
SHORT_ACE = ("run_of_three", "low", "off")


class RuleSetError(KunkenError):
    """An unknown game, switch or switch value."""


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides legality and points: a game's preset plus house-rule switches."""

    game: str = "kunken"
    min_players: int = 2
    max_players: int = 5
    hand_size: int = 13
    decks: int = 2
    jokers: int = 4
    wild_card: Optional[str] = None
    ace_low: bool = True
    wrap: bool = False
    joker_limit: str = "half"
    no_adjacent_jokers: bool = False
    number_points: Optional[int] = 5
    court_points: int = 10
    ace_points: int = 10
    short_ace: str = "off"
    short_ace_points: int = 1
    opening_points: int = 50
    first_meld_run: bool = False
    joker_in_hand: Union[int, str] = 10
    express: bool = True
    express_multiplier: int = 2
    rummy_call: bool = False

    # -- construction -------------------------------------------------------------

    @classmethod
    def preset(cls, game: str = "kunken") -> "RuleSet":
        """The game's preset rule set.

        >>> RuleSet.preset("ordered-rummy").ace_points
        15
        """
        if game not in PRESETS:
            raise RuleSetError(Reason("unknown_game", {"game": game, "games": ", ".join(GAMES)}))
        return PRESETS[game]

    @classmethod
    def for_game(cls, game: Optional[str] = "kunken", switches: Optional[Mapping[str, Any]] = None) -> "RuleSet":
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
            raise RuleSetError(Reason("bad_field", {"field": "rules", "expected": M_("an object of house-rule switches")}))
        changes = {}
        for name, value in switches.items():
            if name == "game":
                if value != base.game:
                    raise RuleSetError(Reason("bad_switch_value", {"switch": name, "value": value, "expected": base.game}))
                continue
            if name not in SWITCHES:
                raise RuleSetError(Reason("unknown_switch", {"switch": name}))
            changes[name] = _coerce(name, value)
        rules = replace(base, **changes)._checked()
        if key is not None:
            if len(_INTERNED) >= 256:
                _INTERNED.clear()
            _INTERNED[key] = rules
        return rules

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RuleSet":
        """Rebuild a rule set stored with ``to_dict`` (the game's preset, then every stored value).

        >>> RuleSet.from_dict({"game": "ordered-rummy", "wild_card": "7♠"}).deck_jokers
        2
        """
        if not isinstance(data, Mapping):
            raise RuleSetError(Reason("bad_field", {"field": "rules", "expected": M_("an object")}))
        data = dict(data)
        game = data.pop("game", "kunken")
        return cls.for_game(game, data)

    def to_dict(self) -> dict:
        """Every value of the rule set as plain JSON-able data.

        >>> RuleSet.preset().to_dict()["joker_limit"]
        'half'
        """
        return {name: getattr(self, name) for name in _FIELD_NAMES}  # every value is a plain scalar

    def differences(self) -> dict:
        """The switches whose value differs from the game's preset.

        >>> RuleSet.for_game("kunken", {"opening_points": 40}).differences()
        {'opening_points': 40}
        """
        base = self.preset(self.game)
        return {name: getattr(self, name) for name in _FIELD_NAMES if getattr(base, name) != getattr(self, name)}

    def _checked(self) -> "RuleSet":
        if self.min_players > self.max_players:
            raise RuleSetError(Reason("bad_switch_value", {"switch": "min_players", "value": self.min_players,
                                                           "expected": Reason("expected_at_most",
                                                                              {"limit": self.max_players})}))
        return self

    # -- card values --------------------------------------------------------------

    @cached_property
    def wild(self) -> Optional[Card]:
        """The natural card that acts as a joker, if the table named one."""
        return Card.parse(self.wild_card) if self.wild_card else None

    def is_joker(self, card: Card) -> bool:
        """True if ``card`` plays as a joker: a printed joker, or a copy of the wild card.

        >>> RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"}).is_joker(Card.parse("7♠"))
        True
        """
        return card.rank is None or (self.wild_card is not None and card == self.wild)

    def points(self, card: Card) -> int:
        """Points of a natural card (jokers are valued by the card they stand for).

        >>> RuleSet.preset().points(Card.parse("7♥")), RuleSet.preset("ordered-rummy").points(Card.parse("7♥"))
        (5, 7)
        """
        return self.rank_points(card.rank)

    def face_points(self, card: Card) -> int:
        """Points of a card standing for nothing in particular: its own points, 0 for a joker.

        >>> RuleSet.preset().face_points(Card.parse("JK")), RuleSet.preset().face_points(Card.parse("K♠"))
        (0, 10)
        """
        return 0 if self.is_joker(card) else self.points_by_rank[card.rank]

    def rank_points(self, rank: Rank) -> int:
        """Points of a natural card of ``rank``.

        >>> RuleSet.preset().rank_points(Rank.ACE)
        10
        """
        return self.points_by_rank[rank]

    @cached_property
    def natural_meld_checks(self) -> dict:
        """Verdicts on melds without jokers (they do not depend on the table), kept per rule set."""
        return {}

    @cached_property
    def points_by_rank(self) -> dict:
        """Rank -> points of a natural card of that rank (computed once per rule set)."""
        table = {}
        for rank in Rank:
            if rank == Rank.ACE:
                table[rank] = self.ace_points
            elif rank >= Rank.JACK:
                table[rank] = self.court_points
            else:
                table[rank] = int(rank) if self.number_points is None else self.number_points
        return table

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


_FIELD_NAMES = tuple(f.name for f in fields(RuleSet))

#: Rule sets already built, by (game, switches): a session's stored rules are read on every
#: request, and the same value object keeps its per-rule-set caches (``natural_meld_checks``).
_INTERNED: dict = {}


def _intern_key(game: str, switches: Any):
    """A hashable key for ``switches``, or None when they are not plain hashable values."""
    if not isinstance(switches, Mapping):
        return None
    try:
        key = (game, tuple(sorted(switches.items())))
        hash(key)
    except TypeError:
        return None
    return key


_JOKER_LIMIT = {
    "half": lambda n: n // 2,
    "two": lambda n: 1 if n <= 3 else 2,
    "one": lambda n: 1,
    "minority": lambda n: (n - 1) // 2,
}


def _bool(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "on", "yes", "1"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "off", "no", "0", ""):
        return False
    raise ValueError


def _int_range(lo, hi):
    def convert(value):
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, str):
            value = int(value.strip())
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError
        return value
    convert.expected = Reason("expected_range", {"lo": lo, "hi": hi})
    return convert


def _choice(*options):
    def convert(value):
        if value not in options:
            raise ValueError
        return value
    convert.expected = Reason("expected_one_of", {"options": ", ".join(options)})
    return convert


def _joker_in_hand(value):
    if value == "double":
        return value
    return _int_range(0, 1000)(value)


_joker_in_hand.expected = Reason("expected_range_or", {"lo": 0, "hi": 1000, "word": "double"})


def _optional_int(lo, hi):
    inner = _int_range(lo, hi)

    def convert(value):
        if value is None or value == "face":
            return None
        return inner(value)
    convert.expected = Reason("expected_range_or", {"lo": lo, "hi": hi, "word": "face"})
    return convert


def _wild_card(value):
    if value in (None, ""):
        return None
    card = Card.parse(value)
    if card.is_joker:
        raise ValueError
    return str(card)


_wild_card.expected = M_("a natural card such as 7♠, or nothing")
_bool.expected = M_("true or false")

#: Every switch a table may set, with its converter (which also validates).
SWITCHES = {
    "min_players": _int_range(1, 12),
    "max_players": _int_range(1, 12),
    "hand_size": _int_range(1, 20),
    "decks": _int_range(1, 4),
    "jokers": _int_range(0, 16),
    "wild_card": _wild_card,
    "ace_low": _bool,
    "wrap": _bool,
    "joker_limit": _choice(*JOKER_LIMITS),
    "no_adjacent_jokers": _bool,
    "number_points": _optional_int(0, 100),
    "court_points": _int_range(0, 100),
    "ace_points": _int_range(0, 100),
    "short_ace": _choice(*SHORT_ACE),
    "short_ace_points": _int_range(0, 100),
    "opening_points": _int_range(0, 1000),
    "first_meld_run": _bool,
    "joker_in_hand": _joker_in_hand,
    "express": _bool,
    "express_multiplier": _int_range(1, 10),
    "rummy_call": _bool,
}

#: The switches docs/rules.md names as house rules a table may turn (shown on the rules page).
HOUSE_RULES = ("ace_low", "wrap", "joker_limit", "no_adjacent_jokers", "ace_points", "hand_size",
               "opening_points", "joker_in_hand", "express_multiplier", "short_ace", "wild_card")


def _coerce(name: str, value: Any) -> Any:
    convert = SWITCHES[name]
    try:
        return convert(value)
    except (ValueError, TypeError, CardError):
        raise RuleSetError(Reason("bad_switch_value", {"switch": name, "value": value,
                                                       "expected": convert.expected})) from None


PRESETS = {
    "kunken": RuleSet(),
    "ordered-rummy": RuleSet(
        game="ordered-rummy", min_players=2, max_players=8, hand_size=8, number_points=None,
        court_points=10, ace_points=15, short_ace="run_of_three", opening_points=0,
        first_meld_run=True, joker_in_hand=25, express=False, express_multiplier=1, rummy_call=True),
}
