"""The app over https behind a real Caddy (deploy/Caddyfile's LAN form, ``tls internal``) on loopback, with a real
``python app.py`` behind it and a phone-sized Chromium that trusts Caddy's own certificate authority (issue 46, item
2): cookies are ``Secure``, the service worker registers, a reload with no network opens the part page with what was
typed, the manifest is installable; and the ``X-Forwarded-*`` headers are believed from the trusted proxy alone.

The phone opens ``https://kunken.test:<port>`` (Chromium maps the name to 127.0.0.1): not a loopback name, so the
page is a secure context, and the service worker may register, only because it came over https with a certificate
Chromium trusts. Caddy's root certificate is put into an NSS database of the browser's own (``certutil``), as
``docs/hosting.md`` has an operator put it on the phones; no certificate error is ignored.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    ROOT,
    close_phone,
    free_port,
    part_ready,
    phone,
    saved,
    start_app_py,
    start_on_phone,
    take_seat,
)
from playwright.sync_api import expect
from test_browser_offline import stored_part, wait_for_state

from kunken_scorer.web import StartupError, create_app

NAME = "kunken.test"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
#: an address of the loopback network that is not the trusted proxy's (Linux answers the whole 127.0.0.0/8 on lo)
STRANGER = "127.0.0.3"


def needed(tool: str, package: str) -> str:
    """The path of ``tool``; the test FAILS (never skips) when it is missing, saying what to install."""
    found = shutil.which(tool)
    if found is None:
        pytest.fail(f"{tool} is not installed: apt-get install {package} (make browser does)")
    return found


def lan_site(https_port: int, app_port: int) -> str:
    """deploy/Caddyfile's LAN block (commented out there), uncommented, for ``https://kunken.test:<https_port>``
    in front of the app on ``app_port``."""
    text = CADDYFILE.read_text(encoding="utf-8")
    block = text.split("# --- LAN", 1)[1].split("\n", 1)[1]
    lines = [line.removeprefix("# ") for line in block.splitlines() if line.startswith("# ")]
    assert lines and lines[0].rstrip().endswith("{") and "tls internal" in "\n".join(lines), lines
    lines[0] = f"https://{NAME}:{https_port} {{"
    site = "\n".join(lines)
    assert "127.0.0.1:8000" in site  # the address deploy/kunken-scorer.service serves on
    return site.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}")


class Deployment:
    """Caddy on ``https_port`` in front of ``python app.py`` on ``app_port``, trusting Caddy (127.0.0.1)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        ports: set[int] = set()
        while len(ports) < 3:  # three different ones: a port just closed may be handed out again
            ports.add(free_port())
        self.app_port, self.http_port, self.https_port = sorted(ports)
        self.base = f"https://{NAME}:{self.https_port}"
        self.db = folder / "kunken.db"
        self.root_ca = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def caddyfile(self) -> Path:
        path = self.folder / "Caddyfile"
        options = (
            "{\n\tadmin off\n\tskip_install_trust\n\tdefault_bind 127.0.0.1\n"
            f"\thttp_port {self.http_port}\n\thttps_port {self.https_port}\n"
            f"\tstorage file_system {self.folder / 'data' / 'caddy'}\n}}\n\n"
        )
        path.write_text(options + lan_site(self.https_port, self.app_port) + "\n", encoding="utf-8")
        return path

    def environment(self) -> dict[str, str]:
        """Caddy's: its files in the test's folder, never the user's."""
        return {
            **os.environ,
            "HOME": str(self.folder),
            "XDG_DATA_HOME": str(self.folder / "data"),
            "XDG_CONFIG_HOME": str(self.folder / "config"),
        }


def wait_for(what: str, ready, seconds: float = 20) -> None:
    started = time.monotonic()
    while True:
        try:
            if ready():
                return
        except OSError:
            pass
        assert time.monotonic() - started < seconds, f"{what} did not come up in {seconds} s"
        time.sleep(0.1)


def answers(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=1):
        return True


