"""The table app's pages other than the deal form, through the test client with CSRF on (as in
production): the home page and starting a session, the session page, delete, undo, end and the
history, who may write, hostile input, live updates, the QR code, the manifest and error pages."""

from __future__ import annotations

import html as htmllib
import io
import re

import pytest
from conftest import (
    CSRF,
    DEAL,
    GOOD,
    csrf_from,
    deal_data,
    hidden,
    phone,
    record,
    rule_fields,
    start,
    start_fields,
    text,
    totals,
)

from kunken_scorer.core.reading import Deal
from kunken_scorer.core.rules import RuleSet
from kunken_scorer.qrcodes import qr_modules, qr_svg, qr_text
from kunken_scorer.web.errors import refuse_ended

pytestmark = pytest.mark.lang("en")  # the `client` fixture reads the pages in English

# -- home and starting a session -------------------------------------------------------------------


def test_home_shows_the_start_form_with_kunken_defaults(client):
    page = text(client.get("/"))
    assert 'id="start-form"' in page and 'id="players-11"' in page
    assert 'id="rules-opening_points"' in page and 'value="50"' in page
    assert 'id="defaults-note"' in page


def test_home_shows_ordered_rummy_defaults_when_asked(client):
    page = text(client.get("/?game=ordered-rummy"))
    assert re.search(r'id="rules-joker_in_hand"[^>]*value="25"', page)


def test_start_session_sets_the_scorer_cookie_and_shows_the_session(client, store):
    sid = start(client, ["Anna", "Boris", "Vera"])
    cookie = client.get_cookie(f"kunken_edit_{sid}")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    assert store.check_token(sid, cookie.value)
    page = text(client.get(f"/s/{sid}"))
    assert totals(page) == {"Anna": 0, "Boris": 0, "Vera": 0}
    assert 'id="record-deal"' in page and 'id="scorer-link"' in page
    assert 'class="qr"' in page and 'id="viewer-link"' in page
    assert "127.0.0.1" not in page and "localhost" not in page


def test_unchanged_switches_take_the_chosen_games_defaults(client, store):
    sid = start(client, ["A", "B", "C", "D", "E", "F"], game="ordered-rummy", shown="kunken")
    rules = store.get_session(sid).rules
    assert rules["game"] == "ordered-rummy" and rules["joker_in_hand"] == 25 and rules["max_players"] == 12


def test_a_changed_switch_is_kept_over_the_chosen_games_preset(client, store):
    sid = start(
        client,
        ["A", "B"],
        game="ordered-rummy",
        shown="kunken",
        **{"rules-joker_in_hand": "double", "rules-opening_points": "40"},
    )
    rules = store.get_session(sid).rules
    assert rules["joker_in_hand"] == "double" and rules["opening_points"] == 40
    assert rules["ace_points"] == 15  # left as shown: ordered rummy's own value


def test_show_defaults_reloads_the_switches_and_keeps_the_names(client, store):
    data = {
        "csrf_token": csrf_from(client),
        "game": "ordered-rummy",
        "defaults_for": "kunken",
        "players-0": "Anna",
        "show_defaults": "1",
        **rule_fields("kunken"),
    }
    page = text(client.post("/sessions", data=data))
    assert re.search(r'id="rules-joker_in_hand"[^>]*value="25"', page)
    assert 'value="Anna"' in page and hidden(page, "defaults_for") == "ordered-rummy"
    assert store.recent_sessions() == []


@pytest.mark.parametrize("players", [["Anna"], ["Anna", "anna"], ["A", "B", "C", "D", "E", "F"]])
def test_a_bad_player_list_is_a_form_error(client, store, players):
    data = start_fields(csrf_from(client), players)
    response = client.post("/sessions", data=data)
    assert response.status_code == 422
    assert 'id="players-errors"' in text(response)
    # a screen reader hears the error with the seats: the group is described by it
    assert re.search(r'<fieldset[^>]*id="players"[^>]*aria-describedby="players-errors"', text(response))
    assert store.recent_sessions() == []


