"""Web benchmark: request cost relative to GET /api/v1/health, and the session page's weight.

Starts the real app under waitress on 127.0.0.1 with a fresh SQLite file, fills a session
with 100 deals through the API, then measures with wrk (Debian package ``wrk``) when it is
installed, else with a Python client loop. Budgets (issue 3): scoring a 5-player deal at
most 2x the health check; the session page of a 100-deal session at most 6x; the session
page with everything it loads at most 30 KB gzip-compressed, and no request to any other host.

Run: ``.venv/bin/python benchmarks/bench_web.py``
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
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
        elif tag == "link" and a.get("href") and set((a.get("rel") or "").split()) & {"stylesheet", "icon", "manifest", "apple-touch-icon"}:
            self.urls.append(a["href"])
        elif tag in ("img", "source") and a.get("src"):
            self.urls.append(a["src"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk_load(url: str, pid: int, script: str | None = None, seconds: int = 5) -> tuple[float, float]:
    """Drive ``url`` with wrk; return (requests per second, server CPU microseconds per request).

    CPU time per request is the steadier figure on a shared machine: it counts only what the
    server process spent, not the time it waited for a core.
    """
    cmd = ["wrk", "-t1", "-c4", f"-d{seconds}s"]
    if script:
        cmd += ["-s", script]
    before = cpu_seconds(pid)
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    spent = cpu_seconds(pid) - before
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return rps, spent / requests * 1e6


def loop_cost(url: str, body=None, n: int = 300) -> float:
    """Mean milliseconds per request from a single Python client (fallback without wrk)."""
    start = time.perf_counter()
    for _ in range(n):
        status, _, _ = call(url, body)
        assert status < 400, status
    return (time.perf_counter() - start) / n * 1000


def main() -> None:
    """Start the server, fill a 100-deal session, and print the figures."""
    tmp = tempfile.mkdtemp(prefix="kunken-bench-")
    port = free_port()
    env = {**os.environ, "KUNKEN_DATABASE": f"{tmp}/bench.db", "KUNKEN_SECRET_KEY": "bench" * 8}
    server = subprocess.Popen([sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port),
                               "--threads", "4"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
            status, body, _ = call(f"{base}/api/v1/sessions/{session['id']}/deals", DEAL,
                                   {**auth, "Idempotency-Key": f"bench-{i}"})
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
        print(f"total {sum(sizes.values()) / 1024:.1f} KB (budget 30 KB); requests to other hosts: {foreign or 'none'}"
              f"{'' if manifest else ''}")

        score_body = json.dumps(DEAL)
        if shutil.which("wrk"):
            lua = Path(tmp) / "post.lua"
            lua.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                           f"wrk.body = {json.dumps(score_body)}\n")
            rows = [("GET /api/v1/health (baseline)", base + "/api/v1/health", None, None),
                    ("POST /api/v1/deals/score (5 players)", base + "/api/v1/deals/score", str(lua), 2),
                    ("GET /s/<id> (100 deals, viewer)", page, None, 6)]
            print(f"{'request':40} {'req/s':>8} {'CPU µs/req':>11} {'x health':>9} {'(by req/s)':>10} {'budget':>7}")
            baseline = None
            for name, url, script, budget in rows:
                rps, cpu = wrk_load(url, server.pid, script)
                baseline = baseline or (rps, cpu)
                print(f"{name:40} {rps:8.0f} {cpu:11.0f} {cpu / baseline[1]:9.2f} {baseline[0] / rps:10.2f} "
                      f"{(str(budget) + 'x') if budget else '':>7}")
        else:
            health = loop_cost(base + "/api/v1/health")
            score = loop_cost(base + "/api/v1/deals/score", DEAL)
            page_ms = loop_cost(page)
            print(f"(no wrk) ms per request: health {health:.2f}, score {score:.2f} ({score / health:.2f}x), "
                  f"session page {page_ms:.2f} ({page_ms / health:.2f}x)")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
