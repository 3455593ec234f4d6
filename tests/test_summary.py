"""Sharing the evening: the chart, CSV and JSON exports, import (the page and the API, dates kept
or replaced), the summary page and player history."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest
from conftest import CSRF, SWAP_FORM, hidden, phone, shots_dir, start, submit, text

from kunken_scorer import KunkenError, RuleSet
from kunken_scorer.core.charts import bar_chart, running_chart
from kunken_scorer.core.rules import HOUSE_RULES
from kunken_scorer.service import check_deal, player_history, scoreboard
from kunken_scorer.service.exports import CSV_COLUMNS, FORMAT, csv_rows, download_name, export_document, import_document
from kunken_scorer.web import create_app
from kunken_scorer.web.filters import when_filter
from kunken_scorer.web.summary import scoreboard_chart

SVG = "{http://www.w3.org/2000/svg}"
EN = {"Accept-Language": "en"}


@pytest.fixture(autouse=True)
def views_endpoints(app):
    """Pages link to views.home and views.session; stand in for them where views.py has none yet."""
    for endpoint, rule in (("views.home", "/"), ("views.session", "/s/<sid>")):
        if endpoint not in app.view_functions:
            app.add_url_rule(rule, endpoint, lambda **_: "stand-in")


# -- building sessions through the store and the service -----------------------------------


def player(name, melds=(), hand="", vists=()):
    return {"name": name, "melds": list(melds), "vists": list(vists), "hand": hand}


def record(store, session, body, **kwargs):
    """Read a deal with the service (as the views do) and store it."""
    checked = check_deal(session, body)
    canonical, report = checked.record, checked.report
    store.add_deal(session.id, canonical, **kwargs)
    return report


def new_session(store, players=("Anna", "Boris", "Vera"), game="kunken", switches=None, target=None):
    rules = RuleSet.for_game(game, switches or {})
    session, token = store.create_session(rules.game, rules.to_dict(), list(players), target)
    return session, token


def evening(store, names=("Anna", "Boris", "Vera"), switches=None):
    """A session with a plain deal, an express, a redeal and a deal recorded anyway with a note."""
    a, b, v = names
    session, token = new_session(store, names, switches=switches)
    record(
        store,
        session,
        {
            "players": [
                player(a, ["A♠ A♥ A♦"], vists=[{"to": b, "meld": 0, "cards": "5♥"}]),
                player(b, ["2♥ 3♥ 4♥"], "K♣ JK"),
                player(v, [], "5♠ 6♣"),
            ],
            "went_out": a,
        },
    )
    record(
        store,
        session,
        {
            "players": [player(a, [], "7♣"), player(b, ["K♠ K♥ K♦"]), player(v, [], "Q♣")],
            "went_out": b,
            "express": True,
        },
    )
    record(store, session, {"players": [a, b, v], "redeal": True})
    report = record(
        store,
        session,
        {"players": [player(a, ["9♣ 10♣ J♣"]), player(b, [], "3♠"), player(v, ["2♣ 3♦ 4♠"], "8♦")], "went_out": a},
        override=True,
        note="=SUM(A1) <we agreed>",
    )
    assert not report.valid
    return session, token


def csrf_token(client, path):
    page = client.get(path, headers=EN)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True))
    assert match, "the form has a CSRF token"
    return match.group(1)


# -- the chart ------------------------------------------------------------------------------


def test_chart_is_wellformed_svg_with_one_line_per_player_and_escaped_names():
    names = ["Anna", '<b>&"', "Вера"]
    running = [{"Anna": 35, '<b>&"': -5, "Вера": -10}, {"Anna": 25, '<b>&"': 55, "Вера": -30}]
    svg = running_chart(names, running)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    lines = root.findall(f".//{SVG}path[@class='line']")
    assert len(lines) == len(names)
    assert [line.find(f"{SVG}title").text for line in lines] == names
    assert "<b>" not in svg and "&lt;b&gt;&amp;&quot;" in svg
    # Black-and-white: every line has its own dash pattern and marker path; no style attributes.
    dashes = [line.get("stroke-dasharray", "") for line in lines]
    assert len(set(dashes)) == len(names)
    assert "style=" not in svg
    # A labelled end for every player, axis labels for every deal and a zero line.
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert any(t.startswith("Anna") and t.rstrip().endswith("25") for t in texts)
    assert {"1", "2"} <= set(texts)
    assert root.find(f".//{SVG}line[@class='zero']") is not None


def test_chart_of_twelve_players_and_no_deals_stays_distinct_and_wellformed():
    names = [f"P{i}" for i in range(12)]
    root = ET.fromstring(running_chart(names, []))
    lines = root.findall(f".//{SVG}path[@class='line']")
    assert len(lines) == 12
    assert len({line.get("stroke-dasharray", "") for line in lines}) == 12
    markers = [g.find(f"{SVG}path") for g in root.iter(f"{SVG}g") if g.get("class") == "series"]
    assert len(markers) == 12  # every line's start point carries its marker


def test_the_phone_chart_shortens_long_names_so_it_stays_narrow():
    """Names of 16 letters would widen the phone's chart (and shrink its text): it shows 10 of them, the whole
    name staying the line's title; the full chart shows 16."""
    names = ["Александра-Мария", "Константин-Петр", "Вера"]
    running = [{names[0]: 120, names[1]: -35, names[2]: 5}]
    phone = ET.fromstring(running_chart(names, running, phone=True))
    full = ET.fromstring(running_chart(names, running))
    assert float(phone.get("width")) <= 420 < 600 < float(full.get("width"))
    ends = ["".join(t.itertext()) for t in phone.iter(f"{SVG}text") if "…" in "".join(t.itertext())]
    assert sorted(ends) == ["Александр… 120", "Константи… −35"]
    assert [line.find(f"{SVG}title").text for line in phone.findall(f".//{SVG}path[@class='line']")] == names
    assert any("".join(t.itertext()) == "Александра-Мария 120" for t in full.iter(f"{SVG}text"))


