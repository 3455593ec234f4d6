"""A deal assembled from the players' phones: one part per seat, checked as the parts arrive.

Each player enters their own part of the current deal (melds, vists, swaps, cards left in hand);
the scorer adds who went out, express or a redeal. A part is checked at once on its own (each
meld), and against the other parts as soon as the parts it needs are in: a vist onto the melds
of a player whose part is still missing waits for that part instead of being called wrong. A part
whose cards left in hand are not entered is never read as a hand of none: only a part that says
"no cards" (``""``) may be the one who went out.

>>> from kunken_scorer.core.rules import RuleSet
>>> names = ["Anna", "Boris"]
>>> parts = {0: read_part({"melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "cards": "5♦"}], "hand": ""})}
>>> draft = check_draft(RuleSet.preset(), names, parts)
>>> [(s.name, s.state, s.waiting_for) for s in draft.seats]
[('Anna', 'entered', ('Boris',)), ('Boris', 'waiting', ())]
>>> parts[1] = read_part({"melds": ["2♦ 3♦ 4♦"], "hand": {"points": 40, "jokers": 1}})
>>> draft = check_draft(RuleSet.preset(), names, parts)
>>> draft.complete, draft.ready, draft.went_out, draft.report.scores
(True, True, 'Anna', {'Anna': 35, 'Boris': -35})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .deal import DealReport, evaluate_deal
from .messages import M_, Located, Reason
from .reading import Deal, DealInputError, read_player, read_swaps
from .rules import RuleSet

#: What a seat's part of the draft is: no part yet, a part whose cards left in hand are not entered (and whose
#: player did not go out), a part with no problem of its own, a part with one.
SEAT_STATES = ("waiting", "no_hand", "entered", "problem")
#: Problems about the melds of the player named by ``to``: they wait while that player's part is missing.
_NEEDS_TARGET = frozenset(
    {"vist_no_meld", "vist_fits_nothing", "illegal_vist", "swap_no_meld", "swap_fits_nothing", "illegal_swap"}
)


def read_part(raw: Any, where: str = "part", rules: RuleSet | None = None, seat: int | None = None) -> dict[str, Any]:
    """One seat's part in canonical form: ``{"melds", "vists", "swaps", "hand"}``; bad input raises,
    located at the part's field (``Reason.field``) and, when given, its ``seat``.

    A swap here leaves out ``by`` (the part's own player made it). With ``rules``, a hand given in
    short must be one this game's cards can make.

    >>> read_part({"melds": "тп тч тб", "swaps": [{"from": "Boris", "meld": 0, "card": "5ч"}]})
    {'melds': ['A♠ A♥ A♦'], 'vists': [], 'swaps': [{'from': 'Boris', 'meld': 0, 'card': '5♥'}], 'hand': None}
    >>> read_part({"hand": "11♥"})
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: part.hand: "11♥": no such rank
    >>> read_part({"vists": [{"cards": "5♥"}]}, seat=2)
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: part.vists[0].to: expected a player's name.
    """
    if not isinstance(raw, Mapping):
        expected = M_("an object with melds, vists, swaps and hand")
        raise DealInputError(Reason("bad_field", {"field": where, "expected": expected}, seat=seat))
    unknown = sorted(set(raw) - {"melds", "vists", "swaps", "hand"})
    if unknown:
        raise DealInputError(Reason("unknown_field", {"field": f"{where}.{unknown[0]}"}, seat=seat))
    player = read_player({**raw, "name": "-"}, where, seat=seat)
    if rules is not None and player.hand_summary is not None:
        with Located(seat, "hand"):
            player.hand_summary.check_for(rules, f"{where}.hand")
    record = player.to_dict()
    raw_swaps = raw.get("swaps")
    if isinstance(raw_swaps, list):
        raw_swaps = [{**s, "by": "-"} if isinstance(s, Mapping) else s for s in raw_swaps]
    with Located(seat):
        swaps = read_swaps(raw_swaps, f"{where}.swaps")  # a bad field is named inside the part
    return {
        "melds": record["melds"],
        "vists": record["vists"],
        "swaps": [{k: v for k, v in s.to_dict().items() if k != "by"} for s in swaps],
        "hand": record["hand"],
    }


def deal_body(
    names: list[str],
    parts: Mapping[int, Mapping[str, Any]],
    went_out: str | None = None,
    express: bool = False,
    redeal: bool = False,
) -> dict[str, Any]:
    """The deal (the API's shape) the parts make: players in seat order, a missing part as an empty one whose hand
    nobody entered (None), as is a part's hand it does not give.

    >>> deal_body(["A", "B"], {1: {"melds": ["2♦ 3♦ 4♦"], "swaps": [{"from": "A", "meld": 0, "card": "K♦"}]}})
    ... # doctest: +NORMALIZE_WHITESPACE
    {'players': [{'name': 'A', 'melds': [], 'vists': [], 'hand': None},
                 {'name': 'B', 'melds': ['2♦ 3♦ 4♦'], 'vists': [], 'hand': None}],
     'went_out': None, 'express': False, 'redeal': False,
     'swaps': [{'by': 'B', 'from': 'A', 'meld': 0, 'card': 'K♦'}]}
    """
    players, swaps = [], []
    for seat, name in enumerate(names):
        part = parts.get(seat) or {}
        players.append(
            {
                "name": name,
                "melds": list(part.get("melds") or []),
                "vists": list(part.get("vists") or []),
                "hand": part.get("hand"),
            }
        )
        swaps += [{"by": name, **s} for s in part.get("swaps") or []]
    return {"players": players, "went_out": went_out, "express": express, "redeal": redeal, "swaps": swaps}


@dataclass(frozen=True)
class SeatCheck:
    """One seat of the draft: its state, its own problems, and the players whose parts it waits for."""

    seat: int
    name: str
    state: str
    problems: tuple[Reason, ...] = ()
    waiting_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class DraftCheck:
    """The draft checked together: each seat, the deal-wide problems, and the deal's report so far."""

    seats: tuple[SeatCheck, ...]
    problems: tuple[Reason, ...]
    report: DealReport
    body: dict[str, Any]
    went_out: str | None
    suggested: str | None

    @property
    def complete(self) -> bool:
        """Every seat's part is in (or the deal is a redeal)."""
        return bool(self.body.get("redeal")) or all(s.state != "waiting" for s in self.seats)

    @property
    def ready(self) -> bool:
        """Complete, and nothing is wrong: the scorer can record it as it is."""
        return self.complete and not self.report.problems

    @property
    def missing(self) -> tuple[str, ...]:
        """The players whose parts are not in yet."""
        return tuple(s.name for s in self.seats if s.state == "waiting")

    @property
    def no_hand(self) -> tuple[str, ...]:
        """The players whose parts are in without the cards left in hand (and who did not go out)."""
        return tuple(s.name for s in self.seats if s.state == "no_hand")


def _entered_state(problems: Any) -> str:
    """The state of a seat whose part is in, by its own problems: none, only its hand not entered, or others."""
    if not problems:
        return "entered"
    return "no_hand" if all(p.code == "hand_not_entered" for p in problems) else "problem"


def check_draft(
    rules: RuleSet,
    names: list[str],
    parts: Mapping[int, Mapping[str, Any]],
    went_out: str | None = None,
    went_out_set: bool = False,
    express: bool = False,
    redeal: bool = False,
) -> DraftCheck:
    """Check the parts in so far, together, under ``rules``.

    ``went_out`` counts only when ``went_out_set`` (the scorer chose); otherwise the one player
    whose part is in saying "no cards left" (a hand of none, ``""``) is taken to have gone out: a part
    whose hand is not entered (None) never is. Problems that need a part still missing (a vist onto
    that player's melds, that player's hand) are left out and shown as waiting.
    """
    entered = {seat for seat in range(len(names)) if seat in parts}
    suggested_deal = Deal.from_dict(deal_body(names, {s: parts[s] for s in entered}))
    empty = [
        p.name for i, p in enumerate(suggested_deal.players) if i in entered and p.hand_entered and not p.holds_cards
    ]
    suggested = empty[0] if len(empty) == 1 else None
    chosen = went_out if went_out_set else suggested
    body = deal_body(names, parts, chosen, express, redeal)
    report = evaluate_deal(Deal.from_dict(body), rules)
    missing = {name for seat, name in enumerate(names) if seat not in entered}
    seat_of = {name: seat for seat, name in enumerate(names)}
    own: dict[int, list[Reason]] = {}
    waiting: dict[int, list[str]] = {}
    general: list[Reason] = []
    for problem in report.problems:
        player = problem.params.get("player")
        target = problem.params.get("to")
        if problem.code in _NEEDS_TARGET and target in missing and player in seat_of:
            waiting.setdefault(seat_of[player], []).append(target)
        elif problem.code == "hand_not_entered" and player in missing:
            continue  # the part itself is missing: the seat waits
        elif player in seat_of and seat_of[player] in entered:
            own.setdefault(seat_of[player], []).append(problem)
        else:
            general.append(problem)
    kept = tuple(p for seat_problems in own.values() for p in seat_problems) + tuple(general)
    seats = []
    for seat, name in enumerate(names):
        state = "waiting" if seat not in entered else _entered_state(own.get(seat, ()))
        seats.append(
            SeatCheck(seat, name, state, tuple(own.get(seat, ())), tuple(dict.fromkeys(waiting.get(seat, ()))))
        )
    # "went out with nothing laid" waits for that player's part, like the problems that need a missing part
    warnings = tuple(w for w in report.warnings if not (w.code == "went_out_empty" and w.params["player"] in missing))
    if not entered or len(kept) != len(report.problems) or len(warnings) != len(report.warnings):
        # the problems that wait for a missing part are not the deal's problems yet
        report = DealReport(
            report.players, kept, report.details, warnings, report.express_by, report.express_multiplier
        )
    return DraftCheck(tuple(seats), tuple(general), report, body, chosen, suggested)


def part_of(record: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The part of the player ``name`` in a deal's ``record`` (the API's shape), as a part of the draft holds it:
    melds, vists, the swaps that player made (without ``by``) and the hand (``""`` for who went out, whose hand
    a record may leave out).

    >>> record = {"players": [{"name": "A", "melds": ["K♠ K♣ JK"], "hand": ""}, {"name": "B", "hand": "5♦"}],
    ...           "swaps": [{"by": "B", "from": "A", "meld": 0, "card": "K♦"}], "went_out": "A"}
    >>> part_of(record, "B")
    {'melds': [], 'vists': [], 'swaps': [{'from': 'A', 'meld': 0, 'card': 'K♦'}], 'hand': '5♦'}
    """
    player = next((p for p in record.get("players") or [] if isinstance(p, Mapping) and p.get("name") == name), {})
    swaps = [{k: v for k, v in s.items() if k != "by"} for s in record.get("swaps") or [] if s.get("by") == name]
    hand = player.get("hand")
    if hand is None and record.get("went_out") == name:
        hand = ""
    return read_part(
        {"melds": player.get("melds") or [], "vists": player.get("vists") or [], "swaps": swaps, "hand": hand}
    )


def with_part(record: Mapping[str, Any], name: str, part: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's ``record`` with the part of the player ``name`` replaced by ``part`` (a draft part's shape): their
    melds, vists and hand, and the swaps they made (kept in the record's order, theirs where theirs were).

    >>> record = {"players": [{"name": "A", "melds": ["K♠ K♣ JK"], "hand": ""}, {"name": "B", "hand": "5♦"}],
    ...           "went_out": "A"}
    >>> with_part(record, "B", {"melds": ["2♥ 3♥ 4♥"], "hand": "K♦"})["players"][1]
    {'name': 'B', 'melds': ['2♥ 3♥ 4♥'], 'vists': [], 'hand': 'K♦'}
    """
    players = [
        {
            "name": name,
            "melds": list(part.get("melds") or []),
            "vists": list(part.get("vists") or []),
            "hand": part.get("hand"),
        }
        if isinstance(p, Mapping) and p.get("name") == name
        else p
        for p in record.get("players") or []
    ]
    swaps = [s for s in record.get("swaps") or [] if s.get("by") != name]
    swaps += [{"by": name, **s} for s in part.get("swaps") or []]
    return {**record, "players": players, "swaps": swaps}
