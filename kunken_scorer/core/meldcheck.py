"""What a meld check answers: the verdict on one meld (``MeldCheck``), and the pieces every check builds one
from. Checking the cards is ``checker``'s (sets) and ``runs``'s; the questions a table asks of melds are
``melds``'s, where these names are importable as before.

>>> from kunken_scorer.core.cards import parse_cards
>>> from kunken_scorer.core.rules import RuleSet
>>> why = Reason("set_duplicate_card", {"card": "K♠"})
>>> check = illegal(parse_cards("K♠ K♠ K♥"), MeldKind.SET, RuleSet.preset(), why)
>>> check.legal, check.points, [r.code for r in check.reasons]
(False, 30, ['set_duplicate_card'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card
from .messages import Reason
from .rules import SWITCHES, RuleSet


class MeldKind(StrEnum):
    """What a meld is: a set (cards of one rank) or a run (cards of one suit in order)."""

    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class MeldCheck:
    """The verdict on one meld: legal or not, its kind and points, and what every joker stands for."""

    legal: bool
    kind: MeldKind | None
    points: int
    cards: tuple[Card, ...]
    reasons: tuple[Reason, ...] = ()
    #: the cards in the order they were written, every joker pinned to what it stands for
    assigned: tuple[Card, ...] = ()
    #: the points of each card, in written order
    card_points: tuple[int, ...] = ()
    written: tuple[Card, ...] = ()
    #: in a legal set, the cards its unpinned jokers could stand for when there are more of them than
    #: such jokers (the joker then keeps an open suit), and the written positions of those jokers
    joker_options: tuple[Card, ...] = ()
    open_jokers: tuple[int, ...] = ()
    #: on a meld that is not legal though its jokers were placed, the points each card would score so, in written
    #: order: a recorded deal sets aside the reasons that depend on the order of play (``table.lenient``), and a
    #: meld legal but for those scores its jokers as placed
    placed_points: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The verdict in the JSON API's shape.

        >>> from kunken_scorer.core.melds import check_meld
        >>> check_meld("A♠ A♥ A♦", RuleSet.preset()).to_dict()
        {'legal': True, 'kind': 'set', 'points': 30, 'cards': ['A♠', 'A♥', 'A♦'], 'reasons': []}
        """
        return {
            "legal": self.legal,
            "kind": str(self.kind) if self.kind else None,
            "points": self.points,
            "cards": [str(c) for c in self.cards],
            "reasons": [r.message for r in self.reasons],
        }

    @property
    def jokers(self) -> tuple[tuple[int, Card], ...]:
        """(written position, card it stands for) for every joker that could be placed."""
        return tuple((i, c.pin) for i, c in enumerate(self.assigned) if c.is_joker and c.pin)

    def extension_base(self) -> tuple[Card, ...]:
        """The meld as later additions see it: run jokers keep their card; set jokers keep an open suit."""
        if self.kind == MeldKind.RUN and self.legal:
            return self.cards
        return self.written


def on_table(cards: Iterable[Card], rules: RuleSet) -> tuple[Card, ...]:
    """Cards as they lie on the table, for showing and for writing the table out again: at a wild-card
    table each joker is a copy of the wild card, in the place of the card it stands for (that deck has
    no printed jokers). Read again, a run written so in order means the same cards.

    >>> from kunken_scorer.core.cards import format_cards
    >>> from kunken_scorer.core.melds import check_meld
    >>> wild = RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"})
    >>> format_cards(on_table(check_meld("5♥ 7♠ 7♥", wild).cards, wild))
    '5♥ 7♠ 7♥'
    >>> format_cards(on_table(check_meld("5♥ JK 7♥", RuleSet.preset()).cards, RuleSet.preset()))
    '5♥ JK=6♥ 7♥'
    """
    wild = rules.wild
    if wild is None:
        return tuple(cards)
    return tuple(wild if card.is_joker else card for card in cards)


class Reads:
    """``laid`` as one meld's check reads it: every count it looks up is noted in ``seen``."""

    __slots__ = ("laid", "seen")

    def __init__(self, laid: Counter[Card]) -> None:
        self.laid = laid
        self.seen: dict[Card, int] = {}

    def __getitem__(self, card: Card) -> int:
        count = self.seen[card] = self.laid[card]
        return count


def joker_limit_reason(jokers: int, size: int, limit: int, rules: RuleSet) -> Reason:
    """Too many jokers in a meld of ``size`` cards, saying the table's switch."""
    return Reason(
        "joker_limit",
        {"jokers": jokers, "cards": size, "limit": limit, "rule": SWITCHES["joker_limit"].words[rules.joker_limit]},
    )


def illegal(meld: Sequence[Card], kind: MeldKind | None, rules: RuleSet, *reasons: Reason) -> MeldCheck:
    """The verdict on a meld that is not legal: its cards as written, each at its face points."""
    points = tuple(rules.face_points(c) for c in meld)
    return MeldCheck(False, kind, sum(points), tuple(meld), tuple(reasons), tuple(meld), points, tuple(meld))


def checked(
    meld: Sequence[Card],
    kind: MeldKind,
    rules: RuleSet,
    assigned: Sequence[Card],
    display: Sequence[Card],
    points: Sequence[int],
    reasons: Sequence[Reason],
    joker_options: tuple[Card, ...] = (),
    open_jokers: tuple[int, ...] = (),
) -> MeldCheck:
    """The verdict on a meld whose jokers were placed: legal when there is no reason against it. A meld that is
    not legal scores its cards at face value, whatever made it illegal (a joker counts nothing), as ``illegal``'s;
    the points as placed are kept in ``placed_points``.

    >>> from kunken_scorer.core.cards import parse_cards
    >>> meld = parse_cards("K♠ JK JK")
    >>> why = joker_limit_reason(2, 3, 1, RuleSet.preset())
    >>> check = checked(meld, MeldKind.SET, RuleSet.preset(), meld, meld, [10, 10, 10], [why])
    >>> check.legal, check.points, check.card_points, check.placed_points
    (False, 10, (10, 0, 0), (10, 10, 10))
    """
    if not reasons:
        return MeldCheck(
            True,
            kind,
            sum(points),
            tuple(display),
            (),
            tuple(assigned),
            tuple(points),
            tuple(meld),
            joker_options,
            open_jokers,
        )
    face = tuple(rules.face_points(card) for card in meld)
    return MeldCheck(
        False,
        kind,
        sum(face),
        tuple(display),
        tuple(reasons),
        tuple(assigned),
        face,
        tuple(meld),
        joker_options,
        open_jokers,
        tuple(points),
    )


def dedupe(reasons: list[Reason]) -> list[Reason]:
    """The reasons, each once, in order."""
    out: list[Reason] = []
    for r in reasons:
        if r not in out:
            out.append(r)
    return out
