"""Live-update benchmark: how fast and how small a recorded deal reaches the screens that follow a session.

A 100-deal, 5-player session that is a club night's table is followed by three real Chromium pages: a viewer's
phone (the session page, a Pixel 7), the table screen and the room screen (1280x720). The benchmark records
``--deals`` more deals through the API, each after a random pause (so a deal lands anywhere in a poll's period),
and for each screen prints the tap-to-screen latency (from the moment the deal is sent to the first frame after
the screen took it: median and p95) and the bytes the update cost on the wire (the live answers with a body that
the screen fetched for it, asked again at once: status line, headers and compressed body; median).

It measures the working tree ("after") and, beside it, the tree of ``--before`` (default: the last commit whose
screens took whole pages every 3 s), started the same way from a ``git archive`` of it. With ``--crowd N`` (default
1,000; 0 for none) N more phones poll another session's live address every second (wrk, answered 304) while the
deals are recorded, as a club night's other tables do.

Run: ``.venv/bin/python benchmarks/bench_live.py [--deals 20] [--before REV] [--crowd 1000]``. Needs Chromium
(``/usr/bin/chromium``) and, for the crowd, ``/usr/bin/wrk``.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.bench_club import (  # noqa: E402
    DEAL,
    PLAYERS,
    WRK,
    Server,
    call,
    header,
    log,
    percentile,
    print_table,
    raise_open_files,
)

BEFORE = "e5714c9"  # the last commit whose screens took whole pages every 3 s
#: a live answer worth counting: the JSON of a live address, or the page the old table and room screens fetched
LIVE = ("/live", "/table?since", "/room?since")
#: on each screen, the time of the first frame after its live part's data-version changed, and every live answer
#: the screen received (the resource timing of its fetches: when it ended, its status, its bytes on the wire)
WATCH = """() => {
  window.__changes = [];
  window.__answers = [];
  const box = document.querySelector('[data-live-url]');
  new MutationObserver(() => requestAnimationFrame(() => window.__changes.push(Date.now())))
    .observe(box, {attributes: true, attributeFilter: ['data-version']});
  performance.setResourceTimingBufferSize(100000);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__answers.push([e.name, performance.timeOrigin + e.startTime, performance.timeOrigin + e.responseEnd,
                             e.responseStatus]);
    }
  }).observe({type: 'resource'});
}"""
#: the crowd: every phone polls once a second, answered 304
CROWD_LUA = r"""
wrk.headers["If-None-Match"] = 'ETAG'
function delay()
  return math.random(800, 1200)
end
"""


def tree_of(revision: str, into: Path) -> Path:
    """The files of ``revision`` (git archive) in ``into``, with the working tree's compiled catalogs."""
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    for catalog in ROOT.glob("translations/*/LC_MESSAGES/messages.mo"):
        shutil.copy(catalog, into / catalog.relative_to(ROOT))
    return into


def api(base: str, method_path: str, body: dict | None = None, token: str | None = None) -> dict:
    status, raw, _headers = call(base + method_path, body, {"Authorization": f"Bearer {token}"} if token else {})
    if status >= 400:
        raise RuntimeError(f"{method_path}: {status} {raw[:200]!r}")
    return json.loads(raw or b"{}")


