"""The table of a recorded deal: every player's melds as laid, then each joker swap and vist put onto them.

A record has no order of play: swaps go first, in the recorded order, on the melds as laid; a vist that
does not fit yet is tried again after the others. Each move's result (``VistResult``, ``SwapResult``) and
its problem, located at the seat and field of the player who made it (``Reason.at``), are ``evaluate_deal``'s
(``deal``) to score and report; these names are importable from ``deal`` as before.

>>> from kunken_scorer.core.reading import Deal
>>> from kunken_scorer.core.rules import RuleSet
>>> deal = Deal.from_dict({"players": [{"name": "Anna", "melds": ["K♠ K♣ JK"]},
...                                    {"name": "Boris", "melds": ["5♥ 6♥ 7♥", "2♣ 3♣"]}]})
>>> problems, warnings = [], []
>>> [[c.legal for c in seat] for seat in check_melds(deal, RuleSet.preset(), Counter(), problems, warnings)]
[[True], [True, False]]
>>> [(p.code, p.seat, p.field) for p in problems]
[('illegal_meld', 1, 'melds')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from .cards import Card, format_cards
from .melds import MeldCheck, check_parsed, extend, opens_with_run, own_meld_reason, swap_into
from .messages import Reason
from .reading import Deal, Swap, Vist
from .rules import RuleSet

#: The reason a rule-set-dependent check of a recorded deal reports as a warning, not a problem:
#: a record has no order, and a joker may have been laid before the second copy of its card.
ORDER_DEPENDENT = frozenset({"joker_copies_played", "set_joker_no_suit"})


@dataclass(frozen=True)
class VistResult:
    """Where a vist went and what it scored."""

    vist: Vist
    meld: int | None
    legal: bool
    points: int
    check: MeldCheck | None = None


@dataclass(frozen=True)
class SwapResult:
    """Where a joker swap went and what its natural card scored for the swapper."""

    swap: Swap
    meld: int | None
    legal: bool
    points: int


def lenient(check: MeldCheck) -> tuple[MeldCheck, list[Reason]]:
    """The verdict without the reasons that depend on the order of play, and those reasons. A meld legal without
    them scores its jokers as placed; one still illegal keeps its face value."""
    if not check.reasons or not any(r.code in ORDER_DEPENDENT for r in check.reasons):
        return check, []
    kept = tuple(r for r in check.reasons if r.code not in ORDER_DEPENDENT)
    moved = [r for r in check.reasons if r.code in ORDER_DEPENDENT]
    if kept or not check.placed_points:
        return replace(check, legal=not kept, reasons=kept), moved
    placed = check.placed_points
    return replace(check, legal=True, reasons=(), points=sum(placed), card_points=placed, placed_points=()), moved


def check_melds(
    deal: Deal, rules: RuleSet, laid: Counter[Card], problems: list[Reason], warnings: list[Reason]
) -> list[list[MeldCheck]]:
    """Every player's melds as laid, by seat: verdicts, and the problems and warnings they raise."""
    seat_melds: list[list[MeldCheck]] = []
    for i, p in enumerate(deal.players):
        checks = [check_parsed(m, rules, laid) for m in p.melds]
        for j, check in enumerate(checks):
            if not check.reasons:
                continue
            check, early = lenient(check)
            checks[j] = check
            if early:
                params = {"player": p.name, "cards": format_cards(check.written), "why": early}
                warnings.append(Reason("joker_laid_early", params, seat=i, field="melds"))
            if not check.legal:
                problems.append(
                    Reason(
                        "illegal_meld",
                        {
                            "player": p.name,
                            "meld": j + 1,
                            "cards": format_cards(check.written),
                            "why": list(check.reasons),
                        },
                        seat=i,
                        field="melds",
                    )
                )
        seat_melds.append(checks)
        if rules.first_meld_run and checks and not opens_with_run(checks):
            problems.append(Reason("no_run", {"player": p.name}, seat=i, field="melds"))
        elif rules.first_meld_run and not checks and p.vists:
            problems.append(Reason("additions_without_run", {"player": p.name}, seat=i, field="vists"))
    return seat_melds


@dataclass
class Swaps:
    """What the deal's joker swaps did: results and points by swapper, points lost by owner."""

    results: dict[str, list[SwapResult]]
    points: dict[str, int]
    lost: dict[str, int]
    swapped: int = 0

    def net(self, name: str) -> int:
        """Plus points a player gains by swapping, less the jokers swapped out of their melds."""
        return self.points.get(name, 0) - self.lost.get(name, 0)


