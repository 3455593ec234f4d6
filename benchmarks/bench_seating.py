"""Benchmark of a club night's seating: the time a next round takes and the meetings again it makes, for the
schedule search (``core.seating.fresh_seating``) and the old rule (``core.nights.next_seating``), side by side.

Each night starts from a shuffled first round (a different one for each of ``--nights`` nights) and seats its
rounds one call at a time, each call seeing only the rounds before it, as the service calls it; the search's
seed is the night's number. Printed for each kind of night and each rule: the milliseconds per round (median
and worst over every round of every night), the meetings again of each round (summed over the nights), and the
night's total (a pair that met ``m`` times counts ``m·(m − 1)/2``; summed over the nights) with how many nights
met nobody again.

The nights: 16 players at four tables of four over five rounds (a perfect schedule exists: the affine plane of
order 4); 13 at tables of 5, 4, 4 over four rounds; 40 at ten tables of four and 100 at twenty tables of five,
over six rounds; then nights where the old rule runs out of new opponents early: 20 at five tables of four over
five rounds, 15 at five tables of three over seven (Kirkman's schoolgirls: a perfect schedule exists), and the
100 players over fourteen rounds (the search's slowest rounds). No figure is checked here: this script measures,
it does not pass or fail (the issue's budgets: well under a second a round for 16 players, about 2 s a round at
most for 100).

Run: ``.venv/bin/python benchmarks/bench_seating.py [--nights 5]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kunken_scorer.core.nights import meetings, next_seating, repeats  # noqa: E402
from kunken_scorer.core.seating import fresh_seating  # noqa: E402

Seating = list[list[str]]
#: (what, sizes, rounds in all)
NIGHTS = [
    ("16 players, 4 tables of 4", [4] * 4, 5),
    ("13 players, tables of 5, 4, 4", [5, 4, 4], 4),
    ("40 players, 10 tables of 4", [4] * 10, 6),
    ("100 players, 20 tables of 5", [5] * 20, 6),
    ("20 players, 5 tables of 4", [4] * 5, 5),
    ("15 players, 5 tables of 3", [3] * 5, 7),
    ("100 players, 20 tables of 5", [5] * 20, 14),
]


def first_round(sizes: list[int], shuffle: int) -> tuple[list[str], Seating]:
    """The night's players and its first round: the players shuffled by ``shuffle``, seated in order."""
    names = [f"P{i:03}" for i in range(sum(sizes))]
    order = list(names)
    random.Random(shuffle).shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return names, tables


def night(rule: Callable[[list[Seating]], Seating], first: Seating, rounds: int) -> tuple[list[float], list[int]]:
    """The seconds each next round took and the meetings again it made."""
    played, times, again = [first], [], []
    for _ in range(rounds - 1):
        started = time.perf_counter()
        new = rule(played)
        times.append(time.perf_counter() - started)
        again.append(repeats(new, meetings(played)))
        played.append(new)
    return times, again


def rules(names: list[str], sizes: list[int], seed: int) -> dict[str, Callable[[list[Seating]], Seating]]:
    """The two rules, by name, for a night of ``names`` at tables of ``sizes``."""
    return {
        "fresh_seating": lambda played: fresh_seating(played, names, sizes, seed=seed),
        "next_seating (old)": next_seating,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nights", type=int, default=5, help="nights of each kind, each from another first round")
    args = parser.parse_args(argv)
    header = ("night", "rounds", "rule", "ms/round median", "ms/round worst", "meetings again by round", "total")
    rows = [(*header, "perfect")]
    for what, sizes, rounds in NIGHTS:
        for rule_name in ("fresh_seating", "next_seating (old)"):
            times: list[float] = []
            by_round = [0] * (rounds - 1)
            perfect = 0
            for k in range(args.nights):
                names, first = first_round(sizes, k)
                rule = rules(names, sizes, k)[rule_name]
                spent, again = night(rule, first, rounds)
                times += spent
                by_round = [a + b for a, b in zip(by_round, again, strict=True)]
                perfect += not any(again)
            total = sum(by_round)  # each round's repeats summed: the night's m·(m − 1)/2 total
            rows.append(
                (
                    what,
                    str(rounds),
                    rule_name,
                    f"{statistics.median(times) * 1000:.1f}",
                    f"{max(times) * 1000:.1f}",
                    " ".join(str(a) for a in by_round),
                    str(total),
                    f"{perfect}/{args.nights}",
                )
            )
            print(f"done: {what}, {rule_name}", file=sys.stderr, flush=True)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    print(f"Club-night seating, {args.nights} nights of each kind (rounds 2 onwards; meetings again summed)")
    for i, row in enumerate(rows):
        print(" | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            print("-+-".join("-" * width for width in widths))


if __name__ == "__main__":
    main()
