"""One player, one name (issue 47): two names of one person merged on /players, and the merge undone.

Through the Flask test client on a real SQLite file: "Лёня" typed both Unicode ways is one player already; merged
into "Леня", the two are one row on /players and in the API, their sessions summed and the rating replayed as if
the name had been typed one way from the start (checked against a second file where it was); undone, every number
is what it was. Two names that sat at one table are refused; chains follow; the form and the API refuse bad input
with a 4xx and change nothing; the members' gate holds for merging as for viewing.
"""

from __future__ import annotations

import re

import pytest
from conftest import API, CSRF, auth, new_session, text

from kunken_scorer.core.fields import player_key
from kunken_scorer.service import refresh_stale_stats
from kunken_scorer.service.stats import MergedInto, Tally, stats_rows
from kunken_scorer.store import Store
from kunken_scorer.web import create_app

pytestmark = pytest.mark.lang("en")

YO = "Лёня"  # ё as one letter
YO_TYPED = "Ле\u0308ня"  # е and a combining diaeresis: the same name, typed the other way
YE = "Леня"


def deal_for(order: list[tuple[str, int]]) -> dict:
    """One deal whose scores follow ``order``: (name, small cards left in hand); 0 cards went out with three aces."""
    players = []
    for name, cards in order:
        if cards == 0:
            players.append({"name": name, "melds": ["A♠ A♥ A♦"], "hand": ""})
        else:
            players.append({"name": name, "melds": [], "hand": {"small": cards}})
    return {"players": players, "went_out": next(name for name, cards in order if cards == 0)}


def play(client, order: list[tuple[str, int]], end: bool = True) -> dict:
    """A session of ``order``'s players with one deal scored as ``order`` says (ended through the API)."""
    session = new_session(client, players=[name for name, _ in order])
    recorded = client.post(f"{API}/sessions/{session['id']}/deals", json=deal_for(order), headers=auth(session))
    assert recorded.status_code == 201, recorded.get_json()
    if end:
        assert client.post(f"{API}/sessions/{session['id']}/end", headers=auth(session)).status_code == 200
    return session


def history(spell: dict[str, str]) -> list[tuple[list[tuple[str, int]], bool]]:
    """The evenings these tests play: ``spell`` names who is typed how ("a", "b": the two names of one person)."""
    a, b = spell["a"], spell["b"]
    return [
        ([(a, 0), ("Вера", 2), ("Борис", 4)], True),
        ([("Вера", 0), (b, 1)], True),
        ([(b, 0), ("Борис", 3), ("Вера", 1)], True),
        ([("Борис", 0), (a, 2)], True),
        ([(a, 0), ("Вера", 3)], False),  # still open: counts for the statistics, not (yet) for the ratings
    ]


def play_history(client, spell: dict[str, str]) -> None:
    for order, end in history(spell):
        play(client, order, end)


def players(client) -> dict[str, dict]:
    """The API's players by name, their ratings left out (compared in full from the store)."""
    response = client.get(f"{API}/players")
    assert response.status_code == 200, response.get_json()
    return {p["name"]: {k: v for k, v in p.items() if k != "rating"} for p in response.get_json()["players"]}


def ratings(app) -> dict[str, tuple[float, float, int]]:
    """Every rating as the store keeps it, in full: player key -> (mu, sigma, rated sessions)."""
    store = Store.open(app.config["DATABASE"])
    try:
        return {key: (r.mu, r.sigma, r.sessions) for key, r in store.ratings().items()}
    finally:
        store.close()


def assert_same_ratings(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for key, (mu, sigma, sessions) in expected.items():
        assert got[key][0] == pytest.approx(mu, abs=1e-9), key
        assert got[key][1] == pytest.approx(sigma, abs=1e-9), key
        assert got[key][2] == sessions, key


def merge(client, source: str, into: str):
    return client.post(f"{API}/players/merges", json={"from": source, "into": into})


def second_app(tmp_path):
    """Another install, on a file of its own."""
    folder = tmp_path / "second"
    folder.mkdir()
    return create_app({"TESTING": True, "DATABASE": str(folder / "kunken.db"), "SECRET_KEY": "x" * 32})


# -- one name typed two ways ---------------------------------------------------------------------------------------


def test_a_name_typed_both_unicode_ways_is_one_player_and_one_rating(app, client):
    assert YO != YO_TYPED and player_key(YO) == player_key(YO_TYPED) == player_key("ЛЁНЯ")
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [("Вера", 0), (YO_TYPED, 2)])
    found = players(client)
    assert set(found) == {YO, "Вера"}
    assert found[YO]["sessions"] == 2 and found[YO]["wins"] == 1 and found[YO]["rated_sessions"] == 2
    assert ratings(app)["лёня"][2] == 2
    page = text(client.get("/players"))
    assert page.count(f'<th scope="row">{YO}<') == 1


