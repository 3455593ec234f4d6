"""The rule edges of issue 45 (item 6), each against the rule texts or the project's own docs:

1. a joker added to a run goes to whichever end breaks no rule (decisions.md: "of several ways to read a run,
   one that breaks no rule wins");
2. a 13-card run typed out of order keeps its ace high when a joker is its 2 (99 in ordered rummy, not 85);
3. an illegal meld scores its face value, whatever made it illegal (decisions.md);
4. a wrap-around run at a wild-card table is refused for the wrap, not for "10 cards missing";
5. a joker is swapped only out of the other players' melds ("в выкладках партнёров", two of the rule texts), unless
   the house rule ``swap_own_melds`` allows one's own.

Every deal here gives each player who did not go out a hand, so it reads the same whatever else a deal is checked for.
"""

from __future__ import annotations

import pytest
from conftest import kunken, ordered

from kunken_scorer import Deal, RuleSet, check_meld, check_swap, check_vist, evaluate_deal, format_cards
from kunken_scorer.core.disputes import answer_swap
from kunken_scorer.core.messages import render
from kunken_scorer.core.rules import HOUSE_RULES, KEY_SWITCHES, SWITCHES, rule_lines

KUNKEN = RuleSet.preset()
NO_ADJACENT = kunken(no_adjacent_jokers=True)


def codes(reasons) -> list[str]:
    return [r.code for r in reasons]


def why_codes(report) -> list[str]:
    """The codes of every problem of a deal and of the reasons each problem quotes."""
    out = []
    for problem in report.problems:
        out.append(problem.code)
        out += [r.code for r in problem.params.get("why", ())]
    return out


def score(rules: RuleSet, *players: dict, **fields):
    return evaluate_deal(Deal.from_dict({"players": list(players), **fields}), rules)


def by_name(report) -> dict:
    return {p.name: p for p in report.players}


# -- 1. a joker added to a run: either end ------------------------------------------------------------------------


def test_a_joker_added_beside_a_joker_goes_to_the_low_end_without_adjacent_jokers():
    # 5♥ 6♥ JK=7♥: a joker at the high end (8♥) would lie beside the other; at the low end (4♥) it breaks no rule
    check = check_vist("5♥ 6♥ JK", "JK", NO_ADJACENT)
    assert check.legal, [r.message for r in check.reasons]
    assert format_cards(check.cards) == "JK=4♥ 5♥ 6♥ JK=7♥"
    assert check.card_points[-1] == 5  # the added joker scores as the 4♥


def test_a_joker_added_where_both_high_cards_are_laid_goes_to_the_low_end():
    table = ["8♥ 8♠ 8♦", "8♥ 8♣ 8♦"]  # both 8♥ are on the table
    check = check_vist("5♥ 6♥ 7♥", "JK", KUNKEN, table=table)
    assert check.legal, [r.message for r in check.reasons]
    assert format_cards(check.cards) == "JK=4♥ 5♥ 6♥ 7♥"


def test_a_joker_added_to_a_run_is_refused_only_when_no_end_takes_it():
    table = ["8♥ 8♠ 8♦", "8♥ 8♣ 8♦", "4♥ 4♠ 4♦", "4♥ 4♣ 4♦"]  # both 8♥ and both 4♥ are on the table
    check = check_vist("5♥ 6♥ 7♥", "JK", KUNKEN, table=table)
    assert not check.legal
    assert codes(check.reasons) == ["joker_copies_played"]
    assert check.reasons[0].params == {"card": "8♥"}  # the reason of the usual reading, the high end


def test_a_pinned_joker_added_to_a_run_keeps_its_card():
    # JK=8♥ says where the joker goes: beside JK=7♥, which the table forbids; it is not moved to the 4♥
    check = check_vist("5♥ 6♥ JK", "JK=8♥", NO_ADJACENT)
    assert not check.legal and codes(check.reasons) == ["adjacent_jokers"]


def test_a_joker_added_at_the_high_end_when_it_may_stays_there():
    assert format_cards(check_vist("5♥ 6♥ 7♥", "JK", NO_ADJACENT).cards) == "5♥ 6♥ 7♥ JK=8♥"


def test_a_recorded_joker_vist_to_another_players_run_takes_the_low_end():
    report = score(
        NO_ADJACENT,
        {"name": "Anna", "melds": ["5♥ 6♥ JK"], "hand": "9♣"},
        {"name": "Boris", "melds": ["2♣ 3♣ 4♣"], "vists": [{"to": "Anna", "meld": 0, "cards": "JK"}], "hand": ""},
        went_out="Boris",
    )
    assert report.valid, [p.message for p in report.problems]
    assert report.warnings == ()
    assert by_name(report)["Boris"].plus == 15 + 5  # his run, and the joker as the 4♥
    assert format_cards(report.details[0].final_melds[0].cards) == "JK=4♥ 5♥ 6♥ JK=7♥"


