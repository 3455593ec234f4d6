"""Regression tests for bugs found in the adversarial review (each test names the bug it pins)."""

from __future__ import annotations

import html as htmllib
import json
import re

import pytest

from kunken_scorer.exports import FORMAT, export_document, import_document

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def phone(app):
    """A test client reading the pages in English."""
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def api_session(client, players=("Anna", "Boris")) -> tuple[str, str]:
    answer = client.post("/api/v1/sessions", json={"players": list(players)}).get_json()
    return answer["id"], answer["edit_token"]


def hidden(page: str, name: str) -> str:
    return htmllib.unescape(re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)[1])


def export_doc(**fields) -> dict:
    doc = {"format": FORMAT, "game": "kunken", "rules": {}, "players": ["Anna", "Boris"], "target": None,
           "deals": [{"record": {"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, {"name": "Boris", "hand": "5♥"}],
                                 "went_out": "Anna"}}]}
    doc.update(fields)
    return doc


# -- a deal id beyond SQLite's INTEGER in the URL was an OverflowError (500) ---------------------

@pytest.mark.parametrize("method, path", [("get", "edit"), ("post", "edit"), ("post", "delete")])
def test_a_huge_deal_id_in_the_url_is_404_not_500(app, method, path):
    client = phone(app)
    sid, token = api_session(client)
    client.get(f"/s/{sid}/scorer/{token}")  # this phone becomes the scorer
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    data = {"csrf_token": CSRF.search(page)[1]} if method == "post" else None
    response = getattr(client, method)(f"/s/{sid}/deals/{10 ** 30}/{path}", data=data)
    assert response.status_code == 404


def test_store_treats_a_huge_deal_id_as_not_found(store):
    from kunken_scorer.store import NotFound
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    with pytest.raises(NotFound):
        store.get_deal(session["id"], 2 ** 70)
    with pytest.raises(NotFound):
        store.delete_deal(session["id"], -(2 ** 70))


# -- an imported date near year 1 or 9999 broke the home page, /players and the summary (500) -------

@pytest.mark.parametrize("field, stamp", [
    ("created_at", "0001-01-01T00:00:00+14:00"), ("created_at", "9999-12-31T23:59:59-14:00"),
    ("created_at", "0001-01-01"), ("ended_at", "0001-01-01T00:00:00+14:00"), ("ended_at", "9999-12-31T23:59:59-14:00"),
])
def test_an_imported_out_of_range_date_does_not_break_any_page(app, field, stamp):
    client = phone(app)
    response = client.post("/api/v1/sessions/import", json=export_doc(**{field: stamp}))
    assert response.status_code == 201
    sid = response.get_json()["id"]
    for url in ("/", "/players", f"/s/{sid}", f"/s/{sid}/summary", f"/s/{sid}/history", f"/s/{sid}/export.csv",
                f"/s/{sid}/export.json"):
        for language in ("en", "ru"):
            client.set_cookie("lang", language)
            assert client.get(url).status_code == 200, (url, language)


def test_an_out_of_range_date_is_replaced_and_a_normal_one_kept(store):
    session, _ = import_document(store, export_doc(created_at="0001-01-01T00:00:00+14:00",
                                                   ended_at="2025-02-14T23:00:00+00:00"))
    assert session["created_at"].startswith("20") and session["ended_at"] == "2025-02-14T23:00:00+00:00"


def test_the_when_filter_survives_a_stored_extreme_date(app):
    from kunken_scorer.web.views import when_filter
    with app.test_request_context("/"):
        assert when_filter("0001-01-01T00:00:00+14:00") == "0001-01-01T00:00:00+14:00"


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
    assert "was imported with 1 deal(s)" in page and 'id="record-deal"' in page  # still this phone's


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


def test_the_api_import_still_creates_a_new_session_each_time(app, store):
    client = phone(app)
    ids = {client.post("/api/v1/sessions/import", json=export_doc()).get_json()["id"] for _ in range(2)}
    assert len(ids) == 2


