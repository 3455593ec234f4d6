"""Session arithmetic: running totals, the dealer, and when an evening ends.

>>> totals(["Anna", "Boris"], [{"Anna": 35, "Boris": -5}, {"Anna": -10, "Boris": 40}])
{'Anna': 25, 'Boris': 35}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .messages import M_, KunkenError, Reason

TARGET_KINDS = ("deals", "score", "penalty")
#: A target value sent as text: one optional minus and at most 9 digits ("²", "--5" or a 5,000-digit
#: number are not whole numbers here; int() would refuse them or work on them for a long while).
_WHOLE_TEXT = re.compile(r"\s*-?[0-9]{1,9}\s*")


class TargetError(KunkenError):
    """A session target that cannot be read."""


@dataclass(frozen=True)
class Target:
    """Where a session ends: after a number of deals, at a score, or at a penalty limit.

    >>> Target.from_dict({"kind": "penalty", "value": 100})
    Target(kind='penalty', value=100)
    """

    kind: str
    value: int

    @classmethod
    def from_dict(cls, data: Any) -> Target | None:
        """Read a target (``None`` or ``{"kind": ..., "value": ...}``); bad input raises ``TargetError``."""
        if data in (None, "", {}):
            return None
        if not isinstance(data, Mapping):
            raise TargetError(Reason("bad_target", {"why": M_('expected {"kind": "deals|score|penalty", "value": N}')}))
        kind = data.get("kind")
        if kind not in TARGET_KINDS:
            raise TargetError(Reason("bad_target", {"why": M_("kind must be deals, score or penalty")}))
        value = data.get("value")
        if isinstance(value, str) and _WHOLE_TEXT.fullmatch(value):  # ASCII digits only, a few of them
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value == 0 or abs(value) > 100000:
            raise TargetError(Reason("bad_target", {"why": M_("value must be a whole number from 1 to 100000")}))
        if kind == "deals" and value < 0:
            raise TargetError(Reason("bad_target", {"why": M_("the number of deals must be positive")}))
        return cls(kind, abs(value))

    def to_dict(self) -> dict[str, Any]:
        """The target as plain data."""
        return {"kind": self.kind, "value": self.value}


def _bad(name: str, expected: str) -> KunkenError:
    return KunkenError(Reason("bad_field", {"field": name, "expected": expected}))


def _players(players: Any) -> Sequence[str]:
    """The players' names (a list of text); ``KunkenError`` naming the argument otherwise."""
    if not isinstance(players, (list, tuple)) or not all(isinstance(name, str) for name in players):
        raise _bad("players", M_("a list of players"))
    return players


def _whole(value: Any, name: str) -> int:
    """A count (a whole number, 0 or more); ``KunkenError`` naming the argument otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _bad(name, M_("a whole number, 0 or more"))
    return value


_DEAL_SCORES = M_("a list of deal scores, each a player's name with their score")


def _deal_scores(deal_scores: Any) -> Iterable[Mapping[str, int]]:
    """The deals' scores, checked one by one as they are read: each a mapping of names to whole numbers."""
    if isinstance(deal_scores, (str, bytes, Mapping)) or not isinstance(deal_scores, Iterable):
        raise _bad("deal_scores", _DEAL_SCORES)
    for i, scores in enumerate(deal_scores):
        if not isinstance(scores, Mapping) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores.values()
        ):
            raise _bad(f"deal_scores[{i}]", _DEAL_SCORES)
        yield scores


def totals(players: Sequence[str], deal_scores: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each player's running total: the sum of their deal scores (a missing player scores 0).

    A value of the wrong kind raises ``KunkenError`` naming the argument, as every function here does.
    """
    result = {name: 0 for name in _players(players)}
    for scores in _deal_scores(deal_scores):
        for name in result:
            result[name] += scores.get(name, 0)
    return result


def running_totals(players: Sequence[str], deal_scores: Iterable[Mapping[str, int]]) -> list[dict[str, int]]:
    """The totals after each deal, for a chart.

    >>> running_totals(["A"], [{"A": 5}, {"A": -2}])
    [{'A': 5}, {'A': 3}]
    """
    current = {name: 0 for name in _players(players)}
    out = []
    for scores in _deal_scores(deal_scores):
        current = {name: current[name] + scores.get(name, 0) for name in players}
        out.append(dict(current))
    return out


def dealer(players: Sequence[str], deals_played: int) -> str | None:
    """Who deals next: the deal passes to the left, one seat a deal.

    >>> dealer(["Anna", "Boris", "Vera"], 4)
    'Boris'
    """
    players, deals_played = _players(players), _whole(deals_played, "deals_played")
    return players[deals_played % len(players)] if players else None


@dataclass(frozen=True)
class Standing:
    """A player's place in the session."""

    place: int
    name: str
    total: int
    out: bool = False


@dataclass(frozen=True)
class SessionStatus:
    """Standings, who leads (every player tied for first place, in seat order), who is out, and whether the target
    is reached."""

    standings: tuple[Standing, ...]
    leaders: tuple[str, ...]
    finished: bool
    deals_played: int
    next_dealer: str | None
    progress: str | None = None


def session_status(
    players: Sequence[str], deal_scores: Sequence[Mapping[str, int]], target: Target | None, redeals: int = 0
) -> SessionStatus:
    """Standings and the target's state after the recorded deals (redeals count toward dealing only).

    >>> s = session_status(["A", "B"], [{"A": -120, "B": 30}], Target("penalty", 100))
    >>> s.finished, s.leaders, [x.out for x in s.standings]
    (True, ('B',), [False, True])
    >>> session_status(["A", "B", "C"], [{"A": 30, "B": 30, "C": -5}], None).leaders  # a tie: both lead
    ('A', 'B')
    """
    deal_scores = list(_deal_scores(deal_scores))
    if isinstance(target, Mapping):
        target = Target.from_dict(target)
    elif target is not None and not isinstance(target, Target):
        raise TargetError(Reason("bad_target", {"why": M_('expected {"kind": "deals|score|penalty", "value": N}')}))
    redeals = _whole(redeals, "redeals")
    total = totals(players, deal_scores)
    ranked = sorted(players, key=lambda n: (-total[n], players.index(n)))
    out = {n for n in players if target and target.kind == "penalty" and total[n] <= -target.value}
    standings, place = [], 0
    for i, name in enumerate(ranked):
        if i == 0 or total[name] != total[ranked[i - 1]]:
            place = i + 1
        standings.append(Standing(place, name, total[name], name in out))
    played = len(deal_scores)
    finished, progress = False, None
    if target and target.kind == "deals":
        finished = played >= target.value
        progress = f"{played}/{target.value}"
    elif target and target.kind == "score":
        best = max(total.values()) if total else 0
        finished = best >= target.value
        progress = f"{best}/{target.value}"
    elif target and target.kind == "penalty":
        finished = bool(out)
        worst = min(total.values()) if total else 0
        progress = f"{worst}/-{target.value}"
    leaders = tuple(s.name for s in standings if s.place == 1) if deal_scores else ()
    return SessionStatus(tuple(standings), leaders, finished, played, dealer(players, played + redeals), progress)
