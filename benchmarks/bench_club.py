"""Club-night benchmark: many phones polling, stalled connections, a big database, concurrent writers.

Starts the real app (``app.py`` under waitress, the app's own server settings) on 127.0.0.1 with
fresh SQLite files and prints one table, each line ``what | figure | goal``:

1. 200 phones polling ``GET /s/<id>/live`` every 1.5-3 s with ``If-None-Match`` (``wrk``): p99
   latency, requests/s, errors.
2. The same with 1,000 phones.
3. 200 connections that send half a request and stall: how long one normal request then waits.
4. Request cost relative to ``GET /api/v1/health``, one keep-alive client sending requests back to
   back (as ``bench_web.py``): live poll answering 304, scoring a 5-player deal, the 100-deal session
   page as a viewer, the home page, ``/players``.
5. Size flatness: ``/players`` and the session page with 10 sessions in the file vs ``--sessions``
   (100,000) sessions, both served side by side by freshly started servers.
   Crowd: ``/players`` with 1,000 different players in the file vs 50 (200 sessions each), and
   ``/players?all=1`` (every player listed).
6. 8 concurrent writers recording deals on one session that already has 900 deals: p95 latency.
7. First contentful paint of the 100-deal session page on a Pixel 7 (CPU throttled 4x) vs a bare
   Flask page of the same byte size served the same way.
8. The session page with everything it loads: gzip bytes, requests to other hosts.

No figure is checked against its goal here: this script measures, it does not pass or fail.

Run: ``.venv/bin/python benchmarks/bench_club.py [--quick] [--only polling,idle,ratios,size,crowd,writers,paint,weight]
[--sessions 100000]``. Progress goes to stderr, the table to stdout. Needs ``/usr/bin/wrk`` (parts 1-2) and
``/usr/bin/chromium`` with the Python ``playwright`` package (part 7).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import re
import resource
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.bench_core import DEAL  # noqa: E402
from benchmarks.bench_web import PLAYERS, Assets, call, free_port, random_deals  # noqa: E402
from kunken_scorer.core.reading import Deal  # noqa: E402
from kunken_scorer.core.rules import RuleSet  # noqa: E402
from kunken_scorer.store import Store  # noqa: E402

PARTS = ("polling", "idle", "ratios", "size", "crowd", "writers", "paint", "weight")
WRK = "/usr/bin/wrk"
CHROMIUM = "/usr/bin/chromium"
SECRET = "bench" * 8  # 40 characters
RULES = RuleSet.preset("kunken").to_dict()
RECORD = Deal.from_dict(DEAL).to_dict()  # the deal as the store keeps it (its canonical record)
#: Names of the regulars of a club: every filled session seats 5 of them, so /players has ~40 rows.
POOL = [
    "Anna",
    "Boris",
    "Vera",
    "Gleb",
    "Dina",
    "Egor",
    "Zhenya",
    "Ivan",
    "Katya",
    "Lev",
    "Masha",
    "Nikita",
    "Olga",
    "Pavel",
    "Rita",
    "Sergei",
    "Tanya",
    "Ulyana",
    "Fedor",
    "Khristina",
    "Tsvetana",
    "Chingiz",
    "Shura",
    "Yulia",
    "Yakov",
    "Alice",
    "Bob",
    "Carol",
    "Dave",
    "Erin",
    "Frank",
    "Grace",
    "Heidi",
    "Ivy",
    "Judy",
    "Mallory",
    "Niaj",
    "Oscar",
    "Peggy",
    "Trent",
]
T0 = time.perf_counter()


def log(message: str) -> None:
    """One progress line on stderr, with the seconds since the start."""
    print(f"[{time.perf_counter() - T0:7.1f}s] {message}", file=sys.stderr, flush=True)


def ms(value: float) -> str:
    """Milliseconds, with sensible precision."""
    return f"{value:.2f} ms" if value < 10 else f"{value:,.0f} ms"


def header(headers: dict, name: str) -> str:
    """A response header by its name in any case ('' when missing)."""
    return next((v for k, v in headers.items() if k.lower() == name.lower()), "")


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, nearest-rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


# -- servers and data ---------------------------------------------------------------------------


class Server:
    """``app.py`` (of the tree ``root``) under waitress on a free loopback port, with the database ``db``; its output
    goes to a log."""

    def __init__(
        self, db: Path, name: str, threads: int | None = None, start_timeout: float = 60, root: Path = ROOT
    ) -> None:
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = db.parent / f"server-{name}-{self.port}.log"
        env = {
            **os.environ,
            "KUNKEN_DATABASE": str(db),
            "KUNKEN_SECRET_KEY": SECRET,
            "KUNKEN_PUBLIC_URL": self.base,
            "KUNKEN_CREATE_LIMIT": "0",
            "KUNKEN_CONNECTIONS_PER_ADDRESS": "0",  # every simulated phone comes from 127.0.0.1
        }
        command = [sys.executable, str(root / "app.py"), "--host", "127.0.0.1", "--port", str(self.port)]
        if threads:
            command += ["--threads", str(threads)]
        with open(self.log_path, "wb") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        started = time.monotonic()
        deadline = started + start_timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server {name} exited at start: {self.log_path.read_text()[-2000:]}")
            try:
                if call(self.base + "/api/v1/health")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"server {name} did not answer within {start_timeout:.0f} s")
            time.sleep(0.1)
        self.start_seconds = time.monotonic() - started  # the app works out stale statistics at start-up

    def stop(self) -> list[str]:
        """Stop the server; the suspicious lines of its log (tracebacks, errors, warnings)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [line for line in text.splitlines() if re.search(r"Traceback|Error|ERROR|WARNING|Exception", line)]


