"""The meld checker: one meld's cards judged as a set (here) or a run (``runs``), against the cards on the
table, and the verdicts kept per rule set; ``extend`` judges a meld with cards added (a vist).

Every question about melds (``melds``), and a recorded deal's melds, vists and swaps (``table``), come
down to ``check_parsed``. Its names are importable from ``melds`` as before.

>>> from kunken_scorer.core.cards import format_cards, parse_cards
>>> from kunken_scorer.core.rules import RuleSet
>>> meld = parse_cards("K♠ K♣ JK")
>>> check = check_parsed(meld, RuleSet.preset(), laid_counts([meld], RuleSet.preset()))
>>> check.legal, str(check.kind), format_cards(check.joker_options)
(True, 'set', 'K♥ K♦')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import Card, Suit
from .meldcheck import MeldCheck, MeldKind, Reads, checked, dedupe, illegal, joker_limit_reason
from .messages import Reason
from .rules import RuleSet
from .runs import check_run

_SUITS = tuple(Suit)


def laid_counts(melds: Iterable[Iterable[Card]], rules: RuleSet) -> Counter[Card]:
    """Count the natural cards laid in ``melds`` (jokers and wild cards are not natural copies).

    >>> from kunken_scorer.core.cards import parse_cards
    >>> laid_counts([parse_cards("6♥ 6♥ JK")], RuleSet.preset())[Card.parse("6♥")]
    2
    """
    joker_cards = rules.joker_cards
    return Counter([c for meld in melds for c in meld if c not in joker_cards])


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
        return illegal(meld, None, rules, Reason("no_cards", {}))
    if len(meld) < 3:
        return illegal(meld, None, rules, Reason("too_few_cards", {"count": len(meld)}))
    joker_cards = rules.joker_cards
    naturals = [c for c in meld if c not in joker_cards]
    reads = Reads(laid)
    verdict = _check_cards(meld, rules, reads, naturals if len(naturals) < len(meld) else None)
    if len(memo) >= 8192:
        memo.clear()
    memo[meld] = ((verdict, tuple(reads.seen.items())), *kept[:3])  # the latest four tables' verdicts
    return verdict


#: id of a rule set -> (the rule set, meld -> its latest verdicts, each with the table counts its check read:
#: ``check_parsed``). The rule set is kept in the entry, so its id stays its own while the entry lives; a
#: session's rules are one object from request to request (``rules._INTERNED``), so they find their verdicts.
#: Pays: scoring 400 deals 1.96× and POST deals/score 1.92× slower without it (benchmarks/README.md, "Speed
#: tricks kept"; an in-process A/B: 2.2×).
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


def _check_cards(meld: tuple[Card, ...], rules: RuleSet, laid: Reads, naturals: list[Card] | None = None) -> MeldCheck:
    if naturals is None:
        naturals = list(meld)
    fixed = naturals or [c.pin for c in meld if c.is_joker and c.pin]
    if not fixed:
        limit = rules.joker_limit_for(len(meld))
        return illegal(meld, None, rules, joker_limit_reason(len(meld), len(meld), limit, rules))
    ranks = {c.rank for c in fixed}
    suits = {c.suit for c in fixed}
    if len(ranks) == 1 and len(suits) == 1 and len(fixed) == 1:
        as_set = _check_set(meld, rules, laid)
        if as_set.legal:
            return as_set
        as_run = check_run(meld, rules, laid)
        return as_run if as_run.legal else as_set
    if len(ranks) == 1:
        return _check_set(meld, rules, laid)
    if len(suits) == 1:
        return check_run(meld, rules, laid)
    return illegal(meld, None, rules, Reason("mixed_cards", {}))


# -- sets --------------------------------------------------------------------------------


def _check_set(meld: tuple[Card, ...], rules: RuleSet, laid: Reads) -> MeldCheck:
    naturals = [c for c in meld if c not in rules.joker_cards]
    rank = (naturals or [c.pin for c in meld if c.is_joker and c.pin])[0].rank
    assert rank is not None  # a natural card's, or a pinned joker's card's
    if len(meld) > 4:
        return illegal(meld, MeldKind.SET, rules, Reason("set_too_many_cards", {"count": len(meld)}))
    reasons: list[Reason] = []
    jokers = sum(1 for c in meld if c in rules.joker_cards)
    limit = rules.joker_limit_for(len(meld))
    if jokers > limit:
        reasons.append(joker_limit_reason(jokers, len(meld), limit, rules))
    seen: set[Card] = set()
    for card in naturals:
        if card in seen:
            return illegal(meld, MeldKind.SET, rules, Reason("set_duplicate_card", {"card": str(card)}), *reasons)
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
    reasons = dedupe(reasons)
    if reasons or not options:  # only a legal set's jokers keep an open suit
        return checked(meld, MeldKind.SET, rules, assigned, assigned, points, reasons)
    return checked(meld, MeldKind.SET, rules, assigned, assigned, points, reasons, options, tuple(free))


def extend(base: MeldCheck, cards: Sequence[Card], rules: RuleSet, laid: Counter[Card]) -> MeldCheck:
    """Check ``base`` with ``cards`` added (a vist); ``laid`` must already count the added naturals.

    The result's last ``len(cards)`` entries of ``card_points`` are the added cards' points. A card a run's
    joker stands for cannot be added beside it: putting it in is a joker swap, and the reason says so. A joker
    added to a run goes where it breaks no rule: at the high end, else at the low end (``check_run``'s
    ``any_order``), as the one who adds it may lay it at either end.

    >>> from kunken_scorer.core.cards import parse_cards
    >>> base = check_parsed(parse_cards("5♥ JK 7♥"), RuleSet.preset(), Counter())
    >>> extend(base, parse_cards("6♥"), RuleSet.preset(), Counter()).reasons[0].code
    'vist_fills_joker'
    """
    extended = tuple(base.extension_base()) + tuple(cards)
    if base.kind == MeldKind.RUN and base.legal:
        stood_for = {card.pin for card in base.cards if card.is_joker}
        filled = next((card for card in cards if card in stood_for and card not in rules.joker_cards), None)
        if filled is not None:
            return illegal(extended, MeldKind.RUN, rules, Reason("vist_fills_joker", {"card": str(filled)}))
    result = check_parsed(extended, rules, laid)
    if result.legal or result.kind != MeldKind.RUN or base.kind != MeldKind.RUN:
        return result
    # natural cards added have one place, and the run's jokers keep theirs: only an added joker has another
    if not any(card in rules.joker_cards for card in cards):
        return result
    other = check_run(extended, rules, Reads(laid), any_order=True)
    return other if other.legal else result
