"""The server stops cleanly, and half-open connections from many addresses do not shut out the next phone (issue 46).

Every test runs ``python app.py`` (waitress) as a subprocess on loopback, on a real SQLite file in ``tmp_path``;
nothing is mocked.

- SIGTERM (``systemctl stop``, ``docker stop``) and SIGINT (Ctrl-C) under 8 writers recording deals: the server exits
  0 within 10 s, the -wal is checkpointed into the file, and after a restart on the same file every deal answered
  201 is there, and no other (a request received was answered, one not received was not stored).
- With the -wal replaced while the server is idle, SIGTERM lost acknowledged deals (the audit: 2 and 6 in two runs).
- A request that cannot finish (its client reads nothing) is dropped at the stop's deadline: still exit 0 in 10 s.
- 2,100 half-open connections from 21 addresses (100 each, within the per-address cap): the health check answers
  in under 100 ms. A functional bound the issue states; on this shared 2-core machine the test takes the median of
  5 health calls (< 100 ms) and allows none over 1 s. The figures themselves: benchmarks/bench_stop.py.
"""

from __future__ import annotations

import http.client
import json
import os
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import threading
import time
from pathlib import Path

from conftest import free_port, start_app_py

PLAYERS = ["Anna", "Boris"]
DEAL = {
    "players": [
        {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [], "hand": ""},
        {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣"},
    ],
    "went_out": "Anna",
}
#: What a client gets instead of an answer: the server stopped listening (refused), or closed the connection.
NO_ANSWER = (OSError, http.client.HTTPException)


# -- a real server, and clients ---------------------------------------------------------------------


def serve(db: Path, port: int, log: Path, **env: str) -> subprocess.Popen:
    """``python app.py`` on ``db``, answering /api/v1/health when this returns; its output goes to ``log``."""
    with open(log, "ab") as out:
        proc = start_app_py(db, port, env, stdout=out, stderr=subprocess.STDOUT)
    for _ in range(300):
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            if call(port, "GET", "/api/v1/health")[0] == 200:
                return proc
        except NO_ANSWER:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not answer within 30 s")


def call(port: int, method: str, path: str, body: object = None, token: str = "", key: str = "") -> tuple[int, dict]:
    """One request on a fresh connection: (status, JSON body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Content-Type": "application/json", "Accept-Language": "en"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        reply = conn.getresponse()
        data = reply.read()
        return reply.status, json.loads(data) if data.startswith(b"{") else {}
    finally:
        conn.close()


def new_session(port: int) -> tuple[str, str]:
    status, body = call(port, "POST", "/api/v1/sessions", {"players": PLAYERS})
    assert status == 201, body
    return body["id"], body["edit_token"]


class Writer(threading.Thread):
    """A scorer's phone recording deal after deal on its own session, over one kept-alive connection, until the
    server stops answering. ``acked``: the keys answered 201 (each deal's note is its key: its mark in the file)."""

    def __init__(self, port: int, name: str) -> None:
        super().__init__(daemon=True)
        self.port, self.label = port, name
        self.sid, self.token = new_session(port)
        self.acked: list[str] = []
        self.failures: list[str] = []
        #: set to end the writing while the server still runs
        self.halt = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        for n in range(100_000):
            if self.halt.is_set():
                conn.close()
                return
            key = f"{self.label}-{n:05d}"
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"}
            try:
                conn.request(
                    "POST",
                    f"/api/v1/sessions/{self.sid}/deals",
                    body=json.dumps({**DEAL, "note": key}),
                    headers={**headers, "Idempotency-Key": key},
                )
                reply = conn.getresponse()
                reply.read()
            except NO_ANSWER:
                conn.close()
                try:  # the server closed this connection: a new one is refused once it stopped listening
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                    conn.connect()
                except OSError:
                    return
                continue
            if reply.status == 201:
                self.acked.append(key)
            else:
                self.failures.append(f"{key}: {reply.status}")


def notes_in_session(port: int, sid: str) -> list[str]:
    status, body = call(port, "GET", f"/api/v1/sessions/{sid}")
    assert status == 200, body
    return [deal["note"] for deal in body["deals"]]


def wal_size(db: Path) -> int:
    """The -wal's size; 0 when there is none."""
    try:
        return os.stat(f"{db}-wal").st_size
    except FileNotFoundError:
        return 0


def stop_and_time(proc: subprocess.Popen, signum: int) -> tuple[int, float]:
    """Send ``signum``; (the exit status, the seconds until the process ended). Past 15 s it is killed."""
    began = time.monotonic()
    proc.send_signal(signum)
    try:
        code = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the server was still running 15 s after the signal") from None
    return code, time.monotonic() - began


# -- SIGTERM and SIGINT under 8 writers --------------------------------------------------------------


def test_sigterm_under_8_writers_exits_0_within_10_s_and_keeps_every_acknowledged_deal(tmp_path):
    """The audit: SIGTERM was treated like kill -9. Now: exit 0 within 10 s, every deal answered 201 is there
    after a restart on the same file, the -wal is empty, and the log says what the stop did."""
    stops_cleanly_under_writers(tmp_path, signal.SIGTERM)


def test_sigint_under_8_writers_exits_0_within_10_s_and_keeps_every_acknowledged_deal(tmp_path):
    """Ctrl-C is the same clean stop."""
    stops_cleanly_under_writers(tmp_path, signal.SIGINT)


def stops_cleanly_under_writers(tmp_path: Path, signum: signal.Signals) -> None:
    db, port, log = tmp_path / "club.db", free_port(), tmp_path / "server.log"
    proc = serve(db, port, log)
    try:
        writers = [Writer(port, f"w{i}") for i in range(8)]
        for writer in writers:
            writer.start()
        for _ in range(200):  # mid-load: every writer has had answers, and they are all still writing
            if all(len(w.acked) >= 5 for w in writers):
                break
            time.sleep(0.05)
        code, seconds = stop_and_time(proc, signum)
        for writer in writers:
            writer.join(timeout=20)
        assert not any(w.is_alive() for w in writers), "a writer still waits for an answer after the stop"
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text(errors="replace")
    assert code == 0, f"exit status {code}:\n{text[-3000:]}"
    assert seconds <= 10, f"the server took {seconds:.1f} s to stop"
    assert all(len(w.acked) >= 5 for w in writers), [len(w.acked) for w in writers]
    assert not [f for w in writers for f in w.failures], [f for w in writers for f in w.failures][:5]
    assert f"{signum.name}: stopping" in text and "checkpointed" in text, text[-3000:]
    assert "Traceback" not in text, text[-3000:]
    assert wal_size(db) == 0, f"the -wal still holds {wal_size(db)} bytes after the stop"

    proc = serve(db, port, log)
    try:
        for writer in writers:
            found = notes_in_session(port, writer.sid)
            lost = [key for key in writer.acked if key not in found]
            assert lost == [], f"answered 201, gone after the restart: {lost}"
            # a request the server took was answered before it exited; one it did not take stored nothing
            assert found == writer.acked, f"stored without an answer: {sorted(set(found) - set(writer.acked))}"
    finally:
        proc.terminate()
        proc.wait(timeout=15)


# -- the -wal replaced while idle, then SIGTERM --------------------------------------------------------


def test_sigterm_after_the_wal_was_replaced_while_idle_loses_no_acknowledged_deal(tmp_path):
    """The audit: with the -wal file replaced (a copy put in its place) while the server was idle, stopping it
    with SIGTERM lost 2 and 6 acknowledged deals in two runs. Now each thread's connection saves what its -wal
    held into the file before it closes, and nothing acknowledged is lost."""
    db, port, log = tmp_path / "club.db", free_port(), tmp_path / "server.log"
    proc = serve(db, port, log)
    try:
        writers = [Writer(port, f"w{i}") for i in range(8)]
        for writer in writers:
            writer.start()
        time.sleep(1.0)  # every worker thread has written through its own connection
        copy = tmp_path / "club.db-wal.copy"
        shutil.copyfile(f"{db}-wal", copy)  # the -wal as it is now: the deals recorded from here on are not in it
        before = sum(len(w.acked) for w in writers)
        time.sleep(1.0)
        assert all(w.is_alive() for w in writers), "a writer stopped early"
        for writer in writers:
            writer.halt.set()
        for writer in writers:
            writer.join(timeout=20)
        assert sum(len(w.acked) for w in writers) > before, "no deal was recorded after the copy"
        time.sleep(0.3)  # the server is idle; the copy is put in place of its -wal, as a careless restore does
        os.replace(copy, f"{db}-wal")
        code, seconds = stop_and_time(proc, signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text(errors="replace")
    assert code == 0 and seconds <= 10, (code, seconds, text[-3000:])
    acked = {key for w in writers for key in w.acked}
    assert len(acked) >= 16, len(acked)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        in_file = {row[0] for row in conn.execute("SELECT note FROM deals WHERE deleted_at IS NULL")}
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()
    lost = sorted(acked - in_file)
    assert lost == [], f"{len(lost)} deals answered 201 are not in the file after the stop: {lost[:10]}"
    assert integrity == "ok"


# -- a request that cannot finish ---------------------------------------------------------------------------


def test_a_request_that_cannot_finish_is_dropped_at_the_deadline_and_the_server_still_exits_0(tmp_path):
    """A client that asks for 400 copies of a 38 KB script at once and reads none of them: its answers cannot be
    sent. The stop waits for them until its deadline (about 8 s), drops them, checkpoints, and exits 0 within
    10 s; the log says what was dropped."""
    db, port, log = tmp_path / "club.db", free_port(), tmp_path / "server.log"
    proc = serve(db, port, log)
    try:
        sid, token = new_session(port)
        assert call(port, "POST", f"/api/v1/sessions/{sid}/deals", {**DEAL, "note": "k"}, token, "k")[0] == 201
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)  # fills soon, and is never read
        stuck.connect(("127.0.0.1", port))
        stuck.sendall(b"GET /static/entry.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 400)
        time.sleep(1.5)
        code, seconds = stop_and_time(proc, signal.SIGTERM)
        stuck.close()
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text(errors="replace")
    assert code == 0, f"exit status {code}:\n{text[-3000:]}"
    assert 7 <= seconds <= 10, f"stopped after {seconds:.1f} s:\n{text[-3000:]}"
    assert "at the stop's deadline: dropped" in text and "checkpointed" in text, text[-3000:]
    assert wal_size(db) == 0


# -- 2,100 half-open connections from 21 addresses ----------------------------------------------------------


def test_2100_half_open_connections_from_21_addresses_leave_the_health_check_under_100_ms(tmp_path):
    """The audit: 2,100 half-open connections from 21 addresses (100 each, under the per-address cap) pushed the
    health check past 10 s for 30 s: they filled the server's 2,000 connections. Now at most half of them may be
    half-open (``KUNKEN_HALF_OPEN``, default half of ``KUNKEN_CONNECTIONS``); one more closes the oldest. The health
    check on a fresh connection: median of 5 under 100 ms, none over 1 s (a shared 2-core machine)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2100 + 512
    if soft != resource.RLIM_INFINITY and soft < wanted:
        assert hard == resource.RLIM_INFINITY or hard >= wanted, (
            f"this test needs {wanted} open files; the hard limit is {hard} (raise it: ulimit -Hn)"
        )
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    db, port, log = tmp_path / "club.db", free_port(), tmp_path / "server.log"
    proc = serve(db, port, log)
    flood: list[socket.socket] = []
    try:
        for n in range(2100):
            s = socket.socket()
            s.bind((f"127.0.0.{2 + n % 21}", 0))  # 21 addresses of this machine (all of 127/8 is loopback)
            s.settimeout(10)
            s.connect(("127.0.0.1", port))
            if n % 2:  # half of them send the start of a request, the others nothing at all
                s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            flood.append(s)
        closed = wait_for_closed(flood, at_least=1000, within=30)
        assert 1000 <= len(closed) <= 1150, f"{len(closed)} of 2,100 half-open connections were closed"
        assert all(s in closed for s in flood[:500]), "the oldest half-open connections were not the ones closed"
        times = []
        for _ in range(5):
            began = time.monotonic()
            status, body = call(port, "GET", "/api/v1/health")
            times.append(time.monotonic() - began)
            assert status == 200, body
        assert statistics.median(times) < 0.1 and max(times) < 1, [f"{t * 1000:.0f} ms" for t in times]
    finally:
        for s in flood:
            s.close()
        proc.terminate()
        proc.wait(timeout=15)
    assert "the oldest of them are closed (" in log.read_text(errors="replace")


def wait_for_closed(sockets: list[socket.socket], at_least: int, within: float) -> set[socket.socket]:
    """The sockets the server closed, waiting up to ``within`` seconds for ``at_least`` of them (then half a second
    more for any it closes meanwhile)."""
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + within
    settled = None
    while time.monotonic() < deadline and (settled is None or time.monotonic() < settled):
        closed.update(s for s in sockets if s not in closed and closed_by_server(s))
        if settled is None and len(closed) >= at_least:
            settled = time.monotonic() + 0.5
        time.sleep(0.1)
    return closed


def closed_by_server(s: socket.socket) -> bool:
    """True when the server has closed ``s`` (read without waiting)."""
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