def renamed(record: dict, names: list[str]) -> dict:
    """``record`` (a deal of ``DEAL``'s five players) with its players renamed to ``names``, in seat order."""
    mapping = dict(zip((p["name"] for p in record["players"]), names, strict=False))
    players = [
        {**p, "name": mapping[p["name"]], "vists": [{**v, "to": mapping[v["to"]]} for v in p["vists"]]}
        for p in record["players"]
    ]
    return {**record, "players": players, "went_out": mapping.get(record["went_out"], record["went_out"])}


def seed_session(store: Store, deals: int, players: list[str] = PLAYERS) -> tuple[str, str]:
    """A session of ``players`` with ``deals`` copies of the benchmark deal, through the store; (id, edit token)."""
    record = RECORD if players == PLAYERS else renamed(RECORD, players)
    with store.db.atomic():
        session, token = store.create_session("kunken", RULES, list(players), None)
        for _ in range(deals):
            store.add_deal(session.id, record)
    return session.id, token


def fill(store: Store, sessions: int, rng: random.Random, batch: int = 5000, seats: list[str] = ()) -> int:
    """Add ``sessions`` ended sessions of 1-3 deals, 5 players of ``POOL`` each, in transactions of ``batch``; deals
    added.

    ``seats``: names seated first, five to a session, before random ones (so a few sessions hold the whole pool).
    """
    deals = 0
    done = 0
    started = time.perf_counter()
    first = list(seats)
    while done < sessions:
        size = min(batch, sessions - done)
        with store.db.atomic():
            for _ in range(size):
                names, first = first[:5], first[5:]
                names += rng.sample([n for n in POOL if n not in names], 5 - len(names))
                record = renamed(RECORD, names)
                session, _token = store.create_session("kunken", RULES, names, None)
                for _ in range(rng.randint(1, 3)):
                    store.add_deal(session.id, record)
                    deals += 1
                store.end_session(session.id)  # an evening played to its end: it counts for the ratings
        done += size
        rate = done / (time.perf_counter() - started)
        log(f"  filled {done:,}/{sessions:,} sessions ({rate:,.0f}/s)")
    return deals


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of an SQLite file (online backup)."""
    src = sqlite3.connect(str(source))
    dst = sqlite3.connect(str(target))
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


# -- measuring ----------------------------------------------------------------------------------


class Timer:
    """One keep-alive connection that times requests of one kind: ``method path``, ``bodies`` (JSON) cycled.

    ``expect``: the status every answer must have (any answer of 400 or more is an error anyway).
    """

    def __init__(
        self,
        port: int,
        method: str,
        path: str,
        *,
        bodies=(None,),
        headers: dict | None = None,
        expect: int | None = None,
    ) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=900)
        self.method, self.path, self.expect = method, path, expect
        self.payloads = [json.dumps(b).encode() if b is not None else None for b in bodies]
        self.headers = {**({"Content-Type": "application/json"} if self.payloads[0] else {}), **(headers or {})}

    def one(self, i: int) -> float:
        """Milliseconds of one request (the ``i``-th body)."""
        start = time.perf_counter()
        self.conn.request(self.method, self.path, body=self.payloads[i % len(self.payloads)], headers=self.headers)
        response = self.conn.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if (self.expect is not None and response.status != self.expect) or response.status >= 400:
            raise RuntimeError(f"{self.method} {self.path} answered {response.status}: {body[:300]!r}")
        return elapsed

    def close(self) -> None:
        self.conn.close()


def request_times(
    port: int,
    method: str,
    path: str,
    *,
    bodies=(None,),
    headers: dict | None = None,
    n: int = 200,
    budget: float | None = None,
    warm: int = 10,
    expect: int | None = None,
) -> list[float]:
    """Milliseconds of each of up to ``n`` requests on one keep-alive connection, sent back to back.

    ``bodies`` are cycled (JSON); with ``budget`` (seconds) it stops earlier once that much time has
    passed (at least one request is always timed). ``expect``: the status every answer must have.
    """
    timer = Timer(port, method, path, bodies=bodies, headers=headers, expect=expect)
    try:
        for i in range(warm):
            timer.one(i)
        times: list[float] = []
        start = time.perf_counter()
        for i in range(n):
            times.append(timer.one(warm + i))
            if budget is not None and time.perf_counter() - start > budget:
                break
        return times
    finally:
        timer.close()


def closes_connection(port: int, path: str, headers: dict | None = None) -> bool:
    """Whether the server closes a kept-alive connection after answering ``GET path``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        response.read()
        return response.will_close
    finally:
        conn.close()


