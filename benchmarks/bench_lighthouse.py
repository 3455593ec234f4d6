"""Lighthouse on the pages a table lives on: the printable summary, the session page, a player's part page and the
scorer's deal form of a 100-deal, 5-player session, on Lighthouse's emulated phone (slow 4G, CPU 4x slower).

Prints each page's category scores (performance, accessibility, best practices, SEO) with the cumulative layout
shift, total blocking time and first contentful paint. Goals (issue 48): the summary's performance at least 95;
CLS at most 0.02 on the part page and the deal form (``tests/test_browser_layout_shift.py`` checks that with the
scripts held back 400 ms). Lighthouse is a measurement, as noisy as the machine: a benchmark, not a test.

Lighthouse comes from npm into ``.lighthouse/`` (``make bench`` installs the pinned version once); it drives
Debian's Chromium (``CHROME_PATH``). Run: ``.venv/bin/python benchmarks/bench_lighthouse.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.bench_club import DEAL, PLAYERS, Server, log, print_table  # noqa: E402
from benchmarks.bench_live import api  # noqa: E402

LIGHTHOUSE = ROOT / ".lighthouse" / "node_modules" / ".bin" / "lighthouse"


def lighthouse(url: str, out: Path, cookie: str = "") -> dict:
    """Lighthouse's report of ``url`` (mobile, its default), sending ``cookie``."""
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        "--only-categories=performance,accessibility,best-practices,seo",
        "--chrome-flags=--headless=new --no-sandbox",
    ]
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    env = {**os.environ, "CHROME_PATH": "/usr/bin/chromium"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    if not out.exists():
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-600:]}")
    return json.loads(out.read_text())


def main() -> None:
    if not LIGHTHOUSE.exists():
        sys.exit(f"no Lighthouse at {LIGHTHOUSE}: run `make bench` (it installs it) first")
    rows = []
    with tempfile.TemporaryDirectory(prefix="kunken-lighthouse-") as folder:
        tmp = Path(folder)
        server = Server(tmp / "lighthouse.db", "lighthouse")
        try:
            made = api(server.base, "/api/v1/sessions", {"game": "kunken", "players": PLAYERS})
            sid, token = made["id"], made["edit_token"]
            for _ in range(100):
                api(server.base, f"/api/v1/sessions/{sid}/deals", DEAL, token)
            seat = api(server.base, f"/api/v1/sessions/{sid}/seats/1", {})["seat_token"]
            pages = [
                ("the printable summary", f"/s/{sid}/summary", "", "performance ≥ 95"),
                ("the session page (a viewer's)", f"/s/{sid}", "", "—"),
                ("a player's part page", f"/s/{sid}/draft/1", f"kunken_seat_{sid}=1.{seat}", "CLS ≤ 0.02"),
                ("the scorer's deal form", f"/s/{sid}/deals/new", f"kunken_edit_{sid}={token}", "CLS ≤ 0.02"),
            ]
            for name, path, cookie, goal in pages:
                log(f"lighthouse: {name}")
                report = lighthouse(server.base + path, tmp / "report.json", cookie)
                scores = {key: round((c["score"] or 0) * 100) for key, c in report["categories"].items()}
                audits = report["audits"]
                figure = (
                    f"performance {scores['performance']}, accessibility {scores['accessibility']}, best practices "
                    f"{scores['best-practices']}, SEO {scores['seo']}; CLS "
                    f"{audits['cumulative-layout-shift']['numericValue']:.3f}, blocking "
                    f"{audits['total-blocking-time']['numericValue']:.0f} ms, FCP "
                    f"{audits['first-contentful-paint']['numericValue']:.0f} ms"
                )
                rows.append((name, figure, goal))
        finally:
            server.stop()
    print("Kunken scorer, Lighthouse (mobile) on a 100-deal, 5-player session")
    print_table(rows)


if __name__ == "__main__":
    main()
