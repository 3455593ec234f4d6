"""Who sits where at a club night (``core/seating.py``): table sizes, how many tables, the top players together,
and ``fresh_seating``, the next round planned with the rest of the night.

The issue's "done when": from any first round of sixteen players at four tables of four, seating round after
round with ``fresh_seating`` (each call seeing only the rounds played, as the service calls it) makes rounds 2 to
5 in which no two players meet twice. Where meeting again cannot be avoided, the tests assert the least the
night allows (worked out in each test's docstring) and never more than the old rule (``nights.next_seating``).
"""

from __future__ import annotations

import random

import pytest

from kunken_scorer.core.nights import meetings, next_seating, repeats
from kunken_scorer.core.rules import RuleSet
from kunken_scorer.core.seating import (
    MAX_PLANNED,
    _greedy,
    _Plan,
    fresh_seating,
    planned_rounds,
    ranked_seating,
    rotated,
    table_sizes,
    tables_for,
)

KUNKEN = RuleSet.preset("kunken")


def players(n: int) -> list[str]:
    return [f"P{i:02}" for i in range(n)]


def first_round(names: list[str], sizes: list[int], shuffle: int | None = None) -> list[list[str]]:
    """``names`` (shuffled by ``shuffle`` when given) at tables of ``sizes``, in order."""
    names = list(names)
    if shuffle is not None:
        random.Random(shuffle).shuffle(names)
    tables, start = [], 0
    for size in sizes:
        tables.append(names[start : start + size])
        start += size
    return tables


def play(rounds: list[list[list[str]]], names: list[str], sizes: list[int], count: int, seed) -> list[int]:
    """Seat ``count`` more rounds with ``fresh_seating`` (each call sees only the rounds before it); each new
    round's meetings again (``repeats``)."""
    made = []
    for _ in range(count):
        new = fresh_seating(rounds, names, sizes, seed=seed)
        assert_seated(new, names, sizes)
        made.append(repeats(new, meetings(rounds)))
        rounds.append(new)
    return made


def play_old(rounds: list[list[list[str]]], count: int) -> list[int]:
    made = []
    for _ in range(count):
        new = next_seating(rounds)
        made.append(repeats(new, meetings(rounds)))
        rounds.append(new)
    return made


def assert_seated(seating: list[list[str]], names: list[str], sizes: list[int]) -> None:
    """Everyone of ``names`` seated exactly once, nobody else, at tables of ``sizes``."""
    assert [len(table) for table in seating] == sizes
    assert sorted(name for table in seating for name in table) == sorted(names)


def night_cost(rounds: list[list[list[str]]]) -> int:
    """The night's meetings again: a pair that met ``m`` times counts ``m·(m − 1)/2``."""
    return sum(m * (m - 1) // 2 for m in meetings(rounds).values())


# -- sizes and tables -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "count, tables, sizes",
    [(13, 3, [5, 4, 4]), (16, 4, [4, 4, 4, 4]), (7, 2, [4, 3]), (5, 5, [1] * 5), (23, 5, [5, 5, 5, 4, 4])],
)
def test_table_sizes_are_as_equal_as_can_be_larger_first(count, tables, sizes):
    assert table_sizes(count, tables) == sizes


@pytest.mark.parametrize("count, tables", [(3, 4), (5, 0), (0, 1)])
def test_table_sizes_refuse_tables_nobody_sits_at(count, tables):
    with pytest.raises(ValueError):
        table_sizes(count, tables)


@pytest.mark.parametrize(
    "count, wanted, expected",
    [
        (16, 4, 4),  # fits: kept
        (17, 4, 4),  # one arrives: a table of five
        (21, 4, 5),  # 21 at four tables would seat six at one: a fifth table
        (7, 4, 3),  # 7 at four tables would leave a player alone: three tables
        (2, 3, 1),  # two players: one table of two
        (40, 1, 8),  # the nearest number of tables that seats forty at five at most
        (10, 9, 5),  # and the nearest that seats ten at two at least
    ],
)
def test_tables_for_keeps_the_tables_while_they_fit_else_the_nearest(count, wanted, expected):
    assert tables_for(count, wanted, KUNKEN.min_players, KUNKEN.max_players) == expected


def test_tables_for_always_gives_sizes_in_the_games_range():
    low, high = KUNKEN.min_players, KUNKEN.max_players
    for count in range(2, 60):
        for wanted in range(1, 15):
            sizes = table_sizes(count, tables_for(count, wanted, low, high))
            assert low <= min(sizes) and max(sizes) <= high, (count, wanted, sizes)


@pytest.mark.parametrize("count, low, high", [(1, 2, 5), (0, 2, 5), (7, 4, 5), (3, 3, 2), (4, 0, 5)])
def test_tables_for_says_when_no_number_of_tables_works(count, low, high):
    with pytest.raises(ValueError):
        tables_for(count, 1, low, high)


