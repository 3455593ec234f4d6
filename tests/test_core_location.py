"""Where a reason belongs: every input error read from a deal or a part, and every problem of a deal that
concerns one player's field or one of the deal's own, carries its place (``Reason.seat``, the player's
index in the deal's players, and ``Reason.field``, the field's key), so a form can put it beside that
field without reading it back out of the path in ``params["field"]`` or the player's name."""

from __future__ import annotations

import re

import pytest
from conftest import kunken, naturals, ordered
from hypothesis import given, settings
from hypothesis import strategies as st

from kunken_scorer import Card, Deal, DealInputError, KunkenError, Reason, RuleSet, evaluate_deal, format_cards
from kunken_scorer.core.deal import PROBLEM_FIELD
from kunken_scorer.core.draft import check_draft, read_part
from kunken_scorer.core.messages import Located
from kunken_scorer.core.reading import HAND_COUNTS, check_short_hands, clean_name

KUNKEN = RuleSet.preset()


def input_error(body, rules=None) -> Reason:
    """The reason a deal as entered is refused with (``check_short_hands`` too, given ``rules``)."""
    with pytest.raises(DealInputError) as caught:
        deal = Deal.from_dict(body)
        if rules is not None:
            check_short_hands(deal, rules)
    return caught.value.reason


def where(reason: Reason) -> tuple[int | None, str | None]:
    return reason.seat, reason.field


# -- the reason itself -------------------------------------------------------------------------------


def test_the_place_is_not_part_of_a_reasons_equality():
    """Reasons are compared by code and parameters, as before: a located reason equals the same one unplaced."""
    plain = Reason("no_run", {"player": "Boris"})
    located = plain.at(1, "melds")
    assert located == plain and where(located) == (1, "melds") and where(plain) == (None, None)
    assert [located] == [plain] and located in (plain,) and plain.at(0, "vists") == located
    assert repr(plain) == "Reason(code='no_run', params={'player': 'Boris'})"
    assert repr(located).endswith(", seat=1, field='melds')")
    assert located.message == plain.message and located.to_dict() == plain.to_dict()


def test_locating_keeps_what_the_reason_already_says_of_its_place():
    """The field a hand's reader names (a count) stays when the player's part adds its seat and ``hand``."""
    reason = Reason("hand_count_too_big", {"field": "hand.small", "limit": 72}, field="small")
    assert where(reason.at(2, "hand")) == (2, "small")
    assert where(reason.at(2, "hand").at(0, "melds")) == (2, "small")
    assert reason.at() is reason


def test_a_located_error_is_the_same_kind_of_error():
    with pytest.raises(DealInputError) as caught:
        with Located(1, "vists"):
            raise DealInputError(Reason("missing_field", {"field": "players[1].vists[0].to"}))
    assert type(caught.value) is DealInputError and where(caught.value.reason) == (1, "vists")
    assert str(caught.value) == "players[1].vists[0].to is missing."
    with pytest.raises(ZeroDivisionError):  # anything else goes through as it is
        with Located(1, "vists"):
            raise ZeroDivisionError


# -- input errors ------------------------------------------------------------------------------------


def test_an_input_error_in_the_second_players_vists_is_located_there():
    reason = input_error({"players": [{"name": "Anna"}, {"name": "Boris", "vists": [{"to": "Anna", "cards": "5♥ 6"}]}]})
    assert reason.params["field"] == "players[1].vists[0].cards"  # the path the API's message shows, as before
    assert where(reason) == (1, "vists")


