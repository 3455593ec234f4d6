"""Web benchmark: request cost relative to GET /api/v1/health, and the session page's weight.

Starts the real app under waitress on 127.0.0.1 with a fresh SQLite file, fills a session
with 100 deals through the API, then measures with one keep-alive client sending requests back to
back (so each figure is the server's own cost for the request, not queueing). Budgets (issue 3):
scoring a 5-player deal at most 2x the health check; the session page of a 100-deal session at most 6x; the session
page with everything it loads at most 30 KB gzip-compressed, and no request to any other host.

Run: ``.venv/bin/python benchmarks/bench_web.py``
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.bench_core import DEAL  # noqa: E402

PLAYERS = [p["name"] for p in DEAL["players"]]


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url: str, body=None, headers=None) -> tuple[int, bytes, dict]:
    """One HTTP request; returns status, body and headers."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read(), dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, err.read(), dict(err.headers)


class Assets(HTMLParser):
    """Collects the URLs a page loads (stylesheets, scripts, images, icons, manifest)."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.urls.append(a["src"])
        elif (
            tag == "link"
            and a.get("href")
            and set((a.get("rel") or "").split()) & {"stylesheet", "icon", "manifest", "apple-touch-icon"}
        ):
            self.urls.append(a["href"])
        elif tag in ("img", "source") and a.get("src"):
            self.urls.append(a["src"])


def random_deals(count: int, seed: int = 7) -> list[dict]:
    """``count`` different 5-player deals dealt from a real two-deck shoe (some melds hold a joker)."""
    rng = random.Random(seed)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    suits = "♠♥♦♣"
    deals = []
    for _ in range(count):
        shoe = Counter({r + s: 2 for r in ranks for s in suits})
        shoe["JK"] = 4
        players = []
        for seat, name in enumerate(PLAYERS):
            melds = []
            for _ in range(rng.randint(1, 3)):
                for _attempt in range(30):
                    if rng.random() < 0.5:
                        suit, length = rng.choice(suits), rng.randint(3, 5)
                        start = rng.randint(0, 13 - length)
                        cards = [ranks[start + i] + suit for i in range(length)]
                    else:
                        rank = rng.choice(ranks)
                        cards = [rank + s for s in rng.sample(suits, rng.randint(3, 4))]
                    if rng.random() < 0.3:
                        cards[rng.randrange(len(cards))] = "JK"
                    need = Counter(cards)
                    if all(shoe[c] >= k for c, k in need.items()):
                        shoe.subtract(need)
                        melds.append(" ".join(cards))
                        break
            hand = []
            for _ in range(0 if seat == 0 else rng.randint(1, 7)):
                card = rng.choice([c for c, k in shoe.items() if k > 0])
                shoe[card] -= 1
                hand.append(card)
            players.append({"name": name, "melds": melds, "vists": [], "hand": " ".join(hand)})
        deals.append({"players": players, "went_out": PLAYERS[0], "express": rng.random() < 0.2})
    return deals


def keepalive_ms(port: int, method: str, path: str, bodies=(None,), n: int = 400) -> float:
    """Mean milliseconds per request over ``n`` requests on one keep-alive connection (cycling ``bodies``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    payloads = [json.dumps(b).encode() if b is not None else None for b in bodies]
    headers = {"Content-Type": "application/json"} if payloads[0] else {}
    for data in payloads[:20]:  # warm up
        conn.request(method, path, body=data, headers=headers)
        conn.getresponse().read()
    start = time.perf_counter()
    for i in range(n):
        data = payloads[i % len(payloads)]
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        response.read()
        assert response.status < 400, response.status
    elapsed = time.perf_counter() - start
    conn.close()
    return elapsed / n * 1000


def main() -> None:
    """Start the server, fill a 100-deal session, and print the figures."""
    tmp = tempfile.mkdtemp(prefix="kunken-bench-")
    port = free_port()
    env = {**os.environ, "KUNKEN_DATABASE": f"{tmp}/bench.db", "KUNKEN_SECRET_KEY": "bench" * 8}
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port), "--threads", "4"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if call(base + "/api/v1/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        status, body, _ = call(base + "/api/v1/sessions", {"game": "kunken", "players": PLAYERS})
        session = json.loads(body)
        auth = {"Authorization": f"Bearer {session['edit_token']}"}
        for i in range(100):
            status, body, _ = call(
                f"{base}/api/v1/sessions/{session['id']}/deals", DEAL, {**auth, "Idempotency-Key": f"bench-{i}"}
            )
            assert status == 201, body
        page = f"{base}/s/{session['id']}"

        # weight: the page and everything it loads, each gzip-compressed
        status, html, _ = call(page)
        parser = Assets()
        parser.feed(html.decode())
        foreign = [u for u in parser.urls if re.match(r"^(https?:)?//", u) and not u.startswith(base)]
        sizes = {"page": len(gzip.compress(html, 9))}
        for url in parser.urls:
            _, data, _ = call(base + url if url.startswith("/") else url)
            sizes[url] = len(gzip.compress(data, 9))
        manifest = next((u for u in parser.urls if u.endswith(".webmanifest")), None)
        print(f"session page with 100 deals, gzip bytes: {sizes}")
        print(
            f"total {sum(sizes.values()) / 1024:.1f} KB (budget 30 KB); requests to other hosts: {foreign or 'none'}"
            f"{'' if manifest else ''}"
        )

        # Cost per request: one keep-alive client sends requests back to back, so each figure is
        # the server's own time for that request (no queueing behind other connections). Three
        # interleaved rounds, medians: the machine's noise hits every row alike.
        # 400 different deals, so no request repeats the one before it
        deals = random_deals(400)
        rows = [
            ("GET /api/v1/health (baseline)", "GET", "/api/v1/health", (None,), None),
            ("POST /api/v1/deals/score (5 players)", "POST", "/api/v1/deals/score", deals, 2),
            ("GET /s/<id> (100 deals, viewer)", "GET", page[len(base) :], (None,), 6),
        ]
        runs: dict[str, list[float]] = {name: [] for name, *_ in rows}
        for _ in range(3):
            for name, method, path, bodies, _budget in rows:
                runs[name].append(keepalive_ms(port, method, path, bodies))
        baseline = statistics.median(runs[rows[0][0]])
        print(f"{'request':40} {'ms/request':>11} {'x health':>9} {'budget':>7}")
        for name, _method, _path, _body, budget in rows:
            ms = statistics.median(runs[name])
            print(f"{name:40} {ms:11.3f} {ms / baseline:9.2f} {(str(budget) + 'x') if budget else '':>7}")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