def test_ranked_seating_puts_the_top_players_together():
    order = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    assert ranked_seating(order, [3, 2, 2]) == [["Ann", "Bob", "Cid"], ["Dan", "Eve"], ["Fay", "Gus"]]
    with pytest.raises(ValueError):
        ranked_seating(order, [4, 4])
    with pytest.raises(ValueError):
        ranked_seating(["Ann", "Ann"], [2])


def test_planned_rounds_reach_the_last_round_with_new_opponents_within_the_cap():
    assert [planned_rounds(k, 16, [4] * 4) for k in range(7)] == [5, 4, 3, 2, 1, 1, 1]
    assert planned_rounds(1, 100, [5] * 20) == MAX_PLANNED  # 24 rounds could be all new: capped
    assert planned_rounds(1, 16, [4] * 4, horizon=3) == 2  # a night known to have three rounds
    assert planned_rounds(5, 16, [4] * 4, horizon=3) == 1


# -- the "done when" ------------------------------------------------------------------------------

#: first rounds of sixteen players: in order, shuffled, and every fourth player together
FIRST_ROUNDS = [
    first_round(players(16), [4] * 4),
    first_round(players(16), [4] * 4, shuffle=1),
    first_round(players(16), [4] * 4, shuffle=2),
    first_round(players(16), [4] * 4, shuffle=3),
    [[f"P{i + 4 * j:02}" for j in range(4)] for i in range(4)],
]


@pytest.mark.parametrize("first", FIRST_ROUNDS)
@pytest.mark.parametrize("seed", [0, 7, "night-3f9a"])
def test_sixteen_players_meet_everyone_exactly_once_in_five_rounds(first, seed):
    rounds = [first]
    assert play(rounds, players(16), [4] * 4, 4, seed) == [0, 0, 0, 0]
    met = meetings(rounds)
    assert len(met) == 120 and set(met.values()) == {1}  # every pair of the sixteen, once
    assert play_old([first], 4)[2:] != [0, 0]  # the old rule did not manage it (the audit's finding)


def test_the_old_rule_repeats_eight_pairs_in_rounds_4_and_5_where_none_is_needed():
    rounds = [first_round(players(16), [4] * 4)]
    assert play_old(rounds, 4) == [0, 0, 8, 8]


def test_the_same_rounds_and_seed_give_the_same_seating():
    rounds = [FIRST_ROUNDS[1]]
    play(rounds, players(16), [4] * 4, 2, "night")
    again = [fresh_seating(rounds, players(16), [4] * 4, seed="night") for _ in range(3)]
    assert again[0] == again[1] == again[2]


def test_a_round_after_everyone_has_met_everyone_makes_the_fewest_meetings_again():
    """After five perfect rounds every pair has met: any table of four is six pairs meeting again, 24 a round."""
    rounds = [FIRST_ROUNDS[0]]
    play(rounds, players(16), [4] * 4, 4, 1)
    assert play(rounds, players(16), [4] * 4, 1, 1) == [24]


# -- where meeting again cannot be avoided --------------------------------------------------------------


def test_twelve_players_at_three_tables_meet_again_the_least_the_night_allows():
    """Each table of four of an earlier round spreads over three tables, so two of its players meet again: a
    round meets at least 3 pairs again per round before it (pigeonholes), so round 2 at least 3, round 3 at
    least 6 (3 against round 1, 3 against round 2), round 4 at least 9: the night 3 + 6 + 9 = 18 at least."""
    for shuffle in range(4):
        first = first_round(players(12), [4, 4, 4], shuffle)
        assert play([first], players(12), [4, 4, 4], 3, shuffle) == [3, 6, 9]
        assert play_old([first], 3) == [3, 6, 9]  # the old rule managed it too


def test_thirteen_players_at_tables_of_five_four_four_never_do_worse_than_the_old_rule():
    """Pigeonholes again: a table of five spreads over three tables leaving two pairs, a table of four one
    pair, so a round meets at least 4 pairs again per round before it: 4, 8, 12 for rounds 2 to 4. Later the
    tables run out of new opponents; round after round the night's total stays at most the old rule's."""
    sizes = [5, 4, 4]
    for shuffle in range(3):
        first = first_round(players(13), sizes, shuffle)
        new, old = [first], [first]
        made = play(new, players(13), sizes, 5, shuffle)
        assert made[:3] == [4, 8, 12]
        play_old(old, 5)
        for k in range(2, 7):
            assert night_cost(new[:k]) <= night_cost(old[:k]), (shuffle, k)


# -- other nights ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("q, seed", [(3, 0), (5, 0), (5, "x")])
def test_q_tables_of_q_players_q_prime_meet_nobody_again_for_q_plus_one_rounds(q, seed):
    """The affine plane of prime order q: the clubs' rotation is a perfect schedule, and the search keeps it."""
    names = players(q * q)
    rounds = [first_round(names, [q] * q, shuffle=q)]
    assert play(rounds, names, [q] * q, q, seed) == [0] * q


