"""The JSON API of API.md through the test client: examples, auth, idempotency, export/import,
swaps, short hands and warnings, the language of the answers, hostile input."""

from __future__ import annotations

import base64
import copy
import json
import sqlite3
import threading

import pytest
from conftest import API, DEAL, SWAP_DEAL, auth, new_session, post_deal

from kunken_scorer import service
from kunken_scorer.store import Store

DEAL_SCORES = [
    {"name": "Anna", "plus": 35, "minus": 0, "score": 35},
    {"name": "Boris", "plus": 15, "minus": 20, "score": -5},
]
# Boris's second meld "K♦ K♦ K♥" holds K♦ twice: a problem the table may override.
BAD_DEAL = {**DEAL, "players": [DEAL["players"][0], {**DEAL["players"][1], "melds": ["2♥ 3♥ 4♥", "K♦ K♦ K♥"]}]}


def assert_error(response, status):
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body["error"], str) and body["error"].strip(), body
    return body["error"]


# -- rule checks: the examples of API.md ---------------------------------------------------


def test_health_answers_ok(client):
    response = client.get(f"{API}/health")
    assert response.status_code == 200
    assert response.get_json() == {"ok": True}
    assert response.mimetype == "application/json"


def test_meld_check_example(client):
    response = client.post(f"{API}/melds/check", json={"game": "kunken", "cards": "5♥ JK 7♥", "rules": {}})
    assert response.status_code == 200
    assert response.get_json() == {
        "legal": True,
        "kind": "run",
        "points": 15,
        "cards": ["5♥", "JK=6♥", "7♥"],
        "reasons": [],
    }


def test_meld_check_defaults_to_kunken_and_reads_russian_notation(client):
    response = client.post(f"{API}/melds/check", json={"cards": "Тп Тч Тб"})
    assert response.get_json() == {
        "legal": True,
        "kind": "set",
        "points": 30,
        "cards": ["A♠", "A♥", "A♦"],
        "reasons": [],
    }


def test_illegal_meld_names_the_rule(client):
    body = client.post(f"{API}/melds/check", json={"cards": "K♦ K♦ K♥"}).get_json()
    assert body["legal"] is False
    assert body["reasons"] and "K♦ appears twice" in body["reasons"][0]


def test_meld_check_counts_the_table(client):
    body = client.post(f"{API}/melds/check", json={"cards": "6♥ JK 8♥", "table": ["6♥ 7♥ 8♥", "7♥ 7♠ 7♦"]}).get_json()
    assert body["legal"] is False
    assert "every natural copy the decks hold is already on the table" in body["reasons"][0]
    alone = client.post(f"{API}/melds/check", json={"cards": "6♥ JK 8♥"}).get_json()
    assert alone["legal"] is True


@pytest.mark.parametrize("cards", [None, "", "   ", []])
def test_empty_or_missing_cards_is_a_400(client, cards):
    body = {} if cards is None else {"cards": cards}
    assert "cards" in assert_error(client.post(f"{API}/melds/check", json=body), 400)


def test_unknown_card_names_the_token(client):
    message = assert_error(client.post(f"{API}/melds/check", json={"cards": "5♥ 11♥ 7♥"}), 400)
    assert '"11♥": no such rank' in message


def test_house_rules_change_the_verdict(client):
    body = {"cards": "A♠ A♥ A♦", "rules": {"ace_points": 5}}
    assert client.post(f"{API}/melds/check", json=body).get_json()["points"] == 15


@pytest.mark.parametrize(
    "body, expected",
    [
        ({"cards": "A♠ A♥ A♦", "game": "poker"}, '"poker": no such game'),
        ({"cards": "A♠ A♥ A♦", "game": 7}, "game"),
        ({"cards": "A♠ A♥ A♦", "rules": {"jokers_fly": True}}, '"jokers_fly": no such house rule'),
        (
            {"cards": "A♠ A♥ A♦", "rules": {"joker_limit": "many"}},
            '“Jokers allowed in one meld”: "many" is not allowed',
        ),
        ({"cards": "A♠ A♥ A♦", "rules": ["ace_low"]}, "rules"),
    ],
)
def test_unknown_game_or_switch_is_a_400_with_the_cores_message(client, body, expected):
    assert expected in assert_error(client.post(f"{API}/melds/check", json=body), 400)


def test_swap_example(client):
    response = client.post(f"{API}/swaps/check", json={"game": "kunken", "meld": "JK K♠ K♣", "card": "K♦"})
    assert response.status_code == 200
    assert response.get_json() == {"legal": True, "reasons": []}
    taken = client.post(f"{API}/swaps/check", json={"meld": "JK K♠ K♣", "card": "K♠"}).get_json()
    assert taken["legal"] is False and "K♠" in taken["reasons"][0]


def test_swap_needs_a_card(client):
    assert "card" in assert_error(client.post(f"{API}/swaps/check", json={"meld": "JK K♠ K♣"}), 400)
    two = client.post(f"{API}/swaps/check", json={"meld": "JK K♠ K♣", "card": "K♦ K♥"})  # as a bank card or discard
    assert assert_error(two, 400) == "card: expected exactly one card."