def test_a_name_past_the_forms_twelve_seats_is_refused_not_dropped(client, store):
    """A hand-made form with 13 names: the game's limit refuses it (it used to start 12, the 13th lost)."""
    data = start_fields(csrf_from(client), [f"P{i}" for i in range(13)], "ordered-rummy")
    response = client.post("/sessions", data=data, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert "Name 2 to 12 different players." in text(response)
    assert store.recent_sessions() == []
    del data["players-3"]  # twelve names, one of them sent past the seats: still twelve players
    response = client.post("/sessions", data=data)
    assert response.status_code == 303
    [session] = store.recent_sessions()
    assert session.players == [f"P{i}" for i in range(13) if i != 3]


def test_a_bad_name_past_the_forms_seats_is_named_in_words_not_by_the_apis_path(client, store):
    data = start_fields(csrf_from(client), [f"P{i}" for i in range(12)], "ordered-rummy")
    data["players-12"] = "Бо\x07рис"  # a hand-made form: a thirteenth name, past the form's twelve seats
    client.set_cookie("lang", "ru")
    response = client.post("/sessions", data=data)
    assert response.status_code == 422
    said = htmllib.unescape(text(response))
    assert "игрок 13" in said and "players[" not in said
    assert store.recent_sessions() == []


def test_hand_made_seat_fields_are_refused_or_read_never_a_500(client, store):
    """Seat numbers are ASCII digits (WTForms' own reading took "players-²" and failed on it: a 500); a
    file or a number past the seats is no name; a second spelling of a seat ("players-01") is not one."""
    base = start_fields(csrf_from(client), (), "ordered-rummy")
    twelve = {f"players-{i}": f"P{i}" for i in range(12)}
    for extra, status in (
        ({"players-²": "X"}, 303),
        ({"players-" + "9" * 5000: "X"}, 303),
        ({"players-١٢": "X"}, 303),  # Arabic-Indic digits: no seat of the form
        ({"players-12": (io.BytesIO(b"x"), "x.txt")}, 303),  # a file is no name
        ({"players-01": "X"}, 303),  # seat 1 is read from "players-1"
        ({"players-12": "X"}, 422),
    ):
        response = client.post("/sessions", data={**base, **twelve, **extra}, content_type="multipart/form-data")
        assert response.status_code == status, extra
    assert [s.players for s in store.recent_sessions()] == [list(twelve.values())] * 5
    sid = store.recent_sessions()[0].id
    page = client.get(f"/s/{sid}/deals/new")  # this phone started the session: it is the scorer
    assert page.status_code == 200
    for key in ("players-²-melds", "players-" + "9" * 5000 + "-melds"):
        response = client.post(f"/s/{sid}/deals/new", data={"csrf_token": csrf_from(client), key: "x", "check": "1"})
        assert response.status_code == 422, key  # the form is damaged (no version), not a 500


def test_bad_switch_target_and_oversized_name_are_form_errors(client, store):
    base = start_fields(csrf_from(client))
    response = client.post("/sessions", data={**base, "rules-wild_card": "11♥"})
    assert response.status_code == 422 and 'id="rules-wild_card-errors"' in text(response)
    for value in ("", "0", "100001"):  # one wording for each, the core's (Target.from_dict)
        response = client.post("/sessions", data={**base, "target_kind": "deals", "target_value": value})
        assert response.status_code == 422 and 'id="target_value-errors"' in text(response)
        assert "Target: value must be a whole number from 1 to 100000" in text(response), value
    both = {**base, "players-1": "B" * 500, "target_kind": "score", "target_value": "0"}
    page = text(client.post("/sessions", data=both))  # the target's error is said with the name's
    assert 'id="players-1-errors"' in page and "Target: value must be a whole number" in page
    seat = re.search(r'<input[^>]*id="players-1"[^>]*>', page)[0]  # the seat's error is tied to its field
    assert 'aria-invalid="true"' in seat and 'aria-describedby="players-1-errors"' in seat
    response = client.post("/sessions", data={**base, "players-1": "B" * 500})
    assert response.status_code == 422 and 'id="players-1-errors"' in text(response)
    response = client.post("/sessions", data={**base, "game": "chess"})
    assert response.status_code == 422
    assert store.recent_sessions() == []
    minus = {**base, "target_kind": "penalty", "target_value": "-500"}  # "to minus 500", as the API reads it
    assert client.post("/sessions", data=minus).status_code == 303
    assert store.recent_sessions()[0].target == {"kind": "penalty", "value": 500}


def test_target_is_stored_and_shown(client, store):
    sid = start(client, target=("penalty", "100"))
    assert store.get_session(sid).target == {"kind": "penalty", "value": 100}
    assert 'id="target-progress"' in text(client.get(f"/s/{sid}"))


def test_players_tied_for_the_lead_all_lead_and_all_win(client, store):
    """A tie for first place is no leader picked by seat: the banner names both, both rows carry the badge, on the
    session page and the table screen, and both have won once the session ends (as /players counts them)."""
    sid = start(client, players=("Anna", "Boris", "Vera"), target=("score", "20"))
    # Anna goes out with 30; Boris lays 45 and holds 15 (K♣ 5♦): 30 each
    tied = {0: ("A♠ A♥ A♦", "", ""), 1: ("A♣ A♥ A♦\n2♣ 3♣ 4♣", "", "K♣ 5♦"), 2: ("", "", "5♣")}
    assert record(client, sid, players=tied).status_code == 303
    page = text(client.get(f"/s/{sid}"))
    assert "The target is reached: Anna, Boris share the lead." in page
    assert re.findall(r'data-player="(\w+)" class="standing leader"', page) == ["Anna", "Boris"]
    assert page.count('<span class="badge">leads</span>') == 2
    assert re.findall(r'<li class="leader" data-player="(\w+)"', text(client.get(f"/s/{sid}/table"))) == [
        "Anna",
        "Boris",
    ]
    store.end_session(sid)
    assert text(client.get(f"/s/{sid}")).count('<span class="badge">won</span>') == 2
    assert {p["name"]: p["wins"] for p in client.get("/api/v1/players").get_json()["players"]} == {
        "Anna": 1,
        "Boris": 1,
        "Vera": 0,
    }


def test_the_home_page_lists_sessions_by_when_this_server_stored_them(client):
    for n in range(12):
        document = {
            "format": "kunken-scorer/v1",
            "game": "kunken",
            "rules": {},
            "players": [f"Old{n}", "B"],
            "deals": [],
            "created_at": "8999-12-31T00:00:00+00:00",
        }
        assert client.post("/api/v1/sessions/import", json=document).status_code == 201, n
    client.post("/api/v1/sessions", json={"players": ["Fresh", "Newer"]})
    home = text(client.get("/"))
    assert home.index("Fresh") < home.index("Old11")  # the newest stored first, whatever its date


@pytest.mark.lang(None)
def test_a_double_tap_on_start_creates_one_session(client, store):
    """The start form carries a one-time key: sending it twice creates one session, and the
    second answer goes to the same session page."""
    page = client.get("/").get_data(as_text=True)
    fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page))
    key = fields["form_key"]
    assert len(key) >= 16
    data = {
        "csrf_token": fields["csrf_token"],
        "form_key": key,
        "game": "kunken",
        "defaults_for": fields.get("defaults_for", "kunken"),
        "players-0": "Anna",
        "players-1": "Boris",
        "target_kind": "",
        "target_value": "",
        **rule_fields(),
    }
    first = client.post("/sessions", data=data)
    second = client.post("/sessions", data=data)
    assert first.status_code == 303 and second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(store.recent_sessions(50)) == 1
    other = client.post("/sessions", data={**data, "form_key": key[::-1]})
    assert other.headers["Location"] != first.headers["Location"]
    assert len(store.recent_sessions(50)) == 2


