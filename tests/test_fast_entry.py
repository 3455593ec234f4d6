"""Fast entry without a browser (issue 8): run notation, hands by counts, the remembered way of
entering hands, the preview's markers, and the plain form that works without JavaScript."""

from __future__ import annotations

import re

import pytest

from kunken_scorer import Deal, RuleSet, evaluate_deal
from kunken_scorer.cards import CardError, format_cards, parse_cards
from test_views import deal_data, hidden, phone, start, text


@pytest.fixture
def client(app):
    return phone(app)


# -- runs by their ends ---------------------------------------------------------------------------

@pytest.mark.parametrize("typed, cards", [
    ("6♥…10♥", "6♥ 7♥ 8♥ 9♥ 10♥"),
    ("6ч..10ч", "6♥ 7♥ 8♥ 9♥ 10♥"),
    ("6♥ … 10♥ JK", "6♥ 7♥ 8♥ 9♥ 10♥ JK"),
    ("В♣…К♣", "J♣ Q♣ K♣"),
    ("A♥…3♥", "A♥ 2♥ 3♥"),
    ("Q♠…A♠", "Q♠ K♠ A♠"),
    ("10♦…7♦", "10♦ 9♦ 8♦ 7♦"),
])
def test_a_run_is_typed_by_its_ends(typed, cards):
    assert format_cards(parse_cards(typed)) == cards


@pytest.mark.parametrize("typed, code", [
    ("6♥…", "range_open"), ("…10♥", "range_open"), ("6♥…10♠", "range_one_suit"), ("JK…5♥", "range_one_suit"),
    ("6♥…11♥", "no_such_rank"),
])
def test_a_bad_run_names_the_token(typed, code):
    with pytest.raises(CardError) as err:
        parse_cards(typed)
    assert err.value.code == code


def test_a_run_typed_by_its_ends_scores_as_typed_card_by_card():
    rules = RuleSet.preset()
    short = evaluate_deal(Deal.from_dict({"players": [{"name": "A", "melds": ["6♥…10♥", "В♣…К♣"]},
                                                       {"name": "B", "hand": "2♣"}]}), rules)
    long = evaluate_deal(Deal.from_dict({"players": [{"name": "A", "melds": ["6♥ 7♥ 8♥ 9♥ 10♥", "J♣ Q♣ K♣"]},
                                                      {"name": "B", "hand": "2♣"}]}), rules)
    assert short.players == long.players


# -- the plain form (no JavaScript) -------------------------------------------------------------

def counts_data(page: str, counts: dict, melds: dict, went_out: str = "") -> dict:
    data = deal_data(page, {i: (melds.get(i, ""), "", "") for i in range(2)}, went_out)
    data["hand_mode"] = "counts"
    for i, values in counts.items():
        for key, value in values.items():
            data[f"players-{i}-{key}"] = str(value)
    return data


def test_hands_by_counts_are_recorded_as_counts(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = counts_data(page, {1: {"small": 2, "faces": 1, "aces": 1, "jokers": 1}}, {0: "A♠ A♥ A♦"}, "Anna")
    response = client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"})
    assert response.status_code == 303, text(response)
    record = store.list_deals(sid)[0]["record"]
    assert record["players"][1]["hand"] == {"small": 2, "faces": 1, "aces": 1, "jokers": 1}
    assert record["players"][0]["hand"] == {"small": 0, "faces": 0, "aces": 0, "jokers": 0}
    # 2 × 5 + 10 + 10 + a joker's 10
    assert re.search(r'data-player="Boris"[^>]*>.*?data-total="-40"', text(client.get(f"/s/{sid}")), re.S)
    assert store.get_session(sid)["hand_entry"] == "counts"  # the table's choice is remembered
    assert re.search(r'<input checked[^>]*value="counts"', text(client.get(f"/s/{sid}/deals/new")))


def test_a_count_out_of_range_is_explained_next_to_it(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    response = client.post(f"/s/{sid}/deals/new",
                           data={**counts_data(page, {1: {"aces": 9}}, {0: "A♠ A♥ A♦"}, "Anna"), "save": "1"})
    assert response.status_code == 422
    assert 'id="players-1-aces-errors"' in text(response)
    assert store.list_deals(sid) == []


def test_the_start_form_chooses_how_hands_are_entered(client, store):
    sid = start(client, hand_entry="points")
    assert store.get_session(sid)["hand_entry"] == "points"
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert re.search(r'<input checked[^>]*value="points"', page)
    hand = re.search(r'<input[^>]*id="players-0-hand"[^>]*>', page)[0]
    assert "data-keypad-points" in hand and 'data-keypad-kind="hand"' in hand


def test_ordered_rummy_offers_no_counts(client, store):
    sid = start(client, players=("Ann", "Bob"), game="ordered-rummy", shown="ordered-rummy", hand_entry="counts")
    assert store.get_session(sid)["hand_entry"] is None  # counts are not a way for this game
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert 'value="counts"' not in page and re.search(r'<input checked[^>]*value="cards"', page)


def test_the_preview_shows_no_points_for_an_illegal_meld_and_marks_the_express(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦\nK♠ K♠ K♥", "", ""), 1: ("", "", "2♣")}, "Anna", express=True)
    response = client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"})
    checked = text(response)
    verdicts = re.findall(r'<li class="verdict (ok|bad)"[^>]*data-points="(\d+)"', checked)
    assert verdicts == [("ok", "30"), ("bad", "0")]
    assert 'data-plus="60"' in checked  # the legal set only, doubled by the express
    assert '<span class="times"' in checked and "×2" in checked


def test_an_edit_shows_the_cards_in_the_page_notation(app, store):
    russian = app.test_client()
    russian.set_cookie("lang", "ru")
    sid = start(russian)
    page = text(russian.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}, "Anna")
    assert russian.post(f"/s/{sid}/deals/new", data={**data, "save": "1"}).status_code == 303
    deal = store.list_deals(sid)[0]
    edit = text(russian.get(f"/s/{sid}/deals/{deal['id']}/edit"))
    assert "Т♠ Т♥ Т♦</textarea>" in edit
    assert "Boris: 5♥</textarea>" in edit
    assert hidden(edit, "players-1-hand") == "К♣ Дж"


def test_the_keypad_lists_the_melds_on_the_table_as_vist_and_swap_targets(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ JK 4♥", "", "")})
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    picks = re.findall(r'data-kind="(vists|swaps)" data-insert="([^"]*)"', checked)
    assert ("vists", "Anna 1: ") in picks and ("vists", "Boris 1: ") in picks
    assert ("swaps", "Boris 1: ") in picks and ("swaps", "Anna 1: ") not in picks  # only melds with a joker
    assert ("vists", "Anna: ") in picks and ("vists", "Boris: ") in picks


def test_the_went_out_suggestion_is_the_one_empty_hand(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "2♣")})
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert 'data-went-out-suggestion="Anna"' in checked
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "")})
    both_empty = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert 'data-went-out-suggestion=""' in both_empty