def test_the_player_key_is_nfc_after_casefolding():
    """ "ΐ" casefolds to three code points; its key is composed again, as a name typed composed is."""
    assert player_key("\u0390") == player_key("\u03b9\u0308\u0301") == "\u0390"


# -- a merge, and its undoing --------------------------------------------------------------------------------------


def test_a_merge_makes_one_player_rated_as_if_always_one_and_undo_gives_back_every_number(app, client, tmp_path):
    play_history(client, {"a": YO, "b": YE})
    before, rated_before = players(client), ratings(app)
    assert {YO, YE} <= before.keys() and before[YO]["sessions"] == 3 and before[YE]["sessions"] == 2

    made = merge(client, YO, YE)
    assert made.status_code == 201, made.get_json()
    answer = made.get_json()
    assert answer["from"] == YO and answer["into"] == YE and answer["undone_at"] is None
    assert answer["ratings_current"] is True

    after = players(client)
    assert YO not in after and set(after) == {YE, "Вера", "Борис"}
    for field in ("sessions", "wins", "deals", "points", "expresses", "rated_sessions"):
        assert after[YE][field] == before[YO][field] + before[YE][field], field
    assert after[YE]["last_played"] == max(before[YO]["last_played"], before[YE]["last_played"])
    assert after["Вера"] == before["Вера"] and after["Борис"] == before["Борис"]  # their statistics: unchanged
    page = text(client.get("/players"))
    assert f'<th scope="row">{YE}<' in page and f'<th scope="row">{YO}<' not in page

    # the same evenings on another install, the name typed one way from the start: the same ratings, to 1e-9
    other = second_app(tmp_path)
    play_history(other.test_client(), {"a": YE, "b": YE})
    one_way = players(other.test_client())[YE]
    assert {k: v for k, v in one_way.items() if k != "last_played"} == {
        k: v for k, v in after[YE].items() if k != "last_played"
    }
    assert_same_ratings(ratings(app), ratings(other))
    assert ratings(app)["вера"] != rated_before["вера"]  # the others' ratings were replayed too: they moved

    undone = client.delete(f"{API}/players/merges/{answer['id']}")
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["undone_at"] is not None
    assert players(client) == before
    assert_same_ratings(ratings(app), rated_before)
    assert client.get(f"{API}/players/merges").get_json() == {"merges": []}
    again = client.delete(f"{API}/players/merges/{answer['id']}")  # undone already: answered as it is
    assert again.status_code == 200 and again.get_json()["undone_at"] == undone.get_json()["undone_at"]


