"""A club night on paper and in files: a round's printable table cards, and the night as CSV and JSON (the page's
downloads and ``GET /api/v1/nights/<id>/export``).

Through the Flask test client on a real SQLite file: a night of two rounds started by the API (``POST
/api/v1/nights``, then ``POST /api/v1/nights/<id>/rounds``), deals recorded at its tables with their edit tokens,
then the document checked against each table's own scoreboard, the files searched for every token, the CSV read
back with ``csv``, and the cards seen by the phone that started the night and by a stranger.
"""

from __future__ import annotations

import csv
import html as htmllib
import io
import json
import re
from datetime import datetime
from pathlib import Path

import pytest
import vnu
from conftest import API, phone, text
from test_docs import mismatches

from kunken_scorer.core.rules import RuleSet
from kunken_scorer.service.nights import NightSettings, start_night
from kunken_scorer.store import Store

#: a name a spreadsheet would run as a formula, and one it would read as a sum
HOSTILE = '=HYPERLINK("http://x.example")'
ROUND_1 = [["Анна", HOSTILE], ["Вера", "Гоша", "+Дима"]]
#: round 2 given as tables (the API's "tables" mode): everyone at a new table
ROUND_2 = [["Анна", "Вера"], ["Гоша", HOSTILE, "+Дима"]]
CSV_HEADER_EN = [
    "Round",
    "Table",
    "Seat",
    "Player",
    "Total",
    "Place points",
    "Deals",
    "Place in the night",
    "Total in the night",
    "Place points in the night",
]


def out_with_aces(players: list[str], winner: str, fives: int = 1) -> dict:
    """A deal ``winner`` goes out of with three aces (+30), everyone else holding ``fives`` fives (−5 each)."""
    hand = " ".join(["5♦", "5♣", "5♠", "5♥"][:fives])
    return {
        "players": [
            {"name": n, "melds": ["A♠ A♥ A♦"], "hand": ""} if n == winner else {"name": n, "hand": hand}
            for n in players
        ],
        "went_out": winner,
    }


def record(client, table: dict, players: list[str], winner: str, fives: int = 1) -> None:
    answer = client.post(
        f"{API}/sessions/{table['id']}/deals",
        json=out_with_aces(players, winner, fives),
        headers={"Authorization": f"Bearer {table['edit_token']}"},
    )
    assert answer.status_code == 201, answer.get_json()


def two_round_night(client) -> dict:
    """A night of two rounds with deals at every table; the night's answer, with ``rounds``: each round's tables
    (``id``, ``edit_token``) as the API gave them."""
    made = client.post(f"{API}/nights", json={"tables": ROUND_1})
    assert made.status_code == 201, made.get_json()
    night = made.get_json()
    first = night["tables"]
    record(client, first[0], ROUND_1[0], HOSTILE)  # HOSTILE +30, Анна −5
    record(client, first[1], ROUND_1[1], "Вера", fives=2)  # Вера +30, Гоша −10, +Дима −10
    record(client, first[1], ROUND_1[1], "Гоша")  # Вера 25, Гоша 20, +Дима −15
    started = client.post(
        f"{API}/nights/{night['id']}/rounds",
        json={"tables": ROUND_2, "round": 2},
        headers={"Authorization": f"Bearer {night['edit_token']}"},
    )
    assert started.status_code == 201, started.get_json()
    second = started.get_json()["tables"]
    assert all(t["edit_token"] for t in second)
    record(client, second[0], ROUND_2[0], "Анна")  # Анна +30, Вера −5
    record(client, second[1], ROUND_2[1], "+Дима")  # +Дима +30, Гоша −5, HOSTILE −5
    night["rounds"] = [first, second]
    return night


def every_token(night: dict) -> list[str]:
    return [night["edit_token"], *(t["edit_token"] for tables in night["rounds"] for t in tables)]


