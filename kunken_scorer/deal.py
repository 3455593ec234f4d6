"""A deal as the table records it, its validation and its scores.

>>> from kunken_scorer.rules import RuleSet
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
from typing import Any, Mapping, Optional

from .cards import Card, CardError, format_cards, parse_cards
from .melds import MeldCheck, check_parsed, extend, laid_counts
from .messages import M_, KunkenError, Reason
from .rules import RuleSet

MAX_NAME = 40
MAX_PLAYERS = 12
MAX_MELDS = 40
MAX_VISTS = 40


class DealInputError(KunkenError):
    """A deal record that cannot be read (wrong shape, bad card, bad name)."""


@dataclass(frozen=True)
class Vist:
    """Cards a player adds to another player's meld (``meld`` is an index, or None: the first that fits)."""

    to: str
    cards: tuple[Card, ...]
    meld: Optional[int] = None

    def to_dict(self) -> dict:
        """The vist as recorded, in API notation."""
        return {"to": self.to, "meld": self.meld, "cards": format_cards(self.cards)}


@dataclass(frozen=True)
class PlayerRecord:
    """One player's part of a deal: melds laid, vists made, cards left in hand."""

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    vists: tuple[Vist, ...] = ()
    hand: tuple[Card, ...] = ()

    def to_dict(self) -> dict:
        """The record in API notation."""
        return {"name": self.name, "melds": [format_cards(m) for m in self.melds],
                "vists": [v.to_dict() for v in self.vists], "hand": format_cards(self.hand)}


@dataclass(frozen=True)
class Deal:
    """A whole deal as recorded: every player's cards, who went out, express, or a redeal."""

    players: tuple[PlayerRecord, ...]
    went_out: Optional[str] = None
    express: bool = False
    redeal: bool = False

    @classmethod
    def from_dict(cls, data: Any) -> "Deal":
        """Read a deal from the API's JSON shape; bad input raises ``DealInputError``.

        >>> Deal.from_dict({"players": [{"name": "Anna", "hand": "11♥"}]})
        Traceback (most recent call last):
        ...
        kunken_scorer.deal.DealInputError: players[0].hand: "11♥": no such rank
        """
        if not isinstance(data, Mapping):
            raise _bad("deal", M_("an object"))
        raw_players = data.get("players")
        if raw_players is None:
            raise DealInputError(Reason("missing_field", {"field": "players"}))
        if not isinstance(raw_players, list):
            raise _bad("players", M_("a list of players"))
        if len(raw_players) > MAX_PLAYERS:
            raise DealInputError(Reason("too_many_items", {"field": "players", "limit": MAX_PLAYERS}))
        redeal = _flag(data, "redeal")
        players = tuple(_player(p, f"players[{i}]", redeal) for i, p in enumerate(raw_players))
        went_out = data.get("went_out")
        if went_out is not None and not isinstance(went_out, str):
            raise _bad("went_out", M_("a player's name or null"))
        went_out = (went_out or "").strip() or None
        return cls(players, went_out, _flag(data, "express"), redeal)

    def to_dict(self) -> dict:
        """The deal in the API's JSON shape (canonical card notation).

        >>> Deal.from_dict({"players": [{"name": "Vera", "hand": "тп"}]}).to_dict()["players"][0]["hand"]
        'A♠'
        """
        return {"players": [p.to_dict() for p in self.players], "went_out": self.went_out,
                "express": self.express, "redeal": self.redeal}

    @property
    def names(self) -> list[str]:
        """The players' names in seat order."""
        return [p.name for p in self.players]


def _bad(name: str, expected: str) -> DealInputError:
    return DealInputError(Reason("bad_field", {"field": name, "expected": expected}))


def _flag(data: Mapping, key: str) -> bool:
    value = data.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(key, M_("true or false"))
    return value


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if value is None:
        return ()
    if not isinstance(value, (str, list)) or (isinstance(value, list) and not all(isinstance(t, str) for t in value)):
        raise _bad(where, M_("cards as text, like \"K♠ 10♥ JK\""))
    try:
        return parse_cards(value)
    except CardError as err:
        raise DealInputError(Reason("field_error", {"field": where, "why": err.reason})) from None


def clean_name(value: Any, where: str = "name") -> str:
    """A player's name, trimmed; 1 to 40 characters.

    >>> clean_name("  Анна ")
    'Анна'
    """
    if not isinstance(value, str):
        raise _bad(where, M_("a player's name"))
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise DealInputError(Reason("bad_name", {"limit": MAX_NAME, "field": where}))
    return name


