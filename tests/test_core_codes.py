"""Every reason code in ``MESSAGES`` is produced by some call of the core (issue 35: "every rule has a test").

``CALLS`` is a curated list, one call or more per code: the codes each call produces (raised in a
``KunkenError``, or found in what it answers: a meld's reasons, a deal's problems and warnings, a reader's
list of reasons, a switch's value in words, and the reasons those quote) must together be exactly
``MESSAGES`` less ``OUTSIDE_THE_CORE``, the codes the service, store and import layers raise themselves.
A new code needs a call here, or its place in that list, which a test checks against the sources.

The rule "a swap may not leave the meld illegal" (``swap_breaks_meld``) is a guard no deal reaches: the tests
at the end show why, and its call forges a meld check no checker makes.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import kunken, ordered
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kunken_scorer import (
    Card,
    Deal,
    KunkenError,
    Rank,
    Reason,
    RuleSet,
    Suit,
    check_discard,
    check_meld,
    check_opening,
    check_swap,
    check_vist,
    evaluate_deal,
    parse_cards,
)
from kunken_scorer.core.checker import check_parsed
from kunken_scorer.core.draft import read_part
from kunken_scorer.core.melds import swap_into
from kunken_scorer.core.messages import MESSAGES
from kunken_scorer.core.notation import read_card_lines, read_hand, read_vist_lines
from kunken_scorer.core.reading import Swap, check_short_hands, read_note
from kunken_scorer.core.rules import SWITCHES
from kunken_scorer.core.session import Target
from kunken_scorer.core.table import _apply_swap, lenient

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kunken_scorer"

#: Codes raised only above the core, each with where (a test below greps that each is raised there, and never
#: in the core).
OUTSIDE_THE_CORE = {
    # service/reading.py (check_record, read_session_players: a deal or a session for a stored session)
    "other_game": "service/reading.py",
    "other_rules": "service/reading.py",
    "deal_players": "service/reading.py",
    "session_players": "service/reading.py",
    "player_number": "service/reading.py",  # a name of a list named as a page names it ("player 2")
    # service/board.py: a stored deal the core cannot read any more
    "stored_deal_unreadable": "service/board.py",
    # web/api.py and web/seats.py: a draft whose parts are not all in
    "draft_waiting": "service/seats.py",
    # exports.py: reading an export's JSON, and importing it
    "json_invalid": "service/exports.py",
    "json_number": "service/exports.py",
    "json_bom": "service/exports.py",
    "json_long_number": "service/exports.py",
    "json_too_deep": "service/exports.py",
    "json_not_unicode": "service/exports.py",
    "import_not_document": "service/exports.py",
    "import_format": "service/exports.py",
    "import_field": "service/exports.py",
    "import_deal": "service/exports.py",
    "import_deal_twice": "service/exports.py",
    "import_deal_problems": "service/exports.py",
}

K = RuleSet.preset()
NAMES = ["Anna", "Boris"]


def deal(*players: dict, **fields: Any) -> Deal:
    return Deal.from_dict({"players": list(players), **fields})


def scored(rules: RuleSet = K, **body: Any) -> Callable[[], Any]:
    """A call scoring the deal ``body`` as it comes in (its short hands checked first)."""

    def call() -> Any:
        record = Deal.from_dict(body)
        check_short_hands(record, rules)
        return evaluate_deal(record, rules)

    return call


ANNA_BORIS = [{"name": "Anna", "melds": ["5♥ JK 7♥", "A♠ A♥ A♦"]}, {"name": "Boris", "melds": ["2♣ 3♣ 4♣"]}]


def _forged_swap() -> Any:
    """``swap_breaks_meld``: no checker makes a legal meld that a swap breaks, so the meld check is forged — it
    claims 5♥ JK 8♥ is legal with the joker as 6♥ — to show the guard in ``table._apply_swap`` refuses the swap."""
    real = check_meld("5♥ JK 7♥", K)
    forged = dataclasses.replace(real, written=parse_cards("5♥ JK 8♥"))
    swap = Swap("Boris", "Anna", Card.parse("6♥"), 0)
    table = {"Anna": [forged], "Boris": [check_meld("2♣ 3♣ 4♣", K)]}
    return _apply_swap(swap, table, {name: list(melds) for name, melds in table.items()}, {"Boris"}, K, Counter())


#: (a code it produces, the call); a call may produce more codes than the one it is listed for
CALLS: list[tuple[str, Callable[[], Any]]] = [
    # card input
    ("empty_token", lambda: Card.parse("  ")),
    ("no_such_rank", lambda: parse_cards("11♥")),
    ("no_such_suit", lambda: parse_cards("Kx")),
    ("missing_suit", lambda: parse_cards("K")),
    ("bad_pin", lambda: parse_cards("JK=JK")),
    ("not_card_text", lambda: parse_cards(5)),
    ("range_open", lambda: parse_cards("6♥…")),
    ("range_one_suit", lambda: parse_cards("6♥…10♠")),
    ("too_many_cards_typed", lambda: parse_cards("K♠ " * 109)),
    # melds
    ("no_cards", lambda: check_meld("", K)),
    ("too_few_cards", lambda: check_meld("K♠ K♥", K)),
    ("set_too_many_cards", lambda: check_meld("K♠ K♥ K♦ K♣ JK", K)),
    ("run_too_many_cards", lambda: check_meld("2♥…K♥ A♥ JK", K)),
    ("mixed_cards", lambda: check_meld("K♠ Q♥ 2♦", K)),
    ("set_duplicate_card", lambda: check_meld("K♦ K♦ K♥", K)),
    ("run_duplicate_card", lambda: check_meld("5♥ 5♥ 6♥ 7♥", K)),
    ("run_not_consecutive", lambda: check_meld("5♥ 7♥ 9♥", K)),  # and count_cards, no_joker
    ("count_jokers", lambda: check_meld("5♥ JK 9♥ 10♥", K)),
    ("ace_high_and_low", lambda: check_meld("K♥ A♥ 2♥", K)),
    ("ace_low_off", lambda: check_meld("A♥ 2♥ 3♥", kunken(ace_low=False))),
    ("joker_limit", lambda: check_meld("5♥ JK JK", K)),
    ("adjacent_jokers", lambda: check_meld("5♥ JK JK 8♥", kunken(no_adjacent_jokers=True))),
    ("joker_copies_played", lambda: check_meld("6♥ JK 8♥", K, table=["6♥ 7♥ 8♥", "7♥ 7♠ 7♦"])),
    ("set_joker_no_suit", lambda: check_meld("K♠ K♣ JK", K, table=["K♥ K♥ Q♥", "K♦ K♦ Q♦"])),
    ("pin_mismatch", lambda: check_meld("5♥ JK=9♥ 7♥", K)),
    ("vist_fills_joker", lambda: check_vist("5♥ JK 7♥", "6♥", K)),
    ("pin_wrong_rank", lambda: check_meld("K♠ K♥ JK=Q♦", K)),
    ("pin_wrong_suit", lambda: check_meld("5♥ 6♥ JK=7♠", K)),
    # the rules desk's questions
    ("swap_no_joker", lambda: check_swap("K♠ K♥ K♦", "K♣", K)),
    ("swap_not_natural", lambda: check_swap("JK K♠ K♣", "JK", K)),
    ("swap_wrong_card", lambda: check_swap("5♥ JK 7♥", "8♥", K)),
    ("swap_set_suit_taken", lambda: check_swap("JK K♠ K♣", "K♠", K)),
    ("swap_set_wrong_rank", lambda: check_swap("JK K♠ K♣", "Q♦", K)),
    ("swap_no_layout", lambda: check_swap("JK K♠ K♣", "K♦", K, has_layout=False)),
    ("swap_own_meld", scored(players=ANNA_BORIS, swaps=[{"by": "Anna", "from": "Anna", "meld": 0, "card": "6♥"}])),
    ("swap_illegal_meld", lambda: check_swap("JK JK K♠", "K♦", K)),
    ("opening_illegal_meld", lambda: check_opening(["A♠ A♠ A♦"], "A♦", K)),
    ("opening_bank_card_missing", lambda: check_opening(["A♠ A♥ A♦"], "K♣", K)),
    ("opening_bank_card_alone", lambda: check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥", "K♣"], "K♣", K)),
    ("opening_too_few_points", lambda: check_opening(["6♥ 7♥ 8♥"], "7♥", K)),
    ("opening_first_meld_run", lambda: check_opening(["7♣ 7♦ 7♥"], "7♦", ordered())),
    ("discard_illegal_meld", lambda: check_discard("4♥", ["K♠ K♥ K♣", "2♥ 3♥"], ordered())),  # and discard_no_fit
    ("vist_illegal_meld", lambda: check_vist("2♥ 3♥", "4♥", K)),
    # a recorded deal's problems and warnings
    ("illegal_meld", scored(players=[{"name": "Anna", "melds": ["K♠ K♠ K♣"]}, {"name": "Boris"}])),
    (
        "illegal_vist",
        scored(players=[ANNA_BORIS[0], {"name": "Boris", "vists": [{"to": "Anna", "meld": 1, "cards": "9♣"}]}]),
    ),
    ("vist_fits_nothing", scored(players=[ANNA_BORIS[0], {"name": "Boris", "vists": [{"to": "Anna", "cards": "9♣"}]}])),
    (
        "vist_no_meld",
        scored(players=[ANNA_BORIS[0], {"name": "Boris", "vists": [{"to": "Anna", "meld": 5, "cards": "8♥"}]}]),
    ),
    ("unknown_player", scored(players=[ANNA_BORIS[0], {"name": "Boris", "vists": [{"to": "Zoe", "cards": "8♥"}]}])),
    ("illegal_swap", scored(players=ANNA_BORIS, swaps=[{"by": "Boris", "from": "Anna", "meld": 0, "card": "8♥"}])),
    ("swap_fits_nothing", scored(players=ANNA_BORIS, swaps=[{"by": "Anna", "from": "Boris", "card": "5♣"}])),
    ("swap_no_meld", scored(players=ANNA_BORIS, swaps=[{"by": "Boris", "from": "Anna", "meld": 7, "card": "6♥"}])),
    ("swap_breaks_meld", _forged_swap),
    (
        "joker_laid_early",
        scored(
            players=[
                {"name": "Anna", "melds": ["9♣ JK J♣"]},
                {"name": "Boris", "melds": ["10♣ 10♥ 10♠"]},
                {"name": "Vera", "melds": ["10♣ 10♦ 10♠"]},
            ]
        ),
    ),
    (
        "went_out_with_hand",
        scored(players=[{"name": "Anna", "hand": {"jokers": 1}}, {"name": "Boris"}], went_out="Anna"),
    ),
    ("went_out_empty", scored(players=[{"name": "Anna", "hand": ""}, {"name": "Boris"}], went_out="Anna")),
    ("went_out_with_cards", scored(players=[{"name": "Anna", "hand": "K♣"}, {"name": "Boris"}], went_out="Anna")),
    ("unknown_went_out", scored(players=[{"name": "Anna"}, {"name": "Boris"}], went_out="Zoe")),
    (
        "hand_not_entered",
        scored(players=[{"name": "Anna", "melds": ["2♥ 3♥ 4♥"], "hand": ""}, {"name": "Boris"}], went_out="Anna"),
    ),
    ("express_without_going_out", scored(players=[{"name": "Anna"}, {"name": "Boris"}], express=True)),
    (
        "express_not_in_game",
        scored(
            ordered(),
            players=[{"name": "Anna", "melds": ["2♥ 3♥ 4♥"]}, {"name": "Boris"}],
            went_out="Anna",
            express=True,
        ),
    ),
    (
        "additions_without_run",
        scored(ordered(), players=[ANNA_BORIS[1], {"name": "Anna", "vists": [{"to": "Boris", "cards": "5♣"}]}]),
    ),
    ("no_run", scored(ordered(), players=[{"name": "Anna", "melds": ["7♣ 7♦ 7♥"]}, {"name": "Boris"}])),
    ("player_count", scored(players=[{"name": "Anna"}])),
    ("duplicate_player", scored(players=[{"name": "Anna"}, {"name": "Anna"}])),
    ("too_many_copies", scored(players=[{"name": "Anna", "melds": ["K♠ K♥ K♦"]}, {"name": "Boris", "hand": "K♠ K♠"}])),
    ("too_many_jokers", scored(players=[{"name": "Anna", "hand": "JK JK JK"}, {"name": "Boris", "hand": "JK JK"}])),
    ("joker_not_in_deck", scored(kunken(wild_card="7♠"), players=[{"name": "Anna", "hand": "JK"}, {"name": "Boris"}])),
    # a short hand
    ("hand_unknown_key", scored(players=[{"name": "Anna", "hand": {"kings": 1}}, {"name": "Boris"}])),
    ("hand_count_too_big", scored(players=[{"name": "Anna", "hand": {"small": 73}}, {"name": "Boris"}])),
    (
        "hand_count_wild",
        scored(kunken(wild_card="7♠"), players=[{"name": "Anna", "hand": {"small": 71}}, {"name": "Boris"}]),
    ),
    ("hand_small_not_alike", scored(ordered(), players=[{"name": "Anna", "hand": {"small": 1}}, {"name": "Boris"}])),
    ("hand_points_impossible", scored(players=[{"name": "Anna", "hand": {"points": 3}}, {"name": "Boris"}])),
    ("hand_points_no_cards", scored(ordered(), players=[{"name": "Anna", "hand": {"points": 1}}, {"name": "Boris"}])),
    (
        "hand_rank_too_many",
        scored(players=[{"name": "Anna", "hand": {"ranks": "9 9 9 9 9 9 9 9 9"}}, {"name": "Boris", "hand": "K♣"}]),
    ),
    # rule sets and the words of their switches
    ("unknown_game", lambda: RuleSet.preset("poker")),
    ("unknown_switch", lambda: RuleSet.for_game("kunken", {"bogus": 1})),
    ("bad_switch_value", lambda: RuleSet.for_game("kunken", {"joker_limit": "bogus"})),  # and expected_one_of
    ("bad_switch_value_sent", lambda: RuleSet.for_game("kunken", {"ace_points": 500})),  # and expected_range
    ("expected_range_or", lambda: RuleSet.for_game("kunken", {"joker_in_hand": "triple"})),
    ("expected_at_most", lambda: RuleSet.for_game("kunken", {"min_players": 5, "max_players": 3})),
    ("count_cards", lambda: SWITCHES["hand_size"].describe(13)),
    ("count_points", lambda: SWITCHES["ace_points"].describe(10)),
    ("count_minus_points", lambda: SWITCHES["joker_in_hand"].describe(10)),
    ("times", lambda: SWITCHES["express_multiplier"].describe(2)),
    ("words", lambda: SWITCHES["joker_limit"].describe("two")),
    ("number", lambda: SWITCHES["decks"].describe(2)),
    # reading a deal record, a part, a note, a target
    ("bad_field", lambda: Deal.from_dict(5)),
    ("field_error", lambda: Deal.from_dict({"players": [{"name": "Anna", "hand": "11♥"}]})),
    ("missing_field", lambda: Deal.from_dict({})),
    ("empty_meld", lambda: Deal.from_dict({"players": [{"name": "Anna", "melds": ["", "5♥ 6♥ 7♥"]}]})),
    ("bad_name", lambda: Deal.from_dict({"players": [{"name": "Anna"}, {"name": " "}]})),
    ("name_characters", lambda: Deal.from_dict({"players": [{"name": "B\u202e"}]})),
    ("note_control", lambda: read_note({"note": "a bell\x07"})),
    ("expected_text_at_most", lambda: read_note({"note": "x" * 1001})),
    ("too_many_items", lambda: Deal.from_dict({"players": [{"name": f"P{i}"} for i in range(13)]})),
    ("deal_too_many_cards", lambda: Deal.from_dict({"players": [{"name": "Anna", "hand": {"small": 500}}]})),
    ("bad_target", lambda: Target.from_dict("twelve")),
    ("unknown_field", lambda: read_part({"melds": [], "notes": "x"})),
    # the lines typed on the deal form
    ("line_error", lambda: read_card_lines("A♠ A♥ A♦\n11♥", 40)),
    ("too_many_lines", lambda: read_card_lines("A♠ A♥ A♦\n" * 3, 2)),
    ("vist_meld_from_one", lambda: read_vist_lines("Boris 41: 5♥", NAMES)),
    ("vist_no_cards", lambda: read_vist_lines("Boris:", NAMES)),
    ("vist_syntax", lambda: read_vist_lines("Boris 5♥", NAMES)),
    ("vist_unknown_player", lambda: read_vist_lines("Zoe: 5♥", NAMES)),
    ("swap_one_card", lambda: read_vist_lines("Boris: 5♥ 6♥", NAMES, one_card=True)),
    ("hand_points_whole", lambda: read_hand("abc", K, entry="points")),
    ("hand_points_jokers", lambda: read_hand("35 abc", K)),
    ("hand_by_rank", lambda: read_hand("9 K♠", K, entry="ranks")),
]


def reasons_in(value: Any, depth: int = 0) -> Iterator[Reason]:
    """Every reason in ``value``: itself, the reasons it quotes, the reasons in an answer's fields."""
    if depth > 8:
        return
    if isinstance(value, KunkenError):
        value = value.reason
    if isinstance(value, Reason):
        yield value
        value = list(value.params.values())
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from reasons_in(item, depth + 1)
    elif isinstance(value, dict):
        yield from reasons_in(list(value.values()), depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield from reasons_in([getattr(value, f.name) for f in dataclasses.fields(value)], depth + 1)


def produced(call: Callable[[], Any]) -> set[str]:
    """The codes a call produces: in the error it raises, or in what it answers."""
    try:
        answer = call()
    except KunkenError as err:
        answer = err
    return {reason.code for reason in reasons_in(answer)}


@pytest.mark.parametrize(("code", "call"), CALLS, ids=[code for code, _ in CALLS])
def test_each_call_produces_the_code_it_is_listed_for(code, call):
    assert code in produced(call)


def test_every_code_is_produced_by_the_core_or_raised_above_it():
    found = set().union(*(produced(call) for _, call in CALLS))
    core_codes = set(MESSAGES) - set(OUTSIDE_THE_CORE)
    assert not found - set(MESSAGES), f"codes with no message: {sorted(found - set(MESSAGES))}"
    assert found == core_codes, f"codes no call here produces: {sorted(core_codes - found)}"
    assert set(OUTSIDE_THE_CORE) <= set(MESSAGES), sorted(set(OUTSIDE_THE_CORE) - set(MESSAGES))


def _sources(root: Path) -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in root.rglob("*.py")}