def wire(url: str) -> int:
    """The bytes on the wire of ``url``'s answer to a Russian phone's Chromium (Brotli, as it asks of 127.0.0.1):
    status line, headers and compressed body. Asked again right after the screen took it, before the next deal,
    so the answer is the one the screen got (the browser's own resource timing gives no compressed sizes here)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        asked = {"Accept-Encoding": "gzip, deflate, br, zstd", "Accept-Language": "ru-RU,ru;q=0.9"}
        connection.request("GET", f"{parts.path}?{parts.query}", headers={**asked, "Accept": "application/json"})
        response = connection.getresponse()
        body = response.read()
        head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + 2
        head += sum(len(name) + len(value) + 4 for name, value in response.getheaders())
        return head + len(body)
    finally:
        connection.close()


class Screen:
    """A Chromium page following a live part, the live answers it received kept with their time and size."""

    def __init__(self, context, url: str, name: str) -> None:
        self.name = name
        self.page = context.new_page()
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        self.page.evaluate(WATCH)

    def seen(self) -> list[float]:
        return self.page.evaluate("window.__changes")

    def answered(self, start: float, end: float) -> list[str]:
        """The live addresses that answered the screen with a body (200) between ``start`` and ``end``."""
        answers = self.page.evaluate("window.__answers")
        return [
            name
            for name, _began, ended, status, *_sizes in answers
            if any(mark in name for mark in LIVE) and status == 200 and start <= ended <= end
        ]

    def polls(self) -> list[float]:
        """When each of its live polls began (ms since the epoch)."""
        return [began for name, began, *_ in self.page.evaluate("window.__answers") if "/live" in name]


def measure(base: str, deals: int, crowd: int, tmp: Path, seed: int) -> dict[str, tuple[list[float], list[int]]]:
    """Record ``deals`` deals on a fresh night's table at ``base``; each screen's latencies (ms) and bytes."""
    night = api(base, "/api/v1/nights", {"game": "kunken", "tables": [PLAYERS]})
    table = night["tables"][0]
    sid, token = table["id"], table["edit_token"]
    for _ in range(100):
        api(base, f"/api/v1/sessions/{sid}/deals", DEAL, token)
    other = api(base, "/api/v1/sessions", {"game": "kunken", "players": PLAYERS})
    crowd_run = None
    if crowd:
        etag = header(call(f"{base}/s/{other['id']}/live")[2], "ETag")
        script = tmp / "crowd.lua"
        script.write_text(CROWD_LUA.replace("ETAG", etag))
        seconds = int(deals * 4 + 30)
        command = [WRK, "-t2", f"-c{crowd}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script)]
        crowd_run = subprocess.Popen(
            [*command, f"{base}/s/{other['id']}/live"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(3)
    rng = random.Random(seed)
    results: dict[str, tuple[list[float], list[int]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            phone = browser.new_context(**playwright.devices["Pixel 7"], locale="ru-RU")
            tv = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ru-RU")
            screens = [
                Screen(phone, f"{base}/s/{sid}", "a viewer's phone"),
                Screen(tv, f"{base}/s/{sid}/table", "the table screen"),
                Screen(tv, f"{base}/nights/{night['id']}/room", "the room screen"),
            ]
            for screen in screens:
                results[screen.name] = ([], [])
            time.sleep(4)  # every screen polling
            for n in range(deals):
                time.sleep(rng.uniform(0.5, 3.5))
                counts = [len(screen.seen()) for screen in screens]
                sent = time.time() * 1000
                api(base, f"/api/v1/sessions/{sid}/deals", DEAL, token)
                deadline = time.monotonic() + 15
                for screen, count in zip(screens, counts, strict=True):
                    while len(seen := screen.seen()) <= count:
                        if time.monotonic() > deadline:
                            raise RuntimeError(f"{screen.name} did not follow deal {n + 1} within 15 s")
                        screen.page.wait_for_timeout(20)
                    shown = seen[count]
                    latencies, sizes = results[screen.name]
                    latencies.append(shown - sent)
                    sizes.append(sum(wire(url) for url in screen.answered(sent, shown)))
                log(f"  deal {n + 1}: " + ", ".join(f"{results[s.name][0][-1]:.0f} ms" for s in screens))
            for screen in screens:
                began = screen.polls()
                gaps = [b - a for a, b in zip(began, began[1:], strict=False)]
                log(f"  {screen.name}: {len(began)} polls, every {statistics.median(gaps):.0f} ms (median)")
        finally:
            browser.close()
            if crowd_run is not None:
                crowd_run.terminate()
                crowd_run.wait()
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals recorded and measured per tree (default 20)")
    parser.add_argument("--before", default=BEFORE, help=f"the commit measured beside the working tree ({BEFORE})")
    parser.add_argument("--crowd", type=int, default=1000, help="phones polling another session meanwhile (1000)")
    args = parser.parse_args(argv)
    if args.crowd:
        raise_open_files(4096)
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="kunken-live-") as folder:
        tmp = Path(folder)
        trees = [("before", tree_of(args.before, tmp / "before")), ("after", ROOT)]
        for label, root in trees:
            log(f"== {label}: {root}")
            server = Server(tmp / f"{label}.db", label, root=root)
            try:
                results = measure(server.base, args.deals, args.crowd, tmp, seed=48)
            finally:
                problems = server.stop()
            for line in problems[:5]:
                log(f"  server log: {line}")
            for name, (latencies, sizes) in results.items():
                figure = (
                    f"median {statistics.median(latencies):,.0f} ms, p95 {percentile(latencies, 95):,.0f} ms; "
                    f"{statistics.median(sizes):,.0f} B on the wire a deal (median)"
                )
                rows.append((f"{label}: {name}", figure, "≤ 1 s median, ≤ 1.5 s p95; ≤ 2 KB"))
    crowd = f"{args.crowd:,} more phones polling" if args.crowd else "no other phones polling"
    print(f"Kunken scorer, live updates of a 100-deal, 5-player session ({args.deals} deals a tree; {crowd})")
    print_table(rows)


if __name__ == "__main__":
    main()
