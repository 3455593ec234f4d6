"""Meld checks: sets, runs, jokers, and the dispute questions built on them.

>>> from kunken_scorer.core.rules import RuleSet
>>> kunken = RuleSet.preset("kunken")
>>> check = check_meld("5♥ JK 7♥", kunken)
>>> check.legal, str(check.kind), check.points, format_cards(check.cards)
(True, 'run', 15, '5♥ JK=6♥ 7♥')
>>> [r.code for r in check_meld("K♦ K♦ K♥", kunken).reasons]
['set_duplicate_card']
>>> format_cards(check_meld("K♠ K♣ JK", kunken).joker_options), check_meld("K♠ K♣ JK", kunken).open_jokers
('K♥ K♦', (2,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from .cards import Card, CardsLike, Rank, Suit, format_cards, parse_cards
from .messages import M_, KunkenError, Reason
from .rules import SWITCHES, RuleSet

_ORDER = tuple(Rank)  # 2 .. A, the cycle used when wrap-around is on
_SUITS = tuple(Suit)

#: consecutive ranks a run may take, low to high
_Window = tuple[Rank, ...]
#: (order, window, written): order[k] is the written index placed at window position k
_Placement = tuple[list[int], _Window, bool]


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

    def to_dict(self) -> dict[str, Any]:
        """The verdict in the JSON API's shape.

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


def laid_counts(melds: Iterable[Iterable[Card]], rules: RuleSet) -> Counter[Card]:
    """Count the natural cards laid in ``melds`` (jokers and wild cards are not natural copies).

    >>> laid_counts([parse_cards("6♥ 6♥ JK")], RuleSet.preset())[Card.parse("6♥")]
    2
    """
    joker_cards = rules.joker_cards
    return Counter([c for meld in melds for c in meld if c not in joker_cards])


def check_meld(cards: CardsLike, rules: RuleSet, table: Iterable[CardsLike] = ()) -> MeldCheck:
    """Check one meld against the rules, given the other melds already on the table.

    >>> format_cards(check_meld("5♥ 6♥ JK", RuleSet.preset()).cards)
    '5♥ 6♥ JK=7♥'
    >>> check_meld("6♥ JK 8♥", RuleSet.preset(), table=["6♥ 7♥ 8♥", "7♥ 7♠ 7♦"]).reasons[0].code
    'joker_copies_played'
    """
    meld = parse_cards(cards)
    printed = _printed_jokers(meld, rules)
    if printed is not None:
        return _illegal(meld, None, rules, printed)
    laid = laid_counts((parse_cards(m) for m in table), rules)
    laid.update(c for c in meld if c not in rules.joker_cards)
    return check_parsed(meld, rules, laid)


def _printed_jokers(cards: Sequence[Card], rules: RuleSet) -> Reason | None:
    """A table with a wild card plays without printed jokers: one written into a single check is refused
    (a recorded deal holding one has the problem ``joker_not_in_deck``, counted over the whole deal).

    >>> _printed_jokers(parse_cards("5♥ JK 7♥"), RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"})).code
    'joker_not_in_deck'
    """
    count = sum(1 for card in cards if card.rank is None)
    return Reason("joker_not_in_deck", {"count": count, "wild": rules.wild_card}) if rules.wild_card and count else None


def check_parsed(meld: Sequence[Card], rules: RuleSet, laid: Counter[Card]) -> MeldCheck:
    """Check parsed cards; ``laid`` counts every natural card on the table, this meld's included."""
    meld = tuple(meld)
    # A verdict depends on the cards and on the counts of ``laid`` its check looked up (a joker's
    # card with every copy on the table); a meld without jokers looks up none. So a verdict is
    # kept with those counts and stands while they are the same: a deal is checked again on every
    # part a seat writes and on save, and common melds recur from deal to deal.
    memo = _verdicts(rules)
    kept = memo.get(meld, ())
    for verdict, counts in kept:
        if not counts or all(laid[card] == count for card, count in counts):  # most melds read no count
            return verdict
    if not meld:
        return _illegal(meld, None, rules, Reason("no_cards", {}))
    if len(meld) < 3:
        return _illegal(meld, None, rules, Reason("too_few_cards", {"count": len(meld)}))
    joker_cards = rules.joker_cards
    naturals = [c for c in meld if c not in joker_cards]
    reads = _Reads(laid)
    verdict = _check_cards(meld, rules, reads, naturals if len(naturals) < len(meld) else None)
    if len(memo) >= 8192:
        memo.clear()
    memo[meld] = ((verdict, tuple(reads.seen.items())), *kept[:3])  # the latest four tables' verdicts
    return verdict


