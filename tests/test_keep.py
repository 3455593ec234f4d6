"""A phone that sends again what it never heard answered stores nothing twice (issue 33).

The browser side (what a phone keeps, the offline paths) is in test_browser_offline.py; these are
the server's answers a resending phone relies on.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from conftest import CSRF, deal_data, hidden, text

from kunken_scorer import RuleSet
from kunken_scorer.core.draft import read_part
from kunken_scorer.store import Conflict

NAMES = ["Anna", "Boris"]
ANNA = {"melds": ["A♠ A♥ A♦"], "vists": [], "swaps": [], "hand": ""}


@pytest.fixture
def sid(store):
    return store.create_session("kunken", RuleSet.preset().to_dict(), NAMES, None)[0].id


def test_the_same_part_sent_again_is_stored_once_and_a_different_one_is_still_refused(store, sid):
    first = store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")
    version = store.draft(sid).version
    again = store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")  # the answer was lost
    assert again.revision == first.revision == 1
    assert again.written_at == first.written_at and again.part == first.part
    assert store.draft(sid).version == version  # nothing written: the other phones see no change
    with pytest.raises(Conflict):  # another part on a stale revision is still a conflict
        store.save_part(sid, 0, read_part({"melds": ["K♠ K♥ K♦"]}), revision=0, by="player")
    with pytest.raises(Conflict):  # and removing it too
        store.save_part(sid, 0, None, revision=0, by="player")


def test_the_api_answers_a_repeated_part_write_with_the_stored_part(client):
    created = client.post("/api/v1/sessions", json={"players": NAMES}).get_json()
    sid, token = created["id"], created["edit_token"]
    seat = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()["seat_token"]
    url = f"/api/v1/sessions/{sid}/draft/parts/0"
    body = {"revision": 0, "melds": ["A♠ A♥ A♦"]}
    first = client.put(url, json=body, headers={"Authorization": f"Bearer {seat}"})
    again = client.put(url, json=body, headers={"Authorization": f"Bearer {seat}"})
    assert first.status_code == again.status_code == 200
    assert again.get_json()["revision"] == first.get_json()["revision"] == 1
    other = client.put(url, json={"revision": 0, "melds": ["K♠ K♥ K♦"]}, headers={"Authorization": f"Bearer {token}"})
    assert other.status_code == 409 and other.get_json()["current"]["revision"] == 1


def test_a_part_page_sent_again_after_a_lost_answer_says_stored_not_changed_elsewhere(client):
    created = client.post("/api/v1/sessions", json={"players": NAMES}).get_json()
    sid = created["id"]
    page = text(
        client.post(
            f"/s/{sid}/seat",
            data={"seat": "0", "csrf_token": CSRF.search(text(client.get(f"/s/{sid}"))).group(1)},
            follow_redirects=True,
        )
    )
    fields = dict(re.findall(r'name="(csrf_token|deal|draft|revision)"[^>]*value="([^"]*)"', page))
    form = {**fields, "player-melds": "A♠ A♥ A♦", "hand_mode": "cards", "autosave": "1"}
    first = client.post(f"/s/{sid}/draft/0", data=form)
    again = client.post(f"/s/{sid}/draft/0", data=form)  # the same save, its answer never heard
    assert first.status_code == again.status_code == 200
    assert 'data-revision="1"' in text(again) and 'id="conflict"' not in text(again)
    changed = client.post(f"/s/{sid}/draft/0", data={**form, "player-melds": "K♠ K♥ K♦"})
    assert changed.status_code == 409 and 'id="conflict"' in text(changed)


def test_the_pages_that_keep_typing_say_where_it_is_kept(client):
    """The part page and the deal form carry the key of the phone's copy and every state's words."""
    created = client.post("/api/v1/sessions", json={"players": NAMES}).get_json()
    sid = created["id"]
    client.get(urlsplit(created["edit_url"]).path)  # the scorer link: this client records
    form = text(client.get(f"/s/{sid}/deals/new"))
    assert f'data-keep="deal:{sid}:new"' in form
    for state in ("new", "local", "local-save", "sending", "refused", "choose"):
        assert f"data-words-{state}=" in form, state
    assert re.search(r'<section id="keep-choice"[^>]*\shidden[\s>]', form)  # hidden until two versions


def test_the_service_worker_is_served_from_the_root_and_never_cached_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.data
    page = text(client.get("/"))
    assert 'data-sw="/sw.js"' in page and "/static/keep.js" in page


def scorer(app):
    """A phone that started a session through the API and opened its scorer link; (its client, the API's answer)."""
    client = app.test_client()
    client.set_cookie("lang", "en")
    created = client.post("/api/v1/sessions", json={"players": NAMES}).get_json()
    client.get(urlsplit(created["edit_url"]).path)
    return client, created


def test_a_form_key_sent_again_with_another_deal_records_nothing_and_asks_to_save_again(app, store):
    """A deal form kept offline (or brought back from the phone) may carry the key of a deal already
    recorded: the same deal again is a retry, another deal is not taken for one."""
    client, created = scorer(app)
    sid = created["id"]
    page = text(client.get(f"/s/{sid}/deals/new"))
    first = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}, "Anna")
    assert client.post(f"/s/{sid}/deals/new", data={**first, "save": "1"}).status_code == 303
    retry = client.post(f"/s/{sid}/deals/new", data={**first, "save": "1"}, follow_redirects=True)
    assert "was already saved; it was not recorded twice" in text(retry)
    other = {**first, "players-1-hand": "Q♠", "expected": str(store.version(sid))}
    answer = client.post(f"/s/{sid}/deals/new", data={**other, "save": "1"})
    assert answer.status_code == 409 and "nothing was recorded" in text(answer)
    assert len(store.list_deals(sid)) == 1
    fresh_key = hidden(text(answer), "form_key")
    assert fresh_key != first["form_key"]
    again = client.post(f"/s/{sid}/deals/new", data={**other, "form_key": fresh_key, "save": "1"})
    assert again.status_code == 303 and len(store.list_deals(sid)) == 2