def _player(raw: Any, where: str, redeal: bool) -> PlayerRecord:
    if isinstance(raw, str) and redeal:
        return PlayerRecord(clean_name(raw, where))
    if not isinstance(raw, Mapping):
        raise _bad(where, M_("an object with name, melds, vists and hand"))
    name = clean_name(raw.get("name"), f"{where}.name")
    melds = raw.get("melds") or []
    if isinstance(melds, str):
        melds = [line for line in melds.splitlines() if line.strip()]
    if not isinstance(melds, list):
        raise _bad(f"{where}.melds", M_("a list of melds"))
    if len(melds) > MAX_MELDS:
        raise DealInputError(Reason("too_many_items", {"field": f"{where}.melds", "limit": MAX_MELDS}))
    parsed_melds = tuple(m for m in (_cards(m, f"{where}.melds[{j}]") for j, m in enumerate(melds)) if m)
    vists = raw.get("vists") or []
    if not isinstance(vists, list):
        raise _bad(f"{where}.vists", M_("a list of vists"))
    if len(vists) > MAX_VISTS:
        raise DealInputError(Reason("too_many_items", {"field": f"{where}.vists", "limit": MAX_VISTS}))
    parsed_vists = []
    for j, v in enumerate(vists):
        vw = f"{where}.vists[{j}]"
        if not isinstance(v, Mapping):
            raise _bad(vw, M_("an object with to, meld and cards"))
        meld = v.get("meld")
        if meld is not None and (isinstance(meld, bool) or not isinstance(meld, int) or meld < 0):
            raise _bad(f"{vw}.meld", M_("a meld number counted from 0, or null"))
        cards = _cards(v.get("cards"), f"{vw}.cards")
        if cards:
            parsed_vists.append(Vist(clean_name(v.get("to"), f"{vw}.to"), cards, meld))
    return PlayerRecord(name, parsed_melds, tuple(parsed_vists), _cards(raw.get("hand"), f"{where}.hand"))


# -- evaluation --------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerScore:
    """One player's result in a deal."""

    name: str
    plus: int
    minus: int
    score: int

    def to_dict(self) -> dict:
        """The result in the API's shape."""
        return {"name": self.name, "plus": self.plus, "minus": self.minus, "score": self.score}


@dataclass(frozen=True)
class VistResult:
    """Where a vist went and what it scored."""

    vist: Vist
    meld: Optional[int]
    legal: bool
    points: int
    check: Optional[MeldCheck] = None


@dataclass(frozen=True)
class PlayerDetail:
    """Everything the scorer worked out for one player: meld verdicts, vists, hand points."""

    name: str
    melds: tuple[MeldCheck, ...]
    vists: tuple[VistResult, ...]
    hand_points: int
    hand_jokers: int
    #: the player's melds at the end of the deal, with every legal vist added
    final_melds: tuple[MeldCheck, ...] = ()


@dataclass(frozen=True)
class DealReport:
    """Validation and scores of a deal. Problems never stop scoring: the table decides."""

    players: tuple[PlayerScore, ...]
    problems: tuple[Reason, ...] = ()
    details: tuple[PlayerDetail, ...] = ()

    @property
    def valid(self) -> bool:
        """True when nothing is wrong with the deal as recorded."""
        return not self.problems

    @property
    def scores(self) -> dict[str, int]:
        """Deal score by player name."""
        return {p.name: p.score for p in self.players}

    def to_dict(self) -> dict:
        """The report in the API's shape."""
        return {"valid": self.valid,
                "problems": [{"code": p.code, "message": p.message} for p in self.problems],
                "players": [p.to_dict() for p in self.players]}


