"""Does each cache or hash override pay? Every speed trick switched off in turn, against the same run with all on.

Each variant runs in its own process (so no warm cache leaks between them): the rules core on
400 different five-player deals and on one fixed deal, then the app in-process (the WSGI call
without a server, so only the app's own time counts) for the pages a club night repeats. A
figure is the variant's time over the same work with every trick on, measured in that same
process's own baseline (an empty WSGI request to ``/api/v1/health``), so the ratios hold on a
noisy machine. A trick pays when switching it off makes some figure clearly slower (say > 1.1×).

Run: ``.venv/bin/python benchmarks/bench_tricks.py [TRICK ...] [--rounds N]`` (about half a minute a trick
and round).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a variant that edits the source runs on a patched copy of the package (KUNKEN_BENCH_SOURCE)
sys.path.insert(0, os.environ.get("KUNKEN_BENCH_SOURCE") or str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

#: tricks undone in the source itself (a hash must be what it is when the first dict is built):
#: file -> (text, replacement)
SOURCE_EDITS = {
    "quick_records": (
        "records.py",
        [
            (
                "    made: Any = dataclass(frozen=True)(cls)\n",
                "    return dataclass(frozen=True)(cls)  # type: ignore\n    made: Any\n",
            )
        ],
    ),
    "one_card_each": (
        "cards.py",
        [
            (
                "@dataclass(frozen=True, slots=True, eq=False)\nclass Card(metaclass=_OneOfEach):",
                "@dataclass(frozen=True, slots=True)\nclass Card:",
            ),
        ],
    ),
}

#: trick -> what it is
TRICKS = {
    "none": "every trick on (the reference)",
    "one_card_each": "cards._OneOfEach: one object per card, compared and hashed by identity",
    "interned_rules": "rules._INTERNED: one RuleSet object per stored rule set",
    "meld_checks": "RuleSet.meld_checks: meld verdicts with the table counts they read",
    "windows": "melds._window_table: run windows per size (lru_cache)",
    "parse_cache": "cards: parsed tokens (lru_cache) and texts (cards._TEXTS)",
    "scored": "service._SCORED: stored deals scored once per revision",
    "tally": "service.session_tally: a session's totals kept per version",
    "live_html": "views._rendered_live: the scoreboard HTML per session version (lru_cache)",
    "shared_pages": "views._SHARED_PAGES: home and viewer pages rendered once per version",
    "not_modified": "views._NotModified: the live poll's 304 without werkzeug's header fixing",
    "page_translations": "web.page_translations: the templates' catalog looked up once per request",
    "quick_records": "records.record: frozen dataclasses whose __init__ fills the instance dict at once",
    "raw_body": "api._raw_body: an API body of a plain Content-Length read straight from the WSGI input",
}


def switch_off(trick: str) -> None:
    """Undo one trick in this process, before anything is imported that would keep its effect."""
    import functools

    from kunken_scorer import cards, melds, rules, service
    from kunken_scorer.web import views

    class Forgetful(dict):
        def __setitem__(self, key, value):
            pass

    if trick == "interned_rules":
        rules._INTERNED = Forgetful()
    elif trick == "meld_checks":
        rules.RuleSet.meld_checks = property(lambda self: {})
    elif trick == "windows":
        melds._window_table = functools.partial(melds._window_table.__wrapped__)
    elif trick == "parse_cache":
        cards._parse_token = cards._parse_token.__wrapped__
        cards._TEXTS = Forgetful()
        cards._parse_range = cards._parse_range.__wrapped__
    elif trick == "scored":
        service._SCORED_SIZE = 0
    elif trick == "tally":
        service._remember = lambda tally: tally
    elif trick == "live_html":
        views._rendered_live = views._rendered_live.__wrapped__
    elif trick == "shared_pages":
        views._shared_page = lambda key, render, form_key=None: render()
    elif trick == "not_modified":
        from flask import Response

        views._NotModified = lambda headers: Response(status=304, headers=headers)
    elif trick == "page_translations":
        import flask_babel

        from kunken_scorer import web

        web.page_translations = flask_babel.get_translations
    elif trick == "raw_body":
        from flask import request

        from kunken_scorer.web import api

        api._raw_body = lambda asked: asked.get_data(cache=True)
        api._sent_as_json = lambda _content_type: request.is_json


def measure(trick: str) -> dict:
    """The figures of one variant (run in a fresh process)."""
    switch_off(trick)
    from bench_club import seed_session
    from bench_web import random_deals
    from werkzeug.test import EnvironBuilder

    from kunken_scorer import Deal, RuleSet, evaluate_deal
    from kunken_scorer.store import Store
    from kunken_scorer.web import create_app

    def per_call_us(fn, number: int, rounds: int = 5) -> float:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            for i in range(number):
                fn(i)
            times.append((time.perf_counter() - start) / number * 1e6)
        return statistics.median(times)

    deals = random_deals(400)
    kunken = RuleSet.preset()
    figures = {
        "core: score 400 different deals (parse + evaluate)": per_call_us(
            lambda i: evaluate_deal(Deal.from_dict(deals[i % 400]), kunken), 2000
        )
    }
    db = Path(tempfile.mkdtemp()) / "tricks.db"
    store = Store.open(str(db))
    sid, token = seed_session(store, 100)
    version = store.version(sid)
    store.close()
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "bench", "CREATE_LIMIT": 0})

    def wsgi(path: str, method: str = "GET", body: bytes = b"", headers=None):
        builder = EnvironBuilder(
            path, method=method, data=body or None, headers=headers, content_type="application/json" if body else None
        )
        environ = builder.get_environ()
        raw = body

        def call(_i=0):
            env = dict(environ)
            env["wsgi.input"] = io.BytesIO(raw)
            status = []
            b"".join(app(env, lambda s, h, exc=None: status.append(s)))
            if status[0][:1] not in "23":
                raise RuntimeError(f"{method} {path}: {status[0]}")

        return call

    health = per_call_us(wsgi("/api/v1/health"), 2000)
    bodies = [wsgi("/api/v1/deals/score", "POST", json.dumps(d).encode()) for d in deals]
    live = wsgi(f"/s/{sid}/live")
    rows = {
        "web: POST /api/v1/deals/score": (lambda i: bodies[i % 400](), 800),
        "web: GET /s/<id> (100 deals, viewer)": (wsgi(f"/s/{sid}"), 300),
        "web: GET /s/<id>/live": (live, 800),
        "web: GET /s/<id>/live answering 304": (
            wsgi(f"/s/{sid}/live", headers={"If-None-Match": f'"{version}"'}),
            2000,
        ),
        "web: GET / (home)": (wsgi("/"), 300),
        "web: GET /players": (wsgi("/players"), 300),
        "web: GET /s/<id>/summary": (wsgi(f"/s/{sid}/summary"), 100),
        "web: GET /api/v1/sessions/<id>": (wsgi(f"/api/v1/sessions/{sid}"), 200),
    }
    for name, (fn, number) in rows.items():
        figures[name] = per_call_us(fn, number) / health
    # recording: 100 more deals on the 100-deal session, one after another (each changes the version)
    auth = {"Authorization": f"Bearer {token}"}
    posts = [
        wsgi(
            f"/api/v1/sessions/{sid}/deals", "POST", json.dumps({**d, "override": True, "note": "bench"}).encode(), auth
        )
        for d in deals[:100]
    ]
    figures["web: POST /api/v1/sessions/<id>/deals"] = per_call_us(lambda i: posts[i % 100](), 100, rounds=1) / health
    figures["health µs"] = health
    return figures


def patched_copy(trick: str) -> str:
    """A copy of the package with ``trick`` undone in its source; the directory to put on sys.path."""
    top = Path(tempfile.mkdtemp())
    shutil.copytree(ROOT / "kunken_scorer", top / "kunken_scorer", ignore=shutil.ignore_patterns("__pycache__"))
    for link in ("templates", "static", "translations"):
        (top / link).symlink_to(ROOT / link)
    name, edits = SOURCE_EDITS[trick]
    path = top / "kunken_scorer" / name
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        if old not in text:
            raise SystemExit(f"{trick}: the source no longer has {old!r}")
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return str(top)


def run_variant(trick: str) -> dict:
    """The figures of one variant, measured in a fresh process."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if trick in SOURCE_EDITS:
        env["KUNKEN_BENCH_SOURCE"] = patched_copy(trick)
    out = subprocess.run([sys.executable, __file__, "--one", trick], capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode:
        raise SystemExit(f"{trick}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """``bench_tricks.py [TRICK ...] [--rounds N]``: each trick against a reference measured right beside it."""
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--one":
        print(json.dumps(measure(args[1])))
        return
    rounds = 1
    if "--rounds" in args:
        at = args.index("--rounds")
        rounds = int(args[at + 1])
        del args[at : at + 2]
    only = [t for t in (args or list(TRICKS)) if t != "none"]
    # Each variant is paired with a reference run just before or after it (the order alternates by round), and
    # the median of its rounds' ratios counts: these machines drift over minutes, and a pair shares the drift.
    ratios: dict[str, list[dict[str, float]]] = {trick: [] for trick in only}
    reference: dict = {}
    for round_ in range(rounds):
        for trick in only:
            pair = ["none", trick] if round_ % 2 == 0 else [trick, "none"]
            measured = {name: run_variant(name) for name in pair}
            reference = measured["none"]
            ratios[trick].append({n: measured[trick][n] / reference[n] for n in reference if n != "health µs"})
            print(f"measured {trick} (round {round_ + 1}/{rounds})", file=sys.stderr)
    names = [n for n in reference if n != "health µs"]
    print(f"{'trick switched off':28} " + " ".join(f"{n.split(': ')[1][:18]:>18}" for n in names))
    for trick, runs in ratios.items():
        print(f"{trick:28} " + " ".join(f"{statistics.median(r[n] for r in runs):17.2f}×" for n in names))
    print(
        "\nreference (every trick on, the last one measured): core µs per deal "
        f"{reference[names[0]]:.0f}; web figures × health ({reference['health µs']:.0f} µs): "
        + ", ".join(f"{n.split(': ')[1]} {reference[n]:.2f}" for n in names[1:])
    )


if __name__ == "__main__":
    main()
