"""Security through the test client: headers on every response, responses carrying a token are
never stored, revocable scorer links, the per-address creation limit, links never built from a
raw Host header, and an API other sites cannot post forms to. The storage faults and backups
run against real servers in test_faults.py; the Content-Security-Policy in a browser in
test_browser_csp.py."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import socket
import threading
from urllib.parse import urlsplit

import pytest
from conftest import CSRF, hidden, phone, record, start, start_fields, text
from waitress.server import create_server

from kunken_scorer.core.rules import RuleSet
from kunken_scorer.web import create_app
from kunken_scorer.web.paths import ROOT
from kunken_scorer.web.security import BASE_CSS, inline_css

pytestmark = pytest.mark.lang("en")  # the `client` fixture reads the pages in English

EVERY_HEADER = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def has_security_headers(response) -> None:
    for name, value in EVERY_HEADER.items():
        assert response.headers.get(name) == value, (response.request.path, name, response.headers.get(name))
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


# -- headers and caching -------------------------------------------------------------------------


def test_every_kind_of_response_has_the_headers(client, app):
    sid = start(client)
    record(client, sid)
    deal = re.search(r'href="(/s/[^"]+/deals/\d+/edit)"', text(client.get(f"/s/{sid}")))[1]
    viewer = phone(app)
    urls = [
        "/",
        f"/s/{sid}",
        f"/s/{sid}/live",
        f"/s/{sid}/history",
        f"/s/{sid}/summary",
        f"/s/{sid}/qr.svg",
        f"/s/{sid}/chart.svg",
        f"/s/{sid}/export.json",
        f"/s/{sid}/deals/new",
        deal,
        f"/s/{sid}/draft",
        f"/s/{sid}/draft/0",
        f"/s/{sid}/draft/live",
        "/players",
        "/import",
        "/rules/desk",
        "/rules/kunken",
        "/manifest.webmanifest",
        "/static/style.css",
        "/static/entry.js",
        "/api/v1/health",
        f"/api/v1/sessions/{sid}",
        "/no-such-page",
        "/s/no-such-session",
        "/api/v1/nothing",
    ]
    for url in urls:
        for who in (client, viewer):
            with who.get(url) as response:
                has_security_headers(response)
    has_security_headers(client.post("/sessions", data={}))  # a refused form (CSRF)
    has_security_headers(client.post("/api/v1/deals/score", data="{", content_type="application/json"))


def test_every_page_carries_the_one_inline_stylesheet_the_csp_allows_by_its_hash(client, app):
    sid = start(client)
    record(client, sid)
    base_css = str(BASE_CSS)
    assert ":root {" in base_css and ".deals {" in base_css
    pages = ["/", f"/s/{sid}", f"/s/{sid}/deals/new", f"/s/{sid}/summary", "/players", "/rules/desk", "/no-such-page"]
    for url in pages + ["/s/no-such-session"]:
        response = client.get(url)
        styles = re.findall(r"<style>(.*?)</style>", text(response), flags=re.DOTALL)
        assert styles == [base_css], url
        digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
        assert f"style-src 'self' 'sha256-{digest}';" in response.headers["Content-Security-Policy"], url
    # the session page (and what it shows as it is watched) needs no stylesheet fetched before it paints;
    # the other pages link style.css after the inline one
    session = text(client.get(f"/s/{sid}"))
    assert not re.search(r'<link rel="stylesheet"(?![^>]*media="print")', session)
    assert "style.css" not in text(phone(app).get(f"/s/{sid}"))
    for url in (f"/s/{sid}/deals/new", "/"):
        page = text(client.get(url))
        assert page.index("<style>") < page.index('<link rel="stylesheet" href="/static/style.css')


def test_the_inline_stylesheet_keeps_every_rule_and_drops_the_comments():
    source = (ROOT / "static" / "base.css").read_text(encoding="utf-8")
    kept = inline_css(source)
    assert "/*" not in kept and "*/" not in kept and "\n " not in kept and "\n\n" not in kept
    without_comments = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)
    assert kept.count("{") == without_comments.count("{") > 40
    assert re.sub(r"\s+", "", kept) == re.sub(r"\s+", "", without_comments)
    assert inline_css("a { color: red; } /* a note\n over two lines */\n\n  b {\n  margin: 0; }\n") == (
        "a { color: red; }\nb {\nmargin: 0; }"
    )
    # a byte order mark (an editor may add one) would make the first rule's selector "\ufeff:root"
    assert inline_css("\ufeff:root { color: red; }") == ":root { color: red; }"


def test_responses_that_carry_or_set_a_token_are_never_stored(client, app):
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]})
    assert created.headers["Cache-Control"] == "no-store"
    sid, token = created.get_json()["id"], created.get_json()["edit_token"]
    scorer = phone(app)
    opened = scorer.get(f"/s/{sid}/scorer/{token}")
    assert opened.status_code == 303 and opened.headers["Cache-Control"] == "no-store"
    assert opened.headers["Location"].endswith(f"/s/{sid}")  # the token leaves the address bar
    page = scorer.get(f"/s/{sid}")
    assert token in text(page) and page.headers["Cache-Control"] == "no-store"
    viewer_page = phone(app).get(f"/s/{sid}")
    assert token not in text(viewer_page) and viewer_page.headers["Cache-Control"] == "no-cache"
    home = phone(app)
    started = home.post("/sessions", data=start_fields(CSRF.search(text(home.get("/")))[1], ("A", "B")))
    assert started.status_code == 303 and started.headers["Cache-Control"] == "no-store"
    seat = phone(app)
    taken = seat.post(f"/s/{sid}/seat", data={"csrf_token": CSRF.search(text(seat.get(f"/s/{sid}")))[1], "seat": "0"})
    assert taken.headers["Cache-Control"] == "no-store"
    assert client.post(f"/api/v1/sessions/{sid}/seats/1").headers["Cache-Control"] == "no-store"


# -- revocable scorer links ------------------------------------------------------------------------


def test_a_new_scorer_link_stops_the_old_token_and_every_cookie_made_from_it(client, app, store):
    sid = start(client)  # this phone is the scorer
    old = re.search(r'id="scorer-link" href="[^"]*/scorer/([^"]+)"', text(client.get(f"/s/{sid}")))[1]
    other = phone(app)
    assert other.get(f"/s/{sid}/scorer/{old}").status_code == 303
    assert record(other, sid).status_code == 303  # the second phone records with the old token
    page = text(client.get(f"/s/{sid}"))
    response = client.post(f"/s/{sid}/token", data={"csrf_token": hidden(page, "csrf_token")})
    assert response.status_code == 303 and response.headers["Cache-Control"] == "no-store"
    page = text(client.get(f"/s/{sid}"))
    new = re.search(r'id="scorer-link" href="[^"]*/scorer/([^"]+)"', page)[1]
    assert new != old and 'id="record-deal"' in page  # this phone goes on recording
    assert record(client, sid).status_code == 303
    assert other.get(f"/s/{sid}/deals/new").status_code == 403  # the cookie made from the old token stopped
    assert 'id="record-deal"' not in text(other.get(f"/s/{sid}"))
    assert phone(app).get(f"/s/{sid}/scorer/{old}").status_code == 403
    api = app.test_client()
    body = {"players": [{"name": "Anna", "hand": ""}, {"name": "Boris", "hand": "K♣"}], "went_out": "Anna"}
    assert (
        api.post(f"/api/v1/sessions/{sid}/deals", json=body, headers={"Authorization": f"Bearer {old}"}).status_code
        == 403
    )
    assert (
        api.post(f"/api/v1/sessions/{sid}/deals", json=body, headers={"Authorization": f"Bearer {new}"}).status_code
        == 201
    )
    assert [h.action for h in store.history(sid)].count("token") == 1
    viewer = phone(app)
    page = text(viewer.get(f"/s/{sid}"))
    assert viewer.post(f"/s/{sid}/token", data={"csrf_token": hidden(page, "csrf_token")}).status_code == 403


def test_the_api_makes_a_new_token(client):
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, old = created["id"], created["edit_token"]
    answer = client.post(f"/api/v1/sessions/{sid}/token", headers={"Authorization": f"Bearer {old}"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    new = answer.get_json()["edit_token"]
    assert new != old and answer.get_json()["edit_url"].endswith(f"/s/{sid}/scorer/{new}")
    assert client.post(f"/api/v1/sessions/{sid}/token", headers={"Authorization": f"Bearer {old}"}).status_code == 403
    assert client.post(f"/api/v1/sessions/{sid}/token").status_code == 401
    assert client.post("/api/v1/sessions/nope/token", headers={"Authorization": f"Bearer {new}"}).status_code == 404


def test_a_new_token_replaces_only_the_token_it_was_asked_with(store):
    """Two requests made with one token at the same moment: one replaces it, the other is told its token has
    stopped (before, both wrote and one phone kept a dead cookie). The same form sent twice gets one token."""
    session, old = store.create_session("kunken", RuleSet.preset().to_dict(), ["Anna", "Boris"], None)
    sid = session.id
    first = store.new_token(sid, old)
    assert first and store.new_token(sid, old) is None and store.check_token(sid, first)
    key = "form-" + "k" * 22
    second = store.new_token(sid, first, key)
    assert second and store.new_token(sid, first, key) == second  # a double tap of one form
    assert store.new_token(sid, first, "form-" + "x" * 22) is None  # another form made with the old token
    assert store.check_token(sid, second) and not store.check_token(sid, first)
    assert [h.action for h in store.history(sid)].count("token") == 2


def test_a_double_tap_on_new_scorer_link_keeps_this_phone_the_scorer(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}"))
    form = {"csrf_token": hidden(page, "csrf_token"), "form_key": hidden(page, "form_key")}
    name = f"kunken_edit_{sid}"
    old = client.get_cookie(name).value
    cookies = []
    for _ in range(2):  # the second tap is sent before the first answer arrives: with the old cookie
        client.set_cookie(name, old, path="/")
        response = client.post(f"/s/{sid}/token", data=form)
        assert response.status_code == 303
        cookies.append(client.get_cookie(name).value)
    assert cookies[0] == cookies[1] != old and record(client, sid).status_code == 303
    assert 'id="record-deal"' in text(client.get(f"/s/{sid}"))  # still the scorer


def test_new_tokens_asked_at_once_through_the_api_leave_exactly_one(app):
    created = app.test_client().post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, old = created["id"], created["edit_token"]
    barrier = threading.Barrier(6)
    answers = []

    def ask():
        client = app.test_client()
        barrier.wait()
        answers.append(client.post(f"/api/v1/sessions/{sid}/token", headers={"Authorization": f"Bearer {old}"}))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [200, 403, 403, 403, 403, 403]
    token = next(a for a in answers if a.status_code == 200).get_json()["edit_token"]
    assert (
        app.test_client()
        .post(f"/api/v1/sessions/{sid}/token", headers={"Authorization": f"Bearer {token}"})
        .status_code
        == 200
    )


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER"])
def test_a_page_reads_the_scorer_token_from_a_bearer_header_as_the_api_does(app, scheme):
    created = app.test_client().post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, token = created["id"], created["edit_token"]
    assert phone(app).get(f"/s/{sid}/deals/new").status_code == 403  # neither cookie nor header
    header = {"Authorization": f"{scheme}  {token} "}
    assert phone(app).get(f"/s/{sid}/deals/new", headers=header).status_code == 200
    assert phone(app).get(f"/s/{sid}/deals/new", headers={"Authorization": f"{scheme} nope"}).status_code == 403
    scorer = phone(app)
    scorer.get(f"/s/{sid}/scorer/{token}")
    assert scorer.get(f"/s/{sid}/deals/new").status_code == 200
    # a Bearer header speaks for the request: the scorer cookie beside a wrong or empty one does not count
    assert scorer.get(f"/s/{sid}/deals/new", headers={"Authorization": f"{scheme} nope"}).status_code == 403
    assert scorer.get(f"/s/{sid}/deals/new", headers={"Authorization": scheme}).status_code == 403


# -- abuse on a shared network ---------------------------------------------------------------------


def limited_app(tmp_path, limit):
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "limit.db"), "SECRET_KEY": "s" * 32, "CREATE_LIMIT": limit}
    )


def test_creating_and_importing_sessions_is_limited_per_address(tmp_path):
    app = limited_app(tmp_path, 3)
    client = app.test_client()
    for _ in range(3):
        assert client.post("/api/v1/sessions", json={"players": ["A", "B"]}).status_code == 201
    refused = client.post("/api/v1/sessions", json={"players": ["A", "B"]})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert "at most 3" in refused.get_json()["error"]
    sid = client.get("/api/v1/sessions/x").status_code  # reading is never limited
    assert sid == 404
    exported = {"format": "kunken-scorer/v1", "game": "kunken", "rules": {}, "players": ["A", "B"], "deals": []}
    assert client.post("/api/v1/sessions/import", json=exported).status_code == 429
    page = phone(app)
    form = start_fields(CSRF.search(text(page.get("/")))[1], ("A", "B"))
    assert page.post("/sessions", data=form).status_code == 429
    other = app.test_client()  # another address is not limited by this one
    assert (
        other.post(
            "/api/v1/sessions", json={"players": ["A", "B"]}, environ_base={"REMOTE_ADDR": "192.0.2.9"}
        ).status_code
        == 201
    )


def test_a_repeated_start_or_import_form_is_not_counted_against_the_address(tmp_path):
    """A double tap (or a form sent again) finds the session its one-time key made: it is no new session, so it
    uses none of the address's limit; a document refused is not counted either."""
    app = limited_app(tmp_path, 3)
    page = phone(app)
    home = text(page.get("/"))
    form = start_fields(CSRF.search(home)[1], ("A", "B"), form_key=hidden(home, "form_key"))
    first = page.post("/sessions", data=form)
    assert first.status_code == 303
    for _ in range(3):
        again = page.post("/sessions", data=form)
        assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    sheet = page.get(f"{first.headers['Location']}/export.json").get_data(as_text=True)
    imports = text(page.get("/import"))
    sent = {"csrf_token": CSRF.search(imports)[1], "form_key": hidden(imports, "form_key"), "text": sheet}
    imported = page.post("/import", data=sent)
    assert imported.status_code == 302
    for _ in range(2):
        assert page.post("/import", data=sent).headers["Location"] == imported.headers["Location"]
    broken = page.post("/import", data={**sent, "form_key": "k" * 22, "text": '{"format": "nope"}'})
    assert broken.status_code == 400  # refused, and not counted
    counted = page.post("/api/v1/sessions", json={"players": ["A", "B"]})  # the third session of the minute
    assert counted.status_code == 201
    assert page.post("/api/v1/sessions", json={"players": ["A", "B"]}).status_code == 429