def evaluate_deal(deal: Deal, rules: RuleSet) -> DealReport:
    """Validate a deal, listing every problem, and score it under ``rules``.

    >>> from kunken_scorer.rules import RuleSet
    >>> report = evaluate_deal(Deal.from_dict({"players": [{"name": "A"}, {"name": "B"}], "redeal": True}),
    ...                        RuleSet.preset())
    >>> report.valid, report.scores
    (True, {'A': 0, 'B': 0})
    """
    problems: list[Reason] = []
    names = deal.names
    count = len(names)
    if not rules.min_players <= count <= rules.max_players:
        problems.append(Reason("player_count", {"min": rules.min_players, "max": rules.max_players, "count": count}))
    for name, n in Counter(names).items():
        if n > 1:
            problems.append(Reason("duplicate_player", {"player": name}))
    if deal.redeal:
        return DealReport(tuple(PlayerScore(n, 0, 0, 0) for n in names), tuple(problems))

    laid = laid_counts([m for p in deal.players for m in p.melds] +
                       [v.cards for p in deal.players for v in p.vists], rules)
    meld_checks: dict[str, list[MeldCheck]] = {}
    for p in deal.players:
        checks = [check_parsed(m, rules, laid) for m in p.melds]
        meld_checks.setdefault(p.name, checks)
        for j, check in enumerate(checks):
            if not check.legal:
                problems.append(Reason("illegal_meld", {"player": p.name, "meld": j + 1,
                                                        "cards": format_cards(check.written),
                                                        "why": list(check.reasons)}))
        if rules.first_meld_run and checks and not any(c.kind == "run" and c.legal for c in checks):
            problems.append(Reason("no_run", {"player": p.name}))
        elif rules.first_meld_run and not checks and p.vists:
            problems.append(Reason("additions_without_run", {"player": p.name}))

    table = {name: list(checks) for name, checks in meld_checks.items()}
    vist_results: dict[str, list[VistResult]] = {n: [] for n in names}
    # The record does not say in which order the players made their vists: a vist that does not
    # fit yet is tried again after the others (9♥ to 5♥ 6♥ 7♥ may follow someone's 8♥).
    pending = [(p.name, k, vist) for p in deal.players for k, vist in enumerate(p.vists)]
    done: dict[tuple[str, int], tuple[VistResult, Optional[Reason]]] = {}
    progress = True
    while pending and progress:
        progress, waiting = False, []
        for name, k, vist in pending:
            result, problem = _apply_vist(name, vist, table, rules, laid)
            if problem is None:
                done[(name, k)] = (result, None)
                progress = True
            else:
                waiting.append((name, k, vist))
        pending = waiting
    for name, k, vist in pending:
        done[(name, k)] = _apply_vist(name, vist, table, rules, laid)
    for p in deal.players:
        for k in range(len(p.vists)):
            result, problem = done[(p.name, k)]
            vist_results[p.name].append(result)
            if problem:
                problems.append(problem)

    every = Counter(c for p in deal.players for cards in (*p.melds, *(v.cards for v in p.vists), p.hand)
                    for c in cards)
    printed = sum(n for c, n in every.items() if c.is_joker)
    jokers = sum(n for c, n in every.items() if rules.is_joker(c))
    over = [(str(c), n) for c, n in every.items() if n > rules.decks and not rules.is_joker(c)]
    for card, n in sorted(over):
        problems.append(Reason("too_many_copies", {"card": card, "count": n}))
    if rules.wild_card and printed:
        problems.append(Reason("joker_not_in_deck", {"count": printed, "wild": rules.wild_card}))
    if jokers > rules.deck_jokers:
        problems.append(Reason("too_many_jokers", {"count": jokers, "deck": rules.deck_jokers}))

    went_out = deal.went_out
    if went_out is not None and went_out not in names:
        problems.append(Reason("unknown_went_out", {"player": went_out}))
        went_out = None
    for p in deal.players:
        if p.name == went_out and p.hand:
            problems.append(Reason("went_out_with_cards", {"player": p.name, "cards": format_cards(p.hand)}))
    express = deal.express
    if express and not rules.express:
        problems.append(Reason("express_not_in_game", {}))
        express = False
    elif express and went_out is None:
        problems.append(Reason("express_without_going_out", {}))
        express = False

    scores, details = [], []
    for p in deal.players:
        checks = meld_checks[p.name]
        plus = sum(c.points for c in checks) + sum(v.points for v in vist_results[p.name])
        hand_jokers = sum(1 for c in p.hand if rules.is_joker(c))
        hand_points = sum(map(rules.face_points, p.hand))
        if rules.joker_in_hand == "double":
            minus = hand_points * 2 ** hand_jokers
        else:
            minus = hand_points + hand_jokers * rules.joker_in_hand
        if express:
            if p.name == went_out:
                plus *= rules.express_multiplier
            else:
                minus *= rules.express_multiplier
        scores.append(PlayerScore(p.name, plus, minus, plus - minus))
        details.append(PlayerDetail(p.name, tuple(checks), tuple(vist_results[p.name]), hand_points, hand_jokers,
                                    tuple(table.get(p.name, ()))))
    return DealReport(tuple(scores), tuple(problems), tuple(details))


def _apply_vist(player: str, vist: Vist, table: dict, rules: RuleSet, laid: Counter):
    """Extend the target meld in ``table``; return the vist's result and its problem, if any.

    Only a legal vist changes the meld: an illegal one is reported, and later vists to the same
    meld are judged without its cards.
    """
    shown = format_cards(vist.cards)
    naive = sum(map(rules.face_points, vist.cards))
    if vist.to not in table:
        return VistResult(vist, None, False, naive), Reason("unknown_player", {"player": player, "to": vist.to})
    melds = table[vist.to]
    if vist.meld is not None:
        if vist.meld >= len(melds):
            return VistResult(vist, None, False, naive), Reason(
                "vist_no_meld", {"player": player, "to": vist.to, "meld": vist.meld + 1, "cards": shown})
        candidates = [vist.meld]
    else:
        candidates = list(range(len(melds)))
    for j in candidates:
        result = extend(melds[j], vist.cards, rules, laid)
        if result.legal:
            melds[j] = result
            points = sum(result.card_points[len(result.card_points) - len(vist.cards):])
            return VistResult(vist, j, True, points, result), None
    if vist.meld is None:  # no meld of the player takes it (or the player has none)
        return VistResult(vist, None, False, naive), Reason(
            "vist_fits_nothing", {"player": player, "to": vist.to, "cards": shown})
    # the named meld was tried alone: ``result`` is its verdict
    return VistResult(vist, vist.meld, False, naive, result), Reason(
        "illegal_vist", {"player": player, "to": vist.to, "meld": vist.meld + 1, "cards": shown,
                         "why": list(result.reasons)})