def test_store_import_with_a_repeated_key_returns_the_first_session(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    doc = export_document(store, session["id"])
    first, token = import_document(store, doc, "form-abcdefghijklmnop")
    again, none = import_document(store, doc, "form-abcdefghijklmnop")
    assert token and none is None and again["id"] == first["id"]


# -- the language switch redirected off-site: "/\t/evil.example" left as "//evil.example" ------------

@pytest.mark.parametrize("target", ["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/\\evil.example",
                                    "/ /evil.example", "/\x00/evil.example"])
def test_the_language_switch_never_redirects_off_site(client, target):
    response = client.get("/lang/en", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_the_language_switch_still_returns_to_the_page(client):
    response = client.get("/lang/ru", query_string={"next": "/rules/desk?game=ordered-rummy"})
    assert response.headers["Location"] == "/rules/desk?game=ordered-rummy"


def test_a_double_tap_on_start_creates_one_session(client, store):
    """The start form carries a one-time key: sending it twice creates one session, and the
    second answer goes to the same session page."""
    import re as _re
    page = client.get("/").get_data(as_text=True)
    fields = dict(_re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page))
    key = fields["form_key"]
    assert len(key) >= 16
    data = {"csrf_token": fields["csrf_token"], "form_key": key, "game": "kunken",
            "defaults_for": fields.get("defaults_for", "kunken"), "players-0": "Anna", "players-1": "Boris",
            "target_kind": "", "target_value": ""}
    from kunken_scorer.web.forms import switch_values
    data.update({f"rules-{k}": str(v) for k, v in switch_values("kunken").items() if not isinstance(v, bool)})
    data.update({f"rules-{k}": "y" for k, v in switch_values("kunken").items() if v is True})
    first = client.post("/sessions", data=data)
    second = client.post("/sessions", data=data)
    assert first.status_code == 303 and second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(store.recent_sessions(50)) == 1
    other = client.post("/sessions", data={**data, "form_key": key[::-1]})
    assert other.headers["Location"] != first.headers["Location"]
    assert len(store.recent_sessions(50)) == 2


def test_the_api_takes_only_json_so_other_sites_cannot_post_forms_to_it(client, store):
    """A cross-site HTML form can send text/plain or form data, never application/json."""
    body = '{"players": ["Anna", "Boris"]}'
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": content_type} if content_type else {}
        response = client.post("/api/v1/sessions", data=body, headers=headers)
        assert response.status_code == 415, content_type
        assert "application/json" in response.get_json()["error"]
    assert store.recent_sessions(10) == []
    assert client.post("/api/v1/sessions", data=body, headers={"Content-Type": "application/json"}).status_code == 201


def test_a_vist_to_boris_meld_2_survives_editing_beside_a_player_called_boris_2():
    """With players "Boris" and "Boris 2", meld 2 of Boris is written back unambiguously."""
    from kunken_scorer.web.forms import parse_vist_line, vist_line
    names = ["Anna", "Boris", "Boris 2"]
    to_meld = {"to": "Boris", "meld": 1, "cards": "5♥"}
    to_player = {"to": "Boris 2", "meld": None, "cards": "7♣"}
    for vist in (to_meld, to_player):
        assert parse_vist_line(vist_line(vist, names), names) == vist


def test_the_desk_prefills_the_table_with_every_vist_whatever_the_seat_order(client, store):
    """B's 9♥ fits A's run only after C's 8♥; the desk's table shows the whole run."""
    from kunken_scorer import service
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["A", "B", "C"], None)
    body = {"players": [
        {"name": "A", "melds": ["5♥ 6♥ 7♥"], "hand": ""},
        {"name": "B", "melds": [], "vists": [{"to": "A", "meld": 0, "cards": "9♥"}], "hand": "2♣"},
        {"name": "C", "melds": [], "vists": [{"to": "A", "meld": 0, "cards": "8♥"}], "hand": "3♣"}],
        "went_out": "A"}
    record, report = service.prepare_deal(store.get_session(session["id"]), body)
    assert report.valid, report.problems
    store.add_deal(session["id"], record)
    page = client.get(f"/rules/desk?session={session['id']}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "5♥ 6♥ 7♥ 8♥ 9♥" in page


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