def https_request(
    deployment: Deployment, method: str, path: str, headers: dict[str, str] | None = None, body: object = None
) -> http.client.HTTPResponse:
    """A request through Caddy over https, checking its certificate against Caddy's own authority."""
    context = ssl.create_default_context(cafile=str(deployment.root_ca))
    connection = http.client.HTTPSConnection(NAME, deployment.https_port, context=context, timeout=10)
    raw = socket.create_connection(("127.0.0.1", deployment.https_port), timeout=10)
    connection.sock = context.wrap_socket(raw, server_hostname=NAME)
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Content-Type": "application/json", **(headers or {})} if data else dict(headers or {})
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def direct_request(
    port: int, source: str, method: str, path: str, headers: dict[str, str] | None = None, body: object = None
) -> http.client.HTTPResponse:
    """A request straight to the app (no Caddy), from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Content-Type": "application/json", **(headers or {})} if data else dict(headers or {})
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def cookie_is_secure(response: http.client.HTTPResponse, name: str) -> bool:
    cookies = [c for c in response.headers.get_all("Set-Cookie") or [] if c.startswith(name + "=")]
    assert cookies, f"no {name} cookie was set: {response.headers.get_all('Set-Cookie')}"
    return all(any(p.strip().lower() == "secure" for p in c.split(";")[1:]) for c in cookies)


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    """Caddy and app.py running, both answering; stopped afterwards."""
    caddy = needed("caddy", "caddy")
    site = Deployment(tmp_path)
    app = start_app_py(
        site.db,
        site.app_port,
        env={
            "KUNKEN_TRUSTED_PROXIES": "127.0.0.1",
            "KUNKEN_PUBLIC_URL": site.base,
            "KUNKEN_CREATE_LIMIT": "2",  # the per-address limit the X-Forwarded-For tests count on
        },
    )
    log = (tmp_path / "caddy.log").open("wb")
    proxy = subprocess.Popen(
        [caddy, "run", "--adapter", "caddyfile", "--config", str(site.caddyfile())],
        env=site.environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        try:
            wait_for("app.py", lambda: answers(site.app_port))
            wait_for("Caddy", lambda: answers(site.https_port) and site.root_ca.exists())
            wait_for("Caddy's certificate", lambda: https_request(site, "GET", "/health").status < 500)
        except AssertionError as failed:
            said = (tmp_path / "caddy.log").read_text(encoding="utf-8", errors="replace")[-3000:]
            raise AssertionError(f"{failed}\nCaddy said:\n{said}") from None
        yield site
    finally:
        for process in (proxy, app):
            process.terminate()
        for process in (proxy, app):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        log.close()


@pytest.fixture
def browser_home(deployment: Deployment, tmp_path: Path) -> Path:
    """A HOME for Chromium whose NSS database trusts Caddy's root certificate, as a phone does once an operator
    has installed it (docs/hosting.md)."""
    certutil = needed("certutil", "libnss3-tools")
    home = tmp_path / "browser-home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "caddy-local", "-i", str(deployment.root_ca)],
        check=True,
    )
    return home


def launch_options(home: Path) -> dict:
    """Debian's Chromium (never a downloaded one) with ``home``, ``kunken.test`` mapped to loopback."""
    return {
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
        ],
        "env": {**os.environ, "HOME": str(home)},
    }


@pytest.fixture
def trusting_browser(browser_home: Path, browser_type):
    """Chromium trusting Caddy's certificate authority, its contexts fresh phones."""
    browser = browser_type.launch(**launch_options(browser_home))
    yield browser
    browser.close()


@pytest.fixture
def https_phones(trusting_browser, playwright):
    opened: list = []

    def open_phone(locale: str = "en-US"):
        context = trusting_browser.new_context(**{**playwright.devices["Pixel 7"], "locale": locale})
        context.set_default_timeout(10_000)
        opened.append(context)
        return context

    yield open_phone
    for context in opened:
        close_phone(context)