def test_a_saved_form_sent_again_after_the_session_ended_is_told_it_was_saved(app, store):
    """A Save kept on a phone (offline, or its answer lost) and sent again after the scorer ended the session: its deal
    was recorded, so it is told so (as the API replays its key), not "ended" (which would keep it as not accepted).
    A form that recorded nothing is still turned away."""
    client, created = scorer(app)
    sid = created["id"]
    page = text(client.get(f"/s/{sid}/deals/new"))
    sent = {**deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}, "Anna"), "save": "1"}
    unsent = {**sent, "form_key": hidden(text(client.get(f"/s/{sid}/deals/new")), "form_key")}
    assert client.post(f"/s/{sid}/deals/new", data=sent).status_code == 303
    assert client.post(f"/api/v1/sessions/{sid}/end", headers={"Authorization": f"Bearer {created['edit_token']}"})
    keep = {"X-Kunken-Keep": "1"}  # as static/keep.js sends a kept Save
    again = client.post(f"/s/{sid}/deals/new", data=sent, headers=keep)
    assert again.status_code == 303 and again.location.endswith(f"/s/{sid}")
    assert "Deal 1 was already saved; it was not recorded twice." in text(client.get(again.location))
    refused = client.post(f"/s/{sid}/deals/new", data=unsent, headers=keep)
    assert refused.status_code == 409 and "This session has ended" in text(refused)
    assert client.get(f"/s/{sid}/deals/new").status_code == 303  # the form itself is not offered
    changed = {**sent, "players-1-hand": "Q♠"}  # the kept form amended after its answer was lost: nothing to record
    refused = client.post(f"/s/{sid}/deals/new", data=changed, headers=keep)
    assert refused.status_code == 409 and "This session has ended" in text(refused)
    # the key lets a recording form through, and nothing else: the hand entry stays as it was
    way = store.get_session(sid).hand_entry
    other = {"csrf_token": sent["csrf_token"], "form_key": sent["form_key"], "hand_entry": "counts"}
    assert client.post(f"/s/{sid}/hand-entry", data=other).status_code == 303
    assert store.get_session(sid).hand_entry == way
    assert len(store.list_deals(sid)) == 1
