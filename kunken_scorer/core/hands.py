"""Cards left in hand in short form (``HandSummary``: counts by kind, points, or each card's rank, and the jokers),
and the ways a table may enter hands (``HAND_ENTRIES``, ``hand_entries``). Reading a whole player's record is
``reading``'s, which imports this module (its names are importable from there as before).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd
from typing import Any

from .cards import Rank, parse_ranks
from .fields import DealInputError, bad_field, rules_arg
from .messages import M_, Reason
from .rules import RuleSet

__all__ = [
    "HAND_COUNTS",
    "HAND_ENTRIES",
    "HAND_POINTS",
    "HAND_RANKS",
    "HandSummary",
    "hand_entries",
    "natural_count",
]

#: Short forms of a hand: counts by kind of card (games where every small card scores alike), points, or each
#: card's rank (suits change no points: the hand as the table typed it, its points derived).
HAND_COUNTS = ("small", "faces", "aces", "jokers")
HAND_POINTS = ("points", "jokers")
HAND_RANKS = ("ranks", "jokers")
#: How many cards of each kind one deck holds (small: 2..10 of four suits, faces: J Q K, aces).
_PER_DECK = {"small": 9 * 4, "faces": 3 * 4, "aces": 4}
#: The ways a table may enter the cards left in hand, the fewest taps first: each card's rank, the points, counts
#: by kind (only where small cards score alike), each card.
HAND_ENTRIES = ("ranks", "points", "counts", "cards")


@dataclass(frozen=True)
class HandSummary:
    """Cards left in hand in short form: counts by kind (``small`` 2–10, ``faces`` J Q K, ``aces``),
    the natural cards' ``points``, or each natural card's rank (``ranks``); and the ``jokers``. Scores as the
    same cards typed would.

    >>> hand = HandSummary.from_value({"small": 2, "faces": 1, "jokers": 1}, "hand")
    >>> hand.points_under(RuleSet.preset()), hand.jokers, hand.to_dict()
    (20, 1, {'small': 2, 'faces': 1, 'aces': 0, 'jokers': 1})
    >>> hand = HandSummary.from_value({"ranks": "9 9 К Д", "jokers": 1}, "hand")
    >>> hand.points_under(RuleSet.preset()), hand.to_dict()
    (30, {'ranks': '9 9 K Q', 'jokers': 1})
    >>> HandSummary.from_value({"points": -5}, "hand")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: hand.points: expected a whole number, 0 or more.
    """

    jokers: int = 0
    points: int | None = None
    small: int = 0
    faces: int = 0
    aces: int = 0
    #: the natural cards' ranks, as typed (None: the hand is not given by rank)
    ranks: tuple[Rank, ...] | None = None

    @classmethod
    def from_value(cls, value: Mapping[str, Any], where: str) -> HandSummary:
        """Read ``{"small", "faces", "aces", "jokers"}``, ``{"points", "jokers"}`` or ``{"ranks", "jokers"}``; bad
        values name the field."""
        keys: tuple[str, ...] = HAND_POINTS if "points" in value else HAND_RANKS if "ranks" in value else HAND_COUNTS
        for key in value:
            if key not in keys:
                unknown = {"field": f"{where}.{key}", "keys": ", ".join(keys)}
                raise DealInputError(Reason("hand_unknown_key", unknown, field=_hand_field(key)))
        counts: dict[str, Any] = {}
        if keys is HAND_RANKS:
            counts["ranks"] = _read_ranks(value["ranks"], f"{where}.ranks")
            keys = ("jokers",)
        for key in keys:
            n = value.get(key, 0)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise bad_field(f"{where}.{key}", M_("a whole number, 0 or more")).at(field=_hand_field(key))
            if n > 100_000:  # more than any decks hold, whatever the game: not worth reading
                params = {"field": f"{where}.{key}", "limit": 100_000}
                raise DealInputError(Reason("hand_count_too_big", params, field=_hand_field(key)))
            counts[key] = n
        return cls(**counts)

    def check_for(self, rules: RuleSet, where: str, recorded_anyway: bool = False) -> None:
        """Raise ``DealInputError`` (naming the field) when no hand of this game could be so.

        ``recorded_anyway``: a deal an import brings back as the table recorded it anyway, which an older
        release let through before jokers were limited to the decks' (5 jokers of 4). Its jokers may go up
        to the decks' plus a hand's cards (17 in Kunken): each doubles the minus, and more would make
        scores no statistics can keep (108 made a minus of 34 digits). Every other limit is today's.
        """
        # more jokers than the decks hold (14,300 of them, each doubling the minus, made a score with no str())
        most_jokers = rules.deck_jokers + (rules.hand_size if recorded_anyway else 0)
        if self.jokers > most_jokers:
            params = {"field": f"{where}.jokers", "limit": most_jokers}
            raise DealInputError(Reason("hand_count_too_big", params, field="jokers"))
        if self.ranks is not None:
            for rank in set(self.ranks):
                limit = 4 * rules.decks - (rules.decks if rules.wild is not None and rules.wild.rank == rank else 0)
                if self.ranks.count(rank) > limit:
                    params = {"field": f"{where}.ranks", "rank": str(rank), "limit": limit}
                    raise DealInputError(Reason("hand_rank_too_many", params, field="hand"))
            return
        if self.points is None:
            if self.small and rules.number_points is None:
                raise DealInputError(Reason("hand_small_not_alike", {"field": f"{where}.small"}, field="small"))
            for key in _PER_DECK:
                limit = natural_count(key, rules)
                if getattr(self, key) > limit:
                    params = {"field": f"{where}.{key}", "limit": limit}
                    if rules.wild is not None and _kind(rules.wild.rank) == key:  # its copies count as jokers
                        raise DealInputError(Reason("hand_count_wild", {**params, "wild": rules.wild_card}, field=key))
                    raise DealInputError(Reason("hand_count_too_big", params, field=key))
            return
        values = set(rules.points_by_rank.values())
        step = gcd(*values)  # 0 when no card is worth anything
        most = rules.decks * sum(rules.natural_points.values())  # the wild card's copies are jokers, worth nothing
        if (step and self.points % step) or self.points > most:
            params = {"field": f"{where}.points", "step": step, "most": most}
            raise DealInputError(Reason("hand_points_impossible", params, field="hand"))
        if not rules.hand_points >> self.points & 1:  # 1 point, or all the cards' 792 less 1 (ordered rummy)
            params = {"field": f"{where}.points", "points": self.points}
            raise DealInputError(Reason("hand_points_no_cards", params, field="hand"))

    def points_under(self, rules: RuleSet) -> int:
        """The natural cards' points under ``rules``."""
        if self.points is not None:
            return self.points
        by_rank = rules.points_by_rank
        if self.ranks is not None:
            return sum(map(by_rank.__getitem__, self.ranks))
        return self.small * (rules.number_points or 0) + self.faces * by_rank[Rank.KING] + self.aces * by_rank[Rank.ACE]

    @property
    def empty(self) -> bool:
        """True when the hand holds no card at all."""
        return not (self.jokers or self.points or self.small or self.faces or self.aces or self.ranks)

    @property
    def cards(self) -> int | None:
        """How many cards the hand holds (None: not known, a hand given in points)."""
        if self.points is not None:
            return None
        return self.jokers + (len(self.ranks) if self.ranks is not None else self.small + self.faces + self.aces)

    def to_dict(self) -> dict[str, Any]:
        """The short form in the API's shape."""
        if self.ranks is not None:
            return {"ranks": " ".join(str(r) for r in self.ranks), "jokers": self.jokers}
        if self.points is not None:
            return {"points": self.points, "jokers": self.jokers}
        return {"small": self.small, "faces": self.faces, "aces": self.aces, "jokers": self.jokers}


