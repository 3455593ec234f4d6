"""Stop benchmark: SIGTERM under 8 writers, run after run; and the health check under 2,100 half-open connections.

1. ``--runs`` times (default 10): ``app.py`` on a fresh SQLite file, 8 threads recording deals through the API (each
   on its own session, one kept-alive connection each), SIGTERM once every writer has had 5 answers; then the
   server is started again on the same file and each session's deals are read. Per run: the seconds from the
   signal to the exit, the exit status, the -wal's size after the stop, the deals answered 201 and those found
   (lost: answered, not found; extra: found, never answered). Goal (issue 46): exit 0 within 10 s, none lost.
2. The health check (``GET /api/v1/health``, a fresh connection each, 200 calls): median and p99 with no other
   connection, then with 2,100 half-open connections from 21 addresses (127.0.0.2 … 127.0.0.22, 100 each: within
   the per-address cap) held open, and the ratio. Goal: under 100 ms.

Progress goes to stderr, the figures to stdout. Run: ``.venv/bin/python benchmarks/bench_stop.py [--runs N]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Anna", "Boris"]
DEAL = {
    "players": [
        {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [], "hand": ""},
        {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣"},
    ],
    "went_out": "Anna",
}
NO_ANSWER = (OSError, http.client.HTTPException)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path, port: int, out: Path) -> subprocess.Popen[bytes]:
    """``app.py`` on ``db``, answering when this returns."""
    env = {
        **os.environ,
        "KUNKEN_DATABASE": str(db),
        "KUNKEN_SECRET_KEY": "b" * 40,
        "KUNKEN_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    with open(out, "ab") as sink:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}:\n{out.read_text(errors='replace')[-2000:]}")
        try:
            if call(port, "GET", "/api/v1/health")[0] == 200:
                return proc
        except NO_ANSWER:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


def call(port: int, method: str, path: str, body: object = None) -> tuple[int, dict[str, object]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, None if body is None else json.dumps(body), {"Content-Type": "application/json"})
        reply = conn.getresponse()
        data = reply.read()
        return reply.status, json.loads(data) if data.startswith(b"{") else {}
    finally:
        conn.close()


class Writer(threading.Thread):
    """Records deals on its own session over one kept-alive connection until the server stops answering."""

    def __init__(self, port: int, label: str) -> None:
        super().__init__(daemon=True)
        self.port, self.label = port, label
        status, body = call(port, "POST", "/api/v1/sessions", {"players": PLAYERS})
        assert status == 201, body
        self.sid, self.token = str(body["id"]), str(body["edit_token"])
        self.acked: list[str] = []

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        for n in range(1_000_000):
            key = f"{self.label}-{n}"
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"}
            try:
                conn.request(
                    "POST",
                    f"/api/v1/sessions/{self.sid}/deals",
                    json.dumps({**DEAL, "note": key}),
                    {**headers, "Idempotency-Key": key},
                )
                reply = conn.getresponse()
                reply.read()
            except NO_ANSWER:
                conn.close()
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                    conn.connect()
                except OSError:
                    return  # refused: the server stopped listening
                continue
            if reply.status == 201:
                self.acked.append(key)


def one_stop(tmp: Path, run: int) -> dict[str, float]:
    db, port, out = tmp / f"stop-{run}.db", free_port(), tmp / f"stop-{run}.log"
    proc = start(db, port, out)
    writers = [Writer(port, f"w{i}") for i in range(8)]
    for writer in writers:
        writer.start()
    while not all(len(w.acked) >= 5 for w in writers):
        time.sleep(0.02)
    began = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    seconds = time.monotonic() - began
    for writer in writers:
        writer.join(timeout=30)
    wal = os.stat(f"{db}-wal").st_size if os.path.exists(f"{db}-wal") else 0
    proc = start(db, port, out)
    try:
        acked = found = lost = extra = 0
        for writer in writers:
            status, body = call(port, "GET", f"/api/v1/sessions/{writer.sid}")
            assert status == 200, body
            notes = [str(d["note"]) for d in body["deals"]]  # type: ignore[attr-defined]
            acked += len(writer.acked)
            found += len(notes)
            lost += len(set(writer.acked) - set(notes))
            extra += len(set(notes) - set(writer.acked))
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    return {"seconds": seconds, "code": code, "wal": wal, "acked": acked, "found": found, "lost": lost, "extra": extra}


def health_times(port: int, count: int) -> list[float]:
    times = []
    for _ in range(count):
        began = time.perf_counter()
        status, _ = call(port, "GET", "/api/v1/health")
        times.append(time.perf_counter() - began)
        assert status == 200
    return times


def half_open(tmp: Path, calls: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard) if hard != resource.RLIM_INFINITY else 4096, hard))
    db, port, out = tmp / "flood.db", free_port(), tmp / "flood.log"
    proc = start(db, port, out)
    flood: list[socket.socket] = []
    try:
        health_times(port, 20)  # warm
        quiet = health_times(port, calls)
        log("half-open: opening 2,100 connections from 21 addresses")
        for n in range(2100):
            s = socket.socket()
            s.bind((f"127.0.0.{2 + n % 21}", 0))
            s.settimeout(10)
            s.connect(("127.0.0.1", port))
            if n % 2:
                s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            flood.append(s)
        time.sleep(2)  # the server accepts them all, closing the oldest past its cap
        flooded = health_times(port, calls)
        open_now = 0
        for s in flood:
            s.setblocking(False)
            try:
                open_now += s.recv(1) != b""
            except BlockingIOError:
                open_now += 1
            except OSError:
                pass
    finally:
        for s in flood:
            s.close()
        proc.terminate()
        proc.wait(timeout=15)
    print()
    print(f"health check, {calls} calls on fresh connections | median | p99 | goal")
    for label, times in (("no other connection", quiet), ("2,100 half-open from 21 addresses", flooded)):
        p99 = sorted(times)[max(0, int(len(times) * 0.99) - 1)]
        print(f"{label} | {statistics.median(times) * 1000:.2f} ms | {p99 * 1000:.2f} ms | < 100 ms")
    print(f"ratio of the medians | {statistics.median(flooded) / statistics.median(quiet):.2f}x | | —")
    print(f"half-open connections the server kept open of 2,100 | {open_now} | | ≤ half of KUNKEN_CONNECTIONS")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="SIGTERM runs under 8 writers (default 10)")
    parser.add_argument("--calls", type=int, default=200, help="health calls in each half-open row (default 200)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kunken-bench-stop-"))
    try:
        print("run | stop (s) | exit | -wal after (bytes) | answered 201 | found after restart | lost | extra")
        rows = []
        for run in range(1, args.runs + 1):
            log(f"stop: run {run} of {args.runs}")
            row = one_stop(tmp, run)
            rows.append(row)
            print(
                f"{run} | {row['seconds']:.2f} | {row['code']} | {row['wal']} | {row['acked']} | {row['found']} | "
                f"{row['lost']} | {row['extra']}",
                flush=True,
            )
        worst = max(r["seconds"] for r in rows)
        print(
            f"total | max {worst:.2f}, median {statistics.median(r['seconds'] for r in rows):.2f} | "
            f"{sum(r['code'] != 0 for r in rows)} not 0 | {sum(r['wal'] != 0 for r in rows)} not empty | "
            f"{sum(r['acked'] for r in rows)} | {sum(r['found'] for r in rows)} | {sum(r['lost'] for r in rows)} | "
            f"{sum(r['extra'] for r in rows)}"
        )
        print("goal: every exit 0 within 10 s, 0 lost")
        half_open(tmp, args.calls)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