def exported(client, night_id: str, **headers) -> dict:
    answer = client.get(f"{API}/nights/{night_id}/export", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def csv_rows(client, night_id: str) -> tuple[list[str], list[list[str]]]:
    answer = client.get(f"/nights/{night_id}/export.csv")
    assert answer.status_code == 200
    body = answer.get_data().decode("utf-8")
    assert body.startswith("\ufeff")  # spreadsheet apps read it as UTF-8
    header, *rows = csv.reader(io.StringIO(body.removeprefix("\ufeff")))
    return header, rows


# -- the JSON document --------------------------------------------------------------------------------------


def test_the_document_holds_every_rounds_tables_with_their_own_scoreboards(client):
    night = two_round_night(client)
    doc = exported(client, night["id"])
    assert (doc["format"], doc["version"]) == ("kunken-night", 1)
    assert set(doc) == {"format", "version", "night", "rounds", "standings"}
    assert doc["night"] == {
        "id": night["id"],
        "name": None,
        "game": "kunken",
        "rules": RuleSet.for_game("kunken", {}).to_dict(),
        "ranking": "points",
        "created_at": doc["night"]["created_at"],
        "ended_at": None,
    }
    datetime.fromisoformat(doc["night"]["created_at"])
    assert [r["round"] for r in doc["rounds"]] == [1, 2]
    for rnd, tables, seating in zip(doc["rounds"], night["rounds"], (ROUND_1, ROUND_2), strict=True):
        assert [t["table"] for t in rnd["tables"]] == list(range(1, len(seating) + 1))
        assert [t["session_id"] for t in rnd["tables"]] == [t["id"] for t in tables]
        assert [t["players"] for t in rnd["tables"]] == seating
        for table in rnd["tables"]:
            session = client.get(f"{API}/sessions/{table['session_id']}").get_json()
            assert table["totals"] == session["totals"]  # the table's own scoreboard, seat order kept
            assert list(table["totals"]) == table["players"]
            assert table["deals"] == len(session["deals"]) and table["ended"] is False
    first, second = doc["rounds"]
    assert first["tables"][1]["totals"] == {"Вера": 25, "Гоша": 20, "+Дима": -15}
    assert first["tables"][1]["place_points"] == {"Вера": 100.0, "Гоша": 50.0, "+Дима": 0.0}
    assert second["tables"][1]["place_points"] == {"Гоша": 25.0, HOSTILE: 25.0, "+Дима": 100.0}


def test_the_standings_follow_the_nights_ranking_and_its_page(client):
    night = two_round_night(client)
    doc = exported(client, night["id"])
    standings = doc["standings"]
    assert all(set(s) == {"place", "name", "total", "points", "deals"} for s in standings)
    # by place points (the default ranking): the night's own answer, in the same order and places
    shown = client.get(f"{API}/nights/{night['id']}").get_json()["standings"]
    assert [(s["place"], s["name"], s["total"], s["points"]) for s in standings] == [
        (s["place"], s["name"], s["total"], s["points"]) for s in shown
    ]
    # HOSTILE 100 + 25 points; Анна 0 + 100, Вера 100 + 0, +Дима 0 + 100 (level: the better total first); Гоша 50 + 25
    assert [(s["place"], s["name"], s["points"], s["total"]) for s in standings] == [
        (1, HOSTILE, 125.0, 25),
        (2, "Анна", 100.0, 25),
        (2, "Вера", 100.0, 20),
        (2, "+Дима", 100.0, 15),
        (5, "Гоша", 75.0, 15),
    ]
    points = [s["points"] for s in standings]
    assert points == sorted(points, reverse=True)
    by_name = {s["name"]: s for s in standings}
    assert by_name[HOSTILE] == {"place": 1, "name": HOSTILE, "total": 25, "points": 125.0, "deals": 2}
    assert by_name["+Дима"]["total"] == 15 and by_name["+Дима"]["deals"] == 3


def test_a_night_ranked_by_total_exports_its_standings_by_total(client, store):
    """The ranking the night was started with decides the order: by total, the best total first."""
    made = start_night(
        store, RuleSet.for_game("kunken", {}), [["A", "B"], ["C", "D", "E"]], settings=NightSettings("Кубок", "total")
    )
    first, second = ({"id": sid, "edit_token": token} for sid, token in made.tables)
    record(client, first, ["A", "B"], "B")  # B +30 (100 points), A −5 (0 points)
    record(client, second, ["C", "D", "E"], "C", fives=2)  # C +30, D −10, E −10
    record(client, second, ["C", "D", "E"], "C", fives=2)  # C 60 (100), D −20 (25), E −20 (25)
    doc = exported(client, made.night.id)
    assert doc["night"]["name"] == "Кубок" and doc["night"]["ranking"] == "total"
    assert [(s["place"], s["name"], s["total"]) for s in doc["standings"]] == [
        (1, "C", 60),
        (2, "B", 30),
        (3, "A", -5),
        (4, "D", -20),
        (4, "E", -20),
    ]
    # the same night by place points would put D and E (25 points) before A (0): the order is the ranking's
    assert {s["name"]: s["points"] for s in doc["standings"]} == {
        "C": 100.0,
        "B": 100.0,
        "A": 0.0,
        "D": 25.0,
        "E": 25.0,
    }


def test_a_table_that_has_not_played_has_no_place_points_yet(client):
    made = client.post(f"{API}/nights", json={"tables": [["Анна", "Борис"], ["Вера", "Гоша"]]}).get_json()
    record(client, made["tables"][0], ["Анна", "Борис"], "Борис")
    tables = exported(client, made["id"])["rounds"][0]["tables"]
    assert tables[0]["place_points"] == {"Анна": 0.0, "Борис": 100.0}
    assert tables[1]["place_points"] == {"Вера": None, "Гоша": None} and tables[1]["deals"] == 0
    header, rows = csv_rows(client, made["id"])
    assert [row[5] for row in rows] == ["0.0", "100.0", "", ""]


def test_the_downloads_are_attachments_named_with_the_nights_date(client):
    night = two_round_night(client)
    doc = exported(client, night["id"])
    day = datetime.fromisoformat(doc["night"]["created_at"]).astimezone().strftime("%Y-%m-%d")
    stem = f"kunken-night-{day}-{re.sub(r'[^A-Za-z0-9_-]', '', night['id'][:8])}"
    as_json = client.get(f"/nights/{night['id']}/export.json")
    assert as_json.status_code == 200 and as_json.mimetype == "application/json"
    assert as_json.headers["Content-Disposition"] == f"attachment; filename={stem}.json"
    assert json.loads(as_json.get_data(as_text=True)) == doc  # the page's download is the API's document
    as_csv = client.get(f"/nights/{night['id']}/export.csv")
    assert as_csv.status_code == 200 and as_csv.mimetype == "text/csv"
    assert as_csv.headers["Content-Disposition"] == f"attachment; filename={stem}.csv"


def test_no_token_is_in_any_file_even_for_the_nights_owner(app, client):
    night = two_round_night(client)
    tokens = every_token(night)
    assert len(set(tokens)) == 5
    owner = phone(app)
    assert owner.get(f"/nights/{night['id']}/own/{night['edit_token']}").status_code == 303
    bearer = {"Authorization": f"Bearer {night['edit_token']}"}
    bodies = {
        "api": client.get(f"{API}/nights/{night['id']}/export").get_data(as_text=True),
        "api with the night's token": client.get(f"{API}/nights/{night['id']}/export", headers=bearer),
        "json": client.get(f"/nights/{night['id']}/export.json"),
        "json (owner)": owner.get(f"/nights/{night['id']}/export.json"),
        "csv": client.get(f"/nights/{night['id']}/export.csv"),
        "csv (owner)": owner.get(f"/nights/{night['id']}/export.csv"),
    }
    for name, body in bodies.items():
        raw = body if isinstance(body, str) else body.get_data(as_text=True)
        assert night["rounds"][0][0]["id"] in raw or name.startswith("csv"), name  # the file holds the tables
        leaked = [t for t in tokens if t in raw]
        assert leaked == [], (name, leaked)
        assert "edit_token" not in raw and "/scorer/" not in raw and "/own/" not in raw, name


#: The export's example in docs/api.md ("An export looks like this"), as docs/api.md's examples are compared.
DOCUMENTED = """
{"format": "kunken-night", "version": 1,
 "night": {"id": "...", "name": null, "game": "kunken", "rules": "...", "ranking": "points",
           "created_at": "...", "ended_at": null},
 "rounds": [{"round": 1, "tables": [
   {"table": 1, "session_id": "...", "players": ["Анна", "Борис"], "deals": 1, "ended": false,
    "totals": {"Анна": 30, "Борис": -5}, "place_points": {"Анна": 100.0, "Борис": 0.0}},
   {"table": 2, "session_id": "...", "players": ["Вера", "Гоша", "Дима"], "deals": 0, "ended": false,
    "totals": {"Вера": 0, "Гоша": 0, "Дима": 0}, "place_points": {"Вера": null, "Гоша": null, "Дима": null}}]}],
 "standings": [{"place": 1, "name": "Анна", "total": 30, "points": 100.0, "deals": 1},
               {"place": 2, "name": "Вера", "total": 0, "points": 0.0, "deals": 0},
               "..."]}
"""


def test_the_documented_example_is_the_answer(client):
    """The example the API's docs show (two tables, one deal at the first) is what the API answers."""
    made = client.post(f"{API}/nights", json={"tables": [["Анна", "Борис"], ["Вера", "Гоша", "Дима"]]}).get_json()
    record(client, made["tables"][0], ["Анна", "Борис"], "Анна")
    assert mismatches(json.loads(DOCUMENTED), exported(client, made["id"])) == []


# -- the CSV -----------------------------------------------------------------------------------------------


@pytest.mark.lang("en")
def test_the_csv_is_one_row_per_player_per_table_with_the_nights_standing(client):
    night = two_round_night(client)
    doc = exported(client, night["id"])
    header, rows = csv_rows(client, night["id"])
    assert header == CSV_HEADER_EN
    expected = []
    standing = {s["name"]: s for s in doc["standings"]}
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            for seat, name in enumerate(table["players"], start=1):
                s = standing[name]
                expected.append(
                    [
                        str(rnd["round"]),
                        str(table["table"]),
                        str(seat),
                        "'" + name if name[0] in "=+" else name,
                        str(table["totals"][name]),
                        str(table["place_points"][name]),
                        str(table["deals"]),
                        str(s["place"]),
                        str(s["total"]),
                        str(s["points"]),
                    ]
                )
    assert rows == expected
    assert len(rows) == sum(len(t) for t in ROUND_1) + sum(len(t) for t in ROUND_2) == 10
    assert rows[0][:7] == ["1", "1", "1", "Анна", "-5", "0.0", "1"]


def test_names_a_spreadsheet_would_run_are_defused_in_the_csv_and_kept_in_the_json(client):
    night = two_round_night(client)
    _, rows = csv_rows(client, night["id"])
    players = {row[3] for row in rows}
    assert players == {"Анна", "Вера", "Гоша", "'" + HOSTILE, "'+Дима"}
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in (row[3],))
    assert int(rows[0][4]) == -5  # a negative total stays a number, not a defused text
    doc = exported(client, night["id"])
    assert HOSTILE in doc["rounds"][0]["tables"][0]["players"]  # JSON is data: the name as it was typed


