"""A deal's validation and its scores: ``evaluate_deal`` lists every problem of a recorded deal and scores
each player. The record itself (``Deal`` and its parts) and reading it from JSON are ``reading``'s; the
names it had here are still importable from here.

>>> from kunken_scorer.core.rules import RuleSet
>>> deal = Deal.from_dict({"players": [
...     {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "meld": 0, "cards": "5♥"}], "hand": ""},
...     {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣ JK"}],
...     "went_out": "Anna", "express": False})
>>> [(p.name, p.plus, p.minus, p.score) for p in evaluate_deal(deal, RuleSet.preset()).players]
[('Anna', 35, 0, 35), ('Boris', 15, 20, -5)]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import chain, filterfalse
from typing import Any

from .cards import Card, format_cards
from .melds import MeldCheck, check_parsed, extend, opens_with_run, swap_into
from .messages import Reason
from .reading import (
    HAND_COUNTS,
    HAND_ENTRIES,
    HAND_POINTS,
    MAX_DEAL_CARDS,
    MAX_LISTED_MELDS,
    MAX_MELDS,
    MAX_NAME,
    MAX_NOTE,
    MAX_PLAYERS,
    MAX_SWAPS,
    MAX_VISTS,
    Deal,
    DealInputError,
    HandSummary,
    PlayerRecord,
    Swap,
    Vist,
    check_short_hands,
    clean_name,
    hand_entries,
    has_control,
    read_cards,
    read_flag,
    read_melds,
    read_note,
    read_whole,
)
from .rules import RuleSet

__all__ = [
    # scoring, this module's own
    "ORDER_DEPENDENT",
    "PROBLEM_FIELD",
    "DealReport",
    "PlayerDetail",
    "PlayerScore",
    "SwapResult",
    "VistResult",
    "evaluate_deal",
    # the record and its reading, in ``reading`` since issue 34: importable from here as before
    "HAND_COUNTS",
    "HAND_ENTRIES",
    "HAND_POINTS",
    "MAX_DEAL_CARDS",
    "MAX_LISTED_MELDS",
    "MAX_MELDS",
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_PLAYERS",
    "MAX_SWAPS",
    "MAX_VISTS",
    "Deal",
    "DealInputError",
    "HandSummary",
    "PlayerRecord",
    "Swap",
    "Vist",
    "check_short_hands",
    "clean_name",
    "hand_entries",
    "has_control",
    "read_cards",
    "read_flag",
    "read_melds",
    "read_note",
    "read_whole",
]

#: The field of a deal record each problem is about: a part of the record of the player it names (melds, vists,
#: swaps, hand), or a field of the deal's own (went_out, express). A form shows the problem beside that field.
PROBLEM_FIELD = {
    **dict.fromkeys(("illegal_meld", "no_run"), "melds"),
    **dict.fromkeys(("illegal_vist", "vist_fits_nothing", "vist_no_meld", "unknown_player"), "vists"),
    **dict.fromkeys(("went_out_with_cards", "went_out_with_hand"), "hand"),
    **dict.fromkeys(("illegal_swap", "swap_fits_nothing", "swap_no_meld"), "swaps"),
    "unknown_went_out": "went_out",
    **dict.fromkeys(("express_without_going_out", "express_not_in_game"), "express"),
}
#: The reason a rule-set-dependent check of a recorded deal reports as a warning, not a problem:
#: a record has no order, and a joker may have been laid before the second copy of its card.
ORDER_DEPENDENT = frozenset({"joker_copies_played", "set_joker_no_suit"})


@dataclass(frozen=True)
class PlayerScore:
    """One player's result in a deal."""

    name: str
    plus: int
    minus: int
    score: int

    def to_dict(self) -> dict[str, Any]:
        """The result in the API's shape."""
        return {"name": self.name, "plus": self.plus, "minus": self.minus, "score": self.score}


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