#: id of a rule set -> (the rule set, meld -> its latest verdicts, each with the table counts its check read:
#: ``check_parsed``). The rule set is kept in the entry, so its id stays its own while the entry lives; a
#: session's rules are one object from request to request (``rules._INTERNED``), so they find their verdicts.
#: Pays: scoring 400 deals 1.96× and POST deals/score 1.92× slower without it (benchmarks/bench_tricks.py
#: meld_checks, 2 rounds; an in-process A/B: 2.2×).
_Kept = dict[tuple[Card, ...], tuple[tuple[MeldCheck, tuple[tuple[Card, int], ...]], ...]]
_VERDICTS: dict[int, tuple[RuleSet, _Kept]] = {}


def _verdicts(rules: RuleSet) -> _Kept:
    """The kept verdicts of ``rules`` (of at most 64 rule sets and 8,192 melds each, then forgotten at once)."""
    kept = _VERDICTS.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    if len(_VERDICTS) >= 64:
        _VERDICTS.clear()
    memo: _Kept = {}
    _VERDICTS[id(rules)] = (rules, memo)
    return memo


class _Reads:
    """``laid`` as one meld's check reads it: every count it looks up is noted in ``seen``."""

    __slots__ = ("laid", "seen")

    def __init__(self, laid: Counter[Card]) -> None:
        self.laid = laid
        self.seen: dict[Card, int] = {}

    def __getitem__(self, card: Card) -> int:
        count = self.seen[card] = self.laid[card]
        return count


def _check_cards(meld: tuple[Card, ...], rules: RuleSet, laid: _Reads, naturals: list[Card] | None = None) -> MeldCheck:
    if naturals is None:
        naturals = list(meld)
    fixed = naturals or [c.pin for c in meld if c.is_joker and c.pin]
    if not fixed:
        limit = rules.joker_limit_for(len(meld))
        return _illegal(meld, None, rules, _joker_limit_reason(len(meld), len(meld), limit, rules))
    ranks = {c.rank for c in fixed}
    suits = {c.suit for c in fixed}
    if len(ranks) == 1 and len(suits) == 1 and len(fixed) == 1:
        as_set = _check_set(meld, rules, laid)
        if as_set.legal:
            return as_set
        as_run = _check_run(meld, rules, laid)
        return as_run if as_run.legal else as_set
    if len(ranks) == 1:
        return _check_set(meld, rules, laid)
    if len(suits) == 1:
        return _check_run(meld, rules, laid)
    return _illegal(meld, None, rules, Reason("mixed_cards", {}))


def _joker_limit_reason(jokers: int, size: int, limit: int, rules: RuleSet) -> Reason:
    return Reason(
        "joker_limit",
        {"jokers": jokers, "cards": size, "limit": limit, "rule": SWITCHES["joker_limit"].words[rules.joker_limit]},
    )


def _illegal(meld: Sequence[Card], kind: MeldKind | None, rules: RuleSet, *reasons: Reason) -> MeldCheck:
    points = tuple(rules.face_points(c) for c in meld)
    return MeldCheck(False, kind, sum(points), tuple(meld), tuple(reasons), tuple(meld), points, tuple(meld))


def _verdict(
    meld: Sequence[Card],
    kind: MeldKind,
    assigned: Sequence[Card],
    display: Sequence[Card],
    points: Sequence[int],
    reasons: Sequence[Reason],
    joker_options: tuple[Card, ...] = (),
    open_jokers: tuple[int, ...] = (),
) -> MeldCheck:
    return MeldCheck(
        not reasons,
        kind,
        sum(points),
        tuple(display),
        tuple(reasons),
        tuple(assigned),
        tuple(points),
        tuple(meld),
        joker_options,
        open_jokers,
    )


# -- sets --------------------------------------------------------------------------------


