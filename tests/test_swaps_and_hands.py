"""Joker swaps in deal records, short forms of a hand, warnings, and the core's input checks (issue 7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from kunken_scorer import Deal, DealInputError, KunkenError, RuleSet, evaluate_deal
from kunken_scorer.cards import Card, Rank, Suit, format_cards, parse_cards
from kunken_scorer.melds import check_discard, check_meld, check_swap, check_vist

KUNKEN = RuleSet.preset()
ORDERED = RuleSet.preset("ordered-rummy")


def score(body: dict, rules: RuleSet = KUNKEN):
    return evaluate_deal(Deal.from_dict(body), rules)


def codes(reasons) -> list[str]:
    return [r.code for r in reasons]


def swap_deal(swaps, boris_melds=("5♥ JK 7♥",), boris_hand="", anna=("K♠ K♣ JK",)):
    return {"players": [{"name": "Anna", "melds": list(anna)},
                        {"name": "Boris", "melds": list(boris_melds), "hand": boris_hand}],
            "swaps": swaps}


K_DIAMONDS = {"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}


# -- swaps -------------------------------------------------------------------------------------

def test_the_rules_swap_example_scores_anna_20_and_boris_25():
    report = score(swap_deal([K_DIAMONDS]))
    assert report.valid, [p.message for p in report.problems]
    assert report.scores == {"Anna": 20, "Boris": 25}
    anna = report.details[0]
    assert format_cards(anna.final_melds[0].cards) == "K♠ K♣ K♦"
    assert [(s.legal, s.points, s.meld) for s in report.details[1].swaps] == [(True, 10, 0)]


def test_recorded_as_a_vist_the_joker_would_count_twice():
    as_vist = {"players": [{"name": "Anna", "melds": ["K♠ K♣ JK"]},
                           {"name": "Boris", "melds": ["5♥ JK 7♥"], "vists": [{"to": "Anna", "cards": "K♦"}]}]}
    assert score(as_vist).scores == {"Anna": 30, "Boris": 25}  # what the issue saw; the swap fixes it


def test_a_joker_kept_in_hand_counts_against_the_swapper():
    report = score(swap_deal([K_DIAMONDS], boris_melds=("2♣ 3♣ 4♣",), boris_hand="JK"))
    assert report.valid
    boris = report.players[1]
    assert (boris.plus, boris.minus) == (15 + 10, 10)
    assert report.scores["Anna"] == 20


def test_a_set_swap_takes_any_suit_the_set_lacks_and_meld_index_may_be_omitted():
    swap = {"by": "Boris", "from": "Anna", "card": "K♥"}
    report = score(swap_deal([swap]))
    assert report.valid and report.scores == {"Anna": 20, "Boris": 25}
    assert report.details[1].swaps[0].meld == 0


@pytest.mark.parametrize("swap, boris_melds, anna, code, why", [
    ({"card": "K♠"}, ("5♥ JK 7♥",), ("K♠ K♣ JK",), "illegal_swap", "swap_set_suit_taken"),
    ({"card": "Q♠"}, ("5♥ JK 7♥",), ("K♠ K♣ JK",), "illegal_swap", "swap_set_wrong_rank"),
    ({"card": "7♦"}, ("5♥ JK 7♥",), ("5♦ JK 7♦ 8♦",), "illegal_swap", "swap_wrong_card"),
    ({"card": "K♦"}, ("5♥ JK 7♥",), ("K♠ K♣ K♥",), "illegal_swap", "swap_no_joker"),
    ({"card": "K♦"}, (), ("K♠ K♣ JK",), "illegal_swap", "swap_no_layout"),
    ({"card": "K♦", "meld": 3}, ("5♥ JK 7♥",), ("K♠ K♣ JK",), "swap_no_meld", None),
    ({"card": "K♦", "meld": None}, ("5♥ JK 7♥",), ("2♠ 3♠ 4♠",), "swap_fits_nothing", None),
    ({"card": "K♦", "from": "Gosha"}, ("5♥ JK 7♥",), ("K♠ K♣ JK",), "unknown_player", None),
])
def test_each_wrong_swap_is_a_problem_with_a_sentence(swap, boris_melds, anna, code, why):
    body = swap_deal([{"by": "Boris", "from": "Anna", "meld": 0, **swap}], boris_melds=boris_melds, anna=anna)
    report = score(body)
    assert code in codes(report.problems)
    problem = next(p for p in report.problems if p.code == code)
    assert problem.message.startswith("Boris") and problem.message.endswith((".", "!"))
    if why:
        assert why in codes(problem.params["why"])
    # an illegal swap changes nothing: the owner keeps the joker's points
    assert report.scores["Anna"] == check_meld(anna[0], KUNKEN).points


def test_a_card_already_in_the_set_replaces_neither_of_its_jokers():
    body = swap_deal([{"by": "Boris", "from": "Anna", "meld": 0, "card": "5♥"}],
                     boris_melds=("9♣ 9♦ 9♠",), anna=("JK JK 5♥ 5♦",))
    report = score(body, RuleSet.for_game("kunken", {"joker_limit": "half"}))
    # 5♥ is already in the set: the card is not one the jokers may stand for
    assert codes(report.problems) == ["illegal_swap"]


def test_no_swap_into_a_meld_illegal_as_laid():
    # the run 5♥ JK JK 8♥ with joker limit "one" is illegal as laid: no swap into it
    rules = RuleSet.for_game("kunken", {"joker_limit": "one"})
    report = score(swap_deal([{"by": "Boris", "from": "Anna", "meld": 0, "card": "6♥"}],
                             boris_melds=("9♣ 9♦ 9♠",), anna=("5♥ JK JK 8♥",)), rules)
    swap = next(p for p in report.problems if p.code == "illegal_swap")
    assert "swap_illegal_meld" in codes(swap.params["why"])


def test_swaps_apply_in_recorded_order_before_vists():
    body = {"players": [
        {"name": "Anna", "melds": ["5♥ JK JK 8♥"]},
        {"name": "Boris", "melds": ["9♣ 9♦ 9♠"], "vists": [{"to": "Anna", "meld": 0, "cards": "9♥"}]},
        {"name": "Vera", "melds": ["2♠ 3♠ 4♠"], "hand": "JK JK"}],
        "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": "6♥"},
                  {"by": "Vera", "from": "Anna", "meld": 0, "card": "7♥"}]}
    report = score(body)
    assert report.valid, [p.message for p in report.problems]
    anna = report.details[0]
    assert format_cards(anna.final_melds[0].cards) == "5♥ 6♥ 7♥ 8♥ 9♥"
    # Anna keeps 5♥ and 8♥; Boris +6♥ +9♥ (vist) +9s; Vera +7♥ +run, and two jokers in hand
    assert report.scores == {"Anna": 10, "Boris": 10 + 15, "Vera": 5 + 15 - 20}


def test_the_swapped_joker_is_one_joker_in_the_deals_count():
    body = {"players": [
        {"name": "Anna", "melds": ["K♠ K♣ JK", "2♦ JK 4♦"]},
        {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": "JK"},
        {"name": "Vera", "melds": ["2♠ 3♠ JK"]}]}
    five = dict(body, swaps=[])
    assert "too_many_jokers" in codes(score(five).problems)  # five jokers recorded, no swap
    swapped = dict(body, swaps=[K_DIAMONDS])
    assert score(swapped).valid  # the joker in Boris's run came from Anna's set


def test_a_swap_card_counts_as_a_copy_on_the_table():
    body = swap_deal([K_DIAMONDS], boris_melds=("K♦ K♥ K♣",), boris_hand="", anna=("K♠ K♣ JK", "K♦ Q♦ J♦"))
    assert "too_many_copies" in codes(score(body).problems)


def test_deal_records_round_trip_swaps_and_short_hands():
    body = swap_deal([K_DIAMONDS, {"by": "Anna", "from": "Boris", "card": "6♥"}])
    body["players"][1]["hand"] = {"points": 35, "jokers": 1}
    body["players"][0]["hand"] = {"small": 1, "faces": 2}
    record = Deal.from_dict(body).to_dict()
    assert record["swaps"] == [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"},
                               {"by": "Anna", "from": "Boris", "meld": None, "card": "6♥"}]
    assert record["players"][1]["hand"] == {"points": 35, "jokers": 1}
    assert record["players"][0]["hand"] == {"small": 1, "faces": 2, "aces": 0, "jokers": 0}
    assert Deal.from_dict(record) == Deal.from_dict(body)
    assert "swaps" not in Deal.from_dict({"players": [{"name": "A"}]}).to_dict()


@pytest.mark.parametrize("swaps, field", [
    ("K♦", "swaps"), ([1], "swaps[0]"), ([{"by": "Boris", "from": "Anna", "card": "K♦ K♥"}], "swaps[0].card"),
    ([{"by": "Boris", "from": "Anna", "card": ""}], "swaps[0].card"),
    ([{"by": "Boris", "from": "Anna", "meld": -1, "card": "K♦"}], "swaps[0].meld"),
    ([{"by": "", "from": "Anna", "card": "K♦"}], "swaps[0].by"),
    ([{"by": "Boris", "card": "K♦"}], "swaps[0].from"),
    ([{"by": "Boris", "from": "Anna", "card": "K♦"}] * 41, "swaps"),
])
def test_a_malformed_swap_names_its_field(swaps, field):
    with pytest.raises(DealInputError) as err:
        Deal.from_dict(swap_deal(swaps))
    assert field in str(err.value)


# -- warnings -------------------------------------------------------------------------------

def test_the_both_copies_deal_is_valid_with_one_warning():
    body = {"players": [{"name": "Anna", "melds": ["9♣ JK J♣"]},
                        {"name": "Boris", "melds": ["10♣ 10♥ 10♠"]},
                        {"name": "Vera", "melds": ["10♣ 10♦ 10♠"]}]}
    report = score(body)
    assert report.valid
    assert codes(report.warnings) == ["joker_laid_early"]
    assert "10♣" in report.warnings[0].message and "Anna" in report.warnings[0].message
    assert report.scores["Anna"] == 5 + 5 + 10  # the joker still counts as the 10♣ it stands for
    # with the table given explicitly, the rule check enforces the rule
    assert not check_meld("9♣ JK J♣", KUNKEN, table=["10♣ 10♥ 10♠", "10♣ 10♦ 10♠"]).legal


def test_a_vist_joker_for_a_card_whose_copies_are_out_is_a_warning():
    body = {"players": [{"name": "Anna", "melds": ["4♥ 5♥ 6♥"], "vists": [{"to": "Boris", "cards": "JK"}]},
                        {"name": "Boris", "melds": ["8♠ 9♠ 10♠"]},
                        {"name": "Vera", "melds": ["J♠ J♥ J♦"], "hand": ""},
                        {"name": "Gosha", "melds": ["J♠ Q♠ K♠"]}]}
    report = score(body)
    assert report.valid, [p.message for p in report.problems]
    assert codes(report.warnings) == ["joker_laid_early"]


def test_a_clean_deal_has_no_warnings():
    assert score(swap_deal([K_DIAMONDS])).warnings == ()


# -- short forms of a hand ------------------------------------------------------------------

SWITCHES = st.fixed_dictionaries({
    "ace_points": st.sampled_from([5, 10]),
    "joker_in_hand": st.one_of(st.integers(0, 50), st.just("double")),
})
NATURALS = [Card(r, s) for r in Rank for s in Suit]


def _kind(card: Card) -> str:
    if card.rank == Rank.ACE:
        return "aces"
    return "faces" if card.rank >= Rank.JACK else "small"


@settings(max_examples=150, deadline=None)
@given(naturals=st.lists(st.sampled_from(NATURALS), max_size=14), jokers=st.integers(0, 3),
       switches=SWITCHES, express=st.booleans(), game=st.sampled_from(["kunken", "ordered-rummy"]),
       form=st.sampled_from(["counts", "points"]))
def test_short_hands_score_as_the_same_cards_typed(naturals, jokers, switches, express, game, form):
    if game == "ordered-rummy":
        switches = {"joker_in_hand": switches["joker_in_hand"]}
        form, express = "points", False
    rules = RuleSet.for_game(game, switches)
    typed = format_cards(naturals + [Card.joker()] * jokers)
    if form == "counts":
        short = {"small": 0, "faces": 0, "aces": 0, "jokers": jokers}
        for card in naturals:
            short[_kind(card)] += 1
    else:
        short = {"points": sum(rules.points(c) for c in naturals), "jokers": jokers}

    def deal(hand):
        return {"players": [{"name": "Anna", "melds": ["2♣ 3♣ 4♣"], "hand": ""},
                            {"name": "Boris", "melds": ["8♦ 9♦ 10♦"], "hand": hand}],
                "went_out": "Anna", "express": express}
    by_cards, in_short = score(deal(typed), rules), score(deal(short), rules)
    assert in_short.players == by_cards.players
    assert in_short.details[1].hand_points == by_cards.details[1].hand_points
    assert in_short.details[1].hand_jokers == by_cards.details[1].hand_jokers


@pytest.mark.parametrize("hand, field", [
    ({"small": -1}, "players[1].hand.small"),
    ({"faces": 1.5}, "players[1].hand.faces"),
    ({"aces": "2"}, "players[1].hand.aces"),
    ({"jokers": True}, "players[1].hand.jokers"),
    ({"kings": 1}, "players[1].hand.kings"),
    ({"points": 30, "small": 1}, "players[1].hand.small"),
    ({"points": -5}, "players[1].hand.points"),
    ({"points": 7.5}, "players[1].hand.points"),
    ({"aces": 9}, "players[1].hand.aces"),
    ({"small": 73}, "players[1].hand.small"),
])
def test_bad_counts_name_the_field(hand, field):
    body = {"players": [{"name": "Anna"}, {"name": "Boris", "hand": hand}]}
    with pytest.raises(DealInputError) as err:
        evaluate_deal(Deal.from_dict(body), KUNKEN)
    assert str(err.value).startswith(field)


@pytest.mark.parametrize("game, hand, field", [
    ("ordered-rummy", {"small": 2}, "players[1].hand.small"),
    ("kunken", {"points": 33}, "players[1].hand.points"),  # Kunken points come in fives
    ("kunken", {"points": 100000}, "players[1].hand.points"),
])
def test_counts_impossible_for_the_game_name_the_field(game, hand, field):
    body = {"players": [{"name": "Anna"}, {"name": "Boris", "hand": hand}]}
    with pytest.raises(DealInputError) as err:
        evaluate_deal(Deal.from_dict(body), RuleSet.preset(game))
    assert str(err.value).startswith(field)


def test_going_out_with_a_short_hand_is_a_problem_and_an_empty_one_is_not():
    body = {"players": [{"name": "Anna", "melds": ["2♣ 3♣ 4♣"], "hand": {"points": 0, "jokers": 0}},
                        {"name": "Boris", "hand": {"points": 30}}], "went_out": "Anna"}
    assert score(body).valid
    body["players"][0]["hand"] = {"jokers": 1}
    assert codes(score(body).problems) == ["went_out_with_hand"]


def test_short_hand_jokers_count_towards_the_decks_jokers():
    body = {"players": [{"name": "Anna", "melds": ["2♣ JK 4♣"], "hand": ""},
                        {"name": "Boris", "hand": {"points": 30, "jokers": 4}}]}
    assert codes(score(body).problems) == ["too_many_jokers"]


# -- the core's entry points check their input --------------------------------------------------

@pytest.mark.parametrize("value", [7, 3.5, b"K\xe2", {"K": 1}, [1, 2], [None]])
def test_a_non_text_card_argument_is_a_kunken_error(value):
    with pytest.raises(KunkenError) as err:
        parse_cards(value)
    assert err.value.reason.code in {"not_card_text", "missing_suit"}
    with pytest.raises(KunkenError):
        check_meld(value, KUNKEN)


def test_an_empty_vist_is_an_error_not_legal():
    with pytest.raises(KunkenError) as err:
        check_vist("2♥ 3♥ 4♥", "", KUNKEN)
    assert "cards" in str(err.value)


@pytest.mark.parametrize("card", ["", "Q♦ K♦"])
def test_a_discard_of_zero_or_two_cards_is_an_error(card):
    with pytest.raises(KunkenError) as err:
        check_discard(card, ["9♦ 10♦ J♦"], ORDERED)
    assert "exactly one card" in str(err.value)


def test_the_swap_check_knows_the_layout_precondition():
    assert check_swap("JK K♠ K♣", "K♦", KUNKEN).legal
    no_layout = check_swap("JK K♠ K♣", "K♦", KUNKEN, has_layout=False)
    assert not no_layout.legal and codes(no_layout.reasons) == ["swap_no_layout"]
    # a wrong card is still explained as such, whatever the layout
    assert codes(check_swap("JK K♠ K♣", "K♠", KUNKEN, has_layout=False).reasons) == ["swap_set_suit_taken"]