@pytest.mark.parametrize("shuffle", [0, 1])
def test_twenty_players_at_five_tables_of_four_meet_nobody_again_over_a_five_round_night(shuffle):
    names, sizes = players(20), [4] * 5
    rounds = [first_round(names, sizes, shuffle)]
    for _ in range(4):
        rounds.append(fresh_seating(rounds, names, sizes, seed=shuffle, horizon=5))
    assert set(meetings(rounds).values()) == {1}


def test_a_big_night_meets_nobody_again():
    names, sizes = players(100), [5] * 20
    rounds = [first_round(names, sizes, shuffle=4)]
    assert play(rounds, names, sizes, 3, "big") == [0, 0, 0]


def test_the_first_round_of_a_night_seats_everyone():
    names = players(9)
    assert_seated(fresh_seating([], names, [5, 4], seed=1), names, [5, 4])


def test_one_table_seats_everyone_there():
    assert fresh_seating([[["A", "B"], ["C", "D"]]], ["D", "C", "B", "A"], [4], seed=0) == [["D", "C", "B", "A"]]


# -- arrivals and departures -----------------------------------------------------------------------------


def test_late_arrivals_and_players_who_left_are_seated_right():
    names = players(16)
    rounds = [FIRST_ROUNDS[2]]
    play(rounds, names, [4] * 4, 1, 5)
    here = [name for name in names if name != "P03"] + ["Late"]  # P03 has gone home, Late has come
    new = fresh_seating(rounds, here, [4] * 4, seed=5)
    assert_seated(new, here, [4] * 4)
    assert repeats(new, meetings(rounds)) == 0  # nobody meets anyone again: the newcomer met nobody yet
    more = here + ["Later"]
    sizes = table_sizes(len(more), tables_for(len(more), 4, KUNKEN.min_players, KUNKEN.max_players))
    assert sizes == [5, 4, 4, 4]
    rounds.append(new)
    newer = fresh_seating(rounds, more, sizes, seed=5)
    assert_seated(newer, more, sizes)
    assert repeats(newer, meetings(rounds)) == 0


def test_players_who_left_may_leave_a_table_of_an_earlier_round_empty():
    rounds = [[["A", "B"], ["C", "D"], ["E", "F"]]]
    new = fresh_seating(rounds, ["A", "C", "E", "G"], [2, 2], seed=0)
    assert_seated(new, ["A", "C", "E", "G"], [2, 2])
    assert repeats(new, meetings(rounds)) == 0


@pytest.mark.parametrize(
    "names, sizes",
    [(["A", "B", "C"], [2, 2]), (["A", "B", "A", "C"], [2, 2]), (["A", "B"], [2, 0]), (["A", "B"], [])],
)
def test_seatings_that_cannot_be_are_refused(names, sizes):
    with pytest.raises(ValueError):
        fresh_seating([], names, sizes, seed=0)


def test_inside_a_table_players_keep_the_order_of_players_unless_the_rotation_is_kept():
    """Sixteen players: round 2 is the search's (the rotation of round 1 is kept only when it is the plan)."""
    names = players(16)
    rounds = [FIRST_ROUNDS[1]]
    for _ in range(3):
        new = fresh_seating(rounds, names, [4] * 4, seed=2)
        kept = new == rotated(rounds[-1], names, [4] * 4)
        assert kept or all(table == sorted(table, key=names.index) for table in new)
        assert kept or [names.index(t[0]) for t in new] == sorted(names.index(t[0]) for t in new)
        rounds.append(new)


def test_the_rotation_skips_who_left_and_seats_who_came():
    last = [["A", "B", "C"], ["D", "E", "F"]]
    assert rotated(last, ["A", "C", "D", "E", "F", "G"], [3, 3]) == [["A", "E", "G"], ["C", "D", "F"]]


# -- the search's bookkeeping -----------------------------------------------------------------------------


def test_the_plans_cost_follows_every_swap():
    """Each swap's change of cost is worked out from running sums; after many random swaps they still agree with
    the plan worked out afresh, and with the meetings counted the plain way."""
    names, sizes = players(13), [5, 4, 4]
    rounds = [first_round(names, sizes, 9), first_round(names, sizes, 10)]
    n = len(names)
    met = meetings(rounds)
    prev = [met[frozenset((a, b))] if a != b else 0 for a in names for b in names]
    rng = random.Random(3)
    plan = _Plan(n, sizes, prev, _greedy(n, sizes, prev, 3, rng))
    for _ in range(300):
        r, x = rng.randrange(3), rng.randrange(n)
        y = rng.choice([y for y in range(n) if plan.seats[r][y] != plan.seats[r][x]])
        expected = plan.cost + plan.delta(r, x, y)
        plan.swap(r, x, y)
        fresh = _Plan(n, sizes, prev, plan.seats)
        assert plan.cost == expected == fresh.cost
        assert (plan.again, plan.late, plan.sums) == (fresh.again, fresh.late, fresh.sums)
    planned = [[[names[i] for i in range(n) if seats[i] == t] for t in range(3)] for seats in plan.seats]
    assert plan.again == repeats(planned[0], meetings(rounds))
    assert plan.late == night_cost(rounds + planned) - night_cost(rounds)
    assert plan.cost == 2 * plan.again + plan.late