def wait_statistics(db: Path, timeout: float = 3600) -> float:
    """Seconds until the server has worked out the player statistics, the ``deal_scores`` and the ratings of every
    session in ``db`` (all are worked out in the background at start-up for sessions the fill wrote past the
    service)."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
        try:
            stale = conn.execute(
                "SELECT count(*) FROM sessions WHERE stats_version != version OR scores_version != version"
                " OR (ended_at IS NOT NULL AND rated_version != version)"
            ).fetchone()[0]
        finally:
            conn.close()
        if not stale:
            return time.perf_counter() - started
        time.sleep(0.5)
    raise RuntimeError(f"player statistics not worked out within {timeout:.0f} s")


class Bench:
    """The parts of the benchmark; each returns rows ``(what, figure, goal)``."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.quick = args.quick
        self.tmp = Path(tempfile.mkdtemp(prefix="kunken-club-"))
        self.servers: list[Server] = []
        self.problems: list[str] = []  # suspicious lines from the servers' logs
        self._main: tuple[Server, str] | None = None

    # servers ------------------------------------------------------------------------------

    def start(self, db: Path, name: str, start_timeout: float = 60) -> Server:
        server = Server(db, name, self.args.threads, start_timeout)
        self.servers.append(server)
        log(f"server {name} on {server.base} (database {db.name}), answering after {server.start_seconds:.1f} s")
        return server

    def stop(self, server: Server) -> None:
        lines = server.stop()
        if server in self.servers:
            self.servers.remove(server)
        if lines:
            log(f"server {server.name}: {len(lines)} suspicious log line(s), e.g. {lines[0]!r}")
            self.problems += [f"{server.name}: {line}" for line in lines]

    def close(self) -> None:
        for server in list(self.servers):
            self.stop(server)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def main_server(self) -> tuple[Server, str]:
        """The shared server: one session of 5 players with 100 deals; (server, session id)."""
        if self._main is None:
            db = self.tmp / "main.db"
            store = Store.open(str(db))
            try:
                sid, _token = seed_session(store, 100)
            finally:
                store.close()
            self._main = (self.start(db, "main"), sid)
        return self._main

    # 1-2: polling -------------------------------------------------------------------------

    def wrk(self, url: str, etag: str, connections: int, seconds: int) -> dict:
        """Run wrk with ``connections`` phones polling ``url`` every 1.5-3 s; the parsed figures."""
        script = self.tmp / "poll.lua"
        script.write_text(POLL_LUA.replace("ETAG", etag.replace("\\", "\\\\").replace("'", "\\'")))
        command = [
            WRK,
            "-t2",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "10s",
            "--latency",
            "-s",
            str(script),
            url,
        ]
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120)
        text = out.stdout + out.stderr
        if out.returncode != 0:
            raise RuntimeError(f"wrk failed ({out.returncode}): {text[-1000:]}")
        return parse_wrk(text)

    def part_polling(self) -> list[tuple[str, str, str]]:
        raise_open_files(4096)
        server, sid = self.main_server()
        path = f"/s/{sid}/live"
        status, _body, headers = call(server.base + path)
        etag = header(headers, "ETag")
        if status != 200 or not etag:
            raise RuntimeError(f"GET {path}: {status}, ETag {etag!r}")
        seconds = 5 if self.quick else 15
        rows = []
        for phones, goal in ((200, "p99 < 50 ms"), (1000, "p99 < 200 ms, no errors")):
            log(f"polling: {phones} phones, {seconds} s, If-None-Match {etag}")
            r = self.wrk(server.base + path, etag, phones, seconds)
            errors = r["socket_errors"]
            error_text = ", ".join(f"{k} {v}" for k, v in errors.items() if v) or "none"
            figure = (
                f"p99 {ms(r['p99'])} (p50 {ms(r['p50'])}); {r['rps']:.0f} req/s, {r['requests']:,} requests; "
                f"socket errors {error_text}; non-2xx/3xx {r['non_2xx_3xx']}; not 304 {r['not_304']}"
            )
            log(f"  {figure}")
            rows.append((f"{phones:,} phones polling /live every 1.5-3 s (304), wrk {seconds} s", figure, goal))
        return rows

    # 3: stalled connections ---------------------------------------------------------------

    def part_idle(self) -> list[tuple[str, str, str]]:
        raise_open_files(4096)
        server, _sid = self.main_server()
        stalled = []
        log("idle: 200 connections send half a request and stall")
        try:
            for _ in range(200):
                s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
                s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n")
                stalled.append(s)
            time.sleep(0.5)  # let the server read what they sent
            start = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15)
                conn.request("GET", "/api/v1/health")
                response = conn.getresponse()
                response.read()
                conn.close()
                elapsed = (time.perf_counter() - start) * 1000
                figure = f"{ms(elapsed)} (status {response.status})"
            except TimeoutError:
                figure = "no answer in 15 s"
            except OSError as err:
                figure = f"refused after {(time.perf_counter() - start) * 1000:.0f} ms: {err}"
        finally:
            for s in stalled:
                s.close()
        log(f"  {figure}")
        return [("one request while 200 connections stall half-sent", figure, "< 1 s")]

    # 4: ratios ----------------------------------------------------------------------------

    def part_ratios(self) -> list[tuple[str, str, str]]:
        server, sid = self.main_server()
        _status, _body, headers = call(f"{server.base}/s/{sid}/live")
        etag = header(headers, "ETag")
        n = 100 if self.quick else 400
        deals = random_deals(400)  # 400 different deals, so no request repeats the one before it
        rows = [
            ("GET /api/v1/health (baseline)", dict(method="GET", path="/api/v1/health"), None),
            (
                "GET /s/<id>/live answering 304",
                dict(method="GET", path=f"/s/{sid}/live", headers={"If-None-Match": etag}, expect=304),
                "≤ 1.2×",
            ),
            (
                "POST /api/v1/deals/score (5 players)",
                dict(method="POST", path="/api/v1/deals/score", bodies=deals),
                "≤ 2×",
            ),
            ("GET /s/<id> (100 deals, viewer)", dict(method="GET", path=f"/s/{sid}"), "≤ 3×"),
            ("GET / (home page)", dict(method="GET", path="/"), "≤ 3×"),
            ("GET /players", dict(method="GET", path="/players"), "≤ 5×"),
        ]
        # One request of each row in turn, each row on its own keep-alive connection: a drift in the machine's
        # speed (these machines are noisy over seconds) hits every row alike. The median of each row counts.
        timers = {name: Timer(server.port, **kw) for name, kw, _goal in rows}
        runs: dict[str, list[float]] = {name: [] for name in timers}
        try:
            for i in range(10):
                for timer in timers.values():
                    timer.one(i)
            log(f"ratios: {3 * n} requests per row, one of each row in turn")
            for i in range(3 * n):
                for name, timer in timers.items():
                    runs[name].append(timer.one(10 + i))
        finally:
            for timer in timers.values():
                timer.close()
        base = statistics.median(runs[rows[0][0]])
        table = [(f"{rows[0][0]}, one keep-alive client", ms(base), "—")]
        for name, kw, goal in rows[1:]:
            value = statistics.median(runs[name])
            # a response after which the server closes the connection: the next request reconnects (timed too)
            closes = kw["method"] == "GET" and closes_connection(server.port, kw["path"], kw.get("headers"))
            table.append(
                (
                    f"{name} vs health",
                    f"{value / base:.2f}× ({ms(value)})"
                    + ("; server closes the connection after each" if closes else ""),
                    goal,
                )
            )
            log(f"  {name}: {ms(value)} = {value / base:.2f}× health")
        return table

    # 5: size flatness ---------------------------------------------------------------------

    def part_size(self) -> list[tuple[str, str, str]]:
        total = self.args.sessions
        small_db, big_db = self.tmp / "size-10.db", self.tmp / "size-big.db"
        store = Store.open(str(big_db))
        rng = random.Random(11)
        try:
            sid, _token = seed_session(store, 100)
            # 9 more sessions seat everyone of the pool: /players shows the same rows before and after the fill
            others = [name for name in POOL if name not in PLAYERS]
            rng.shuffle(others)
            deals = 100 + fill(store, 9, rng, seats=others)
        finally:
            store.close()
        copy_database(big_db, small_db)  # the 10-session file, kept as it is before the fill
        log(f"size: filling to {total:,} sessions through the store")
        started = time.perf_counter()
        store = Store.open(str(big_db))
        try:
            deals += fill(store, total - 10, rng)
        finally:
            store.close()
        fill_seconds = time.perf_counter() - started
        megabytes = big_db.stat().st_size / 1e6
        log(f"  filled in {fill_seconds:.0f} s: {deals:,} deals, {megabytes:,.0f} MB")
        # Both files served side by side by freshly started servers, measured one request of each in turn.
        small = self.start(small_db, "size-10", start_timeout=600)
        log(f"  starting the server on {total:,} sessions (it works out their player statistics first)")
        big = self.start(big_db, f"size-{total}", start_timeout=7200)
        # The fill wrote sessions past the service, so none has its player statistics yet: the
        # server works them out in the background while it answers (as after an upgrade). Measured
        # once that is done, which is the state a server that records deals itself is always in.
        caught_up = wait_statistics(big_db)
        log(f"  player statistics of {total:,} sessions worked out in the background in {caught_up:.0f} s")
        paths = {"players": "/players", "page": f"/s/{sid}"}
        runs: dict[tuple[str, str], list[float]] = {(server.name, key): [] for server in (small, big) for key in paths}
        slowest = {key: 0.0 for key in runs}  # one slow request among fast ones: a pause (GC, a lock)
        first = {}
        timers: dict[tuple[str, str], Timer] = {}
        try:
            # The first /players of each server, apart: it may first work out what the fill left to do.
            for server in (small, big):
                first[server.name] = request_times(server.port, "GET", "/players", n=1, warm=0)[0]
                log(f"  first GET /players of {server.name}: {ms(first[server.name])}")
            # As the ratio rows: one request of each kind in turn (both servers, both pages), each on
            # its own keep-alive connection, so a drift in the machine's speed hits both files alike.
            timers = {
                (server.name, key): Timer(server.port, "GET", path)
                for server in (small, big)
                for key, path in paths.items()
            }
            for i in range(3):
                for timer in timers.values():
                    timer.one(i)
            n = 100 if self.quick else 600
            log(f"size: {n} requests of each kind, one of each in turn")
            for i in range(n):
                for key, timer in timers.items():  # a fixed order: each page follows its own server's /players
                    elapsed = timer.one(i)
                    runs[key].append(elapsed)
                    slowest[key] = max(slowest[key], elapsed)
            for key, times in runs.items():
                log(f"  {key[0]} {paths[key[1]]}: {ms(statistics.median(times))} (median of {len(times)})")
        finally:
            for timer in timers.values():
                timer.close()
            self.stop(small)
            self.stop(big)
        value = {k: statistics.median(v) for k, v in runs.items()}
        players_small, players_big = value[(small.name, "players")], value[(big.name, "players")]
        page_small, page_big = value[(small.name, "page")], value[(big.name, "page")]
        return [
            (
                f"server start after the fill, until it answers ({total:,} sessions)",
                f"{big.start_seconds:.1f} s (10 sessions: {small.start_seconds:.1f} s)",
                "—",
            ),
            (
                f"player statistics, deal_scores and ratings of the {total:,} filled sessions, worked out in the"
                " background",
                f"{caught_up:.0f} s after the start (the server answers meanwhile)",
                "—",
            ),
            (
                f"first GET /players after the fill (fresh server, {total:,} sessions)",
                f"{ms(first[big.name])} (10 sessions: {ms(first[small.name])})",
                "—",
            ),
            (
                f"fill to {total:,} sessions ({deals:,} deals, {megabytes:,.0f} MB) through the store",
                f"{fill_seconds:.0f} s",
                "—",
            ),
            (
                f"GET /players at {total:,} sessions vs 10",
                f"{players_big / players_small:.2f}× "
                f"({ms(players_big)} vs {ms(players_small)}; slowest {ms(slowest[(big.name, 'players')])} vs "
                f"{ms(slowest[(small.name, 'players')])})",
                "≤ 1.2×",
            ),
            (
                f"GET /s/<id> (100 deals) at {total:,} sessions vs 10",
                f"{page_big / page_small:.2f}× "
                f"({ms(page_big)} vs {ms(page_small)}; slowest {ms(slowest[(big.name, 'page')])} vs "
                f"{ms(slowest[(small.name, 'page')])})",
                "≤ 1.1×",
            ),
        ]

    # 5b: many players -------------------------------------------------------------------------

    def part_crowd(self) -> list[tuple[str, str, str]]:
        """/players when a club's file holds 1,000 different players, against 50 (as many sessions and rows shown)."""
        sessions = 200  # five seats each: the crowd's 1,000 names each play once
        files = {"50 players": self.tmp / "crowd-50.db", "1,000 players": self.tmp / "crowd-1000.db"}
        crowd = [f"Guest {n:04d}" for n in range(5 * sessions)]
        for db, seats in zip(files.values(), (crowd[:50] * 20, crowd), strict=True):
            store = Store.open(str(db))
            try:
                fill(store, sessions, random.Random(5), seats=seats)
            finally:
                store.close()
        servers = {name: self.start(db, f"crowd-{name.split()[0]}") for name, db in files.items()}
        rows = {
            ("50 players", "/players"),
            ("1,000 players", "/players"),
            ("1,000 players", "/players?all=1"),
        }
        timers = {key: Timer(servers[key[0]].port, "GET", key[1]) for key in sorted(rows)}
        runs: dict[tuple[str, str], list[float]] = {key: [] for key in timers}
        sizes = {key: len(call(f"{servers[key[0]].base}{key[1]}")[1]) for key in timers}
        try:
            for i in range(3):  # the first looks work out the statistics the fill left to do
                for timer in timers.values():
                    timer.one(i)
            n = 50 if self.quick else 300
            log(f"crowd: {n} requests of each kind, one of each in turn")
            for i in range(n):
                for key, timer in timers.items():
                    runs[key].append(timer.one(i))
        finally:
            for timer in timers.values():
                timer.close()
            for server in servers.values():
                self.stop(server)
        value = {key: statistics.median(times) for key, times in runs.items()}
        for key in timers:
            log(f"  {key[0]} {key[1]}: {ms(value[key])}, {sizes[key] / 1000:,.0f} KB")
        few_key, many_key = ("50 players", "/players"), ("1,000 players", "/players")
        all_key = ("1,000 players", "/players?all=1")
        few, many, full = value[few_key], value[many_key], value[all_key]
        return [
            (
                "GET /players with 1,000 players vs 50 (200 sessions each)",
                f"{many / few:.2f}× ({ms(many)} vs {ms(few)}; {sizes[many_key] / 1000:,.0f} KB vs "
                f"{sizes[few_key] / 1000:,.0f} KB)",
                "≤ 1.2× (not in the issue)",
            ),
            (
                "GET /players?all=1 with 1,000 players (every player listed)",
                f"{ms(full)}, {sizes[all_key] / 1000:,.0f} KB",
                "—",
            ),
        ]

    # 6: concurrent writers ----------------------------------------------------------------

    def part_writers(self) -> list[tuple[str, str, str]]:
        db = self.tmp / "writers.db"
        store = Store.open(str(db))
        try:
            sid, token = seed_session(store, 900)
        finally:
            store.close()
        server = self.start(db, "writers")
        seconds = 5 if self.quick else 10
        body = json.dumps(DEAL).encode()
        times: list[float] = []
        statuses: dict[int, int] = {}
        first_error: list[str] = []
        lock = threading.Lock()
        deadline = time.perf_counter() + seconds

        def writer() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            try:
                while time.perf_counter() < deadline:
                    headers = {
                        "Content-Type": "application/json",
                        "Authorization": f"Bearer {token}",
                        "Idempotency-Key": uuid.uuid4().hex,
                    }
                    start = time.perf_counter()
                    try:
                        conn.request("POST", f"/api/v1/sessions/{sid}/deals", body=body, headers=headers)
                        response = conn.getresponse()
                        answer = response.read()
                        status = response.status
                    except OSError as err:
                        status, answer = 0, str(err).encode()
                        conn.close()
                        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                    elapsed = (time.perf_counter() - start) * 1000
                    with lock:
                        times.append(elapsed)
                        statuses[status] = statuses.get(status, 0) + 1
                        if status != 201 and not first_error:
                            first_error.append(f"{status}: {answer[:300]!r}")
            finally:
                conn.close()

        log(f"writers: 8 threads record deals for {seconds} s on a session with 900 deals")
        try:
            threads = [threading.Thread(target=writer) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            _status, data, _headers = call(f"{server.base}/api/v1/sessions/{sid}")
            stored = len(json.loads(data)["deals"])
        finally:
            self.stop(server)
        created = statuses.get(201, 0)
        errors = sum(v for k, v in statuses.items() if k != 201)
        if first_error:
            log(f"  first error: {first_error[0]}")
        if stored != 900 + created:
            log(f"  the session holds {stored} deals, expected {900 + created}")
        figure = (
            f"p95 {ms(percentile(times, 95))} (p50 {ms(percentile(times, 50))}, max {ms(max(times))}); "
            f"{created:,} deals in {seconds} s; errors {errors}"
            + (f" {dict(sorted(statuses.items()))}" if errors else "")
        )
        log(f"  {figure}")
        return [("record a deal: 8 writers on one session with 900 deals", figure, "p95 ≤ 50 ms")]

    # 7: first contentful paint ------------------------------------------------------------

    def part_paint(self) -> list[tuple[str, str, str]]:
        server, sid = self.main_server()
        page_url = f"{server.base}/s/{sid}"
        # first paint is noisy (one load to the next, 200 to 450 ms for the bare page): 15 loads gave medians of
        # 1.10× to 1.27× for one build, 40 loads 1.19× to 1.28×
        repeats = 3 if self.quick else 40
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--no-sandbox",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--no-first-run",
                ],
            )
            device = p.devices["Pixel 7"]
            try:
                context = browser.new_context(**device)
                try:
                    html = context.new_page().goto(page_url).body()  # as this phone gets it (its language)
                finally:
                    context.close()
                bare_file = self.tmp / "bare.html"
                bare_file.write_bytes(bare_html(len(html)).encode())
                bare = BareServer(bare_file)
                try:
                    log(
                        f"paint: session page {len(html):,} bytes vs bare page {bare_file.stat().st_size:,} bytes, "
                        f"{repeats} loads each"
                    )
                    fcp: dict[str, list[float]] = {"session": [], "bare": []}
                    first_paint(browser, device, page_url)  # warm-up loads, not counted
                    first_paint(browser, device, bare.url)
                    for i in range(repeats):
                        order = [("session", page_url), ("bare", bare.url)]
                        for name, url in order if i % 2 == 0 else order[::-1]:
                            fcp[name].append(first_paint(browser, device, url))
                        log(f"  load {i + 1}: session {fcp['session'][-1]:.0f} ms, bare {fcp['bare'][-1]:.0f} ms")
                finally:
                    bare.stop()
            finally:
                browser.close()
        session_ms, bare_ms = statistics.median(fcp["session"]), statistics.median(fcp["bare"])
        return [
            (
                "first contentful paint, 100-deal page vs bare page, Pixel 7, CPU 4× slower",
                f"{session_ms / bare_ms:.2f}× ({session_ms:.0f} ms vs {bare_ms:.0f} ms, medians of {repeats})",
                "≤ 1.2×",
            )
        ]

    # 8: page weight -----------------------------------------------------------------------

    def part_weight(self) -> list[tuple[str, str, str]]:
        server, sid = self.main_server()
        base = server.base
        status, html, _ = call(f"{base}/s/{sid}")
        if status != 200:
            raise RuntimeError(f"GET /s/<id> answered {status}")
        parser = Assets()
        parser.feed(html.decode())
        urls = list(dict.fromkeys(parser.urls))
        sizes = {"page": len(gzip.compress(html, 9))}
        seen = set()
        while urls:
            url = urls.pop(0)
            if url in seen or is_foreign(url, base):
                continue
            seen.add(url)
            status, data, _ = call(base + url if url.startswith("/") else url)
            sizes[url] = len(gzip.compress(data, 9))
            if url.split("?")[0].endswith(".css"):  # what a stylesheet loads in turn (fonts, images, imports)
                for ref in re.findall(r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)", data.decode()):
                    target = ref[0] or ref[1]
                    if not target.startswith("data:"):
                        urls.append(
                            target
                            if target.startswith(("/", "http:", "https:"))
                            else url.rsplit("/", 1)[0] + "/" + target
                        )
        foreign = sorted({u for u in parser.urls if is_foreign(u, base)})
        log(f"weight: gzip bytes {sizes}")
        return [
            ("session page (100 deals), gzip", f"{sizes['page'] / 1024:.1f} KB", "≤ 10 KB"),
            (
                "the same with everything it loads "
                "(the static files are revalidated, not fetched, after the first visit)",
                f"{sum(sizes.values()) / 1024:.1f} KB in {len(sizes)} files",
                "—",
            ),
            ("requests to other hosts", ", ".join(foreign) if foreign else "none", "none"),
        ]


