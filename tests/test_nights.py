"""Club nights (issue 37): several tables, each a session, standings across them, rounds with new seats.

Through the Flask test client on a real SQLite file: the API (``/api/v1/nights``) and the pages (the start form,
the night page with the scorer links for whoever started it, the room screen's live address, the summary).
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from conftest import API, CSRF, at_once, phone, text
from test_docs import API_MD, mismatches
from werkzeug.datastructures import MultiDict

from kunken_scorer import service
from kunken_scorer.core.nights import meetings, next_seating, night_standings, place_points, repeats, table_results
from kunken_scorer.core.rules import RuleSet
from kunken_scorer.service import MAX_TABLES
from kunken_scorer.service.rounds import SeatingAsk, start_round
from kunken_scorer.store import Store
from kunken_scorer.web import create_app
from kunken_scorer.web.forms import FORM_KEY

FOUR = ["Анна", "Борис", "Вера", "Гоша"]
THREE = ["Дима", "Ева", "Жора"]


def out_with_aces(players: list[str], winner: str) -> dict:
    """A deal where ``winner`` lays three aces and goes out (+30), everyone else holds a five (−5)."""
    fives = iter(["5♦", "5♣", "5♠", "5♥"])
    return {
        "players": [
            {"name": n, "melds": ["A♠ A♥ A♦"], "hand": ""} if n == winner else {"name": n, "hand": next(fives)}
            for n in players
        ],
        "went_out": winner,
    }


def night(client, tables=(FOUR, THREE), **extra) -> dict:
    response = client.post(f"{API}/nights", json={"tables": [list(t) for t in tables], **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def record(client, table: dict, body: dict) -> None:
    response = client.post(
        f"{API}/sessions/{table['id']}/deals", json=body, headers={"Authorization": f"Bearer {table['edit_token']}"}
    )
    assert response.status_code == 201, response.get_json()


def standings(client, night_id: str) -> list[dict]:
    response = client.get(f"{API}/nights/{night_id}")
    assert response.status_code == 200
    return response.get_json()["standings"]


# -- the API ------------------------------------------------------------------------------------------


def test_a_night_starts_one_session_a_table_each_with_its_scorer_link(client):
    made = night(client)
    assert set(made) == {"id", "edit_token", "view_url", "edit_url", "tables"}
    assert len(made["tables"]) == 2
    for table, players in zip(made["tables"], (FOUR, THREE), strict=True):
        assert set(table) == {"id", "edit_token", "view_url", "edit_url"}
        assert table["edit_url"].endswith(f"/s/{table['id']}/scorer/{table['edit_token']}")
        session = client.get(f"{API}/sessions/{table['id']}").get_json()  # a session like any other
        assert session["players"] == players
    answer = client.get(f"{API}/nights/{made['id']}").get_json()
    assert [t["players"] for t in answer["tables"]] == [FOUR, THREE]
    assert all("edit_token" not in t for t in answer["tables"])  # no token without the night's
    owned = client.get(f"{API}/nights/{made['id']}", headers={"Authorization": f"Bearer {made['edit_token']}"})
    assert [t["edit_token"] for t in owned.get_json()["tables"]] == [t["edit_token"] for t in made["tables"]]
    assert owned.headers["Cache-Control"] == "no-store"


def test_the_standings_are_best_first_and_follow_every_table(client):
    made = night(client, ranking="total")
    first, second = made["tables"]
    assert {s["total"] for s in standings(client, made["id"])} == {0}
    record(client, first, out_with_aces(FOUR, "Вера"))
    after_one = standings(client, made["id"])
    assert [(s["name"], s["total"], s["table"], s["deals"]) for s in after_one[:1]] == [("Вера", 30, 1, 1)]
    record(client, second, out_with_aces(THREE, "Ева"))
    record(client, second, out_with_aces(THREE, "Ева"))
    now = standings(client, made["id"])
    assert [s["name"] for s in now[:2]] == ["Ева", "Вера"]
    assert now[0] == {
        **{"place": 1, "name": "Ева", "total": 60, "table": 2, "deals": 2, "points": 100.0},
        **{"total_place": 1, "points_place": 1},  # Вера's 100 place points too: level with Ева
    }
    totals = [s["total"] for s in now]
    assert totals == sorted(totals, reverse=True)
    assert {s["name"]: s["deals"] for s in now} == {**dict.fromkeys(FOUR, 1), **dict.fromkeys(THREE, 2)}


def test_place_points_compare_tables_of_different_sizes_fairly(client):
    """The last of four and the last of three both get 0, the first of each 100; the second of three 50."""
    made = night(client)
    first, second = made["tables"]
    record(client, first, out_with_aces(FOUR, "Анна"))
    record(client, second, out_with_aces(THREE, "Дима"))
    by_name = {s["name"]: s for s in standings(client, made["id"])}
    assert by_name["Анна"]["points"] == by_name["Дима"]["points"] == 100.0
    assert {by_name[n]["points"] for n in ("Борис", "Вера", "Гоша")} == {round(100 / 3, 1)}  # three level: 2nd–4th
    assert by_name["Ева"]["points"] == by_name["Жора"]["points"] == 25.0  # two level: 2nd–3rd of three
    assert place_points([10, 5, 0]) == [100.0, 50.0, 0.0]
    assert place_points([7, 0, 3, 1]) == pytest.approx([100.0, 0.0, 200 / 3, 100 / 3])


def test_the_night_sums_over_rounds_and_the_points_rank_is_its_own():
    results = (
        table_results(1, 1, {"A": 50, "B": 0, "C": -50}, 3)
        + table_results(1, 2, {"D": 5, "E": -5}, 1)
        + table_results(2, 1, {"A": -10, "D": 10}, 1)
        + table_results(2, 2, {"B": 1, "C": 0, "E": -1}, 1)
    )
    rows = {s.name: s for s in night_standings(results)}
    assert (rows["A"].total, rows["A"].deals, rows["A"].table, rows["A"].points) == (40, 4, 1, 100.0)
    assert (rows["D"].total, rows["D"].points) == (15, 200.0)
    assert rows["D"].points_place == 1 and rows["A"].place == 1


# -- rounds with new seats ----------------------------------------------------------------------------


def players(n: int) -> list[str]:
    return [f"P{i:02}" for i in range(n)]


def first_round(sizes: list[int]) -> list[list[str]]:
    names, tables = players(sum(sizes)), []
    for size in sizes:
        tables.append(names[:size])
        names = names[size:]
    return tables


@pytest.mark.parametrize(
    "sizes, rounds", [([4, 4, 4, 4], 3), ([5] * 5, 5), ([3] * 7, 4), ([4] * 20, 4), ([4, 4, 4, 3], 3)]
)
def test_a_new_round_meets_nobody_again_when_that_can_be(sizes, rounds):
    seating = [first_round(sizes)]
    for _ in range(rounds - 1):
        new = next_seating(seating)
        assert [len(t) for t in new] == sizes
        assert sorted(n for t in new for n in t) == sorted(players(sum(sizes)))
        assert repeats(new, meetings(seating)) == 0, new
        seating.append(new)
    assert next_seating(seating[:1]) == seating[1]  # the same rounds, the same seats


@pytest.mark.parametrize("sizes, least", [([4, 4, 4], 3), ([4, 3], 3), ([4, 4], 4)])
def test_when_someone_must_meet_again_as_few_do_as_can(sizes, least):
    """Three tables of four: each first-round table of four spreads over three tables, so two of its players meet
    again (pigeonholes): three repeat meetings at least, and the rotation makes no more."""
    seating = [first_round(sizes)]
    assert repeats(next_seating(seating), meetings(seating)) == least


def test_the_next_round_on_the_night_page_reseats_and_the_standings_sum(app):
    client = phone(app)
    page = text(client.get("/nights/new"))
    sent = client.post(
        "/nights",
        data={
            "csrf_token": CSRF.search(page)[1],
            "game": "kunken",
            "tables": "A1, A2, A3, A4\nB1, B2, B3, B4\nC1,C2,C3,C4",
        },
    )
    assert sent.status_code == 303
    url = sent.headers["Location"]
    nid = url.rsplit("/", 1)[1]
    night_page = text(client.get(url))
    assert night_page.count('class="scorer-link"') == 3  # the starter sees every table's scorer link
    first = client.get(f"{API}/nights/{nid}").get_json()
    scorer = re.search(r'class="scorer-link" href="[^"]*/s/([^/]+)/scorer/([^"]+)"', night_page)
    record(client, {"id": scorer[1], "edit_token": scorer[2]}, out_with_aces(["A1", "A2", "A3", "A4"], "A2"))
    assert f'href="/nights/{nid}/rounds/new"' in night_page  # the next round: its seating shown first
    preview = text(client.get(f"/nights/{nid}/rounds/new?mode=fresh", headers={"Accept-Language": "en"}))
    assert "Start round 2" in preview and "3 pairs at these tables have played together tonight" in preview
    assert client.get(f"{API}/nights/{nid}").get_json()["round"] == 1  # a preview starts nothing
    seats = re.findall(r'name="(table-\d+)" value="([^"]+)"', preview)
    form = [("csrf_token", CSRF.search(preview)[1]), ("round", re.search(r'name="round" value="(\d+)"', preview)[1])]
    moved = client.post(f"/nights/{nid}/rounds", data=MultiDict([*form, ("seating", "tables"), *seats]))
    assert moved.status_code == 303 and form[1][1] == "2"
    second = client.get(f"{API}/nights/{nid}").get_json()
    assert second["round"] == 2 and {t["id"] for t in second["tables"]}.isdisjoint(t["id"] for t in first["tables"])
    shown_seats: dict[str, list[str]] = {}
    for field, name in seats:
        shown_seats.setdefault(field, []).append(name)
    assert [t["players"] for t in second["tables"]] == list(shown_seats.values())  # as the preview showed
    old = meetings([[t["players"] for t in first["tables"]]])
    assert repeats([t["players"] for t in second["tables"]], old) == 3  # the least three tables of four allow
    a2 = next(s for s in second["standings"] if s["name"] == "A2")
    assert (a2["total"], a2["deals"]) == (30, 1)  # the first round still counts
    assert a2["table"] == next(t["table"] for t in second["tables"] if "A2" in t["players"])  # where A2 sits now
    shown = text(client.get(url))
    assert "Round 2" in shown and "Earlier rounds" in shown and shown.count('class="scorer-link"') == 3
    assert "3 pairs have met before" in shown


def test_start_round_tapped_twice_or_on_two_phones_at_once_starts_one_round(app, client):
    made = night(client)
    owner = phone(app)
    owner.get(urlsplit(made["edit_url"]).path)
    csrf = CSRF.search(text(owner.get(f"/nights/{made['id']}")))[1]
    url = f"/nights/{made['id']}/rounds"
    first = owner.post(url, data={"csrf_token": csrf, "round": "2"})
    again = owner.post(url, data={"csrf_token": csrf, "round": "2"})  # the second tap, or a resent form
    assert first.status_code == again.status_code == 303
    shown = text(owner.get(again.headers["Location"], headers={"Accept-Language": "en"}))
    assert "Round 2 has already started: see who sits where." in shown
    assert client.get(f"{API}/nights/{made['id']}").get_json()["round"] == 2
    for bad in ({}, {"round": ""}, {"round": "two"}, {"round": "٣"}, {"round": " 3"}, {"round": "9" * 10}):
        refused = owner.post(url, data={"csrf_token": csrf, **bad}, headers={"Accept-Language": "en"})
        assert refused.status_code == 400 and "The form is damaged; reload it." in text(refused), bad
    past = owner.post(url, data={"csrf_token": csrf, "round": "4"}, headers={"Accept-Language": "en"})
    assert past.status_code == 422 and "There is no round 4 to start yet: reload the night" in text(past)
    assert client.get(f"{API}/nights/{made['id']}").get_json()["round"] == 2
    # two phones at the same moment (two connections to the file): one round 3, the other finds it started
    token = urlsplit(made["edit_url"]).path.split("/")[-1]
    made_now = at_once(app.config["DATABASE"], 2, lambda store: start_round(store, made["id"], token, 3, SeatingAsk()))
    assert sorted(m is None for m in made_now) == [False, True]
    assert client.get(f"{API}/nights/{made['id']}").get_json()["round"] == 3


def test_only_whoever_started_the_night_sees_the_scorer_links_and_starts_a_round(app, client):
    made = night(client)
    stranger = phone(app)
    page = text(stranger.get(f"/nights/{made['id']}"))
    assert "scorer-link" not in page and "/scorer/" not in page
    assert all(urlsplit(t["view_url"]).path in page for t in made["tables"])  # every table's scores, linked
    token = CSRF.search(text(stranger.get("/nights/new")))[1]
    refused = stranger.post(f"/nights/{made['id']}/rounds", data={"csrf_token": token})
    assert refused.status_code == 403
    # the API's night link gives a phone the night: then it sees them
    owner = phone(app)
    opened = owner.get(urlsplit(made["edit_url"]).path)
    assert opened.status_code == 303 and opened.headers["Cache-Control"] == "no-store"  # it sets the night's token
    assert text(owner.get(f"/nights/{made['id']}")).count('class="scorer-link"') == 2
    assert owner.get(f"/nights/{made['id']}/own/not-the-token").status_code == 403


def test_a_table_whose_scorer_link_was_made_anew_is_no_longer_shown_with_the_old_one(client):
    made = night(client)
    table = made["tables"][0]
    renewed = client.post(
        f"{API}/sessions/{table['id']}/token", headers={"Authorization": f"Bearer {table['edit_token']}"}
    )
    assert renewed.status_code == 200
    owned = client.get(f"{API}/nights/{made['id']}", headers={"Authorization": f"Bearer {made['edit_token']}"})
    assert [("edit_token" in t) for t in owned.get_json()["tables"]] == [False, True]


def test_a_wrong_token_on_the_nights_api_is_refused_in_words_not_ignored(app, client):
    made = night(client)
    path = f"{API}/nights/{made['id']}"
    for wrong in ("not-the-token", made["tables"][0]["edit_token"]):  # a table's own token is not the night's
        refused = client.get(path, headers={"Authorization": f"Bearer {wrong}"})
        assert refused.status_code == 403
        assert refused.get_json() == {"error": "This token is not the night's edit token."}
    russian = app.test_client().get(path, headers={"Authorization": "Bearer nope", "Accept-Language": "ru"})
    assert russian.status_code == 403 and russian.get_json() == {"error": "Это не ключ организатора этого вечера."}
    # an unknown night is still its 404; no token at all still reads the night, the right one shows the links
    unknown = client.get(f"{API}/nights/no-such-night", headers={"Authorization": "Bearer nope"})
    assert unknown.status_code == 404
    assert "edit_token" not in client.get(path).get_json()["tables"][0]
    owned = client.get(path, headers={"Authorization": f"Bearer {made['edit_token']}"})
    assert owned.status_code == 200 and all("edit_token" in t for t in owned.get_json()["tables"])


# -- the room screen, the summary ---------------------------------------------------------------------


def test_the_room_screens_live_address_answers_304_until_a_table_records(client):
    made = night(client)
    live = client.get(f"/nights/{made['id']}/live")
    assert live.status_code == 200 and live.headers["Cache-Control"] == "no-cache"
    tag = live.headers["ETag"]
    assert client.get(f"/nights/{made['id']}/live", headers={"If-None-Match": tag}).status_code == 304
    record(client, made["tables"][1], out_with_aces(THREE, "Жора"))
    changed = client.get(f"/nights/{made['id']}/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    room = text(client.get(f"/nights/{made['id']}/room"))
    assert 'data-player="Жора"' in room and 'data-total="30"' in room
    assert client.get("/nights/nope/live").status_code == 404


@pytest.mark.lang("ru")
def test_the_summary_and_the_pages_speak_russian(client):
    made = night(client)
    record(client, made["tables"][0], out_with_aces(FOUR, "Гоша"))
    summary = text(client.get(f"/nights/{made['id']}/summary"))
    assert 'media="print"' in summary and "print.css" in summary
    assert re.search(
        r"<th scope=\"row\">Гоша</th><td class=\"num wide-only\">1</td><td class=\"num wide-only\">1</td>", summary
    )
    for path in ("/nights/new", f"/nights/{made['id']}", f"/nights/{made['id']}/room"):
        page = text(client.get(path))
        assert '<html lang="ru"' in page and "Кункен" in page, path
    assert "nights/new" in text(client.get("/"))  # the home page links the start form


# -- hostile input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, words",
    [
        ({}, "tables: expected a list"),
        ({"tables": []}, "at least one table"),
        ({"tables": "Анна, Борис"}, "tables: expected a list"),
        ({"tables": [["Анна"]]}, "Table 1: Name 2 to"),
        ({"tables": [FOUR, ["Дима", "анна"]]}, "at table 1 and at table 2"),
        ({"tables": [FOUR, ["Дима", "Дима"]]}, "Table 2: Name 2 to"),
        ({"tables": [[f"P{t}{s}" for s in range(4)] for t in range(100)]}, f"at most {MAX_TABLES} tables"),
        ({"tables": [["x" * 5000, "Борис"]]}, "1 to 40 characters"),
        ({"tables": [[1, 2]]}, "Table 1: players[0]"),
        ({"tables": [None]}, "Table 1: players: expected a list"),
        ({"tables": [FOUR], "game": 7}, "game"),
        ({"tables": [FOUR], "rules": {"no_such": 1}}, "no_such"),
    ],
)
def test_hostile_input_gets_a_clear_4xx(client, body, words):
    response = client.post(f"{API}/nights", json=body)
    assert response.status_code == 400, response.get_json()
    assert words in response.get_json()["error"]


def test_more_hostile_input(client):
    assert client.post(f"{API}/nights", data="[]", content_type="application/json").status_code == 400
    assert client.post(f"{API}/nights", data="{", content_type="application/json").status_code == 400
    assert client.post(f"{API}/nights", data="tables", content_type="text/plain").status_code == 415
    huge = json.dumps({"tables": [["a" * 300_000, "b"]]})
    assert client.post(f"{API}/nights", data=huge, content_type="application/json").status_code == 413
    assert client.get(f"{API}/nights/no-such-night").get_json() == {"error": "There is no club night with this id."}
    for path in ("/nights/nope", "/nights/nope/room", "/nights/nope/summary", "/nights/nope/live"):
        page = client.get(path, headers={"Accept-Language": "en"})
        assert page.status_code == 404 and "There is no club night with this id." in text(page), path
    assert client.get("/nights/nope/own/x").status_code == 404
    assert client.post(f"{API}/nights/x").status_code == 405


def test_the_start_form_says_what_is_wrong_and_keeps_what_was_typed(app):
    client = phone(app)
    token = CSRF.search(text(client.get("/nights/new")))[1]
    for tables, words in (
        ("", "at least one table"),
        ("Anna", "Table 1"),
        ("Anna, Boris\nanna, Vera", "at table 1 and at table 2"),
        ("\n".join(f"A{i}, B{i}" for i in range(30)), "at most 20 tables"),
    ):
        refused = client.post("/nights", data={"csrf_token": token, "tables": tables, "game": "nope"})
        assert refused.status_code == 422
        page = text(refused)
        assert words in page and 'aria-invalid="true"' in page
        assert (tables.splitlines() or [""])[0] in page
    assert client.post("/nights", data={"tables": "A, B"}).status_code == 400  # no CSRF token


def test_the_start_form_names_a_refused_player_in_words_not_by_the_apis_path(app):
    """A page says "игрок 2" (player 2), not the API's ``players[1]``; the API keeps its path."""
    client = app.test_client()
    client.set_cookie("lang", "ru")
    token = CSRF.search(text(client.get("/nights/new")))[1]
    for typed in ("Б" * 41, "Бо\x07рис"):  # too long; a control character
        refused = client.post("/nights", data={"csrf_token": token, "tables": f"Анна, {typed}, Вера", "game": "kunken"})
        assert refused.status_code == 422
        error = re.search(r'id="night-tables-error">([^<]*)<', text(refused))[1]
        assert error.startswith("Стол 1: ") and "игрок 2" in error and "players" not in error, error
    api = client.post(f"{API}/nights", json={"tables": [["Анна", "Б" * 41]]})
    assert api.status_code == 400 and "players[1]" in api.get_json()["error"]


