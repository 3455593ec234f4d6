"""Runs: the cards of one meld checked as a run (one suit, consecutive ranks), every joker given its place.

The windows of consecutive ranks a run may take (with the ace low, or wrapping round K A 2, as the table
plays), the placements of the written cards in them, and the verdict on the best one. ``checker`` asks this
module of a meld whose cards are all of one suit.

>>> from collections import Counter
>>> from kunken_scorer.core.cards import format_cards, parse_cards
>>> from kunken_scorer.core.rules import RuleSet
>>> check = check_run(parse_cards("5♥ JK 7♥"), RuleSet.preset(), Reads(Counter()))
>>> check.legal, format_cards(check.cards), check.points
(True, '5♥ JK=6♥ 7♥', 15)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from .cards import Card, Rank, Suit
from .meldcheck import MeldCheck, MeldKind, Reads, checked, illegal, joker_limit_reason
from .messages import Reason
from .rules import SWITCHES, RuleSet

_ORDER = tuple(Rank)  # 2 .. A, the cycle used when wrap-around is on

#: consecutive ranks a run may take, low to high
_Window = tuple[Rank, ...]
#: (order, window, written): order[k] is the written index placed at window position k
_Placement = tuple[list[int], _Window, bool]


def _windows(size: int, rules: RuleSet) -> tuple[_Window, ...]:
    """Every sequence of ``size`` consecutive ranks the rules allow, low to high."""
    return _window_table(size, rules.wrap, rules.ace_low)[0]


# pays: scoring 400 deals 1.35× and POST deals/score 2.76× slower without it (benchmarks/README.md, "Speed tricks
# kept"; an in-process A/B: 1.26×)
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


def check_run(meld: tuple[Card, ...], rules: RuleSet, laid: Reads, any_order: bool = False) -> MeldCheck:
    """The verdict on ``meld`` as a run: the first placement of its cards that is legal, else why none is.

    A meld is read as written when it can be; ``any_order`` (cards added to a run on the table, whose place the
    record does not give) tries its cards in every order too before refusing: a joker added to ``5♥ 6♥ JK=7♥``
    at a table without adjacent jokers goes below the 5♥, not beside the other joker.
    """
    naturals = [c for c in meld if c not in rules.joker_cards]
    suit = (naturals or [c.pin for c in meld if c.is_joker and c.pin])[0].suit
    assert suit is not None  # a natural card's, or a pinned joker's card's
    size = len(meld)
    if size > 13:
        return illegal(meld, MeldKind.RUN, rules, Reason("run_too_many_cards", {"count": size}))
    seen: set[Card] = set()
    for card in naturals:
        if card in seen:
            return illegal(meld, MeldKind.RUN, rules, Reason("run_duplicate_card", {"card": str(card)}))
        seen.add(card)
    for card in meld:
        if card.is_joker and card.pin is not None and card.pin.suit != suit:
            return illegal(
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
            return illegal(
                meld, MeldKind.RUN, rules, Reason("pin_mismatch", {"joker": str(meld[pinned]), "needed": str(needed)})
            )
        return illegal(meld, MeldKind.RUN, rules, _gap_reason(naturals, meld, rules))
    first = None
    for order, window, written in placements:
        verdict = _run_verdict(meld, order, window, suit, written, rules, laid)
        if verdict.legal:
            return verdict
        first = first or verdict
    assert first is not None  # there was a placement
    if any_order and placements[0][2]:  # read as written, and no reading so was legal: any other reading
        for order, window, written in _sorted_placements(meld, windows, rules, pins=True):
            verdict = _run_verdict(meld, order, window, suit, written, rules, laid)
            if verdict.legal:
                return verdict
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
            # spare jokers high: the window starting at a card laid first. A 13-card run holds every rank and
            # cannot grow, so there that says nothing (an ace laid at the low end of A..K is no reason to put the
            # ace low when a joker is the 2): the ace stays high unless the cards need it low
            low_end = len(window) == 13 or window[0] in wanted
            candidates.append((low_end, not _wraps(window), window[0] != Rank.ACE, s, window))
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
    laid: Reads,
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
        reasons.insert(0, joker_limit_reason(jokers, size, limit, rules))
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
    return checked(meld, MeldKind.RUN, rules, assigned, display, points, reasons)


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
        # the table's own rules but for the wrap: a wild card stays a joker (its copy is no natural 7♠ to place)
        wrap_rules = replace(rules, wrap=True, ace_low=True)
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