def _check_set(meld: tuple[Card, ...], rules: RuleSet, laid: _Reads) -> MeldCheck:
    naturals = [c for c in meld if c not in rules.joker_cards]
    rank = (naturals or [c.pin for c in meld if c.is_joker and c.pin])[0].rank
    assert rank is not None  # a natural card's, or a pinned joker's card's
    if len(meld) > 4:
        return _illegal(meld, MeldKind.SET, rules, Reason("set_too_many_cards", {"count": len(meld)}))
    reasons: list[Reason] = []
    jokers = sum(1 for c in meld if c in rules.joker_cards)
    limit = rules.joker_limit_for(len(meld))
    if jokers > limit:
        reasons.append(_joker_limit_reason(jokers, len(meld), limit, rules))
    seen: set[Card] = set()
    for card in naturals:
        if card in seen:
            return _illegal(meld, MeldKind.SET, rules, Reason("set_duplicate_card", {"card": str(card)}), *reasons)
        seen.add(card)
    for card in meld:
        if card.is_joker and card.pin is not None:
            if card.pin.rank != rank:
                reasons.append(Reason("pin_wrong_rank", {"joker": str(card), "rank": str(rank)}))
            elif card.pin in seen:
                reasons.append(Reason("set_duplicate_card", {"card": str(card.pin)}))
            elif laid[card.pin] >= rules.decks:
                reasons.append(Reason("joker_copies_played", {"card": str(card.pin)}))
            seen.add(card.pin)
    assigned = list(meld)
    free = [i for i, card in enumerate(meld) if card.pin is None and card in rules.joker_cards]
    options: tuple[Card, ...] = ()
    if free:
        open_cards = [c for c in (Card(rank, s) for s in _SUITS) if c not in seen and laid[c] < rules.decks]
        options = tuple(open_cards) if len(open_cards) > len(free) else ()
        for i in free:
            if not open_cards:
                reasons.append(Reason("set_joker_no_suit", {"rank": str(rank)}))
                continue
            assigned[i] = Card.joker(open_cards.pop(0))
    points = [rules.points_by_rank[rank]] * len(meld)
    reasons = _dedupe(reasons)
    if reasons or not options:  # only a legal set's jokers keep an open suit
        return _verdict(meld, MeldKind.SET, assigned, assigned, points, reasons)
    return _verdict(meld, MeldKind.SET, assigned, assigned, points, reasons, options, tuple(free))


def _dedupe(reasons: list[Reason]) -> list[Reason]:
    out: list[Reason] = []
    for r in reasons:
        if r not in out:
            out.append(r)
    return out


# -- runs --------------------------------------------------------------------------------


def _windows(size: int, rules: RuleSet) -> tuple[_Window, ...]:
    """Every sequence of ``size`` consecutive ranks the rules allow, low to high."""
    return _window_table(size, rules.wrap, rules.ace_low)[0]


# pays: scoring 400 deals 1.35× and POST deals/score 2.76× slower without it (benchmarks/bench_tricks.py windows,
# 2 rounds; an in-process A/B: 1.26×)
@cache
def _window_table(
    size: int, wrap: bool, ace_low: bool
) -> tuple[tuple[_Window, ...], dict[tuple[Rank, int], list[_Window]]]:
    """The windows of ``size`` ranks, and an index (rank, position) -> windows holding it there."""
    if wrap:
        windows = tuple(tuple(_ORDER[(s + i) % 13] for i in range(size)) for s in range(13))
    else:
        low = 1 if ace_low else 2
        windows = tuple(
            tuple(Rank.ACE if v == 1 else Rank(v) for v in range(s, s + size)) for s in range(low, 15 - size + 1)
        )
    index: dict[tuple[Rank, int], list[_Window]] = {}
    for window in windows:
        for pos, rank in enumerate(window):
            index.setdefault((rank, pos), []).append(window)
    return windows, index


def _wraps(window: _Window) -> bool:
    """True when the window goes round the corner K A 2 (the ace inside it, not at an end)."""
    return Rank.ACE in window[1:-1]


