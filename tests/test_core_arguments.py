"""The core's public functions called from Python with an argument of the wrong kind raise the project's own
error, ``KunkenError``, whose reason names the argument, never a ``TypeError`` or an ``AttributeError`` from
deep inside (issue 35). The API and the pages read their fields before they ask the core, so these are the
errors a program using the core sees."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kunken_scorer import (
    Deal,
    KunkenError,
    RuleSet,
    check_discard,
    check_meld,
    check_opening,
    check_swap,
    check_vist,
    dealer,
    evaluate_deal,
    format_cards,
    parse_cards,
    running_totals,
    session_status,
    totals,
)
from kunken_scorer.core.disputes import ANSWERS
from kunken_scorer.core.reading import check_short_hands, hand_entries
from kunken_scorer.core.rules import read_rules
from kunken_scorer.core.session import Target

KUNKEN = RuleSet.preset()


class Odd:
    """A value of no kind the core knows (its name is the same in every test process)."""

    def __repr__(self) -> str:
        return "Odd()"


ODD = Odd()
DEAL = Deal.from_dict({"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, {"name": "Boris", "hand": {"small": 2}}]})
DESK = {
    "meld": {"cards": "5♥ JK 7♥", "table": ""},
    "swap": {"meld": "JK K♠ K♣", "card": "K♦", "table": "", "has_layout": True},
    "opening": {"melds": "A♠ A♥ A♦\n6♥ 7♥ 8♥ 9♥", "bank_card": "7♥", "table": "", "has_layout": False},
    "discard": {"card": "Q♦", "melds": "9♦ 10♦ J♦"},
    "vist": {"meld": "2♥ 3♥ 4♥", "cards": "5♥", "table": ""},
}

#: function -> its arguments, right: each test puts a wrong value in place of one of them
CALLS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "check_meld": (check_meld, {"cards": "5♥ JK 7♥", "rules": KUNKEN, "table": ["6♥ 6♠ 6♦"]}),
    "check_vist": (check_vist, {"meld": "2♥ 3♥ 4♥", "cards": "5♥", "rules": KUNKEN, "table": ["6♥ 6♠ 6♦"]}),
    "check_swap": (
        check_swap,
        {"meld": "JK K♠ K♣", "card": "K♦", "rules": KUNKEN, "table": ["6♥ 6♠ 6♦"], "has_layout": True},
    ),
    "check_opening": (
        check_opening,
        {
            "melds": ["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"],
            "bank_card": "7♥",
            "rules": KUNKEN,
            "has_layout": False,
            "table": ["2♣ 3♣ 4♣"],
        },
    ),
    "check_discard": (check_discard, {"card": "Q♦", "melds": ["9♦ 10♦ J♦"], "rules": KUNKEN}),
    "evaluate_deal": (evaluate_deal, {"deal": DEAL, "rules": KUNKEN}),
    "check_short_hands": (check_short_hands, {"deal": DEAL, "rules": KUNKEN, "recorded_anyway": False}),
    "hand_entries": (hand_entries, {"rules": KUNKEN}),
    "read_rules": (read_rules, {"data": {"game": "kunken"}}),
    "totals": (totals, {"players": ["Anna", "Boris"], "deal_scores": [{"Anna": 35, "Boris": -5}]}),
    "running_totals": (running_totals, {"players": ["Anna", "Boris"], "deal_scores": [{"Anna": 35, "Boris": -5}]}),
    "dealer": (dealer, {"players": ["Anna", "Boris"], "deals_played": 3}),
    "session_status": (
        session_status,
        {
            "players": ["Anna", "Boris"],
            "deal_scores": [{"Anna": 35, "Boris": -5}],
            "target": Target("penalty", 100),
            "redeals": 1,
        },
    ),
    "format_cards": (format_cards, {"cards": parse_cards("K♠ 10♥")}),
    "parse_cards": (parse_cards, {"cards": "K♠ 10♥"}),
    **{f"answer_{name}": (answer, {"data": DESK[name], "rules": KUNKEN}) for name, answer in ANSWERS.items()},
}

#: (function, argument, a wrong value, the field the reason names; None: the argument's own name)
WRONG = [
    *[(f, "rules", value, None) for f in CALLS if "rules" in CALLS[f][1] for value in (None, "kunken", {"x": 1}, 5)],
    *[
        (f, "table", value, None)
        for f in ("check_meld", "check_vist", "check_swap", "check_opening")
        for value in (5, "6♥ 6♠ 6♦", {"6♥ 6♠ 6♦": 1}, b"6H", ODD)
    ],
    *[(f, "table", [5], "table[0]") for f in ("check_meld", "check_vist", "check_swap", "check_opening")],
    *[(f, "table", ["6♥ 11♠"], "table[0]") for f in ("check_meld", "check_vist", "check_swap", "check_opening")],
    *[
        (f, "melds", value, None)
        for f in ("check_opening", "check_discard")
        for value in (None, 5, "A♠ A♥ A♦", {"A♠ A♥ A♦": 1}, ODD)
    ],
    ("check_opening", "melds", ["A♠ A♥ A♦", None, 7], "melds[2]"),
    ("check_discard", "melds", [["9♦", 10, "J♦"]], "melds[0]"),
    *[
        (f, arg, value, None)
        for f, arg in [
            ("check_meld", "cards"),
            ("check_vist", "meld"),
            ("check_vist", "cards"),
            ("check_swap", "meld"),
            ("check_swap", "card"),
            ("check_opening", "bank_card"),
            ("check_discard", "card"),
        ]
        for value in (5, 1.5, {"K♠": 1}, ODD)
    ],
    *[(f, "has_layout", value, None) for f in ("check_swap", "check_opening") for value in (None, "yes", 1)],
    *[(f, "deal", value, None) for f in ("evaluate_deal", "check_short_hands") for value in (None, {"players": []}, 5)],
    ("check_short_hands", "recorded_anyway", "no", None),
    *[(f, "data", value, "request") for f in ["read_rules"] for value in (None, "kunken", 5)],
    *[
        (f, "players", value, None)
        for f in ("totals", "running_totals", "dealer", "session_status")
        for value in (None, "Anna", 5, [1, 2], {"Anna": 1})
    ],
    *[
        (f, "deal_scores", value, None)
        for f in ("totals", "running_totals", "session_status")
        for value in (None, 5, "Anna", {"Anna": 5})
    ],
    *[
        (f, "deal_scores", value, "deal_scores[0]")
        for f in ("totals", "running_totals", "session_status")
        for value in ([5], [None], [{"Anna": "35"}], [{"Anna": None}], [{"Anna": 1.5}])
    ],
    *[("dealer", "deals_played", value, None) for value in (None, "3", -1, True, 1.5)],
    *[("session_status", "redeals", value, None) for value in (None, "1", -1)],
    *[("session_status", "target", value, "Target") for value in (5, "penalty", [100])],
    *[("format_cards", "cards", value, "Cards") for value in (None, 5)],
    *[("parse_cards", "cards", value, "Cards") for value in (5, 1.5, {"K♠": 1}, [5])],
    *[(f"answer_{name}", "data", value, "data") for name in ANSWERS for value in (None, "5♥", 5, ["5♥"])],
    *[(f"answer_{name}", "table", ["6♥ 6♠ 6♦"], "table") for name in ("meld", "swap", "opening", "vist")],
    *[("answer_discard", "melds", value, "melds") for value in (5, ["9♦ 10♦ J♦"])],
]


def call_with(name: str, argument: str, value: Any) -> Any:
    function, arguments = CALLS[name]
    if name.startswith("answer_") and argument not in ("data", "rules"):  # a field of the question's data
        return function({**arguments["data"], argument: value}, arguments["rules"])
    return function(**{**arguments, argument: value})


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_call_answers_with_its_right_arguments(name):
    function, arguments = CALLS[name]
    function(**arguments)


@pytest.mark.parametrize(("name", "argument", "value", "named"), WRONG, ids=repr)
def test_a_wrong_argument_raises_the_projects_error_naming_it(name, argument, value, named):
    with pytest.raises(KunkenError) as caught:
        call_with(name, argument, value)
    message = str(caught.value)
    assert message.startswith(named or argument), message


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_argument_of_every_call_is_tried_with_a_wrong_value(name):
    """The table above leaves no argument out (and ``rules=None`` is among them for every function with rules)."""
    tried = {argument for function, argument, _, _ in WRONG if function == name}
    arguments = set(CALLS[name][1])
    if name.startswith("answer_"):
        arguments = {"data", "rules"}
    assert arguments <= tried, arguments - tried
    if "rules" in arguments:
        assert any(f == name and a == "rules" and v is None for f, a, v, _ in WRONG)


#: any value at all, as a program might pass by mistake
anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(sorted(CALLS)), st.data())
def test_any_value_for_any_argument_answers_or_raises_the_projects_error(name, data):
    arguments = CALLS[name][1]
    names = sorted(arguments) if not name.startswith("answer_") else sorted({"data", "rules", *arguments["data"]})
    argument = data.draw(st.sampled_from(names))
    value = data.draw(anything)
    try:
        call_with(name, argument, value)
    except KunkenError:
        pass