def is_foreign(url: str, base: str) -> bool:
    """Whether ``url`` (as written in a page) points at another host than ``base``."""
    return bool(re.match(r"^(https?:)?//", url)) and not url.startswith(base)


# -- wrk --------------------------------------------------------------------------------------

#: Each connection is a phone: it sends If-None-Match, then waits 1.5-3 s (wrk calls delay() before
#: each next request). response() counts answers other than 304, summed over the threads in done().
POLL_LUA = r"""
wrk.headers["If-None-Match"] = 'ETAG'
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end
function init(args)
  math.randomseed(os.time() * 1000 + tid * 7919)
  not304 = 0
end
function delay()
  return math.random(1500, 3000)
end
function response(status, headers, body)
  if status ~= 304 then not304 = not304 + 1 end
end
function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("not304") end
  io.write(string.format("Not 304: %d\n", n))
end
"""

_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, "h": 3600000.0}


def _duration_ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text).groups()
    return float(number) * _UNITS[unit]


def parse_wrk(text: str) -> dict:
    """p50/p99 (ms), requests/s, requests, socket errors, non-2xx/3xx and not-304 counts of wrk's report."""

    def grab(pattern: str, default=None):
        match = re.search(pattern, text, re.M)
        return match.group(1) if match else default

    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    return {
        "p50": _duration_ms(grab(r"^\s*50%\s+(\S+)")),
        "p99": _duration_ms(grab(r"^\s*99%\s+(\S+)")),
        "rps": float(grab(r"^Requests/sec:\s+([\d.]+)")),
        "requests": int(grab(r"^\s*(\d+) requests in")),
        "socket_errors": dict(zip(("connect", "read", "write", "timeout"), map(int, errors.groups()), strict=False))
        if errors
        else {},
        "non_2xx_3xx": int(grab(r"Non-2xx or 3xx responses:\s+(\d+)", "0")),
        "not_304": int(grab(r"^Not 304: (\d+)", "-1")),
    }