def test_opening_example(client):
    body = {"game": "kunken", "melds": ["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "bank_card": "7♥"}
    response = client.post(f"{API}/openings/check", json=body)
    assert response.status_code == 200
    assert response.get_json() == {"legal": True, "points": 50, "reasons": []}
    stricter = client.post(f"{API}/openings/check", json={**body, "rules": {"opening_points": 60}}).get_json()
    assert stricter["legal"] is False and stricter["points"] == 50 and "60" in stricter["reasons"][0]


def test_opening_bank_card_must_be_one_card(client):
    body = {"melds": ["A♠ A♥ A♦"], "bank_card": "A♠ A♥"}
    assert "bank_card" in assert_error(client.post(f"{API}/openings/check", json=body), 400)


def test_discard_example(client):
    body = {"game": "ordered-rummy", "card": "Q♦", "melds": ["9♦ 10♦ J♦"]}
    response = client.post(f"{API}/discards/check", json=body)
    assert response.status_code == 200
    assert response.get_json() == {"fits": True, "meld": 0, "reasons": []}
    miss = client.post(f"{API}/discards/check", json={**body, "card": "2♣"}).get_json()
    assert miss["fits"] is False and miss["meld"] is None and "2♣" in miss["reasons"][0]


def test_a_discard_check_names_a_line_that_is_no_meld(client):
    body = {"game": "ordered-rummy", "card": "4♥", "melds": ["K♠ K♥ K♣", "2♥ 3♥"]}
    answer = client.post(f"{API}/discards/check", json=body).get_json()
    assert answer["fits"] is False and answer["meld"] is None
    assert answer["reasons"][0].startswith("Meld 2 is not legal, so nothing can be added to it: ")
    assert answer["reasons"][1] == "4♥ does not fit any of these melds."


def test_deal_score_example(client):
    response = client.post(f"{API}/deals/score", json=DEAL)
    assert response.status_code == 200
    assert response.get_json() == {"valid": True, "problems": [], "warnings": [], "players": DEAL_SCORES}


def test_deal_score_lists_problems_and_still_scores(client):
    body = client.post(f"{API}/deals/score", json=BAD_DEAL).get_json()
    assert body["valid"] is False
    assert [p["code"] for p in body["problems"]] == ["illegal_meld"]
    assert "Boris" in body["problems"][0]["message"]
    assert [p["name"] for p in body["players"]] == ["Anna", "Boris"]


def test_deal_score_redeal_scores_zero(client):
    body = client.post(f"{API}/deals/score", json={"players": ["Anna", "Boris"], "redeal": True}).get_json()
    assert body["valid"] is True and [p["score"] for p in body["players"]] == [0, 0]


def test_deal_score_bad_card_names_the_field_and_token(client):
    body = copy.deepcopy(DEAL)
    body["players"][1]["hand"] = "K♣ 1♠"
    message = assert_error(client.post(f"{API}/deals/score", json=body), 400)
    assert "players[1].hand" in message and '"1♠": no such rank' in message


# -- sessions -------------------------------------------------------------------------------


def _bits(token: str) -> int:
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def test_create_session_answers_unguessable_id_token_and_links(client):
    sessions = [new_session(client) for _ in range(3)]
    for s in sessions:
        assert set(s) == {"id", "edit_token", "view_url", "edit_url"}
        assert _bits(s["id"]) >= 128 and _bits(s["edit_token"]) >= 128
        assert s["id"] != s["edit_token"]
        assert s["view_url"].startswith("http") and s["view_url"].endswith(f"/s/{s['id']}")
        assert s["edit_url"].endswith(f"/s/{s['id']}/scorer/{s['edit_token']}")
        assert "localhost" not in s["view_url"]  # other phones cannot reach localhost
    assert len({s["id"] for s in sessions}) == 3
    assert len({s["edit_token"] for s in sessions}) == 3


def test_create_session_stores_the_exact_rule_set(client, store):
    s = new_session(
        client, players=["Anna", "Boris", "Vera"], rules={"ace_points": 5}, target={"kind": "score", "value": 500}
    )
    session = store.get_session(s["id"])
    assert session.rules["ace_points"] == 5 and session.rules["game"] == "kunken"
    assert session.rules["opening_points"] == 50  # the whole rule set, not only the changes
    body = client.get(f"{API}/sessions/{s['id']}").get_json()
    assert body["rules"] == session.rules
    assert body["players"] == ["Anna", "Boris", "Vera"]
    assert body["deals"] == [] and body["totals"] == {"Anna": 0, "Boris": 0, "Vera": 0}
    assert body["target"] == {"kind": "score", "value": 500}
    assert isinstance(body["version"], int)


@pytest.mark.parametrize(
    "body, expected",
    [
        ({"players": ["Anna"]}, "2 to 5"),
        ({"players": ["Anna", "anna"]}, "different players"),
        ({"players": "Anna, Boris"}, "players"),
        ({}, "players"),
        ({"players": ["Anna", ""]}, "players[1]"),
        ({"players": ["Anna", "Boris"], "target": {"kind": "forever", "value": 3}}, "Target"),
        # text that str.isdigit() would take but int() refuses, or takes a long while over
        ({"players": ["Anna", "Boris"], "target": {"kind": "score", "value": "²"}}, "whole number"),
        ({"players": ["Anna", "Boris"], "target": {"kind": "score", "value": "--5"}}, "whole number"),
        ({"players": ["Anna", "Boris"], "target": {"kind": "score", "value": "1" * 5000}}, "whole number"),
        ({"players": ["Anna", "Boris"], "game": "chess"}, '"chess": no such game'),
        ({"players": ["Anna", "Boris"], "rules": {"nope": 1}}, '"nope": no such house rule'),
    ],
)
def test_create_session_refuses_bad_input(client, store, body, expected):
    assert expected in assert_error(client.post(f"{API}/sessions", json=body), 400)
    assert store.recent_sessions() == []


def test_a_long_bad_value_is_not_echoed_whole_in_its_message(client, store):
    """A 5,000-character house-rule value or card comes back cut to 40 characters, marked with an ellipsis."""
    body = {"players": ["Anna", "Boris"], "rules": {"joker_limit": "x" * 5000}}
    message = assert_error(client.post(f"{API}/sessions", json=body), 400)
    assert '"' + "x" * 39 + '…" is not allowed' in message and len(message) < 300
    message = assert_error(client.post(f"{API}/melds/check", json={"cards": "5♥ " + "Z" * 5000}), 400)
    assert message == 'cards: "' + "Z" * 39 + '…": no such rank'
    assert store.recent_sessions() == []


def test_unknown_session_is_a_404(client):
    assert_error(client.get(f"{API}/sessions/nope"), 404)
    assert_error(client.get(f"{API}/sessions/nope/export"), 404)
    assert_error(client.post(f"{API}/sessions/nope/deals", json=DEAL, headers={"Authorization": "Bearer x"}), 404)


def test_recording_a_deal_needs_the_edit_token(client, store):
    s = new_session(client)
    url = f"{API}/sessions/{s['id']}/deals"
    response = client.post(url, json=DEAL)
    assert "Authorization: Bearer" in assert_error(response, 401)
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert_error(client.post(url, json=DEAL, headers={"Authorization": "Basic abc"}), 401)
    assert_error(client.post(url, json=DEAL, headers={"Authorization": "Bearer wrong"}), 403)
    other = new_session(client)
    assert_error(client.post(url, json=DEAL, headers=auth(other)), 403)
    assert store.list_deals(s["id"]) == []


def test_recording_a_deal_answers_scores_totals_and_version(client, store):
    s = new_session(client)
    version = client.get(f"{API}/sessions/{s['id']}").get_json()["version"]
    response = post_deal(client, s, key="k1")
    assert response.status_code == 201
    assert response.get_json() == {
        "number": 1,
        "players": DEAL_SCORES,
        "warnings": [],
        "totals": {"Anna": 35, "Boris": -5},
        "version": version + 1,
    }
    second = post_deal(client, s, key="k2").get_json()
    assert second["number"] == 2 and second["totals"] == {"Anna": 70, "Boris": -10}
    board = client.get(f"{API}/sessions/{s['id']}").get_json()
    assert board["totals"] == {"Anna": 70, "Boris": -10} and board["version"] == version + 2
    assert [d["number"] for d in board["deals"]] == [1, 2]
    first = board["deals"][0]
    assert first["players"] == DEAL_SCORES and first["override"] is False and first["note"] is None
    assert first["record"]["players"][1]["hand"] == "K♣ JK"
    assert len(store.list_deals(s["id"])) == 2


def test_same_idempotency_key_replays_the_answer_and_stores_once(client, store):
    s = new_session(client)
    first = post_deal(client, s, key="tap-1")
    again = post_deal(client, s, key="tap-1")
    assert (again.status_code, again.get_json()) == (first.status_code, first.get_json()) == (201, again.get_json())
    assert len(store.list_deals(s["id"])) == 1
    # After another deal, a late retry of the first still replays the first answer.
    post_deal(client, s, key="tap-2")
    late = post_deal(client, s, key="tap-1")
    assert late.get_json() == first.get_json()
    assert len(store.list_deals(s["id"])) == 2


@pytest.mark.parametrize("totals_known", [True, False], ids=["kept-with-the-deal", "saved-after"])
def test_a_key_sent_again_with_another_body_is_refused_and_stores_nothing(client, store, totals_known):
    """A retry sends the same body; the same key with another deal is a client's mistake (a reused counter,
    say): it is told so, instead of getting the first deal's answer as if the second had been stored."""
    s = new_session(client)
    if not totals_known:
        service.CACHE.clear()
    first = post_deal(client, s, key="deal-1")
    assert first.status_code == 201
    other = {**DEAL, "express": True}  # Anna went out in one turn: another deal
    refused = post_deal(client, s, body=other, key="deal-1")
    assert refused.status_code == 422
    assert "Idempotency-Key" in refused.get_json()["error"] and "nothing was stored" in refused.get_json()["error"]
    assert len(store.list_deals(s["id"])) == 1
    # the same body again is still a retry, answered as the first time
    assert post_deal(client, s, key="deal-1").get_json() == first.get_json()
    # and the other deal goes in under a key of its own
    assert post_deal(client, s, body=other, key="deal-2").status_code == 201
    assert len(store.list_deals(s["id"])) == 2


def test_a_key_used_for_a_deal_is_refused_by_the_draft_and_the_other_way_round(client, store):
    """A key names one request: sent to the other way of recording it is refused (422, nothing stored), not
    answered with the other request's deal as if this one had been recorded."""
    s = new_session(client)
    auth = {"Authorization": f"Bearer {s['edit_token']}"}
    assert post_deal(client, s, key="k-1").status_code == 201
    draft = f"{API}/sessions/{s['id']}/draft/record"
    refused = client.post(draft, json=DEAL, headers={**auth, "Idempotency-Key": "k-1"})  # the very same body
    assert refused.status_code == 422 and "Idempotency-Key" in refused.get_json()["error"]
    assert len(store.list_deals(s["id"])) == 1
    recorded = client.post(draft, json={"redeal": True}, headers={**auth, "Idempotency-Key": "k-2"})
    assert recorded.status_code == 201
    again = client.post(draft, json={"redeal": True}, headers={**auth, "Idempotency-Key": "k-2"})
    assert (again.status_code, again.get_json()) == (201, recorded.get_json())  # a retry is still a retry
    assert post_deal(client, s, body={"redeal": True}, key="k-2").status_code == 422
    assert len(store.list_deals(s["id"])) == 2


def test_a_retry_may_bring_its_version_up_to_date_and_reorder_its_fields(client, store):
    """A client whose answer was lost re-reads the session (its own deal moved the version on) and retries
    with the new version: in the body or in If-Match, it is the same request and gets the first answer."""
    s = new_session(client)
    seen = client.get(f"{API}/sessions/{s['id']}").get_json()["version"]
    first = post_deal(client, s, body={**DEAL, "version": seen}, key="k")
    assert first.status_code == 201
    now = client.get(f"{API}/sessions/{s['id']}").get_json()["version"]
    reordered = {"version": now, **{name: DEAL[name] for name in reversed(list(DEAL))}}
    again = post_deal(client, s, body=reordered, key="k")
    assert (again.status_code, again.get_json()) == (201, first.get_json())
    assert post_deal(client, s, body=DEAL, key="k", if_match=str(now)).get_json() == first.get_json()
    assert len(store.list_deals(s["id"])) == 1


def test_a_key_whose_deal_was_refused_may_carry_the_corrected_deal(client, store):
    """A 422 for a deal's problems stores nothing and keeps no answer: the corrected deal may be sent with
    the same key (the client's retry loop need not make a new one)."""
    s = new_session(client)
    bad = {
        "players": [{"name": "Anna", "melds": ["K♠ K♠ K♣"], "hand": ""}, {"name": "Boris", "hand": "5♣"}],
        "went_out": "Anna",
    }
    assert post_deal(client, s, body=bad, key="deal-1").status_code == 422
    assert post_deal(client, s, key="deal-1").status_code == 201
    assert len(store.list_deals(s["id"])) == 1


def test_a_key_sent_again_with_another_body_in_russian(client):
    s = new_session(client)
    post_deal(client, s, key="k")
    client.set_cookie("lang", "ru")
    refused = post_deal(client, s, body={**DEAL, "express": True}, key="k")
    assert refused.status_code == 422 and "Idempotency-Key" in refused.get_json()["error"]
    assert "ничего не сохранено" in refused.get_json()["error"].lower()


@pytest.mark.parametrize("totals_known", [True, False], ids=["kept-with-the-deal", "saved-after"])
def test_answer_for_a_key_is_kept_whether_or_not_the_totals_before_were_known(client, store, totals_known):
    """With the totals before the deal known, the answer is stored in the deal's own transaction; without
    them (a fresh server process), it is worked out from every deal and saved after. Both replay alike."""
    s = new_session(client)
    post_deal(client, s, key="first")
    if not totals_known:
        service.CACHE.clear()
    second = post_deal(client, s, key="second")
    assert second.status_code == 201 and second.get_json()["totals"] == {"Anna": 70, "Boris": -10}
    assert store.stored_response(s["id"], "second") == (201, second.get_json())
    service.CACHE.clear()
    assert post_deal(client, s, key="second").get_json() == second.get_json()
    assert len(store.list_deals(s["id"])) == 2


def test_a_deal_rolled_back_after_its_answer_was_made_leaves_no_trace_in_later_totals(client, store, monkeypatch):
    """The answer (and its totals) is made inside the deal's transaction; if the commit then fails, the
    totals counting that deal must not be kept for the recordings after it."""
    s = new_session(client)
    post_deal(client, s, key="a")

    def full_disk(*_args, **_kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(Store, "_claim_key", full_disk)
        assert post_deal(client, s, key="b").status_code == 503
    assert len(store.list_deals(s["id"])) == 1
    [first] = store.list_deals(s["id"])
    store.delete_deal(s["id"], first.id)  # takes the version the rolled-back deal would have made
    answer = post_deal(client, s, key="c").get_json()
    assert answer["number"] == 1 and answer["totals"] == {"Anna": 35, "Boris": -5}
    assert client.get(f"{API}/sessions/{s['id']}").get_json()["totals"] == answer["totals"]


def test_a_deal_recorded_after_a_deletion_takes_the_next_live_number(client, store):
    s = new_session(client)
    for key in ("a", "b", "c"):
        post_deal(client, s, key=key)
    second = store.list_deals(s["id"])[1]
    store.delete_deal(s["id"], second.id)
    answer = post_deal(client, s, key="d").get_json()
    assert answer["number"] == 3
    assert [d.number for d in store.list_deals(s["id"])] == [1, 2, 3]


def test_without_an_idempotency_key_each_post_stores_a_deal(client, store):
    s = new_session(client)
    post_deal(client, s)
    post_deal(client, s)
    assert len(store.list_deals(s["id"])) == 2


def test_deal_with_problems_is_a_422_and_stores_nothing(client, store):
    s = new_session(client)
    version = store.version(s["id"])
    response = post_deal(client, s, BAD_DEAL, key="bad")
    assert "override" in assert_error(response, 422)
    assert [p["code"] for p in response.get_json()["problems"]] == ["illegal_meld"]
    assert store.list_deals(s["id"]) == [] and store.version(s["id"]) == version


def test_override_with_a_note_is_stored(client, store):
    s = new_session(client)
    response = post_deal(client, s, {**BAD_DEAL, "override": True, "note": "Boris swears one was K♠"})
    assert response.status_code == 201
    [deal] = client.get(f"{API}/sessions/{s['id']}").get_json()["deals"]
    assert deal["override"] is True and deal["note"] == "Boris swears one was K♠"
    assert [p["code"] for p in deal["problems"]] == ["illegal_meld"]
    [stored] = store.list_deals(s["id"])
    assert stored.override is True and stored.note == "Boris swears one was K♠"


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"players": [DEAL["players"][0]]}, "Anna, Boris"),
        ({"game": "ordered-rummy"}, "kunken"),
        ({"rules": {"ace_points": 5}}, "ace_points"),
        ({"note": 5}, "note"),
        ({"override": "yes"}, "override"),
        ({"version": "three"}, "version"),
    ],
)
def test_recording_refuses_bad_deals(client, store, change, expected):
    s = new_session(client)
    assert expected in assert_error(post_deal(client, s, {**DEAL, **change}), 400)
    assert store.list_deals(s["id"]) == []


