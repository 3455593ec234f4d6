"""Melds and the moves on them: whether cards make a legal set or run and what it scores, and the
checks of a joker swap, an opening, a vist and a discard.

The meld tables are written independently from RULES.md ("Cards and notation", "Melds", the
presets): each row names the game, the house-rule switches, the cards as a player would type them
and what RULES.md says the scorer must answer. Legal rows check kind, points and (where the spec
fixes it) which card every joker stands for; illegal rows check that the broken rule is among
the reasons. Where RULES.md leaves two codes equally right, the row lists both. The worked
examples quote the sentence of RULES.md (or API.md) they check. A brute-force oracle and
Hypothesis properties check the meld check over many more cards.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from conftest import kunken, ordered, rule_sets
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kunken_scorer import (
    Card,
    CardError,
    KunkenError,
    Rank,
    RuleSet,
    Suit,
    check_discard,
    check_meld,
    check_opening,
    check_swap,
    check_vist,
    format_cards,
    parse_cards,
)
from kunken_scorer.core.cards import _TEXTS
from kunken_scorer.core.melds import _VERDICTS, check_parsed, laid_counts

KUNKEN = "kunken"
ORDERED = "ordered-rummy"

RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["♠", "♥", "♦", "♣"]
REASON_CODES = {
    "too_few_cards",
    "set_too_many_cards",
    "run_too_many_cards",
    "mixed_cards",
    "set_duplicate_card",
    "run_duplicate_card",
    "run_not_consecutive",
    "ace_high_and_low",
    "ace_low_off",
    "joker_limit",
    "adjacent_jokers",
    "joker_copies_played",
    "set_joker_no_suit",
    "pin_mismatch",
    "pin_wrong_rank",
    "pin_wrong_suit",
}

HEARTS_2_TO_A = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
HEARTS_2_TO_K = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"
CLUBS_A_TO_K = "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣"


def rules_for(game, switches=None):
    """The preset for `game` with the given house-rule switches."""
    return RuleSet.for_game(game, dict(switches or {}))


def split_card(text):
    """('K', '♦') for 'K♦' (canonical output form)."""
    return text[:-1], text[-1]


def stands_for(token):
    """The card a canonical output token counts as: the pin of a joker, else itself."""
    if token.startswith("JK="):
        return token[3:]
    assert token != "JK", "every joker in a legal meld's cards must be pinned"
    return token


def output_tokens(result):
    return format_cards(result.cards).split()


def input_naturals(cards_text):
    return sorted(str(c) for c in parse_cards(cards_text) if not c.is_joker)


def assert_shape_of_set(tokens):
    effective = [split_card(stands_for(t)) for t in tokens]
    assert len({rank for rank, _ in effective}) == 1, tokens
    assert len({suit for _, suit in effective}) == len(effective), tokens


def is_run_upwards(effective, wrap):
    places = [RANK_ORDER.index(rank) for rank, _ in effective]
    if wrap:
        steps = [(b - a) % 13 for a, b in zip(places, places[1:], strict=False)]
    else:
        if places[:2] == [12, 0]:  # A 2 3 ...: the ace is low
            places[0] = -1
        steps = [b - a for a, b in zip(places, places[1:], strict=False)]
    return all(step == 1 for step in steps)


def assert_shape_of_run(tokens, wrap=False):
    """One suit, consecutive ranks; RULES.md does not say a run written downwards must be
    turned round, so either direction is accepted here."""
    effective = [split_card(stands_for(t)) for t in tokens]
    assert len({suit for _, suit in effective}) == 1, tokens
    assert is_run_upwards(effective, wrap) or is_run_upwards(effective[::-1], wrap), tokens


def codes(result):
    return {reason.code for reason in result.reasons}


# --------------------------------------------------------------------------------------------
# Legal melds: (game, switches, cards, table, kind, points, expected cards)
# expected cards: a string in canonical form (exact order for runs, any order for sets),
# or None where the spec leaves the joker's card open (then the shape is checked instead).
# --------------------------------------------------------------------------------------------

LEGAL = [
    # --- Kunken sets: J Q K A = 10, 2..10 = 5 ---
    pytest.param(KUNKEN, {}, "K♠ K♥ K♦", (), "set", 30, "K♠ K♥ K♦", id="set-three-kings"),
    pytest.param(KUNKEN, {}, "K♠ K♥ K♦ K♣", (), "set", 40, "K♠ K♥ K♦ K♣", id="set-four-kings"),
    pytest.param(KUNKEN, {}, "2♠ 2♥ 2♦", (), "set", 15, "2♠ 2♥ 2♦", id="set-twos-fosks"),
    pytest.param(KUNKEN, {}, "10♠ 10♥ 10♦ 10♣", (), "set", 20, "10♠ 10♥ 10♦ 10♣", id="set-four-tens"),
    pytest.param(KUNKEN, {}, "A♠ A♥ A♦", (), "set", 30, "A♠ A♥ A♦", id="set-aces-30"),
    pytest.param(KUNKEN, {"ace_points": 5}, "A♠ A♥ A♦", (), "set", 15, "A♠ A♥ A♦", id="set-aces-ace_points-5"),
    pytest.param(KUNKEN, {}, "J♠ J♦ J♣", (), "set", 30, "J♠ J♦ J♣", id="set-jacks"),
    pytest.param(KUNKEN, {}, "Q♠ Q♥ Q♣ Q♦", (), "set", 40, "Q♠ Q♥ Q♣ Q♦", id="set-queens-4"),
    pytest.param(KUNKEN, {}, "JK K♠ K♣", (), "set", 30, None, id="set-joker-open-suit"),
    pytest.param(KUNKEN, {}, "JK JK K♠ K♣", (), "set", 40, None, id="set-two-jokers-of-four"),
    pytest.param(KUNKEN, {}, "K♠ JK K♣ K♦", (), "set", 40, "K♠ JK=K♥ K♣ K♦", id="set-joker-only-suit-left"),
    pytest.param(KUNKEN, {}, "JK=K♦ K♠ K♣", (), "set", 30, "JK=K♦ K♠ K♣", id="set-pinned-joker-fits"),
    pytest.param(KUNKEN, {}, "7♣ 7♦ JK", (), "set", 15, None, id="set-joker-last-fosks"),
    # --- Kunken runs ---
    pytest.param(KUNKEN, {}, "5♥ 6♥ 7♥", (), "run", 15, "5♥ 6♥ 7♥", id="run-three"),
    pytest.param(KUNKEN, {}, "7♥ 6♥ 5♥", (), "run", 15, None, id="run-written-downwards"),
    pytest.param(KUNKEN, {}, "Q♥ 10♥ J♥", (), "run", 25, "10♥ J♥ Q♥", id="run-shuffled"),
    pytest.param(KUNKEN, {}, "8♦ 6♦ 7♦ 9♦", (), "run", 20, "6♦ 7♦ 8♦ 9♦", id="run-four-shuffled"),
    pytest.param(KUNKEN, {}, "A♥ 2♥ 3♥", (), "run", 20, "A♥ 2♥ 3♥", id="run-ace-low"),
    pytest.param(KUNKEN, {}, "Q♠ K♠ A♠", (), "run", 30, "Q♠ K♠ A♠", id="run-ace-high"),
    pytest.param(KUNKEN, {}, "10♥ J♥ Q♥ K♥ A♥", (), "run", 45, "10♥ J♥ Q♥ K♥ A♥", id="run-ten-to-ace"),
    pytest.param(
        KUNKEN, {"ace_points": 5}, "10♥ J♥ Q♥ K♥ A♥", (), "run", 40, "10♥ J♥ Q♥ K♥ A♥", id="run-ten-to-ace-ace_points-5"
    ),
    pytest.param(KUNKEN, {"ace_points": 5}, "A♥ 2♥ 3♥", (), "run", 15, "A♥ 2♥ 3♥", id="run-ace-low-ace_points-5"),
    pytest.param(KUNKEN, {}, HEARTS_2_TO_A, (), "run", 85, HEARTS_2_TO_A, id="run-13-cards-ace-high"),
    pytest.param(KUNKEN, {}, CLUBS_A_TO_K, (), "run", 85, CLUBS_A_TO_K, id="run-13-cards-ace-low"),
    # --- jokers in runs: the joker takes the place where it is written ---
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", (), "run", 15, "5♥ JK=6♥ 7♥", id="run-joker-middle"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ JK", (), "run", 15, "5♥ 6♥ JK=7♥", id="run-joker-end"),
    pytest.param(KUNKEN, {}, "JK 5♥ 6♥", (), "run", 15, "JK=4♥ 5♥ 6♥", id="run-joker-written-first"),
    pytest.param(KUNKEN, {}, "7♥ 5♥ JK", (), "run", 15, "5♥ JK=6♥ 7♥", id="run-joker-fills-gap-after-ordering"),
    pytest.param(KUNKEN, {}, "Q♥ K♥ JK", (), "run", 30, "Q♥ K♥ JK=A♥", id="run-joker-is-ace"),
    pytest.param(
        KUNKEN, {}, "K♥ A♥ JK", (), "run", 30, "JK=Q♥ K♥ A♥", id="run-spare-joker-low-end-when-nothing-higher"
    ),
    pytest.param(KUNKEN, {}, "9♥ 10♥ JK", (), "run", 20, "9♥ 10♥ JK=J♥", id="run-joker-counts-as-jack"),
    pytest.param(KUNKEN, {}, "A♥ 2♥ JK", (), "run", 20, "A♥ 2♥ JK=3♥", id="run-ace-low-joker-three"),
    pytest.param(
        KUNKEN, {}, "5♥ JK JK 8♥", (), "run", 20, "5♥ JK=6♥ JK=7♥ 8♥", id="run-adjacent-jokers-allowed-by-default"
    ),
    pytest.param(
        KUNKEN, {}, "5♥ 8♥ JK JK", (), "run", 20, "5♥ JK=6♥ JK=7♥ 8♥", id="run-jokers-fill-gaps-after-ordering"
    ),
    pytest.param(KUNKEN, {}, "5♥ JK=6♥ 7♥", (), "run", 15, "5♥ JK=6♥ 7♥", id="run-pinned-joker-fits"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ JK=4♥", (), "run", 15, "JK=4♥ 5♥ 6♥", id="run-pinned-joker-low-end"),
    pytest.param(
        KUNKEN, {}, HEARTS_2_TO_K + " JK", (), "run", 85, HEARTS_2_TO_K + " JK=A♥", id="run-13-with-joker-ace"
    ),
    # --- notation: Russian, letters, case, separators ---
    pytest.param(KUNKEN, {}, "Тп Тч Тб", (), "set", 30, "A♠ A♥ A♦", id="ru-three-aces"),
    pytest.param(KUNKEN, {}, "тп тч тб", (), "set", 30, "A♠ A♥ A♦", id="ru-lowercase"),
    pytest.param(KUNKEN, {}, "ТП ТЧ ТБ", (), "set", 30, "A♠ A♥ A♦", id="ru-uppercase"),
    pytest.param(KUNKEN, {}, "Тт Тп Тч", (), "set", 30, "A♣ A♠ A♥", id="ru-ace-of-clubs"),
    pytest.param(KUNKEN, {}, "Вп Вч Вб Вт", (), "set", 40, "J♠ J♥ J♦ J♣", id="ru-four-jacks"),
    pytest.param(KUNKEN, {}, "Дч Кч Тч", (), "run", 30, "Q♥ K♥ A♥", id="ru-run-q-k-a"),
    pytest.param(KUNKEN, {}, "10т Вт Дт", (), "run", 25, "10♣ J♣ Q♣", id="ru-run-ten-j-q"),
    pytest.param(KUNKEN, {}, "2б 3б 4б", (), "run", 15, "2♦ 3♦ 4♦", id="ru-run-diamonds"),
    pytest.param(KUNKEN, {}, "Дж Кп Кт", (), "set", 30, None, id="ru-joker-in-set"),
    pytest.param(KUNKEN, {}, "10h Jh Qh", (), "run", 25, "10♥ J♥ Q♥", id="letters-run"),
    pytest.param(KUNKEN, {}, "ks kh kd", (), "set", 30, "K♠ K♥ K♦", id="letters-lowercase-set"),
    pytest.param(KUNKEN, {}, "AS AH AD", (), "set", 30, "A♠ A♥ A♦", id="letters-uppercase-set"),
    pytest.param(KUNKEN, {}, "Jh qH KH", (), "run", 30, "J♥ Q♥ K♥", id="letters-mixed-case-run"),
    pytest.param(KUNKEN, {}, "k♠ k♥ k♦", (), "set", 30, "K♠ K♥ K♦", id="lowercase-rank-symbol-suit"),
    pytest.param(KUNKEN, {}, "A♠,A♥,A♦", (), "set", 30, "A♠ A♥ A♦", id="commas-no-spaces"),
    pytest.param(KUNKEN, {}, "5♥, 6♥ ,7♥", (), "run", 15, "5♥ 6♥ 7♥", id="commas-and-spaces"),
    pytest.param(KUNKEN, {}, "5h\t6h\n7h", (), "run", 15, "5♥ 6♥ 7♥", id="tab-and-newline"),
    pytest.param(KUNKEN, {}, "5h jo 7h", (), "run", 15, "5♥ JK=6♥ 7♥", id="joker-jo"),
    pytest.param(KUNKEN, {}, "5h * 7h", (), "run", 15, "5♥ JK=6♥ 7♥", id="joker-star"),
    pytest.param(KUNKEN, {}, "jk=kd ks kc", (), "set", 30, "JK=K♦ K♠ K♣", id="pinned-joker-letters"),
    # --- switches ---
    pytest.param(
        KUNKEN, {"ace_low": False}, "Q♥ K♥ A♥", (), "run", 30, "Q♥ K♥ A♥", id="ace_low-off-still-allows-q-k-a"
    ),
    pytest.param(
        KUNKEN, {"ace_low": False}, "JK 2♥ 3♥", (), "run", 15, "2♥ 3♥ JK=4♥", id="ace_low-off-joker-moves-to-high-end"
    ),
    pytest.param(KUNKEN, {"wrap": True}, "K♥ A♥ 2♥", (), "run", 25, "K♥ A♥ 2♥", id="wrap-k-a-2"),
    pytest.param(KUNKEN, {"wrap": True}, "Q♥ K♥ A♥ 2♥", (), "run", 35, "Q♥ K♥ A♥ 2♥", id="wrap-q-k-a-2"),
    pytest.param(KUNKEN, {"wrap": True}, "A♥ 2♥ 3♥", (), "run", 20, "A♥ 2♥ 3♥", id="wrap-ace-low-still-fine"),
    pytest.param(
        KUNKEN,
        {"no_adjacent_jokers": True},
        "5♥ JK 7♥ JK",
        (),
        "run",
        20,
        "5♥ JK=6♥ 7♥ JK=8♥",
        id="no_adjacent-apart-is-fine",
    ),
    pytest.param(
        KUNKEN,
        {"no_adjacent_jokers": True},
        "JK JK K♠ K♣",
        (),
        "set",
        40,
        None,
        id="no_adjacent-does-not-apply-to-sets",
    ),
    # --- the "both copies on the table" rule, where a copy is still free ---
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", ("4♥ 5♥ 6♥",), "run", 15, "5♥ JK=6♥ 7♥", id="table-one-copy-played"),
    # a joker on the table standing for 6♥ is not one of the two *natural* copies
    pytest.param(
        KUNKEN,
        {},
        "5♥ JK 7♥",
        ("4♥ 5♥ JK=6♥", "6♥ 7♥ 8♥"),
        "run",
        15,
        "5♥ JK=6♥ 7♥",
        id="table-pinned-joker-is-not-a-natural-copy",
    ),
    pytest.param(
        KUNKEN, {}, "JK K♠ K♣", ("K♦ K♥ K♣", "Q♦ K♦ A♦"), "set", 30, "JK=K♥ K♠ K♣", id="table-set-joker-takes-free-suit"
    ),
    # --- Ordered rummy: A = 15, K Q J = 10, 2..10 face value ---
    pytest.param(ORDERED, {}, "8♥ 9♥ 10♥", (), "run", 27, "8♥ 9♥ 10♥", id="or-8-9-10-is-27"),
    pytest.param(ORDERED, {}, "10♣ J♣ Q♣ K♣", (), "run", 40, "10♣ J♣ Q♣ K♣", id="or-10-to-k-is-40"),
    pytest.param(ORDERED, {}, "5♠ 5♥ 5♦ 5♣", (), "set", 20, "5♠ 5♥ 5♦ 5♣", id="or-four-fives"),
    pytest.param(ORDERED, {}, "2♣ 3♣ 4♣", (), "run", 9, "2♣ 3♣ 4♣", id="or-2-3-4"),
    pytest.param(ORDERED, {}, "A♠ A♥ A♦", (), "set", 45, "A♠ A♥ A♦", id="or-ace-set-not-a-run"),
    pytest.param(ORDERED, {}, "A♠ A♥ A♦ A♣", (), "set", 60, "A♠ A♥ A♦ A♣", id="or-four-aces"),
    pytest.param(ORDERED, {}, "A♥ 2♥ 3♥", (), "run", 6, "A♥ 2♥ 3♥", id="or-short-ace-low-1+2+3"),
    pytest.param(ORDERED, {}, "Q♥ K♥ A♥", (), "run", 21, "Q♥ K♥ A♥", id="or-short-ace-high-21"),
    pytest.param(ORDERED, {}, "A♥ 2♥ 3♥ 4♥", (), "run", 24, "A♥ 2♥ 3♥ 4♥", id="or-four-card-run-ace-15"),
    pytest.param(ORDERED, {}, "J♥ Q♥ K♥ A♥", (), "run", 45, "J♥ Q♥ K♥ A♥", id="or-j-q-k-a-45"),
    pytest.param(ORDERED, {}, "JK 2♥ 3♥", (), "run", 6, "JK=A♥ 2♥ 3♥", id="or-joker-ace-in-short-run"),
    pytest.param(ORDERED, {}, "Q♥ K♥ JK", (), "run", 21, "Q♥ K♥ JK=A♥", id="or-joker-ace-high-short-run"),
    pytest.param(ORDERED, {}, "5♥ JK 7♥", (), "run", 18, "5♥ JK=6♥ 7♥", id="or-joker-six"),
    pytest.param(ORDERED, {}, "JK K♠ K♣", (), "set", 30, None, id="or-joker-set"),
    pytest.param(ORDERED, {}, HEARTS_2_TO_A, (), "run", 99, HEARTS_2_TO_A, id="or-13-card-run"),
    pytest.param(ORDERED, {"short_ace": "low"}, "Q♥ K♥ A♥", (), "run", 35, "Q♥ K♥ A♥", id="or-short_ace-low-q-k-a-35"),
    pytest.param(ORDERED, {"short_ace": "low"}, "A♥ 2♥ 3♥", (), "run", 6, "A♥ 2♥ 3♥", id="or-short_ace-low-a-2-3-6"),
    pytest.param(
        ORDERED, {"short_ace": "low"}, "A♥ 2♥ 3♥ 4♥", (), "run", 10, "A♥ 2♥ 3♥ 4♥", id="or-short_ace-low-any-low-ace"
    ),
    pytest.param(ORDERED, {"short_ace": "off"}, "A♥ 2♥ 3♥", (), "run", 20, "A♥ 2♥ 3♥", id="or-short_ace-off-a-2-3-20"),
    pytest.param(ORDERED, {"short_ace": "off"}, "Q♥ K♥ A♥", (), "run", 35, "Q♥ K♥ A♥", id="or-short_ace-off-q-k-a-35"),
    # --- wild card (ordered rummy without printed jokers): both 7♠ act as jokers ---
    pytest.param(ORDERED, {"wild_card": "7♠"}, "5♥ 7♠ 7♥", (), "run", 18, None, id="or-wild-7s-as-six-of-hearts"),
    pytest.param(ORDERED, {"wild_card": "7♠"}, "7♠ K♥ K♦", (), "set", 30, None, id="or-wild-7s-in-king-set"),
    pytest.param(ORDERED, {"wild_card": "7♠"}, "6♠ 7♠ 8♠", (), "run", 21, None, id="or-wild-7s-as-itself"),
]


@pytest.mark.parametrize("game, switches, cards, table, kind, points, expected", LEGAL)
def test_legal_meld(game, switches, cards, table, kind, points, expected):
    result = check_meld(cards, rules_for(game, switches), table=table)
    assert result.legal is True, [r.code for r in result.reasons]
    assert tuple(result.reasons) == ()
    assert result.kind == kind
    assert result.points == points
    if "wild_card" in switches:
        return  # RULES.md does not say how a wild natural card is shown once pinned
    tokens = output_tokens(result)
    assert len(tokens) == len(parse_cards(cards))
    # every natural card typed is still there, and every joker is pinned
    assert sorted(t for t in tokens if not t.startswith("JK")) == input_naturals(cards)
    if kind == "set":
        assert_shape_of_set(tokens)
    else:
        assert_shape_of_run(tokens, wrap=switches.get("wrap", False))
    if expected is not None:
        if kind == "run":
            assert tokens == expected.split()
        else:
            assert sorted(tokens) == sorted(expected.split())


# --------------------------------------------------------------------------------------------
# Illegal melds: (game, switches, cards, table, acceptable codes)
# The row passes when at least one of the acceptable codes is among the reasons.
# --------------------------------------------------------------------------------------------

TABLE_BOTH_6H = ("4♥ 5♥ 6♥", "6♥ 7♥ 8♥")
TABLE_BOTH_7H = ("7♥ 8♥ 9♥", "7♠ 7♥ 7♦")
TABLE_KD_KH_GONE = ("K♦ K♥ K♣", "K♦ K♥ K♠")
TABLE_KD_GONE = ("K♦ K♥ K♣", "Q♦ K♦ A♦")

ILLEGAL = [
    pytest.param(KUNKEN, {}, "K♠ K♥", (), {"too_few_cards"}, id="two-kings"),
    pytest.param(KUNKEN, {}, "5♥ 6♥", (), {"too_few_cards"}, id="two-card-run"),
    pytest.param(KUNKEN, {}, "K♠", (), {"too_few_cards"}, id="one-card"),
    pytest.param(KUNKEN, {}, "JK K♠", (), {"too_few_cards"}, id="joker-and-one"),
    pytest.param(KUNKEN, {}, "K♠ K♥ K♦ K♣ JK", (), {"set_too_many_cards"}, id="five-card-set"),
    pytest.param(KUNKEN, {}, "Q♠ Q♥ Q♦ Q♣ Q♠", (), {"set_too_many_cards"}, id="five-queens"),
    pytest.param(KUNKEN, {}, HEARTS_2_TO_A + " JK", (), {"run_too_many_cards"}, id="fourteen-card-run"),
    pytest.param(KUNKEN, {}, "5♥ 6♠ 7♥", (), {"mixed_cards"}, id="mixed-suits"),
    pytest.param(KUNKEN, {}, "K♠ K♥ Q♦", (), {"mixed_cards"}, id="mixed-ranks"),
    pytest.param(KUNKEN, {}, "5♥ 5♠ 6♥", (), {"mixed_cards"}, id="neither-set-nor-run"),
    pytest.param(KUNKEN, {}, "5h 6s 7h", (), {"mixed_cards"}, id="mixed-letters"),
    pytest.param(KUNKEN, {}, "K♦ K♦ K♥", (), {"set_duplicate_card"}, id="two-kd-and-a-kh"),
    pytest.param(KUNKEN, {}, "J♠ J♠ J♦ J♣", (), {"set_duplicate_card"}, id="two-js-a-jd-a-jc"),
    pytest.param(KUNKEN, {}, "Кб Кб Кч", (), {"set_duplicate_card"}, id="ru-duplicate-king"),
    pytest.param(KUNKEN, {}, "5♥ 5♥ 6♥ 7♥", (), {"run_duplicate_card"}, id="run-duplicate"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ 8♥", (), {"run_not_consecutive"}, id="run-gap"),
    pytest.param(KUNKEN, {}, "2♣ 4♣ 6♣", (), {"run_not_consecutive"}, id="run-two-gaps"),
    pytest.param(KUNKEN, {}, "9♠ 10♠ Q♠ K♠", (), {"run_not_consecutive"}, id="run-gap-four"),
    pytest.param(KUNKEN, {}, "Q♥ K♥ A♥ 2♥", (), {"ace_high_and_low"}, id="ace-high-and-low"),
    pytest.param(KUNKEN, {}, "K♥ A♥ 2♥", (), {"ace_high_and_low", "run_not_consecutive"}, id="k-a-2-without-wrap"),
    pytest.param(KUNKEN, {"ace_low": False}, "A♥ 2♥ 3♥", (), {"ace_low_off"}, id="ace_low-off"),
    pytest.param(KUNKEN, {"ace_low": False}, "A♥ 2♥ JK", (), {"ace_low_off"}, id="ace_low-off-with-joker"),
    # the ace read low is the nearer reading: the low ace is what the table's rules forbid, not a gap
    pytest.param(KUNKEN, {"ace_low": False}, "A♠ 3♠ 4♠", (), {"ace_low_off"}, id="ace_low-off-a-3-4"),
    pytest.param(KUNKEN, {"ace_low": False}, "A♠ 3♠ 4♠ 5♠", (), {"ace_low_off"}, id="ace_low-off-a-3-4-5"),
    pytest.param(KUNKEN, {}, "JK JK 5♥", (), {"joker_limit"}, id="two-jokers-in-three-run"),
    pytest.param(KUNKEN, {}, "JK JK K♠", (), {"joker_limit"}, id="two-jokers-in-three-set"),
    pytest.param(KUNKEN, {}, "JK JK JK K♠", (), {"joker_limit"}, id="three-jokers-in-four-set"),
    pytest.param(KUNKEN, {}, "JK JK JK", (), {"joker_limit"}, id="only-jokers"),
    pytest.param(KUNKEN, {"no_adjacent_jokers": True}, "5♥ JK JK 8♥", (), {"adjacent_jokers"}, id="adjacent-jokers"),
    pytest.param(
        KUNKEN, {"no_adjacent_jokers": True}, "5♥ 8♥ JK JK", (), {"adjacent_jokers"}, id="adjacent-after-ordering"
    ),
    pytest.param(
        KUNKEN, {"no_adjacent_jokers": True}, "5♥ 6♥ JK JK", (), {"adjacent_jokers"}, id="adjacent-at-the-end"
    ),
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", TABLE_BOTH_6H, {"joker_copies_played"}, id="table-both-6h-played"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ JK", TABLE_BOTH_7H, {"joker_copies_played"}, id="table-both-7h-played"),
    pytest.param(
        KUNKEN,
        {},
        "JK K♠ K♣",
        TABLE_KD_KH_GONE,
        {"set_joker_no_suit", "joker_copies_played"},
        id="table-set-joker-every-suit-gone",
    ),
    pytest.param(
        KUNKEN,
        {},
        "JK=K♦ K♠ K♣",
        TABLE_KD_GONE,
        {"joker_copies_played", "set_joker_no_suit", "pin_mismatch"},
        id="table-pinned-card-gone",
    ),
    pytest.param(KUNKEN, {}, "5♥ JK=8♥ 7♥", (), {"pin_mismatch"}, id="pin-wrong-rank"),
    pytest.param(KUNKEN, {}, "5♥ JK=6♠ 7♥", (), {"pin_wrong_suit"}, id="pin-wrong-suit"),
    pytest.param(KUNKEN, {}, "JK=Q♦ K♠ K♣", (), {"pin_wrong_rank", "mixed_cards"}, id="pin-wrong-rank-in-set"),
    pytest.param(KUNKEN, {}, "JK=K♠ K♠ K♣", (), {"pin_mismatch", "set_duplicate_card"}, id="pin-duplicates-set-suit"),
    pytest.param(KUNKEN, {}, "JK=4♥ 6♥ 7♥", (), {"pin_mismatch", "run_not_consecutive"}, id="pin-leaves-gap"),
    pytest.param(ORDERED, {}, "5♥ 7♠ 7♥", (), {"mixed_cards"}, id="or-7s-not-wild-by-default"),
    pytest.param(ORDERED, {"wild_card": "7♠"}, "7♠ 7♠ 5♥", (), {"joker_limit"}, id="or-both-wild-7s-are-jokers"),
    pytest.param(ORDERED, {}, "K♦ K♦ K♥", (), {"set_duplicate_card"}, id="or-duplicate-in-set"),
    pytest.param(ORDERED, {}, "Q♥ K♥ A♥ 2♥", (), {"ace_high_and_low"}, id="or-ace-high-and-low"),
]


@pytest.mark.parametrize("game, switches, cards, table, acceptable", ILLEGAL)
def test_illegal_meld(game, switches, cards, table, acceptable):
    assert acceptable <= REASON_CODES
    result = check_meld(cards, rules_for(game, switches), table=table)
    assert result.legal is False
    assert result.reasons, "an illegal meld names at least one rule"
    found = codes(result)
    assert found <= REASON_CODES, found
    assert found & acceptable, f"expected one of {sorted(acceptable)}, got {sorted(found)}"
    for reason in result.reasons:
        assert isinstance(reason.message, str) and reason.message.strip()


# --------------------------------------------------------------------------------------------
# Joker limits: every value of the `joker_limit` switch at 3, 4, 5 and 6 cards.
# Runs start at 5♥; jokers replace the cards at the positions listed in JOKER_SPOTS.
# --------------------------------------------------------------------------------------------

RUN_FROM_5H = ["5♥", "6♥", "7♥", "8♥", "9♥", "10♥"]
JOKER_SPOTS = [1, 3, 5, 0, 2, 4]

# largest number of jokers allowed, per RULES.md "Jokers ... Limits (switch joker_limit)"
MAX_JOKERS = {
    "half": {3: 1, 4: 2, 5: 2, 6: 3},  # at most half of the meld's cards
    "two": {3: 1, 4: 2, 5: 2, 6: 2},  # at most two, at most one in a 3-card meld
    "one": {3: 1, 4: 1, 5: 1, 6: 1},  # at most one
    "minority": {3: 1, 4: 1, 5: 2, 6: 2},  # strictly fewer jokers than natural cards
}


def run_with_jokers(size, jokers):
    cards = RUN_FROM_5H[:size]
    spots = [spot for spot in JOKER_SPOTS if spot < size][:jokers]
    typed = ["JK" if i in spots else card for i, card in enumerate(cards)]
    pinned = [f"JK={card}" if i in spots else card for i, card in enumerate(cards)]
    return " ".join(typed), " ".join(pinned)


JOKER_LIMIT_CASES = []
for _limit, _by_size in MAX_JOKERS.items():
    for _size, _most in _by_size.items():
        JOKER_LIMIT_CASES.append(
            pytest.param(_limit, _size, _most, True, id=f"{_limit}-{_size}cards-{_most}jokers-legal")
        )
        JOKER_LIMIT_CASES.append(
            pytest.param(_limit, _size, _most + 1, False, id=f"{_limit}-{_size}cards-{_most + 1}jokers-illegal")
        )


@pytest.mark.parametrize("limit, size, jokers, legal", JOKER_LIMIT_CASES)
def test_joker_limit_in_runs(limit, size, jokers, legal):
    typed, pinned = run_with_jokers(size, jokers)
    result = check_meld(typed, rules_for(KUNKEN, {"joker_limit": limit}))
    assert result.legal is legal, (typed, [r.code for r in result.reasons])
    if legal:
        assert result.kind == "run"
        assert result.points == 5 * size
        assert format_cards(result.cards) == pinned
    else:
        assert "joker_limit" in codes(result)


SET_LIMIT_CASES = [
    # (limit, cards, legal)
    pytest.param("half", "JK K♠ K♣", True, id="half-set-1of3"),
    pytest.param("half", "JK JK K♠ K♣", True, id="half-set-2of4"),
    pytest.param("two", "JK JK K♠ K♣", True, id="two-set-2of4"),
    pytest.param("two", "JK JK K♠", False, id="two-set-2of3"),
    pytest.param("one", "JK K♠ K♣ K♦", True, id="one-set-1of4"),
    pytest.param("one", "JK JK K♠ K♣", False, id="one-set-2of4"),
    pytest.param("minority", "JK K♠ K♣", True, id="minority-set-1of3"),
    pytest.param("minority", "JK JK K♠ K♣", False, id="minority-set-2of4"),
]


@pytest.mark.parametrize("limit, cards, legal", SET_LIMIT_CASES)
def test_joker_limit_in_sets(limit, cards, legal):
    result = check_meld(cards, rules_for(KUNKEN, {"joker_limit": limit}))
    assert result.legal is legal, [r.code for r in result.reasons]
    if legal:
        assert result.kind == "set"
        assert result.points == 10 * len(cards.split())
    else:
        assert "joker_limit" in codes(result)


def test_check_meld_accepts_cards_as_well_as_text():
    rules = rules_for(KUNKEN)
    from_text = check_meld("5♥ JK 7♥", rules)
    from_cards = check_meld(parse_cards("5♥ JK 7♥"), rules)
    assert from_cards.legal is from_text.legal is True
    assert format_cards(from_cards.cards) == format_cards(from_text.cards) == "5♥ JK=6♥ 7♥"
    assert from_cards.points == from_text.points == 15


def test_check_meld_rejects_bad_card_with_card_error():
    with pytest.raises(CardError) as caught:
        check_meld("5♥ 11♥ 7♥", rules_for(KUNKEN))
    assert "11♥" in str(caught.value)


def reason_codes(result):
    return {r.code for r in result.reasons}


# --- "one joker in a 3-card meld, two in a 4- or 5-card meld, three in a 6-card meld" --------


@pytest.mark.parametrize(
    "cards, legal",
    [
        ("5♥ JK 7♥", True),
        ("JK JK 7♥", False),
        ("5♥ JK 7♥ JK", True),
        ("JK JK 7♥ JK", False),
        ("5♥ JK 7♥ JK 9♥", True),
        ("JK JK 7♥ JK 9♥", False),
        ("5♥ JK 7♥ JK 9♥ JK", True),
        ("JK JK 7♥ JK 9♥ JK", False),
    ],
)
def test_half_joker_limit_example(cards, legal):
    result = check_meld(cards, kunken())
    assert result.legal is legal
    if not legal:
        assert "joker_limit" in reason_codes(result)


# --- "In a run a joker takes the position where it is written" -------------------------------


def test_joker_takes_written_position_in_the_middle():
    result = check_meld("5♥ JK 7♥", kunken())
    assert result.legal and result.kind == "run"
    assert format_cards(result.cards) == "5♥ JK=6♥ 7♥"


def test_joker_takes_written_position_at_the_end():
    result = check_meld("5♥ 6♥ JK", kunken())
    assert result.legal and result.kind == "run"
    assert format_cards(result.cards) == "5♥ 6♥ JK=7♥"


def test_meld_check_api_example():
    # API.md: {"cards": "5♥ JK 7♥"} -> {"legal": true, "kind": "run", "points": 15,
    #          "cards": ["5♥", "JK=6♥", "7♥"], "reasons": []}
    assert check_meld("5♥ JK 7♥", kunken()).to_dict() == {
        "legal": True,
        "kind": "run",
        "points": 15,
        "cards": ["5♥", "JK=6♥", "7♥"],
        "reasons": [],
    }


def test_illegal_meld_to_dict_has_sentences():
    # API.md: "an illegal meld has "legal": false and one reason or more, each a sentence"
    d = check_meld("K♦ K♦ K♥", kunken()).to_dict()
    assert d["legal"] is False
    assert d["reasons"] and all(isinstance(r, str) and r.strip() for r in d["reasons"])


# --- "Two copies of the same card in one set are illegal" ------------------------------------


@pytest.mark.parametrize("cards", ["K♦ K♦ K♥", "J♠ J♠ J♦ J♣"])
def test_two_copies_in_one_set_are_illegal(cards):
    result = check_meld(cards, kunken())
    assert result.legal is False
    assert "set_duplicate_card" in reason_codes(result)


# --- Kunken joker swap: "JK K♠ K♣ on the table; K♦ or K♥ may replace the joker, K♠ may not" --


@pytest.mark.parametrize(
    "meld, card, legal",
    [
        ("JK K♠ K♣", "K♦", True),
        ("JK K♠ K♣", "K♥", True),
        ("JK K♠ K♣", "K♠", False),
        ("JK K♠ K♣", "K♣", False),
        ("JK K♠ K♣", "Q♦", False),
        ("JK K♠ K♣ K♦", "K♥", True),  # the only suit the set lacks
        ("JK K♠ K♣ K♦", "K♦", False),
        ("5♥ JK 7♥", "6♥", True),  # in a run: the natural card the joker stands for
        ("5♥ JK 7♥", "8♥", False),
        ("5♥ JK 7♥", "6♠", False),
        ("5♥ JK=6♥ 7♥", "6♥", True),
        ("K♠ K♥ K♦", "K♣", False),  # no joker to replace
    ],
)
def test_joker_swap(meld, card, legal):
    result = check_swap(meld, card, kunken())
    assert result.legal is legal
    if legal:
        assert tuple(result.reasons) == ()
    else:
        assert result.reasons


def test_swap_api_example():
    result = check_swap("JK K♠ K♣", "K♦", kunken())
    assert result.legal is True and tuple(result.reasons) == ()


# --- Kunken opening -------------------------------------------------------------------------


def test_kunken_opening_worked_example():
    # "bank card 7♥; melds A♠ A♥ A♦ (30) and 6♥ 7♥ 8♥ 9♥ (20) ... → 50 points, legal"
    result = check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "7♥", kunken())
    assert result.legal is True
    assert result.points == 50
    assert tuple(result.reasons) == ()


def test_opening_below_50_is_refused():
    result = check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥"], "7♥", kunken())
    assert result.points == 45
    assert result.legal is False
    assert result.reasons


def test_opening_points_switch_40():
    # "switch opening_points, default 50; 40 is a common variant"
    result = check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥"], "7♥", kunken(opening_points=40))
    assert result.legal is True
    assert result.points == 45


def test_opening_with_ace_points_5_falls_short():
    # the same melds as the worked example, aces at 5: 15 + 20 = 35 < 50
    result = check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "7♥", kunken(ace_points=5))
    assert result.points == 35
    assert result.legal is False


def test_opening_bank_card_must_be_in_a_meld():
    # "The bank card must go into one of those melds"
    result = check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "K♣", kunken())
    assert result.legal is False
    assert result.reasons


def test_opening_with_an_illegal_meld_is_refused():
    result = check_opening(["A♠ A♠ A♦ A♥", "6♥ 7♥ 8♥ 9♥"], "7♥", kunken())
    assert result.legal is False


def test_with_a_layout_any_meld_with_two_hand_cards_takes_the_bank():
    # "Once a player has a layout, they may take the bank with any card that forms a meld with
    # two cards from their hand."
    assert check_opening(["5♥ 6♥ 7♥"], "7♥", kunken(), has_layout=True).legal is True
    assert check_opening(["5♥ 6♥ 7♥"], "7♥", kunken(), has_layout=False).legal is False


def test_with_a_layout_the_bank_card_must_still_be_in_a_meld():
    assert check_opening(["5♥ 6♥ 7♥"], "K♣", kunken(), has_layout=True).legal is False


@pytest.mark.parametrize("has_layout", [False, True])
def test_the_bank_card_must_join_at_least_two_cards_from_the_hand(has_layout):
    """RULES.md: "The bank card itself must go into one of those melds together with at least two cards from
    the player's hand", with a layout or without. The scorer cannot tell the hand's cards from others taken
    from the bank, so it asks that one meld holding the bank card has two cards besides it."""
    melds = ["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"]
    for alone in (["K♣"], ["K♣ K♦"]):  # with nothing, or with one card: 10 more points would not help
        result = check_opening(melds + alone, "K♣", kunken(), has_layout=has_layout)
        assert result.legal is False
        alone_reason = next(r for r in result.reasons if r.code == "opening_bank_card_alone")
        assert alone_reason.message == "The card taken, K♣, must join at least two cards from the hand in one meld."
    # the same card alone in one meld and the third card of another is taken by the other
    joined = check_opening(melds + ["K♣", "K♣ K♦ K♥"], "K♣", kunken(), has_layout=has_layout)
    assert "opening_bank_card_alone" not in reason_codes(joined)
    assert check_opening(melds + ["K♣ K♦ K♥"], "K♣", kunken(), has_layout=has_layout).legal is True


@pytest.mark.parametrize("melds", [["7♣ 7♦ 7♥", "2♥ 3♥ 4♥"], ["2♥ 3♥ 4♥", "7♣ 7♦ 7♥"]])
def test_ordered_rummy_opens_with_a_run_whichever_meld_is_written_first(melds):
    """ "A player's first meld must be a run": the melds of one turn pass when one is a run, as in a deal."""
    assert check_opening(melds, "3♥", ordered()).legal is True


def test_ordered_rummy_refuses_an_opening_without_a_legal_run():
    for melds in (["7♣ 7♦ 7♥"], ["7♣ 7♦ 7♥", "2♥ 3♥ 5♥"]):
        result = check_opening(melds, "7♦", ordered())
        assert "opening_first_meld_run" in reason_codes(result), melds
    assert check_opening(["7♣ 7♦ 7♥"], "7♦", ordered(), has_layout=True).legal is True


# --- Vists: "The extended meld must still be legal"; limits "checked again after every addition"


@pytest.mark.parametrize(
    "rules, meld, cards, legal, points",
    [
        (kunken(), "5♥ 6♥ 7♥", "8♥", True, 20),
        (kunken(), "5♥ 6♥ 7♥", "4♥", True, 20),
        (kunken(), "5♥ 6♥ 7♥", "JK", True, 20),
        (kunken(), "K♠ K♥ K♦", "K♣", True, 40),
        (kunken(), "K♠ K♥ K♦", "K♠", False, None),
        (kunken(), "K♠ K♥ K♦ K♣", "K♠", False, None),
        (kunken(), "5♥ 6♥ 7♥", "10♥", False, None),
        (kunken(), "5♥ JK 7♥", "JK", True, 20),
        (kunken(), "5♥ JK 7♥", "JK JK", False, None),
        (kunken(joker_limit="one"), "5♥ JK 7♥", "JK", False, None),
    ],
)
def test_vist(rules, meld, cards, legal, points):
    result = check_vist(meld, cards, rules)
    assert result.legal is legal
    if legal:
        assert result.points == points
    else:
        assert result.reasons


def test_vist_joker_limit_code():
    result = check_vist("5♥ JK 7♥", "JK", kunken(joker_limit="one"))
    assert "joker_limit" in reason_codes(result)


def test_vist_extends_run_in_order():
    result = check_vist("5♥ 6♥ 7♥", "4♥", kunken())
    assert format_cards(result.cards) == "4♥ 5♥ 6♥ 7♥"


@pytest.mark.parametrize(
    "meld, cards, why",
    [
        ("2♥ 3♥", "4♥", "too_few_cards"),  # 2♥ 3♥ 4♥ would be a run: 2♥ 3♥ is still no meld
        ("K♠ K♠ K♥", "K♦", "set_duplicate_card"),
        ("5♥ 7♥ 9♥", "6♥ 8♥", "run_not_consecutive"),
        ("5♥ JK JK", "8♥", "joker_limit"),
    ],
)
def test_only_a_legal_meld_takes_a_vist(meld, cards, why):
    """RULES.md: "Only a legal meld takes a vist" — the base is checked first, as the rules desk does, and the
    answer says the meld itself is not legal (before, check_vist("2♥ 3♥", "4♥") answered legal)."""
    result = check_vist(meld, cards, kunken())
    assert result.legal is False
    assert code_list(result.reasons) == ["vist_illegal_meld"]
    inner = result.reasons[0].params["why"]
    assert why in code_list(inner) and inner == list(check_meld(meld, kunken()).reasons)
    assert result.reasons[0].message.startswith("The meld is not legal as it lies, so nothing can be added to it: ")


def test_the_vists_cards_do_not_count_against_the_meld_it_goes_to():
    """The meld is judged as it lies, the vist's cards not yet on the table: with one 6♥ elsewhere, 5♥ JK 7♥
    is legal, and a 6♥ added beside its joker is a swap to record, not a meld made illegal by the copies."""
    result = check_vist("5♥ JK 7♥", "6♥", kunken(), table=["6♥ 6♠ 6♦"])
    assert code_list(result.reasons) == ["vist_fills_joker"]


# --- "Rummy!" discard check -------------------------------------------------------------------


@pytest.mark.parametrize(
    "card, melds, fits, index",
    [
        ("Q♦", ["9♦ 10♦ J♦"], True, 0),  # API.md example
        ("8♦", ["9♦ 10♦ J♦"], True, 0),
        ("K♦", ["9♦ 10♦ J♦"], False, None),
        ("Q♦", ["5♣ 6♣ 7♣", "9♦ 10♦ J♦"], True, 1),
        ("10♥", ["10♦ 10♠ 10♣"], True, 0),  # RULES source: the ten of hearts to three tens
        ("10♦", ["10♦ 10♠ 10♣"], False, None),
        ("10♥", ["10♦ 10♠ 10♣ 10♥"], False, None),
    ],
)
def test_discard_check(card, melds, fits, index):
    result = check_discard(card, melds, ordered())
    assert result.fits is fits
    assert result.meld == index


def test_a_discard_check_says_which_lines_are_no_meld_when_nothing_fits():
    """A line that is no meld lies on no table: it takes no card, and the answer says why it did not count."""
    result = check_discard("4♥", ["K♠ K♥ K♣", "2♥ 3♥"], ordered())
    assert (result.fits, result.meld) == (False, None)
    assert [r.code for r in result.reasons] == ["discard_illegal_meld", "discard_no_fit"]
    assert result.reasons[0].params["meld"] == 2
    assert result.reasons[0].message.startswith("Meld 2 is not legal, so nothing can be added to it: ")
    # a card that fits a legal meld fits, whatever else is written
    assert check_discard("Q♦", ["2♥ 3♥", "9♦ 10♦ J♦"], ordered()).to_dict() == {"fits": True, "meld": 1, "reasons": []}


KUNKEN_RULES = RuleSet.preset()
ORDERED_RULES = RuleSet.preset("ordered-rummy")


def code_list(reasons) -> list[str]:
    return [r.code for r in reasons]


# -- the checks of a vist, a discard and a swap check their input ------------------------------------


def test_an_empty_vist_is_an_error_not_legal():
    with pytest.raises(KunkenError) as err:
        check_vist("2♥ 3♥ 4♥", "", KUNKEN_RULES)
    assert "cards" in str(err.value)


@pytest.mark.parametrize("card", ["", "Q♦ K♦"])
def test_a_discard_of_zero_or_two_cards_is_an_error(card):
    with pytest.raises(KunkenError) as err:
        check_discard(card, ["9♦ 10♦ J♦"], ORDERED_RULES)
    assert "exactly one card" in str(err.value)


def test_the_swap_check_knows_the_layout_precondition():
    assert check_swap("JK K♠ K♣", "K♦", KUNKEN_RULES).legal
    no_layout = check_swap("JK K♠ K♣", "K♦", KUNKEN_RULES, has_layout=False)
    assert not no_layout.legal and code_list(no_layout.reasons) == ["swap_no_layout"]
    # a wrong card is still explained as such, whatever the layout
    assert code_list(check_swap("JK K♠ K♣", "K♠", KUNKEN_RULES, has_layout=False).reasons) == ["swap_set_suit_taken"]


def test_the_swap_check_counts_the_card_put_in_against_the_table():
    # both K♦ lie on the table already: nobody holds a third to put in for the joker (K♥ still can)
    table = ["K♦ K♦ K♥"]
    third = check_swap("JK K♠ K♣", "K♦", KUNKEN_RULES, table=table)
    assert not third.legal and code_list(third.reasons) == ["too_many_copies"]
    assert third.reasons[0].params == {"card": "K♦", "count": 3, "decks": 2}
    assert check_swap("JK K♠ K♣", "K♥", KUNKEN_RULES, table=table).legal
    assert check_swap("JK K♠ K♣", "K♦", KUNKEN_RULES, table=["K♦ K♥ K♣"]).legal  # one K♦ out: the other may be held


ORDER = list(Rank)


# -- 13-card runs with wrap-around ---------------------------------------------------------

THIRTEEN = "3♥ 2♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"


@pytest.mark.parametrize("cards", [THIRTEEN, THIRTEEN.replace("A♥", "JK")])
def test_a_reordered_13_card_run_keeps_the_ace_high_when_wrap_is_on(cards):
    # wrap-around used to change a run that needs no wrap: the ace went low (1 point under short_ace "low")
    plain = RuleSet.for_game("ordered-rummy", {"short_ace": "low"})
    wrap = RuleSet.for_game("ordered-rummy", {"short_ace": "low", "wrap": True})
    without, with_wrap = check_meld(cards, plain), check_meld(cards, wrap)
    assert with_wrap.legal and with_wrap.points == without.points == 99
    assert format_cards(with_wrap.cards).startswith("2♥ 3♥") and str(with_wrap.cards[-1]) in ("A♥", "JK=A♥")


def test_wrap_still_goes_round_the_corner_when_the_cards_need_it():
    wrap = RuleSet.for_game("kunken", {"wrap": True})
    check = check_meld("2♥ Q♥ A♥ JK", wrap)
    assert check.legal and format_cards(check.cards) == "Q♥ JK=K♥ A♥ 2♥"


# -- brute force: check_parsed against a tiny independent oracle ---------------------------


def _windows(n, rules):
    if rules.wrap:
        return [[ORDER[(s + i) % 13] for i in range(n)] for s in range(13)]
    low = 1 if rules.ace_low else 2
    return [[Rank.ACE if v == 1 else Rank(v) for v in range(s, s + n)] for s in range(low, 16 - n)]


def _jokers_ok(slots, window, suit, rules, laid, n):
    return (
        len(slots) <= rules.joker_limit_for(n)
        and all(laid[Card(window[k], suit)] < 2 for k in slots)
        and not (rules.no_adjacent_jokers and any(b - a == 1 for a, b in zip(slots, slots[1:], strict=False)))
    )


def _run_oracle(meld, rules, laid):
    n = len(meld)
    fixed = [c.natural_card for c in meld if not c.is_joker or c.pin]
    suit = fixed[0].suit
    if any(c.suit != suit for c in fixed) or len(set(fixed)) != len(fixed):
        return False
    rank = [None if c.is_joker and not c.pin else c.natural_card.rank for c in meld]
    windows = _windows(n, rules)
    jokers = [i for i, c in enumerate(meld) if c.is_joker]
    written = [
        seq for w in windows for seq in (w, w[::-1]) if all(r is None or r == seq[i] for i, r in enumerate(rank))
    ]
    if written:  # a joker takes the position where it is written
        return any(_jokers_ok(jokers, seq, suit, rules, laid, n) for seq in written)
    naturals = {c.rank for c in meld if not c.is_joker}
    pinned = {c.pin.rank for c in meld if c.is_joker and c.pin}
    return any(
        _jokers_ok([k for k, r in enumerate(w) if r not in naturals or r in pinned], w, suit, rules, laid, n)
        for w in windows
        if naturals | pinned <= set(w)
    )


def _set_oracle(meld, rules, laid):
    naturals = [c for c in meld if not c.is_joker]
    rank = naturals[0].rank
    if len(meld) > 4 or any(c.rank != rank for c in naturals) or len(set(naturals)) != len(naturals):
        return False
    free = [s for s in Suit if Card(rank, s) not in naturals and laid[Card(rank, s)] < 2]
    return len(meld) - len(naturals) <= min(rules.joker_limit_for(len(meld)), len(free))


VARIANTS = [
    {},
    {"ace_low": False},
    {"wrap": True},
    {"joker_limit": "two"},
    {"joker_limit": "one"},
    {"joker_limit": "minority"},
    {"no_adjacent_jokers": True},
    {"wrap": True, "no_adjacent_jokers": True, "joker_limit": "two"},
]


@pytest.mark.parametrize("seed", range(4))
def test_check_meld_agrees_with_a_brute_force_oracle(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        rules = RuleSet.for_game("kunken", rng.choice(VARIANTS))
        n, suit = rng.randint(3, 7), rng.choice(list(Suit))
        if rng.random() < 0.7:
            start = rng.randrange(13)
            meld = [Card(ORDER[(start + i) % 13], suit) for i in range(n)]
            if rng.random() < 0.3:
                meld[rng.randrange(n)] = Card(rng.choice(ORDER), suit)
        else:
            rank = rng.choice(ORDER)
            meld = [Card(rank, rng.choice(list(Suit))) for _ in range(n)]
        for i in rng.sample(range(n), rng.randint(0, min(3, n - 1))):
            meld[i] = Card.joker(meld[i]) if rng.random() < 0.25 else Card.joker()
        if rng.random() < 0.5:
            rng.shuffle(meld)
        naturals = [c for c in meld if not c.is_joker]
        if not naturals:
            continue
        laid = Counter(naturals)
        for _ in range(rng.randint(0, 5)):
            card = Card(rng.choice(ORDER), rng.choice([suit, rng.choice(list(Suit))]))
            laid[card] = min(2, laid[card] + rng.randint(1, 2))
        ranks, suits = {c.rank for c in naturals}, {c.suit for c in naturals}
        pins = any(c.is_joker and c.pin for c in meld)
        if len(ranks) == 1 and len(naturals) > 1 and not pins:
            expected = _set_oracle(meld, rules, laid)
        elif len(suits) == 1 and len(ranks) > 1:
            expected = _run_oracle(meld, rules, laid)
        elif len(naturals) == 1 and not pins:
            expected = _set_oracle(meld, rules, laid) or _run_oracle(meld, rules, laid)
        else:
            continue
        got = check_parsed(tuple(meld), rules, laid)
        assert got.legal == expected, (rules.differences(), format_cards(meld), got.reasons)
        if got.legal and got.kind == "run":
            ranks_laid = [c.natural_card.rank for c in got.cards]
            assert ranks_laid in _windows(n, rules) or ranks_laid[::-1] in _windows(n, rules)
            assert got.points == sum(rules.rank_points(r) for r in ranks_laid)


# -- properties: a legal set in any order, a legal run either way -----------------------------------


@st.composite
def sets(draw):
    rank = draw(st.sampled_from(list(Rank)))
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=3, max_size=4, unique=True))
    meld = [Card(rank, s) for s in suits]
    for i in draw(st.sets(st.integers(0, len(meld) - 1), max_size=2)):
        meld[i] = Card.joker()
    return meld


@settings(max_examples=150)
@given(sets(), rule_sets)
def test_every_permutation_of_a_legal_set_is_legal_with_the_same_points(meld, rules):
    first = check_meld(meld, rules)
    assume(first.legal)
    assert first.kind == "set"
    for perm in itertools.permutations(meld):
        check = check_meld(list(perm), rules)
        assert check.legal and check.points == first.points, format_cards(perm)


@st.composite
def runs(draw):
    size = draw(st.integers(3, 8))
    start = draw(st.integers(1, 15 - size))
    suit = draw(st.sampled_from(list(Suit)))
    meld = [Card(Rank.ACE if v == 1 else Rank(v), suit) for v in range(start, start + size)]
    for i in draw(st.sets(st.integers(0, size - 1), max_size=3)):
        meld[i] = Card.joker()
    return meld


@settings(max_examples=200)
@given(runs(), rule_sets)
def test_a_legal_run_written_in_reverse_stays_legal_with_the_same_points(meld, rules):
    forward = check_meld(meld, rules)
    assume(forward.legal and forward.kind == "run")
    backward = check_meld(meld[::-1], rules)
    assert backward.legal
    assert backward.points == forward.points
    assert sorted(map(str, backward.cards)) == sorted(map(str, forward.cards))


# -- the memos (joker-free verdicts per rule set, card texts) never change an answer ---------------


def test_each_rule_set_keeps_its_own_verdicts():
    tens, fives = RuleSet.for_game("kunken", {"ace_points": 10}), RuleSet.for_game("kunken", {"ace_points": 5})
    assert check_meld("A♠ A♥ A♦", tens).points == 30
    assert check_meld("A♠ A♥ A♦", fives).points == 15
    assert check_meld("A♠ A♥ A♦", tens).points == 30


words = st.lists(st.sampled_from(["K♠", "K♥", "K♦", "5♥", "6♥", "7♥", "JK", "Тп", "10ч", "A♣"]), min_size=1, max_size=6)


@settings(max_examples=200)
@given(words, st.sampled_from(["kunken", "ordered-rummy"]), st.booleans())
def test_memoised_and_fresh_verdicts_agree(tokens, game, wrap):
    rules = RuleSet.for_game(game, {"wrap": wrap})
    text = " ".join(tokens)
    first = check_meld(text, rules)
    _VERDICTS.pop(id(rules), None)
    _TEXTS.clear()
    fresh = check_meld(text, rules)
    again = check_meld(text, rules)
    assert first == fresh == again
    cards = parse_cards(text)
    assert check_parsed(cards, rules, laid_counts([cards], rules)) == fresh


def test_a_kept_verdict_stands_only_while_the_table_counts_it_read_are_the_same():
    """Verdicts are kept with the table counts their check looked up: the same meld on another table
    (both copies of the joker's card already laid) is judged afresh, and each table's verdict is reused."""
    rules = RuleSet.for_game("kunken", {"wrap": False})
    _VERDICTS.pop(id(rules), None)
    meld = "6♥ JK 8♥"
    open_table, full_table = ["K♠ K♥ K♦"], ["6♥ 7♥ 8♥", "7♥ 7♠ 7♦"]
    for _ in range(3):  # alternate: each table keeps its own verdict
        assert check_meld(meld, rules, table=open_table).legal
        blocked = check_meld(meld, rules, table=full_table)
        assert not blocked.legal and blocked.reasons[0].code == "joker_copies_played"
    assert len(_VERDICTS[id(rules)][1][parse_cards(meld)]) == 2
    # a set's joker takes a suit whose copies are not both laid: the table decides which
    assert str(check_meld("K♠ K♥ JK", rules, table=["K♦ K♦ K♣"]).cards[2]) == "JK=K♣"
    assert str(check_meld("K♠ K♥ JK", rules, table=["K♣ K♣ K♦"]).cards[2]) == "JK=K♦"
    assert str(check_meld("K♠ K♥ JK", rules, table=["K♦ K♦ K♣"]).cards[2]) == "JK=K♣"


def test_the_joker_copy_rule_counts_the_decks_in_play():
    """A joker may stand for a card while the decks hold a copy off the table: one copy with one deck,
    three with three (the ``decks`` switch), not always two."""
    one_deck = RuleSet.for_game("kunken", {"decks": 1, "jokers": 2})
    refused = check_meld("5♥ JK 7♥", one_deck, table=["6♥ 6♠ 6♦"])
    assert not refused.legal and code_list(refused.reasons) == ["joker_copies_played"]
    three_decks = RuleSet.for_game("kunken", {"decks": 3, "jokers": 6})
    assert check_meld("5♥ JK 7♥", three_decks, table=["6♥ 6♠ 6♦", "6♥ 6♣ 6♦"]).legal
    assert not check_meld("5♥ JK 7♥", KUNKEN_RULES, table=["6♥ 6♠ 6♦", "6♥ 6♣ 6♦"]).legal
    # a set's joker: the suits still open are those with a copy off the table
    assert check_meld("K♠ K♣ JK", three_decks, table=["K♥ K♥ Q♥", "K♦ K♦ Q♦"]).legal
    assert not check_meld("K♠ K♣ JK", KUNKEN_RULES, table=["K♥ K♥ Q♥", "K♦ K♦ Q♦"]).legal


def test_a_set_with_more_jokers_than_open_suits_says_so():
    """Two jokers in K♠ K♣ with the K♥ gone: one joker is K♦, the other has nothing left. The reason
    does not claim every missing king is on the table (K♦ is not)."""
    check = check_meld("K♠ K♣ JK JK", KUNKEN_RULES, table=["K♥ K♥ Q♥"])
    assert not check.legal and code_list(check.reasons) == ["set_joker_no_suit"]
    assert "taken by another joker of the set" in check.reasons[0].message


@pytest.mark.parametrize(
    "meld, added", [("5♥ JK 7♥", "6♥"), ("5♥ 6♥ JK", "7♥"), ("JK 6♥ 7♥", "5♥"), ("5♥ JK JK 8♥", "7♥ 6♥")]
)
def test_a_vist_of_the_card_a_run_joker_stands_for_is_called_a_swap(meld, added):
    """Putting in the card a run's joker stands for is a joker swap: the vist is refused, and the reason says
    so rather than blaming the joker's place (it used to say "the joker would have to be 8♥")."""
    check = check_vist(meld, added, KUNKEN_RULES)
    assert not check.legal and code_list(check.reasons) == ["vist_fills_joker"]
    assert "joker swap" in check.reasons[0].message


def test_a_set_joker_moves_aside_for_a_vist_of_its_suit():
    assert check_vist("K♠ K♣ JK", "K♥", KUNKEN_RULES).legal  # the joker's suit is open: it becomes K♦


def test_a_wild_card_table_refuses_a_printed_joker_in_every_single_check():
    """RULES.md: with a wild card "the deck has no other jokers". A recorded deal says so (joker_not_in_deck);
    the single checks of the API and the rules desk said `5♥ JK 7♥` was legal."""
    wild = RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"})
    meld = check_meld("5♥ JK 7♥", wild)
    assert not meld.legal and [r.code for r in meld.reasons] == ["joker_not_in_deck"]
    assert check_meld("5♥ 7♠ 7♥", wild).legal  # the wild card itself is the joker
    assert [r.code for r in check_vist("5♥ 6♥ 7♥", "JK", wild).reasons] == ["joker_not_in_deck"]
    assert [r.code for r in check_discard("JK", ["5♥ 6♥ 7♥"], wild).reasons] == ["joker_not_in_deck"]
    assert [r.code for r in check_swap("K♠ K♣ JK", "K♦", wild).reasons] == ["joker_not_in_deck"]
    plain = RuleSet.preset("ordered-rummy")
    assert check_meld("5♥ JK 7♥", plain).legal and check_discard("JK", ["5♥ 6♥ 7♥"], plain).fits