def test_a_limit_of_zero_turns_it_off(tmp_path):
    client = limited_app(tmp_path, 0).test_client()
    for _ in range(5):
        assert client.post("/api/v1/sessions", json={"players": ["A", "B"]}).status_code == 201


def test_the_default_limit_is_one_a_club_evening_never_meets(app):
    assert app.config["CREATE_LIMIT"] == 120


def test_links_are_never_built_from_a_raw_host_header(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "h.db"), "SECRET_KEY": "s" * 32})
    client = app.test_client()
    answer = client.post("/api/v1/sessions", json={"players": ["A", "B"]}, headers={"Host": "evil.example"})
    assert "evil.example" not in json.dumps(answer.get_json())
    page = client.get(f"/s/{answer.get_json()['id']}", headers={"Host": "evil.example"})
    assert "evil.example" not in text(page)


def test_trusted_hosts_are_the_only_hosts_links_are_built_from(tmp_path, monkeypatch):
    monkeypatch.setenv("KUNKEN_TRUSTED_HOSTS", "scores.example.org, 192.0.2.5:8000")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "s" * 32})
    client = app.test_client()
    good = client.post("/api/v1/sessions", json={"players": ["A", "B"]}, headers={"Host": "scores.example.org"})
    assert good.get_json()["view_url"].startswith("http://scores.example.org/s/")
    bad = client.post("/api/v1/sessions", json={"players": ["A", "B"]}, headers={"Host": "evil.example"})
    assert bad.status_code == 400 and "view_url" not in bad.get_json()


