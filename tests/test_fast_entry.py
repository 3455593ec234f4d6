"""Fast entry without a browser (issue 8): run notation, hands by counts, the remembered way of
entering hands, the preview's markers, and the plain form that works without JavaScript."""

from __future__ import annotations

import re

import pytest

from kunken_scorer import Deal, DealInputError, RuleSet, evaluate_deal
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
    picks = re.findall(r'data-kind="(vists|swaps)" data-seat="\d+" data-insert="([^"]*)"', checked)
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


# -- review fixes ----------------------------------------------------------------------------------

def test_an_edit_shows_hands_as_they_were_entered_whatever_the_table_uses_now(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "35 JK")}, "Anna")
    assert client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"}).status_code == 303
    store.set_hand_entry(sid, "counts")  # the table has since moved to counts
    deal = store.list_deals(sid)[0]
    edit = text(client.get(f"/s/{sid}/deals/{deal['id']}/edit"))
    assert re.search(r'<input checked[^>]*value="points"', edit)
    assert hidden(edit, "players-1-hand") == "35 JK"


def test_a_mixed_deal_comes_back_as_text_and_loses_nothing(client, store, app):
    from test_api import API, new_session, post_deal
    session = new_session(client)
    body = {"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
                        {"name": "Boris", "hand": {"small": 1, "faces": 1, "aces": 0, "jokers": 1}}],
            "went_out": "Anna"}
    assert post_deal(client, session, body).status_code == 201
    client.get("/" + session["edit_url"].split("://", 1)[1].split("/", 1)[1])
    deal = store.list_deals(session["id"])[0]
    edit = text(client.get(f"/s/{session['id']}/deals/{deal['id']}/edit"))
    assert re.search(r'<input checked[^>]*value="counts"', edit)
    body["players"][0]["hand"] = "2♣"
    body["went_out"] = None
    store.update_deal(session["id"], deal["id"], Deal.from_dict(body).to_dict(), override=False, note=None,
                      expected_revision=deal["revision"])
    edit = text(client.get(f"/s/{session['id']}/deals/{deal['id']}/edit"))
    assert re.search(r'<input checked[^>]*value="cards"', edit)
    assert hidden(edit, "players-0-hand") == "2♣" and hidden(edit, "players-1-hand") == "15 JK"
    assert client.get(f"{API}/sessions/{session['id']}").status_code == 200


def test_in_counts_mode_a_player_out_with_cards_is_told_at_the_counts(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = counts_data(page, {0: {"small": 1}}, {0: "A♠ A♥ A♦"}, "Anna")
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    errors = re.search(r'id="players-0-small-errors".*?</ul>', checked, re.S)
    assert errors and "went out but still has cards" in errors[0]


def test_counts_left_over_from_another_mode_are_ignored(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "2♣")}, "Anna")
    data.update({"players-1-small": "lots", "players-1-aces": "-3"})
    assert client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"}).status_code == 303
    assert store.list_deals(sid)[0]["record"]["players"][1]["hand"] == "2♣"


def test_a_form_error_names_the_field_as_the_page_does(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "33")}, "Anna")
    answer = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert "players[1]" not in answer and "multiple of 5" in answer


def test_a_redeal_previews_zeros():
    report = evaluate_deal(Deal.from_dict({"players": [{"name": "A"}, {"name": "B"}], "redeal": True}),
                           RuleSet.preset())
    assert [(p.plus, p.minus) for p in report.checked_players] == [(0, 0), (0, 0)]


def test_no_card_worth_anything_is_no_500(client):
    from test_api import API
    body = {"rules": {"ace_points": 0}, "game": "kunken",
            "players": [{"name": "A", "hand": {"points": 0}}, {"name": "B", "hand": {"points": 5}}]}
    assert client.post(f"{API}/deals/score", json=body).status_code == 200


def test_a_joker_put_in_for_a_joker_is_not_a_natural_card():
    report = evaluate_deal(Deal.from_dict({"players": [{"name": "A", "melds": ["K♠ K♣ JK"]},
                                                       {"name": "B", "melds": ["2♣ 3♣ 4♣"]}],
                                           "swaps": [{"by": "B", "from": "A", "meld": 0, "card": "JK"}]}),
                           RuleSet.preset())
    assert [r.code for r in report.problems[0].params["why"]] == ["swap_not_natural"]


def test_a_wild_card_table_takes_wild_cards_as_jokers_in_short_hands_and_picks(client):
    sid = start(client, players=("Ann", "Bob"), game="ordered-rummy", shown="ordered-rummy",
                **{"rules-wild_card": "2♠"})
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("5♥ 2♠ 7♥", "", ""), 1: ("", "", "35 2♠")}, "Ann")
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert re.search(r'data-kind="swaps" data-seat="0" data-insert="Ann 1: "', checked)  # the wild card is a joker
    assert "Left in hand: 35 points, 1 joker(s)." in checked


def test_more_decks_allow_more_cards_of_a_kind():
    body = {"players": [{"name": "A"}, {"name": "B", "hand": {"small": 100}}]}
    with pytest.raises(DealInputError) as err:
        evaluate_deal(Deal.from_dict(body), RuleSet.preset())
    assert "at most 72" in str(err.value)
    four = RuleSet.for_game("kunken", {"decks": 4})
    assert evaluate_deal(Deal.from_dict(body), four).players[1].minus == 500


def test_a_russian_page_names_cards_in_russian_in_its_problems(app):
    russian = app.test_client()
    russian.set_cookie("lang", "ru")
    sid = start(russian)
    page = text(russian.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("K♠ K♠ K♥", "", ""), 1: ("2♥ JK 4♥", "", "")})
    answer = text(russian.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    problem = re.search(r'id="players-0-melds-errors".*?</ul>', answer, re.S)[0]
    assert "К♠ К♠ К♥" in problem and "K♠" not in problem  # Cyrillic К: the page's notation
