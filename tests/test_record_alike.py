"""The pages and the API record a deal by one rule (``service.record_anyway``, issue 34).

A deal with problems is stored only with "record anyway" and a note; a valid deal is never stored as
recorded anyway. Each way of recording is tried with the same two deals: the deal form, the draft of
the players' phones (page and API), and ``POST …/deals``.
"""

from __future__ import annotations

import pytest
from conftest import API, DEAL, auth, deal_data, new_session, text

from kunken_scorer.service import record_anyway
from kunken_scorer.store import Store

#: Boris's second meld holds K♦ twice: a problem. Anna's meld and Boris's run are fine.
BAD = {
    **DEAL,
    "players": [DEAL["players"][0], {**DEAL["players"][1], "melds": ["2♥ 3♥ 4♥", "K♦ K♦ K♥"]}],
}
BAD_FORM = {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥\nK♦ K♦ K♥", "", "K♣ JK")}
GOOD_FORM = {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}


def stored(app, sid: str) -> list[tuple[bool, str | None]]:
    """(override, note) of every deal the session holds."""
    store = Store.open(app.config["DATABASE"])
    try:
        return [(d.override, d.note) for d in store.list_deals(sid)]
    finally:
        store.close()


def scorer_client(app):
    """A client that started a session through the API and opened its scorer link (it records on the pages)."""
    client = app.test_client()
    client.set_cookie("lang", "en")
    session = new_session(client)
    client.get("/" + session["edit_url"].split("://", 1)[1].split("/", 1)[1])
    return client, session


def by_form(client, session, players, **flags):
    sid = session["id"]
    page = text(client.get(f"/s/{sid}/deals/new"))
    return client.post(f"/s/{sid}/deals/new", data={**deal_data(page, players, "Anna", **flags), "save": "1"})


def by_api(client, session, body, **flags):
    return client.post(f"{API}/sessions/{session['id']}/deals", json={**body, **flags}, headers=auth(session))


def by_draft_api(client, session, body, **flags):
    sid = session["id"]
    for seat, player in enumerate(body["players"]):
        part = {k: v for k, v in player.items() if k != "name"}
        answer = client.put(
            f"{API}/sessions/{sid}/draft/parts/{seat}", json={"revision": 0, **part}, headers=auth(session)
        )
        assert answer.status_code == 200, answer.get_json()
    return client.post(f"{API}/sessions/{sid}/draft/record", json={"went_out": "Anna", **flags}, headers=auth(session))


@pytest.mark.parametrize("way", ["form", "api", "draft-api"])
def test_a_deal_with_problems_and_no_note_is_refused_by_every_way(app, way):
    client, session = scorer_client(app)
    if way == "form":
        answer = by_form(client, session, BAD_FORM, override=True)
        assert answer.status_code == 422 and "Write why the deal is recorded anyway" in text(answer)
    elif way == "api":
        answer = by_api(client, session, BAD, override=True)
        assert answer.status_code == 422 and answer.get_json()["problems"]
    else:
        answer = by_draft_api(client, session, BAD, override=True)
        assert answer.status_code == 422 and answer.get_json()["problems"]
    assert stored(app, session["id"]) == []


@pytest.mark.parametrize("way", ["form", "api", "draft-api"])
def test_a_deal_with_problems_is_recorded_anyway_with_override_and_a_note(app, way):
    client, session = scorer_client(app)
    note = "Boris swears one was K♠"
    if way == "form":
        answer = by_form(client, session, BAD_FORM, override=True, note=note)
        assert answer.status_code == 303
    elif way == "api":
        assert by_api(client, session, BAD, override=True, note=note).status_code == 201
    else:
        assert by_draft_api(client, session, BAD, override=True, note=note).status_code == 201
    assert stored(app, session["id"]) == [(True, note)]


@pytest.mark.parametrize("way", ["form", "api", "draft-api"])
def test_a_valid_deal_sent_with_override_is_stored_as_not_overridden_by_every_way(app, way):
    client, session = scorer_client(app)
    if way == "form":
        assert by_form(client, session, GOOD_FORM, override=True, note="just in case").status_code == 303
    elif way == "api":
        assert by_api(client, session, DEAL, override=True, note="just in case").status_code == 201
    else:
        assert by_draft_api(client, session, DEAL, override=True, note="just in case").status_code == 201
    [(override, _note)] = stored(app, session["id"])
    assert override is False


def test_the_rule_itself():
    class Report:
        def __init__(self, problems):
            self.problems = problems

    assert record_anyway(Report(["x"]), True, "why").override is True
    assert record_anyway(Report(["x"]), True, "  ").missing == ("note",)
    assert record_anyway(Report(["x"]), False, None).missing == ("override", "note")
    assert record_anyway(Report([]), True, "why").override is False
    assert not record_anyway(Report([]), False, None).refused


def imported(client, session, body, **flags) -> dict:
    """The session exported with ``body`` as its one deal, marked as ``flags`` say, and imported: the new session."""
    document = client.get(f"{API}/sessions/{session['id']}/export").get_json()
    record = {k: v for k, v in body.items() if k not in ("override", "note")}
    document["deals"] = [{"number": 1, "record": record, **flags}]
    answer = client.post(f"{API}/sessions/import", json=document)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_an_import_records_by_the_same_rule(app):
    """An exported deal is read as a recording is: a valid deal is never marked (its blank note is none), a deal with
    problems needs its mark; one recorded anyway before a note was asked for (an older export) keeps it without one."""
    client, session = scorer_client(app)
    valid = imported(client, session, DEAL, override=True, note="   ")
    assert stored(app, valid["id"]) == [(False, None)]
    marked = imported(client, session, BAD, override=True, note=" Boris swears one was K♠ ")
    assert stored(app, marked["id"]) == [(True, "Boris swears one was K♠")]
    older = imported(client, session, BAD, override=True)
    assert stored(app, older["id"]) == [(True, None)]
    document = client.get(f"{API}/sessions/{session['id']}/export").get_json()
    document["deals"] = [{"number": 1, "record": BAD, "override": False, "note": "why"}]
    refused = client.post(f"{API}/sessions/import", json=document)
    assert refused.status_code == 422 and refused.get_json()["problems"]