def raw_request(base: str, request_line: bytes, host: bytes = b"127.0.0.1") -> tuple[int, str, str]:
    """Send one request as bytes (no client library would send these), over a real socket: status,
    content type, body."""
    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=10) as conn:
        conn.sendall(request_line + b"\r\nHost: " + host + b"\r\nAccept-Language: en\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers.get("Content-Type", ""), body.decode("utf-8")


@pytest.fixture
def waitress_server(app):
    """``app`` served by waitress, the production server, on 127.0.0.1 (a free port): its base URL."""
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    thread.join(timeout=5)


@pytest.mark.parametrize("host", [b"a..b", b"a" * 300])
@pytest.mark.parametrize("path", [b"/", b"/nope", b"/players", b"/api/v1/health"])
def test_a_host_header_no_address_can_be_built_from_is_a_400_in_words(waitress_server, host, path):
    status, kind, body = raw_request(waitress_server, b"GET " + path + b" HTTP/1.1", host)
    assert status == 400, (status, body[:300])
    if path.startswith(b"/api/"):
        assert kind == "application/json" and json.loads(body) == {"error": "The request could not be read."}
    else:  # no page: its links would be built from that host
        assert kind.startswith("text/plain") and body.strip() == "The request could not be read."


def test_an_untrusted_host_gets_the_400_in_words_too(tmp_path, monkeypatch):
    monkeypatch.setenv("KUNKEN_TRUSTED_HOSTS", "scores.example.org")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "s" * 32})
    page = app.test_client().get("/", headers={"Host": "evil.example", "Accept-Language": "en"})
    assert page.status_code == 400 and page.mimetype == "text/plain"
    assert text(page).strip() == "The request could not be read."  # not Werkzeug's English, repeating the host