def raise_open_files(wanted: int) -> None:
    """Raise this process's open-file limit (wrk and the servers inherit it) to ``wanted`` if allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard)
        )


# -- the bare page ----------------------------------------------------------------------------

LOREM = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
    "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip "
    "ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu "
    "fugiat nulla pariatur. "
)


def bare_html(size: int) -> str:
    """An HTML page of exactly ``size`` bytes (ASCII): lorem paragraphs, no CSS, no script."""
    head = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare page</title></head><body>\n'
    )
    tail = "</body></html>\n"
    room = size - len(head) - len(tail)
    paragraph = f"<p>{LOREM.strip()}</p>\n"
    body = paragraph * max(0, room // len(paragraph))
    rest = room - len(body)
    if rest >= 8:
        text = (LOREM * (rest // len(LOREM) + 1))[: rest - 8]
        body += f"<p>{text}</p>\n"
    else:
        body += " " * max(0, rest)
    return head + body + tail


BARE_APP = r"""
import sys
from flask import Flask, Response
from waitress import serve
html = open(sys.argv[2], "rb").read()
app = Flask("bare")

@app.get("/")
def page():
    return Response(html, mimetype="text/html")

serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8)
"""


class BareServer:
    """The bare page, a tiny Flask app under waitress in its own process."""

    def __init__(self, html_file: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process = subprocess.Popen(
            [sys.executable, "-c", BARE_APP, str(self.port), str(html_file)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            try:
                if call(self.url)[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the bare page server did not start")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def first_paint(browser, device: dict, url: str) -> float:
    """First contentful paint (ms) of ``url`` loaded cold in a fresh Pixel 7 context, CPU throttled 4x."""
    context = browser.new_context(**device)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.goto(url, wait_until="load")
        page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0", timeout=15000)
        return page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
    finally:
        context.close()


# -- main -------------------------------------------------------------------------------------


def summarize_logs(lines: list[str]) -> None:
    """The servers' suspicious log lines on stderr, alike lines (differing only in numbers) counted once."""
    kinds: dict[str, list] = {}
    for line in lines:
        numbers = [int(n) for n in re.findall(r"\d+", line.split(":", 1)[1])]
        entry = kinds.setdefault(re.sub(r"\d+", "N", line), [0, numbers, line])
        entry[0] += 1
        if numbers > entry[1]:
            entry[1], entry[2] = numbers, line
    for kind, (count, _numbers, largest) in kinds.items():
        log(f"server log, {count}x: {kind}" + (f" (largest: {largest.split(': ', 1)[1]})" if "N" in kind else ""))