@pytest.mark.lang("ru")
def test_the_csv_headings_are_in_the_readers_language(client):
    night = two_round_night(client)
    header, _ = csv_rows(client, night["id"])
    assert header[:4] == ["Тур", "Стол", "Место", "Игрок"] and header[-1] == "Очки за места за вечер"


# -- the table cards ------------------------------------------------------------------------------------------


def test_the_owner_sees_each_tables_scorer_link_on_its_card_and_it_is_not_stored(app, client):
    night = two_round_night(client)
    owner = phone(app)
    assert owner.get(f"/nights/{night['id']}/own/{night['edit_token']}").status_code == 303
    for number, (tables, seating) in enumerate(zip(night["rounds"], (ROUND_1, ROUND_2), strict=True), start=1):
        page = owner.get(f"/nights/{night['id']}/rounds/{number}/cards")
        assert page.status_code == 200
        assert page.headers["Cache-Control"] == "no-store"
        html = text(page)
        cards = re.findall(r'<li class="table-card" id="card-(\d+)"', html)
        assert cards == [str(n) for n in range(1, len(seating) + 1)]
        for m, (table, players) in enumerate(zip(tables, seating, strict=True), start=1):
            card = re.search(rf'id="card-{m}".*?</figure>', html, re.S)[0]
            assert f"Round {number} · Table {m}" in card
            seats = [htmllib.unescape(s) for s in re.findall(r"<li>(.*?)</li>", card)]
            assert seats == players  # seat 1 first
            url = f"/s/{table['id']}/scorer/{table['edit_token']}"
            assert card.count(url) == 2  # the link, and its address in words (the QR code draws it)
            assert 'class="qr"' in card and "Scorer link" in card
        others = [t["edit_token"] for n, r in enumerate(night["rounds"], start=1) if n != number for t in r]
        assert not any(t in html for t in [night["edit_token"], *others])  # only this round's, never the night's


