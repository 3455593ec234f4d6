"""Static files are kept by browsers for good under addresses that carry their content's hash; pages and API
answers say they vary by language (issue 46, item 5)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from conftest import new_session, phone, start, text
from flask import Flask, url_for

from kunken_scorer.web.assets import FOREVER, init_assets

#: every static address a page, a script tag or the manifest writes: /static/<file>?<query>
STATIC = re.compile(r"/static/([\w./-]+)(\?[^\"'\s<>]*)?")


def static_addresses(page: str) -> dict[str, str]:
    """The static files ``page`` refers to, each with its query string ('' for none)."""
    return {m[1]: (m[2] or "") for m in STATIC.finditer(page)}


def digest(app, filename: str) -> str:
    return hashlib.sha256(Path(app.static_folder, filename).read_bytes()).hexdigest()[:12]


def test_every_static_address_on_the_pages_carries_its_content_hash(app, client):
    sid = start(client)
    pages = [text(client.get(path)) for path in ("/", f"/s/{sid}", f"/s/{sid}/deals/new", "/players")]
    pages.append(text(client.get("/manifest.webmanifest")))
    found: dict[str, str] = {}
    for page in pages:
        found.update(static_addresses(page))
    # the stylesheet, the scripts every page loads, the deal form's, the home page's, and the icons
    for expected in ("style.css", "page.js", "keep.js", "entry.js", "keypad.js", "start.js", "icons/icon-192.png"):
        assert expected in found, f"{expected} is not referred to on the pages looked at: {sorted(found)}"
    for filename, query in found.items():
        assert query == f"?v={digest(app, filename)}", f"/static/{filename} is written as {query!r}"


def test_a_versioned_file_is_cached_for_good_and_an_unversioned_one_revalidated(app, client):
    page = text(client.get("/"))
    query = static_addresses(page)["style.css"]
    versioned = client.get(f"/static/style.css{query}")
    assert versioned.status_code == 200
    assert versioned.headers["Cache-Control"] == FOREVER == "public, max-age=31536000, immutable"
    assert versioned.data == Path(app.static_folder, "style.css").read_bytes()
    assert "Accept-Language" not in versioned.headers.get("Vary", "")  # one copy for every language

    plain = client.get("/static/style.css")
    assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache"
    old = client.get("/static/style.css?v=000000000000")  # a page kept from before an upgrade
    assert old.status_code == 200 and old.headers["Cache-Control"] == "no-cache"
    assert old.data == versioned.data

    # revalidating the versioned address still answers 304, and says it is for good
    again = client.get(f"/static/style.css{query}", headers={"If-None-Match": versioned.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == FOREVER
    assert client.get("/static/nothing-here.css?v=1").status_code == 404


def test_a_changed_file_gets_a_new_address_after_a_restart(tmp_path):
    """The hash is the file's content, read as the app starts: a release that changes a file changes its address,
    and an unchanged file keeps its own (the phones keep their copy)."""
    static = tmp_path / "static"
    (static / "icons").mkdir(parents=True)
    (static / "page.js").write_text("/* one */", encoding="utf-8")
    (static / "style.css").write_text("p {}", encoding="utf-8")
    (static / "icons" / "icon-192.png").write_bytes(b"png")

    def started() -> Flask:
        """A server started on this folder."""
        app = Flask(__name__, static_folder=str(static))
        init_assets(app)
        return app

    def addresses(app: Flask) -> tuple[str, str, str]:
        with app.test_request_context("/"):
            return (
                url_for("static", filename="page.js"),
                url_for("static", filename="style.css"),
                url_for("static", filename="icons/icon-192.png"),
            )

    running = started()
    before = addresses(running)
    assert before[0] == "/static/page.js?v=" + hashlib.sha256(b"/* one */").hexdigest()[:12]
    (static / "page.js").write_text("/* two */", encoding="utf-8")
    assert addresses(running) == before  # worked out once, as it started
    after = addresses(started())
    assert after[0] == "/static/page.js?v=" + hashlib.sha256(b"/* two */").hexdigest()[:12]
    assert after[1:] == before[1:]


def test_the_service_worker_is_never_cached_for_good(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.headers["Cache-Control"] == "no-cache"
    assert "immutable" not in client.get("/sw.js?v=x").headers["Cache-Control"]
    # the pages register it at its one address: the browser looks for a new worker there
    assert 'data-sw="/sw.js"' in text(client.get("/"))


def test_the_service_worker_keeps_the_versioned_addresses_and_drops_older_ones(app):
    """sw.js keeps a static file under the address the page asked for (with its ?v=) and drops the file's copies
    at other versions; it never rewrites or strips the query."""
    worker = Path(app.static_folder, "sw.js").read_text(encoding="utf-8")
    assert "cache.put(request, copy)" in worker
    assert "dropOlderVersions(cache, request.url)" in worker
    assert 'url.searchParams.has("v")' in worker and "other.search !== url.search" in worker


@pytest.mark.parametrize("path", ["/", "/players", "/rules", "/nights", "/manifest.webmanifest", "/no-such-page"])
def test_pages_vary_by_accept_language_and_the_language_cookie(client, path):
    response = client.get(path, headers={"Accept-Encoding": "gzip"})
    vary = [v.strip() for v in response.headers.get("Vary", "").split(",")]
    assert "Accept-Language" in vary and "Cookie" in vary, (path, vary)
    assert len(vary) == len(set(vary)), f"{path}: Vary repeats a header: {vary}"


def test_the_language_really_follows_accept_language(app):
    """What Vary says is so: the same address answers in the language the header asks for."""
    client = app.test_client()
    russian = client.get("/", headers={"Accept-Language": "ru"})
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert 'lang="ru"' in text(russian) and 'lang="en"' in text(english)
    assert "Accept-Language" in russian.headers["Vary"] and "Accept-Language" in english.headers["Vary"]


def test_api_answers_vary_by_language_and_compression_keeps_its_own_vary(app):
    client = phone(app)
    session = new_session(client)
    answer = client.get(f"/api/v1/sessions/{session['id']}", headers={"Accept-Encoding": "gzip"})
    vary = [v.strip() for v in answer.headers["Vary"].split(",")]
    assert "Accept-Language" in vary and "Cookie" in vary
    refused = app.test_client().get("/api/v1/sessions/nope", headers={"Accept-Language": "ru"})
    assert refused.status_code == 404 and "Accept-Language" in refused.headers["Vary"]
    # the error's words follow the language asked for: what Vary declares
    english = app.test_client().get("/api/v1/sessions/nope", headers={"Accept-Language": "en"})
    assert refused.get_json() != english.get_json()