@dataclass(frozen=True)
class PlayerDetail:
    """Everything the scorer worked out for one player: meld verdicts, vists, swaps, hand points."""

    name: str
    melds: tuple[MeldCheck, ...]
    vists: tuple[VistResult, ...]
    hand_points: int
    hand_jokers: int
    #: the player's melds at the end of the deal, with every legal swap and vist applied
    final_melds: tuple[MeldCheck, ...] = ()
    #: the swaps this player made
    swaps: tuple[SwapResult, ...] = ()
    #: plus points of this player's illegal melds, vists and swaps (before express)
    unchecked: int = 0


@dataclass(frozen=True)
class DealReport:
    """Validation and scores of a deal. Problems never stop scoring: the table decides.

    ``warnings`` are what the record cannot settle (it has no order); they never block recording.
    """

    players: tuple[PlayerScore, ...]
    problems: tuple[Reason, ...] = ()
    details: tuple[PlayerDetail, ...] = ()
    warnings: tuple[Reason, ...] = ()
    #: the player whose express doubled the scores (None without an express), and by how much
    express_by: str | None = None
    express_multiplier: int = 1

    @property
    def checked_players(self) -> tuple[PlayerScore, ...]:
        """The scores with nothing counted for illegal melds, vists and swaps (the preview's view).

        >>> report = evaluate_deal(Deal.from_dict({"players": [
        ...     {"name": "A", "melds": ["K♠ K♠ K♥", "2♣ 3♣ 4♣"]}, {"name": "B", "hand": "5♦"}]}), RuleSet.preset())
        >>> report.players[0].plus, report.checked_players[0].plus
        (45, 15)
        """
        if not self.details:  # a redeal: nothing was scored
            return self.players
        out = []
        for score, detail in zip(self.players, self.details, strict=True):
            if not detail.unchecked:
                out.append(score)
                continue
            plus = score.plus - detail.unchecked * (self.express_multiplier if score.name == self.express_by else 1)
            out.append(PlayerScore(score.name, plus, score.minus, plus - score.minus))
        return tuple(out)

    @property
    def valid(self) -> bool:
        """True when nothing is wrong with the deal as recorded."""
        return not self.problems

    @cached_property
    def scores(self) -> dict[str, int]:
        """Deal score by player name (worked out once: a stored deal's report is asked many times)."""
        return {p.name: p.score for p in self.players}

    def to_dict(self) -> dict[str, Any]:
        """The report in the API's shape."""
        return {
            "valid": self.valid,
            "problems": [{"code": p.code, "message": p.message} for p in self.problems],
            "warnings": [{"code": w.code, "message": w.message} for w in self.warnings],
            "players": [p.to_dict() for p in self.players],
        }


def _lenient(check: MeldCheck) -> tuple[MeldCheck, list[Reason]]:
    """The verdict without the reasons that depend on the order of play, and those reasons."""
    if not check.reasons or not any(r.code in ORDER_DEPENDENT for r in check.reasons):
        return check, []
    kept = tuple(r for r in check.reasons if r.code not in ORDER_DEPENDENT)
    moved = [r for r in check.reasons if r.code in ORDER_DEPENDENT]
    return replace(check, legal=not kept, reasons=kept), moved


