"""Independent meld tables written from RULES.md ("Cards and notation", "Melds", the presets).

Each row names the game, the house-rule switches, the cards as a player would type them and
what RULES.md says the scorer must answer. Legal rows check kind, points and (where the spec
fixes it) which card every joker stands for; illegal rows check that the broken rule is among
the reasons. Where RULES.md leaves two codes equally right, the row lists both.
"""

from __future__ import annotations

import pytest

from kunken_scorer import (
    Card,
    CardError,
    RuleSet,
    check_meld,
    format_cards,
    parse_cards,
)

KUNKEN = "kunken"
ORDERED = "ordered-rummy"

RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["♠", "♥", "♦", "♣"]
REASON_CODES = {
    "too_few_cards", "set_too_many_cards", "run_too_many_cards", "mixed_cards",
    "set_duplicate_card", "run_duplicate_card", "run_not_consecutive", "ace_high_and_low",
    "ace_low_off", "joker_limit", "adjacent_jokers", "joker_copies_played",
    "set_joker_no_suit", "pin_mismatch", "pin_wrong_rank", "pin_wrong_suit",
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
        steps = [(b - a) % 13 for a, b in zip(places, places[1:])]
    else:
        if places[:2] == [12, 0]:  # A 2 3 ...: the ace is low
            places[0] = -1
        steps = [b - a for a, b in zip(places, places[1:])]
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
    pytest.param(KUNKEN, {"ace_points": 5}, "10♥ J♥ Q♥ K♥ A♥", (), "run", 40, "10♥ J♥ Q♥ K♥ A♥", id="run-ten-to-ace-ace_points-5"),
    pytest.param(KUNKEN, {"ace_points": 5}, "A♥ 2♥ 3♥", (), "run", 15, "A♥ 2♥ 3♥", id="run-ace-low-ace_points-5"),
    pytest.param(KUNKEN, {}, HEARTS_2_TO_A, (), "run", 85, HEARTS_2_TO_A, id="run-13-cards-ace-high"),
    pytest.param(KUNKEN, {}, CLUBS_A_TO_K, (), "run", 85, CLUBS_A_TO_K, id="run-13-cards-ace-low"),
    # --- jokers in runs: the joker takes the place where it is written ---
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", (), "run", 15, "5♥ JK=6♥ 7♥", id="run-joker-middle"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ JK", (), "run", 15, "5♥ 6♥ JK=7♥", id="run-joker-end"),
    pytest.param(KUNKEN, {}, "JK 5♥ 6♥", (), "run", 15, "JK=4♥ 5♥ 6♥", id="run-joker-written-first"),
    pytest.param(KUNKEN, {}, "7♥ 5♥ JK", (), "run", 15, "5♥ JK=6♥ 7♥", id="run-joker-fills-gap-after-ordering"),
    pytest.param(KUNKEN, {}, "Q♥ K♥ JK", (), "run", 30, "Q♥ K♥ JK=A♥", id="run-joker-is-ace"),
    pytest.param(KUNKEN, {}, "K♥ A♥ JK", (), "run", 30, "JK=Q♥ K♥ A♥", id="run-spare-joker-low-end-when-nothing-higher"),
    pytest.param(KUNKEN, {}, "9♥ 10♥ JK", (), "run", 20, "9♥ 10♥ JK=J♥", id="run-joker-counts-as-jack"),
    pytest.param(KUNKEN, {}, "A♥ 2♥ JK", (), "run", 20, "A♥ 2♥ JK=3♥", id="run-ace-low-joker-three"),
    pytest.param(KUNKEN, {}, "5♥ JK JK 8♥", (), "run", 20, "5♥ JK=6♥ JK=7♥ 8♥", id="run-adjacent-jokers-allowed-by-default"),
    pytest.param(KUNKEN, {}, "5♥ 8♥ JK JK", (), "run", 20, "5♥ JK=6♥ JK=7♥ 8♥", id="run-jokers-fill-gaps-after-ordering"),
    pytest.param(KUNKEN, {}, "5♥ JK=6♥ 7♥", (), "run", 15, "5♥ JK=6♥ 7♥", id="run-pinned-joker-fits"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ JK=4♥", (), "run", 15, "JK=4♥ 5♥ 6♥", id="run-pinned-joker-low-end"),
    pytest.param(KUNKEN, {}, HEARTS_2_TO_K + " JK", (), "run", 85, HEARTS_2_TO_K + " JK=A♥", id="run-13-with-joker-ace"),
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
    pytest.param(KUNKEN, {"ace_low": False}, "Q♥ K♥ A♥", (), "run", 30, "Q♥ K♥ A♥", id="ace_low-off-still-allows-q-k-a"),
    pytest.param(KUNKEN, {"ace_low": False}, "JK 2♥ 3♥", (), "run", 15, "2♥ 3♥ JK=4♥", id="ace_low-off-joker-moves-to-high-end"),
    pytest.param(KUNKEN, {"wrap": True}, "K♥ A♥ 2♥", (), "run", 25, "K♥ A♥ 2♥", id="wrap-k-a-2"),
    pytest.param(KUNKEN, {"wrap": True}, "Q♥ K♥ A♥ 2♥", (), "run", 35, "Q♥ K♥ A♥ 2♥", id="wrap-q-k-a-2"),
    pytest.param(KUNKEN, {"wrap": True}, "A♥ 2♥ 3♥", (), "run", 20, "A♥ 2♥ 3♥", id="wrap-ace-low-still-fine"),
    pytest.param(KUNKEN, {"no_adjacent_jokers": True}, "5♥ JK 7♥ JK", (), "run", 20, "5♥ JK=6♥ 7♥ JK=8♥", id="no_adjacent-apart-is-fine"),
    pytest.param(KUNKEN, {"no_adjacent_jokers": True}, "JK JK K♠ K♣", (), "set", 40, None, id="no_adjacent-does-not-apply-to-sets"),
    # --- the "both copies on the table" rule, where a copy is still free ---
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", ("4♥ 5♥ 6♥",), "run", 15, "5♥ JK=6♥ 7♥", id="table-one-copy-played"),
    # a joker on the table standing for 6♥ is not one of the two *natural* copies
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", ("4♥ 5♥ JK=6♥", "6♥ 7♥ 8♥"), "run", 15, "5♥ JK=6♥ 7♥", id="table-pinned-joker-is-not-a-natural-copy"),
    pytest.param(KUNKEN, {}, "JK K♠ K♣", ("K♦ K♥ K♣", "Q♦ K♦ A♦"), "set", 30, "JK=K♥ K♠ K♣", id="table-set-joker-takes-free-suit"),
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
    pytest.param(ORDERED, {"short_ace": "low"}, "A♥ 2♥ 3♥ 4♥", (), "run", 10, "A♥ 2♥ 3♥ 4♥", id="or-short_ace-low-any-low-ace"),
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
    pytest.param(KUNKEN, {}, "JK JK 5♥", (), {"joker_limit"}, id="two-jokers-in-three-run"),
    pytest.param(KUNKEN, {}, "JK JK K♠", (), {"joker_limit"}, id="two-jokers-in-three-set"),
    pytest.param(KUNKEN, {}, "JK JK JK K♠", (), {"joker_limit"}, id="three-jokers-in-four-set"),
    pytest.param(KUNKEN, {}, "JK JK JK", (), {"joker_limit"}, id="only-jokers"),
    pytest.param(KUNKEN, {"no_adjacent_jokers": True}, "5♥ JK JK 8♥", (), {"adjacent_jokers"}, id="adjacent-jokers"),
    pytest.param(KUNKEN, {"no_adjacent_jokers": True}, "5♥ 8♥ JK JK", (), {"adjacent_jokers"}, id="adjacent-after-ordering"),
    pytest.param(KUNKEN, {"no_adjacent_jokers": True}, "5♥ 6♥ JK JK", (), {"adjacent_jokers"}, id="adjacent-at-the-end"),
    pytest.param(KUNKEN, {}, "5♥ JK 7♥", TABLE_BOTH_6H, {"joker_copies_played"}, id="table-both-6h-played"),
    pytest.param(KUNKEN, {}, "5♥ 6♥ JK", TABLE_BOTH_7H, {"joker_copies_played"}, id="table-both-7h-played"),
    pytest.param(KUNKEN, {}, "JK K♠ K♣", TABLE_KD_KH_GONE, {"set_joker_no_suit", "joker_copies_played"}, id="table-set-joker-every-suit-gone"),
    pytest.param(KUNKEN, {}, "JK=K♦ K♠ K♣", TABLE_KD_GONE, {"joker_copies_played", "set_joker_no_suit", "pin_mismatch"}, id="table-pinned-card-gone"),
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
    "half": {3: 1, 4: 2, 5: 2, 6: 3},       # at most half of the meld's cards
    "two": {3: 1, 4: 2, 5: 2, 6: 2},        # at most two, at most one in a 3-card meld
    "one": {3: 1, 4: 1, 5: 1, 6: 1},        # at most one
    "minority": {3: 1, 4: 1, 5: 2, 6: 2},   # strictly fewer jokers than natural cards
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


# --------------------------------------------------------------------------------------------
# Notation: canonical output and parse errors
# --------------------------------------------------------------------------------------------

CANONICAL = [
    ("10h", "10♥"), ("ks", "K♠"), ("qD", "Q♦"), ("a♣", "A♣"), ("2C", "2♣"),
    ("Тп", "A♠"), ("тт", "A♣"), ("Вч", "J♥"), ("Дб", "Q♦"), ("Кт", "K♣"), ("10п", "10♠"),
    ("JK", "JK"), ("jk", "JK"), ("Jo", "JK"), ("jo", "JK"), ("*", "JK"), ("Дж", "JK"),
    ("дж", "JK"), ("JK=K♦", "JK=K♦"), ("jk=kd", "JK=K♦"), ("Дж=Кб", "JK=K♦"),
    ("K♠", "K♠"), ("10♥", "10♥"),
]


@pytest.mark.parametrize("token, canonical", CANONICAL, ids=[c[0] for c in CANONICAL])
def test_card_parses_to_canonical_form(token, canonical):
    card = Card.parse(token)
    assert str(card) == canonical
    assert str(Card.parse(str(card))) == canonical  # the canonical form reads back as itself


def test_parse_cards_and_format_cards():
    cards = parse_cards("10h, Jh  Qh,Тп\tjk=kd *")
    assert isinstance(cards, tuple)
    assert format_cards(cards) == "10♥ J♥ Q♥ A♠ JK=K♦ JK"


BAD_TOKENS = [
    "11♥", "Zx", "K", "JK=", "JK=JK", "Ts", "1♥", "0♥", "5x", "♥", "K♠♠", "JK=K", "K♠=5♥", "Д",
    "10", "♥5", "h5", "JKK", "Tп",  # suit before rank, no suit, Latin T is no rank
]


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_bad_token_raises_card_error_naming_it(token):
    assert issubclass(CardError, ValueError)
    with pytest.raises(CardError) as caught:
        Card.parse(token)
    assert token in str(caught.value)


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_bad_token_inside_a_list_is_named(token):
    with pytest.raises(CardError) as caught:
        parse_cards(f"5♥ {token} 7♥")
    assert token in str(caught.value)


def test_no_such_rank_message():
    with pytest.raises(CardError) as caught:
        Card.parse("11♥")
    message = str(caught.value)
    assert '"11♥"' in message and "no such rank" in message