@pytest.mark.parametrize("phone", [False, True])
def test_the_deal_numbers_under_the_chart_never_run_into_each_other(phone):
    """Thinned to about 20 (10 on a phone's chart), the last deal's number always shown, and two side by side
    never closer than their width: 21 deals on the phone's chart wrote "2021"."""
    for n in range(1, 160):
        root = ET.fromstring(running_chart(["Anna"], [{"Anna": i} for i in range(n)], phone=phone))
        axis = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "x-axis")
        labels = [(float(t.get("x")), t.text) for t in axis.iter(f"{SVG}text")]
        assert labels[0][1] == "0" and labels[-1][1] == str(n), (n, labels)
        for (x1, a), (x2, b) in zip(labels, labels[1:], strict=False):
            assert x2 - x1 >= 3.6 * (len(a) + len(b)) + 4, (n, phone, a, b, x2 - x1)  # 7.2 px a digit
        assert len(labels) <= (12 if phone else 22), (n, len(labels))


def test_scoreboard_chart_numbers_the_axis_by_deal_skipping_redeals(store):
    session, _ = evening(store)
    board = scoreboard(store, session.id)
    root = ET.fromstring(scoreboard_chart(board))
    ticks = [
        "".join(t.itertext()) for g in root.iter(f"{SVG}g") if g.get("class") == "x-axis" for t in g.iter(f"{SVG}text")
    ]
    assert ticks == ["0", "1", "2", "4"]


def test_bar_chart_is_wellformed_and_escapes():
    svg = bar_chart([('<b>&"', 12.5), ("Boris", -3.0)], title="Average <deal>")
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}title").text == "Average <deal>"
    assert "<b>" not in svg