def test_other_rules_are_refused_in_the_clients_language(client, store):
    s = new_session(client, rules={"ace_points": 5})
    client.set_cookie("lang", "ru")
    game = assert_error(post_deal(client, s, {**DEAL, "game": "ordered-rummy"}), 400)
    assert game == "В этой записи играют в kunken, а не в ordered-rummy; не передавайте game."
    rules = assert_error(post_deal(client, s, {**DEAL, "rules": {"ace_points": 10, "decks": 2}}), 400)
    assert rules == "У записи остаются правила, с которыми её начали; отличаются: ace_points. Не передавайте rules."
    assert store.list_deals(s["id"]) == []


def test_deal_body_may_repeat_the_sessions_own_rules(client):
    s = new_session(client, rules={"ace_points": 5})
    response = post_deal(client, s, {**DEAL, "rules": {"ace_points": 5}})
    assert response.status_code == 201
    assert response.get_json()["players"][0] == {"name": "Anna", "plus": 20, "minus": 0, "score": 20}


def test_russian_card_notation_is_stored_canonically(client, store):
    s = new_session(client, players=["Анна", "Борис"])
    body = {
        "players": [
            {"name": "Анна", "melds": ["Тп Тч Тб"], "vists": [{"to": "Борис", "cards": "5ч"}], "hand": ""},
            {"name": "Борис", "melds": ["2ч 3ч 4ч"], "hand": "Кт дж"},
        ],
        "went_out": "Анна",
    }
    response = post_deal(client, s, body)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["totals"] == {"Анна": 35, "Борис": -5}
    [stored] = store.list_deals(s["id"])
    assert stored.record["players"][0]["melds"] == ["A♠ A♥ A♦"]
    assert stored.record["players"][1]["hand"] == "K♣ JK"