def test_a_recorded_joker_vist_whose_high_card_is_laid_twice_is_no_warning_when_the_low_end_is_free():
    report = score(
        KUNKEN,
        {"name": "Anna", "melds": ["5♥ 6♥ 7♥"], "hand": "9♣"},
        {"name": "Boris", "melds": ["8♥ 8♠ 8♦"], "vists": [{"to": "Anna", "cards": "JK"}], "hand": ""},
        {"name": "Vera", "melds": ["8♥ 8♣ 8♦"], "hand": "9♦"},
        went_out="Boris",
    )
    assert report.valid and report.warnings == ()
    assert format_cards(report.details[0].final_melds[0].cards) == "JK=4♥ 5♥ 6♥ 7♥"


# -- 2. a 13-card run typed out of order, a joker as its 2 -----------------------------------------------------------

SHORT_ACE_LOW = ordered(short_ace="low")
THIRTEEN_JOKER_TWO = [
    "3♥ 4♥ JK 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥",
    "A♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ JK",
    "K♥ JK A♥ Q♥ 3♥ J♥ 4♥ 10♥ 5♥ 9♥ 6♥ 8♥ 7♥",
]


@pytest.mark.parametrize("cards", THIRTEEN_JOKER_TWO)
@pytest.mark.parametrize("wrap", [False, True])
def test_a_13_card_run_out_of_order_with_a_joker_as_its_2_keeps_the_ace_high(cards, wrap):
    rules = ordered(short_ace="low", wrap=wrap)
    check = check_meld(cards, rules)
    assert check.legal
    assert format_cards(check.cards) == "JK=2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
    assert check.points == 99  # 2 + 3 + … + 10, J Q K 30, the ace high 15


def test_a_13_card_run_written_with_its_ace_low_is_read_as_written():
    # in order, A♥ first and the joker second: the ace is low as written, and scores 1 under short_ace "low"
    check = check_meld("A♥ JK 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥", SHORT_ACE_LOW)
    assert check.legal and check.points == 85
    assert format_cards(check.cards) == "A♥ JK=2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"


def test_a_shorter_run_in_no_order_still_puts_its_spare_joker_at_the_high_end():
    assert format_cards(check_meld("7♥ 5♥ 6♥ JK", KUNKEN).cards) == "5♥ 6♥ 7♥ JK=8♥"
    assert format_cards(check_meld("A♥ Q♥ K♥ JK", KUNKEN).cards) == "JK=J♥ Q♥ K♥ A♥"  # nothing goes above the ace


# -- 3. an illegal meld scores its face value ---------------------------------------------------------------------

ILLEGAL_MELDS = [
    pytest.param(KUNKEN, "K♠ JK JK", "joker_limit", 10, 30, id="joker-limit"),
    pytest.param(NO_ADJACENT, "5♥ JK JK 8♥", "adjacent_jokers", 10, 20, id="adjacent-jokers"),
    pytest.param(KUNKEN, "K♠ K♥ JK=Q♦", "pin_wrong_rank", 20, 30, id="pin-rank"),
    pytest.param(KUNKEN, "K♠ K♥ JK=K♠", "set_duplicate_card", 20, 30, id="pinned-duplicate"),
    pytest.param(ordered(), "7♠ JK JK", "joker_limit", 7, 21, id="ordered-joker-limit"),
]


@pytest.mark.parametrize(("rules", "meld", "code", "face", "as_placed"), ILLEGAL_MELDS)
def test_an_illegal_meld_scores_its_face_value_whatever_made_it_illegal(rules, meld, code, face, as_placed):
    check = check_meld(meld, rules)
    assert not check.legal and code in codes(check.reasons)
    assert check.points == face != as_placed  # jokers count nothing, as in any other illegal meld
    assert sum(check.card_points) == face


@pytest.mark.parametrize(("rules", "meld", "code", "face", "as_placed"), ILLEGAL_MELDS)
def test_a_deal_recorded_anyway_scores_an_illegal_meld_at_face_value(rules, meld, code, face, as_placed):
    report = score(
        rules,
        {"name": "Anna", "melds": [meld], "hand": ""},
        {"name": "Boris", "melds": ["2♣ 3♣ 4♣"] if rules.first_meld_run else [], "hand": "9♦"},
        went_out="Anna",
    )
    assert "illegal_meld" in codes(report.problems) and code in why_codes(report)
    assert by_name(report)["Anna"].plus == face != as_placed
    assert report.details[0].unchecked == face
    assert report.checked_players[0].plus == 0  # the preview counts nothing of it


def test_a_meld_legal_but_for_the_order_of_play_still_scores_its_joker():
    # both 10♣ are on the table: a warning on a recorded deal, and the joker scores the 10♣ it stands for
    report = score(
        KUNKEN,
        {"name": "Anna", "melds": ["9♣ JK J♣"], "hand": ""},
        {"name": "Boris", "melds": ["10♣ 10♥ 10♠"], "hand": "9♦"},
        {"name": "Vera", "melds": ["10♣ 10♦ 10♠"], "hand": "9♥"},
        went_out="Anna",
    )
    assert report.valid and codes(report.warnings) == ["joker_laid_early"]
    assert by_name(report)["Anna"].plus == 5 + 5 + 10
    assert check_meld("9♣ JK J♣", KUNKEN, table=["10♣ 10♥ 10♠", "10♣ 10♦ 10♠"]).points == 15  # refused: face value


