"""Who sits where at a club night (issue 37): how many tables, of which sizes, and the next round's tables with the
fewest meetings again over the whole night. Pure Python: names and numbers in, names and numbers out.

- ``table_sizes``: the sizes of ``tables`` tables for ``count`` players, as equal as can be, larger first;
- ``tables_for``: how many tables when players arrive or leave, every table within the game's player range;
- ``fresh_seating``: the next round, planned together with the rounds after it so no round paints the night into
  a corner (a schedule search, not one greedy round);
- ``ranked_seating``: the top players together, for a night seated by its standings or by rating.

Why a schedule search: seating one round at a time, each round the best it can be, runs out of new opponents
early. Sixteen players at four tables of four can meet everyone exactly once in five rounds (the affine plane
of order 4), but a greedy round 3 that meets nobody again can leave no round 4 that does. Planning the rounds
that remain together, and taking the first of the plan, keeps every later round possible; the next call plans
again from the rounds actually played, and finds a perfect completion again when one exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Seating = list[list[str]]

#: The most rounds planned at once (the next one included): the search stays fast, and rounds further off matter
#: little (they are planned again anyway before they are played).
MAX_PLANNED = 6
#: The search's budget, in swaps looked at (a quarter to half a second on the project machine), and a quarter of it
#: for the next round alone; deterministic, unlike a clock. A night with a perfect plan stops far earlier.
_BUDGET = 1_500_000
#: How much more a meeting again in the next round costs the search than one in a later planned round. A small
#: weight, because a large one freezes the next round early and the search then misses perfect plans; the plan
#: kept is still the one with the fewest meetings again in the next round, and only then the fewest overall.
_WEIGHT = 2
#: Moves without a cheaper plan before the search goes back to its cheapest plan and shakes it (``_SHAKES`` random
#: swaps); how many moves a swap made stays barred (drawn between the two). Tuned on 16, 20, 25 and 15 (tables of
#: three, Kirkman's schoolgirls) players: a short tabu tenure lets the search circle.
_STALL = 800
_TENURE = (40, 120)
_SHAKES = 3
#: The most players meeting someone again whose swaps one move looks at (picked at random): a big night's plan
#: may have hundreds, and looking at all of them would leave the search time for few moves.
_SAMPLE = 64


def table_sizes(count: int, tables: int) -> list[int]:
    """The sizes of ``tables`` tables seating ``count`` players: as equal as can be, the larger tables first.

    >>> table_sizes(13, 3)
    [5, 4, 4]
    >>> table_sizes(16, 4)
    [4, 4, 4, 4]
    """
    if tables < 1 or count < tables:
        raise ValueError(f"{count} players do not fill {tables} tables")
    size, larger = divmod(count, tables)
    return [size + 1] * larger + [size] * (tables - larger)


def tables_for(count: int, wanted_tables: int, min_size: int, max_size: int) -> int:
    """How many tables seat ``count`` players: ``wanted_tables`` when every table of ``table_sizes`` stays within
    ``min_size``..``max_size`` players (the game's range: ``RuleSet.min_players``, ``max_players``), else the nearest
    number of tables that does. A ValueError when none does (one player, or a range no split fits).

    Players arriving or leaving keep the night's tables while they can: a table grows or shrinks by one before a
    table is added or closed.

    >>> tables_for(16, 3, 2, 5)  # 16 at three tables would seat six at one: a fourth table
    4
    >>> tables_for(7, 3, 2, 5), tables_for(5, 3, 2, 5)  # 7 fit three tables; 5 cannot be three tables of two
    (3, 2)
    >>> tables_for(1, 1, 2, 5)
    Traceback (most recent call last):
    ...
    ValueError: no number of tables seats 1 players at 2 to 5 a table
    """
    if min_size < 1 or max_size < min_size:
        raise ValueError(f"no table holds {min_size} to {max_size} players")
    fits = [t for t in range(1, count + 1) if min_size <= count // t and -(-count // t) <= max_size]
    if not fits:
        raise ValueError(f"no number of tables seats {count} players at {min_size} to {max_size} a table")
    return min(fits, key=lambda t: (abs(t - wanted_tables), t))


def ranked_seating(order: Sequence[str], sizes: Sequence[int]) -> Seating:
    """The top players together: the first ``sizes[0]`` names of ``order`` at table 1, the next ``sizes[1]`` at
    table 2, and so on (a night seated by its standings or by rating; the caller ranks the players).

    >>> ranked_seating(["A", "B", "C", "D", "E"], [3, 2])
    [['A', 'B', 'C'], ['D', 'E']]
    """
    _check(order, sizes)
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _check(players: Sequence[str], sizes: Sequence[int]) -> None:
    """A ValueError unless ``players`` are different names that fill tables of ``sizes`` exactly."""
    if not sizes or any(size < 1 for size in sizes):
        raise ValueError(f"tables need a player at least: {list(sizes)}")
    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players do not fill tables of {list(sizes)}")
    if len(set(players)) != len(players):
        raise ValueError("a player is named twice")


def planned_rounds(played: int, count: int, sizes: Sequence[int], horizon: int | None = None) -> int:
    """How many rounds ``fresh_seating`` plans (the next one included) after ``played`` rounds, for ``count``
    players at tables of ``sizes``: up to round ``horizon`` when the night's length is known, else up to the last
    round that could still give everyone new opponents (``count − 1`` opponents, met ``Σ s·(s − 1) / count`` a
    round on average); one at least, ``MAX_PLANNED`` at most.

    >>> planned_rounds(1, 16, [4, 4, 4, 4]), planned_rounds(4, 16, [4, 4, 4, 4]), planned_rounds(9, 16, [4] * 4)
    (4, 1, 1)
    >>> planned_rounds(1, 13, [5, 4, 4]), planned_rounds(0, 100, [5] * 20), planned_rounds(2, 12, [4] * 3, 6)
    (2, 6, 4)
    """
    if horizon is None:
        per_round = sum(size * (size - 1) for size in sizes) / count
        horizon = int((count - 1) / per_round) if per_round else played + 1
    return max(1, min(horizon - played, MAX_PLANNED))


def _spread(players: int, tables: int) -> int:
    """The fewest pairs left at one table when ``players`` spread over ``tables`` tables (pigeonholes)."""
    q, r = divmod(players, tables)
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


def fresh_seating(
    rounds: Sequence[Sequence[Sequence[str]]],
    players: Sequence[str],
    sizes: Sequence[int],
    *,
    seed: int | str,
    horizon: int | None = None,
) -> Seating:
    """The next round's tables for ``players`` (the names here now, late arrivals included; names of earlier
    ``rounds`` not among them have left) at tables of ``sizes``: everyone seated once, the fewest meetings again.

    The rounds that remain (``planned_rounds``) are planned together and the first is returned. A plan's cost is
    the night's meetings again: a pair that meets ``m`` times counts ``m·(m − 1)/2`` over the rounds played and
    planned (``repeats`` summed round by round), the next round's meetings with the rounds played counting twice.
    The search: a tabu search over swaps of two players at different tables of one planned round (each swap's
    change of cost worked out in constant time from every player's meetings with every table), from the cheaper
    of the clubs' rotation (``rotated``, round after round) and a greedy plan, going back to its cheapest plan and
    shaking it when it stalls, until the plan reaches a lower bound (``_floors``) or a fixed budget of swaps is
    spent. The plan kept is the one whose next round meets the fewest again, then the cheapest; should that
    still be above its bound, a search of the next round alone may lower it: the next round is never made worse
    for a plan further off. ``random.Random(seed)`` breaks the ties: the same rounds, players, sizes and seed
    always give the same seating (pass the night's id). Each call plans afresh from the rounds played, and finds
    a perfect completion again when the night has one (sixteen players at four tables of four: tested).

    Inside a table the players keep the order of ``players``, and tables of one size are ordered by their first
    player in that order; but when the plan keeps the rotation's next round, it comes with the rotation's seats, so
    the next call rotates on from them (at ``q`` tables of ``q``, ``q`` a prime, that is a perfect night).

    >>> first = [["A", "B", "C", "D"], ["E", "F", "G", "H"], ["I", "J", "K", "L"], ["M", "N", "O", "P"]]
    >>> nxt = fresh_seating([first], sum(first, []), [4, 4, 4, 4], seed=1)
    >>> [len(set(table) & set(old)) for table in nxt for old in first]  # every table has one of each old table
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    _check(players, sizes)
    if len(sizes) == 1:
        return [list(players)]
    index = {name: i for i, name in enumerate(players)}
    n, tables, sizes = len(players), len(sizes), list(sizes)
    prev = _met_before(rounds, index)
    planned = planned_rounds(len(rounds), n, sizes, horizon)
    floor = _floors(rounds, index, prev, sizes, planned)
    rng = random.Random(seed)
    rotation = [rotated(rounds[-1], players, sizes) if rounds else ranked_seating(players, sizes)]
    while len(rotation) < planned:
        rotation.append(rotated(rotation[-1], players, sizes))
    turned = _Plan(n, sizes, prev, [_seats(seating, index) for seating in rotation])
    greedy = _Plan(n, sizes, prev, _greedy(n, sizes, prev, planned, rng))
    again, seats = _search(turned if turned.cost <= greedy.cost else greedy, floor, rng, _BUDGET)
    if again > floor[0]:  # the next round alone, should the plan's search have left it meeting more again
        alone, first = _search(_Plan(n, sizes, prev, [seats]), (floor[0], floor[0]), rng, _BUDGET // 4)
        seats = first if alone < again else seats
    best: Seating = [[] for _ in sizes]
    for i, t in enumerate(seats):
        best[t].append(players[i])
    if {frozenset(table) for table in best} == {frozenset(table) for table in rotation[0]}:
        return rotation[0]  # the clubs' rotation, seat by seat: the next round may rotate on from it
    order = sorted(range(tables), key=lambda t: (-sizes[t], min(index[name] for name in best[t])))
    by_size: dict[int, list[int]] = {}
    for t in order:
        by_size.setdefault(sizes[t], []).append(t)
    return [best[by_size[size].pop(0)] for size in sizes]


def _met_before(rounds: Sequence[Sequence[Sequence[str]]], index: dict[str, int]) -> list[int]:
    """How often each two players here now met in the ``rounds`` played (``n × n``, by their numbers in ``index``)."""
    n = len(index)
    met = [0] * (n * n)
    for seating in rounds:
        for names in seating:
            here = [index[name] for name in names if name in index]
            for i, a in enumerate(here):
                for b in here[i + 1 :]:
                    met[a * n + b] += 1
                    met[b * n + a] += 1
    return met


def _floors(
    rounds: Sequence[Sequence[Sequence[str]]], index: dict[str, int], met: list[int], sizes: list[int], planned: int
) -> tuple[int, int]:
    """Lower bounds of the next round's meetings again and of the plan's ``m·(m − 1)/2`` sum over ``planned``
    rounds: the search stops when it gets there.

    Pigeonholes: the players of a table of an earlier round spread over the tables, and whoever shares one meets
    again; each planned round does that to every round before it, planned ones included. Counting: a round seats
    ``Σ s·(s − 1)/2`` pairs, and only the pairs who never met meet for nothing.
    """
    n, tables = len(index), len(sizes)
    spread = sum(_spread(sum(name in index for name in names), tables) for seating in rounds for names in seating)
    own = sum(_spread(size, tables) for size in sizes)  # a planned round against a planned round before it
    pairs = sum(size * (size - 1) // 2 for size in sizes)
    unmet = n * (n - 1) // 2 - sum(1 for i in range(n) for j in range(i + 1, n) if met[i * n + j])
    after = max(planned * spread + own * planned * (planned - 1) // 2, planned * pairs - unmet)
    return max(spread, pairs - unmet), after


def rotated(last: Sequence[Sequence[str]], players: Sequence[str], sizes: Sequence[int]) -> Seating:
    """The fixed rotation clubs use, from the round ``last`` to tables of ``sizes`` for ``players``: the player in
    seat ``s`` (counted from 0) of table ``t`` moves ``s`` tables on (seat 0 stays, seat 1 moves to the next
    table…), a full table passing the player on to the next with room; players who have left are skipped, and
    players new to the night take the seats left, in the order of ``players``.

    At ``q`` tables of ``q`` players, ``q`` a prime, it is the affine plane's schedule: nobody meets anyone again
    for ``q + 1`` rounds (``fresh_seating`` starts its search from it).

    >>> rotated([["A", "B", "C"], ["D", "E", "F"], ["G", "H", "I"]], list("ABCDEFGHI"), [3, 3, 3])
    [['A', 'F', 'H'], ['B', 'D', 'I'], ['C', 'E', 'G']]
    >>> rotated([["A", "B"], ["C", "D"]], ["A", "C", "D", "E"], [2, 2])  # B has left, E has come
    [['A', 'D'], ['C', 'E']]
    """
    _check(players, sizes)
    here = set(players)
    count = len(sizes)
    tables: Seating = [[] for _ in sizes]
    seated = set()
    for t, names in enumerate(last):
        for s, name in enumerate(name for name in names if name in here):
            target = (t + s) % count
            while len(tables[target]) >= sizes[target]:
                target = (target + 1) % count
            tables[target].append(name)
            seated.add(name)
    target = 0
    for name in players:
        if name not in seated:
            while len(tables[target]) >= sizes[target]:
                target += 1
            tables[target].append(name)
    return tables


def _seats(seating: Seating, index: dict[str, int]) -> list[int]:
    """Each player's table (by the player's number in ``index``)."""
    seats = [0] * len(index)
    for t, names in enumerate(seating):
        for name in names:
            seats[index[name]] = t
    return seats


def _greedy(n: int, sizes: list[int], prev: list[int], planned: int, rng: random.Random) -> list[list[int]]:
    """``planned`` rounds seated one after the other, player by player (in a shuffled order), each at the table
    with room whose players they met least (the next round weighing meetings of the rounds played more)."""
    met = list(prev)
    plan = []
    for r in range(planned):
        costs = [(_WEIGHT + 1) * p for p in prev] if r == 0 else met
        order = list(range(n))
        rng.shuffle(order)
        members: list[list[int]] = [[] for _ in sizes]
        seats = [0] * n
        for x in order:
            row = x * n
            t = min(
                (t for t in range(len(sizes)) if len(members[t]) < sizes[t]),
                key=lambda t: (sum(costs[row + z] for z in members[t]), len(members[t]) - sizes[t]),
            )
            members[t].append(x)
            seats[x] = t
        for a, b in _pairs(members):
            met[a * n + b] += 1
            met[b * n + a] += 1
        plan.append(seats)
    return plan


class _Plan:
    """Planned rounds with everything a swap's cost needs: for each round, each player's table and, for each player
    and table, the player's weighed meetings with that table's players (``sums``).

    ``again``: the next round's meetings again (how often each two players at one of its tables had met in the
    rounds played); ``late``: every pair's ``m·(m − 1)/2`` over the rounds played and planned, less what the rounds
    played gave it; the search's ``cost``: ``weight · again + late``.
    """

    def __init__(self, n: int, sizes: list[int], prev: list[int], seats: list[list[int]]):
        self.n, self.sizes, self.tables = n, sizes, len(sizes)
        self.prev, self.weight = prev, _WEIGHT
        self.met: list[int] = []  # meetings of each two players over the rounds played and planned
        self.met0: list[int] = []  # the same, plus ``weight`` times the rounds played: the next round's costs
        self.seats: list[list[int]] = []  # round -> player -> table
        self.sums: list[list[int]] = []
        self.again = self.late = self.cost = 0
        self._start(seats)

    def _start(self, seats: list[list[int]]) -> None:
        """Set the plan to ``seats`` and work everything out afresh."""
        n, tables = self.n, self.tables
        self.met = list(self.prev)
        self.met0 = [(self.weight + 1) * p for p in self.prev]
        self.seats = [list(s) for s in seats]
        for r in range(len(seats)):
            for a, b in _pairs(self.members(r)):
                self._meet(a, b, 1)
        self.sums = []
        for r, seating in enumerate(self.seats):
            costs = self.met0 if r == 0 else self.met
            sums = [0] * (n * tables)
            for x in range(n):
                row = x * n
                for z, t in enumerate(seating):
                    sums[x * tables + t] += costs[row + z]
            self.sums.append(sums)
        self.again = sum(self.prev[a * n + b] for a, b in _pairs(self.members(0))) if seats else 0
        self.late = sum(m * (m - 1) // 2 - p * (p - 1) // 2 for m, p in zip(self.met, self.prev, strict=True)) // 2
        self.cost = self.weight * self.again + self.late

    def members(self, r: int) -> list[list[int]]:
        """The players at each table of round ``r``."""
        members: list[list[int]] = [[] for _ in self.sizes]
        for player, t in enumerate(self.seats[r]):
            members[t].append(player)
        return members

    def _meet(self, a: int, b: int, times: int) -> None:
        n = self.n
        self.met[a * n + b] += times
        self.met[b * n + a] += times
        self.met0[a * n + b] += times
        self.met0[b * n + a] += times

    def delta(self, r: int, x: int, y: int) -> int:
        """The change of cost if ``x`` and ``y`` (at different tables of round ``r``) swap seats."""
        tables, seats, sums = self.tables, self.seats[r], self.sums[r]
        a, b = seats[x], seats[y]
        costs = self.met0 if r == 0 else self.met
        xo, yo = x * tables, y * tables
        return (
            sums[xo + b] - sums[xo + a] + sums[yo + a] - sums[yo + b]
            - 2 * costs[x * self.n + y] + self.sizes[a] + self.sizes[b] - 2
        )  # fmt: skip

    def swap(self, r: int, x: int, y: int) -> None:
        """``x`` and ``y`` swap seats in round ``r``; the costs and the sums follow."""
        n, tables, seats, sums = self.n, self.tables, self.seats[r], self.sums[r]
        change = self.delta(r, x, y)
        a, b = seats[x], seats[y]
        old_a = [z for z in range(n) if seats[z] == a and z != x]
        old_b = [z for z in range(n) if seats[z] == b and z != y]
        if r == 0:
            prev, xn, yn = self.prev, x * n, y * n
            again = sum(prev[xn + z] - prev[yn + z] for z in old_b) + sum(prev[yn + z] - prev[xn + z] for z in old_a)
            self.again += again
            change -= self.weight * again
        self.late += change
        self.cost = self.weight * self.again + self.late
        costs = self.met0 if r == 0 else self.met
        for z in range(n):  # the tables' members change: x leaves a for b, y leaves b for a
            moved = costs[z * n + y] - costs[z * n + x]
            sums[z * tables + a] += moved
            sums[z * tables + b] -= moved
        seats[x], seats[y] = b, a
        for z in old_a:
            self._moved(x, z, -1)
            self._moved(y, z, 1)
        for z in old_b:
            self._moved(x, z, 1)
            self._moved(y, z, -1)

    def _moved(self, u: int, v: int, times: int) -> None:
        """``u`` and ``v`` meet ``times`` more often: their meetings and every round's sums follow."""
        self._meet(u, v, times)
        tables = self.tables
        for seats, sums in zip(self.seats, self.sums, strict=True):
            sums[u * tables + seats[v]] += times
            sums[v * tables + seats[u]] += times

    def restore(self, seats: list[list[int]]) -> None:
        """Go back to the plan ``seats``."""
        self._start(seats)


def _pairs(members: list[list[int]]) -> list[tuple[int, int]]:
    """Every two players at one table."""
    return [(a, b) for table in members for i, a in enumerate(table) for b in table[i + 1 :]]


def _search(plan: _Plan, floor: tuple[int, int], rng: random.Random, budget: int) -> tuple[int, list[int]]:
    """The next round of the best plan a tabu search finds from ``plan`` (its meetings again, and each player's
    table): the fewest meetings again in the next round, then the lowest cost over the whole
    night; ``floor`` bounds both from below, and the search stops when it gets there or when it has looked at
    ``budget`` swaps.

    Each move makes the best swap ``_moves`` offers, ties broken by ``rng``; swapping the same two back in that
    round is barred for a while unless it makes the cheapest plan yet. After ``_STALL`` moves without a cheaper
    plan the search goes back to the cheapest and swaps a few players at random.
    """
    kept, kept_seats = (plan.again, plan.late), [list(s) for s in plan.seats]
    best_cost, best_seats = plan.cost, kept_seats
    barred: dict[int, int] = {}
    looked = moves = stall = 0
    while kept > floor and looked < budget:
        moves += 1
        chosen, work = _moves(plan, rng, barred, moves, best_cost)
        looked += work
        if not chosen:
            barred.clear()
            continue
        r, x, y = rng.choice(chosen)
        plan.swap(r, x, y)
        n = plan.n
        barred[(r * n + x) * n + y] = barred[(r * n + y) * n + x] = moves + rng.randint(*_TENURE)
        if (plan.again, plan.late) < kept:
            kept, kept_seats = (plan.again, plan.late), [list(s) for s in plan.seats]
        if plan.cost < best_cost:
            best_cost, best_seats, stall = plan.cost, [list(s) for s in plan.seats], 0
        else:
            stall += 1
        if stall > _STALL:
            plan.restore(best_seats)
            _shake(plan, rng)
            barred.clear()
            stall = 0
    return kept[0], kept_seats[0]


def _moves(
    plan: _Plan, rng: random.Random, barred: dict[int, int], moves: int, best_cost: int
) -> tuple[list[tuple[int, int, int]], int]:
    """The swaps ``(round, x, y)`` that lower the search's cost most (or raise it least), and how many swaps were
    looked at: every swap of a player who meets someone again (``_SAMPLE`` such players at most, picked by
    ``rng``) with a player at another table of that round. A swap ``barred`` past move ``moves`` is left out
    unless it makes a plan cheaper than ``best_cost``."""
    n, sizes, tables = plan.n, plan.sizes, plan.tables
    busy = [
        [x for x in range(n) if sums[x * tables + seats[x]] >= sizes[seats[x]]]  # meets someone again
        for seats, sums in zip(plan.seats, plan.sums, strict=True)
    ]
    looked = n * len(busy)
    some = [(r, x) for r, players in enumerate(busy) for x in players]
    if len(some) > _SAMPLE:
        some = rng.sample(some, _SAMPLE)
    picked = {r * n + x for r, x in some}
    chosen: list[tuple[int, int, int]] = []
    least = 0
    for r, x in some:
        seats, sums = plan.seats[r], plan.sums[r]
        costs = plan.met0 if r == 0 else plan.met
        a, xo, row, key = seats[x], x * tables, x * n, (r * n + x) * n
        own = sums[xo + a] - sizes[a] + 2
        for y in range(n):
            b = seats[y]
            if b == a or (y < x and r * n + y in picked):  # two picked players swap once
                continue
            yo = y * tables
            d = sums[xo + b] - own + sums[yo + a] - sums[yo + b] - 2 * costs[row + y] + sizes[b]
            if (chosen and d > least) or (barred.get(key + y, 0) > moves and plan.cost + d >= best_cost):
                continue
            if not chosen or d < least:
                chosen, least = [(r, x, y)], d
            else:
                chosen.append((r, x, y))
        looked += n
    return chosen, looked


def _shake(plan: _Plan, rng: random.Random) -> None:
    """A few random swaps of the plan's players, to leave a plan the search keeps coming back to."""
    for _ in range(_SHAKES):
        r = rng.randrange(len(plan.seats))
        x = rng.randrange(plan.n)
        others = [y for y in range(plan.n) if plan.seats[r][y] != plan.seats[r][x]]
        plan.swap(r, x, rng.choice(others))
