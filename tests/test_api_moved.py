"""What moved out of the API's routes (issue 34): the rule checks and the club nights' answers as plain data
(``service.answers``), the ``?game=`` of the players' statistics (``service.ratings.asked_game``), the night's input
errors as message ids (``service.nights.NightInputError``) and the version a request saw (``core.reading``)."""

from __future__ import annotations

import pytest

from kunken_scorer import service
from kunken_scorer.core.messages import KunkenError, Reason
from kunken_scorer.core.reading import read_version
from kunken_scorer.core.rules import RuleSet
from kunken_scorer.service import answers, ratings
from kunken_scorer.service.nights import NightInputError, create_night, night_board, night_tables, table_tokens


def say(reason: Reason) -> str:
    """The English sentence, as the API says it to a client asking in English."""
    return reason.message


# -- the rule checks -------------------------------------------------------------------------------------------


def test_a_meld_check_answers_legality_kind_points_and_cards():
    answer = answers.meld_check({"cards": "A♠ A♥ A♦"}, say)
    assert answer == {"legal": True, "kind": "set", "points": 30, "cards": ["A♠", "A♥", "A♦"], "reasons": []}
    short = answers.meld_check({"cards": "K♠ K♥"}, say)
    assert not short["legal"] and short["reasons"] == ["A meld needs at least 3 cards; this one has 2."]


def test_a_meld_check_reads_the_rules_before_the_cards():
    with pytest.raises(KunkenError) as refused:
        answers.meld_check({"game": "nope", "cards": 5}, say)
    assert refused.value.code == "unknown_game"
    with pytest.raises(KunkenError) as refused:
        answers.meld_check({}, say)
    assert refused.value.code == "missing_field" and "cards" in str(refused.value)


def test_a_swap_check_takes_has_layout_as_true_or_false_only():
    legal = answers.swap_check({"meld": "5♥ JK 7♥", "card": "6♥"}, say)
    assert legal == {"legal": True, "reasons": []}
    unlaid = answers.swap_check({"meld": "5♥ JK 7♥", "card": "6♥", "has_layout": False}, say)
    assert not unlaid["legal"]
    for value in (None, "yes", 1):
        with pytest.raises(KunkenError) as refused:
            answers.swap_check({"meld": "5♥ JK 7♥", "card": "6♥", "has_layout": value}, say)
        assert str(refused.value) == "has_layout: expected true or false."


def test_an_opening_check_answers_its_points():
    answer = answers.opening_check({"melds": ["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "bank_card": "7♥"}, say)
    assert answer == {"legal": True, "points": 50, "reasons": []}


def test_a_discard_check_takes_exactly_one_card():
    answer = answers.discard_check({"card": "9♥", "melds": ["6♥ 7♥ 8♥"]}, say)
    assert answer["fits"] and answer["meld"] == 0 and answer["reasons"] == []
    with pytest.raises(KunkenError) as refused:
        answers.discard_check({"card": "9♥ 10♥", "melds": ["6♥ 7♥ 8♥"]}, say)
    assert str(refused.value) == "card: expected exactly one card."


def test_a_deal_score_answers_validity_with_the_report():
    deal = {"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""}, {"name": "Boris", "hand": "K♠"}]}
    answer = answers.deal_score({**deal, "went_out": "Anna"}, say)
    assert answer["valid"] and list(answer) == ["valid", "problems", "warnings", "players"]
    assert [p["name"] for p in answer["players"]] == ["Anna", "Boris"]


def test_the_checks_say_reasons_with_the_say_they_are_given():
    answer = answers.meld_check({"cards": "K♠ K♥"}, lambda reason: reason.code)
    assert answer["reasons"] == ["too_few_cards"]


# -- players' statistics ---------------------------------------------------------------------------------------


def test_the_game_asked_of_the_statistics_is_read_by_the_service():
    assert ratings.asked_game(None) is None and ratings.asked_game("") is None
    assert ratings.asked_game("ordered-rummy") == "ordered-rummy"
    with pytest.raises(KunkenError) as refused:
        ratings.asked_game("chess")
    assert str(refused.value) == "game: expected one of kunken, ordered-rummy."


# -- the version a request saw ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, -1, True, "3", 10**12, 1.5])
def test_a_version_is_a_whole_number_from_one(value):
    with pytest.raises(KunkenError) as refused:
        read_version({"version": value})
    assert str(refused.value) == "version: expected the score sheet's version, a whole number."


def test_a_version_left_out_is_none():
    assert read_version({}) is None and read_version({"version": None}) is None and read_version({"version": 7}) == 7


# -- club nights -----------------------------------------------------------------------------------------------

K = RuleSet.preset()


@pytest.mark.parametrize(
    "tables, message, params",
    [
        ("A, B", "tables: expected a list of tables, each a list of names.", {}),
        ([], "Name the players of at least one table.", {}),
        ([["A", "B"]] * 21, "A night has at most %(limit)s tables.", {"limit": 20}),
        (
            [["Anna", "Boris"], ["anna", "Vera"]],
            "%(name)s is at table %(other)s and at table %(table)s: a player sits at one table.",
            {"name": "anna", "table": 2, "other": 1},
        ),
    ],
)
def test_a_night_refused_says_why_as_a_message_id_and_its_fields(tables, message, params):
    with pytest.raises(NightInputError) as refused:
        night_tables(K, tables)
    assert refused.value.message == message and refused.value.params == params and refused.value.reason is None


def test_a_table_refused_quotes_the_cores_reason():
    with pytest.raises(NightInputError) as refused:
        night_tables(K, [["Anna", "Boris"], ["Vera"]])
    err = refused.value
    assert err.message == "Table %(table)s: %(why)s" and err.params == {"table": 2}
    assert err.reason is not None and err.reason.code == "session_players"


def links(session_id: str, token: str | None) -> dict[str, str]:
    return {"id": session_id, **({"token": token} if token else {})}


def test_the_nights_answers(store):
    made = create_night(store, K, [["Anna", "Boris"], ["Vera", "Gosha", "Dima"]])
    started = answers.night_made_answer(made, "view", "edit", links)
    assert started == {
        "id": made.night.id,
        "edit_token": made.token,
        "view_url": "view",
        "edit_url": "edit",
        "tables": [{"id": sid, "token": token} for sid, token in made.tables],
    }
    board = night_board(store, made.night.id)
    shown = answers.night_answer(board, {}, links)
    assert shown["id"] == made.night.id and shown["game"] == "kunken" and shown["round"] == 1
    assert [t["players"] for t in shown["tables"]] == [["Anna", "Boris"], ["Vera", "Gosha", "Dima"]]
    assert all("token" not in t for t in shown["tables"]) and len(shown["standings"]) == 5
    assert set(shown["standings"][0]) == {
        *("place", "name", "total", "table", "deals", "points", "total_place", "points_place")
    }
    owned = answers.night_answer(board, table_tokens(store, board, made.token), links)
    assert [t["token"] for t in owned["tables"]] == [token for _, token in made.tables]


def test_the_answer_to_an_ended_session(store):
    created = service.create_session(store, K, ["Anna", "Boris"], None)
    service.end_session(store, store.get_session(created.session.id))
    board = service.scoreboard(store, created.session.id)
    assert answers.ended_answer(board) == {
        "id": created.session.id,
        "ended_at": board.session.ended_at,
        "version": board.version,
        "totals": {"Anna": 0, "Boris": 0},
    }
    assert board.session.ended_at