def evaluate_deal(deal: Deal, rules: RuleSet) -> DealReport:
    """Validate a deal, listing every problem and warning, and score it under ``rules``.

    A deal as entered is first asked ``check_short_hands``; a deal read back from the store is not.

    >>> from kunken_scorer.core.rules import RuleSet
    >>> report = evaluate_deal(Deal.from_dict({"players": [{"name": "A"}, {"name": "B"}], "redeal": True}),
    ...                        RuleSet.preset())
    >>> report.valid, report.scores
    (True, {'A': 0, 'B': 0})
    >>> swap = Deal.from_dict({"players": [{"name": "Anna", "melds": ["K♠ K♣ JK"]},
    ...                                    {"name": "Boris", "melds": ["5♥ JK 7♥"]}],
    ...                        "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}]})
    >>> evaluate_deal(swap, RuleSet.preset()).scores
    {'Anna': 20, 'Boris': 25}
    """
    problems = _roster_problems(deal.names, rules)
    if deal.redeal:
        return DealReport(tuple(PlayerScore(n, 0, 0, 0) for n in deal.names), tuple(problems))
    warnings: list[Reason] = []
    cards = _count_cards(deal, rules)
    laid = cards.laid
    seat_melds = _check_melds(deal, rules, laid, problems, warnings)
    # a name written twice (a duplicate_player problem) is one player to the others' vists, swaps and
    # going out: the first seat of that name; each seat still scores its own melds, vists and hand
    first: dict[str, int] = {}
    for i, p in enumerate(deal.players):
        first.setdefault(p.name, i)
    laid_as = {name: seat_melds[i] for name, i in first.items()}
    table = {name: list(checks) for name, checks in laid_as.items()}
    swaps = _apply_swaps(deal, table, laid_as, rules, laid, problems)
    vists = _apply_vists(deal, table, rules, laid, problems, warnings)
    problems += _copy_problems(cards, rules, swaps.swapped)
    went_out, express = _going_out(deal, rules, problems)
    if went_out is not None and _laid_nothing(deal.players[first[went_out]], swaps):
        warnings.append(Reason("went_out_empty", {"player": went_out}))
    multiplier = rules.express_multiplier if express else 1
    scores, details = [], []
    for i, (p, hand) in enumerate(zip(deal.players, cards.hands, strict=True)):
        own = first[p.name] == i
        score, detail = _score_player(
            p.name,
            hand,
            seat_melds[i],
            vists[i],
            swaps if own else _Swaps({}, {}, {}),
            table[p.name] if own else seat_melds[i],
            rules,
            multiplier,
            went_out if own else None,
            bool(problems),
        )
        scores.append(score)
        details.append(detail)
    return DealReport(
        tuple(scores),
        tuple(problems),
        tuple(details),
        tuple(warnings),
        went_out if express else None,
        rules.express_multiplier if express else 1,
    )


def _roster_problems(names: list[str], rules: RuleSet) -> list[Reason]:
    """Too few or too many players, and every name written twice."""
    if rules.min_players <= len(names) <= rules.max_players and len(set(names)) == len(names):
        return []  # the usual table
    problems = []
    if not rules.min_players <= len(names) <= rules.max_players:
        problems.append(
            Reason("player_count", {"min": rules.min_players, "max": rules.max_players, "count": len(names)})
        )
    seen: set[str] = set()
    for name in names:
        if name in seen:
            problems.append(Reason("duplicate_player", {"player": name}))
        seen.add(name)
    return _dedupe(problems)


def _dedupe(reasons: list[Reason]) -> list[Reason]:
    out: list[Reason] = []
    for reason in reasons:
        if reason not in out:
            out.append(reason)
    return out


@dataclass
class _Cards:
    """The deal's cards counted once: natural cards on the table (melds, vists, swapped-in cards) and
    in the whole deal, jokers (printed or wild) and printed jokers, and each hand's points and jokers."""

    laid: Counter[Card]
    copies: Counter[Card]
    jokers: int
    printed: int
    hands: list[tuple[int, int]]


