"""Rule sets: a game's preset with the table's house-rule switches, as one value (``RuleSet``), and the
card values the checks read from it. The switches themselves (what each may be, and its words) are
``switches``'s; their names are importable from here as before.

>>> rules = RuleSet.for_game("kunken", {"joker_limit": "two"})
>>> str(rules.joker_limit), rules.opening_points
('two', 50)
>>> RuleSet.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

from .cards import ALL_NATURALS, Card, Rank
from .messages import M_, Reason
from .switches import (
    HOUSE_RULES,
    JOKER_LIMITS,
    KEY_SWITCHES,
    SHORT_ACE,
    SWITCHES,
    JokerLimit,
    RuleSetError,
    ShortAce,
    Switch,
    bad_switch_value,
)

__all__ = [
    # rule sets, this module's own
    "GAMES",
    "PRESETS",
    "RuleLine",
    "RuleSet",
    "raw_switch",
    "rule_lines",
    "read_rules",
    "switch_values",
    # the switches (``switches``): importable from here as before
    "HOUSE_RULES",
    "JOKER_LIMITS",
    "KEY_SWITCHES",
    "SHORT_ACE",
    "SWITCHES",
    "JokerLimit",
    "RuleSetError",
    "ShortAce",
    "Switch",
    "bad_switch_value",
]

GAMES = ("kunken", "ordered-rummy")


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
    #: a joker may be swapped out of the swapper's own melds too (the rule texts: only the other players')
    swap_own_melds: bool = False

    def __post_init__(self) -> None:
        """Check every value as it is built: a rule set that exists is one the scorer can play.

        >>> RuleSet(joker_limit="bogus")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        kunken_scorer.core.switches.RuleSetError: House rule “Jokers allowed in one meld”: "bogus" is not allowed;
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

    def house_rules_changed(self) -> dict[str, Any]:
        """The ``differences`` a page reports: those that mean something under these rules (``Switch.applies``: the
        express's multiplier in a game without express is no house rule there).

        >>> RuleSet.for_game("ordered-rummy", {"express_multiplier": 3}).house_rules_changed()
        {}
        """
        return {
            name: v for name, v in self.differences().items() if name not in SWITCHES or SWITCHES[name].applies(self)
        }

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
    if not isinstance(data, Mapping):
        raise RuleSetError(Reason("bad_field", {"field": "request", "expected": M_("an object")}))
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise RuleSetError(Reason("bad_field", {"field": "game", "expected": M_('"kunken" or "ordered-rummy"')}))
    return RuleSet.for_game(game or "kunken", data.get("rules"))


@dataclass(frozen=True)
class RuleLine:
    """One house-rule switch as a page shows it: its label, help, value and the preset's value, in words."""

    name: str
    label: str
    help: str | None
    value: str
    preset: str
    differs: bool


def rule_lines(
    rules: RuleSet, names: Iterable[str], say: Callable[[str], str], describe: Callable[[Reason], str]
) -> list[RuleLine]:
    """The switches ``names`` of ``rules`` in words: ``say`` translates a label or help, ``describe`` a value.

    >>> [line] = rule_lines(RuleSet.for_game("kunken", {"ace_points": 5}), ["ace_points"], str, lambda r: r.message)
    >>> line.label, line.value, line.preset, line.differs
    ('Points for an ace', '5 points', '10 points', True)
    """
    preset = RuleSet.preset(rules.game)
    lines = []
    for name in names:
        switch, value, default = SWITCHES[name], getattr(rules, name), getattr(preset, name)
        lines.append(
            RuleLine(
                name,
                say(switch.label),
                say(switch.help) if switch.help else None,
                describe(switch.describe(value)),
                describe(switch.describe(default)),
                value != default,
            )
        )
    return lines


def switch_values(game: str) -> dict[str, Any]:
    """The values of the start form's switches for ``game``'s preset (as the form shows them: "" for none).

    >>> switch_values("ordered-rummy")["wild_card"], switch_values("no such game")["ace_points"]
    ('', 10)
    """
    preset = PRESETS.get(game, PRESETS["kunken"]).to_dict()
    return {name: "" if preset[name] is None else preset[name] for name in HOUSE_RULES}


def raw_switch(name: str, value: Any) -> Any:
    """A switch value as typed, ready for ``RuleSet.for_game`` (which reads and checks it): text stripped, and no
    wild card for a blank one.

    >>> raw_switch("wild_card", "  "), raw_switch("opening_points", " 40 ")
    (None, '40')
    """
    if isinstance(value, str):
        value = value.strip()
        if name == "wild_card" and not value:
            return None
    return value


_FIELD_NAMES = tuple(f.name for f in fields(RuleSet))


def _plain(value: Any) -> Any:
    """A switch value as a plain scalar (a choice's ``str``, not its enum member)."""
    return str(value) if isinstance(value, StrEnum) else value


#: Rule sets already built, by (game, switches): a session's stored rules are read on every
#: request, and the same value object keeps its cached properties (``joker_cards``, ``natural_points``, ...).
_InternKey = tuple[str, tuple[tuple[str, type, Any], ...]]
# pays: a session's rules read and a deal scored under them 1.95× slower without it, the rules read alone 8×
# (in-process A/B, issue 34; benchmarks/README.md, "Speed tricks kept": POST deals/score 1.47×)
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