def test_names_that_sat_at_one_table_are_refused_in_both_languages(app, client):
    play(client, [(YO, 0), (YE, 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    before, rated_before = players(client), ratings(app)
    refused = merge(client, YO, YE)
    assert refused.status_code == 422
    assert "they sat at one table, so they are two different players" in refused.get_json()["error"]
    russian = merge(client, YE, YO.upper())  # any capitals
    assert russian.status_code == 422
    client.set_cookie("lang", "ru")
    said = merge(client, YO, YE).get_json()["error"]
    assert "сидели за одним столом" in said and "два разных игрока" in said
    assert players(client) == before and ratings(app) == rated_before
    assert client.get(f"{API}/players/merges").get_json() == {"merges": []}


def test_a_name_into_itself_and_an_unknown_name_are_refused(client):
    play(client, [(YO, 0), ("Вера", 2)])
    same = merge(client, YO, YO_TYPED.upper())
    assert same.status_code == 422 and "choose two different names" in same.get_json()["error"]
    unknown = merge(client, YO, "Никто")
    assert unknown.status_code == 422 and "No player named Никто" in unknown.get_json()["error"]
    unknown = merge(client, "Никто", YO)
    assert unknown.status_code == 422 and "No player named Никто" in unknown.get_json()["error"]
    assert client.get(f"{API}/players/merges").get_json() == {"merges": []}


def test_a_chain_follows_through_and_a_loop_is_refused(app, client):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    play(client, [("Лёва", 0), ("Вера", 2)])
    first = merge(client, YE, "Лёва")
    assert first.status_code == 201
    second = merge(client, YO, YE)  # into a name merged into another: Лёня goes where Леня went
    assert second.status_code == 201, second.get_json()
    found = players(client)
    assert set(found) == {"Лёва", "Вера"} and found["Лёва"]["sessions"] == 3 and found["Лёва"]["wins"] == 3
    assert ratings(app)["лёва"][2] == 3

    loop = merge(client, "Лёва", YO)  # Лёня counts as Лёва already
    assert loop.status_code == 422 and "they are one player" in loop.get_json()["error"]
    twice = merge(client, YO, "Вера")
    assert twice.status_code == 422 and "undo that merge first" in twice.get_json()["error"]
    listed = client.get(f"{API}/players/merges").get_json()["merges"]
    assert [(m["from"], m["into"]) for m in listed] == [(YE, "Лёва"), (YO, YE)]

    assert client.delete(f"{API}/players/merges/{first.get_json()['id']}").status_code == 200
    found = players(client)  # Лёня still goes with Леня; Лёва is on his own again
    assert set(found) == {YE, "Лёва", "Вера"} and found[YE]["sessions"] == 2 and found["Лёва"]["sessions"] == 1
    assert ratings(app)[player_key(YE)][2] == 2 and "лёня" not in ratings(app)


def test_a_session_with_both_names_after_the_merge_keeps_them_two_players_there(client):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    assert merge(client, YO, YE).status_code == 201
    play(client, [(YO, 0), (YE, 2)])  # they do sit at one table after all
    found = players(client)
    assert found[YE]["sessions"] == 3 and found[YO]["sessions"] == 1


def test_stats_rows_follow_a_merge_but_never_make_two_names_of_one_session_one():
    tally = Tally("s", 1, "kunken", "2026-01-01T00:00:00+00:00", (YO, "Вера"), {YO: 30, "Вера": -5}, 1, {})
    into = {"лёня": MergedInto("леня", YE)}
    assert [(r.player, r.name, r.won) for r in stats_rows(tally, into)] == [("леня", YE, True), ("вера", "Вера", False)]
    both = Tally("s", 1, "kunken", "2026-01-01T00:00:00+00:00", (YO, YE), {YO: 30, YE: -5}, 1, {})
    assert [r.player for r in stats_rows(both, into)] == ["лёня", "леня"]
    # a session m019 left with one name typed two ways: two players there, keyed as typed
    old = Tally("s", 1, "kunken", "2026-01-01T00:00:00+00:00", (YO, YO_TYPED), {YO: 30, YO_TYPED: -5}, 1, {})
    assert len({r.player for r in stats_rows(old, into)}) == 2


def test_statistics_worked_out_before_a_merge_are_not_written_after_it(app, client):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    players(client)  # the statistics worked out
    store = Store.open(app.config["DATABASE"])
    try:
        seen = store.merges_generation()
        session_id = store.db.execute("SELECT session_id FROM session_stats WHERE player = 'лёня'").fetchone()[0]
        assert merge(client, YO, YE).status_code == 201
        assert store.merges_generation() > seen
        row = store.get_session(session_id)
        with store.db.conn:
            store.db.execute("UPDATE sessions SET stats_version = 0 WHERE id = ?", [session_id])
        assert store.set_many_session_stats([(session_id, row.version, "kunken", [])], seen) == 0
        assert store.stale_stats() == [session_id]  # still to be worked out, under the merge
        refresh_stale_stats(store)
        players_now = store.db.execute("SELECT player FROM session_stats WHERE session_id = ?", [session_id])
        assert {row[0] for row in players_now} == {"леня", "вера"}
    finally:
        store.close()


# -- the form on /players ------------------------------------------------------------------------------------------


def token(client) -> str:
    page = client.get("/players")
    assert page.status_code == 200
    return CSRF.search(text(page))[1]


def test_the_form_merges_and_undoes_and_a_refusal_shows_the_page_again(client):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    page = text(client.get("/players"))
    assert "Merge two names" in page and 'id="merges"' not in page
    csrf = token(client)

    refused = client.post("/players/merges", data={"csrf_token": csrf, "from": YO, "into": "Вера "})
    assert refused.status_code == 422
    shown = text(refused)
    assert 'id="merge-error"' in shown and "they sat at one table" in shown and 'value="Вера "' in shown

    done = client.post("/players/merges", data={"csrf_token": csrf, "from": YO.lower(), "into": YE})
    assert done.status_code == 303 and done.headers["Location"].endswith("/players")
    page = text(client.get("/players"))
    assert f"“{YO}” is merged into “{YE}”: one player now" in page
    assert f'<th scope="row">{YO}<' not in page and f"“{YO}” counts as “{YE}”" in page
    merge_id = re.search(r'data-merge="(\d+)"', page)[1]

    undone = client.post(f"/players/merges/{merge_id}/undo", data={"csrf_token": csrf})
    assert undone.status_code == 303
    page = text(client.get("/players"))
    assert "The merge is undone" in page and f'<th scope="row">{YO}<' in page and 'id="merges"' not in page
    again = client.post(f"/players/merges/{merge_id}/undo", data={"csrf_token": csrf})  # a double tap
    assert again.status_code == 303 and "undone already" in text(client.get("/players"))


@pytest.mark.parametrize(
    "data",
    [
        {"from": YO},  # into left out
        {"from": "", "into": YE},
        {"from": YO, "into": "x" * 41},
        {"from": YO, "into": "bell\x07"},
    ],
)
def test_the_form_refuses_malformed_names_with_a_4xx(client, data):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    response = client.post("/players/merges", data={"csrf_token": token(client), **data})
    assert response.status_code == 422 and 'id="merge-error"' in text(response)
    assert client.get(f"{API}/players/merges").get_json() == {"merges": []}


def test_the_form_without_its_csrf_token_changes_nothing(client):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    for data in ({"from": YO, "into": YE}, {"csrf_token": "forged", "from": YO, "into": YE}):
        assert client.post("/players/merges", data=data).status_code == 400
    assert client.post("/players/merges/1/undo", data={}).status_code == 400
    assert client.get(f"{API}/players/merges").get_json() == {"merges": []}


@pytest.mark.parametrize("merge_id", ["1", "99999999999999999999999"])
def test_undoing_no_merge_is_a_404_on_the_page_and_in_the_api(client, merge_id):
    play(client, [(YO, 0), ("Вера", 2)])
    response = client.post(f"/players/merges/{merge_id}/undo", data={"csrf_token": token(client)})
    assert response.status_code == 404 and "There is no merge number" in text(response)
    answer = client.delete(f"{API}/players/merges/{merge_id}")
    assert answer.status_code == 404 and "There is no merge number" in answer.get_json()["error"]


# -- the API's input -----------------------------------------------------------------------------------------------


def test_the_api_refuses_what_is_no_merge_with_a_4xx(client):
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    assert client.post(f"{API}/players/merges", data="from=a").status_code == 415
    assert client.post(f"{API}/players/merges", json=[YO, YE]).status_code == 400
    for body in ({"from": YO}, {"from": 5, "into": YE}, {"from": YO, "into": ["Леня"]}):
        response = client.post(f"{API}/players/merges", json=body)
        assert response.status_code == 400, body
        assert "error" in response.get_json()
    for merge_id in ("-1", "0", "abc", "\u0661", "1.0"):  # no number, an Arabic-Indic one: no merge has it
        response = client.delete(f"{API}/players/merges/{merge_id}")
        assert response.status_code == 404 and "There is no merge number" in response.get_json()["error"], merge_id
    assert client.get(f"{API}/players/merges").get_json() == {"merges": []}


# -- who may merge -------------------------------------------------------------------------------------------------


def test_with_members_on_a_stranger_can_neither_list_nor_merge_nor_undo(tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "kunken.db"), "SECRET_KEY": "x" * 32, "MEMBERS": "on"}
    )
    client = app.test_client()
    client.set_cookie("lang", "en")
    play(client, [(YO, 0), ("Вера", 2)])
    play(client, [(YE, 0), ("Вера", 2)])
    for response in (
        client.get(f"{API}/players/merges"),
        merge(client, YO, YE),
        client.delete(f"{API}/players/merges/1"),
    ):
        assert response.status_code == 403
        assert "club's members" in response.get_json()["error"]
    csrf = CSRF.search(text(client.get("/")))[1]  # a token any phone has, from the home page's form
    for response in (
        client.post("/players/merges", data={"csrf_token": csrf, "from": YO, "into": YE}),
        client.post("/players/merges/1/undo", data={"csrf_token": csrf}),
    ):
        assert response.status_code == 403 and "club&#39;s members" in text(response)
    store = Store.open(app.config["DATABASE"])
    try:
        assert store.player_merges()[1] == []
    finally:
        store.close()