def test_raw_bytes_in_a_query_string_are_read_as_a_browser_would_send_them(live_server, client):
    """waitress refuses such a request line (400 "Bad URI"); a server that passes it on, as Werkzeug's
    does, reaches the app, which reads it as the browser's percent-encoding (it was a 500 on every page)."""
    sid = start(client)
    paths = [b"/", b"/players", f"/s/{sid}".encode(), f"/s/{sid}/summary".encode(), b"/rules/kunken", b"/nope"]
    for query in (b"x=\xed", b"game=\xff\xfe", b"all=1&x=\xed\x80", "game=кункен".encode()):
        for path in paths:
            status, _kind, body = raw_request(live_server, b"GET " + path + b"?" + query + b" HTTP/1.1")
            assert status == (404 if path == b"/nope" else 200), (path, query, status, body[:300])


# -- no form of another site can post to the API -------------------------------------------------


@pytest.mark.lang(None)
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


# -- a page's forms read only what a browser's form sends -------------------------------------------


def test_a_json_body_or_a_file_for_a_text_field_is_no_form_and_never_a_500(client, store):
    """Flask-WTF reads a JSON body as a form: a number, a list or a lone surrogate escape where a page
    expects text failed (a 500), and a JSON list failed before any field was read. A file sent for a text
    field failed the same way. Now a page's form reads only the form's text fields (and files only for
    a file field), so each of these is an incomplete form, answered as one, and nothing is stored."""
    sid = start(client)
    token = CSRF.search(text(client.get("/")))[1]
    forms = {
        "/sessions": "players-0",
        f"/s/{sid}/deals/new": "players-0-melds",
        f"/s/{sid}/draft/0": "player-melds",
        f"/s/{sid}/draft": "note",
        "/rules/desk": "meld-cards",
        "/import": "text",
    }
    before = (store.recent_sessions(), store.list_deals(sid), store.draft(sid))
    for path, field in forms.items():
        bodies = [
            dict(json=[1], headers={"X-CSRFToken": token}),
            dict(json="x", headers={"X-CSRFToken": token}),
            dict(json={field: [["K♠"]], "note": 5, "form_key": True}, headers={"X-CSRFToken": token}),
            dict(data=json.dumps({field: "\ud800"}), content_type="application/json", headers={"X-CSRFToken": token}),
            dict(data={"csrf_token": token, "meld-csrf_token": token, field: (io.BytesIO(b"K"), "k.txt")}),
        ]
        for body in bodies:
            response = client.post(path, **body)
            assert response.status_code in (400, 422), (path, body, response.status_code)
    assert (store.recent_sessions(), store.list_deals(sid), store.draft(sid)) == before
