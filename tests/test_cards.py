"""Card notation: parsing the ways a player types cards (Latin and Russian, runs by their ends),
the canonical form cards are written back in, and the errors that name the bad token."""

from __future__ import annotations

import copy
import pickle

import pytest
from conftest import cards
from hypothesis import given
from hypothesis import strategies as st

from kunken_scorer import (
    Card,
    CardError,
    KunkenError,
    RuleSet,
    check_meld,
    format_cards,
    parse_cards,
)
from kunken_scorer.core.cards import Rank, Suit

# --------------------------------------------------------------------------------------------
# Notation: canonical output and parse errors
# --------------------------------------------------------------------------------------------

CANONICAL = [
    ("10h", "10♥"),
    ("ks", "K♠"),
    ("qD", "Q♦"),
    ("a♣", "A♣"),
    ("2C", "2♣"),
    ("Тп", "A♠"),
    ("тт", "A♣"),
    ("Вч", "J♥"),
    ("Дб", "Q♦"),
    ("Кт", "K♣"),
    ("10п", "10♠"),
    ("JK", "JK"),
    ("jk", "JK"),
    ("Jo", "JK"),
    ("jo", "JK"),
    ("*", "JK"),
    ("Дж", "JK"),
    ("дж", "JK"),
    ("JK=K♦", "JK=K♦"),
    ("jk=kd", "JK=K♦"),
    ("Дж=Кб", "JK=K♦"),
    ("K♠", "K♠"),
    ("10♥", "10♥"),
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
    "11♥",
    "Zx",
    "K",
    "JK=",
    "JK=JK",
    "Ts",
    "1♥",
    "0♥",
    "5x",
    "♥",
    "K♠♠",
    "JK=K",
    "K♠=5♥",
    "Д",
    "10",
    "♥5",
    "h5",
    "JKK",
    "Tп",  # suit before rank, no suit, Latin T is no rank
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


# -- properties: what is written reads back ----------------------------------------------------------


@given(st.lists(cards, max_size=30))
def test_parse_of_format_gives_the_cards_back(hand):
    assert parse_cards(format_cards(hand)) == tuple(hand)


@given(st.lists(cards, max_size=10), st.sampled_from([", ", " ", ",", "\n", " ,\t"]))
def test_any_separator_and_russian_display_parse_the_same(hand, sep):
    text = sep.join(c.russian() for c in hand)
    assert parse_cards(text) == tuple(hand)


# -- runs by their ends ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, cards",
    [
        ("6♥…10♥", "6♥ 7♥ 8♥ 9♥ 10♥"),
        ("6ч..10ч", "6♥ 7♥ 8♥ 9♥ 10♥"),
        ("6♥ … 10♥ JK", "6♥ 7♥ 8♥ 9♥ 10♥ JK"),
        ("В♣…К♣", "J♣ Q♣ K♣"),
        ("A♥…3♥", "A♥ 2♥ 3♥"),
        ("Q♠…A♠", "Q♠ K♠ A♠"),
        ("10♦…7♦", "10♦ 9♦ 8♦ 7♦"),
    ],
)
def test_a_run_is_typed_by_its_ends(typed, cards):
    assert format_cards(parse_cards(typed)) == cards


@pytest.mark.parametrize(
    "typed, code",
    [
        ("6♥…", "range_open"),
        ("…10♥", "range_open"),
        ("6♥…10♠", "range_one_suit"),
        ("JK…5♥", "range_one_suit"),
        ("6♥…11♥", "no_such_rank"),
    ],
)
def test_a_bad_run_names_the_token(typed, code):
    with pytest.raises(CardError) as err:
        parse_cards(typed)
    assert err.value.code == code


# -- the memo of card texts keeps refusing a bad card -----------------------------------------------


def test_a_bad_card_is_refused_every_time_not_only_the_first():
    for _ in range(2):
        try:
            parse_cards("K♠ 11♥")
        except ValueError as err:
            assert "11♥" in str(err)
        else:
            raise AssertionError("11♥ was accepted")


KUNKEN = RuleSet.preset()


# -- the core's entry points check their input --------------------------------------------------


@pytest.mark.parametrize("value", [7, 3.5, b"K\xe2", {"K": 1}, [1, 2], [None]])
def test_a_non_text_card_argument_is_a_kunken_error(value):
    with pytest.raises(KunkenError) as err:
        parse_cards(value)
    assert err.value.reason.code in {"not_card_text", "missing_suit"}
    with pytest.raises(KunkenError):
        check_meld(value, KUNKEN)


def test_each_card_is_one_value_however_it_is_made():
    """Cards are frozen values: every way of making a card gives an equal card, with the same hash."""
    ten = Card.parse("10♥")
    assert Card(10, "♥") == ten and Card(Rank.TEN, Suit.HEARTS) == ten and Card.parse("10ч") == ten
    assert Card(10, "♥").rank is Rank.TEN and Card(10, "♥").suit is Suit.HEARTS  # plain values become enums
    assert copy.copy(ten) == ten and copy.deepcopy(ten) == ten and pickle.loads(pickle.dumps(ten)) == ten
    assert Card.joker(ten) == Card.parse("JK=10♥") and Card.joker(ten) != Card.joker()
    assert {ten: 1}[Card.parse("10h")] == 1 and ten != Card.parse("10♦")
    assert len({Card.parse(t) for t in ("10♥", "10h", "10ч", "JK", "*", "дж")}) == 2


def test_the_cards_that_play_as_jokers():
    kunken = RuleSet.preset()
    wild = RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"})
    assert all(kunken.is_joker(Card.parse(t)) for t in ("JK", "JK=7♠", "JK=A♦"))
    assert not kunken.is_joker(Card.parse("7♠"))
    assert wild.is_joker(Card.parse("7♠")) and not wild.is_joker(Card.parse("7♥"))
    assert len(kunken.joker_cards) == 53 and len(wild.joker_cards) == 54
