"""Regression tests from an adversarial review of the rules core against RULES.md."""

import random
from collections import Counter

import pytest

from kunken_scorer.cards import Card, Rank, Suit, format_cards
from kunken_scorer.deal import Deal, evaluate_deal
from kunken_scorer.melds import check_meld, check_parsed
from kunken_scorer.rules import RuleSet

ORDER = list(Rank)


def score(players, rules, **extra):
    report = evaluate_deal(Deal.from_dict({"players": players, **extra}), rules)
    return report, {p.name: (p.plus, p.minus, p.score) for p in report.players}


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


# -- vists: the record does not say in which order they were made -------------------------

def test_vists_recorded_out_of_order_are_all_legal():
    players = [{"name": "A", "melds": ["5♥ 6♥ 7♥"]},
               {"name": "B", "vists": [{"to": "A", "meld": 0, "cards": "9♥"}]},
               {"name": "C", "vists": [{"to": "A", "cards": "8♥"}]}]
    report, scores = score(players, RuleSet.preset())
    assert report.valid, [p.message for p in report.problems]
    assert scores == {"A": (15, 0, 15), "B": (5, 0, 5), "C": (5, 0, 5)}
    assert [v.meld for d in report.details for v in d.vists] == [0, 0]
    assert format_cards(report.details[0].final_melds[0].cards) == "5♥ 6♥ 7♥ 8♥ 9♥"


def test_an_illegal_vist_does_not_make_a_later_legal_vist_illegal():
    players = [{"name": "A", "melds": ["5♥ 6♥ 7♥"]},
               {"name": "B", "vists": [{"to": "A", "meld": 0, "cards": "9♠"},
                                       {"to": "A", "meld": 0, "cards": "8♥"}]}]
    report, scores = score(players, RuleSet.preset())
    assert [p.code for p in report.problems] == ["illegal_vist"]
    assert report.problems[0].params["cards"] == "9♠"
    assert [v.legal for v in report.details[1].vists] == [False, True]
    assert scores["B"] == (10, 0, 10)  # problems are listed, scoring goes on


def test_a_vist_that_never_fits_is_still_reported_once():
    players = [{"name": "A", "melds": ["5♥ 6♥ 7♥", "K♠ K♥ K♦"]},
               {"name": "B", "vists": [{"to": "A", "cards": "2♣"}, {"to": "A", "cards": "K♣"}]}]
    report, scores = score(players, RuleSet.preset())
    assert [p.code for p in report.problems] == ["vist_fits_nothing"]
    assert [v.meld for v in report.details[1].vists] == [None, 1]
    assert scores["B"] == (15, 0, 15)


def test_several_vists_to_one_meld_keep_the_joker_identity():
    players = [{"name": "A", "melds": ["5♥ JK 7♥"]},
               {"name": "B", "vists": [{"to": "A", "cards": "8♥"}, {"to": "A", "cards": "4♥"},
                                       {"to": "A", "cards": "JK"}]}]
    report, scores = score(players, RuleSet.preset())
    assert report.valid
    assert format_cards(report.details[0].final_melds[0].cards) == "4♥ 5♥ JK=6♥ 7♥ 8♥ JK=9♥"
    assert scores["B"] == (15, 0, 15)


# -- brute force: check_parsed against a tiny independent oracle ---------------------------

def _windows(n, rules):
    if rules.wrap:
        return [[ORDER[(s + i) % 13] for i in range(n)] for s in range(13)]
    low = 1 if rules.ace_low else 2
    return [[Rank.ACE if v == 1 else Rank(v) for v in range(s, s + n)] for s in range(low, 16 - n)]


def _jokers_ok(slots, window, suit, rules, laid, n):
    return (len(slots) <= rules.joker_limit_for(n)
            and all(laid[Card(window[k], suit)] < 2 for k in slots)
            and not (rules.no_adjacent_jokers and any(b - a == 1 for a, b in zip(slots, slots[1:]))))


def _run_oracle(meld, rules, laid):
    n = len(meld)
    fixed = [c.natural_card for c in meld if not c.is_joker or c.pin]
    suit = fixed[0].suit
    if any(c.suit != suit for c in fixed) or len(set(fixed)) != len(fixed):
        return False
    rank = [None if c.is_joker and not c.pin else c.natural_card.rank for c in meld]
    windows = _windows(n, rules)
    jokers = [i for i, c in enumerate(meld) if c.is_joker]
    written = [seq for w in windows for seq in (w, w[::-1])
               if all(r is None or r == seq[i] for i, r in enumerate(rank))]
    if written:  # a joker takes the position where it is written
        return any(_jokers_ok(jokers, seq, suit, rules, laid, n) for seq in written)
    naturals = {c.rank for c in meld if not c.is_joker}
    pinned = {c.pin.rank for c in meld if c.is_joker and c.pin}
    return any(_jokers_ok([k for k, r in enumerate(w) if r not in naturals or r in pinned], w, suit, rules, laid, n)
               for w in windows if naturals | pinned <= set(w))


def _set_oracle(meld, rules, laid):
    naturals = [c for c in meld if not c.is_joker]
    rank = naturals[0].rank
    if len(meld) > 4 or any(c.rank != rank for c in naturals) or len(set(naturals)) != len(naturals):
        return False
    free = [s for s in Suit if Card(rank, s) not in naturals and laid[Card(rank, s)] < 2]
    return len(meld) - len(naturals) <= min(rules.joker_limit_for(len(meld)), len(free))


VARIANTS = [{}, {"ace_low": False}, {"wrap": True}, {"joker_limit": "two"}, {"joker_limit": "one"},
            {"joker_limit": "minority"}, {"no_adjacent_jokers": True},
            {"wrap": True, "no_adjacent_jokers": True, "joker_limit": "two"}]


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


def test_ordered_rummy_flags_additions_before_a_first_run():
    """RULES.md: a player's first meld must be a run; additions to melds come after it."""
    from kunken_scorer import Deal, RuleSet, evaluate_deal
    body = {"players": [
        {"name": "A", "melds": ["5♥ 6♥ 7♥"], "hand": ""},
        {"name": "B", "melds": [], "vists": [{"to": "A", "meld": 0, "cards": "8♥"}], "hand": "2♣"}],
        "went_out": "A"}
    ordered = evaluate_deal(Deal.from_dict(body), RuleSet.preset("ordered-rummy"))
    assert [p.code for p in ordered.problems] == ["additions_without_run"]
    assert ordered.scores["B"] == 8 - 2  # still scored: the table decides
    kunken = evaluate_deal(Deal.from_dict(body), RuleSet.preset("kunken"))
    assert kunken.valid