def test_through_caddy_over_https_cookies_are_secure_the_worker_registers_and_an_offline_reload_keeps_the_part(
    deployment, https_phones
):
    base = deployment.base
    scorer = https_phones().new_page()
    session_url = start_on_phone(scorer, base, ["Anna", "Boris"], "cards")
    assert session_url.startswith(base + "/s/")
    assert scorer.evaluate("window.isSecureContext") is True  # https, with a certificate the browser trusts
    context = https_phones()
    anna = context.new_page()
    take_seat(anna, session_url, 0)

    # the service worker registers and takes the page over (a secure context: here, only because of https)
    anna.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=15_000
    )
    worker = anna.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert worker == f"{base}/sw.js"
    anna.reload()
    part_ready(anna)
    anna.locator("#player-melds").fill("A♠ A♥ A♦")
    saved(anna, revision=1)

    # every cookie the server set over https (the session's, the scorer's token, the seat's, the language...)
    for phone_context in (scorer.context, context):
        cookies = phone_context.cookies()
        assert cookies, "no cookie was set"
        assert [c["name"] for c in cookies if not c["secure"]] == [], cookies

    # a reload with no network: the service worker's copy of the part page, the phone's copy of what was typed
    context.set_offline(True)
    anna.locator("#player-hand").fill("K♣ 7♦")
    wait_for_state(anna, "local")
    anna.reload()
    part_ready(anna)
    expect(anna.locator("#player-hand")).to_have_value("K♣ 7♦")
    expect(anna.locator("#player-melds")).to_have_value(re.compile(r"^A♠ A♥ A♦\s*$"))
    wait_for_state(anna, "local")
    assert (stored_part(str(deployment.db), 0) or {}).get("hand") in ("", [], None)  # offline: not on the server

    context.set_offline(False)
    wait_for_state(anna, "stored", timeout=15_000)
    assert stored_part(str(deployment.db), 0)["hand"]


def test_the_manifest_over_https_is_installable(deployment, browser_home, browser_type, playwright, tmp_path):
    # a browser profile of its own (Chromium offers no install in the private contexts of new_context)
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        **launch_options(browser_home),
        **{k: v for k, v in playwright.devices["Pixel 7"].items() if k != "default_browser_type"},
    )
    try:
        installable(deployment, context.new_page())
    finally:
        close_phone(context)


def installable(deployment: Deployment, page) -> None:
    """The manifest and its icons as the browser fetches them, and Chromium's verdict on installing the app."""
    page.goto(deployment.base + "/")
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=15_000
    )
    fetched = page.evaluate(
        """async () => {
            const answer = await fetch("/manifest.webmanifest");
            return {type: answer.headers.get("Content-Type"), manifest: await answer.json()};
        }"""
    )
    assert fetched["type"].startswith("application/manifest+json")
    manifest = fetched["manifest"]
    assert manifest["name"] and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    for icon in manifest["icons"]:
        got = page.evaluate(
            """async (src) => {
                const answer = await fetch(src, {cache: "no-store"});
                return [answer.status, answer.headers.get("Content-Type"), answer.headers.get("Cache-Control")];
            }""",
            icon["src"],
        )
        # a versioned address (its content's hash), cached for good
        assert got == [200, "image/png", "public, max-age=31536000, immutable"], (icon, got)
    # Chromium's own verdict, as it decides whether to offer "Install app"
    cdp = page.context.new_cdp_session(page)
    verdict = cdp.send("Page.getInstallabilityErrors")
    assert verdict["installabilityErrors"] == [], verdict
    manifest_url = cdp.send("Page.getAppManifest")
    assert manifest_url["url"] == deployment.base + "/manifest.webmanifest" and not manifest_url["errors"]


def test_forwarded_headers_count_only_from_the_trusted_proxy(deployment):
    """Caddy says which phone asked and that it came over https; a phone cannot say so itself, neither through
    Caddy (Caddy replaces what it sent) nor straight to the app (its address is not trusted)."""
    players = {"players": ["Anna", "Boris"]}

    # through Caddy, over https: every cookie Secure
    assert cookie_is_secure(https_request(deployment, "GET", "/lang/en"), "lang")
    home = https_request(deployment, "GET", "/")
    assert home.status == 200 and cookie_is_secure(home, "session")

    # straight to the app from an address that is not the proxy's: X-Forwarded-Proto is ignored
    spoofed = direct_request(deployment.app_port, STRANGER, "GET", "/lang/en", {"X-Forwarded-Proto": "https"})
    assert not cookie_is_secure(spoofed, "lang")

    # ... and so is X-Forwarded-For: the limit counts the socket's address, whatever the header claims
    # (KUNKEN_CREATE_LIMIT=2 a minute per address)
    for n, claimed in enumerate(("10.1.1.1", "10.1.1.2", "10.1.1.3")):
        made = direct_request(
            deployment.app_port, STRANGER, "POST", "/api/v1/sessions", {"X-Forwarded-For": claimed}, players
        )
        assert made.status == (201 if n < 2 else 429), (claimed, made.status)

    # through Caddy, a phone's own X-Forwarded-For is replaced by its real address (127.0.0.1 here): two phones
    # claiming two addresses are still one address to the limit
    for n, claimed in enumerate(("10.2.2.1", "10.2.2.2", "10.2.2.3")):
        made = https_request(deployment, "POST", "/api/v1/sessions", {"X-Forwarded-For": claimed}, players)
        assert made.status == (201 if n < 2 else 429), (claimed, made.status)

    # the trusted address's X-Forwarded-For is believed: each phone it names has its own count
    for claimed in ("10.3.3.1", "10.3.3.2", "10.3.3.3"):
        made = direct_request(
            deployment.app_port,
            "127.0.0.1",
            "POST",
            "/api/v1/sessions",
            {"X-Forwarded-For": claimed, "X-Forwarded-Proto": "https"},
            players,
        )
        assert made.status == 201, (claimed, made.status)
        assert cookie_is_secure(
            direct_request(deployment.app_port, "127.0.0.1", "GET", "/lang/ru", {"X-Forwarded-Proto": "https"}),
            "lang",
        )