def test_chart_endpoint_serves_svg_with_etag(client, store):
    session, _ = evening(store)
    response = client.get(f"/s/{session.id}/chart.svg", headers=EN)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    ET.fromstring(response.get_data(as_text=True))
    again = client.get(f"/s/{session.id}/chart.svg", headers={**EN, "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert client.get("/s/nope/chart.svg").status_code == 404


def test_a_phone_gets_a_narrower_chart_of_the_same_totals(client, store):
    """``?size=phone`` draws the plot narrower (its text then shows larger across a phone), with its own ETag."""
    session, _ = evening(store)
    full = client.get(f"/s/{session.id}/chart.svg", headers=EN)
    phone = client.get(f"/s/{session.id}/chart.svg?size=phone", headers=EN)
    width = {r: float(ET.fromstring(r.get_data(as_text=True)).get("width")) for r in (full, phone)}
    assert width[phone] < 0.7 * width[full]
    labels = {r: re.findall(r'<tspan font-weight="bold">([^<]+)<', r.get_data(as_text=True)) for r in (full, phone)}
    assert labels[phone] == labels[full] and labels[full]  # every player's total at the end of their line
    assert phone.headers["ETag"] != full.headers["ETag"]
    page = client.get(f"/s/{session.id}", headers=EN).get_data(as_text=True)
    assert re.search(r'<source media="\(max-width: 600px\)" srcset="[^"]*size=phone"', page)


# -- CSV ------------------------------------------------------------------------------------


def read_csv(response, language="en"):
    """The CSV's text and its rows, keyed by column (the headings are in the page's language)."""
    raw = response.get_data()
    assert raw.startswith("\ufeff".encode("utf-8"))
    text = raw.decode("utf-8-sig")
    headings = {"en": CSV_EN, "ru": CSV_RU}[language]
    assert text.split("\r\n", 1)[0] == ",".join(headings)
    return text, list(csv.DictReader(io.StringIO(text.split("\r\n", 1)[1]), fieldnames=CSV_COLUMNS))


CSV_EN = ("Deal", "Player", "Plus", "Minus", "Score", "Total", "Went out", "Express", "Redeal", "Joker swaps")
CSV_EN += ("Recorded anyway", "Note")
CSV_RU = ("Партия", "Игрок", "Плюс", "Минус", "Итог", "Итого", "Выход", "Экспресс", "Пересдача", "Замены джокера")
CSV_RU += ("Записана всё равно", "Примечание")


def test_csv_headings_are_in_the_pages_language(client, store):
    session, _ = evening(store)
    client.set_cookie("lang", "ru")
    _text, rows = read_csv(client.get(f"/s/{session.id}/export.csv"), "ru")
    assert len(rows) == 12 and rows[0]["player"] == "Anna"


def test_csv_has_a_row_per_player_per_deal_with_running_totals(client, store):
    session, _ = evening(store)
    board = scoreboard(store, session.id)
    client.set_cookie("lang", "en")
    response = client.get(f"/s/{session.id}/export.csv")
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and re.search(r"filename=[\w.-]+\.csv$", disposition)
    text, rows = read_csv(response)
    assert tuple(rows[0].keys()) == CSV_COLUMNS
    assert len(rows) == len(board.players) * len(board.deals) == 12
    # The running total after each deal equals the scoreboard's (a redeal leaves it as it was).
    scored = [d.number for d in board.deals if not d.deal.redeal]
    for number, totals in zip(scored, board.running, strict=False):
        for name in board.players:
            row = next(r for r in rows if r["deal"] == str(number) and r["player"] == name)
            assert int(row["total"]) == totals[name]
    last = {r["player"]: int(r["total"]) for r in rows if r["deal"] == "4"}
    assert last == board.totals
    first = {r["player"]: (r["plus"], r["minus"], r["score"], r["went_out"]) for r in rows if r["deal"] == "1"}
    assert first == {
        "Anna": ("35", "0", "35", "Anna"),
        "Boris": ("15", "20", "-5", "Anna"),
        "Vera": ("0", "10", "-10", "Anna"),
    }
    assert {r["express"] for r in rows if r["deal"] == "2"} == {"1"}
    assert {r["redeal"] for r in rows if r["deal"] == "3"} == {"1"}
    assert {r["override"] for r in rows if r["deal"] == "4"} == {"1"}
    # Negative numbers stay numbers; the note that looks like a formula is defused.
    assert ",-5," in text
    assert {r["note"] for r in rows if r["deal"] == "4"} == {"'=SUM(A1) <we agreed>"}


def test_csv_defuses_formulas_in_names_but_keeps_numbers(store):
    session, _ = evening(store, names=("=cmd|' /C calc'!A0", "+Boris", "@Vera"))
    rows = csv_rows(scoreboard(store, session.id))
    names = {r["player"] for r in rows}
    assert names == {"'=cmd|' /C calc'!A0", "'+Boris", "'@Vera"}
    assert {r["went_out"] for r in rows if r["deal"] == 1} == {"'=cmd|' /C calc'!A0"}
    assert all(isinstance(r["score"], int) for r in rows if r["deal"] != 3)
    assert any(r["score"] < 0 for r in rows if r["deal"] != 3)


def test_csv_defuses_formulas_that_start_with_a_fullwidth_sign(store):
    """＝ ＋ － ＠ (fullwidth, U+FF1D U+FF0B U+FF0D U+FF20) start a formula in some spreadsheets as = + - @ do."""
    session, _ = evening(store, names=("＝cmd|' /C calc'!A0", "＋Boris", "＠Vera"))
    rows = csv_rows(scoreboard(store, session.id))
    assert {r["player"] for r in rows} == {"'＝cmd|' /C calc'!A0", "'＋Boris", "'＠Vera"}
    assert {r["went_out"] for r in rows if r["deal"] == 1} == {"'＝cmd|' /C calc'!A0"}
    first = store.list_deals(session.id)[0]  # a note that starts with the fullwidth minus
    store.update_deal(session.id, first.id, first.record, override=False, note="－1+2", expected_revision=1)
    notes = {r["note"] for r in csv_rows(scoreboard(store, session.id)) if r["deal"] == 1}
    assert notes == {"'－1+2"}


def test_csv_of_an_unknown_session_is_404(client):
    assert client.get("/s/nope/export.csv").status_code == 404


# -- JSON export and import -----------------------------------------------------------------


def test_export_document_shape(client, store):
    session, _ = evening(store, switches={"opening_points": 40})
    doc = export_document(store, session.id)
    assert list(doc) == [
        "format",
        "id",
        "game",
        "rules",
        "players",
        "target",
        "created_at",
        "ended_at",
        "hand_entry",
        "deals",
    ]
    assert doc["format"] == FORMAT and doc["id"] == session.id and doc["rules"]["opening_points"] == 40
    assert [d["number"] for d in doc["deals"]] == [1, 2, 3, 4]
    assert doc["deals"][3]["override"] is True and doc["deals"][3]["note"] == "=SUM(A1) <we agreed>"
    response = client.get(f"/s/{session.id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    assert json.loads(response.get_data(as_text=True)) == doc


def test_export_then_import_gives_a_new_session_with_identical_scores(store):
    session, _ = evening(store, switches={"joker_limit": "two", "ace_points": 5})
    store.end_session(session.id)
    doc = json.loads(json.dumps(export_document(store, session.id)))  # through JSON text, as a file
    imported, token = import_document(store, doc)
    assert imported.id != session.id
    assert store.check_token(imported.id, token)
    before, after = scoreboard(store, session.id), scoreboard(store, imported.id)
    assert after.totals == before.totals
    assert after.running == before.running
    assert after.rules == before.rules and after.players == before.players
    assert [d.scores for d in after.deals] == [d.scores for d in before.deals]
    assert [(d.row.override, d.row.note) for d in after.deals] == [(d.row.override, d.row.note) for d in before.deals]
    # The CSV of the copy is the CSV of the original, row for row.
    assert csv_rows(after) == csv_rows(before)


def broken_documents():
    base = {
        "format": FORMAT,
        "id": "x",
        "game": "kunken",
        "rules": {},
        "players": ["Anna", "Boris"],
        "target": None,
        "created_at": "2024-01-01T00:00:00+00:00",
        "ended_at": None,
        "deals": [
            {
                "number": 1,
                "record": {"players": [player("Anna", ["A♠ A♥ A♦"]), player("Boris", [], "K♣")], "went_out": "Anna"},
                "override": False,
                "note": None,
            }
        ],
    }
    yield "a list", [base]
    yield "no format", {k: v for k, v in base.items() if k != "format"}
    yield "another format", {**base, "format": "kunken-scorer/v9"}
    yield "unknown game", {**base, "game": "poker"}
    yield "unknown switch", {**base, "rules": {"jokers_fly": True}}
    yield "one player", {**base, "players": ["Anna"]}
    yield "same name twice", {**base, "players": ["Anna", "anna"]}
    yield "bad target", {**base, "target": {"kind": "forever", "value": 1}}
    yield "deals not a list", {**base, "deals": {"1": {}}}
    for label, change in [
        ("bad card", lambda d: d["record"]["players"][1].update(hand="11♥")),
        ("stranger in a deal", lambda d: d["record"]["players"][1].update(name="Mallory")),
        ("record missing", lambda d: d.pop("record")),
        ("override not a flag", lambda d: d.update(override="yes")),
        ("note not text", lambda d: d.update(note=["x"])),
        ("problems without override", lambda d: d["record"]["players"][0].update(melds=["A♠ 2♥ 9♦"])),
    ]:
        doc = copy.deepcopy(base)
        doc["deals"].append(copy.deepcopy(doc["deals"][0]))
        change(doc["deals"][1])
        yield label, doc


@pytest.mark.parametrize("doc", [doc for _, doc in broken_documents()], ids=[label for label, _ in broken_documents()])
def test_a_broken_document_is_refused_and_nothing_is_stored(store, doc):
    with pytest.raises(KunkenError) as caught:
        import_document(store, doc)
    assert caught.value.reason.message  # a sentence a person can act on
    assert store.recent_sessions() == []
    assert list(store.all_sessions_with_deals()) == []


def test_import_page_upload_makes_the_importer_the_scorer(client, store):
    session, _ = evening(store)
    exported = client.get(f"/s/{session.id}/export.json").get_data()
    token = csrf_token(client, "/import")
    response = client.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(exported), "evening.json")},
        content_type="multipart/form-data",
        headers=EN,
    )
    assert response.status_code == 302
    new_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    assert new_id != session.id
    cookie = client.get_cookie(f"kunken_edit_{new_id}")
    assert cookie is not None and cookie.http_only
    assert store.check_token(new_id, cookie.value)
    assert scoreboard(store, new_id).totals == scoreboard(store, session.id).totals


def test_import_page_accepts_pasted_text_with_a_bom(client, store):
    session, _ = evening(store)
    text = "\ufeff" + json.dumps(export_document(store, session.id), ensure_ascii=False)
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"), "text": text}, headers=EN)
    assert response.status_code == 302
    assert len(store.recent_sessions()) == 2


