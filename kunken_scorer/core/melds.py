"""The questions a table asks of melds: is this meld legal (``check_meld``), does a vist fit it
(``check_vist``), may a card replace its joker (``check_swap``), may a player take the bank with these
melds (``check_opening``), does a discard fit one ("Rummy!", ``check_discard``). Each is answered from the
meld checker's verdicts (``checker``, ``runs``, ``meldcheck``), whose names are importable from here too.

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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, CardsLike, format_cards
from .checker import _VERDICTS as _VERDICTS
from .checker import _verdicts as _verdicts
from .checker import check_parsed, extend, laid_counts
from .fields import cards_arg, flag_arg, melds_arg, rules_arg
from .meldcheck import MeldCheck, MeldKind, illegal, on_table
from .messages import M_, KunkenError, Reason
from .rules import SWITCHES, RuleSet

__all__ = [
    # the questions, this module's own
    "DiscardCheck",
    "OpeningCheck",
    "SwapCheck",
    "check_discard",
    "check_meld",
    "check_opening",
    "check_swap",
    "check_vist",
    "opens_with_run",
    "own_meld_reason",
    "swap_into",
    # the meld checker (``checker``, ``meldcheck``): importable from here as before
    "MeldCheck",
    "MeldKind",
    "check_parsed",
    "extend",
    "laid_counts",
    "on_table",
]


def check_meld(cards: CardsLike, rules: RuleSet, table: Iterable[CardsLike] = ()) -> MeldCheck:
    """Check one meld against the rules, given the other melds already on the table.

    >>> format_cards(check_meld("5♥ 6♥ JK", RuleSet.preset()).cards)
    '5♥ 6♥ JK=7♥'
    >>> check_meld("6♥ JK 8♥", RuleSet.preset(), table=["6♥ 7♥ 8♥", "7♥ 7♠ 7♦"]).reasons[0].code
    'joker_copies_played'

    A value of the wrong kind (``rules`` that is no ``RuleSet``, a ``table`` that is no list of melds) raises
    ``KunkenError`` naming the argument, as every question here does.
    """
    meld = cards_arg(cards, "cards")
    rules = rules_arg(rules)
    printed = _printed_jokers(meld, rules)
    if printed is not None:
        return illegal(meld, None, rules, printed)
    laid = laid_counts(melds_arg(table, "table", optional=True), rules)
    laid.update(c for c in meld if c not in rules.joker_cards)
    return check_parsed(meld, rules, laid)


def _printed_jokers(cards: Sequence[Card], rules: RuleSet) -> Reason | None:
    """A table with a wild card plays without printed jokers: one written into a single check is refused
    (a recorded deal holding one has the problem ``joker_not_in_deck``, counted over the whole deal).

    >>> _printed_jokers(cards_arg("5♥ JK 7♥", "meld"), RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"})).code
    'joker_not_in_deck'
    """
    count = sum(1 for card in cards if card.rank is None)
    return Reason("joker_not_in_deck", {"count": count, "wild": rules.wild_card}) if rules.wild_card and count else None


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
    meld: CardsLike,
    card: CardsLike,
    rules: RuleSet,
    table: Iterable[CardsLike] = (),
    has_layout: bool = True,
    own_meld: bool = False,
) -> SwapCheck:
    """May ``card`` replace a joker in ``meld`` (in a set, any suit the set lacks)?

    Only a player with a layout of their own may swap: ``has_layout=False`` says no. ``own_meld``: the meld is the
    swapper's own, which only a table with the house rule ``swap_own_melds`` allows.

    >>> kunken = RuleSet.preset()
    >>> check_swap("JK K♠ K♣", "K♦", kunken).legal, check_swap("JK K♠ K♣", "K♠", kunken).legal
    (True, False)
    >>> [r.code for r in check_swap("JK K♠ K♣", "K♦", kunken, has_layout=False).reasons]
    ['swap_no_layout']
    >>> [r.code for r in check_swap("JK K♠ K♣", "K♦", kunken, table=["K♦ K♦ K♥"]).reasons]  # a third K♦
    ['too_many_copies']
    >>> [r.code for r in check_swap("JK K♠ K♣", "K♦", kunken, own_meld=True).reasons]
    ['swap_own_meld']
    """
    cards = cards_arg(card, "card")
    written = cards_arg(meld, "meld")
    rules = rules_arg(rules)
    table_melds = melds_arg(table, "table", optional=True)
    has_layout = flag_arg(has_layout, "has_layout")
    own_meld = flag_arg(own_meld, "own_meld")
    printed = _printed_jokers(written, rules)
    if printed is not None:
        return SwapCheck(False, (printed,), meld=illegal(written, None, rules, printed))
    laid = laid_counts(table_melds, rules)
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
    if swap.legal and own_meld and not rules.swap_own_melds:
        return SwapCheck(False, (own_meld_reason(),), swap.joker, check)
    return swap


def own_meld_reason() -> Reason:
    """Why a joker may not be swapped out of the swapper's own meld at this table (two of the rule texts allow the
    swap only "в выкладках партнёров", in the other players' melds; the house rule ``swap_own_melds`` allows it)."""
    return Reason("swap_own_meld", {"switch": SWITCHES["swap_own_melds"].label})


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
    parsed = melds_arg(melds, "melds")
    bank = cards_arg(bank_card, "bank_card")
    if len(bank) != 1:
        raise KunkenError(Reason("bad_field", {"field": "bank_card", "expected": M_("exactly one card")}))
    bank_card_ = bank[0]
    rules = rules_arg(rules)
    has_layout = flag_arg(has_layout, "has_layout")
    laid = laid_counts(melds_arg(table, "table", optional=True) + parsed, rules)
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
    cards = cards_arg(card, "card")
    if len(cards) != 1:
        raise KunkenError(Reason("bad_field", {"field": "card", "expected": M_("exactly one card")}))
    parsed = melds_arg(melds, "melds")
    rules = rules_arg(rules)
    printed = _printed_jokers(cards, rules)
    if printed is not None:
        return DiscardCheck(False, None, (printed,))
    laid = laid_counts(parsed, rules)
    illegal = []  # a line that is no meld cannot lie on the table: the answer says so when nothing fits
    for n, meld in enumerate(parsed):
        base = check_parsed(meld, rules, laid)
        if not base.legal:
            illegal.append(Reason("discard_illegal_meld", {"meld": n + 1, "why": list(base.reasons)}))
        elif extend(base, cards, rules, laid).legal:
            return DiscardCheck(True, n)
    return DiscardCheck(False, None, (*illegal, Reason("discard_no_fit", {"card": format_cards(cards)})))


def check_vist(meld: CardsLike, cards: CardsLike, rules: RuleSet, table: Iterable[CardsLike] = ()) -> MeldCheck:
    """Check adding ``cards`` to ``meld``: the meld must be legal as it lies (no other takes a vist, as the rules
    desk says), and still legal once the cards are added.

    >>> check_vist("2♥ 3♥ 4♥", "5♥", RuleSet.preset()).legal
    True
    >>> [r.message for r in check_vist("2♥ 3♥", "4♥", RuleSet.preset()).reasons]
    ['The meld is not legal as it lies, so nothing can be added to it: a meld needs at least 3 cards; this one has 2.']
    """
    base_cards = cards_arg(meld, "meld")
    added = cards_arg(cards, "cards")
    if not added:
        raise KunkenError(Reason("bad_field", {"field": "cards", "expected": M_("at least one card to add")}))
    rules = rules_arg(rules)
    laid = laid_counts(melds_arg(table, "table", optional=True) + [base_cards], rules)
    printed = _printed_jokers(base_cards + added, rules)
    if printed is not None:
        return illegal(base_cards + added, None, rules, printed)
    base = check_parsed(base_cards, rules, laid)  # the meld as it lies, before the vist's cards are counted
    if not base.legal:
        return illegal(base_cards + added, base.kind, rules, Reason("vist_illegal_meld", {"why": list(base.reasons)}))
    laid.update(c for c in added if c not in rules.joker_cards)
    return extend(base, added, rules, laid)
