"""Every page loads under the strict Content-Security-Policy with no violation, and no page can be
framed by another site (issue 10). Chromium at a phone viewport, a real server on loopback."""

from __future__ import annotations

import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from conftest import part_ready, take_seat
from playwright.sync_api import Page, expect

WATCH = """document.addEventListener('securitypolicyviolation', function (e) {
  (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + (e.blockedURI || e.sourceFile || ''));
});"""


def _api(base: str, path: str, body=None, token=None) -> dict:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method="POST" if body is not None else "GET",
    )
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def watched(context) -> Page:
    """A page that records every CSP violation (in the page and in the console)."""
    context.add_init_script(WATCH)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    return page


def violations(page: Page) -> list[str]:
    found = page.evaluate("window.__csp || []")
    return found + [m for m in page.console_errors if "Content Security Policy" in m]


def evening(base: str) -> tuple[str, str]:
    created = _api(base, "/api/v1/sessions", {"players": ["Anna", "Boris", "Vera"]})
    sid, token = created["id"], created["edit_token"]
    deal = {
        "players": [
            {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "cards": "5♥"}]},
            {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": "K♣ JK"},
            {"name": "Vera", "hand": "7♠"},
        ],
        "went_out": "Anna",
    }
    _api(base, f"/api/v1/sessions/{sid}/deals", deal, token)
    return sid, token


def pages_of(sid: str) -> list[str]:
    return [
        "/",
        f"/s/{sid}",
        f"/s/{sid}/deals/new",
        f"/s/{sid}/history",
        f"/s/{sid}/summary",
        "/players",
        "/import",
        "/rules/desk",
        f"/rules/desk?session={sid}",
        "/rules/kunken",
        "/rules/ordered-rummy",
        f"/s/{sid}/draft",
        f"/s/{sid}/draft/1",
        f"/s/{sid}/chart.svg",
        f"/s/{sid}/qr.svg",
        "/s/no-such-session",
    ]


def test_every_page_loads_without_a_csp_violation(server, phones):
    sid, token = evening(server)
    scorer = watched(phones(locale="ru-RU"))
    scorer.goto(f"{server}/s/{sid}/scorer/{token}")
    expect(scorer.locator("#record-deal")).to_be_visible()
    urls = pages_of(sid)
    edit = scorer.locator("a[href*='/deals/'][href$='/edit']").first.get_attribute("href")
    for path in urls + [edit]:
        response = scorer.goto(server + path)
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"], path
        scorer.wait_for_load_state("load")
        if "/deals/" in path and path.endswith(("/new", "/edit")):
            expect(scorer.locator("#deal-form")).to_have_attribute("data-ready", "true")
        assert violations(scorer) == [], path
    # a player's phone on its part, with the keypad in use
    player = watched(phones(locale="en-US"))
    take_seat(player, f"{server}/s/{sid}", 0)
    part_ready(player)
    player.locator("#keypad [data-rank='K']").tap()
    player.locator("#keypad [data-suit='♠']").tap()
    assert violations(player) == [], "a player's part"


def test_the_check_sees_an_inline_handler(server, phones):
    """The check above can fail: an inline event handler on a page is a violation it reports."""
    page = watched(phones())
    page.goto(server + "/")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=\"/static/none.png\" onerror=\"1\">')")
    page.wait_for_function("(window.__csp || []).length > 0")
    assert any("script-src" in v for v in violations(page))


def serve_html(pages: dict) -> tuple[str, object]:
    """Another site on another port of the same host: serves ``pages`` ({path: html})."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{other.server_port}", other


def test_no_page_can_be_framed_by_another_site(server, phones):
    """The attack of the issue: a page on another port of the same host frames the scorer's pages."""
    sid, token = evening(server)
    context = phones()
    page = context.new_page()
    page.goto(f"{server}/s/{sid}/scorer/{token}")  # this phone is the scorer: its cookie goes with the frames
    targets = [server + path for path in pages_of(sid)[:12]]
    frames = "".join(f'<iframe src="{url}" width="300" height="200"></iframe>' for url in targets)
    frames += '<iframe src="/inner" width="300" height="200"></iframe>'
    other, httpd = serve_html(
        {"/": f"<!doctype html><body>{frames}</body>", "/inner": "<!doctype html><p id=inner>framed</p>"}
    )
    try:
        page.goto(other + "/")
        page.wait_for_load_state("load")
        children = page.main_frame.child_frames
        assert len(children) == len(targets) + 1
        expect(children[-1].locator("#inner")).to_have_text("framed")  # framing works where it is allowed
        for frame in children[:-1]:
            assert frame.url.startswith("chrome-error://"), frame.url
            assert frame.locator("form, #record-deal, #end-session").count() == 0, frame.url
    finally:
        httpd.shutdown()
        httpd.server_close()