def _check_run(meld: tuple[Card, ...], rules: RuleSet, laid: _Reads) -> MeldCheck:
    naturals = [c for c in meld if c not in rules.joker_cards]
    suit = (naturals or [c.pin for c in meld if c.is_joker and c.pin])[0].suit
    assert suit is not None  # a natural card's, or a pinned joker's card's
    size = len(meld)
    if size > 13:
        return _illegal(meld, MeldKind.RUN, rules, Reason("run_too_many_cards", {"count": size}))
    seen: set[Card] = set()
    for card in naturals:
        if card in seen:
            return _illegal(meld, MeldKind.RUN, rules, Reason("run_duplicate_card", {"card": str(card)}))
        seen.add(card)
    for card in meld:
        if card.is_joker and card.pin is not None and card.pin.suit != suit:
            return _illegal(
                meld, MeldKind.RUN, rules, Reason("pin_wrong_suit", {"joker": str(card), "suit": suit.value})
            )
    windows = _windows(size, rules)
    placements = _written_placements(meld, windows, rules, pins=True)
    if not placements:
        placements = _sorted_placements(meld, windows, rules, pins=True)
    if not placements:
        loose = _written_placements(meld, windows, rules, pins=False) or _sorted_placements(
            meld, windows, rules, pins=False
        )
        if loose:
            order, window, _ = loose[0]
            pinned = next(
                i
                for i, c in enumerate(meld)
                if c.is_joker and c.pin is not None and Card(window[order.index(i)], suit) != c.pin
            )
            needed = Card(window[order.index(pinned)], suit)
            return _illegal(
                meld, MeldKind.RUN, rules, Reason("pin_mismatch", {"joker": str(meld[pinned]), "needed": str(needed)})
            )
        return _illegal(meld, MeldKind.RUN, rules, _gap_reason(naturals, meld, rules))
    first = None
    for order, window, written in placements:
        verdict = _run_verdict(meld, order, window, suit, written, rules, laid)
        if verdict.legal:
            return verdict
        first = first or verdict
    assert first is not None  # there was a placement
    return first


def _written_placements(
    meld: tuple[Card, ...], windows: tuple[_Window, ...], rules: RuleSet, pins: bool
) -> list[_Placement]:
    """Placements where the cards as written (ascending, else descending) form the window."""
    out: list[_Placement] = []
    size = len(meld)
    joker_cards = rules.joker_cards
    anchor: tuple[int, Rank] | None = None  # the first card whose rank is known: (written index, rank)
    for i, c in enumerate(meld):
        known = c.rank if c not in joker_cards else c.pin.rank if pins and c.pin is not None else None
        if known is not None:
            anchor = (i, known)
            break
    index = _window_table(size, rules.wrap, rules.ace_low)[1]
    for descending in (False, True):
        candidates: Sequence[_Window]
        if anchor is None:
            candidates = windows
        else:
            pos = size - 1 - anchor[0] if descending else anchor[0]
            candidates = index.get((anchor[1], pos), ())
        for window in candidates:
            seq = window[::-1] if descending else window
            for card, rank in zip(meld, seq, strict=True):
                if card in joker_cards:
                    if pins and card.pin is not None and card.pin.rank != rank:
                        break
                elif card.rank != rank:
                    break
            else:
                order = list(range(size))[::-1] if descending else list(range(size))
                out.append((order, window, True))
    return out


def _sorted_placements(
    meld: tuple[Card, ...], windows: tuple[_Window, ...], rules: RuleSet, pins: bool
) -> list[_Placement]:
    """Placements that reorder the cards: naturals sorted, gaps filled, spare jokers high."""
    fixed: dict[int, Rank | None] = {}
    for i, c in enumerate(meld):
        if c not in rules.joker_cards:
            fixed[i] = c.rank
        elif pins and c.pin is not None:
            fixed[i] = c.pin.rank
    if len(set(fixed.values())) != len(fixed):
        return []
    wanted = set(fixed.values())
    candidates = []
    for s, window in enumerate(windows):
        if wanted <= set(window):
            # a 13-card run holds every rank: the ace stays high unless the cards need it low
            candidates.append((window[0] in wanted, not _wraps(window), window[0] != Rank.ACE, s, window))
    candidates.sort(reverse=True)
    out: list[_Placement] = []
    for *_, window in candidates:
        slots: list[int | None] = [None] * len(meld)  # slots[k] = written index placed at window position k
        free = [i for i in range(len(meld)) if i not in fixed]
        for i, rank in fixed.items():
            slots[window.index(rank)] = i
        order = [free.pop(0) if i is None else i for i in slots]
        out.append((order, window, False))
    return out