def _count_cards(deal: Deal, rules: RuleSet) -> _Cards:
    jokers_of = rules.joker_cards
    laid = Counter(chain.from_iterable(chain.from_iterable(p.melds for p in deal.players)))
    for p in deal.players:
        for v in p.vists:
            laid.update(v.cards)
    if deal.swaps:
        laid.update([s.card for s in deal.swaps])
    jokers = printed = 0
    for card in jokers_of.intersection(laid):
        count = laid.pop(card)
        jokers += count
        printed += count if card.rank is None else 0
    hands = []
    in_hands: list[Card] = []
    natural_points = rules.natural_points
    for p in deal.players:
        naturals = [*filterfalse(jokers_of.__contains__, p.hand)]
        in_hands += naturals
        points = sum(map(natural_points.__getitem__, naturals))
        hand_jokers = len(p.hand) - len(naturals)
        if hand_jokers:
            printed += sum(1 for card in p.hand if card.rank is None)
        if p.hand_summary is not None:
            hand_jokers += p.hand_summary.jokers
            points += p.hand_summary.points_under(rules)
        jokers += hand_jokers
        hands.append((points, hand_jokers))
    copies = laid
    if in_hands:
        copies = laid.copy()
        copies.update(in_hands)
    return _Cards(laid, copies, jokers, printed, hands)


def _check_melds(
    deal: Deal, rules: RuleSet, laid: Counter[Card], problems: list[Reason], warnings: list[Reason]
) -> list[list[MeldCheck]]:
    """Every player's melds as laid, by seat: verdicts, and the problems and warnings they raise."""
    seat_melds: list[list[MeldCheck]] = []
    for p in deal.players:
        checks = [check_parsed(m, rules, laid) for m in p.melds]
        for j, check in enumerate(checks):
            if not check.reasons:
                continue
            check, early = _lenient(check)
            checks[j] = check
            if early:
                warnings.append(
                    Reason("joker_laid_early", {"player": p.name, "cards": format_cards(check.written), "why": early})
                )
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
                    )
                )
        seat_melds.append(checks)
        if rules.first_meld_run and checks and not opens_with_run(checks):
            problems.append(Reason("no_run", {"player": p.name}))
        elif rules.first_meld_run and not checks and p.vists:
            problems.append(Reason("additions_without_run", {"player": p.name}))
    return seat_melds


@dataclass
class _Swaps:
    """What the deal's joker swaps did: results and points by swapper, points lost by owner."""

    results: dict[str, list[SwapResult]]
    points: dict[str, int]
    lost: dict[str, int]
    swapped: int = 0

    def net(self, name: str) -> int:
        """Plus points a player gains by swapping, less the jokers swapped out of their melds."""
        return self.points.get(name, 0) - self.lost.get(name, 0)


def _apply_swaps(
    deal: Deal,
    table: dict[str, list[MeldCheck]],
    meld_checks: dict[str, list[MeldCheck]],
    rules: RuleSet,
    laid: Counter[Card],
    problems: list[Reason],
) -> _Swaps:
    """Swaps come first, in the recorded order, on the melds as laid; the owner stops scoring the joker."""
    swaps = _Swaps({}, {}, {})
    if not deal.swaps:
        return swaps
    has_layout = {name for name, checks in meld_checks.items() if checks}  # a name written twice: its first seat
    for swap in deal.swaps:
        result, problem, lost = _apply_swap(swap, table, meld_checks, has_layout, rules, laid)
        swaps.results.setdefault(swap.by, []).append(result)
        swaps.points[swap.by] = swaps.points.get(swap.by, 0) + result.points
        if problem:
            problems.append(problem)
        else:
            swaps.swapped += 1
            swaps.lost[swap.owner] = swaps.lost.get(swap.owner, 0) + lost
    return swaps