# -- 4. a wrap at a wild-card table ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["ordered-rummy", "kunken"])
def test_a_wrap_with_a_wild_card_is_refused_for_the_wrap(game):
    wild = RuleSet.for_game(game, {"wild_card": "7♠"})
    check = check_meld("K♥ A♥ 7♠ 2♥", wild)
    assert not check.legal
    assert codes(check.reasons) == ["ace_high_and_low"]  # the same reason a printed joker gets
    assert codes(check_meld("K♥ A♥ JK 2♥", RuleSet.preset(game)).reasons) == ["ace_high_and_low"]


def test_a_wrap_with_a_wild_card_is_legal_where_runs_wrap():
    check = check_meld("K♥ A♥ 7♠ 2♥", ordered(wild_card="7♠", wrap=True))
    assert check.legal, [r.message for r in check.reasons]


# -- 5. whose melds a joker may be swapped out of ------------------------------------------------------------------


def test_the_swap_switch_is_a_house_rule_off_in_both_games():
    switch = SWITCHES["swap_own_melds"]
    assert switch.kind == "bool" and "swap_own_melds" in HOUSE_RULES and "swap_own_melds" in KEY_SWITCHES
    assert RuleSet.preset("kunken").swap_own_melds is False
    assert RuleSet.preset("ordered-rummy").swap_own_melds is False
    assert RuleSet.preset().to_dict()["swap_own_melds"] is False
    assert kunken(swap_own_melds="on").swap_own_melds is True
    assert RuleSet.from_dict(kunken(swap_own_melds=True).to_dict()).differences() == {"swap_own_melds": True}
    [line] = rule_lines(kunken(swap_own_melds=True), ["swap_own_melds"], str, render)
    assert (line.label, line.value, line.preset, line.differs) == (
        "A joker may be swapped out of one's own melds too",
        "yes",
        "no",
        True,
    )


def _own_swap_deal(rules: RuleSet, **swap):
    return score(
        rules,
        {"name": "Anna", "melds": ["K♠ K♣ JK", "2♥ 3♥ 4♥"], "hand": ""},
        {"name": "Boris", "melds": ["5♣ 6♣ 7♣"], "hand": "9♦"},
        swaps=[{"by": "Anna", "from": "Anna", "card": "K♦", **swap}],
        went_out="Anna",
    )


@pytest.mark.parametrize("meld", [{}, {"meld": 0}])
def test_a_joker_swapped_out_of_ones_own_meld_is_a_problem_by_default(meld):
    report = _own_swap_deal(KUNKEN, **meld)
    assert why_codes(report) == ["illegal_swap", "swap_own_meld"]
    assert report.problems[0].message == (
        "Anna: the swap of K♦ into Anna's meld 1 is not legal: a joker may be swapped out of the other players' "
        "melds only, not out of one's own: this table plays without the house rule “A joker may be swapped out of "
        "one's own melds too”."
    )
    assert (report.problems[0].seat, report.problems[0].field) == (0, "swaps")
    anna = by_name(report)["Anna"]
    assert anna.plus == 30 + 15 + 10  # the meld keeps its joker; the card counts at face value, as for any illegal swap


def test_a_joker_swapped_out_of_ones_own_meld_is_legal_with_the_house_rule():
    report = _own_swap_deal(kunken(swap_own_melds=True))
    assert report.valid, [p.message for p in report.problems]
    assert by_name(report)["Anna"].plus == 20 + 15 + 10  # K♠ K♣, the run, and the K♦ put in


def test_a_joker_swapped_out_of_another_players_meld_needs_no_house_rule():
    report = score(
        KUNKEN,
        {"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": "9♦"},
        {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": ""},
        swaps=[{"by": "Boris", "from": "Anna", "card": "K♦"}],
        went_out="Boris",
    )
    assert report.valid, [p.message for p in report.problems]
    assert (by_name(report)["Anna"].plus, by_name(report)["Boris"].plus) == (20, 25)


def test_the_swap_check_asks_whose_meld_it_is():
    assert check_swap("JK K♠ K♣", "K♦", KUNKEN).legal  # another player's meld: the usual question
    own = check_swap("JK K♠ K♣", "K♦", KUNKEN, own_meld=True)
    assert not own.legal and codes(own.reasons) == ["swap_own_meld"]
    assert check_swap("JK K♠ K♣", "K♦", kunken(swap_own_melds=True), own_meld=True).legal
    # a card that could not replace the joker anyway says why it could not
    assert codes(check_swap("JK K♠ K♣", "K♠", KUNKEN, own_meld=True).reasons) == ["swap_set_suit_taken"]


def test_the_desk_swap_answer_reads_whose_meld_it_is():
    data = {"meld": "JK K♠ K♣", "card": "K♦", "table": "", "has_layout": True}
    assert answer_swap(data, KUNKEN)["legal"] is True
    answer = answer_swap({**data, "own_meld": True}, KUNKEN)
    assert answer["legal"] is False and codes(answer["reasons"]) == ["swap_own_meld"]