def test_stale_version_is_a_conflict(client, store):
    s = new_session(client)
    seen = store.version(s["id"])
    assert post_deal(client, s, if_match=str(seen)).status_code == 201
    assert "another device" in assert_error(post_deal(client, s, if_match=str(seen)), 409)
    assert_error(post_deal(client, s, {**DEAL, "version": seen}), 409)
    assert len(store.list_deals(s["id"])) == 1
    assert post_deal(client, s, if_match=f'"{seen + 1}"').status_code == 201
    assert_error(post_deal(client, s, if_match="yesterday"), 400)


def test_ended_session_refuses_deals(client, store):
    s = new_session(client)
    post_deal(client, s, key="before-end")
    store.end_session(s["id"])
    assert "ended" in assert_error(post_deal(client, s, key="after-end"), 409)
    assert len(store.list_deals(s["id"])) == 1
    # A retry of a request that succeeded before the end still gets its answer.
    assert post_deal(client, s, key="before-end").status_code == 201


# -- export and import ----------------------------------------------------------------------


def _played_session(client):
    s = new_session(
        client,
        players=["Anna", "Boris"],
        rules={"ace_points": 5, "joker_in_hand": 25},
        target={"kind": "deals", "value": 10},
    )
    assert post_deal(client, s).status_code == 201
    assert post_deal(client, s, {**BAD_DEAL, "override": True, "note": "table agreed"}).status_code == 201
    assert post_deal(client, s, {"players": ["Anna", "Boris"], "redeal": True}).status_code == 201
    return s


def test_export_holds_the_whole_session(client):
    s = _played_session(client)
    doc = client.get(f"{API}/sessions/{s['id']}/export").get_json()
    assert doc["format"] == "kunken-scorer/v1"
    assert doc["game"] == "kunken" and doc["rules"]["ace_points"] == 5 and doc["rules"]["joker_in_hand"] == 25
    assert doc["players"] == ["Anna", "Boris"] and doc["target"] == {"kind": "deals", "value": 10}
    assert doc["created_at"] and doc["ended_at"] is None
    assert [(d["override"], d["note"]) for d in doc["deals"]] == [(False, None), (True, "table agreed"), (False, None)]
    assert doc["deals"][2]["record"]["redeal"] is True
    # The session as GET shows it says the same about every deal, and adds its scores.
    board = client.get(f"{API}/sessions/{s['id']}").get_json()
    assert [{k: d[k] for k in ("number", "record", "override", "note")} for d in board["deals"]] == doc["deals"]
    assert {k: board[k] for k in ("id", "game", "rules", "players", "target")} == {
        k: doc[k] for k in ("id", "game", "rules", "players", "target")
    }