def apply_swaps(
    deal: Deal,
    table: dict[str, list[MeldCheck]],
    meld_checks: dict[str, list[MeldCheck]],
    rules: RuleSet,
    laid: Counter[Card],
    problems: list[Reason],
    seat_of: Mapping[str, int],
) -> Swaps:
    """Swaps come first, in the recorded order, on the melds as laid; the owner stops scoring the joker.

    A swap's problem is located at the ``swaps`` of the player who made it (``seat_of``: name -> seat).
    """
    swaps = Swaps({}, {}, {})
    if not deal.swaps:
        return swaps
    has_layout = {name for name, checks in meld_checks.items() if checks}  # a name written twice: its first seat
    for swap in deal.swaps:
        result, problem, lost = _apply_swap(swap, table, meld_checks, has_layout, rules, laid)
        swaps.results.setdefault(swap.by, []).append(result)
        swaps.points[swap.by] = swaps.points.get(swap.by, 0) + result.points
        if problem:
            problems.append(problem.at(seat_of.get(swap.by), "swaps"))
        else:
            swaps.swapped += 1
            swaps.lost[swap.owner] = swaps.lost.get(swap.owner, 0) + lost
    return swaps


def apply_vists(
    deal: Deal,
    table: dict[str, list[MeldCheck]],
    rules: RuleSet,
    laid: Counter[Card],
    problems: list[Reason],
    warnings: list[Reason],
) -> list[list[VistResult]]:
    """Every vist put on its meld in ``table``; the results by seat, in recorded order. A vist's problem is
    located at the ``vists`` of the player who made it.

    The record does not say in which order the players made their vists: a vist that does not
    fit yet is tried again after the others (9♥ to 5♥ 6♥ 7♥ may follow someone's 8♥), and vists of
    natural cards are tried before those holding a joker, which may stand for any card and so fits
    beside them (a joker put in first as K♥ would keep a natural K♥ out).
    """
    pending = [(i, k, vist) for i, p in enumerate(deal.players) for k, vist in enumerate(p.vists)]
    if not pending:
        return [[] for _ in deal.players]
    pending.sort(key=lambda entry: any(card in rules.joker_cards for card in entry[2].cards))  # stable
    done: dict[tuple[int, int], tuple[VistResult, Reason | None, list[Reason]]] = {}
    progress = True
    while pending and progress:
        progress, waiting = False, []
        for i, k, vist in pending:
            outcome = _apply_vist(deal.players[i].name, vist, table, rules, laid)
            if outcome[1] is None:
                done[(i, k)] = outcome
                progress = True
            else:
                waiting.append((i, k, vist))
        pending = waiting
    for i, k, vist in pending:
        done[(i, k)] = _apply_vist(deal.players[i].name, vist, table, rules, laid)
    results: list[list[VistResult]] = []
    for i, p in enumerate(deal.players):
        results.append([])
        for k, vist in enumerate(p.vists):
            result, problem, early = done[(i, k)]
            results[-1].append(result)
            if problem:
                problems.append(problem.at(i, "vists"))
            if early:
                params = {"player": p.name, "cards": format_cards(vist.cards), "why": early}
                warnings.append(Reason("joker_laid_early", params, seat=i, field="vists"))
    return results