def _run_verdict(
    meld: tuple[Card, ...],
    order: list[int],
    window: _Window,
    suit: Suit,
    written: bool,
    rules: RuleSet,
    laid: _Reads,
) -> MeldCheck:
    size = len(meld)
    reasons: list[Reason] = []
    assigned = list(meld)
    joker_slots: list[int] = []
    joker_cards = rules.joker_cards
    for k, i in enumerate(order):
        if meld[i] in joker_cards:
            card = Card(window[k], suit)
            joker_slots.append(k)
            assigned[i] = Card.joker(card)
            if laid[card] >= rules.decks:
                reasons.append(Reason("joker_copies_played", {"card": str(card)}))
    jokers = len(joker_slots)
    limit = rules.joker_limit_for(size)
    if jokers > limit:
        reasons.insert(0, _joker_limit_reason(jokers, size, limit, rules))
    if rules.no_adjacent_jokers and any(b - a == 1 for a, b in zip(joker_slots, joker_slots[1:], strict=False)):
        reasons.append(Reason("adjacent_jokers", {"switch": SWITCHES["no_adjacent_jokers"].label}))
    points = [0] * size
    by_rank = rules.points_by_rank
    for k, i in enumerate(order):
        rank = window[k]
        points[i] = by_rank[rank]
        if rank == Rank.ACE and _short_ace(window, k, rules):
            points[i] = rules.short_ace_points
    display = assigned if written else [assigned[i] for i in order]
    return _verdict(meld, MeldKind.RUN, assigned, display, points, reasons)


def _short_ace(window: _Window, k: int, rules: RuleSet) -> bool:
    if rules.short_ace == "run_of_three":
        return len(window) <= 3
    if rules.short_ace == "low":
        return k + 1 < len(window) and window[k + 1] == Rank.TWO
    return False


def _gap_reason(naturals: list[Card], meld: tuple[Card, ...], rules: RuleSet) -> Reason:
    """Why no window holds these cards: the ace, or how many gaps there are to fill."""
    jokers = len(meld) - len(naturals)
    values = sorted(c.rank.value for c in naturals if c.rank is not None)  # every natural card has a rank
    has_ace = Rank.ACE.value in values
    options = [values]
    if has_ace:
        options.append(sorted(1 if v == 14 else v for v in values))
    missing = [opt[-1] - opt[0] + 1 - len(opt) for opt in options]
    if has_ace and not rules.ace_low and missing[1] < missing[0]:  # read low, the ace would be nearer the rest
        return Reason("ace_low_off", {"switch": SWITCHES["ace_low"].label})
    if has_ace and not rules.wrap:
        wrap_rules = RuleSet.for_game(rules.game, {"wrap": True, "ace_low": True})
        if _sorted_placements(meld, _windows(len(meld), wrap_rules), wrap_rules, pins=False):
            return Reason("ace_high_and_low", {})
    gaps = max(0, min(missing))
    return Reason(
        "run_not_consecutive",
        {
            "missing": gaps,
            "jokers": jokers,
            "missing_cards": Reason("count_cards", {"count": gaps}),
            "joker_count": Reason("count_jokers", {"count": jokers}) if jokers else Reason("no_joker", {}),
        },
    )


# -- disputes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SwapCheck:
    """May this natural card replace a joker in this meld?"""

    legal: bool
    reasons: tuple[Reason, ...] = ()
    joker: int | None = None
    meld: MeldCheck | None = None

    def to_dict(self) -> dict[str, Any]:
        """The verdict in the JSON API's shape."""
        return {"legal": self.legal, "reasons": [r.message for r in self.reasons]}


def check_swap(
    meld: CardsLike, card: CardsLike, rules: RuleSet, table: Iterable[CardsLike] = (), has_layout: bool = True
) -> SwapCheck:
    """May ``card`` replace a joker in ``meld`` (in a set, any suit the set lacks)?

    Only a player with a layout of their own may swap: ``has_layout=False`` says no.

    >>> kunken = RuleSet.preset()
    >>> check_swap("JK K♠ K♣", "K♦", kunken).legal, check_swap("JK K♠ K♣", "K♠", kunken).legal
    (True, False)
    >>> [r.code for r in check_swap("JK K♠ K♣", "K♦", kunken, has_layout=False).reasons]
    ['swap_no_layout']
    >>> [r.code for r in check_swap("JK K♠ K♣", "K♦", kunken, table=["K♦ K♦ K♥"]).reasons]  # a third K♦
    ['too_many_copies']
    """
    cards = parse_cards(card)
    written = parse_cards(meld)
    printed = _printed_jokers(written, rules)
    if printed is not None:
        return SwapCheck(False, (printed,), meld=_illegal(written, None, rules, printed))
    laid = laid_counts((parse_cards(m) for m in table), rules)
    laid.update(c for c in written if c not in rules.joker_cards)
    check = check_parsed(written, rules, laid)
    if len(cards) != 1 or cards[0] in rules.joker_cards:
        shown = format_cards(cards) or "—"
        return SwapCheck(False, (Reason("swap_not_natural", {"card": shown}),), meld=check)
    swap = swap_into(check, cards[0], rules)
    if swap.legal and laid[cards[0]] >= rules.decks:  # every copy the decks hold is on the table already
        copies = Reason("too_many_copies", {"card": str(cards[0]), "count": laid[cards[0]] + 1, "decks": rules.decks})
        return SwapCheck(False, (copies,), swap.joker, check)
    if swap.legal and not has_layout:
        return SwapCheck(False, (Reason("swap_no_layout", {}),), swap.joker, check)
    return swap