def test_import_makes_a_new_session_with_identical_scores(client):
    s = _played_session(client)
    doc = client.get(f"{API}/sessions/{s['id']}/export").get_json()
    response = client.post(f"{API}/sessions/import", json=doc)
    assert response.status_code == 201, response.get_json()
    copy_ = response.get_json()
    assert copy_["id"] != s["id"] and copy_["edit_token"] != s["edit_token"]
    assert _bits(copy_["id"]) >= 128 and _bits(copy_["edit_token"]) >= 128
    old = client.get(f"{API}/sessions/{s['id']}").get_json()
    new = client.get(f"{API}/sessions/{copy_['id']}").get_json()
    assert new["totals"] == old["totals"] == copy_["totals"]
    assert new["rules"] == old["rules"] and new["players"] == old["players"] and new["target"] == old["target"]
    assert new["deals"] == old["deals"]
    # The copy has its own token.
    assert post_deal(client, {"id": copy_["id"], "edit_token": s["edit_token"]}).status_code == 403
    assert post_deal(client, copy_).status_code == 201


def _count_sessions(store):
    return len(store.recent_sessions(limit=1000))


@pytest.mark.parametrize(
    "damage, status, expected",
    [
        (lambda d: d["deals"][1].update(override=False), 422, "Deal 2 has problems"),
        (lambda d: d["deals"][2]["record"]["players"].append("Vera"), 400, "Deal 3"),
        (lambda d: d["deals"][0]["record"]["players"][0].update(hand="Z♠"), 400, '"Z♠": no such rank'),
        (lambda d: d["deals"][0].pop("record"), 400, "Deal 1"),
        (lambda d: d.update(format="other/v9"), 400, "format"),
        (lambda d: d.update(players=["Anna"]), 400, "players"),
        (lambda d: d["rules"].update(ace_points="many"), 400, '“Points for an ace”: "many" is not allowed'),
        (lambda d: d.update(deals={"1": {}}), 400, "deals"),
        (lambda d: d.update(target={"kind": "deals", "value": "--5"}), 400, "whole number"),
    ],
)
def test_import_checks_everything_before_storing(client, store, damage, status, expected):
    s = _played_session(client)
    doc = client.get(f"{API}/sessions/{s['id']}/export").get_json()
    damage(doc)
    before = _count_sessions(store)
    response = client.post(f"{API}/sessions/import", json=doc)
    assert expected in assert_error(response, status)
    if status == 422:
        assert [p["code"] for p in response.get_json()["problems"]] == ["illegal_meld"]
    assert _count_sessions(store) == before


# -- malformed and hostile input ------------------------------------------------------------


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"", "JSON object"),
        (b"{", "not valid JSON"),
        (b"[1, 2]", "not a list"),
        (b'"cards"', "JSON object"),
        (b"\xff\xfe{}", "UTF-8"),
        (b'{"cards": NaN}', "not valid JSON"),
        (b'{"cards": "\\ud800"}', "Unicode"),
        (b"[" * 100000 + b"]" * 100000, "nested too deeply"),
        (b"\xef\xbb\xbf", "not valid JSON"),
        (b"\xef\xbb\xbf\xef\xbb\xbf{}", "second byte-order mark"),
    ],
)
def test_malformed_bodies_are_400s(client, data, expected):
    response = client.post(f"{API}/melds/check", data=data, content_type="application/json")
    assert expected in assert_error(response, 400)


def test_a_body_may_start_with_one_byte_order_mark(client):
    response = client.post(
        f"{API}/melds/check", data=b'\xef\xbb\xbf{"cards": "5h 6h 7h"}', content_type="application/json"
    )
    assert response.status_code == 200 and response.get_json()["legal"] is True


