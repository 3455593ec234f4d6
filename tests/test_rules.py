"""Rule sets: the two games' presets, the house-rule switches, and what is refused."""

from __future__ import annotations

import json

import pytest
from conftest import kunken, ordered

from kunken_scorer import (
    RuleSet,
    RuleSetError,
    check_meld,
)
from kunken_scorer.core.messages import Text

# --- Rule sets -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, switches",
    [
        ("kunken", {"no_such_switch": True}),
        ("kunken", {"joker_limit": "three"}),
        ("kunken", {"short_ace": "sometimes"}),
        ("ordered-rummy", {"joker_limit": "most"}),
    ],
)
def test_unknown_switch_or_value_is_refused(game, switches):
    assert issubclass(RuleSetError, ValueError)
    with pytest.raises(RuleSetError):
        RuleSet.for_game(game, switches)


def test_unknown_game_is_refused():
    with pytest.raises(ValueError):
        RuleSet.for_game("canasta")


@pytest.mark.parametrize(
    "rules",
    [
        kunken(),
        ordered(),
        kunken(joker_limit="minority", no_adjacent_jokers=True, ace_points=5, wrap=True),
        ordered(short_ace="low", wild_card="7♠", joker_in_hand=50),
        kunken(joker_in_hand="double", express_multiplier=3, opening_points=40, hand_size=10),
    ],
)
def test_rules_round_trip(rules):
    again = RuleSet.from_dict(rules.to_dict())
    assert again == rules
    assert again.to_dict() == rules.to_dict()


def test_rule_presets_differ_where_rules_md_says():
    # Kunken: J Q K A = 10; ordered rummy: A = 15, faces 10, the rest face value
    assert check_meld("A♠ A♥ A♦", kunken()).points == 30
    assert check_meld("A♠ A♥ A♦", ordered()).points == 45
    assert check_meld("8♥ 9♥ 10♥", kunken()).points == 15
    assert check_meld("8♥ 9♥ 10♥", ordered()).points == 27


# -- interned rule sets ------------------------------------------------------------------------------


def test_equal_switches_give_the_same_rule_set_object_and_different_ones_do_not():
    a = RuleSet.for_game("kunken", {"joker_limit": "two", "wrap": True})
    b = RuleSet.for_game("kunken", {"wrap": True, "joker_limit": "two"})
    c = RuleSet.for_game("kunken", {"joker_limit": "one", "wrap": True})
    assert a is b and a == b and a != c


def test_a_game_that_is_not_text_is_an_unknown_game():
    with pytest.raises(RuleSetError, match="no such game"):
        RuleSet.from_dict({"game": ["kunken"]})


def test_a_yes_or_no_switch_is_refused_a_number_however_often_it_was_given_yes():
    """The rule sets kept by their switches told True from 1 apart only by luck: 1 after True was taken."""
    assert RuleSet.for_game("kunken", {"ace_low": True}).ace_low is True
    for value in (1, 1.0):
        with pytest.raises(RuleSetError):
            RuleSet.for_game("kunken", {"ace_low": value})


@pytest.mark.parametrize(
    "switches",
    [
        {"joker_in_hand": 10**5000},  # an int past 4,300 digits has no str()
        {"ace_low": 10**5000},
        {"joker_limit": "x" * 5000},
        {"joker_limit": -(10**60)},
    ],
)
def test_a_refused_switch_value_is_repeated_shortened_in_the_reasons_data_too(switches):
    """The reason's data is what an API or a log writes as JSON: what was sent comes back at most 40
    characters long, as in the message (it was kept whole, and a huge number could not be written)."""
    with pytest.raises(RuleSetError) as caught:
        RuleSet.for_game("kunken", switches)
    data = caught.value.reason.to_dict()
    written = json.dumps(data, ensure_ascii=False)
    assert len(written) < 600, written
    value = data["params"]["value"]
    assert len(value if isinstance(value, str) else str(value)) <= 40
    assert value in (caught.value.reason.message, "int") or str(value) in caught.value.reason.message


def test_a_short_sent_number_stays_a_number_in_the_reasons_data():
    with pytest.raises(RuleSetError) as caught:
        RuleSet.for_game("kunken", {"joker_limit": 7})
    assert caught.value.reason.to_dict()["params"]["value"] == 7


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "null"),
        (True, "true"),
        ({"a": 1}, '{"a": 1}'),
        (["K♠", 1], '["K♠", 1]'),
        (7, "7"),
        ("null", '"null"'),  # text is quoted: it reads apart from a JSON null
    ],
)
def test_a_refused_switch_value_is_repeated_as_it_was_sent_not_as_python_spells_it(value, shown):
    with pytest.raises(RuleSetError) as caught:
        RuleSet.for_game("kunken", {"joker_limit": value})
    message = caught.value.reason.message
    assert f"“Jokers allowed in one meld”: {shown} is not allowed" in message
    assert not any(word in message for word in ("None", "True", "'a'", "'K♠'"))


def test_a_switch_value_nested_too_deep_to_spell_is_named_by_its_type():
    nested: list = []
    for _ in range(5000):  # too deep for json.dumps and for repr alike
        nested = [nested]
    with pytest.raises(RuleSetError) as caught:
        RuleSet.for_game("kunken", {"joker_limit": nested})
    assert "“Jokers allowed in one meld”: list is not allowed" in caught.value.reason.message


@pytest.mark.parametrize("typed", ["double", "Double", " x2 ", "×2", "*2", "удвоить", "Удвоить", "вдвойне"])
def test_a_doubled_joker_in_hand_is_read_in_both_languages(typed):
    """The start form and the API read the same words for "double" (the core reads them, not a page)."""
    assert RuleSet.for_game("kunken", {"joker_in_hand": typed}).joker_in_hand == "double"


def test_a_refused_joker_in_hand_names_the_word_in_the_page_language():
    with pytest.raises(RuleSetError) as refused:
        RuleSet.for_game("kunken", {"joker_in_hand": "triple"})
    assert refused.value.reason.message.endswith("from 0 to 1000, or double.")
    russian = refused.value.reason.params["expected"].params["word"]
    assert isinstance(russian, Text) and str(russian) == "double"  # a text the page translates («удвоить»)