FORM_KEY_FIELD = re.compile(r'name="form_key" value="([^"]*)"')


def counts(app) -> tuple[int, int]:
    """(nights, sessions) in the app's database file."""
    store = Store.open(app.config["DATABASE"])
    try:
        return tuple(store.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("nights", "sessions"))
    finally:
        store.close()


def test_the_start_page_renders_a_fresh_one_time_key(app):
    client = phone(app)
    keys = [FORM_KEY_FIELD.search(text(client.get("/nights/new")))[1] for _ in range(2)]
    assert all(FORM_KEY.match(k) for k in keys) and keys[0] != keys[1]
    refused = text(client.post("/nights", data={"csrf_token": CSRF.search(text(client.get("/nights/new")))[1]}))
    assert FORM_KEY.match(FORM_KEY_FIELD.search(refused)[1])  # the form shown again carries a key too


def test_a_start_form_sent_twice_starts_one_night(app):
    client = phone(app)
    page = text(client.get("/nights/new"))
    form = {
        "csrf_token": CSRF.search(page)[1],
        "form_key": FORM_KEY_FIELD.search(page)[1],
        "game": "kunken",
        "tables": "A1, A2, A3, A4\nB1, B2, B3",
    }
    first = client.post("/nights", data=form)
    assert first.status_code == 303
    nid = first.headers["Location"].rsplit("/", 1)[1]
    assert f"kunken_night_{nid}=" in first.headers["Set-Cookie"]
    assert first.headers["Cache-Control"] == "no-store"  # a response carrying a token is never stored
    again = client.post("/nights", data=form)  # a double tap, or the form sent again
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert "Set-Cookie" not in again.headers or "kunken_night_" not in again.headers["Set-Cookie"]
    assert counts(app) == (1, 2)  # one night, one session a table
    assert len(client.get(f"{API}/nights/{nid}").get_json()["tables"]) == 2
    assert text(client.get(first.headers["Location"])).count('class="scorer-link"') == 2  # still its owner
    other = phone(app)  # another phone's form with the same key (it cannot have it: a key is one render's)
    copied = other.post("/nights", data={**form, "csrf_token": CSRF.search(text(other.get("/nights/new")))[1]})
    assert copied.status_code == 303 and copied.headers["Location"] == first.headers["Location"]
    assert counts(app) == (1, 2) and "scorer-link" not in text(other.get(first.headers["Location"]))