# -- delete, undo, end, history ---------------------------------------------------------------------


def test_delete_undo_and_end_are_recorded_in_the_history(client, store):
    sid = start(client)
    for _ in range(3):
        assert record(client, sid).status_code == 303
    deals = store.list_deals(sid)
    edit_page = text(client.get(f"/s/{sid}/deals/{deals[0].id}/edit"))
    response = client.post(
        f"/s/{sid}/deals/{deals[0].id}/delete",
        data={"csrf_token": hidden(edit_page, "csrf_token"), "revision": deals[0].revision},
    )
    assert response.status_code == 303 and len(store.list_deals(sid)) == 2
    assert "Deal 1 deleted." in text(client.get(f"/s/{sid}"))

    page = text(client.get(f"/s/{sid}"))
    data = {"csrf_token": hidden(page, "csrf_token"), "expected_version": hidden(page, "expected_version")}
    assert client.post(f"/s/{sid}/undo", data=data).status_code == 303
    assert len(store.list_deals(sid)) == 1
    # a second tap on the same (now stale) undo button undoes nothing more
    assert client.post(f"/s/{sid}/undo", data=data).status_code == 303
    assert len(store.list_deals(sid)) == 1
    assert "nothing was undone" in text(client.get(f"/s/{sid}"))

    page = text(client.get(f"/s/{sid}"))
    assert client.post(f"/s/{sid}/end", data={"csrf_token": hidden(page, "csrf_token")}).status_code == 303
    page = text(client.get(f"/s/{sid}"))
    assert 'id="ended-banner"' in page and 'id="record-deal"' not in page and 'id="undo"' not in page
    assert 'class="edit-deal"' not in page
    assert totals(page) == {"Anna": 35, "Boris": -5}
    assert '<span class="badge">won</span>' in page and ">leads<" not in page  # an ended session has a winner

    actions = [e.action for e in store.history(sid)]
    assert actions == ["end", "undo", "delete", "record", "record", "record"]
    history = text(client.get(f"/s/{sid}/history"))
    for action in ("end", "undo", "delete", "record"):
        assert f'data-action="{action}"' in history


