"""Starting the app: the factory's configuration (a given database, a generated secret key,
``KUNKEN_*`` environment variables), and `python app.py` (what `make run` starts) serving on the
given address and printing the join URL and QR code."""

import json
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import free_port, start_app_py
from waitress.task import ThreadedTaskDispatcher

from kunken_scorer import web
from kunken_scorer.web import create_app

# -- the app factory -----------------------------------------------------------------------------------


@pytest.fixture
def instance_folder(tmp_path, monkeypatch):
    """The app's instance folder (where it keeps the secret key it makes) under ``tmp_path``, not in the clone."""
    folder = tmp_path / "instance"
    new_app = web._new_app

    def app_with_its_instance_here(test_config=None):
        app = new_app(test_config)
        app.instance_path = str(folder)
        return app

    monkeypatch.setattr(web, "_new_app", app_with_its_instance_here)
    return folder


def test_factory_uses_the_given_database_and_keeps_a_generated_secret(tmp_path, monkeypatch, instance_folder):
    monkeypatch.delenv("KUNKEN_SECRET_KEY", raising=False)
    app = create_app({"DATABASE": str(tmp_path / "k.db"), "TESTING": True})
    assert (tmp_path / "k.db").exists()
    assert app.config["SECRET_KEY"] and len(app.config["SECRET_KEY"]) >= 32
    assert (instance_folder / "secret_key").read_text().strip() == app.config["SECRET_KEY"]
    again = create_app({"DATABASE": str(tmp_path / "k.db"), "TESTING": True})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]  # kept: the next start reads the same key


def test_environment_variables_configure_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("KUNKEN_DATABASE", str(tmp_path / "env.db"))
    monkeypatch.setenv("KUNKEN_SECRET_KEY", "s" * 40)
    monkeypatch.setenv("KUNKEN_PUBLIC_URL", "http://scorer.example:8000")
    app = create_app()
    assert app.config["DATABASE"] == str(tmp_path / "env.db")
    assert app.config["SECRET_KEY"] == "s" * 40
    assert app.config["PUBLIC_URL"] == "http://scorer.example:8000"
    assert (tmp_path / "env.db").exists()


def test_the_import_limit_is_set_from_the_environment(tmp_path, monkeypatch):
    """``KUNKEN_IMPORT_MAX_CONTENT_LENGTH`` (the README's table): an import past it is a 413 that says so."""
    monkeypatch.setenv("KUNKEN_DATABASE", str(tmp_path / "env.db"))
    monkeypatch.setenv("KUNKEN_SECRET_KEY", "s" * 40)
    monkeypatch.setenv("KUNKEN_IMPORT_MAX_CONTENT_LENGTH", "1000")
    client = create_app().test_client()
    answer = client.post("/api/v1/sessions/import", data=b"{" + b" " * 1000 + b"}", content_type="application/json")
    assert answer.status_code == 413 and answer.get_json()["error"] == "The request is too large: at most 1000 bytes."


ROOT = Path(__file__).resolve().parent.parent


# -- python app.py ---------------------------------------------------------------------------------------


def test_app_py_starts_waitress_prints_the_join_address_and_serves(tmp_path):
    port = free_port()
    env = {"KUNKEN_PUBLIC_URL": "http://192.0.2.7:8123", "PYTHONUNBUFFERED": "1"}
    proc = start_app_py(tmp_path / "run.db", port, env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2) as resp:
                    body = resp.read()
                    server = resp.headers.get("Server", "")
                break
            except OSError:
                time.sleep(0.1)
        assert body == b'{"ok":true}\n' or body.strip() == b'{"ok": true}' or b'"ok":true' in body.replace(b" ", b"")
        assert "waitress" in server.lower() or server == "kunken-scorer"
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert "http://192.0.2.7:8123/" in out
    assert "\x1b[" not in out and "▀" not in out  # piped to a log: the address, no QR code in colour codes
    assert (tmp_path / "run.db").exists()