@pytest.mark.parametrize(
    "data, message",
    [
        ({"file": (io.BytesIO(b"not json at all"), "x.json")}, "not valid JSON"),
        ({"file": (io.BytesIO(b"\xff\xfe\x00garbage"), "x.json")}, "not UTF-8"),
        ({"text": "[" * 100000}, "nested too deeply"),
        ({"text": '{"format": "kunken-scorer/v1", "players": NaN}'}, "not valid JSON"),
        ({"text": "[1, 2]"}, "Nothing was imported"),
        (
            {
                "text": '{"format": "kunken-scorer/v1", "game": "kunken", "players": ["A", "B"], '
                '"deals": [{"record": {"players": [{"name": "A", "hand": "11♥"}, {"name": "B"}]}}]}'
            },
            "Deal 1 cannot be read",
        ),
        ({}, "Choose an exported file"),
        # a lone surrogate would be stored, then break the summary, the exports and the API's answers
        (
            {
                "text": '{"format": "kunken-scorer/v1", "players": ["A", "B"], "deals": [{"record": {"players": '
                '[{"name": "A", "melds": ["A♠ A♥ A♦"]}, {"name": "B", "hand": "K♣"}], "went_out": "\\ud800"}, '
                '"override": true, "note": "x"}]}'
            },
            "not valid Unicode",
        ),
        ({"file": (io.BytesIO(b'{"format": "kunken-scorer/v1", "note": "\\uDFFF"}'), "x.json")}, "not valid Unicode"),
    ],
)
def test_import_page_refuses_a_bad_file_with_a_form_error(client, store, data, message):
    response = client.post(
        "/import",
        data={"csrf_token": csrf_token(client, "/import"), **data},
        content_type="multipart/form-data",
        headers=EN,
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in page
    assert 'class="errors"' in page
    assert store.recent_sessions() == []


def test_the_import_page_works_without_csrf_protection(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "k.db"), "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False})
    assert app.test_client().get("/import", headers=EN).status_code == 200  # it read form.csrf_token: a 500


def test_import_page_needs_the_csrf_token(client, store):
    response = client.post("/import", data={"text": "{}"}, headers=EN)
    assert response.status_code == 400
    assert store.recent_sessions() == []


# -- dates through export and import ----------------------------------------------------------------


def test_export_import_keeps_created_and_ended(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    store.end_session(session.id)
    doc = export_document(store, session.id)
    doc["created_at"] = "2025-02-14T19:30:00+00:00"
    copy, token = import_document(store, doc)
    assert copy.id != session.id and token
    assert copy.created_at == "2025-02-14T19:30:00+00:00"
    assert copy.ended_at == store.get_session(session.id).ended_at


def test_a_broken_timestamp_is_dated_now_not_refused(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    doc = export_document(store, session.id)
    doc["created_at"] = "yesterday<script>"
    copy, _ = import_document(store, doc)
    assert copy.created_at != "yesterday<script>" and copy.created_at.startswith("20")
    assert copy.ended_at is None


def export_doc(**fields) -> dict:
    doc = {
        "format": FORMAT,
        "game": "kunken",
        "rules": {},
        "players": ["Anna", "Boris"],
        "target": None,
        "deals": [
            {
                "record": {
                    "players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, {"name": "Boris", "hand": "5♥"}],
                    "went_out": "Anna",
                }
            }
        ],
    }
    doc.update(fields)
    return doc


# -- an imported date near year 1 or 9999 broke the home page, /players and the summary (500) -------


@pytest.mark.parametrize(
    "field, stamp",
    [
        ("created_at", "0001-01-01T00:00:00+14:00"),
        ("created_at", "9999-12-31T23:59:59-14:00"),
        ("created_at", "0001-01-01"),
        ("ended_at", "0001-01-01T00:00:00+14:00"),
        ("ended_at", "9999-12-31T23:59:59-14:00"),
    ],
)
def test_an_imported_out_of_range_date_does_not_break_any_page(app, field, stamp):
    client = phone(app)
    response = client.post("/api/v1/sessions/import", json=export_doc(**{field: stamp}))
    assert response.status_code == 201
    sid = response.get_json()["id"]
    for url in (
        "/",
        "/players",
        f"/s/{sid}",
        f"/s/{sid}/summary",
        f"/s/{sid}/history",
        f"/s/{sid}/export.csv",
        f"/s/{sid}/export.json",
    ):
        for language in ("en", "ru"):
            client.set_cookie("lang", language)
            assert client.get(url).status_code == 200, (url, language)


def test_an_out_of_range_date_is_replaced_and_a_normal_one_kept(store):
    session, _ = import_document(
        store, export_doc(created_at="0001-01-01T00:00:00+14:00", ended_at="2025-02-14T23:00:00+00:00")
    )
    assert session.created_at.startswith("20") and session.ended_at == "2025-02-14T23:00:00+00:00"


def test_the_when_filter_survives_a_stored_extreme_date(app):
    with app.test_request_context("/"):
        assert when_filter("0001-01-01T00:00:00+14:00") == "0001-01-01T00:00:00+14:00"


# -- dates were written three ways, and the summary's in UTC while the pages' were in local time -------


@pytest.fixture
def moscow_time(monkeypatch):
    """The server's clock in Moscow (UTC+3): a time stored in UTC is shown three hours later."""
    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    "language, when, day, long_day",
    [
        ("en", "Feb 15, 2025, 2:30 AM", "Feb 15, 2025", "February 15, 2025"),
        ("ru", "15 февр. 2025 г., 02:30", "15 февр. 2025 г.", "15 февраля 2025 г."),
    ],
)
@pytest.mark.usefixtures("moscow_time")
def test_every_page_writes_a_date_one_way_in_the_tables_time_zone(app, language, when, day, long_day):
    """23:30 UTC on 14 February is 02:30 on the 15th in Moscow: the home page, the history, the summary and
    /players all say so, in the page's language (the summary said 14 Feb 23:30, and the pages 2025-02-15 02:30)."""
    client = phone(app)
    doc = export_doc(created_at="2025-02-14T23:00:00+00:00", ended_at="2025-02-14T23:30:00+00:00")
    sid = client.post("/api/v1/sessions/import", json=doc).get_json()["id"]
    client.set_cookie("lang", language)
    home, summary, history, players = (
        re.sub("[\u202f\xa0]", " ", client.get(url).get_data(as_text=True))  # CLDR's no-break spaces
        for url in ("/", f"/s/{sid}/summary", f"/s/{sid}/history", "/players")
    )
    assert ("Feb 15, 2025, 2:00 AM" if language == "en" else "15 февр. 2025 г., 02:00") in home
    assert when in summary and long_day in summary
    assert day in players
    shown = re.search(r"<time datetime=\"[^\"]+\">([^<]+)</time>", history)[1]  # the import, just now
    form = (
        r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M"
        if language == "en"
        else r"\d{1,2} [а-я]+\.? \d{4} г\., \d{2}:\d{2}"
    )
    assert re.fullmatch(form, shown), shown

    disposition = client.get(f"/s/{sid}/export.csv").headers["Content-Disposition"]
    assert "2025-02-15" in disposition and "2025-02-15" in download_name({"id": sid, **doc}, "json")
    for page in (home, summary, history, players):
        assert not re.search(r"\b2025-02-1[45]\b(?! ?T)", re.sub(r'datetime="[^"]*"', "", page))


# -- the import page stored a second copy on a double tap / resent form ------------------------------


def _import_form(client) -> dict:
    page = client.get("/import").get_data(as_text=True)
    return {"csrf_token": CSRF.search(page)[1], "form_key": hidden(page, "form_key")}


def test_sending_the_import_form_twice_imports_once(app, store):
    client = phone(app)
    form = _import_form(client)
    data = {**form, "text": json.dumps(export_doc())}
    first = client.post("/import", data=data)
    assert first.status_code == 302
    sid = first.headers["Location"].rsplit("/", 1)[1]
    assert client.get_cookie(f"kunken_edit_{sid}") is not None
    second = client.post("/import", data=data)
    assert second.status_code == 302 and second.headers["Location"] == first.headers["Location"]
    assert len(store.recent_sessions(10)) == 1
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert "was imported with 1 deal." in page and 'id="record-deal"' in page  # still this phone's


def test_a_fresh_import_form_imports_again(app, store):
    client = phone(app)
    for _ in range(2):
        data = {**_import_form(client), "text": json.dumps(export_doc())}
        assert client.post("/import", data=data).status_code == 302
    assert len(store.recent_sessions(10)) == 2


def test_a_refused_import_keeps_its_key_for_the_corrected_document(app, store):
    client = phone(app)
    form = _import_form(client)
    refused = client.post("/import", data={**form, "text": "{"})
    assert refused.status_code == 400
    assert hidden(refused.get_data(as_text=True), "form_key") == form["form_key"]
    assert client.post("/import", data={**form, "text": json.dumps(export_doc())}).status_code == 302
    assert len(store.recent_sessions(10)) == 1


def test_the_api_import_still_creates_a_new_session_each_time(app):
    client = phone(app)
    ids = {client.post("/api/v1/sessions/import", json=export_doc()).get_json()["id"] for _ in range(2)}
    assert len(ids) == 2


def test_store_import_with_a_repeated_key_returns_the_first_session(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    doc = export_document(store, session.id)
    first, token = import_document(store, doc, "form-abcdefghijklmnop")
    again, none = import_document(store, doc, "form-abcdefghijklmnop")
    assert token and none is None and again.id == first.id


# -- the summary page -----------------------------------------------------------------------


def test_summary_shows_standings_every_deal_rules_and_overrides(client, store):
    session, _ = evening(store, switches={"opening_points": 40, "joker_limit": "two"})
    board = scoreboard(store, session.id)
    page = client.get(f"/s/{session.id}/summary", headers=EN).get_data(as_text=True)
    # Standings in order with totals.
    standings = page[page.index('class="standings"') : page.index("</table>", page.index('class="standings"'))]
    found = re.findall(r'<th scope="row">(\w+)</th><td class="num"><strong>([−-]?\d+)</strong>', standings)
    assert found == [(s.name, str(s.total).replace("-", "−")) for s in board.status.standings]
    # Every deal has its row; scores, the express, the redeal and who went out are shown.
    for number in (1, 2, 3, 4):
        assert re.search(rf'<th scope="row" class="num">{number}</th>', page)
    assert '<td class="num" data-score="-5"><b>−5</b><small>+15 −20</small></td>' in page
    assert "Redeal: no scores" in page and ">express<" in page
    # Rules in force: each change with the preset's value, and the preset's key values.
    assert "Points needed to take the bank: 40" in page and "preset: 50" in page
    assert "Jokers allowed in one meld: at most two, and one in a 3-card meld" in page
    assert "preset: at most half of the meld&#39;s cards" in page
    assert "Cards dealt to each player" in page
    # The deal recorded anyway, with its note (escaped) and the problem the rules found.
    assert "recorded anyway" in page
    assert "=SUM(A1) &lt;we agreed&gt;" in page and "<we agreed>" not in page
    assert "2♣ 3♦ 4♠" in page
    # The chart is inline, print CSS is linked and the page has no inline styles or scripts.
    assert page.count('<path class="line"') == 3
    assert re.search(r'href="/static/print\.css\?v=[0-9a-f]{12}" media="print"', page)  # versioned (web/assets.py)
    assert "style=" not in page and not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert not re.search(r"\son\w+=", page)


def test_summary_of_the_preset_says_nothing_changed(client, store):
    session, _ = new_session(store, ("Anna", "Boris"), game="ordered-rummy")
    page = client.get(f"/s/{session.id}/summary", headers=EN).get_data(as_text=True)
    assert "no house rules changed" in page
    assert "Ordered rummy" in page and "No deals were recorded." in page
    assert "appears after the first scored deal" in page
    assert "Standings after 0 deals" not in page and "No deals yet" in page


def test_summary_prints_every_house_rule_default(client, store):
    """RULES.md: every default is printed on the summary, the three run switches too."""
    session, _ = new_session(store, ("Anna", "Boris"))
    page = client.get(f"/s/{session.id}/summary", headers=EN).get_data(as_text=True)
    kept = set(re.findall(r'<tr data-switch="([a-z_]+)">', page))
    assert set(HOUSE_RULES) <= kept, sorted(set(HOUSE_RULES) - kept)


def test_summary_leaves_out_defaults_that_mean_nothing_for_the_game(client, store):
    """A wild-card table has no printed jokers (the summary said "Printed jokers in the deck: 4" while the deal
    checks counted 2, the wild cards), and a game without express has no express multiplier."""
    session, _ = new_session(store, ("Anna", "Boris"), game="ordered-rummy", switches={"wild_card": "7♠"})
    page = client.get(f"/s/{session.id}/summary", headers=EN).get_data(as_text=True)
    shown = set(re.findall(r'<tr data-switch="([a-z_]+)">', page))
    assert 'data-switch="wild_card"' in page and "express" in shown and "short_ace" in shown
    assert "jokers" not in shown and "express_multiplier" not in shown
    plain, _ = new_session(store, ("Anna", "Boris"), target={"kind": "penalty", "value": 50})
    store.add_deal(plain.id, {"players": [{"name": "Anna", "hand": "K♠ " * 5}, {"name": "Boris"}]})
    page = client.get(f"/s/{plain.id}/summary", headers=EN).get_data(as_text=True)
    assert {"jokers", "express_multiplier"} <= set(re.findall(r'<tr data-switch="([a-z_]+)">', page))
    assert re.search(r"out at −50 points \(reached\)", re.sub(r"\s+", " ", page))


def test_summary_survives_an_unreadable_stored_deal(client, store):
    session, _ = new_session(store, ("Anna", "Boris"))
    store.add_deal(session.id, {"players": "scribbles"})
    response = client.get(f"/s/{session.id}/summary", headers=EN)
    assert response.status_code == 200
    assert "could not be read" in response.get_data(as_text=True)
    assert client.get(f"/s/{session.id}/export.csv").status_code == 200
    assert client.get(f"/s/{session.id}/chart.svg").status_code == 200


def test_summary_of_an_unknown_session_is_404(client):
    assert client.get("/s/nope/summary").status_code == 404
    assert client.get("/s/nope/export.json").status_code == 404


@pytest.mark.lang("en")
def test_summary_and_csv_show_the_swap(client):
    sid = start(client)
    submit(client, sid, SWAP_FORM, went_out="Anna")
    summary = text(client.get(f"/s/{sid}/summary"))
    assert "Boris swapped K♦ for the joker in meld 1 of Anna" in re.sub(r"<[^>]+>", "", summary)
    _text, rows = read_csv(client.get(f"/s/{sid}/export.csv"))
    assert [r["swaps"] for r in rows] == ["", "K♦ → Anna 1"]


# -- player history -------------------------------------------------------------------------


def test_player_history_aggregates_across_sessions(client, store):
    first, _ = evening(store)  # Anna 35-5+0+30=..., see the scoreboard
    second, _ = new_session(store, ("anna", "Gleb"))
    record(
        store,
        second,
        {"players": [player("anna", [], "K♠"), player("Gleb", ["Q♠ Q♥ Q♦"])], "went_out": "Gleb", "express": True},
    )
    new_session(store, ("Anna", "Nobody"))  # no deals: does not count
    one = scoreboard(store, first.id)
    history = {p.name.casefold(): p for p in player_history(store)}
    assert set(history) == {"anna", "boris", "vera", "gleb"}
    anna = history["anna"]
    assert anna.name == "anna"  # the latest spelling
    assert anna.sessions == 2 and anna.deals == 3 + 1
    assert anna.points == one.totals["Anna"] - 20
    assert anna.won == (1 if "Anna" in one.status.leaders else 0)
    assert history["gleb"].won == 1 and history["gleb"].expresses == 1
    assert history["boris"].expresses == 1 and history["vera"].expresses == 0
    assert history["gleb"].average == 60.0

    page = client.get("/players", headers=EN).get_data(as_text=True)
    assert page.count('<tr>\n        <th scope="row">') == 4
    assert "A session is won by whoever leads after its last deal" in page
    assert page.count('class="bar"') == 4
    only_rummy = client.get("/players?game=ordered-rummy", headers=EN).get_data(as_text=True)
    assert "No deals have been scored" in only_rummy


# -- printing (a browser prints the summary of a 20-deal evening to PDF) ---------------------


def twenty_deals(store):
    names = ("Anna", "Boris", "Vera", "Gleb")
    session, _ = new_session(store, names, switches={"opening_points": 40})
    hands = ["5♠ 6♣", "K♣", "7♦ 8♦ JK", ""]
    for i in range(20):
        out = names[i % 4]
        body = {
            "players": [
                player(n, ["A♠ A♥ A♦"] if n == out else ["2♥ 3♥ 4♥"] if j % 2 else [], "" if n == out else hands[j % 3])
                for j, n in enumerate(names)
            ],
            "went_out": out,
            "express": i % 7 == 3,
        }
        record(store, session, body)
    return session


def test_a_printed_summary_says_each_deals_warning_in_full(live_server, page, store, tmp_path):
    """A deal's warning sits in a closed <details> on screen; on paper its words are printed, not "⚠ warning"."""
    session, _ = new_session(store)
    both_copies = {
        "players": [
            player("Anna", ["9♣ JK J♣"]),
            player("Boris", ["10♣ 10♥ 10♠"], "2♣"),
            player("Vera", ["10♣ 10♦ 10♠"], "3♣"),
        ],
        "went_out": "Anna",
    }
    assert [w.code for w in record(store, session, both_copies).warnings] == ["joker_laid_early"]
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{live_server}/s/{session.id}/summary")
    assert page.locator("details.warnings").get_attribute("open") is None  # closed on screen
    pdf = tmp_path / "summary.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    printed = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "legal only if the joker was laid before the second copy" in " ".join(printed.split()), printed
    # the browser's own Print (print.js): opened for printing, closed again after
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details.warnings").get_attribute("open") == ""
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    assert page.locator("details.warnings").get_attribute("open") is None


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ("Final standings|Standings after 20", "Total", "Points needed to take the bank: 40")),
        ("ru", ("Положение после партии 20|Итоговое положение", "Итого", "Сколько очков нужно, чтобы взять банк: 40")),
    ],
)
def test_printed_summary_of_twenty_deals_fits_two_pages(live_server, page, store, tmp_path, language, words):
    """A4, at most two pages, the second never holding a line or two; the totals row keeps its label."""
    session = twenty_deals(store)
    board = scoreboard(store, session.id)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"{live_server}/s/{session.id}/summary")
    pdf = tmp_path / "summary.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    pages = int(
        re.search(
            r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        ).group(1)
    )
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(pdf), str(shots_dir(tmp_path) / f"print-summary-{language}")], check=True
    )
    assert pages <= 2
    if pages == 2:
        second = subprocess.run(
            ["pdftotext", "-layout", "-f", "2", "-l", "2", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert len([line for line in second.splitlines() if line.strip()]) >= 5, second
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    heading, total, rule = words
    assert re.search(heading, text)
    for s in board.status.standings:
        assert re.search(rf"{s.place}\s+{s.name}\s+{str(s.total).replace('-', '−')}", text)
    # the totals row: its label and every player's total on one line, not a heading of its own
    totals = "\\s+".join(re.escape(str(board.totals[n]).replace("-", "−")) for n in board.players)
    assert re.search(rf"^\s*{total}\s+{totals}\s*$", text, re.M), text
    assert rule in text
    deal_numbers = {int(m) for m in re.findall(r"^\s*(\d+)\s+[−-]?\d+\s+\+\d+\s+−\d+", text, re.M)}
    assert set(range(1, 21)) <= deal_numbers


def session_with_five_jokers_in_a_hand(store, switches=None) -> tuple[dict, dict]:
    """A session whose one deal, recorded anyway as an older version did, leaves Boris 5 jokers (the decks
    hold 4): the session and the deal's record."""
    session, _ = new_session(store, ("Anna", "Boris"), switches=switches)
    record = {
        "players": [
            {"name": "Anna", "melds": ["2♥ 3♥ 4♥"], "hand": ""},
            {"name": "Boris", "hand": {"points": 10, "jokers": 5}},
        ],
        "went_out": "Anna",
    }
    store.add_deal(session.id, record, override=True, note="as the table played it")
    return session, record


def test_a_deal_recorded_before_a_newer_limit_stays_readable_and_scored(client, store):
    """A short hand of 5 jokers (the decks hold 4) was recorded anyway before hands were limited to the
    decks' jokers: it is scored as before, with its "too many jokers" problem; only a new deal is refused."""
    session, record = session_with_five_jokers_in_a_hand(store)
    board = scoreboard(store, session.id)
    assert board.deals[0].error is None
    assert board.totals == {"Anna": 3 * 5, "Boris": -(10 + 5 * 10)}  # a joker left in hand is −10 in Kunken
    assert [p.code for p in board.deals[0].report.problems] == ["too_many_jokers"]
    page = client.get(f"/s/{session.id}", headers=EN).get_data(as_text=True)
    assert "could not be read" not in page and "\u221260" in page
    # the same hand typed today is refused at the door, naming the field
    answer = client.post("/api/v1/deals/score", json=record, headers=EN)
    assert answer.status_code == 400 and "players[1].hand.jokers: at most 4" in answer.get_json()["error"]


@pytest.mark.parametrize("jokers_in_hand", ["double", "10"])
def test_such_a_deal_goes_out_in_the_export_and_comes_back_in_an_import_within_limits(client, store, jokers_in_hand):
    """The session's own export imports again, its deal recorded anyway as it was. A hand-made file may not
    go past the decks' jokers plus a hand's cards (17), nor past today's other limits (points a multiple of
    5); a deal not recorded anyway is held to today's limits. The players' statistics take every deal in."""
    switches = {"joker_in_hand": jokers_in_hand if jokers_in_hand == "double" else int(jokers_in_hand)}
    session, _record = session_with_five_jokers_in_a_hand(store, switches)
    doc = client.get(f"/s/{session.id}/export.json").get_json()
    answer = client.post("/api/v1/sessions/import", json=doc, headers=EN)
    assert answer.status_code == 201, answer.get_json()
    boris = -(10 * 2**5) if jokers_in_hand == "double" else -(10 + 5 * 10)
    assert answer.get_json()["totals"] == {"Anna": 15, "Boris": boris}
    imported = store.list_deals(answer.get_json()["id"])
    assert [(d.override, d.note) for d in imported] == [(True, "as the table played it")]
    doc["deals"][0]["record"]["players"][1]["hand"] = {"points": 680, "jokers": 17}  # the most a file may hold
    assert client.post("/api/v1/sessions/import", json=doc, headers=EN).status_code == 201
    assert client.get("/players").status_code == 200  # its statistics are kept like any other's
    for hand, refused in (
        ({"points": 10, "jokers": 18}, "players[1].hand.jokers: at most 17"),
        ({"points": 7, "jokers": 5}, "players[1].hand.points"),
    ):
        doc["deals"][0]["record"]["players"][1]["hand"] = hand
        answer = client.post("/api/v1/sessions/import", json=doc, headers=EN)
        assert answer.status_code == 400 and refused in answer.get_json()["error"], (hand, answer.get_json())
    doc["deals"][0]["record"]["players"][1]["hand"] = {"points": 10, "jokers": 5}
    doc["deals"][0]["override"] = False
    answer = client.post("/api/v1/sessions/import", json=doc, headers=EN)
    assert answer.status_code == 400 and "players[1].hand.jokers: at most 4" in answer.get_json()["error"]


def test_an_import_form_sent_again_with_another_file_says_nothing_more_was_imported(app, store):
    """Back to the used form and another file: the first import is shown, and the phone is told that this
    file was not imported (it used to be told "imported with N deals", N the second file's)."""
    client = phone(app)
    form = _import_form(client)
    assert client.post("/import", data={**form, "text": json.dumps(export_doc())}).status_code == 302
    client.get("/")  # the first answer's message is read
    other = export_doc()
    other["deals"] = other["deals"] * 3
    again = client.post("/import", data={**form, "text": json.dumps(other)}, follow_redirects=True)
    page = again.get_data(as_text=True)
    assert "nothing more was imported" in page and "imported with 3 deals" not in page
    assert len(store.recent_sessions(10)) == 1


def test_an_imported_note_follows_the_note_rule_of_recording(store):
    doc = export_doc()
    doc["deals"][0]["note"] = "bell\x07 and esc\x1b[31m"
    with pytest.raises(KunkenError) as refused:
        import_document(store, doc)
    assert refused.value.reason.code == "note_control" and "deals[0].note" in refused.value.reason.message
    assert store.recent_sessions(10) == []


def test_a_long_evening_downloaded_as_json_imports_back_through_the_page_and_the_api(client, store):
    """The summary's JSON download of 600 deals (760 KB, past the 256 KB any other request may send) is
    taken back whole by the import page and the API: an import's limit is its own, 4 MB."""
    session, _ = new_session(store)
    checked = check_deal(
        session,
        {
            "players": [
                player("Anna", ["A♠ A♥ A♦", "5♥ 6♥ 7♥ 8♥"]),
                player("Boris", ["K♣ K♦ JK"], "3♣ 4♦"),
                player("Vera", [], "Q♠ 2♦"),
            ],
            "went_out": "Anna",
        },
    )
    canonical, report = checked.record, checked.report
    with store.db.atomic():
        for _ in range(600):
            store.add_deal(session.id, canonical, note="a note as long as a table writes one")
    download = client.get(f"/s/{session.id}/export.json")
    assert download.status_code == 200 and 256 * 1024 < len(download.data) < 4 * 1024 * 1024
    token = csrf_token(client, "/import")
    page = client.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(download.data), "evening.json")},
        content_type="multipart/form-data",
        headers=EN,
    )
    assert page.status_code == 302, page.get_data(as_text=True)[:500]
    by_page = page.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    by_api = client.post("/api/v1/sessions/import", data=download.data, content_type="application/json")
    assert by_api.status_code == 201, by_api.get_json()
    totals = scoreboard(store, session.id).totals
    assert totals == {name: 600 * score for name, score in report.scores.items()}
    for imported in (by_page, by_api.get_json()["id"]):
        board = scoreboard(store, imported)
        assert len(board.deals) == 600 and board.totals == totals