def swap_into(check: MeldCheck, natural: Card, rules: RuleSet) -> SwapCheck:
    """May the natural card ``natural`` replace a joker of the checked meld? ``joker``: which one."""
    positions = [i for i, c in enumerate(check.written) if c in rules.joker_cards]
    if not positions:
        return SwapCheck(False, (Reason("swap_no_joker", {}),), meld=check)
    if not check.legal:
        return SwapCheck(False, (Reason("swap_illegal_meld", {}),) + check.reasons, meld=check)
    if check.kind == MeldKind.SET:
        naturals = [c for c in check.written if c not in rules.joker_cards]
        rank = (naturals or [c.pin for c in check.written if c.is_joker and c.pin])[0].rank  # as _check_set reads it
        if natural.rank != rank:
            return SwapCheck(
                False, (Reason("swap_set_wrong_rank", {"card": str(natural), "rank": str(rank)}),), meld=check
            )
        if natural in [c for c in check.written if c not in rules.joker_cards]:
            return SwapCheck(False, (Reason("swap_set_suit_taken", {"card": str(natural)}),), meld=check)
        pinned = [i for i in positions if check.written[i].is_joker and check.written[i].pin == natural]
        return SwapCheck(True, (), (pinned or positions)[0], check)
    for i in positions:
        if check.assigned[i].pin == natural:
            return SwapCheck(True, (), i, check)
    stands = ", ".join(str(check.assigned[i].pin) for i in positions)
    return SwapCheck(False, (Reason("swap_wrong_card", {"card": str(natural), "stands_for": stands}),), meld=check)


def opens_with_run(checks: Iterable[MeldCheck]) -> bool:
    """Melds laid in one turn that may open a layout where the first meld must be a run: one of them is a
    legal run (a record does not say in which order melds of one turn were laid).

    >>> opens_with_run([check_meld("7♣ 7♦ 7♥", RuleSet.preset()), check_meld("2♥ 3♥ 4♥", RuleSet.preset())])
    True
    """
    return any(c.kind == MeldKind.RUN and c.legal for c in checks)