def test_too_large_body_is_a_413(client, app):
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = json.dumps({"cards": "A♠ " * (limit // 3)})
    assert_error(client.post(f"{API}/melds/check", data=body, content_type="application/json"), 413)


def test_wrong_method_and_unknown_path_answer_json(client):
    assert_error(client.get(f"{API}/melds/check"), 405)
    assert_error(client.get(f"{API}/no/such/thing"), 404)


HOSTILE_VALUES = [
    None,
    0,
    -1,
    1.5,
    10**30,
    True,
    "",
    " ",
    "x" * 5000,
    "\x00",
    "5♥\x00JK",
    "\u202e☃😀\u0301",
    "JK " * 500,
    [],
    [None],
    [[[]]],
    [{"a": 1}],
    ["JK"] * 300,
    {},
    {"a": None},
    {"players": [1]},
    json.loads("[" * 30 + '"deep"' + "]" * 30),
    {"kind": "deals", "value": 10**30},
]
HOSTILE_RAW = [
    b"",
    b"null",
    b"[]",
    b"[{}]",
    b"0",
    b"true",
    b'"\\u0000"',
    b"{}",
    b'{"a":',
    b"{" + b'"a":{' * 5000 + b"}" * 5001,
    b"[" * 50000 + b"]" * 50000,
    b"\xc3\x28",
    b"\x00" * 100,
    b'{"cards": 1e400, "players": -Infinity}',
    b'{"cards": "' + b"9" * 200000 + b'"}',
    b'{"players": ' + b"1" * 5000 + b"}",
    b'{"note": "\\udfff", "cards": "\\ud83d"}',
]


def _endpoints(client):
    s = new_session(client)
    doc = client.get(f"{API}/sessions/{s['id']}/export").get_json()
    return s, [
        (f"{API}/melds/check", {"game": "kunken", "cards": "5♥ JK 7♥", "table": ["6♥ 7♥ 8♥"], "rules": {}}, {}),
        (f"{API}/swaps/check", {"meld": "JK K♠ K♣", "card": "K♦", "table": []}, {}),
        (f"{API}/openings/check", {"melds": ["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "bank_card": "7♥", "has_layout": False}, {}),
        (f"{API}/discards/check", {"game": "ordered-rummy", "card": "Q♦", "melds": ["9♦ 10♦ J♦"]}, {}),
        (f"{API}/deals/score", copy.deepcopy(DEAL), {}),
        (f"{API}/sessions", {"players": ["Anna", "Boris"], "rules": {}, "target": None}, {}),
        (f"{API}/sessions/{s['id']}/deals", {**copy.deepcopy(DEAL), "override": False, "note": None}, auth(s)),
        (f"{API}/sessions/import", doc, {}),
    ]


def _mutations(body):
    """The body with each field (and each field of the first player and vist) replaced by hostile values."""
    fields = set(body) | {"game", "rules", "version", "override", "note", "format", "deals", "target"}
    for field in sorted(fields):
        for value in HOSTILE_VALUES:
            yield {**body, field: value}
    if isinstance(body.get("players"), list) and body["players"] and isinstance(body["players"][0], dict):
        for field in ("name", "melds", "vists", "hand"):
            for value in HOSTILE_VALUES:
                changed = copy.deepcopy(body)
                changed["players"][0][field] = value
                yield changed
        for field in ("to", "meld", "cards"):
            for value in HOSTILE_VALUES:
                changed = copy.deepcopy(body)
                changed["players"][0]["vists"][0][field] = value
                yield changed


def _assert_handled(response, what):
    assert response.status_code < 500, (what, response.status_code, response.get_data(as_text=True)[:300])
    body = response.get_json(silent=True)
    assert isinstance(body, dict), (what, response.get_data()[:300])
    if response.status_code >= 400:
        assert isinstance(body.get("error"), str) and body["error"], (what, body)


def test_hostile_bodies_never_cause_a_500(client):
    s, endpoints = _endpoints(client)
    sent = 0
    for url, body, headers in endpoints:
        for raw in HOSTILE_RAW:
            _assert_handled(
                client.post(url, data=raw, content_type="application/json", headers=headers), (url, raw[:40])
            )
            sent += 1
        for value in HOSTILE_VALUES:
            _assert_handled(client.post(url, json=value, headers=headers), (url, value))
            sent += 1
        for changed in _mutations(body):
            _assert_handled(client.post(url, json=changed, headers=headers), (url, changed))
            sent += 1
    assert sent > 1000


def test_hostile_headers_and_paths_never_cause_a_500(client):
    s = new_session(client)
    url = f"{API}/sessions/{s['id']}/deals"
    for headers in [
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer " + "x" * 10000},
        {"Authorization": "bearer \x7f\x01"},
        {"Authorization": "Bearer é"},
        auth(s, **{"Idempotency-Key": "k" * 1000}),
        auth(s, **{"If-Match": 'W/"1"'}),
        auth(s, **{"If-Match": "1" * 100}),
        auth(s, **{"If-Match": "٣"}),
        auth(s, **{"Accept-Language": "ru;q=abc, *"}),
        {"Cookie": "lang=xx"},
    ]:
        _assert_handled(client.post(url, json=DEAL, headers=headers), headers)
    for sid in ["%00", "x" * 3000, "%F0%9F%98%80", "..", "%2e%2e%2fetc", "' OR 1=1 --"]:
        for path in (f"{API}/sessions/{sid}", f"{API}/sessions/{sid}/export"):
            _assert_handled(client.get(path), path)
        _assert_handled(client.post(f"{API}/sessions/{sid}/deals", json=DEAL, headers=auth(s)), sid)
    assert_error(client.post(url, json=DEAL, headers=auth(s, **{"Idempotency-Key": "k" * 1000})), 400)


COPIES_DEAL = {
    "players": [
        {"name": "Anna", "melds": ["9♣ JK J♣"], "hand": ""},
        {"name": "Boris", "melds": ["10♣ 10♥ 10♠"], "hand": "2♣"},
        {"name": "Vera", "melds": ["10♣ 10♦ 10♠"], "hand": "3♣"},
    ],
    "went_out": "Anna",
}


def scores(answer: dict) -> dict:
    return {p["name"]: p["score"] for p in answer["players"]}


# -- swaps, short hands and warnings ----------------------------------------------------------------


@pytest.mark.lang("en")
def test_score_the_swap_example(client):
    response = client.post(f"{API}/deals/score", json=SWAP_DEAL)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["valid"] is True and answer["warnings"] == []
    assert scores(answer) == {"Anna": 20, "Boris": 25 - 15}


@pytest.mark.lang("en")
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


@pytest.mark.lang("en")
def test_a_wrong_swap_is_a_422_with_its_sentence(client):
    session = new_session(client)
    body = dict(SWAP_DEAL, swaps=[{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♠"}])
    response = post_deal(client, session, body)
    assert response.status_code == 422
    answer = response.get_json()
    assert [p["code"] for p in answer["problems"]] == ["illegal_swap"]
    assert "K♠" in answer["problems"][0]["message"]
    assert answer["warnings"] == []


@pytest.mark.lang("en")
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


@pytest.mark.lang("en")
def test_the_meld_check_with_a_table_still_enforces_both_copies(client):
    answer = client.post(
        f"{API}/melds/check", json={"cards": "9♣ JK J♣", "table": ["10♣ 10♥ 10♠", "10♣ 10♦ 10♠"]}
    ).get_json()
    assert answer["legal"] is False


@pytest.mark.lang("en")
@pytest.mark.parametrize(
    "game, hand, field",
    [
        ("kunken", {"small": -1}, "players[1].hand.small"),
        ("kunken", {"faces": 0.5}, "players[1].hand.faces"),
        ("kunken", {"queens": 1}, "players[1].hand.queens"),
        ("kunken", {"points": 12}, "players[1].hand.points"),
        ("kunken", {"points": "30"}, "players[1].hand.points"),
        ("ordered-rummy", {"small": 1}, "players[1].hand.small"),
        ("ordered-rummy", {"points": -1, "jokers": 1}, "players[1].hand.points"),
    ],
)
def test_bad_counts_are_a_400_naming_the_field(client, game, hand, field):
    body = {"game": game, "players": [{"name": "Anna"}, {"name": "Boris", "hand": hand}]}
    response = client.post(f"{API}/deals/score", json=body)
    assert response.status_code == 400
    assert field in response.get_json()["error"]


@pytest.mark.lang("en")
def test_bad_counts_when_recording_store_nothing(client):
    session = new_session(client)
    body = dict(SWAP_DEAL, players=[SWAP_DEAL["players"][0], {"name": "Boris", "hand": {"small": -2}}])
    response = post_deal(client, session, body)
    assert response.status_code == 400
    assert "players[1].hand.small" in response.get_json()["error"]
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"] == []


@pytest.mark.lang("en")
def test_swap_check_knows_the_layout(client):
    body = {"meld": "JK K♠ K♣", "card": "K♦"}
    assert client.post(f"{API}/swaps/check", json=body).get_json() == {"legal": True, "reasons": []}
    answer = client.post(f"{API}/swaps/check", json={**body, "has_layout": False}).get_json()
    assert answer["legal"] is False and "meld of their own" in answer["reasons"][0]
    bad = client.post(f"{API}/swaps/check", json={**body, "has_layout": "yes"})
    assert bad.status_code == 400 and "has_layout" in bad.get_json()["error"]
    third = client.post(f"{API}/swaps/check", json={**body, "table": ["K♦ K♦ K♥"]}).get_json()
    assert third == {"legal": False, "reasons": ["K♦ is recorded 3 times; the decks hold only 2."]}
    one_deck = {**body, "table": ["J♦ Q♦ K♦"], "rules": {"decks": 1}}
    assert client.post(f"{API}/swaps/check", json=one_deck).get_json()["reasons"] == [
        "K♦ is recorded 2 times; the decks hold only 1."
    ]


@pytest.mark.lang("en")
def test_swap_check_asks_whose_meld_it_is(client):
    body = {"meld": "JK K♠ K♣", "card": "K♦"}
    other = client.post(f"{API}/swaps/check", json={**body, "own_meld": False}).get_json()
    assert other == {"legal": True, "reasons": []}  # false is what leaving it out says: another player's meld
    own = client.post(f"{API}/swaps/check", json={**body, "own_meld": True}).get_json()
    assert own == {
        "legal": False,
        "reasons": [
            "A joker may be swapped out of the other players' melds only, not out of one's own: this table plays "
            "without the house rule “A joker may be swapped out of one's own melds too”."
        ],
    }
    house = {**body, "own_meld": True, "rules": {"swap_own_melds": True}}
    assert client.post(f"{API}/swaps/check", json=house).get_json() == {"legal": True, "reasons": []}
    ordered = {**body, "own_meld": True, "game": "ordered-rummy"}
    assert client.post(f"{API}/swaps/check", json=ordered).get_json()["legal"] is False  # off in both games
    # a card that could not replace the joker anyway says why it could not
    wrong = client.post(f"{API}/swaps/check", json={**body, "card": "K♠", "own_meld": True}).get_json()
    assert wrong["reasons"] == ["K♠ cannot replace the joker: the set already holds K♠."]
    for value in ("yes", 1, None, [True]):
        bad = client.post(f"{API}/swaps/check", json={**body, "own_meld": value})
        assert bad.status_code == 400 and bad.get_json()["error"] == "own_meld: expected true or false."


def test_swap_check_says_in_russian_why_ones_own_meld_is_refused(client):
    body = {"meld": "JK K♠ K♣", "card": "K♦", "own_meld": True}
    answer = client.post(f"{API}/swaps/check", json=body, headers={"Accept-Language": "ru"}).get_json()
    assert answer["legal"] is False
    assert answer["reasons"] == [
        "Джокера можно заменить только в выкладках партнёров, не в своих: за этим столом не играют по домашнему "
        "правилу «Джокера можно заменить и в своих выкладках»."
    ]
    bad = client.post(f"{API}/swaps/check", json={**body, "own_meld": "да"}, headers={"Accept-Language": "ru"})
    assert bad.status_code == 400
    assert bad.get_json()["error"] == "own_meld: неверное значение, ожидается: true или false."


# -- a rule set where no card is worth anything ----------------------------------------------------


@pytest.mark.lang("en")
def test_no_card_worth_anything_is_no_500(client):
    body = {
        "rules": {"ace_points": 0},
        "game": "kunken",
        "players": [{"name": "A", "hand": {"points": 0}}, {"name": "B", "hand": {"points": 5}}],
    }
    assert client.post(f"{API}/deals/score", json=body).status_code == 200


# -- the language of the answers -------------------------------------------------------------------


def test_the_api_answers_in_english_unless_the_client_asks_for_russian(client):
    body = {"cards": "K♠ 11♥ K♦"}
    english = client.post("/api/v1/melds/check", json=body).get_json()["error"]
    russian = client.post("/api/v1/melds/check", json=body, headers={"Accept-Language": "ru"}).get_json()["error"]
    client.set_cookie("lang", "ru")
    cookie = client.post("/api/v1/melds/check", json=body).get_json()["error"]
    assert "no such rank" in english and "11♥" in english
    assert "11♥" in russian and "no such rank" not in russian and russian == cookie
    client.delete_cookie("lang")
    checked = client.post("/api/v1/melds/check", json={"cards": "K♦ K♦ K♥"}, headers={"Accept-Language": "ru"})
    assert "К♦" in checked.get_json()["reasons"][0] and "set may not" not in checked.get_json()["reasons"][0]


# -- found by fuzzing the rules core: numbers too big to print -------------------------------------


def test_a_meld_number_past_the_last_meld_is_refused_before_it_reaches_a_message(client):
    """4,300 nines pass the JSON reader; one more (to count from 1) would be an int without a str()."""
    for meld in (int("9" * 4300), 40):
        vist = {
            "players": [
                {"name": "Anna", "melds": ["2♥ 3♥ 4♥"], "vists": [{"to": "Anna", "meld": meld, "cards": "5♥"}]},
                {"name": "Boris", "hand": "K♠"},
            ],
            "went_out": "Anna",
        }
        swap = {
            "players": [{"name": "Anna", "melds": ["2♥ 3♥ JK"]}, {"name": "Boris", "melds": ["5♠ 6♠ 7♠"]}],
            "swaps": [{"by": "Boris", "from": "Anna", "meld": meld, "card": "4♥"}],
        }
        assert "vists[0].meld" in assert_error(client.post(f"{API}/deals/score", json=vist), 400)
        assert "swaps[0].meld" in assert_error(client.post(f"{API}/deals/score", json=swap), 400)
    vist["players"][0]["vists"][0]["meld"] = 39  # no such meld: a problem of the deal, scored all the same
    body = client.post(f"{API}/deals/score", json=vist).get_json()
    assert [p["code"] for p in body["problems"]] == ["vist_no_meld"]


def test_a_short_form_hand_holds_no_more_jokers_than_the_decks(client):
    """With each joker doubling the minus, 14,300 jokers made a score no JSON answer could print."""
    rules = {"joker_in_hand": "double"}
    hand = {"name": "Boris", "hand": {"points": 5, "jokers": 14300}}
    deal = {"rules": rules, "players": [{"name": "Anna", "melds": ["2♥ 3♥ 4♥"]}, hand]}
    assert "holds 14303 cards" in assert_error(client.post(f"{API}/deals/score", json=deal), 400)  # the card cap
    hand["hand"]["jokers"] = 5
    assert "players[1].hand.jokers: at most 4" in assert_error(client.post(f"{API}/deals/score", json=deal), 400)
    hand["hand"]["jokers"] = 4
    body = client.post(f"{API}/deals/score", json=deal).get_json()
    assert body["players"][1]["minus"] == 5 * 2**4
    wild = {**deal, "rules": {"wild_card": "2♣"}}
    hand["hand"]["jokers"] = 3  # two decks hold two wild 2♣
    assert "at most 2" in assert_error(client.post(f"{API}/deals/score", json=wild), 400)


def test_a_house_rule_value_too_long_to_print_is_refused_with_a_message(client, store):
    body = {"players": ["Anna", "Boris"], "rules": {"ace_points": int("9" * 4300)}}
    message = assert_error(client.post(f"{API}/sessions", json=body), 400)
    assert "Points for an ace" in message and len(message) < 300
    body = {"players": ["Anna", "Boris"], "rules": {"s" * 5000: 1}}
    assert "s" * 39 + "…" in assert_error(client.post(f"{API}/sessions", json=body), 400)
    assert store.recent_sessions() == []


def test_a_deal_of_more_cards_than_any_decks_deal_is_refused_before_it_is_scored(client):
    """12 players with 40 melds and 40 vists each took a second or more to score; no decks deal that many."""
    names = [f"P{i}" for i in range(12)]
    big = {
        "players": [
            {"name": n, "melds": ["5♥ 6♥ 7♥"] * 40, "vists": [{"to": names[(i + 1) % 12], "cards": "A♣"}] * 40}
            for i, n in enumerate(names)
        ]
    }
    message = assert_error(client.post(f"{API}/deals/score", json=big), 400)
    assert message == "The deal holds 1920 cards, more than any decks deal; a deal of at most 432 cards is read."
    for player in big["players"]:  # 12 × (8 melds of 3 + 12 vists of 1) = 432 cards: read and scored
        player["melds"], player["vists"] = player["melds"][:8], player["vists"][:12]
    body = client.post(f"{API}/deals/score", json=big).get_json()
    assert len(body["players"]) == 12 and not body["valid"]


@pytest.mark.parametrize(
    ("target", "after_one", "after_two", "out"),
    [
        (None, False, False, []),
        ({"kind": "deals", "value": 2}, False, True, []),
        ({"kind": "score", "value": 70}, False, True, []),  # Anna 35, then 70
        ({"kind": "penalty", "value": 10}, False, True, ["Boris"]),  # Boris −5, then −10
    ],
)
def test_a_session_says_when_its_target_is_reached_and_who_is_out(client, target, after_one, after_two, out):
    session = new_session(client, target=target)
    url = f"{API}/sessions/{session['id']}"
    fresh = client.get(url).get_json()
    assert (fresh["target_reached"], fresh["out"]) == (False, [])
    assert post_deal(client, session).status_code == 201
    assert (client.get(url).get_json()["target_reached"], client.get(url).get_json()["out"]) == (after_one, [])
    assert post_deal(client, session).status_code == 201  # the session stays open: the scorer ends it
    sheet = client.get(url).get_json()
    assert (sheet["target_reached"], sheet["out"], sheet["ended_at"]) == (after_two, out, None)


@pytest.mark.parametrize("depth", [*range(900, 1000, 4), 2000, 100_000])  # about where the stack runs out
def test_a_switch_value_nested_deep_is_a_400_at_any_depth(client, depth):
    raw = '{"cards": "A♠ A♥ A♦", "rules": {"joker_limit": ' + "[" * depth + "]" * depth + "}}"
    response = client.post(f"{API}/melds/check", data=raw.encode(), content_type="application/json")
    assert_error(response, 400)


@pytest.mark.lang("en")
@pytest.mark.parametrize("went_out", ["x" * 41, "Anna\x00", "\u202eAnna"])
def test_went_out_is_a_name_like_any_other(client, went_out):
    """``went_out`` is read as a player's name (1 to 40 printable characters), as vists' and swaps' names are:
    nothing else is scored or stored."""
    body = {**DEAL, "went_out": went_out}
    answer = client.post(f"{API}/deals/score", json=body)
    assert answer.status_code == 400 and "went_out" in answer.get_json()["error"]
    session = new_session(client)
    assert post_deal(client, session, {**body, "override": True, "note": "why"}).status_code == 400
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"] == []
    assert client.post(f"{API}/deals/score", json={**DEAL, "went_out": "  Anna  "}).get_json()["valid"] is True


@pytest.mark.lang("en")
def test_a_note_with_control_characters_is_refused_and_line_breaks_are_kept(client):
    session = new_session(client)
    refused = post_deal(client, session, {**DEAL, "note": "beep\x07\x1b[2J"})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "note: a note may not hold control characters."
    assert post_deal(client, session, {**DEAL, "note": "two\nlines\tand a tab"}).status_code == 201
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"][0]["note"] == "two\nlines\tand a tab"


@pytest.mark.lang("en")
def test_names_written_with_joiners_are_welcome_and_disguised_ones_are_told_why(client):
    for name in ("زهره\u200cسادات", "👩\u200d🚀"):
        assert client.post(f"{API}/sessions", json={"players": [name, "Boris"]}).status_code == 201
    refused = client.post(f"{API}/sessions", json={"players": ["\u202eAnna", "Boris"]})
    assert refused.status_code == 400
    assert "may not hold control characters or invisible formatting marks" in refused.get_json()["error"]


@pytest.mark.lang("en")
def test_get_on_the_import_address_is_405_not_an_unknown_session(client):
    answer = client.get(f"{API}/sessions/import")
    assert answer.status_code == 405 and answer.headers["Allow"] == "POST"
    assert answer.get_json() == {"error": "That action is not allowed here."}
    assert "POST" in client.put(f"{API}/sessions/import").headers["Allow"]  # any 405 names the methods it takes
    assert "GET" in client.post(f"{API}/health").headers["Allow"]


def test_recordings_at_once_after_an_edit_each_answer_the_totals_right_after_their_deal(app, store):
    """After an edit no tally is kept for the session's version: each recording works it out before taking
    the write lock (the session and its deals read at one moment), and answers the totals after its own
    deal, whatever the others committed meanwhile (6 answers in 60 held a later deal's totals)."""
    client = app.test_client()
    session = new_session(client)
    assert post_deal(client, session).status_code == 201
    for _ in range(5):
        first = store.list_deals(session["id"])[0]
        store.update_deal(
            session["id"], first.id, first.record, override=False, note=None, expected_revision=first.revision
        )
        barrier, answers = threading.Barrier(3), []

        def record(barrier=barrier, answers=answers):
            mine = app.test_client()
            barrier.wait()
            answers.append(post_deal(mine, session).get_json())

        threads = [threading.Thread(target=record) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        per_deal = {
            d["number"]: d["players"] for d in client.get(f"{API}/sessions/{session['id']}").get_json()["deals"]
        }
        for answer in answers:
            expected = {
                name: sum(p["score"] for n in range(1, answer["number"] + 1) for p in per_deal[n] if p["name"] == name)
                for name in answer["totals"]
            }
            assert answer["totals"] == expected, (answer, per_deal)