def test_a_body_past_its_limit_is_told_the_limit(client):
    """413 says how much may be sent: 256 KB to a page, 4 MB to the import page, in bytes to the API."""
    big = b"x" * (256 * 1024 + 1)
    page = client.post("/s/nope/deals/new", data=big, content_type="application/x-www-form-urlencoded", headers=EN)
    assert page.status_code == 413 and "at most 256 KB" in page.get_data(as_text=True)
    huge = b"x" * (4 * 1024 * 1024 + 1)
    page = client.post("/import", data=huge, content_type="application/x-www-form-urlencoded", headers=EN)
    assert page.status_code == 413 and "at most 4 MB" in page.get_data(as_text=True)
    api = client.post("/api/v1/sessions/import", data=huge, content_type="application/json")
    assert api.status_code == 413 and api.get_json()["error"] == "The request is too large: at most 4194304 bytes."
    api = client.post("/api/v1/melds/check", data=big, content_type="application/json")
    assert api.status_code == 413 and "at most 262144 bytes" in api.get_json()["error"]


def test_an_import_keeps_how_the_table_enters_hands(store):
    """The table's way of entering hands (counts, points or cards) is in the export and comes back with it."""
    session, _ = evening(store)
    store.set_hand_entry(session.id, "counts")
    doc = export_document(store, session.id)
    assert doc["hand_entry"] == "counts"
    imported, _ = import_document(store, doc)
    assert store.get_session(imported.id).hand_entry == "counts"
    plain, _ = import_document(store, {**doc, "hand_entry": None})
    assert store.get_session(plain.id).hand_entry is None
    with pytest.raises(KunkenError) as caught:
        import_document(store, {**doc, "hand_entry": "pebbles"})
    assert caught.value.reason.message == (
        "The export's field hand_entry is wrong: expected one of ranks, points, counts, cards."
    )
    ordered = {**doc, "game": "ordered-rummy", "rules": {"game": "ordered-rummy"}, "deals": [], "hand_entry": "counts"}
    with pytest.raises(KunkenError):  # ordered rummy has no counts: its small cards score apart
        import_document(store, ordered)


