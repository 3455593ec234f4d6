"""Work moved out of the web layer's views, summary, filters and desk: the start form's data, the history page's data,
the running-totals chart and its size, the players chart's bars, the desk's first table and the reference's switches
(``service.pages``), and stored times read back (``core.times``); and the web edge still in step with them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest

from kunken_scorer import RuleSet
from kunken_scorer.core.charts import running_chart_size
from kunken_scorer.core.rules import HOUSE_RULES, switch_values
from kunken_scorer.core.times import local_time, machine_time
from kunken_scorer.service import check_deal, pages, scoreboard

SVG = "{http://www.w3.org/2000/svg}"


def player(name, melds=(), hand=""):
    return {"name": name, "melds": list(melds), "vists": [], "hand": hand}


def new_session(store, players=("Anna", "Boris", "Vera"), game="kunken", switches=None):
    rules = RuleSet.for_game(game, switches or {})
    session, _token = store.create_session(rules.game, rules.to_dict(), list(players), None)
    return session


def add(store, session, body, **kwargs):
    """Store a deal as the service reads it; its row."""
    return store.add_deal(session.id, check_deal(session, body).record, **kwargs)[0]


PLAIN = {
    "players": [player("Anna", ["A♠ A♥ A♦"]), player("Boris", ["2♥ 3♥ 4♥"], "K♣ JK"), player("Vera", [], "5♠ 6♣")],
    "went_out": "Anna",
}
REDEAL = {"players": ["Anna", "Boris", "Vera"], "redeal": True}


# -- the start form ---------------------------------------------------------------------------------------------------


def test_start_form_data_is_the_games_defaults():
    data = pages.start_form_data("ordered-rummy")
    assert data == {"game": "ordered-rummy", "defaults_for": "ordered-rummy", "rules": switch_values("ordered-rummy")}
    assert pages.start_form_data(None) == pages.start_form_data("poker") == pages.start_form_data("kunken")
    assert pages.start_form_data("poker")["game"] == "kunken"


def test_start_form_data_keeps_what_the_table_typed_and_only_a_known_target_kind():
    data = pages.start_form_data("ordered-rummy", ["Anna", ""], "deals", "8")
    assert data["rules"] == switch_values("ordered-rummy")
    assert (data["players"], data["target_kind"], data["target_value"]) == (["Anna", ""], "deals", "8")
    assert pages.start_form_data("kunken", [], "forever", 3)["target_kind"] == ""
    assert pages.start_form_data("kunken", [], None, None)["target_kind"] == ""


# -- the history page -------------------------------------------------------------------------------------------------


def test_history_page_numbers_the_deals_there_now(store):
    session = new_session(store)
    empty = pages.history_page(store, session.id)
    assert empty.entries == [] and empty.numbers == {} and empty.board.players == ["Anna", "Boris", "Vera"]
    first = add(store, session, PLAIN)
    second = add(store, session, PLAIN)
    page = pages.history_page(store, session.id)
    assert page.numbers == {first.id: 1, second.id: 2}
    assert [e.deal_id for e in page.entries] == [second.id, first.id]  # newest first
    store.delete_deal(session.id, first.id)
    after = pages.history_page(store, session.id)
    assert after.numbers == {second.id: 1} and after.entries[0].action == "delete"


# -- the running-totals chart -----------------------------------------------------------------------------------------


def test_scoreboard_chart_translates_its_words_and_skips_redeals(store):
    session = new_session(store)
    add(store, session, PLAIN)
    add(store, session, REDEAL)
    add(store, session, PLAIN)
    board = scoreboard(store, session.id)
    asked = []
    svg = pages.scoreboard_chart(board, lambda word: asked.append(word) or word.upper())
    assert asked == list(pages.CHART_WORDS) == ["Running totals", "Total", "Deal"]
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}title").text == "RUNNING TOTALS"
    ticks = [
        "".join(t.itertext()) for g in root.iter(f"{SVG}g") if g.get("class") == "x-axis" for t in g.iter(f"{SVG}text")
    ]
    assert ticks == ["0", "1", "3"]
    phone = ET.fromstring(pages.scoreboard_chart(board, str, phone=True))
    assert round(float(phone.get("width"))) == pages.chart_size(board, phone=True)[0]


def test_chart_size_is_the_charts_size_in_whole_pixels(store):
    session = new_session(store)
    add(store, session, PLAIN)
    board = scoreboard(store, session.id)
    for phone in (False, True):
        width, height = running_chart_size(board.players, board.running, phone)
        assert pages.chart_size(board, phone) == (round(width), round(height))
        assert all(isinstance(n, int) for n in pages.chart_size(board, phone))


def test_the_chart_and_its_size_reach_the_pages(app, client, store):
    assert app.jinja_env.globals["running_chart_size"] is pages.chart_size
    session = new_session(store)
    add(store, session, PLAIN)
    russian = client.get(f"/s/{session.id}/chart.svg", headers={"Accept-Language": "ru"})
    assert ET.fromstring(russian.data).find(f"{SVG}title").text == "Счёт по ходу игры"
    english = client.get(f"/s/{session.id}/chart.svg", headers={"Accept-Language": "en"})
    assert ET.fromstring(english.data).find(f"{SVG}title").text == "Running totals"
    width, height = pages.chart_size(scoreboard(store, session.id))
    assert f'width="{width}" height="{height}"' in client.get(f"/s/{session.id}").get_data(as_text=True)


# -- the players page -------------------------------------------------------------------------------------------------


def test_players_page_bars_are_the_players_shown_with_their_averages(store):
    assert pages.players_page(store, None, show_all=False).bars == []
    session = new_session(store)
    add(store, session, PLAIN)
    add(store, session, PLAIN)
    page = pages.players_page(store, None, show_all=False)
    assert page.bars == [(p.name, round(p.average, 1)) for p in page.history]
    assert {name for name, _ in page.bars} == {"Anna", "Boris", "Vera"}


# -- the rules desk and reference -------------------------------------------------------------------------------------


def test_rules_page_table_text_in_either_notation(store):
    session = new_session(store)
    add(store, session, PLAIN)
    page = pages.rules_page(store, session.id, "kunken")
    assert page is not None and page.table
    assert page.table_text(russian=False) == "\n".join(page.table)
    assert "Т♠" in page.table_text(russian=True) and "A♠" not in page.table_text(russian=True)
    assert pages.rules_page(store, None, "kunken").table_text(russian=True) == ""


def test_rules_page_shows_the_house_rules_then_what_else_changed(store):
    assert pages.rules_page(store, None, "kunken").shown_switches == list(HOUSE_RULES)
    session = new_session(store, switches={"rummy_call": True, "opening_points": 40})
    assert pages.rules_page(store, session.id, "kunken").shown_switches == [*HOUSE_RULES, "rummy_call"]


# -- stored times -----------------------------------------------------------------------------------------------------


def test_local_time_reads_a_stored_time_into_the_servers_zone():
    when = local_time("2026-12-02T20:15:03.123456+00:00")
    assert when is not None and when.tzinfo is not None
    assert when == datetime(2026, 12, 2, 20, 15, 3, 123456, tzinfo=UTC)
    assert local_time(None) is None and local_time("") is None and local_time("not a time") is None


@pytest.mark.parametrize(
    ("stamp", "shown"),
    [
        ("2026-12-02T20:15:03.123456+00:00", "2026-12-02T20:15:03.123+00:00"),
        ("2026-12-02T20:15:03.000999+03:00", "2026-12-02T20:15:03.000+03:00"),
        ("2026-12-02T20:15:03+00:00", "2026-12-02T20:15:03+00:00"),
        ("not a time", "not a time"),
        ("", ""),
        (None, ""),
    ],
)
def test_machine_time_keeps_at_most_milliseconds(stamp, shown):
    assert machine_time(stamp) == shown


def test_the_templates_take_the_cores_machine_time(app, client, store):
    assert app.jinja_env.filters["machine_time"] is machine_time
    session = new_session(store)
    deal = add(store, session, PLAIN)
    page = client.get(f"/s/{session.id}/history", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f'data-deal-id="{deal.id}"' in page and "Deal 1 recorded" in page
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?\+00:00">', page)