@pytest.mark.parametrize(
    ("player", "path", "place"),
    [
        ({"name": "B", "melds": ["5♥ 6♥ 7♥", "K♠ 11♦"]}, "players[1].melds[1]", (1, "melds")),
        ({"name": "B", "melds": "5♥ 6♥ 7♥\nK♠ 11♦"}, "players[1].melds[1]", (1, "melds")),
        ({"name": "B", "melds": 5}, "players[1].melds", (1, "melds")),
        ({"name": "B", "melds": ["", "5♥ 6♥ 7♥"]}, "players[1].melds[0]", (1, "melds")),
        ({"name": "B", "melds": ["5♥ 6♥ 7♥", " "]}, "players[1].melds[1]", (1, "melds")),
        ({"name": "B", "vists": [{"to": "A", "meld": -1, "cards": "5♥"}]}, "players[1].vists[0].meld", (1, "vists")),
        ({"name": "B", "vists": [{"to": " ", "cards": "5♥"}]}, "players[1].vists[0].to", (1, "vists")),
        ({"name": "B", "vists": "5♥"}, "players[1].vists", (1, "vists")),
        ({"name": "B", "hand": "11♥"}, "players[1].hand", (1, "hand")),
        ({"name": "B", "hand": 7}, "players[1].hand", (1, "hand")),
        ({"name": "B", "hand": {"small": -1}}, "players[1].hand.small", (1, "small")),
        ({"name": "B", "hand": {"faces": 1.5}}, "players[1].hand.faces", (1, "faces")),
        ({"name": "B", "hand": {"aces": 10**6}}, "players[1].hand.aces", (1, "aces")),
        ({"name": "B", "hand": {"points": 5, "jokers": True}}, "players[1].hand.jokers", (1, "jokers")),
        ({"name": "B", "hand": {"points": "5"}}, "players[1].hand.points", (1, "hand")),
        ({"name": "B", "hand": {"pounds": 5}}, "players[1].hand.pounds", (1, "hand")),
        ({"name": "B" * 41}, "players[1].name", (1, "name")),
        ({"name": "B\u202e"}, "players[1].name", (1, "name")),
        ("Boris", "players[1]", (1, None)),
    ],
)
def test_every_input_error_of_a_players_part_is_located_at_its_seat_and_field(player, path, place):
    reason = input_error({"players": [{"name": "A"}, player]})
    assert reason.params["field"] == path
    assert where(reason) == place


def test_in_a_redeal_a_name_alone_stands_for_the_record_and_is_located_at_the_name():
    reason = input_error({"players": ["Anna", " "], "redeal": True})
    assert reason.params["field"] == "players[1]" and where(reason) == (1, "name")


@pytest.mark.parametrize(
    ("hand", "rules", "code", "place"),
    [
        ({"small": 73}, KUNKEN, "hand_count_too_big", (1, "small")),
        ({"faces": 25}, KUNKEN, "hand_count_too_big", (1, "faces")),
        ({"aces": 9}, KUNKEN, "hand_count_too_big", (1, "aces")),
        ({"jokers": 5}, KUNKEN, "hand_count_too_big", (1, "jokers")),
        ({"small": 1}, ordered(), "hand_small_not_alike", (1, "small")),
        ({"points": 3}, KUNKEN, "hand_points_impossible", (1, "hand")),
        ({"points": 1}, ordered(), "hand_points_no_cards", (1, "hand")),
    ],
)
def test_a_hand_count_no_decks_hold_is_located_at_its_count(hand, rules, code, place):
    """``check_short_hands``: a count is entered in a field of its own (``small``, …); the points in the hand's."""
    reason = input_error({"players": [{"name": "A"}, {"name": "B", "hand": hand}]}, rules)
    assert reason.code == code and reason.params["field"].startswith("players[1].hand.")
    assert where(reason) == place


@pytest.mark.parametrize(
    ("deal", "path", "place"),
    [
        ({"went_out": 5}, "went_out", (None, "went_out")),
        ({"went_out": "x" * 41}, "went_out", (None, "went_out")),
        ({"express": "yes"}, "express", (None, "express")),
        ({"redeal": 1}, "redeal", (None, "redeal")),
        ({"swaps": "K♦"}, "swaps", (None, "swaps")),
        ({"swaps": [{"by": "B", "from": "A", "card": "K♦ K♥"}]}, "swaps[0].card", (1, "swaps")),
        ({"swaps": [{"by": "A", "from": "B", "meld": "1", "card": "K♦"}]}, "swaps[0].meld", (0, "swaps")),
        ({"swaps": [{"by": "Zoe", "from": "A", "card": "11♦"}]}, "swaps[0].card", (None, "swaps")),
        ({"swaps": [{"by": "", "from": "A", "card": "K♦"}]}, "swaps[0].by", (None, "swaps")),
        ({"players": "A, B"}, "players", (None, None)),
    ],
)
def test_an_input_error_of_the_deals_own_fields_is_located_at_the_field(deal, path, place):
    """Who went out, express, redeal: the deal's fields (no seat). A swap is the swapper's, when they play."""
    reason = input_error({"players": [{"name": "A"}, {"name": "B"}], **deal})
    assert reason.params["field"] == path
    assert where(reason) == place