@pytest.mark.parametrize("code", sorted(OUTSIDE_THE_CORE))
def test_a_code_left_to_the_layers_above_is_raised_there_and_never_in_the_core(code):
    """Grep: the code, quoted, is in the file the list names and in no module of the core but ``messages``."""
    quoted = re.compile(rf"[\"']{code}[\"']")
    where = PACKAGE / OUTSIDE_THE_CORE[code]
    assert quoted.search(where.read_text(encoding="utf-8")), f"{code} is not raised in {where}"
    in_core = [
        p.name for p, text in _sources(PACKAGE / "core").items() if p.name != "messages.py" and quoted.search(text)
    ]
    assert not in_core, f"{code} is raised in the core too: {in_core}"


def test_a_code_the_calls_produce_is_written_in_the_core():
    """The other way round: every code the calls here produce is one a module of the core writes."""
    core = "\n".join(text for p, text in _sources(PACKAGE / "core").items() if p.name != "messages.py")
    missing = [code for code, _ in CALLS if not re.search(rf"[\"']{code}[\"']|unit=\"{code}\"", core)]
    assert not missing, missing


# -- "a swap may not leave the meld illegal": a guard no deal reaches --------------------------------------------

#: the house rules that could make a meld illegal after a swap if anything could (where the jokers lie, the ace)
SWAP_RULES = [
    kunken(),
    kunken(no_adjacent_jokers=True),
    kunken(no_adjacent_jokers=True, joker_limit="two"),
    kunken(wrap=True, no_adjacent_jokers=True),
    kunken(ace_low=False, no_adjacent_jokers=True),
    kunken(joker_limit="minority"),
    ordered(wild_card="7♠"),
]
HEARTS = [Card(rank, Suit.HEARTS) for rank in Rank]