@pytest.mark.parametrize("key", [None, "", "form-short", "not-a-key-at-all-0123456789", "form-" + "x" * 80])
def test_a_missing_or_damaged_key_still_starts_a_night_without_the_protection(app, key):
    client = phone(app)
    form = {"csrf_token": CSRF.search(text(client.get("/nights/new")))[1], "tables": "A, B\nC, D"}
    if key is not None:
        form["form_key"] = key
    for made in (1, 2):
        sent = client.post("/nights", data=form)
        assert sent.status_code == 303 and "kunken_night_" in sent.headers["Set-Cookie"]
        assert counts(app) == (made, 2 * made)


def test_a_repeated_start_form_is_not_counted_against_the_address(tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "limit.db"), "SECRET_KEY": "s" * 32, "CREATE_LIMIT": 2}
    )
    client = phone(app)
    page = text(client.get("/nights/new"))
    form = {"csrf_token": CSRF.search(page)[1], "form_key": FORM_KEY_FIELD.search(page)[1], "tables": "A, B\nC, D"}
    first = client.post("/nights", data=form)
    assert first.status_code == 303
    for _ in range(3):  # the limit is used up by the two tables; the same form again is no new session
        again = client.post("/nights", data=form)
        assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert client.post("/api/v1/sessions", json={"players": ["A", "B"]}).status_code == 429
    assert counts(app) == (1, 2)