def test_an_ended_session_whose_end_cannot_be_read_is_imported_ended(store):
    session, _ = evening(store)
    store.end_session(session.id)
    doc = export_document(store, session.id)
    for damaged in ("yesterday", "2026-13-45T25:00:00", 12):
        imported, _ = import_document(store, {**doc, "ended_at": damaged})
        assert store.get_session(imported.id).ended_at, damaged  # not reopened
    still_open, _ = import_document(store, {**doc, "ended_at": None})
    assert store.get_session(still_open.id).ended_at is None


def test_a_deal_listed_twice_is_refused_and_nothing_is_stored(store):
    session, _ = evening(store)
    doc = export_document(store, session.id)
    before = len(store.recent_sessions(100))
    twice = {**doc, "deals": [*doc["deals"], doc["deals"][0]]}
    with pytest.raises(KunkenError) as caught:
        import_document(store, twice)
    assert caught.value.reason.message == (
        f"The export's field deals[{len(doc['deals'])}].number is wrong: "
        "the deals are numbered once each, and 1 is not."
    )
    assert len(store.recent_sessions(100)) == before
    with pytest.raises(KunkenError) as caught:
        import_document(store, {**doc, "deals": [{**doc["deals"][0], "number": "one"}]})
    assert (
        caught.value.reason.message
        == "The export's field deals[0].number is wrong: expected a whole number, 0 or more."
    )
    unnumbered = {**doc, "deals": [{k: v for k, v in d.items() if k != "number"} for d in twice["deals"]]}
    imported, _ = import_document(store, unnumbered)  # a hand-made file without numbers is read as it comes
    assert len(store.list_deals(imported.id)) == len(twice["deals"])


