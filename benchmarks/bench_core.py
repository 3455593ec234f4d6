"""Benchmark of the rules core: median microseconds per meld check and per full deal.

Budgets on the project machine: at most 20 µs per meld check and 400 µs per full deal.
A baseline (an empty function call) is measured in the same run, so the figures can be
compared across noisy machines.  Run: ``.venv/bin/python benchmarks/bench_core.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kunken_scorer import Deal, RuleSet, check_meld, evaluate_deal, parse_cards  # noqa: E402
from kunken_scorer.core.cards import _TEXTS  # memo of card texts already read
from kunken_scorer.core.melds import _verdicts, check_parsed, laid_counts  # noqa: E402

KUNKEN = RuleSet.preset("kunken")
TABLE = [
    "2♠ 3♠ 4♠",
    "K♥ K♦ K♣",
    "5♦ 6♦ 7♦ 8♦",
    "9♣ 10♣ J♣",
    "A♠ A♥ A♦",
    "4♥ 5♥ 6♥",
    "Q♠ Q♥ Q♦",
    "7♣ 8♣ 9♣",
    "10♦ J♦ Q♦",
    "3♥ 3♦ 3♣",
    "6♠ 7♠ 8♠",
    "J♥ J♠ J♣",
    "2♦ 3♦ 4♦",
    "9♥ 9♠ 9♦",
    "5♣ 6♣ 7♣ JK",
]
DEAL = {
    "players": [
        {
            "name": "Anna",
            "melds": ["A♠ A♥ A♦", "2♥ 3♥ 4♥ 5♥", "J♣ Q♣ K♣"],
            "hand": "",
            "vists": [{"to": "Boris", "meld": 0, "cards": "9♠"}, {"to": "Vera", "cards": "6♦"}],
        },
        {"name": "Boris", "melds": ["6♠ 7♠ 8♠", "K♥ K♦ K♣ K♠"], "hand": "3♣ 4♦ JK", "vists": []},
        {"name": "Vera", "melds": ["7♦ 8♦ 9♦ 10♦", "Q♥ Q♠ JK"], "hand": "2♠ 5♣", "vists": []},
        {"name": "Gleb", "melds": ["9♥ 10♥ JK Q♥"], "hand": "A♣ 2♦ 3♠ 4♠ 7♣", "vists": []},
        {"name": "Dina", "melds": ["4♣ 5♣ 6♣", "10♠ J♠ Q♠"], "hand": "8♥ 8♣ 9♣ 10♣ A♣ 6♥", "vists": []},
    ],
    "went_out": "Anna",
    "express": True,
}


def median_us(fn, repeat: int = 7, number: int = 2000) -> float:
    """Median over ``repeat`` rounds of the mean time of ``fn`` in microseconds."""
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(rounds)


def main() -> None:
    """Print each figure with its budget and its ratio to the baseline."""
    deal_cards = sum(len(parse_cards(m)) for p in DEAL["players"] for m in p["melds"])
    deal_cards += sum(len(parse_cards(p["hand"])) for p in DEAL["players"])
    three_set = parse_cards("K♠ K♥ K♦")
    run = parse_cards("5♥ JK 7♥ 8♥ JK 10♥")
    table = [parse_cards(m) for m in TABLE]
    memo = _verdicts(KUNKEN)  # verdicts on melds, kept per rule set

    def cold(fn):
        """``fn`` with both memos emptied first: every meld and card text is seen for the first time."""

        def run():
            memo.clear()
            _TEXTS.clear()
            return fn()

        return run

    rows = [
        ("baseline: empty call", lambda: None, None),
        ("baseline: emptying the memos", cold(lambda: None), None),
        (
            "3-card set (parsed, first time seen)",
            cold(lambda: check_parsed(three_set, KUNKEN, laid_counts([three_set], KUNKEN))),
            20,
        ),
        (
            "3-card set (parsed, seen before)",
            lambda: check_parsed(three_set, KUNKEN, laid_counts([three_set], KUNKEN)),
            20,
        ),
        ("3-card set (from text, first time seen)", cold(lambda: check_meld("K♠ K♥ K♦", KUNKEN)), 20),
        (
            "6-card run, 2 jokers, 15-meld table (parsed)",
            lambda: check_parsed(run, KUNKEN, laid_counts(table + [run], KUNKEN)),
            20,
        ),
        (
            "6-card run, 2 jokers, 15-meld table (from text, first time seen)",
            cold(lambda: check_meld("5♥ JK 7♥ 8♥ JK 10♥", KUNKEN, TABLE)),
            20,
        ),
        (
            "6-card run, 2 jokers, 15-meld table (from text, seen before)",
            lambda: check_meld("5♥ JK 7♥ 8♥ JK 10♥", KUNKEN, TABLE),
            20,
        ),
        (
            f"5-player deal, {deal_cards} cards: read, validate, score (melds first seen)",
            cold(lambda: evaluate_deal(Deal.from_dict(DEAL), KUNKEN)),
            400,
        ),
        (
            f"5-player deal, {deal_cards} cards: read, validate, score (melds seen before)",
            lambda: evaluate_deal(Deal.from_dict(DEAL), KUNKEN),
            400,
        ),
    ]
    base = None
    print(f"{'figure':72} {'median µs':>10} {'budget':>7} {'x baseline':>11}")
    for name, fn, budget in rows:
        us = median_us(fn, number=20000 if budget is None else 2000)
        base = base or us
        verdict = "" if budget is None else ("ok" if us <= budget else "OVER")
        print(f"{name:72} {us:10.1f} {budget or '':>7} {us / base:11.0f} {verdict}")


if __name__ == "__main__":
    main()
