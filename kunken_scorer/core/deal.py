"""A deal's validation and its scores: ``evaluate_deal`` lists every problem and warning of a recorded deal,
each located at the seat and field it concerns (``Reason.seat``, ``Reason.field``), and scores each player.
The record itself (``Deal`` and its parts) and reading it from JSON are ``reading``'s; the melds, vists and
swaps put on the table are ``table``'s. The names those had here are still importable from here.

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
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, filterfalse
from typing import Any

from .cards import Card, format_cards
from .fields import rules_arg
from .melds import MeldCheck
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
    deal_arg,
    hand_entries,
    has_control,
    read_cards,
    read_flag,
    read_melds,
    read_note,
    read_whole,
)
from .rules import RuleSet
from .table import ORDER_DEPENDENT, SwapResult, Swaps, VistResult, apply_swaps, apply_vists, check_melds

__all__ = [
    # scoring, this module's own
    "PROBLEM_FIELD",
    "DealReport",
    "PlayerDetail",
    "PlayerScore",
    "evaluate_deal",
    # the table's moves, in ``table``: importable from here as before
    "ORDER_DEPENDENT",
    "SwapResult",
    "VistResult",
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
#: Each problem now carries its place itself (``Reason.seat`` and ``Reason.field``, set where it is found),
#: the same field as this table's, but for ``unknown_player`` raised by a swap, which is the swapper's ``swaps``.
PROBLEM_FIELD = {
    **dict.fromkeys(("illegal_meld", "no_run"), "melds"),
    **dict.fromkeys(("illegal_vist", "vist_fits_nothing", "vist_no_meld", "unknown_player"), "vists"),
    **dict.fromkeys(("went_out_with_cards", "went_out_with_hand", "hand_not_entered"), "hand"),
    **dict.fromkeys(("illegal_swap", "swap_fits_nothing", "swap_no_meld"), "swaps"),
    "unknown_went_out": "went_out",
    **dict.fromkeys(("express_without_going_out", "express_not_in_game"), "express"),
}


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
        ...     {"name": "A", "melds": ["K♠ K♠ K♥", "2♣ 3♣ 4♣"]}, {"name": "B", "hand": "5♦"}], "went_out": "A"}),
        ...     RuleSet.preset())
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
    def hands_not_entered(self) -> frozenset[str]:
        """The players whose cards left in hand are not entered (their minus is not known: never show it as 0)."""
        return frozenset(p.params["player"] for p in self.problems if p.code == "hand_not_entered")

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
    deal, rules = deal_arg(deal), rules_arg(rules)
    problems = _roster_problems(deal.names, rules)
    if deal.redeal:
        return DealReport(tuple(PlayerScore(n, 0, 0, 0) for n in deal.names), tuple(problems))
    warnings: list[Reason] = []
    cards = _count_cards(deal, rules)
    laid = cards.laid
    seat_melds = check_melds(deal, rules, laid, problems, warnings)
    # a name written twice (a duplicate_player problem) is one player to the others' vists, swaps and
    # going out: the first seat of that name; each seat still scores its own melds, vists and hand
    first: dict[str, int] = {}
    for i, p in enumerate(deal.players):
        first.setdefault(p.name, i)
    laid_as = {name: seat_melds[i] for name, i in first.items()}
    table = {name: list(checks) for name, checks in laid_as.items()}
    swaps = apply_swaps(deal, table, laid_as, rules, laid, problems, first)
    vists = apply_vists(deal, table, rules, laid, problems, warnings)
    problems += _copy_problems(cards, rules, swaps.swapped)
    went_out, express = _going_out(deal, rules, problems)
    problems += _hands_missing(deal, went_out)
    if went_out is not None and _laid_nothing(deal.players[first[went_out]], swaps):
        warnings.append(Reason("went_out_empty", {"player": went_out}, seat=first[went_out]))
    multiplier = rules.express_multiplier if express else 1
    scores, details = [], []
    for i, (p, hand) in enumerate(zip(deal.players, cards.hands, strict=True)):
        own = first[p.name] == i
        score, detail = _score_player(
            p.name,
            hand,
            seat_melds[i],
            vists[i],
            swaps if own else Swaps({}, {}, {}),
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
    """Too few or too many players, and every name written twice (at the seat that repeats it)."""
    if rules.min_players <= len(names) <= rules.max_players and len(set(names)) == len(names):
        return []  # the usual table
    problems = []
    if not rules.min_players <= len(names) <= rules.max_players:
        problems.append(
            Reason("player_count", {"min": rules.min_players, "max": rules.max_players, "count": len(names)})
        )
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            problems.append(Reason("duplicate_player", {"player": name}, seat=i, field="name"))
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


def _laid_nothing(player: PlayerRecord, swaps: Swaps) -> bool:
    """No meld, vist or swap of this player is recorded: they cannot have gone out, or their cards were left out."""
    return not player.melds and not player.vists and player.name not in swaps.results


def _hands_missing(deal: Deal, went_out: str | None) -> list[Reason]:
    """Only the one who went out ends a deal with no cards: any other hand with none was not entered (a phone that
    never sent it, a field left blank), and is never read as an empty hand.

    >>> deal = Deal.from_dict({"players": [{"name": "A", "hand": ""}, {"name": "B"}, {"name": "C", "hand": "5♦"}],
    ...                        "went_out": "A"})
    >>> [(r.code, r.params, r.seat, r.field) for r in _hands_missing(deal, "A")]
    [('hand_not_entered', {'player': 'B'}, 1, 'hand')]
    """
    return [
        Reason("hand_not_entered", {"player": p.name}, seat=i, field="hand")
        for i, p in enumerate(deal.players)
        if p.name != went_out and not p.holds_cards
    ]


def _going_out(deal: Deal, rules: RuleSet, problems: list[Reason]) -> tuple[str | None, bool]:
    """Who went out (None when nobody or an unknown name) and whether the express doubles the deal.

    A hand left by who went out is their ``hand``'s problem; the others are the deal's ``went_out`` and ``express``.
    """
    went_out = deal.went_out
    if went_out is not None and went_out not in deal.names:
        problems.append(Reason("unknown_went_out", {"player": went_out}, field="went_out"))
        went_out = None
    seat = deal.names.index(went_out) if went_out is not None else None  # a name written twice: its first seat
    if seat is not None and deal.players[seat].holds_cards:
        player = deal.players[seat]
        if player.hand_summary is None:
            params = {"player": player.name, "cards": format_cards(player.hand)}
            problems.append(Reason("went_out_with_cards", params, seat=seat, field="hand"))
        else:
            problems.append(Reason("went_out_with_hand", {"player": player.name}, seat=seat, field="hand"))
    express = deal.express
    if express and not rules.express:
        problems.append(Reason("express_not_in_game", {}, field="express"))
        express = False
    elif express and went_out is None:
        problems.append(Reason("express_without_going_out", {}, field="express"))
        express = False
    return went_out, express


def _score_player(
    name: str,
    hand: tuple[int, int],
    checks: list[MeldCheck],
    vists: list[VistResult],
    swaps: Swaps,
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