def test_a_part_read_on_its_own_is_located_at_its_field_and_the_seat_given():
    for seat in (None, 2):
        with pytest.raises(DealInputError) as caught:
            read_part({"melds": ["5♥ 6♥ 7♥"], "vists": [{"to": "Anna", "cards": "5♥ 6"}]}, seat=seat)
        assert caught.value.reason.params["field"] == "part.vists[0].cards"
        assert where(caught.value.reason) == (seat, "vists")
    with pytest.raises(DealInputError) as caught:
        read_part({"hand": {"small": 1}}, rules=ordered(), seat=1)
    assert where(caught.value.reason) == (1, "small")
    with pytest.raises(DealInputError) as caught:
        read_part({"swaps": [{"from": "Anna", "card": "JK"}, {"from": "Anna", "card": ""}]}, seat=0)
    assert caught.value.reason.params["field"] == "part.swaps[1].card"
    assert where(caught.value.reason) == (0, "swaps")
    with pytest.raises(DealInputError) as caught:
        read_part({"melds": [], "notes": "?"}, seat=3)
    assert where(caught.value.reason) == (3, None)  # no such field: the part's, not one of its fields


# -- a deal's problems -------------------------------------------------------------------------------

ANNA_BORIS = [
    {"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": "5♠"},
    {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": "9♦"},
]


def deal_of(*changes: dict, went_out=None, express=False, swaps=(), players=ANNA_BORIS) -> dict:
    """Anna and Boris's deal, each player's record updated by the change of that seat."""
    record = [{**player, **change} for player, change in zip(players, changes + ({},) * len(players), strict=False)]
    return {"players": record, "went_out": went_out, "express": express, "swaps": list(swaps)}


def swap(by="Boris", owner="Anna", card="K♦", meld=0) -> dict:
    return {"by": by, "from": owner, "meld": meld, "card": card}


#: (a deal, its rules, a problem it has, where that problem belongs): every code of ``PROBLEM_FIELD`` at least once
PROBLEMS = [
    (deal_of({}, {"melds": ["2♣ 3♣"]}), KUNKEN, "illegal_meld", (1, "melds")),
    (deal_of({"melds": ["2♣ 3♣ 4♣"]}, {"melds": ["7♣ 7♦ 7♥"]}), ordered(), "no_run", (1, "melds")),
    (deal_of({"vists": [{"to": "Boris", "meld": 0, "cards": "9♥"}]}), KUNKEN, "illegal_vist", (0, "vists")),
    (deal_of({"vists": [{"to": "Boris", "cards": "9♠"}]}), KUNKEN, "vist_fits_nothing", (0, "vists")),
    (deal_of({}, {"vists": [{"to": "Anna", "meld": 3, "cards": "9♠"}]}), KUNKEN, "vist_no_meld", (1, "vists")),
    (deal_of({}, {"vists": [{"to": "Zoe", "cards": "9♠"}]}), KUNKEN, "unknown_player", (1, "vists")),
    (deal_of(swaps=[swap(owner="Zoe")]), KUNKEN, "unknown_player", (1, "swaps")),
    (deal_of(swaps=[swap(by="Zoe")]), KUNKEN, "unknown_player", (None, "swaps")),  # nobody of that name
    (deal_of({}, {"hand": "5♦"}, went_out="Boris"), KUNKEN, "went_out_with_cards", (1, "hand")),
    (deal_of({}, {"hand": {"points": 5}}, went_out="Boris"), KUNKEN, "went_out_with_hand", (1, "hand")),
    (deal_of(swaps=[swap(card="K♠")]), KUNKEN, "illegal_swap", (1, "swaps")),
    (deal_of({"melds": ["Q♠ Q♣ Q♥"]}, swaps=[swap(card="5♣", meld=None)]), KUNKEN, "swap_fits_nothing", (1, "swaps")),
    (deal_of(swaps=[swap(meld=3)]), KUNKEN, "swap_no_meld", (1, "swaps")),
    (deal_of(went_out="Zoe"), KUNKEN, "unknown_went_out", (None, "went_out")),
    (deal_of(express=True), KUNKEN, "express_without_going_out", (None, "express")),
    (deal_of({"hand": ""}, went_out="Anna", express=True), ordered(), "express_not_in_game", (None, "express")),
    (deal_of({}, {"hand": ""}), KUNKEN, "hand_not_entered", (1, "hand")),  # nobody went out: Boris holds cards
    (deal_of({"hand": ""}, {"hand": None}, went_out="Anna"), KUNKEN, "hand_not_entered", (1, "hand")),
]


def test_the_cases_raise_every_code_of_problem_field():
    assert {code for _, _, code, _ in PROBLEMS} == set(PROBLEM_FIELD)


@pytest.mark.parametrize(("body", "rules", "code", "place"), PROBLEMS)
def test_every_problem_of_a_players_field_or_the_deals_is_located(body, rules, code, place):
    """Where ``PROBLEM_FIELD`` and the player's name put a problem, its own place says the same: the seat of
    the player it names, and that field (a swap naming a player nobody plays is the swapper's swaps)."""
    report = evaluate_deal(Deal.from_dict(body), rules)
    found = [p for p in report.problems if p.code == code]
    assert found, [p.code for p in report.problems]
    problem = found[0]
    assert where(problem) == place
    if place[0] is not None:
        assert report.players[place[0]].name == problem.params["player"]
    assert problem.field == ("swaps" if code == "unknown_player" and place[1] == "swaps" else PROBLEM_FIELD[code])


def test_the_second_players_illegal_meld_is_located_at_their_melds():
    report = evaluate_deal(Deal.from_dict(deal_of({}, {"melds": ["2♥ 3♥ 4♥", "K♦ K♦ K♥"]})), KUNKEN)
    assert [(p.code, p.params["meld"], where(p)) for p in report.problems] == [("illegal_meld", 2, (1, "melds"))]


def test_who_went_out_unknown_is_the_deals_went_out():
    (problem,) = evaluate_deal(Deal.from_dict(deal_of(went_out="Zoe")), KUNKEN).problems
    assert problem.code == "unknown_went_out" and problem.seat is None and problem.field == "went_out"


def test_the_problems_and_warnings_beyond_the_table_of_fields_are_located_where_the_core_knows():
    """A vist with no run laid (ordered rummy), a name written twice, a joker that may have been laid early
    and who went out with nothing laid name their seat; too many copies of a card is the whole deal's."""
    body = {
        "players": [
            {"name": "Anna", "melds": ["6♥ JK 8♥"], "hand": ""},
            {"name": "Boris", "vists": [{"to": "Anna", "cards": "9♥"}], "hand": "5♠"},
            {"name": "Anna", "melds": ["7♥ 7♥ 7♣"], "hand": "7♥"},
        ],
        "went_out": "Anna",
    }
    report = evaluate_deal(Deal.from_dict(body), ordered())
    placed = {p.code: where(p) for p in report.problems}
    assert placed["additions_without_run"] == (1, "vists")
    assert placed["duplicate_player"] == (2, "name")
    assert placed["too_many_copies"] == (None, None)
    laid_early = Deal.from_dict(
        {
            "players": [
                {"name": "A", "melds": ["6♥ JK 8♥"]},
                {"name": "B", "melds": ["7♥ 7♠ 7♦", "5♥ 6♥ 7♥"], "hand": "2♣"},
            ],
            "went_out": "A",
        }
    )
    assert [where(w) for w in evaluate_deal(laid_early, KUNKEN).warnings] == [(0, "melds")]
    empty = evaluate_deal(Deal.from_dict(deal_of({"melds": [], "hand": ""}, {}, went_out="Anna")), KUNKEN)
    assert [(w.code, w.seat) for w in empty.warnings] == [("went_out_empty", 0)]


def test_the_drafts_problems_keep_their_place():
    """A deal put together from the players' parts: its problems are located at the seat of the part."""
    parts = {0: read_part({"melds": ["A♠ A♥ A♦"], "hand": ""}), 1: read_part({"melds": ["2♣ 3♣"], "hand": "5♦"})}
    draft = check_draft(KUNKEN, ["Anna", "Boris"], parts)
    assert [(p.code, where(p)) for p in draft.report.problems] == [("illegal_meld", (1, "melds"))]
    assert [(p.code, where(p)) for p in draft.seats[1].problems] == [("illegal_meld", (1, "melds"))]


# -- the place agrees with the path and the name, over many inputs ----------------------------------

#: a player's field in an input error's path: the seat, the part's field, and a count of a short-form hand
_PATH = re.compile(r"^players\[(\d+)\](?:\.(\w+))?(?:\[\d+\])?(?:\.(\w+))?")

#: a value of the wrong kind for any field (or, text, of the right kind and wrong)
odd = st.sampled_from([None, True, 5, -1, 1.5, "", " ", "x", "11♥", [], [5], ["K♠", 5], {}, {"a": 1}])
card_texts = st.sampled_from(["K♠ K♥ JK", "5♥ JK 7♥", "11♥", "5♥ 6", "", "тп тч", "JK=K♦"])
#: a player's record as an API client might send it, right or wrong in any of its fields
player_records = st.fixed_dictionaries(
    {"name": st.sampled_from(["Anna", "Boris", "Vera", "Gleb", " Vera ", "Anna  Maria", "Zoe", "", "x" * 41, None])},
    optional={
        "melds": st.lists(card_texts | odd, max_size=3) | card_texts | odd,
        "vists": st.lists(
            st.fixed_dictionaries(
                {"to": st.sampled_from(["Anna", "Boris", ""]) | odd, "cards": card_texts | odd},
                optional={"meld": st.integers(-1, 50) | odd},
            )
            | odd,
            max_size=2,
        )
        | odd,
        "hand": card_texts
        | st.dictionaries(
            st.sampled_from(["small", "faces", "aces", "jokers", "points", "pounds"]),
            st.integers(-1, 200) | odd,
            max_size=3,
        )
        | odd,
    },
)
#: the deal's own fields, right or wrong
deal_fields = st.fixed_dictionaries(
    {},
    optional={
        "went_out": st.sampled_from(["Anna", " ", "x" * 41]) | odd,
        "express": odd,
        "swaps": st.lists(
            st.fixed_dictionaries(
                {"by": st.sampled_from(["Anna", "Boris", ""]) | odd, "from": st.sampled_from(["Anna", "Zoe"])},
                optional={"card": card_texts | odd, "meld": st.integers(-1, 50) | odd},
            )
            | odd,
            max_size=2,
        )
        | odd,
    },
)


def expected_place(path: str, body: dict) -> tuple[int | None, str | None]:
    """Where an input error of ``path`` in ``body`` belongs: a player's field read from the path as the web
    layer reads it, a swap at the seat of the player who made it (if one plays), or the deal's field."""
    found = _PATH.match(path)
    if found:
        seat, part, count = int(found[1]), found[2], found[3]
        if part == "hand":
            return seat, count if count in HAND_COUNTS else "hand"
        return seat, part
    swap = re.match(r"^swaps\[(\d+)\]", path)
    if swap:
        by = body["swaps"][int(swap[1])].get("by") if isinstance(body["swaps"][int(swap[1])], dict) else None
        names = [clean_name(p["name"]) for p in body["players"]]  # read already: the swaps come after
        return (names.index(by) if by in names else None), "swaps"
    return (None, path) if path in ("went_out", "express", "redeal", "swaps") else (None, None)


@settings(max_examples=400)
@given(st.lists(player_records, min_size=1, max_size=3), deal_fields, st.booleans())
def test_an_input_errors_place_agrees_with_its_path(players, extra, redeal):
    body = {"players": players, "redeal": redeal, **extra}
    try:
        deal = Deal.from_dict(body)
        check_short_hands(deal, KUNKEN)
    except KunkenError as err:
        path = str(err.reason.params.get("field", ""))
        assert where(err.reason) == expected_place(path, body), path


@st.composite
def played_deals(draw):
    """Two to four players with melds from a shoe, vists and swaps to anyone (or nobody), who went out."""
    names = ["Anna", "Boris", "Vera", "Gleb"][: draw(st.integers(2, 4))]
    anyone = st.sampled_from([*names, "Zoe"])
    melds = st.lists(st.lists(naturals | st.just(Card.joker()), min_size=2, max_size=4).map(format_cards), max_size=2)
    vists = st.lists(
        st.fixed_dictionaries(
            {"to": anyone, "cards": st.lists(naturals, min_size=1, max_size=2).map(format_cards)},
            optional={"meld": st.integers(0, 2)},
        ),
        max_size=2,
    )
    players = [
        {"name": name, "melds": draw(melds), "vists": draw(vists), "hand": draw(st.sampled_from(["", "5♦", "JK"]))}
        for name in names
    ]
    swaps = draw(
        st.lists(
            st.fixed_dictionaries(
                {"by": anyone, "from": anyone, "card": naturals.map(str)},
                optional={"meld": st.integers(0, 2)},
            ),
            max_size=2,
        )
    )
    went_out = draw(st.sampled_from([None, *names, "Zoe"]))
    return {"players": players, "swaps": swaps, "went_out": went_out, "express": draw(st.booleans())}


@settings(max_examples=200)
@given(played_deals(), st.sampled_from([kunken(), ordered()]))
def test_every_problem_in_the_table_of_fields_is_placed_where_the_table_and_the_name_put_it(body, rules):
    deal = Deal.from_dict(body)
    for problem in evaluate_deal(deal, rules).problems:
        if problem.code not in PROBLEM_FIELD:
            continue
        field = PROBLEM_FIELD[problem.code]
        swapped = problem.code == "unknown_player" and problem.field == "swaps"
        assert problem.field == ("swaps" if swapped else field)
        player = problem.params.get("player")
        if field in ("went_out", "express"):
            assert problem.seat is None
        elif player in deal.names:
            assert problem.seat == deal.names.index(player)
        else:  # a swap by somebody nobody plays
            assert swapped and problem.seat is None