def _apply_vists(
    deal: Deal,
    table: dict[str, list[MeldCheck]],
    rules: RuleSet,
    laid: Counter[Card],
    problems: list[Reason],
    warnings: list[Reason],
) -> list[list[VistResult]]:
    """Every vist put on its meld in ``table``; the results by seat, in recorded order.

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
                problems.append(problem)
            if early:
                warnings.append(
                    Reason("joker_laid_early", {"player": p.name, "cards": format_cards(vist.cards), "why": early})
                )
    return results


def _copy_problems(cards: _Cards, rules: RuleSet, swapped: int) -> list[Reason]:
    """More copies of a card, or more jokers, than the decks hold (a swapped joker counts once: it was
    recorded in the meld as laid and where it went)."""
    problems = []
    if cards.copies and max(cards.copies.values()) > rules.decks:
        for card, n in sorted((str(c), n) for c, n in cards.copies.items() if n > rules.decks):
            problems.append(Reason("too_many_copies", {"card": card, "count": n, "decks": rules.decks}))
    if rules.wild_card and cards.printed:
        problems.append(Reason("joker_not_in_deck", {"count": cards.printed, "wild": rules.wild_card}))
    jokers = cards.jokers - swapped
    if jokers > rules.deck_jokers:
        problems.append(Reason("too_many_jokers", {"count": jokers, "deck": rules.deck_jokers}))
    return problems


def _laid_nothing(player: PlayerRecord, swaps: _Swaps) -> bool:
    """No meld, vist or swap of this player is recorded: they cannot have gone out, or their cards were left out."""
    return not player.melds and not player.vists and player.name not in swaps.results


def _going_out(deal: Deal, rules: RuleSet, problems: list[Reason]) -> tuple[str | None, bool]:
    """Who went out (None when nobody or an unknown name) and whether the express doubles the deal."""
    went_out = deal.went_out
    if went_out is not None and went_out not in deal.names:
        problems.append(Reason("unknown_went_out", {"player": went_out}))
        went_out = None
    player = next((p for p in deal.players if p.name == went_out), None)  # a name written twice: its first seat
    if player is not None and player.holds_cards:
        if player.hand_summary is None:
            problems.append(Reason("went_out_with_cards", {"player": player.name, "cards": format_cards(player.hand)}))
        else:
            problems.append(Reason("went_out_with_hand", {"player": player.name}))
    express = deal.express
    if express and not rules.express:
        problems.append(Reason("express_not_in_game", {}))
        express = False
    elif express and went_out is None:
        problems.append(Reason("express_without_going_out", {}))
        express = False
    return went_out, express


def _score_player(
    name: str,
    hand: tuple[int, int],
    checks: list[MeldCheck],
    vists: list[VistResult],
    swaps: _Swaps,
    final: Any,
    rules: RuleSet,
    multiplier: int,
    went_out: str | None,
    any_problem: bool,
) -> tuple[PlayerScore, PlayerDetail]:
    """One player's plus (melds, vists, swaps) and minus (``hand``: its points and jokers), times the
    express ``multiplier`` (the plus of who went out, the minus of the others)."""
    plus = sum([c.points for c in checks]) + (sum([v.points for v in vists]) if vists else 0)
    if swaps.points or swaps.lost:
        plus += swaps.net(name)
    hand_points, hand_jokers = hand
    if rules.joker_in_hand == "double":
        minus = hand_points * 2**hand_jokers
    else:
        minus = hand_points + hand_jokers * rules.joker_in_hand
    if name == went_out:
        plus *= multiplier
    else:
        minus *= multiplier
    swapped = tuple(swaps.results.get(name, ()))
    unchecked = 0
    if any_problem:
        unchecked = (
            sum(c.points for c in checks if not c.legal)
            + sum(v.points for v in vists if not v.legal)
            + sum(s.points for s in swapped if not s.legal)
        )
    return (
        PlayerScore(name, plus, minus, plus - minus),
        PlayerDetail(name, tuple(checks), tuple(vists), hand_points, hand_jokers, tuple(final), swapped, unchecked),
    )


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
        after, _ = _lenient(check_parsed(tuple(written), rules, laid))
        if not after.legal:
            refused.append((j, [Reason("swap_breaks_meld", {})] + list(after.reasons)))
            continue
        if swap.by not in has_layout:
            return (
                SwapResult(swap, j, False, rules.face_points(swap.card)),
                Reason("illegal_swap", {**params, "meld": j + 1, "why": [Reason("swap_no_layout", {})]}),
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
        result, early = _lenient(extend(melds[j], vist.cards, rules, laid))
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