def print_table(rows: list[tuple[str, str, str]]) -> None:
    """The rows as ``what | figure | goal``, aligned."""
    header = ("what", "figure", "goal")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]
    for i, row in enumerate([header, *rows]):
        print(" | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip())
        if i == 0:
            print("-+-".join("-" * width for width in widths))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="a fast smoke run: 5 s wrk runs, 2,000 sessions, fewer repeats"
    )
    parser.add_argument(
        "--only", default=",".join(PARTS), help=f"comma-separated parts to run, of {','.join(PARTS)} (default: all)"
    )
    parser.add_argument(
        "--sessions",
        type=int,
        default=None,
        help="sessions in the big database of the size part (default 100000; 2000 with --quick)",
    )
    parser.add_argument("--threads", type=int, default=None, help="server threads (default: the app's own)")
    args = parser.parse_args(argv)
    if args.sessions is None:
        args.sessions = 2000 if args.quick else 100_000
    args.sessions = max(args.sessions, 20)
    only = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = [p for p in only if p not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")

    bench = Bench(args)
    rows: list[tuple[str, str, str]] = []
    try:
        for part in PARTS:
            if part not in only:
                continue
            log(f"== {part}")
            started = time.perf_counter()
            try:
                rows += getattr(bench, f"part_{part}")()
            except Exception as err:  # one broken part must not hide the others' figures
                traceback.print_exc(file=sys.stderr)
                rows.append((f"{part}: failed", f"{type(err).__name__}: {str(err)[:100]}", "—"))
            log(f"   {part} took {time.perf_counter() - started:.0f} s")
    finally:
        bench.close()
    summarize_logs(bench.problems)
    print(
        f"Kunken scorer, club-night figures ({'quick run' if args.quick else 'full run'}, "
        f"{os.cpu_count()} CPUs, server threads: {args.threads or 'app default'})"
    )
    print_table(rows)


if __name__ == "__main__":
    main()