@pytest.mark.parametrize(
    "game, names",
    [
        (
            "kunken",
            [
                f"{first} Константиновна Петрова"
                for first in ("Анастасия", "Валентина", "Александра", "Ярослава", "Елизавета")
            ],
        ),
        ("ordered-rummy", [f"Player {i:02d} the Longnamed" for i in range(1, 11)]),
    ],
)
def test_a_printed_summary_keeps_every_players_column_on_a4(live_server, page, store, tmp_path, game, names):
    """Five players with names of 32 letters, or ten with 21: every player's column of the deals table and
    its total are on the printed A4 page (columns past the page's width were cut off)."""
    session, _ = new_session(store, names, game=game)
    for d in range(3):
        out = names[d % len(names)]
        hands = ["K♣", "5♠ 6♣", "7♦", "Q♠ 2♦", "9♥", "3♣", "4♦", "8♠", "J♥", "10♣"]
        body = {
            "players": [
                player(n, ["6♥ 7♥ 8♥"] if n == out else [], "" if n == out else hands[j]) for j, n in enumerate(names)
            ],
            "went_out": out,
        }
        record(store, session, body)
    board = scoreboard(store, session.id)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{live_server}/s/{session.id}/summary")
    pdf = tmp_path / "summary.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(pdf), str(shots_dir(tmp_path) / f"print-wide-{game}")], check=True
    )
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    totals = "\\s+".join(re.escape(str(board.totals[n]).replace("-", "−")) for n in board.players)
    assert re.search(rf"^\s*Total\s+{totals}\s*$", text, re.M), text
    # the page's table fits the printed width: no cell of it is laid out past the paper's right margin
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 710, "height": 1000})  # A4 less its margins, in CSS pixels
    past = page.evaluate(
        "[...document.querySelectorAll('table th, table td')].filter(c => c.getBoundingClientRect().right > 711)"
        ".map(c => c.textContent.trim().slice(0, 30))"
    )
    assert past == []