def _kind(rank: Rank | None) -> str:
    """The count a card of ``rank`` is entered under in a short-form hand: ``small``, ``faces`` or ``aces``."""
    return "aces" if rank == Rank.ACE else "faces" if rank is not None and rank >= Rank.JACK else "small"


def natural_count(kind: str, rules: RuleSet) -> int:
    """How many natural cards of a ``kind`` (``small``, ``faces``, ``aces``) the decks hold: a wild card's copies
    play as jokers, so they are counted under ``jokers``, not under their kind.

    >>> wild = RuleSet.for_game("kunken", {"wild_card": "7♠"})
    >>> natural_count("small", RuleSet.preset()), natural_count("small", wild), natural_count("faces", wild)
    (72, 70, 24)
    """
    wild = rules.wild
    return _PER_DECK[kind] * rules.decks - (rules.decks if wild is not None and _kind(wild.rank) == kind else 0)


def _read_ranks(value: Any, where: str) -> tuple[Rank, ...]:
    """The ranks of a hand given by rank: text of ranks (``9 9 K Q``, ``9 9 К Д``), no suits and no jokers (those are
    the hand's ``jokers``); ``DealInputError`` naming the field otherwise.

    >>> _read_ranks("10 в т", "hand.ranks")
    (<Rank.TEN: 10>, <Rank.JACK: 11>, <Rank.ACE: 14>)
    >>> _read_ranks("9 JK", "hand.ranks")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: hand.ranks: expected ranks without suits, like "9 9 K Q".
    """
    read = parse_ranks(value) if isinstance(value, str) and len(value) <= 2000 else None
    if read is None or read[1]:  # a joker is counted under "jokers"
        raise bad_field(where, M_('ranks without suits, like "9 9 K Q"'))
    return read[0]


def _hand_field(key: str) -> str:
    """The field a short-form hand's ``key`` is entered in: a count, its own; the points, the hand's."""
    return key if key in HAND_COUNTS else "hand"


def hand_entries(rules: RuleSet) -> tuple[str, ...]:
    """The ways a table of this game may enter cards left in hand: counts need small cards alike.

    >>> hand_entries(RuleSet.preset()), hand_entries(RuleSet.preset("ordered-rummy"))
    (('ranks', 'points', 'counts', 'cards'), ('ranks', 'points', 'cards'))
    """
    rules = rules_arg(rules)
    return HAND_ENTRIES if rules.number_points is not None else tuple(e for e in HAND_ENTRIES if e != "counts")
