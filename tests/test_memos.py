"""The memos (joker-free meld verdicts per rule set, card texts, interned rule sets) never change an answer."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kunken_scorer import RuleSet, check_meld, parse_cards
from kunken_scorer.cards import _parse_text
from kunken_scorer.melds import check_parsed, laid_counts


def test_each_rule_set_keeps_its_own_verdicts():
    tens, fives = RuleSet.for_game("kunken", {"ace_points": 10}), RuleSet.for_game("kunken", {"ace_points": 5})
    assert check_meld("A♠ A♥ A♦", tens).points == 30
    assert check_meld("A♠ A♥ A♦", fives).points == 15
    assert check_meld("A♠ A♥ A♦", tens).points == 30


def test_equal_switches_give_the_same_rule_set_object_and_different_ones_do_not():
    a = RuleSet.for_game("kunken", {"joker_limit": "two", "wrap": True})
    b = RuleSet.for_game("kunken", {"wrap": True, "joker_limit": "two"})
    c = RuleSet.for_game("kunken", {"joker_limit": "one", "wrap": True})
    assert a is b and a == b and a != c


def test_a_bad_card_is_refused_every_time_not_only_the_first():
    for _ in range(2):
        try:
            parse_cards("K♠ 11♥")
        except ValueError as err:
            assert "11♥" in str(err)
        else:
            raise AssertionError("11♥ was accepted")


words = st.lists(st.sampled_from(["K♠", "K♥", "K♦", "5♥", "6♥", "7♥", "JK", "Тп", "10ч", "A♣"]),
                 min_size=1, max_size=6)


@settings(max_examples=200)
@given(words, st.sampled_from(["kunken", "ordered-rummy"]), st.booleans())
def test_memoised_and_fresh_verdicts_agree(tokens, game, wrap):
    rules = RuleSet.for_game(game, {"wrap": wrap})
    text = " ".join(tokens)
    first = check_meld(text, rules)
    rules.natural_meld_checks.clear()
    _parse_text.cache_clear()
    fresh = check_meld(text, rules)
    again = check_meld(text, rules)
    assert first == fresh == again
    cards = parse_cards(text)
    assert check_parsed(cards, rules, laid_counts([cards], rules)) == fresh
