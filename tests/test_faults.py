"""Storage faults on a real server: kill -9 under load, a read-only, full, deleted or bad database, a backup.

Every test runs ``python app.py`` (waitress) as a subprocess on loopback, on a real SQLite file in
``tmp_path``; nothing is mocked. What is checked is the promise the app makes to the table:
a deal answered 201 is stored exactly once, a deal answered otherwise is not stored, a retry with
the same Idempotency-Key stores nothing twice, and a file the server cannot use answers 503 (with
``Retry-After``) instead of a 500, a traceback or a silently re-created empty database.

Each deal's note is its Idempotency-Key (or starts with it): that is the marker counted in the file.
Nothing here measures time; loops that wait for something have a generous bound so a broken server
fails the test instead of hanging it.
"""

from __future__ import annotations

import http.client
import http.cookies
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

import pytest
from conftest import CSRF, rule_fields

from kunken_scorer import RuleSet
from kunken_scorer.store import Store

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Anna", "Boris"]
DEAL = {
    "players": [
        {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [], "hand": ""},
        {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣"},
    ],
    "went_out": "Anna",
}


# -- a real server and a plain HTTP client ---------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Reply:
    """One HTTP answer, read in full."""

    def __init__(self, status: int, headers, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"<{self.status} {self.body[:300]!r}>"


#: What a client gets instead of an answer: the server is not there (refused), or died mid-answer
#: (reset, closed before the status line, or with part of the body unsent).
NO_ANSWER = (OSError, http.client.HTTPException)


def _call(
    port: int,
    method: str,
    path: str,
    body=None,
    *,
    token: str | None = None,
    key: str | None = None,
    form: dict | None = None,
    cookie: str | None = None,
) -> Reply:
    """One request on a fresh connection; one of ``NO_ANSWER`` when no whole answer arrives."""
    headers = {"Accept-Language": "en"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if form is not None:
        data = urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    if cookie:
        headers["Cookie"] = cookie
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return Reply(response.status, response.headers, response.read())
    finally:
        conn.close()


def _env(db: Path, port: int, **extra: str) -> dict:
    return {
        **os.environ,
        "KUNKEN_DATABASE": str(db),
        "KUNKEN_SECRET_KEY": "k" * 40,
        "KUNKEN_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "KUNKEN_CREATE_LIMIT": "0",
        **extra,
    }


def _serve(db: Path, port: int, log: Path, *, prefix: tuple = (), **extra: str) -> subprocess.Popen:
    """Start ``python app.py`` on ``db`` and wait until /api/v1/health answers (its output goes to ``log``)."""
    with open(log, "ab") as out:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [*prefix, sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=_env(db, port, **extra),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    for _ in range(600):
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            if _call(port, "GET", "/api/v1/health").status == 200:
                return proc
        except NO_ANSWER:
            pass
        time.sleep(0.05)
    _stop(proc, kill=True)
    raise AssertionError(f"the server did not answer:\n{log.read_text(errors='replace')}")


def _stop(proc: subprocess.Popen | None, *, kill: bool = False) -> None:
    """SIGKILL (``kill``) or SIGTERM the server and reap it."""
    if proc is None:
        return
    if proc.poll() is None:
        proc.kill() if kill else proc.terminate()
    proc.wait(timeout=30)


def _new_session(port: int) -> tuple[str, str]:
    reply = _call(port, "POST", "/api/v1/sessions", {"players": PLAYERS})
    assert reply.status == 201, reply
    return reply.json()["id"], reply.json()["edit_token"]


def _record(port: int, sid: str, token: str, key: str, note: str | None = None) -> Reply:
    return _call(port, "POST", f"/api/v1/sessions/{sid}/deals", {**DEAL, "note": note or key}, token=token, key=key)


def _notes_in_file(db: Path) -> list[str]:
    """The notes of the live deals in the file, in recorded order (read with sqlite3, not the app)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT note FROM deals WHERE deleted_at IS NULL ORDER BY seq")]
    finally:
        conn.close()


def _integrity(db: Path) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def _notes_in_session(port: int, sid: str) -> list[str]:
    reply = _call(port, "GET", f"/api/v1/sessions/{sid}")
    assert reply.status == 200, reply
    return [deal["note"] for deal in reply.json()["deals"]]


def _assert_503(reply: Reply, word: str) -> None:
    """A storage fault on the API: 503, JSON ``{"error": ...}`` naming the fault, and Retry-After."""
    assert reply.status == 503, reply
    assert reply.headers.get_content_type() == "application/json", reply.headers
    assert word in reply.json()["error"], reply
    assert "Nothing was saved" in reply.json()["error"], reply
    assert reply.headers.get("Retry-After", "").isdigit(), reply.headers


def _assert_503_any(reply: Reply, word: str) -> None:
    """A storage fault on the API, whatever its words say of the request (a read's, a write's): 503, JSON
    ``{"error": ...}`` naming the fault, and Retry-After."""
    assert reply.status == 503, reply
    assert reply.headers.get_content_type() == "application/json", reply.headers
    assert word in reply.json()["error"], reply
    assert reply.headers.get("Retry-After", "").isdigit(), reply.headers


def _wait_for(condition, what: str, rounds: int = 3000) -> None:
    """Poll ``condition`` (bounded, so a broken server fails instead of hanging)."""
    for _ in range(rounds):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


class Writers:
    """Client threads recording deals with unique Idempotency-Keys (the note is the key).

    A request whose answer did not arrive (connection refused, reset, closed mid-answer) is sent
    again with the same key until an answer comes, as a phone does; every key gets exactly one
    final answer. ``acked`` maps each key answered 201 to the moment (monotonic) the answer arrived.
    """

    def __init__(self, port: int, sid: str, token: str, count: int) -> None:
        self.port, self.sid, self.token = port, sid, token
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.abandon = threading.Event()
        self.sent: set[str] = set()
        self.acked: dict[str, float] = {}
        self.retried: set[str] = set()
        self.refused: list[tuple[str, Reply]] = []
        self.errors: list[str] = []
        self.failures = [0] * count  # connection failures seen by each writer
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(count)]

    def __enter__(self) -> Writers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is not None:
            self.abandon.set()  # the test failed already: no more waiting for a server
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=120)
        assert not any(t.is_alive() for t in self.threads), "a writer never got an answer"

    def _run(self, index: int) -> None:
        try:
            n = 0
            while not self.stop.is_set():
                n += 1
                key = f"w{index}-{n:05d}"
                with self.lock:
                    self.sent.add(key)
                for _attempt in range(3000):  # the same key until an answer arrives
                    if self.abandon.is_set():
                        return
                    try:
                        reply = _record(self.port, self.sid, self.token, key)
                        break
                    except NO_ANSWER:
                        with self.lock:
                            self.failures[index] += 1
                            self.retried.add(key)
                        time.sleep(0.02)
                else:
                    self.errors.append(f"{key}: no answer at all")
                    return
                with self.lock:
                    if reply.status == 201:
                        self.acked[key] = time.monotonic()
                    else:
                        self.refused.append((key, reply))
        except BaseException as err:  # noqa: BLE001 - reported by the test, never lost in a thread
            self.errors.append(repr(err))

    def count(self) -> int:
        with self.lock:
            return len(self.acked)


# -- 1. kill -9 under write load ---------------------------------------------------------------


def test_kill_9_under_write_load_loses_no_acknowledged_deal_and_stores_none_twice(tmp_path):
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        with Writers(port, sid, token, 4) as writers:
            for _round in range(3):
                target = writers.count() + 25
                _wait_for(
                    lambda target=target: writers.count() >= target or writers.errors, "25 more deals acknowledged"
                )
                with writers.lock:
                    before = list(writers.failures)
                _stop(server, kill=True)  # SIGKILL: no clean shutdown, requests in flight are cut
                server = None
                # every writer has had a request go unanswered before the server comes back
                _wait_for(
                    lambda before=before: (
                        all(now > then for now, then in zip(writers.failures, before, strict=False)) or writers.errors
                    ),
                    "every writer saw the server gone",
                )
                server = _serve(db, port, log)
            target = writers.count() + 25
            _wait_for(lambda: writers.count() >= target or writers.errors, "deals acknowledged after the restarts")
        assert writers.errors == [] and writers.refused == [], (writers.errors, writers.refused)
        assert len(writers.retried) >= 4  # each writer sent a key again after a kill (waited for above)

        # a retried key stores nothing twice even now: the first answer comes back
        again = _record(port, sid, token, sorted(writers.retried)[0])
        assert again.status == 201, again
        in_session = Counter(_notes_in_session(port, sid))
    finally:
        _stop(server)

    in_file = Counter(_notes_in_file(db))
    assert in_file == in_session
    twice = {note: n for note, n in in_file.items() if n > 1}
    assert twice == {}, f"stored more than once: {twice}"
    missing = set(writers.acked) - set(in_file)
    assert missing == set(), f"acknowledged (201) but not stored: {sorted(missing)}"
    assert set(in_file) <= writers.sent, f"stored but never sent: {sorted(set(in_file) - writers.sent)}"
    assert set(in_file) == writers.sent == set(writers.acked)  # every key was answered 201 in the end
    assert _integrity(db) == "ok"


# -- 2. a read-only database ---------------------------------------------------------------------


def _without_root_override(tmp_path: Path) -> tuple:
    """A command prefix under which a mode-0444 file is read-only for the server, as for any user.

    root ignores file modes (CAP_DAC_OVERRIDE); the server is started without that capability
    (``setpriv`` drops it from the bounding set, so the server's python never gets it). A non-root
    user needs no prefix. Fails (never skips) when neither works here.
    """
    prefix: tuple = ()
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.fail(
                "running as root without setpriv (util-linux): cannot make a file read-only for the "
                "server, so the read-only test cannot run here"
            )
        prefix = (setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner,-linux_immutable", "--")
    probe = tmp_path / "probe"
    probe.write_text("")
    probe.chmod(0o444)
    result = subprocess.run(
        [*prefix, sys.executable, "-c", "import sys; open(sys.argv[1], 'a')", str(probe)],
        capture_output=True,
        text=True,
    )
    probe.chmod(0o644)
    if result.returncode == 0 or "PermissionError" not in result.stderr:
        pytest.fail(
            f"a mode-0444 file stays writable for the server here ({' '.join(prefix) or 'no prefix'}): "
            f"cannot test a read-only database. {result.stderr.strip()}"
        )
    return prefix


def _chmod_database(db: Path, mode: int) -> None:
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        if path.exists():
            path.chmod(mode)


@pytest.mark.parametrize("when", ["while-serving", "at-start"])
def test_a_read_only_database_answers_503_reads_still_work_and_nothing_is_acknowledged(tmp_path, when):
    prefix = _without_root_override(tmp_path)
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log, prefix=prefix)
    try:
        sid, token = _new_session(port)
        assert _record(port, sid, token, "first").status == 201
        if when == "at-start":  # the server starts on a file it cannot write (fully migrated already)
            _stop(server)
            _chmod_database(db, 0o444)
            server = _serve(db, port, log, prefix=prefix)
        else:  # the file turns read-only under a running server
            _chmod_database(db, 0o444)

        refused = _record(port, sid, token, "second")
        _assert_503(refused, "read-only")
        _assert_503(_call(port, "POST", "/api/v1/sessions", {"players": PLAYERS}), "read-only")
        assert _notes_in_session(port, sid) == ["first"]  # reads go on; the refused deal is not there
        page = _call(port, "GET", f"/s/{sid}")
        assert page.status == 200 and b"Anna" in page.body
        # a backup only reads: it works on the read-only file (run as the server's user)
        copy = tmp_path / "copy.db"
        backup = subprocess.run(
            [*prefix, sys.executable, str(ROOT / "app.py"), "backup", str(copy)],
            cwd=ROOT,
            env=_env(db, port),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert backup.returncode == 0 and "integrity ok" in backup.stdout, backup
        assert _notes_in_file(copy) == ["first"]

        # writable again (the file and the -wal/-shm beside it): the same key stores the deal, once
        _chmod_database(db, 0o644)
        again = _record(port, sid, token, "second")
        assert again.status == 201, f"still refused after the files were made writable again (no restart): {again}"
        assert _record(port, sid, token, "second").status == 201
        assert _notes_in_session(port, sid) == ["first", "second"]
    finally:
        _chmod_database(db, 0o644)
        _stop(server)
    assert _integrity(db) == "ok"


# -- 3. a full database --------------------------------------------------------------------------

MELDS = ["A♠ A♥ A♦", "2♥ 3♥ 4♥", "5♣ 6♣ 7♣", "8♦ 9♦ 10♦", "J♠ Q♠ K♠"]
HANDS = ["", "K♣", "Q♦", "9♣", "3♠"]
#: Table shapes the cap falls on differently: the players' names (their count and length set the size
#: of each deal's record and of its saved answer) and each deal's note after its key ("" for none).
SHAPES = {
    "2-players-ascii-notes": (PLAYERS, "x"),
    "2-players-emoji-notes": (PLAYERS, "😀"),
    "5-players-emoji-names-10-no-notes": ([c + "😀" * 10 for c in "ABCDE"], ""),
    "5-players-emoji-names-20-emoji-notes": ([c + "😀" * 20 for c in "ABCDE"], "😀"),
    "5-players-emoji-names-40-ascii-notes": ([c + "😀" * 39 for c in "ABCDE"], "x"),
    "5-players-emoji-names-40-emoji-notes": ([c + "😀" * 39 for c in "ABCDE"], "😀"),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_full_database_answers_503_and_every_acknowledged_deal_and_no_refused_one_is_stored(tmp_path, shape):
    """Deals are recorded until the 1 MB cap refuses one. A deal takes more than one write (the deal,
    then the answer kept for its Idempotency-Key), and the refusal can fall on any of them; the shapes
    move where it falls. Whichever it is, a 503 must mean the deal is not stored."""
    names, filler = SHAPES[shape]
    deal = {
        "players": [{"name": name, "melds": [MELDS[i]], "vists": [], "hand": HANDS[i]} for i, name in enumerate(names)],
        "went_out": names[0],
    }
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log, KUNKEN_DATABASE_MAX_MB="1")
    try:
        assert db.stat().st_size < 1024 * 1024 // 2  # a fresh file is far below the 1 MB cap
        created = _call(port, "POST", "/api/v1/sessions", {"players": names})
        assert created.status == 201, created
        sid, token = created.json()["id"], created.json()["edit_token"]

        def record(key: str) -> Reply:
            note = (key + " " + filler * 1000)[:1000] if filler else key
            return _call(port, "POST", f"/api/v1/sessions/{sid}/deals", {**deal, "note": note}, token=token, key=key)

        acked: list[str] = []
        for n in range(1, 5001):
            key = f"deal-{n:05d}"
            reply = record(key)
            if reply.status != 201:
                break
            acked.append(key)
        else:
            raise AssertionError("5000 deals and the 1 MB database never filled up")
        _assert_503(reply, "full")
        assert len(acked) > 20
        _assert_503(record(key), "full")  # the retry with the same key is refused the same way

        stored = [note.split(" ")[0] for note in _notes_in_session(port, sid)]  # reads still answer
        assert key not in stored, (
            f"deal {key} was answered 503 “Nothing was saved by this request”, "
            f"yet it is stored (deal {stored.index(key) + 1} of {len(stored)})"
        )
        assert stored == acked
        assert _call(port, "GET", "/api/v1/health").status == 200
    finally:
        _stop(server)
    assert _integrity(db) == "ok"


# -- 4. a deleted database file ------------------------------------------------------------------


def _cookie(reply: Reply, jar: dict) -> str:
    for header in reply.headers.get_all("Set-Cookie") or []:
        for name, morsel in http.cookies.SimpleCookie(header).items():
            jar[name] = morsel.value
    return "; ".join(f"{name}={value}" for name, value in jar.items())


def test_a_deleted_database_answers_503_is_not_recreated_and_a_restart_starts_afresh(tmp_path):
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        assert _record(port, sid, token, "first").status == 201
        jar: dict = {}
        home = _call(port, "GET", "/", cookie="lang=en")
        cookie = _cookie(home, jar)  # the page session holding the form's CSRF token
        form = {
            "csrf_token": CSRF.search(home.body.decode())[1],
            "game": "kunken",
            "defaults_for": "kunken",
            "create": "Start",
            "target_kind": "",
            "target_value": "",
            "players-0": "Vera",
            "players-1": "Gleb",
            **rule_fields(),
        }

        for path in files:
            path.unlink(missing_ok=True)
        _assert_503(_record(port, sid, token, "second"), "missing")
        _assert_503(_call(port, "POST", "/api/v1/sessions", {"players": PLAYERS}), "missing")
        _assert_503_any(_call(port, "GET", f"/api/v1/sessions/{sid}"), "missing")  # a read: see the test below
        for method, path, data in (("GET", f"/s/{sid}", None), ("POST", "/sessions", form)):
            page = _call(port, method, path, form=data, cookie=f"lang=en; {cookie}")
            assert page.status == 503, (method, path, page)
            assert page.headers.get_content_type() == "text/html" and b"<html" in page.body.lower()
            assert b"missing" in page.body and page.headers.get("Retry-After", "").isdigit()
        assert [p.name for p in files if p.exists()] == []  # no request re-created the file
    finally:
        _stop(server)
    assert not db.exists()

    server = _serve(db, port, log)  # a start creates a fresh, migrated database
    try:
        assert _call(port, "GET", f"/api/v1/sessions/{sid}").status == 404
        fresh, fresh_token = _new_session(port)
        assert _record(port, fresh, fresh_token, "anew").status == 201
        assert _notes_in_session(port, fresh) == ["anew"]
    finally:
        _stop(server)


def test_a_read_on_a_missing_database_says_nothing_could_be_read_not_that_nothing_was_saved(tmp_path):
    """A GET on a missing database was told “Nothing was saved by this request”: a read saves nothing anyway. It
    is told that nothing could be read; a write is still told that nothing was saved."""
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            path.unlink(missing_ok=True)
        read = _call(port, "GET", f"/api/v1/sessions/{sid}")
        _assert_503_any(read, "missing")
        assert "Nothing was saved" not in read.json()["error"] and "read" in read.json()["error"], read
        page = _call(port, "GET", f"/s/{sid}", cookie="lang=en")
        assert page.status == 503 and b"Nothing was saved" not in page.body and b"read" in page.body, page
        _assert_503(_record(port, sid, token, "second"), "missing")  # a write: nothing was saved
    finally:
        _stop(server)


# -- 5. a bad database path at start ---------------------------------------------------------------


@pytest.mark.parametrize("where", ["proc", "directory"])
def test_a_bad_database_path_stops_the_start_with_one_line_and_status_2(tmp_path, where):
    path = Path("/proc/nope/x.db") if where == "proc" else tmp_path
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=_env(path, port),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"app.py started serving on the bad database path {path}") from None
    assert proc.returncode == 2, (proc.returncode, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kunken-scorer:") and lines[0].strip() != "kunken-scorer:", err
    assert str(path) in lines[0]
    assert not Path("/proc/nope").exists()


# -- 6. a backup while the server writes -------------------------------------------------------------


def test_a_backup_during_write_load_holds_every_deal_acknowledged_before_it_started(tmp_path):
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    backup = tmp_path / "copies" / "backup.db"
    backup.parent.mkdir()
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        with Writers(port, sid, token, 3) as writers:
            _wait_for(lambda: writers.count() >= 40 or writers.errors, "40 deals acknowledged")
            started = time.monotonic()
            result = subprocess.run(
                [sys.executable, str(ROOT / "app.py"), "backup", str(backup)],
                cwd=ROOT,
                env=_env(db, port),
                capture_output=True,
                text=True,
                timeout=120,
            )
            target = writers.count() + 20
            _wait_for(lambda: writers.count() >= target or writers.errors, "deals acknowledged after the backup")
        assert writers.errors == [] and writers.refused == [], (writers.errors, writers.refused)
    finally:
        _stop(server)

    assert result.returncode == 0, result
    assert "Traceback" not in result.stderr
    printed = re.fullmatch(r"Backed up (.+) to (.+): (\d+) sessions, (\d+) deals, integrity ok\n", result.stdout)
    assert printed, result.stdout
    assert int(printed[3]) == 1
    assert [p.name for p in backup.parent.iterdir()] == ["backup.db"]  # no .partial left behind

    assert _integrity(backup) == "ok"
    in_backup = Counter(_notes_in_file(backup))
    assert int(printed[4]) == sum(in_backup.values())
    assert {note: n for note, n in in_backup.items() if n > 1} == {}
    before = {key for key, at in writers.acked.items() if at < started}
    assert len(before) >= 40
    lost = before - set(in_backup)
    assert lost == set(), f"acknowledged before the backup began, not in it: {sorted(lost)}"
    assert set(in_backup) <= writers.sent
    assert set(_notes_in_file(db)) == writers.sent == set(writers.acked)  # the live file has everything
    assert _integrity(db) == "ok"


def test_the_readme_backup_command_works_on_a_fresh_clone_and_a_bad_target_is_one_line(tmp_path):
    """README: ``app.py backup backups/kunken-<date>.db`` — the backups/ folder is made when missing
    (it was an SQLite traceback); a target that cannot be written is one line naming the cause."""
    db = tmp_path / "kunken.db"
    store = Store.open(str(db))
    store.create_session("kunken", RuleSet.preset().to_dict(), ["Anna", "Boris"], None)
    store.close()

    def run(target: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(ROOT / "app.py"), "backup", target],
            cwd=tmp_path,
            env=_env(db, 1),
            capture_output=True,
            text=True,
            timeout=120,
        )

    made = run("backups/kunken-today.db")
    assert made.returncode == 0 and "1 sessions" in made.stdout and "integrity ok" in made.stdout, made
    assert (tmp_path / "backups" / "kunken-today.db").exists()
    (tmp_path / "a-file").write_text("not a folder")
    refused = run("a-file/kunken.db")
    assert refused.returncode == 1 and refused.stderr.startswith("kunken-scorer: backup failed:"), refused
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    # the database's write-ahead log is the database too: writing a copy over it would lose recorded deals
    for own in ("kunken.db", "kunken.db-wal", "kunken.db-shm"):
        onto = run(own)
        assert onto.returncode == 2 and "another file than the database" in onto.stderr, (own, onto)