def test_a_stranger_sees_each_tables_scores_link_and_no_token(app, client):
    night = two_round_night(client)
    stranger = phone(app)
    page = stranger.get(f"/nights/{night['id']}/rounds/2/cards")
    assert page.status_code == 200
    assert page.headers.get("Cache-Control") != "no-store"
    html = text(page)
    assert not [t for t in every_token(night) if t in html]
    assert "/scorer/" not in html
    for m, table in enumerate(night["rounds"][1], start=1):
        card = re.search(rf'id="card-{m}".*?</figure>', html, re.S)[0]
        assert card.count(f'/s/{table["id"]}"') == 1 and card.count(f"/s/{table['id']}<") == 1
        assert "Scores link" in card and 'aria-label="QR code of the scores link"' in card
    assert 'id="cards-public-note"' in html
    # a night's cookie holding another token (a table's) is no owner's
    table_token = night["rounds"][0][0]["edit_token"]
    stranger.set_cookie(f"kunken_night_{night['id']}", table_token, path=f"/nights/{night['id']}")
    answer = stranger.get(f"/nights/{night['id']}/rounds/1/cards")
    assert answer.status_code == 200 and "/scorer/" not in text(answer) and table_token not in text(answer)


def test_a_card_says_so_when_its_tables_scorer_link_was_made_anew(app, client):
    night = two_round_night(client)
    table = night["rounds"][1][0]
    renewed = client.post(
        f"{API}/sessions/{table['id']}/token", headers={"Authorization": f"Bearer {table['edit_token']}"}
    )
    assert renewed.status_code == 200
    owner = phone(app)
    owner.get(f"/nights/{night['id']}/own/{night['edit_token']}")
    html = text(owner.get(f"/nights/{night['id']}/rounds/2/cards"))
    first = re.search(r'id="card-1".*?</figure>', html, re.S)[0]
    second = re.search(r'id="card-2".*?</figure>', html, re.S)[0]
    assert "/scorer/" not in first and "made anew" in first and table["edit_token"] not in html
    assert renewed.get_json()["edit_token"] not in html  # the new token was never the night's to show
    assert f"/scorer/{night['rounds'][1][1]['edit_token']}" in second