def test_an_ended_session_refuses_writes_with_a_message(client, store):
    sid = start(client)
    record(client, sid)
    page = text(client.get(f"/s/{sid}/deals/new"))
    deal_id = store.list_deals(sid)[0].id
    store.end_session(sid)
    response = client.post(f"/s/{sid}/deals/new", data={**deal_data(page, GOOD, "Anna"), "save": "1"})
    assert response.status_code == 303
    assert "no longer changed" in text(client.get(f"/s/{sid}"))
    assert client.get(f"/s/{sid}/deals/new").status_code == 303
    assert client.get(f"/s/{sid}/deals/{deal_id}/edit").status_code == 303
    token = hidden(page, "csrf_token")
    for url in (f"/s/{sid}/undo", f"/s/{sid}/redo", f"/s/{sid}/deals/{deal_id}/delete"):
        response = client.post(url, data={"csrf_token": token, "deal_id": deal_id, "revision": 1})
        assert response.status_code == 303 and response.headers["Location"] == f"/s/{sid}"
        assert "no longer changed" in text(client.get(f"/s/{sid}")), url
    assert len(store.list_deals(sid)) == 1


# -- who may write --------------------------------------------------------------------------------------


def write_routes(sid: str, deal_id: int) -> list[tuple[str, str]]:
    return [
        ("GET", f"/s/{sid}/deals/new"),
        ("POST", f"/s/{sid}/deals/new"),
        ("GET", f"/s/{sid}/deals/{deal_id}/edit"),
        ("POST", f"/s/{sid}/deals/{deal_id}/edit"),
        ("POST", f"/s/{sid}/deals/{deal_id}/delete"),
        ("POST", f"/s/{sid}/undo"),
        ("POST", f"/s/{sid}/end"),
    ]


def test_the_viewer_link_is_read_only(client, store, app):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    scorer_page = text(client.get(f"/s/{sid}/deals/new"))
    before = store.version(sid)
    viewer = phone(app)
    page = text(viewer.get(f"/s/{sid}"))
    assert 'id="record-deal"' not in page and 'id="scorer-link"' not in page and 'class="edit-deal"' not in page
    assert 'id="viewer-link"' in page and 'id="viewer-note"' in page
    token = csrf_from(viewer, "/")
    form = {
        **deal_data(scorer_page, GOOD, "Anna"),
        "csrf_token": token,
        "save": "1",
        "expected_version": str(before),
        "revision": "1",
    }
    for method, url in write_routes(sid, deal_id):
        response = viewer.open(url, method=method, data=form if method == "POST" else None)
        assert response.status_code == 403, (method, url)
        assert "scorer" in text(response)
    # a wrong token in the cookie is no better than none
    viewer.set_cookie(f"kunken_edit_{sid}", "not-the-token")
    assert viewer.post(f"/s/{sid}/undo", data={"csrf_token": token}).status_code == 403
    assert viewer.get(f"/s/{sid}/scorer/not-the-token").status_code == 403
    assert store.version(sid) == before and len(store.list_deals(sid)) == 1
    assert store.get_session(sid).ended_at is None


def test_the_scorer_link_makes_another_phone_a_scorer(client, app):
    sid = start(client)
    page = text(client.get(f"/s/{sid}"))
    link = htmllib.unescape(re.search(r'id="scorer-link" href="([^"]+)"', page)[1])
    path = link.split("://", 1)[1].split("/", 1)[1]
    second = phone(app)
    response = second.get("/" + path)
    assert response.status_code == 303 and response.headers["Referrer-Policy"] == "no-referrer"
    assert 'id="record-deal"' in text(second.get(f"/s/{sid}"))
    assert record(second, sid).status_code == 303


@pytest.mark.parametrize("route", ["create", "record", "edit", "delete", "undo", "end"])
def test_every_form_post_needs_the_csrf_token(client, store, route):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    page = text(client.get(f"/s/{sid}/deals/{deal_id}/edit"))
    before = (store.version(sid), len(store.recent_sessions()), store.get_deal(sid, deal_id).revision)
    form = deal_data(page, GOOD, "Anna")
    url = {
        "create": "/sessions",
        "record": f"/s/{sid}/deals/new",
        "edit": f"/s/{sid}/deals/{deal_id}/edit",
        "delete": f"/s/{sid}/deals/{deal_id}/delete",
        "undo": f"/s/{sid}/undo",
        "end": f"/s/{sid}/end",
    }[route]
    data = {**form, "save": "1", "create": "1", "game": "kunken", "players-0": "X", "players-1": "Y", **rule_fields()}
    for bad in (None, "forged-token"):
        if bad is None:
            data.pop("csrf_token", None)
        else:
            data["csrf_token"] = bad
        response = client.post(url, data=data)
        assert response.status_code == 400
    after = (store.version(sid), len(store.recent_sessions()), store.get_deal(sid, deal_id).revision)
    assert after == before


# -- hostile input, unknown sessions ----------------------------------------------------------------------