def _apply_swap(
    swap: Swap,
    table: dict[str, list[MeldCheck]],
    laid_as: dict[str, list[MeldCheck]],
    has_layout: set[str],
    rules: RuleSet,
    laid: Counter[Card],
) -> tuple[SwapResult, Reason | None, int]:
    """Put the swap's natural card into the owner's meld in ``table`` in place of its joker.

    Returns the swap's result, its problem (None when legal) and the points the owner stops
    scoring. Only a legal swap changes the meld.
    """
    card = str(swap.card)
    naive = SwapResult(swap, swap.meld, False, rules.face_points(swap.card))
    params = {"player": swap.by, "to": swap.owner, "card": card}
    if swap.card in rules.joker_cards:
        return (
            naive,
            Reason(
                "illegal_swap",
                {**params, "meld": (swap.meld or 0) + 1, "why": [Reason("swap_not_natural", {"card": card})]},
            ),
            0,
        )
    if swap.by not in table:
        return naive, Reason("unknown_player", {"player": swap.by, "to": swap.by}), 0
    if swap.owner not in table:
        return naive, Reason("unknown_player", {"player": swap.by, "to": swap.owner}), 0
    melds = table[swap.owner]
    if swap.meld is not None and swap.meld >= len(melds):
        return naive, Reason("swap_no_meld", {**params, "meld": swap.meld + 1}), 0
    candidates = [swap.meld] if swap.meld is not None else list(range(len(melds)))
    refused: list[tuple[int, list[Reason]]] = []  # (meld, why) for every meld with a joker that said no
    for j in candidates:
        current = melds[j]
        verdict = swap_into(current, swap.card, rules)
        if not verdict.legal:
            if swap.meld is not None or verdict.reasons[0].code != "swap_no_joker":
                refused.append((j, list(verdict.reasons)))
            continue
        joker = verdict.joker
        assert joker is not None  # a legal swap names the joker it replaces
        written = list(current.written)
        written[joker] = swap.card
        after, _ = lenient(check_parsed(tuple(written), rules, laid))
        # Not reached from a deal (tests/test_core_codes.py shows it for every small meld): ``swap_into`` takes
        # only a legal meld, and the card goes where its joker stood, the card that joker stands for (in a set,
        # a suit the set lacks). The same placement of the cards then holds one joker fewer, so no limit and
        # no gap can break; the copies on the table are order-dependent, a warning (``lenient``). Kept as a
        # guard: a swap that did break its meld would be refused, never recorded as legal.
        if not after.legal:
            refused.append((j, [Reason("swap_breaks_meld", {})] + list(after.reasons)))
            continue
        if swap.by not in has_layout:
            return (
                SwapResult(swap, j, False, rules.face_points(swap.card)),
                Reason("illegal_swap", {**params, "meld": j + 1, "why": [Reason("swap_no_layout", {})]}),
                0,
            )
        if swap.by == swap.owner and not rules.swap_own_melds:  # the rule texts: "в выкладках партнёров"
            return (
                SwapResult(swap, j, False, rules.face_points(swap.card)),
                Reason("illegal_swap", {**params, "meld": j + 1, "why": [own_meld_reason()]}),
                0,
            )
        melds[j] = after
        # the owner's meld as laid scored the joker at this written position
        lost = laid_as[swap.owner][j].card_points[joker]
        return SwapResult(swap, j, True, after.card_points[joker]), None, lost
    if len(refused) != 1:  # no meld named, and none or several of the owner's melds hold a joker
        return naive, Reason("swap_fits_nothing", params), 0
    j, why = refused[0]
    return naive, Reason("illegal_swap", {**params, "meld": j + 1, "why": why}), 0


def _apply_vist(
    player: str, vist: Vist, table: dict[str, list[MeldCheck]], rules: RuleSet, laid: Counter[Card]
) -> tuple[VistResult, Reason | None, list[Reason]]:
    """Extend the target meld in ``table``; return the vist's result, its problem and its warnings.

    Only a legal vist changes the meld: an illegal one is reported, and later vists to the same
    meld are judged without its cards.
    """
    shown = format_cards(vist.cards)
    naive = sum(map(rules.face_points, vist.cards))
    if vist.to not in table:
        return VistResult(vist, None, False, naive), Reason("unknown_player", {"player": player, "to": vist.to}), []
    melds = table[vist.to]
    if vist.meld is not None:
        if vist.meld >= len(melds):
            return (
                VistResult(vist, None, False, naive),
                Reason("vist_no_meld", {"player": player, "to": vist.to, "meld": vist.meld + 1, "cards": shown}),
                [],
            )
        candidates = [vist.meld]
    else:
        candidates = list(range(len(melds)))
    for j in candidates:
        result, early = lenient(extend(melds[j], vist.cards, rules, laid))
        if result.legal:
            melds[j] = result
            points = sum(result.card_points[len(result.card_points) - len(vist.cards) :])
            return VistResult(vist, j, True, points, result), None, early
    if vist.meld is None:  # no meld of the player takes it (or the player has none)
        return (
            VistResult(vist, None, False, naive),
            Reason("vist_fits_nothing", {"player": player, "to": vist.to, "cards": shown}),
            [],
        )
    # the named meld was tried alone: ``result`` is its verdict
    return (
        VistResult(vist, vist.meld, False, naive, result),
        Reason(
            "illegal_vist",
            {"player": player, "to": vist.to, "meld": vist.meld + 1, "cards": shown, "why": list(result.reasons)},
        ),
        [],
    )