def test_the_card_names_the_night_or_else_the_day_it_started(app, client, store):
    made = start_night(store, RuleSet.for_game("kunken", {}), [["A", "B"]], settings=NightSettings("Кубок клуба"))
    html = text(phone(app).get(f"/nights/{made.night.id}/rounds/1/cards"))
    assert '<p class="card-night">Кубок клуба</p>' in html
    unnamed = client.post(f"{API}/nights", json={"tables": [["A", "B"]]}).get_json()
    html = text(phone(app).get(f"/nights/{unnamed['id']}/rounds/1/cards"))
    night = client.get(f"{API}/nights/{unnamed['id']}/export").get_json()["night"]
    when = datetime.fromisoformat(night["created_at"]).astimezone()
    assert f'<p class="card-night">{when.strftime("%B")} {when.day}, {when.year}</p>' in html


@pytest.mark.lang("ru")
def test_the_cards_speak_russian(client):
    made = client.post(f"{API}/nights", json={"tables": [["Анна", "Борис"]]}).get_json()
    html = text(client.get(f"/nights/{made['id']}/rounds/1/cards"))
    assert "Карточки столов" in html and "Тур 1 · Стол 1" in html and "Ссылка на счёт" in html
    assert 'lang="ru"' in html


# -- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/rounds/1/cards", "/export.csv", "/export.json"])
def test_an_unknown_night_is_a_404_page(app, path):
    answer = phone(app).get(f"/nights/no-such-night{path}")
    assert answer.status_code == 404
    assert "There is no club night with this id." in text(answer)