# -- the same rules through the test client: fast, and each case on its own ---------------------------------


@pytest.fixture
def proxied_app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "kunken.db"),
            "SECRET_KEY": "k" * 40,
            "TRUSTED_PROXIES": "127.0.0.1, ::1",
            "CREATE_LIMIT": 1,
        }
    )


def secure_flags(response) -> dict[str, bool]:
    return {
        c.split("=", 1)[0]: any(p.strip().lower() == "secure" for p in c.split(";")[1:])
        for c in response.headers.getlist("Set-Cookie")
    }


@pytest.mark.parametrize("peer", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_the_trusted_proxy_s_https_makes_every_cookie_secure(proxied_app, peer):
    client = proxied_app.test_client()
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
    base = {"REMOTE_ADDR": peer}
    assert secure_flags(client.get("/lang/en", headers=https, environ_base=base)) == {"lang": True}
    home = client.get("/", headers=https, environ_base=base)
    assert secure_flags(home) == {"session": True}  # Flask's own session cookie (the CSRF token)
    made = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}, headers=https, environ_base=base)
    assert made.status_code == 201
    # the scorer's cookie, set by opening the scorer link
    scorer_link = "/" + made.get_json()["edit_url"].split("://", 1)[1].split("/", 1)[1]
    opened = client.get(scorer_link, headers=https, environ_base=base)
    assert opened.status_code == 303 and all(secure_flags(opened).values()) and secure_flags(opened)


def test_x_forwarded_headers_from_any_other_address_are_ignored(proxied_app):
    client = proxied_app.test_client()
    claims = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
    stranger = {"REMOTE_ADDR": "192.168.1.50"}
    assert secure_flags(client.get("/lang/en", headers=claims, environ_base=stranger)) == {"lang": False}
    assert secure_flags(client.get("/", headers=claims, environ_base=stranger)) == {"session": False}
    # CREATE_LIMIT=1: the second creation from the same socket address is refused whatever it claims to be
    first = client.post("/api/v1/sessions", json={"players": ["A", "B"]}, headers=claims, environ_base=stranger)
    other = {**claims, "X-Forwarded-For": "192.0.2.8"}
    second = client.post("/api/v1/sessions", json={"players": ["A", "B"]}, headers=other, environ_base=stranger)
    assert (first.status_code, second.status_code) == (201, 429)


def test_without_trusted_proxies_nothing_forwarded_is_believed(app):
    client = phone(app)
    claims = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
    assert secure_flags(client.get("/lang/ru", headers=claims)) == {"lang": False}


def test_a_wrong_trusted_proxy_address_stops_the_start_with_a_clear_word(tmp_path):
    with pytest.raises(StartupError, match=r"KUNKEN_TRUSTED_PROXIES: 'caddy' is not an IP address"):
        create_app(
            {
                "TESTING": True,
                "DATABASE": str(tmp_path / "k.db"),
                "SECRET_KEY": "k" * 40,
                "TRUSTED_PROXIES": "127.0.0.1,caddy",
            }
        )
    assert not (tmp_path / "k.db").exists()  # refused before anything was opened or made