def _after_swap(meld: tuple[Card, ...], natural: Card, rules: RuleSet) -> Any:
    """What ``table._apply_swap`` checks: the meld as laid (order-dependent reasons set aside), the swap, and
    the meld with the natural card in the joker's place; None when the swap itself is refused."""
    base, _ = lenient(check_parsed(meld, rules, Counter()))
    verdict = swap_into(base, natural, rules)
    if not base.legal or not verdict.legal:
        return None
    written = list(meld)
    written[verdict.joker] = natural
    after, _ = lenient(check_parsed(tuple(written), rules, Counter()))
    return after


@pytest.mark.parametrize("rules", SWAP_RULES, ids=lambda r: str(r.differences()))
def test_no_legal_swap_leaves_a_run_of_up_to_four_cards_illegal(rules):
    """Every run of 3 or 4 hearts, jokers anywhere, written in any order: a card a legal swap puts in the joker's
    place leaves a legal meld. (Up to five cards and more rule sets were tried the same way while fixing issue 35.)
    Why: the card goes where the joker stood and is the card it stood for, so the same placement of the cards
    holds, with one joker fewer: no limit, no gap and no pair of adjacent jokers can appear."""
    joker = rules.wild or Card.joker()
    swaps = 0
    for size in (3, 4):
        for count in range(1, size // 2 + 1):
            for naturals in itertools.permutations(HEARTS, size - count):
                for places in itertools.combinations(range(size), count):
                    rest = iter(naturals)
                    meld = tuple(joker if i in places else next(rest) for i in range(size))
                    for natural in HEARTS:
                        after = _after_swap(meld, natural, rules)
                        if after is not None:
                            swaps += 1
                            assert after.legal, (meld, natural, after.reasons)
    assert swaps > 100


@st.composite
def legal_melds_with_jokers(draw: Any) -> tuple[RuleSet, tuple[Card, ...]]:
    """A run or a set, some of its cards replaced by jokers (free, pinned or the wild card), maybe reordered."""
    rules = draw(st.sampled_from(SWAP_RULES))
    if draw(st.booleans()):  # a run
        size = draw(st.integers(3, 13))
        start = draw(st.integers(0, 13 - size))
        suit = draw(st.sampled_from(list(Suit)))
        cards = [Card(rank, suit) for rank in list(Rank)[start : start + size]]
    else:
        rank = draw(st.sampled_from(list(Rank)))
        cards = [Card(rank, suit) for suit in draw(st.permutations(list(Suit)))[: draw(st.integers(3, 4))]]
    places = draw(st.sets(st.integers(0, len(cards) - 1), min_size=1, max_size=len(cards) // 2))
    for i in places:
        cards[i] = draw(st.sampled_from([rules.wild or Card.joker(), Card.joker(cards[i])]))
    order = draw(st.sampled_from(["as written", "downwards", "shuffled"]))
    if order == "downwards":
        cards.reverse()
    elif order == "shuffled":
        cards = draw(st.permutations(cards))
    return rules, tuple(cards)


def _offered(meld: tuple[Card, ...], rules: RuleSet) -> list[Card]:
    """Natural cards to offer for a joker of ``meld``: those its jokers stand for (a set's other open suits too),
    then the cards of its suit and of its rank."""
    check = check_parsed(meld, rules, Counter())
    stands_for = [card.pin for card in check.assigned if card.is_joker and card.pin] + list(check.joker_options)
    some = next(card for card in meld if card.natural_card is not None).natural_card
    kin = [Card(rank, some.suit) for rank in Rank] + [Card(some.rank, suit) for suit in Suit]
    return [card for card in stands_for + kin if card is not None and card not in rules.joker_cards]


@settings(max_examples=300, deadline=None)
@given(legal_melds_with_jokers(), st.data())
def test_no_legal_swap_leaves_any_meld_illegal(drawn, data):
    """Runs of 3 to 13 cards and sets, jokers free, pinned or wild, written up, down or in no order."""
    rules, meld = drawn
    offered = _offered(meld, rules)
    natural = data.draw(st.sampled_from(offered[:2] if data.draw(st.booleans()) else offered))
    after = _after_swap(meld, natural, rules)
    assume(after is not None)
    assert after.legal, (meld, natural, after.reasons)


@settings(max_examples=200, deadline=None)
@given(legal_melds_with_jokers(), st.data())
def test_no_recorded_swap_is_refused_for_breaking_its_meld(drawn, data):
    """The same through a recorded deal, as ``evaluate_deal`` applies a swap."""
    rules, meld = drawn
    natural = data.draw(st.sampled_from(_offered(meld, rules)))
    record = Deal.from_dict(
        {
            "players": [
                {"name": "Anna", "melds": [" ".join(map(str, meld))]},
                {"name": "Boris", "melds": ["2♣ 3♣ 4♣" if natural.suit != Suit.CLUBS else "2♦ 3♦ 4♦"]},
            ],
            "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": str(natural)}],
        }
    )
    report = evaluate_deal(record, rules)
    assert "swap_breaks_meld" not in {r.code for r in reasons_in(list(report.problems))}
