"""Swaps, short hands and warnings through the JSON API and the table's pages (issue 7)."""

from __future__ import annotations

import csv
import io
import re

import pytest

from test_api import API, new_session, post_deal
from test_views import deal_data, hidden, phone, start, text

SWAP_DEAL = {
    "players": [{"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": ""},
                {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": {"points": 15, "jokers": 0}}],
    "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}],
    "went_out": "Anna",
}
COPIES_DEAL = {"players": [{"name": "Anna", "melds": ["9♣ JK J♣"], "hand": ""},
                           {"name": "Boris", "melds": ["10♣ 10♥ 10♠"], "hand": "2♣"},
                           {"name": "Vera", "melds": ["10♣ 10♦ 10♠"], "hand": "3♣"}],
               "went_out": "Anna"}


@pytest.fixture
def client(app):
    """The scorer's phone, in English (the messages these tests look for)."""
    return phone(app)


def scores(answer: dict) -> dict:
    return {p["name"]: p["score"] for p in answer["players"]}


# -- API -----------------------------------------------------------------------------------------

def test_score_the_swap_example(client):
    response = client.post(f"{API}/deals/score", json=SWAP_DEAL)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["valid"] is True and answer["warnings"] == []
    assert scores(answer) == {"Anna": 20, "Boris": 25 - 15}


def test_the_swap_is_recorded_exported_and_imported_with_the_same_scores(client):
    session = new_session(client)
    response = post_deal(client, session, SWAP_DEAL)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["warnings"] == []
    sheet = client.get(f"{API}/sessions/{session['id']}").get_json()
    assert sheet["totals"] == {"Anna": 20, "Boris": 10}
    deal = sheet["deals"][0]
    assert deal["record"]["swaps"] == SWAP_DEAL["swaps"]
    assert deal["record"]["players"][1]["hand"] == {"points": 15, "jokers": 0}
    assert deal["warnings"] == []
    exported = client.get(f"{API}/sessions/{session['id']}/export").get_json()
    imported = client.post(f"{API}/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    again = client.get(f"{API}/sessions/{imported.get_json()['id']}").get_json()
    assert again["totals"] == {"Anna": 20, "Boris": 10}
    assert again["deals"][0]["record"] == deal["record"]


def test_a_wrong_swap_is_a_422_with_its_sentence(client):
    session = new_session(client)
    body = dict(SWAP_DEAL, swaps=[{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♠"}])
    response = post_deal(client, session, body)
    assert response.status_code == 422
    answer = response.get_json()
    assert [p["code"] for p in answer["problems"]] == ["illegal_swap"]
    assert "K♠" in answer["problems"][0]["message"]
    assert answer["warnings"] == []


def test_the_both_copies_deal_records_with_one_warning(client):
    score = client.post(f"{API}/deals/score", json=COPIES_DEAL).get_json()
    assert score["valid"] is True
    assert [w["code"] for w in score["warnings"]] == ["joker_laid_early"]
    session = new_session(client, players=("Anna", "Boris", "Vera"))
    response = post_deal(client, session, COPIES_DEAL)
    assert response.status_code == 201
    assert len(response.get_json()["warnings"]) == 1
    deal = client.get(f"{API}/sessions/{session['id']}").get_json()["deals"][0]
    assert [w["code"] for w in deal["warnings"]] == ["joker_laid_early"]


def test_the_meld_check_with_a_table_still_enforces_both_copies(client):
    answer = client.post(f"{API}/melds/check", json={"cards": "9♣ JK J♣",
                                                     "table": ["10♣ 10♥ 10♠", "10♣ 10♦ 10♠"]}).get_json()
    assert answer["legal"] is False


@pytest.mark.parametrize("game, hand, field", [
    ("kunken", {"small": -1}, "players[1].hand.small"),
    ("kunken", {"faces": 0.5}, "players[1].hand.faces"),
    ("kunken", {"queens": 1}, "players[1].hand.queens"),
    ("kunken", {"points": 12}, "players[1].hand.points"),
    ("kunken", {"points": "30"}, "players[1].hand.points"),
    ("ordered-rummy", {"small": 1}, "players[1].hand.small"),
    ("ordered-rummy", {"points": -1, "jokers": 1}, "players[1].hand.points"),
])
def test_bad_counts_are_a_400_naming_the_field(client, game, hand, field):
    body = {"game": game, "players": [{"name": "Anna"}, {"name": "Boris", "hand": hand}]}
    response = client.post(f"{API}/deals/score", json=body)
    assert response.status_code == 400
    assert field in response.get_json()["error"]


def test_bad_counts_when_recording_store_nothing(client, store):
    session = new_session(client)
    body = dict(SWAP_DEAL, players=[SWAP_DEAL["players"][0], {"name": "Boris", "hand": {"small": -2}}])
    response = post_deal(client, session, body)
    assert response.status_code == 400
    assert "players[1].hand.small" in response.get_json()["error"]
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"] == []


def test_swap_check_knows_the_layout(client):
    body = {"meld": "JK K♠ K♣", "card": "K♦"}
    assert client.post(f"{API}/swaps/check", json=body).get_json() == {"legal": True, "reasons": []}
    answer = client.post(f"{API}/swaps/check", json={**body, "has_layout": False}).get_json()
    assert answer["legal"] is False and "meld of their own" in answer["reasons"][0]
    bad = client.post(f"{API}/swaps/check", json={**body, "has_layout": "yes"})
    assert bad.status_code == 400 and "has_layout" in bad.get_json()["error"]


# -- the table's pages --------------------------------------------------------------------------

def fill(page: str, players: dict, went_out: str = "", **flags) -> dict:
    """``players``: seat -> (melds, vists, hand, swaps)."""
    data = deal_data(page, {i: p[:3] for i, p in players.items()}, went_out, **flags)
    for i, p in players.items():
        data[f"players-{i}-swaps"] = p[3]
    return data


def submit(client, sid: str, players: dict, went_out: str = "", button: str = "save", url: str = None, **flags):
    url = url or f"/s/{sid}/deals/new"
    page = text(client.get(url))
    return client.post(url, data={**fill(page, players, went_out, **flags), button: "1"})


SWAP_FORM = {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "15", "Anna 1: K♦")}


def test_a_swap_and_a_short_hand_typed_in_the_form_are_recorded(client, store):
    sid = start(client)
    response = submit(client, sid, SWAP_FORM, went_out="Anna")
    assert response.status_code == 303, text(response)
    deal = store.list_deals(sid)[0]
    assert deal["record"]["swaps"] == [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}]
    assert deal["record"]["players"][1]["hand"] == {"points": 15, "jokers": 0}
    session_page = text(client.get(f"/s/{sid}"))
    assert "Boris swapped K♦ for the joker in meld 1 of Anna" in re.sub(r"<[^>]+>", "", session_page)
    assert 'data-total="20"' in session_page and 'data-total="10"' in session_page


def test_the_swap_and_the_hand_come_back_on_the_edit_page(client, store):
    sid = start(client)
    submit(client, sid, {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "35 JK", "Anna: K♥")}, went_out="Anna")
    deal = store.list_deals(sid)[0]
    page = text(client.get(f"/s/{sid}/deals/{deal['id']}/edit"))
    assert hidden(page, "players-1-hand") == "35 JK"
    assert "Anna: K♥</textarea>" in page


def test_a_stored_count_hand_is_shown_as_points_on_the_edit_page(client, store):
    session = new_session(client)
    body = dict(SWAP_DEAL, players=[SWAP_DEAL["players"][0],
                                    {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": {"small": 1, "aces": 1, "jokers": 1}}])
    assert post_deal(client, session, body).status_code == 201
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"][0]["players"][1]["minus"] == 25
    path = "/" + session["edit_url"].split("://", 1)[1].split("/", 1)[1]
    assert client.get(path).status_code in (302, 303)  # the scorer link: this phone may edit
    stored = store.list_deals(session["id"])[0]
    page = text(client.get(f"/s/{session['id']}/deals/{stored['id']}/edit"))
    assert hidden(page, "players-1-hand") == "15 JK"  # 5 + 10 points, one joker


@pytest.mark.parametrize("hand, message", [
    ("-5", "whole number"), ("3.5", "whole number"), ("35 K♠", "only the jokers"), ("35 XX", "XX"),
])
def test_a_bad_short_hand_is_a_form_error(client, store, hand, message):
    sid = start(client)
    response = submit(client, sid, {0: ("2♣ 3♣ 4♣", "", "", ""), 1: ("", "", hand, "")}, went_out="Anna")
    assert response.status_code == 422
    assert message in text(response)
    assert store.list_deals(sid) == []


def test_an_impossible_short_hand_is_explained_next_to_the_hand(client, store):
    sid = start(client)
    response = submit(client, sid, {0: ("2♣ 3♣ 4♣", "", "", ""), 1: ("", "", "33", "")}, went_out="Anna")
    assert response.status_code == 422
    page = text(response)
    assert 'id="players-1-hand-errors"' in page and "multiple of 5" in page
    assert store.list_deals(sid) == []


def test_a_bad_swap_line_is_an_error_naming_the_line(client, store):
    sid = start(client)
    response = submit(client, sid, {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "", "Anna: K♦ K♥")})
    assert response.status_code == 422
    assert "exactly one card" in text(response)
    response = submit(client, sid, {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "", "Anna: K♠")})
    assert response.status_code == 422
    page = text(response)
    assert 'id="players-1-swaps-errors"' in page and "already holds" in page
    assert store.list_deals(sid) == []


def test_warnings_show_on_the_form_and_in_the_history_and_do_not_block(client, store):
    sid = start(client, players=("Anna", "Boris", "Vera"))
    players = {0: ("9♣ JK J♣", "", "", ""), 1: ("10♣ 10♥ 10♠", "", "2♣", ""), 2: ("10♣ 10♦ 10♠", "", "3♣", "")}
    check = submit(client, sid, players, went_out="Anna", button="check")
    page = text(check)
    assert 'id="deal-warnings"' in page and "laid before the second copy" in page
    assert 'data-valid="true"' in page
    saved = submit(client, sid, players, went_out="Anna")
    assert saved.status_code == 303
    assert 'class="warning" data-code="joker_laid_early"' in text(client.get(f"/s/{sid}"))


def test_summary_and_csv_show_the_swap(client, store):
    sid = start(client)
    submit(client, sid, SWAP_FORM, went_out="Anna")
    summary = text(client.get(f"/s/{sid}/summary"))
    assert "Boris swapped K♦ for the joker in meld 1 of Anna" in re.sub(r"<[^>]+>", "", summary)
    raw = client.get(f"/s/{sid}/export.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(raw)))
    assert [r["swaps"] for r in rows] == ["", "K♦ → Anna 1"]


def test_the_russian_form_explains_a_bad_hand_in_russian(app, store):
    phone = app.test_client()
    phone.set_cookie("lang", "ru")
    sid = start(phone)
    response = submit(phone, sid, {0: ("2♣ 3♣ 4♣", "", "", ""), 1: ("", "", "-5", "")}, went_out="Anna")
    assert response.status_code == 422
    assert "целое число" in text(response)