def test_an_unchanged_live_poll_keeps_the_connection_open(tmp_path):
    """Phones poll every few seconds: a 304 must not make them connect again (waitress closed it)."""
    port = free_port()
    proc = start_app_py(tmp_path / "poll.db", port)
    try:
        sid = None
        for _ in range(300):
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/v1/sessions",
                    method="POST",
                    data=b'{"players": ["Anna", "Boris"]}',
                    headers={"Content-Type": "application/json"},
                )
                with urllib.request.urlopen(request, timeout=2) as resp:
                    sid = json.loads(resp.read())["id"]
                break
            except OSError:
                time.sleep(0.1)
        assert sid, "the server did not answer within 30 s"
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            poll = f'GET /s/{sid}/live HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: "1"\r\n\r\n'.encode()
            s.sendall(poll + poll + poll)  # three polls on one connection
            data = b""
            while data.count(b"HTTP/1.1 304") < 3:
                chunk = s.recv(65536)
                assert chunk, f"the server closed the connection after: {data!r}"
                data += chunk
        assert b"Connection: close" not in data
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_api_bodies_are_read_whole_under_waitress_with_a_length_chunked_or_pipelined(tmp_path):
    """The API reads each body whole from waitress's input (werkzeug's get_data): two
    requests on one connection each get their own body, a chunked one (no length) is read too, and a length
    past the limit is refused with 413."""
    port = free_port()
    proc = start_app_py(tmp_path / "bodies.db", port)
    anna = json.dumps({"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, {"name": "Boris", "hand": "K♣"}]})
    boris = json.dumps({"players": [{"name": "Anna", "hand": "2♠"}, {"name": "Boris", "melds": ["5♥ 6♥ 7♥"]}]})

    def post(body: bytes, headers: str) -> bytes:
        head = (
            f"POST /api/v1/deals/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{headers}\r\n"
        )
        return head.encode() + body

    def answers(s: socket.socket, count: int) -> list[tuple[bytes, dict]]:
        data, out = b"", []
        while len(out) < count:
            chunk = s.recv(65536)
            assert chunk, f"the server closed the connection after: {data!r}"
            data += chunk
            while b"\r\n\r\n" in data:
                head, rest = data.split(b"\r\n\r\n", 1)
                length = int(re.search(rb"Content-Length: (\d+)", head)[1])
                if len(rest) < length:
                    break
                out.append((head.split(b"\r\n")[0], json.loads(rest[:length])))
                data = rest[length:]
        return out

    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            one, two = anna.encode(), boris.encode()
            chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(two), two)
            s.sendall(
                post(one, f"Content-Length: {len(one)}\r\n")
                + post(two, f"Content-Length: {len(two)}\r\n")
                + post(chunked, "Transfer-Encoding: chunked\r\n")
            )
            got = answers(s, 3)
        assert [status for status, _ in got] == [b"HTTP/1.1 200 OK"] * 3
        scores = [{p["name"]: p["score"] for p in body["players"]} for _, body in got]
        assert scores == [{"Anna": 30, "Boris": -10}, {"Anna": -5, "Boris": 15}, {"Anna": -5, "Boris": 15}]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            big = b" " * (256 * 1024 + 1)  # waitress hands a request on once its body is in
            s.sendall(post(big, f"Content-Length: {len(big)}\r\n"))
            ((status, body),) = answers(s, 1)
        assert status.startswith(b"HTTP/1.1 413 ") and "at most 262144 bytes" in body["error"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _catalogs_copy(tmp_path, compiled: bool, po_newer: bool = False) -> Path:
    """A copy of translations/ (the .po files, and their .mo when ``compiled``); the .po touched later
    when ``po_newer``."""
    copy = tmp_path / "translations"
    for po in (ROOT / "translations").glob("*/LC_MESSAGES/messages.po"):
        target = copy / po.relative_to(ROOT / "translations")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(po.read_bytes())
        now = time.time()
        os.utime(target, (now - 60, now - 60))
        if compiled:
            target.with_suffix(".mo").write_bytes(po.with_suffix(".mo").read_bytes())
            os.utime(target.with_suffix(".mo"), (now - 30, now - 30))
        if po_newer:
            os.utime(target, (now, now))
    return copy


def test_the_app_only_reads_the_catalogs_and_compiles_nothing(tmp_path):
    translations = _catalogs_copy(tmp_path, compiled=True)
    before = sorted(p.relative_to(translations) for p in translations.rglob("*"))
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "k.db"),
            "SECRET_KEY": "x" * 40,
            "BABEL_TRANSLATION_DIRECTORIES": str(translations),
        }
    )
    home = app.test_client().get("/", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    with (translations / "ru" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        title = read_po(f).get("Kunken scorer").string
    assert title in home  # the pages are in Russian, from the compiled catalog
    assert sorted(p.relative_to(translations) for p in translations.rglob("*")) == before


@pytest.mark.parametrize("state", ["missing", "older than the .po"])
def test_without_compiled_catalogs_app_py_stops_with_one_line_and_status_2(tmp_path, state):
    """`python app.py` without `make`: not English pages without a word, but what to run."""
    translations = _catalogs_copy(tmp_path, compiled=state != "missing", po_newer=state != "missing")
    env = {
        **os.environ,
        "KUNKEN_DATABASE": str(tmp_path / "k.db"),
        "KUNKEN_SECRET_KEY": "x" * 40,
        "KUNKEN_BABEL_TRANSLATION_DIRECTORIES": str(translations),
    }
    proc = subprocess.run(
        [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kunken-scorer:") and "make catalogs" in lines[0], proc.stderr
    assert "messages.mo" in lines[0]
    assert not (tmp_path / "k.db").exists()  # stopped before opening anything
    if state == "missing":
        assert not list(translations.rglob("*.mo"))  # and compiled nothing


def test_waitress_says_a_queue_only_when_as_many_requests_wait_as_there_are_threads(caplog, tmp_path, monkeypatch):
    """waitress's own dispatcher, two threads held busy: one request waiting says nothing, two do (without
    the filter waitress warned at the first)."""
    # importing app.py builds the app: on a file of this test's own, never in the repository's instance/
    monkeypatch.setenv("KUNKEN_DATABASE", str(tmp_path / "kunken.db"))
    monkeypatch.setenv("KUNKEN_SECRET_KEY", "a test's own key")
    from kunken_scorer import server  # noqa: PLC0415 -- as the other tests of this file import it

    release = threading.Event()
    started = threading.Semaphore(0)

    class Held:
        def service(self):
            started.release()
            release.wait(10)

        def cancel(self):
            pass

    server.quiet_short_queues(2)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(2)
    try:
        with caplog.at_level("WARNING", logger="waitress.queue"):
            for _ in range(2):
                dispatcher.add_task(Held())
            for _ in range(2):
                assert started.acquire(timeout=5)  # both threads are busy now
            caplog.clear()  # threads not yet idle when the first two came may have made them wait
            dispatcher.add_task(Held())
            assert [r.getMessage() for r in caplog.records] == []  # one waits: quiet
            dispatcher.add_task(Held())
            assert [r.getMessage() for r in caplog.records] == ["Task queue depth is 2"]
    finally:
        release.set()
        dispatcher.shutdown(cancel_pending=True, timeout=5)

        logging.getLogger("waitress.queue").filters.clear()


# -- connections guarded (issue 35) -------------------------------------------------------------------


def test_the_server_options_and_the_connection_figures(tmp_path, monkeypatch):
    """The figures docs/hosting.md "Settings" gives: connections idle 30 s are closed (looked at every 10 s), a
    request must arrive whole within 30 s of its first byte, one address may keep 100 connections open."""
    monkeypatch.setenv("KUNKEN_DATABASE", str(tmp_path / "kunken.db"))
    monkeypatch.setenv("KUNKEN_SECRET_KEY", "a test's own key")
    for name in ("KUNKEN_CONNECTIONS_PER_ADDRESS", "KUNKEN_REQUEST_TIMEOUT", "KUNKEN_CONNECTIONS"):
        monkeypatch.delenv(name, raising=False)
    from kunken_scorer import cli, server  # noqa: PLC0415 -- reads the environment set above

    args = cli.arguments([])
    assert (args.connections, args.connections_per_address, args.request_timeout) == (2000, 100, 30)
    options = server.server_options(args)
    assert options["channel_timeout"] == 30 and options["cleanup_interval"] == 10
    assert 10 <= options["connection_limit"] <= 2000 and options["asyncore_use_poll"] is True
    monkeypatch.setenv("KUNKEN_CONNECTIONS_PER_ADDRESS", "0")
    monkeypatch.setenv("KUNKEN_REQUEST_TIMEOUT", "2.5")
    args = cli.arguments(["--connections", "500"])
    assert (args.connections, args.connections_per_address, args.request_timeout) == (500, 0, 2.5)
    # half-open connections: half of the connections unless KUNKEN_HALF_OPEN says; a trusted proxy is not counted
    monkeypatch.delenv("KUNKEN_HALF_OPEN", raising=False)
    monkeypatch.delenv("KUNKEN_TRUSTED_PROXIES", raising=False)
    guard = server.guard_options(args, 500)
    assert (guard["half_open"], guard["per_address"], guard["trusted"]) == (250, 0, frozenset())
    monkeypatch.setenv("KUNKEN_HALF_OPEN", "40")
    monkeypatch.setenv("KUNKEN_TRUSTED_PROXIES", "127.0.0.1, ::ffff:10.0.0.7,::1")
    guard = server.guard_options(cli.arguments(["serve", "--connections", "500"]), 500)
    assert guard["half_open"] == 40 and guard["trusted"] == {"127.0.0.1", "10.0.0.7", "::1"}
    assert server.guard_options(cli.arguments(["--half-open", "0", "--trusted-proxies", ""]), 500)["half_open"] == 0


def _wait_for_health(port: int) -> None:
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not answer within 30 s")


def _closed_by_server(s: socket.socket, within: float) -> bool:
    """True when the server closes ``s`` within ``within`` seconds (what it sent meanwhile is read and dropped)."""
    s.settimeout(within)
    try:
        while s.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def test_a_connection_trickling_a_byte_every_few_seconds_is_closed_after_the_request_timeout(tmp_path):
    """A slow-loris connection (a byte now and then, so never idle) was never closed; now a request must arrive
    whole within ``KUNKEN_REQUEST_TIMEOUT`` seconds of its first byte (2 s here). A phone's request is not hurt."""
    port = free_port()
    proc = start_app_py(tmp_path / "loris.db", port, {"KUNKEN_REQUEST_TIMEOUT": "2"})
    try:
        _wait_for_health(port)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as loris:
            started = time.monotonic()
            closed = False
            for byte in b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
                try:
                    loris.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                if _closed_by_server(loris, 0.4):
                    closed = True
                    break
            elapsed = time.monotonic() - started
        assert closed, "the trickling connection was never closed"
        assert 2 <= elapsed < 6, elapsed
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2) as resp:
            assert resp.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_one_address_cannot_take_every_connection(tmp_path):
    """The audit: 2,100 half-open connections from one address made the health check take over 10 s. Now one
    address keeps at most ``KUNKEN_CONNECTIONS_PER_ADDRESS`` open (5 here); more are closed at once, and
    another address is answered at once. The connections closed free their places."""
    port = free_port()
    proc = start_app_py(tmp_path / "flood.db", port, {"KUNKEN_CONNECTIONS_PER_ADDRESS": "5"})
    held: list[socket.socket] = []
    try:
        _wait_for_health(port)
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(40)]
        time.sleep(1)  # the server closes what is one too many as it accepts it
        closed = [s for s in held if _closed_by_server(s, 0.05)]
        assert len(closed) >= 35, f"{40 - len(closed)} of 40 connections from one address stayed open"
        other = ("127.0.0.2", 0)  # another address of this machine (all of 127.0.0.0/8 is loopback)
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=other) as s:
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(65536).startswith(b"HTTP/1.1 200 ")
        assert time.monotonic() - started < 2
        for s in held:
            s.close()
        held = []
        time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2) as resp:
            assert resp.status == 200  # the address may connect again once its connections are closed
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_a_trusted_proxy_is_not_counted_against_the_per_address_cap(tmp_path):
    """Behind a reverse proxy every phone connects from the proxy's address: with ``KUNKEN_TRUSTED_PROXIES`` naming
    it, its connections are not closed past ``KUNKEN_CONNECTIONS_PER_ADDRESS`` (5 here); another address's are."""
    port = free_port()
    env = {"KUNKEN_CONNECTIONS_PER_ADDRESS": "5", "KUNKEN_TRUSTED_PROXIES": "127.0.0.3"}
    proc = start_app_py(tmp_path / "proxy.db", port, env)
    held: list[socket.socket] = []
    try:
        _wait_for_health(port)
        for source in ("127.0.0.3", "127.0.0.4"):
            held += [
                socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) for _ in range(20)
            ]
        time.sleep(1)
        closed = {s.getsockname()[0] for s in held if _closed_by_server(s, 0.05)}
        still = [s for s in held if s.getsockname()[0] == "127.0.0.3" and not _closed_by_server(s, 0.05)]
        assert len(still) == 20, f"{20 - len(still)} of the trusted proxy's 20 connections were closed"
        assert closed == {"127.0.0.4"}, closed
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)
