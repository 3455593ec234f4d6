"""A club night of several tables (issue 37): the fair comparison across tables of different sizes, the standings
summed over the tables and rounds, and who sits where in the next round. Pure Python: names and numbers in,
names and numbers out.

- ``place_points``: a table's places as points, 100 for the first and 0 for the last whatever the table's size;
- ``night_standings``: every player's results at the tables they sat at, summed, best first;
- ``next_seating``: the old rule for the next round's tables (a rotation, then swaps): kept for its callers and as
  the benchmark's baseline; new rounds are seated by ``core.seating.fresh_seating``, which plans the rest of the
  night and meets fewer people again (``meetings`` and ``repeats`` count them for both);
- ``tables_from_text``: the tables a start form's text names, a line a table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .seating import rotated

#: The most passes over every two players of different tables, swapping them when that helps.
_PASSES = 30

Seating = list[list[str]]

#: The longest start form's text of tables read (20 tables of 12 names of 40 characters, with commas).
MAX_TABLES_TEXT = 12_000


def tables_from_text(text: str) -> Seating:
    """The tables a start form's ``text`` names: a line a table, its names parted by commas; blank lines and blank
    names left out, the rest as typed (``service.night_tables`` reads and checks the names).

    >>> tables_from_text("Anna, Boris\\n\\n Vera ,, Gosha \\n")
    [['Anna', ' Boris'], [' Vera ', ' Gosha ']]
    """
    return [[name for name in line.split(",") if name.strip()] for line in text.splitlines() if line.strip()]


def place_points(totals: Sequence[int]) -> list[float]:
    """Each player's place at a table of ``n`` as points, ``100·(n − place) / (n − 1)``: the first 100, the last
    0, evenly between, whatever the table's size; players level share the points of the places they hold.

    >>> place_points([30, -10, 5])
    [100.0, 0.0, 50.0]
    >>> [round(p, 1) for p in place_points([20, 20, 0, -5])]
    [83.3, 83.3, 33.3, 0.0]
    """
    n = len(totals)
    if n < 2:
        return [0.0] * n
    order = sorted(totals, reverse=True)
    points = []
    for total in totals:
        first = order.index(total)  # 0-based places held by the players level with this one: first..last
        last = first + order.count(total) - 1
        points.append(sum(100 * (n - 1 - place) / (n - 1) for place in range(first, last + 1)) / (last - first + 1))
    return points


@dataclass(frozen=True)
class TableResult:
    """One player's result at one table of a round: the session's total and the deals the table played."""

    round: int
    table: int
    name: str
    total: int
    deals: int
    #: the place points of the player at this table (``place_points``; None before the table's first deal)
    points: float | None


@dataclass(frozen=True)
class NightStanding:
    """A player's night so far: totals and deals summed over the tables they sat at, the table of their last round,
    the place points summed, and their places by total and by points."""

    place: int
    name: str
    total: int
    table: int
    deals: int
    points: float
    points_place: int


def table_results(round_no: int, table: int, totals: dict[str, int], deals: int) -> list[TableResult]:
    """A table's players' results (``totals`` in seat order); place points only once the table has played.

    >>> [(r.name, r.points) for r in table_results(1, 2, {"A": 5, "B": -5}, 1)]
    [('A', 100.0), ('B', 0.0)]
    """
    points: list[float | None] = list(place_points(list(totals.values()))) if deals else [None] * len(totals)
    return [
        TableResult(round_no, table, name, t, deals, p) for (name, t), p in zip(totals.items(), points, strict=True)
    ]


def _places(values: Sequence[float]) -> list[int]:
    """Places of values sorted best first, level values sharing the place (1, 1, 3)."""
    places: list[int] = []
    for i, value in enumerate(values):
        places.append(places[-1] if i and value == values[i - 1] else i + 1)
    return places


def night_standings(results: Sequence[TableResult]) -> list[NightStanding]:
    """Every player's results summed over the night, the best total first (level: more place points first, then
    the name); ``points_place`` is the player's place by place points.

    >>> rs = table_results(1, 1, {"A": 10, "B": -10}, 2) + table_results(1, 2, {"C": 40, "D": 0, "E": -40}, 3)
    >>> [(s.place, s.name, s.total, s.table, s.deals, s.points, s.points_place) for s in night_standings(rs)][:3]
    [(1, 'C', 40, 2, 3, 100.0, 1), (2, 'A', 10, 1, 2, 100.0, 1), (3, 'D', 0, 2, 3, 50.0, 3)]
    >>> [(s.name, s.points_place) for s in night_standings(rs)][3:]
    [('B', 4), ('E', 4)]
    """
    total: Counter[str] = Counter()
    deals: Counter[str] = Counter()
    points: dict[str, float] = {}
    table: dict[str, tuple[int, int]] = {}
    for r in results:
        total[r.name] += r.total
        deals[r.name] += r.deals
        points[r.name] = points.get(r.name, 0.0) + (r.points or 0.0)
        table[r.name] = max(table.get(r.name, (0, 0)), (r.round, r.table))
    rounded = {name: round(p, 1) for name, p in points.items()}
    ranked = sorted(table, key=lambda n: (-total[n], -rounded[n], n.casefold()))
    by_points = sorted(table, key=lambda n: (-rounded[n], -total[n], n.casefold()))
    points_place = dict(zip(by_points, _places([rounded[n] for n in by_points]), strict=True))
    places = _places([total[n] for n in ranked])
    return [
        NightStanding(place, name, total[name], table[name][1], deals[name], rounded[name], points_place[name])
        for place, name in zip(places, ranked, strict=True)
    ]


def meetings(rounds: Sequence[Sequence[Sequence[str]]]) -> Counter[frozenset[str]]:
    """How many times each two players have sat at one table.

    >>> sorted(tuple(sorted(p)) for p in meetings([[["A", "B"], ["C", "D"]]]))
    [('A', 'B'), ('C', 'D')]
    """
    met: Counter[frozenset[str]] = Counter()
    for tables in rounds:
        for players in tables:
            met.update(frozenset(pair) for pair in combinations(players, 2))
    return met


def repeats(seating: Sequence[Sequence[str]], met: Counter[frozenset[str]]) -> int:
    """The meetings again a seating makes: for each two players at one table, how often they met before."""
    return sum(met[frozenset(pair)] for players in seating for pair in combinations(players, 2))


def next_seating(rounds: Sequence[Sequence[Sequence[str]]]) -> Seating:
    """The next round's tables by the old rule: as many, of the sizes the first round had, everyone of the last
    round seated once.

    The rule: start from the fixed rotation clubs use (``seating.rotated``: the player in seat ``s`` of table
    ``t`` moves ``s`` tables on); then, while swapping two players of different tables lowers the meetings again
    (``repeats``), swap them (tables and seats in order, pass after pass until no swap helps). It looks one round
    ahead only, so a tight night runs out of new opponents early: sixteen players at four tables of four meet
    eight pairs again in rounds 4 and 5, where ``seating.fresh_seating`` (the rule for new rounds) meets
    nobody again for all five. The same rounds always give the same seating.

    >>> next_seating([[["A", "B", "C", "D"], ["E", "F", "G", "H"]]])
    [['A', 'C', 'F', 'H'], ['B', 'D', 'E', 'G']]
    """
    if not rounds:
        raise ValueError("a night has its first round before the next")
    last = rounds[-1]
    tables = rotated(last, [name for players in last for name in players], [len(players) for players in rounds[0]])
    met: dict[str, Counter[str]] = {}
    for pair, times in meetings(rounds).items():
        a, b = pair
        met.setdefault(a, Counter())[b] = met.setdefault(b, Counter())[a] = times
    return _improved(tables, met)


def _cost(name: str, others: Sequence[str], met: dict[str, Counter[str]]) -> int:
    """How often ``name`` met the ``others`` before (``name`` among them counts nothing)."""
    seen = met.get(name)
    return sum(seen[other] for other in others) if seen else 0


def _improved(tables: Seating, met: dict[str, Counter[str]]) -> Seating:
    """``tables`` with players of two tables swapped while a swap makes fewer meetings again."""
    for _ in range(_PASSES):
        if not _swap_pass(tables, met):
            break
    return tables


def _swap_pass(tables: Seating, met: dict[str, Counter[str]]) -> int:
    """Every swap (in table and seat order) that lowers the meetings again, made at once; how many were made."""
    swaps = 0
    for a, b in combinations(range(len(tables)), 2):
        for i in range(len(tables[a])):
            for j, y in enumerate(tables[b]):
                x = tables[a][i]
                before = _cost(x, tables[a], met) + _cost(y, tables[b], met)
                rest_a, rest_b = [p for p in tables[a] if p != x], [p for p in tables[b] if p != y]
                after = _cost(x, rest_b, met) + _cost(y, rest_a, met)
                if after < before:
                    tables[a][i], tables[b][j] = y, x
                    swaps += 1
    return swaps