def test_an_unknown_night_is_a_404_on_the_api(client):
    answer = client.get(f"{API}/nights/no-such-night/export")
    assert answer.status_code == 404
    assert answer.get_json() == {"error": "There is no club night with this id."}


@pytest.mark.parametrize(
    "round_, words",
    [
        ("3", "This night has no round 3: it has 2 rounds so far."),
        ("0", "This night has no round 0: it has 2 rounds so far."),
        ("-1", None),
        ("x", None),
        ("1.5", None),
        ("99999999999999999999999", "it has 2 rounds so far."),
    ],
)
def test_a_round_the_night_does_not_have_is_a_404_saying_so(app, client, round_, words):
    night = two_round_night(client)
    answer = phone(app).get(f"/nights/{night['id']}/rounds/{round_}/cards")
    assert answer.status_code == 404
    assert words is None or words in text(answer), text(answer)


@pytest.mark.lang("ru")
def test_a_missing_round_is_said_in_russian(client):
    made = client.post(f"{API}/nights", json={"tables": [["Анна", "Борис"]]}).get_json()
    answer = client.get(f"/nights/{made['id']}/rounds/4/cards")
    assert answer.status_code == 404 and "В этом вечере нет тура 4: пока в нём 1 тур." in text(answer)


def test_with_members_on_a_stranger_is_turned_away_and_the_owner_is_not(app, client):
    night = two_round_night(client)
    owner = phone(app)
    owner.get(f"/nights/{night['id']}/own/{night['edit_token']}")
    app.config["MEMBERS"] = True
    try:
        stranger = phone(app)
        for path in ("/rounds/1/cards", "/export.csv", "/export.json"):
            assert stranger.get(f"/nights/{night['id']}{path}").status_code == 403, path
            assert owner.get(f"/nights/{night['id']}{path}").status_code == 200, path
        assert stranger.get(f"{API}/nights/{night['id']}/export").status_code == 403
        bearer = {"Authorization": f"Bearer {night['edit_token']}"}
        assert stranger.get(f"{API}/nights/{night['id']}/export", headers=bearer).status_code == 200
    finally:
        app.config["MEMBERS"] = False


# -- valid HTML ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_cards_pages_are_valid_html(app, client, tmp_path, language):
    night = two_round_night(client)
    owner, stranger = app.test_client(), app.test_client()
    for c in (owner, stranger):
        c.set_cookie("lang", language)
    owner.get(f"/nights/{night['id']}/own/{night['edit_token']}")
    pages = {
        "owner": owner.get(f"/nights/{night['id']}/rounds/2/cards"),
        "stranger": stranger.get(f"/nights/{night['id']}/rounds/1/cards"),
        "no round": stranger.get(f"/nights/{night['id']}/rounds/9/cards"),
    }
    files = []
    for name, answer in pages.items():
        path = Path(tmp_path) / f"cards-{name.replace(' ', '-')}.html"
        path.write_text(text(answer), encoding="utf-8")
        files.append(path)
    assert vnu.check(files) == []


def test_the_store_is_a_real_file(app):
    """The tests above read and write the app's own SQLite file (no mock): the night is in it."""
    client = app.test_client()
    made = client.post(f"{API}/nights", json={"tables": [["A", "B"]]}).get_json()
    store = Store.open(app.config["DATABASE"])
    try:
        assert store.get_night(made["id"]).id == made["id"]
    finally:
        store.close()
