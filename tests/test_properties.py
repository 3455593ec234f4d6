"""Hypothesis properties of the rules core."""

import itertools

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kunken_scorer import (Card, Deal, KunkenError, Rank, RuleSet, Suit, check_meld, evaluate_deal,
                           format_cards, parse_cards)

naturals = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))
jokers = st.one_of(st.just(Card.joker()), naturals.map(Card.joker))
cards = st.one_of(naturals, jokers)
switches = st.fixed_dictionaries({}, optional={
    "joker_limit": st.sampled_from(["half", "two", "one", "minority"]),
    "ace_low": st.booleans(), "wrap": st.booleans(), "no_adjacent_jokers": st.booleans()})
rule_sets = st.builds(RuleSet.for_game, st.sampled_from(["kunken", "ordered-rummy"]), switches)


@given(st.lists(cards, max_size=30))
def test_parse_of_format_gives_the_cards_back(hand):
    assert parse_cards(format_cards(hand)) == tuple(hand)


@given(st.lists(cards, max_size=10), st.sampled_from([", ", " ", ",", "\n", " ,\t"]))
def test_any_separator_and_russian_display_parse_the_same(hand, sep):
    text = sep.join(c.russian() for c in hand)
    assert parse_cards(text) == tuple(hand)


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


players = ["Anna", "Boris", "Vera", "Gleb"]


@st.composite
def deals(draw):
    """Deals whose cards come from a real two-deck shoe (so no card is recorded too often)."""
    shoe = [Card(r, s) for r in Rank for s in Suit] * 2 + [Card.joker()] * 4
    order = draw(st.permutations(range(len(shoe))))
    pos = 0
    record = []
    count = draw(st.integers(2, 4))
    for name in players[:count]:
        melds = []
        for _ in range(draw(st.integers(0, 2))):
            size = draw(st.integers(3, 4))
            melds.append(format_cards(shoe[i] for i in order[pos:pos + size]))
            pos += size
        hand_size = draw(st.integers(0, 6))
        hand = format_cards(shoe[i] for i in order[pos:pos + hand_size])
        pos += hand_size
        record.append({"name": name, "melds": melds, "vists": [], "hand": hand})
    went_out = draw(st.sampled_from([None] + [p["name"] for p in record]))
    if went_out:
        next(p for p in record if p["name"] == went_out)["hand"] = ""
    return {"players": record, "went_out": went_out, "express": False}


@settings(max_examples=100)
@given(deals(), st.integers(2, 4))
def test_express_multiplies_exactly_the_went_out_plus_and_the_others_minus(record, multiplier):
    assume(record["went_out"])
    rules = RuleSet.for_game("kunken", {"express_multiplier": multiplier})
    plain = evaluate_deal(Deal.from_dict(record), rules)
    express = evaluate_deal(Deal.from_dict({**record, "express": True}), rules)
    for a, b in zip(plain.players, express.players):
        if a.name == record["went_out"]:
            assert (b.plus, b.minus) == (a.plus * multiplier, a.minus)
        else:
            assert (b.plus, b.minus) == (a.plus, a.minus * multiplier)
        assert b.score == b.plus - b.minus


@settings(max_examples=100)
@given(deals(), naturals, st.sampled_from([10, 0, "double", 25]), st.booleans(),
       st.sampled_from(["kunken", "ordered-rummy"]))
def test_adding_a_natural_card_to_a_hand_never_raises_that_score(record, card, joker_in_hand, express, game):
    rules = RuleSet.for_game(game, {"joker_in_hand": joker_in_hand})
    record = {**record, "express": express and game == "kunken"}
    victim = next((p for p in record["players"] if p["name"] != record["went_out"]), None)
    assume(victim is not None)
    before = evaluate_deal(Deal.from_dict(record), rules).scores[victim["name"]]
    victim["hand"] = (victim["hand"] + " " + str(card)).strip()
    after = evaluate_deal(Deal.from_dict(record), rules).scores[victim["name"]]
    assert after <= before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=12) |
    st.sampled_from(["K♠ K♥ JK", "5♥ JK 7♥", "Тп Тч", "11♥", "JK=K♦ K♠ K♥", "Anna", "Boris"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "melds", "vists", "hand", "to", "meld", "cards", "players",
                         "went_out", "express", "redeal"]), inner, max_size=5),
    max_leaves=25)


@settings(max_examples=300)
@given(json_values, rule_sets)
def test_validating_any_input_raises_only_the_engines_own_input_errors(data, rules):
    try:
        deal = Deal.from_dict(data)
    except KunkenError:
        return
    report = evaluate_deal(deal, rules)
    assert report.to_dict()["valid"] == (not report.problems)


@settings(max_examples=150)
@given(deals(), rule_sets)
def test_generated_deals_from_a_real_shoe_validate_and_score(record, rules):
    report = evaluate_deal(Deal.from_dict(record), rules)
    codes = {p.code for p in report.problems}
    assert "too_many_copies" not in codes and "too_many_jokers" not in codes
    for p in report.players:
        assert p.score == p.plus - p.minus