def test_two_forms_with_one_key_sent_at_once_make_one_night(app):
    """Two phones' requests at the same moment (two connections to the file): one night, both find it."""
    rules = RuleSet.for_game("kunken", {})
    key = "form-" + "k" * 22
    made = at_once(app.config["DATABASE"], 2, lambda store: service.create_night(store, rules, [FOUR, THREE], key))
    assert len(made) == 2 and made[0].night.id == made[1].night.id
    assert sorted(m.token is None for m in made) == [False, True]
    assert sorted(len(m.tables) for m in made) == [0, 2]
    assert counts(app) == (1, 2)


def test_docs_show_the_nights_answer_as_it_is(client):
    """docs/api.md runs the night's creation and its refusals; the shape of a night's answer is shown there too
    (a night made in an earlier example is not replayed), and this is it."""
    text_ = API_MD.read_text(encoding="utf-8")
    section = text_[text_.index("### `GET /api/v1/nights/<id>`") :]
    shown = json.loads(re.search(r"A night's answer after one deal[^`]*```json\n(.*?)\n```", section, re.S)[1])
    made = night(client, tables=(["Анна", "Борис", "Вера", "Гоша"], ["Дима", "Ева", "Жора"]))
    record(client, made["tables"][0], out_with_aces(FOUR, "Анна"))
    assert mismatches(shown, client.get(f"{API}/nights/{made['id']}").get_json()) == []