@dataclass(frozen=True)
class OpeningCheck:
    """May a player take the bank with this card and these melds?"""

    legal: bool
    points: int
    reasons: tuple[Reason, ...] = ()
    melds: tuple[MeldCheck, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The verdict in the JSON API's shape."""
        return {"legal": self.legal, "points": self.points, "reasons": [r.message for r in self.reasons]}


def check_opening(
    melds: Sequence[CardsLike],
    bank_card: CardsLike,
    rules: RuleSet,
    has_layout: bool = False,
    table: Iterable[CardsLike] = (),
) -> OpeningCheck:
    """Check taking the bank: legal melds, the bank card joined by two hand cards, enough points.

    >>> check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "7♥", RuleSet.preset()).to_dict()
    {'legal': True, 'points': 50, 'reasons': []}
    """
    parsed = [parse_cards(m) for m in melds]
    bank = parse_cards(bank_card)
    if len(bank) != 1:
        raise KunkenError(Reason("bad_field", {"field": "bank_card", "expected": M_("exactly one card")}))
    bank_card_ = bank[0]
    laid = laid_counts([parse_cards(m) for m in table] + parsed, rules)
    checks = tuple(check_parsed(m, rules, laid) for m in parsed)
    reasons = []
    for n, check in enumerate(checks, 1):
        if not check.legal:
            reasons.append(Reason("opening_illegal_meld", {"meld": n, "why": list(check.reasons)}))
    points = sum(c.points for c in checks)
    holders = [m for m in parsed if bank_card_ in m]
    if not holders:
        reasons.append(Reason("opening_bank_card_missing", {"card": str(bank_card_)}))
    elif all(len(m) - 1 < 2 for m in holders):
        reasons.append(Reason("opening_bank_card_alone", {"card": str(bank_card_)}))
    if not has_layout:
        if points < rules.opening_points:
            reasons.append(Reason("opening_too_few_points", {"points": points, "needed": rules.opening_points}))
        if rules.first_meld_run and checks and not opens_with_run(checks):
            reasons.append(Reason("opening_first_meld_run", {}))
    return OpeningCheck(not reasons, points, tuple(reasons), checks)


@dataclass(frozen=True)
class DiscardCheck:
    """Does a discarded card fit a meld on the table ("Rummy!")?"""

    fits: bool
    meld: int | None
    reasons: tuple[Reason, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The verdict in the JSON API's shape."""
        return {"fits": self.fits, "meld": self.meld, "reasons": [r.message for r in self.reasons]}


def check_discard(card: CardsLike, melds: Sequence[CardsLike], rules: RuleSet) -> DiscardCheck:
    """Find the first meld on the table that ``card`` would legally extend.

    >>> check_discard("Q♦", ["9♦ 10♦ J♦"], RuleSet.preset("ordered-rummy")).to_dict()
    {'fits': True, 'meld': 0, 'reasons': []}
    """
    cards = parse_cards(card)
    if len(cards) != 1:
        raise KunkenError(Reason("bad_field", {"field": "card", "expected": M_("exactly one card")}))
    printed = _printed_jokers(cards, rules)
    if printed is not None:
        return DiscardCheck(False, None, (printed,))
    parsed = [parse_cards(m) for m in melds]
    laid = laid_counts(parsed, rules)
    illegal = []  # a line that is no meld cannot lie on the table: the answer says so when nothing fits
    for n, meld in enumerate(parsed):
        base = check_parsed(meld, rules, laid)
        if not base.legal:
            illegal.append(Reason("discard_illegal_meld", {"meld": n + 1, "why": list(base.reasons)}))
        elif extend(base, cards, rules, laid).legal:
            return DiscardCheck(True, n)
    return DiscardCheck(False, None, (*illegal, Reason("discard_no_fit", {"card": format_cards(cards)})))


def extend(base: MeldCheck, cards: Sequence[Card], rules: RuleSet, laid: Counter[Card]) -> MeldCheck:
    """Check ``base`` with ``cards`` added (a vist); ``laid`` must already count the added naturals.

    The result's last ``len(cards)`` entries of ``card_points`` are the added cards' points. A card a run's
    joker stands for cannot be added beside it: putting it in is a joker swap, and the reason says so.

    >>> extend(check_meld("5♥ JK 7♥", RuleSet.preset()), parse_cards("6♥"), RuleSet.preset(), Counter()).reasons[0].code
    'vist_fills_joker'
    """
    extended = tuple(base.extension_base()) + tuple(cards)
    if base.kind == MeldKind.RUN and base.legal:
        stood_for = {card.pin for card in base.cards if card.is_joker}
        filled = next((card for card in cards if card in stood_for and card not in rules.joker_cards), None)
        if filled is not None:
            return _illegal(extended, MeldKind.RUN, rules, Reason("vist_fills_joker", {"card": str(filled)}))
    return check_parsed(extended, rules, laid)


def check_vist(meld: CardsLike, cards: CardsLike, rules: RuleSet, table: Iterable[CardsLike] = ()) -> MeldCheck:
    """Check adding ``cards`` to ``meld``: the extended meld must still be legal.

    >>> check_vist("2♥ 3♥ 4♥", "5♥", RuleSet.preset()).legal
    True
    """
    base_cards = parse_cards(meld)
    added = parse_cards(cards)
    if not added:
        raise KunkenError(Reason("bad_field", {"field": "cards", "expected": M_("at least one card to add")}))
    printed = _printed_jokers(base_cards + added, rules)
    if printed is not None:
        return _illegal(base_cards + added, None, rules, printed)
    laid = laid_counts([parse_cards(m) for m in table] + [base_cards, added], rules)
    return extend(check_parsed(base_cards, rules, laid), added, rules, laid)