def test_names_with_html_are_escaped_everywhere(client, store):
    evil = "<script>alert(1)</script>"
    sid = start(client, [evil, '"><img src=x>'])
    players = {0: ("A♠ A♥ A♦", '"><img src=x>: 5♥', ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}
    assert record(client, sid, players, went_out=evil).status_code == 303
    deal_id = store.list_deals(sid)[0].id
    pages = [
        text(client.get(url))
        for url in ("/", f"/s/{sid}", f"/s/{sid}/history", f"/s/{sid}/deals/new", f"/s/{sid}/deals/{deal_id}/edit")
    ]
    pages.append(client.get(f"/s/{sid}/live").get_json()["html"])
    pages.append(text(record(client, sid, players, went_out=evil, button="check")))
    for page in pages:
        assert evil not in page and "<img src=x>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[1]


def test_unknown_session_and_deal_are_404_pages(client):
    sid = start(client)
    for url in (
        "/s/nope",
        "/s/nope/live",
        "/s/nope/history",
        "/s/nope/qr.svg",
        "/s/nope/deals/new",
        f"/s/{sid}/deals/999/edit",
        "/s/nope/scorer/x",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "no such page or session" in text(response)


# a deal id beyond SQLite's INTEGER in the URL was an OverflowError (500)


def api_session(client, players=("Anna", "Boris")) -> tuple[str, str]:
    answer = client.post("/api/v1/sessions", json={"players": list(players)}).get_json()
    return answer["id"], answer["edit_token"]


@pytest.mark.parametrize("method, path", [("get", "edit"), ("post", "edit"), ("post", "delete")])
def test_a_huge_deal_id_in_the_url_is_404_not_500(app, method, path):
    client = phone(app)
    sid, token = api_session(client)
    client.get(f"/s/{sid}/scorer/{token}")  # this phone becomes the scorer
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    data = {"csrf_token": CSRF.search(page)[1]} if method == "post" else None
    response = getattr(client, method)(f"/s/{sid}/deals/{10**30}/{path}", data=data)
    assert response.status_code == 404


def test_hostile_start_input_never_gives_a_500(client):
    base = start_fields(csrf_from(client))
    for extra in (
        {"defaults_for": "<x>"},
        {"rules-joker_limit": "all"},
        {"rules-ace_points": "-5"},
        {"rules-hand_size": "many"},
        {"target_kind": "score", "target_value": "999999999999"},
        {"target_kind": "score", "target_value": "9" * 400},  # past float's range: NumberRange cannot compare it
        {"rules-ace_points": "9" * 400},
        {"players-0": "\x07bell"},
        {"players-99": "Extra"},
    ):
        assert client.post("/sessions", data={**base, **extra}).status_code < 500


# -- live updates and the QR code ---------------------------------------------------------------------------


def test_live_endpoint_answers_304_while_nothing_changed(client, app):
    sid = start(client)
    viewer = phone(app)
    first = viewer.get(f"/s/{sid}/live")
    assert first.status_code == 200
    body = first.get_json()
    assert set(body) >= {"version", "html"} and 'id="scoreboard"' in body["html"] and 'id="deals-card"' in body["html"]
    etag = first.headers["ETag"]
    assert etag == f'W/"{body["version"]}"'  # weak: the same version, compressed or not
    assert viewer.get(f"/s/{sid}/live", headers={"If-None-Match": etag}).status_code == 304
    record(client, sid)
    changed = viewer.get(f"/s/{sid}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.get_json()["version"] > body["version"]
    assert totals(changed.get_json()["html"]) == {"Anna": 35, "Boris": -5}
    assert 'class="edit-deal"' not in changed.get_json()["html"]
    assert 'class="edit-deal"' in client.get(f"/s/{sid}/live").get_json()["html"]


def _deals_of(page: str, table_id: str) -> list[int]:
    table = re.search(rf'<table id="{table_id}".*?</table>', page, re.S)
    return [int(n) for n in re.findall(r'<tr class="deal[^"]*"[^>]*data-number="(\d+)"', table[0])] if table else []


@pytest.mark.parametrize(("deals", "earlier"), [(25, 0), (26, 6), (30, 10)])
def test_a_long_evening_shows_its_last_twenty_deals_and_the_earlier_ones_one_tap_away(client, store, deals, earlier):
    """Past 25 deals the session page shows the last 20; the earlier ones sit in a closed panel of their own
    (a phone lays out a screenful of rows before it first paints). The summary prints every deal."""
    sid = start(client)
    for _ in range(deals):
        store.add_deal(sid, Deal.from_dict(DEAL).to_dict())
    page = text(client.get(f"/s/{sid}"))
    shown = _deals_of(page, "deals")
    assert shown == list(range(earlier + 1, deals + 1))
    assert _deals_of(page, "deals-earlier") == list(range(1, earlier + 1))
    assert page.count('id="totals-row"') == 1
    assert totals(page) == {"Anna": 35 * deals, "Boris": -5 * deals}
    if earlier:
        panel = re.search(r'<details id="earlier-deals"[^>]*>\s*<summary[^>]*>([^<]*)</summary>', page)
        assert panel and panel[1] == f"Deals 1–{earlier}"  # closed: no `open`
        russian = phone(client.application)
        russian.set_cookie("lang", "ru")
        assert f"Партии 1–{earlier}" in text(russian.get(f"/s/{sid}"))
        live = client.get(f"/s/{sid}/live").get_json()["html"]
        assert _deals_of(live, "deals-earlier") == list(range(1, earlier + 1))
    else:
        assert 'id="earlier-deals"' not in page
    assert _deals_of(text(client.get(f"/s/{sid}/summary")), "deals") == list(range(1, deals + 1))


@pytest.mark.parametrize("sent", ['"{v}"', 'W/"{v}"', '"0", "{v}"', "*"], ids=["tag", "weak", "list", "any"])
def test_live_poll_matches_the_tag_however_it_is_sent(client, app, sent):
    sid = start(client)
    viewer = phone(app)
    version = viewer.get(f"/s/{sid}/live").get_json()["version"]
    unchanged = viewer.get(f"/s/{sid}/live", headers={"If-None-Match": sent.format(v=version)})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == f'W/"{version}"'
    assert (
        unchanged.headers["Cache-Control"] == "no-cache"
        and unchanged.headers["Vary"] == "Cookie, Accept-Language, Accept-Encoding"
    )
    # a 304 carries no body and no entity header, and the security headers every answer carries
    assert unchanged.data == b"" and "Content-Type" not in unchanged.headers
    assert unchanged.headers.get("Content-Length", "0") == "0"
    assert "frame-ancestors 'none'" in unchanged.headers["Content-Security-Policy"]
    assert unchanged.headers["X-Content-Type-Options"] == "nosniff"
    stale = viewer.get(f"/s/{sid}/live", headers={"If-None-Match": f'"{version - 1}", W/"x"'})
    assert stale.status_code == 200 and stale.headers["ETag"] == f'W/"{version}"'
    assert stale.headers["Vary"] == "Cookie, Accept-Language, Accept-Encoding"


def test_qr_code_is_served_as_svg(client):
    sid = start(client)
    response = client.get(f"/s/{sid}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert text(response).startswith("<svg")


def test_pages_have_no_inline_scripts_styles_or_handlers(client, store):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    for url in ("/", f"/s/{sid}", f"/s/{sid}/deals/new", f"/s/{sid}/deals/{deal_id}/edit", f"/s/{sid}/history"):
        page = text(client.get(url))
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), url
        assert not re.search(r"\sstyle=|\son[a-z]+=", page), url


def test_the_qr_code_draws_exactly_the_modules_of_the_link():
    """The compact SVG path paints every dark module of the QR code and nothing else."""
    url = "http://192.168.1.20:8000/s/Llek4jVjxJ4WDo0U7mVf_dXb"
    painted = set()
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", re.search(r' d="([^"]+)"', qr_svg(url))[1]):
        painted |= {(int(x) + dx, int(y)) for dx in range(int(width))}
    dark = {(x, y) for y, row in enumerate(qr_modules(url)) for x, on in enumerate(row) if on}
    assert painted == dark and len(dark) > 300


# -- the manifest and the error page -------------------------------------------------------------


@pytest.mark.lang(None)
def test_the_manifest_speaks_the_page_language_and_points_at_local_icons(client):
    ru = client.get("/manifest.webmanifest", headers={"Accept-Language": "ru"})
    en = client.get("/manifest.webmanifest", headers={"Accept-Language": "en"})
    assert ru.mimetype == "application/manifest+json"
    assert ru.get_json()["lang"] == "ru" and en.get_json()["name"] == "Kunken scorer"
    assert ru.get_json()["name"] != en.get_json()["name"]
    for icon in ru.get_json()["icons"]:
        assert icon["src"].startswith("/static/icons/")
        with client.get(icon["src"]) as response:
            assert response.status_code == 200 and response.mimetype == "image/png"


@pytest.mark.lang(None)
def test_a_server_error_is_a_page_in_words_not_a_traceback(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("kaboom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    page = client.get("/boom", headers={"Accept-Language": "en"})
    assert page.status_code == 500
    text = page.get_data(as_text=True)
    assert "nothing was saved" in text and "kaboom" not in text and "Traceback" not in text


def test_undo_is_offered_only_with_a_deal_and_can_be_taken_back_once(client, store):
    """Undo asks first (a panel to open), is not offered with no deal, and the undone deal can come back."""
    sid = start(client)
    page = text(client.get(f"/s/{sid}"))
    assert 'id="undo"' not in page and 'id="undo-panel"' not in page  # nothing to undo yet
    for _ in range(2):
        assert record(client, sid).status_code == 303
    page = text(client.get(f"/s/{sid}"))
    assert re.search(r'<details id="undo-panel"[^>]*>\s*<summary>', page) and "Undo deal 2" in page
    data = {"csrf_token": hidden(page, "csrf_token"), "expected_version": hidden(page, "expected_version")}
    response = client.post(f"/s/{sid}/undo", data=data)
    assert response.status_code == 303 and "undone=" in response.headers["Location"]
    page = text(client.get(response.headers["Location"]))
    assert "Deal 2 was undone." in page and "Bring deal 2 back" in page
    assert len(store.list_deals(sid)) == 1
    twice = client.post(f"/s/{sid}/undo", data=data, follow_redirects=True)  # a second tap undoes nothing more
    assert "The session changed since this page was loaded (a second tap, or another phone)" in text(twice)
    assert len(store.list_deals(sid)) == 1
    page = text(client.get(f"/s/{sid}?undone={store.history(sid)[0].deal_id}"))
    redo = {
        "csrf_token": hidden(page, "csrf_token"),
        "deal_id": hidden(page, "deal_id"),
        "expected_version": re.search(r'id="redo-form".*?name="expected_version" value="(\d+)"', page, re.S)[1],
    }
    assert client.post(f"/s/{sid}/redo", data=redo).status_code == 303
    assert [d.number for d in store.list_deals(sid)] == [1, 2]
    assert "Deal 2 is back." in text(client.get(f"/s/{sid}"))
    # a second tap brings back nothing more; the history tells both steps
    assert client.post(f"/s/{sid}/redo", data=redo).status_code == 303
    assert len(store.list_deals(sid)) == 2
    history = text(client.get(f"/s/{sid}/history"))
    assert "The last deal undone" in history and "Deal 2 brought back" in history


def test_a_deal_recorded_after_an_undo_keeps_the_undone_deal_away(client, store):
    sid = start(client)
    for _ in range(2):
        assert record(client, sid).status_code == 303
    page = text(client.get(f"/s/{sid}"))
    undone = client.post(
        f"/s/{sid}/undo",
        data={"csrf_token": hidden(page, "csrf_token"), "expected_version": hidden(page, "expected_version")},
    )
    page = text(client.get(undone.headers["Location"]))
    redo = {
        "csrf_token": hidden(page, "csrf_token"),
        "deal_id": hidden(page, "deal_id"),
        "expected_version": re.search(r'id="redo-form".*?name="expected_version" value="(\d+)"', page, re.S)[1],
    }
    assert record(client, sid).status_code == 303  # another deal 2, recorded after the undo
    assert client.post(f"/s/{sid}/redo", data=redo).status_code == 303
    assert "not brought back" in text(client.get(f"/s/{sid}"))
    assert len(store.list_deals(sid)) == 2


@pytest.mark.parametrize("version", [None, "", " ", "abc", "1.0", "²", "٣", "9" * 10])
def test_an_undo_or_redo_form_without_a_readable_version_changes_nothing(client, store, version):
    sid = start(client)
    for _ in range(2):
        assert record(client, sid).status_code == 303
    page = text(client.get(f"/s/{sid}"))
    data = {"csrf_token": hidden(page, "csrf_token")}
    if version is not None:
        data["expected_version"] = version
    before = store.version(sid)
    response = client.post(f"/s/{sid}/undo", data=data)
    assert response.status_code == 400 and "nothing was changed" in text(response)
    assert len(store.list_deals(sid)) == 2 and store.version(sid) == before
    undone = client.post(f"/s/{sid}/undo", data={**data, "expected_version": hidden(page, "expected_version")})
    page = text(client.get(undone.headers["Location"]))
    redo = {"csrf_token": hidden(page, "csrf_token"), "deal_id": hidden(page, "deal_id")}
    if version is not None:
        redo["expected_version"] = version
    response = client.post(f"/s/{sid}/redo", data=redo)
    assert response.status_code == 400 and "nothing was changed" in text(response)
    assert len(store.list_deals(sid)) == 1


def test_the_history_line_keeps_its_spaces_between_facts(client):
    """ "Anna went out · express", never "Anna went out· express"."""
    sid = start(client)
    assert record(client, sid, express="y").status_code == 303
    history = text(client.get(f"/s/{sid}/history"))
    assert re.search(r"Anna went out · express", htmllib.unescape(re.sub(r"<[^>]+>", "", history)))
    assert "out· " not in history


def test_the_terminal_qr_code_sets_both_colours_of_every_cell_and_holds_the_code():
    """make run prints the QR code with black and white both set (it scans on a light or a dark terminal),
    and reading the colours back gives the code's own modules inside a quiet zone."""
    url = "http://192.168.1.20:8000/"
    cells = [re.findall(r"\x1b\[(\d+);(\d+)m▀", line) for line in qr_text(url).splitlines()]
    assert all(line.endswith("\x1b[0m") for line in qr_text(url).splitlines())
    assert {fg for row in cells for fg, _ in row} == {"30", "97"} and {bg for row in cells for _, bg in row} == {
        "40",
        "107",
    }
    read = []
    for row in cells:
        read.append([fg == "30" for fg, _ in row])
        read.append([bg == "40" for _, bg in row])
    modules = qr_modules(url)
    assert [row[2:-2] for row in read[2 : 2 + len(modules)]] == modules
    assert not any(read[0]) and not any(read[1]) and not any(row[0] or row[1] for row in read)  # the quiet zone


def test_a_write_to_an_ended_session_from_a_page_without_a_session_goes_home(app):
    """The app's SessionEnded answer names the session's page when the address has one, else the home page."""
    with app.test_request_context("/"):
        app.preprocess_request()
        assert refuse_ended().headers["Location"] == "/"


def test_a_redeal_takes_a_deal_number_and_a_penalty_limit_shows_true_minus_signs(client, store):
    """The table screen names the next deal as the session page does (a redeal is a numbered deal too);
    "and 1 redeal" is singular; the lowest total against the limit is printed with true minus signs."""
    rules = RuleSet.preset().to_dict()
    session, token = store.create_session("kunken", rules, ["Anna", "Boris"], {"kind": "penalty", "value": 300})
    sid = session.id
    store.add_deal(sid, Deal.from_dict({"players": ["Anna", "Boris"], "redeal": True}).to_dict())
    store.add_deal(sid, Deal.from_dict(DEAL).to_dict())
    screen = text(client.get(f"/s/{sid}/table"))
    assert re.search(r'class="table-title">[^<]*Deal 3<', screen)
    page = text(client.get(f"/s/{sid}"))
    assert "(and 1 redeal)" in page
    progress = re.search(r'id="target-progress"[^>]*>([^<]*)<', page)[1]
    assert "\u2212" in progress and "-" not in progress


def test_a_form_resent_after_its_deal_was_undone_says_so(client, store):
    """The same form sent again after its deal was undone stores nothing and says why (not "Deal None")."""
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = {**deal_data(page, GOOD, "Anna"), "save": "1"}
    assert client.post(f"/s/{sid}/deals/new", data=data).status_code == 303
    session_page = text(client.get(f"/s/{sid}"))
    undo = {
        "csrf_token": hidden(session_page, "csrf_token"),
        "expected_version": hidden(session_page, "expected_version"),
    }
    assert client.post(f"/s/{sid}/undo", data=undo).status_code == 303
    again = client.post(f"/s/{sid}/deals/new", data=data, follow_redirects=True)
    shown = text(again)
    assert "None" not in shown and "has since been undone or deleted; it was not saved again" in shown
    assert [d for d in store.list_deals(sid)] == []


def test_the_legend_of_the_went_out_star_is_under_the_deals_whichever_table_has_the_stars(client):
    """A long evening: 30 deals, the first 10 behind "earlier deals". Stars only there still get the legend
    under the last table; a page with no star has none."""
    out = {"players": [{"name": "Anna", "melds": ["2♥ 3♥ 4♥"]}, {"name": "Boris", "hand": "K♠"}], "went_out": "Anna"}
    stuck = {"players": [{"name": "Anna", "hand": "5♠"}, {"name": "Boris", "hand": "K♠"}], "went_out": None}
    legend = '<p class="legend muted" aria-hidden="true">'
    pages = {}
    for name, deals in (("earlier stars", [out] * 10 + [stuck] * 20), ("no star", [stuck] * 3)):
        sid, token = api_session(client)
        auth = {"Authorization": f"Bearer {token}"}
        for deal in deals:
            answer = client.post(f"/api/v1/sessions/{sid}/deals", json=deal, headers=auth)
            assert answer.status_code == 201, answer.get_json()
        pages[name] = client.get(f"/s/{sid}").get_data(as_text=True)
    earlier, _, recent = pages["earlier stars"].partition('id="deals"')
    assert earlier.count('<small class="went-out">') == 10 and '<small class="went-out">' not in recent
    assert recent.count(legend) == 1
    assert legend not in pages["no star"] and "★" not in pages["no star"]


def test_a_target_or_an_import_of_one_is_said_in_the_singular(client):
    sid = start(client, target=("deals", "1"))
    assert record(client, sid).status_code == 303
    for page in (text(client.get(f"/s/{sid}")), text(client.get(f"/s/{sid}/summary"))):
        assert re.search(r"Target:?\s*(</span>)?\s*1 deal\b", page) and "1 deals" not in page
    document = client.get(f"/api/v1/sessions/{sid}/export").get_json()
    imported = client.post("/api/v1/sessions/import", json=document).get_json()
    history = text(client.get(f"/s/{imported['id']}/history"))
    assert "Imported with 1 deal" in history and "Imported with 1 deals" not in history
