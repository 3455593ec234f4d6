"""Shared fixtures and helpers of the tests, and two checks on every run.

- In CI a skipped test is a failure (nothing may pass by not running).
- No test writes into the repository: the run keeps Hypothesis's files and the compiled message
  catalogs in a temporary folder, every app gets its database under ``tmp_path`` and a secret key,
  and the run fails when it leaves a new file (or folder) in the clone.

The helpers are plain functions; test files import them with ``from conftest import ...``.
"""

from __future__ import annotations

import faulthandler
import gc
import html as htmllib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

import greenlet
import pytest
from axe_playwright_python.sync_playwright import Axe
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from werkzeug.serving import make_server

from kunken_scorer import Card, Rank, RuleSet, Suit
from kunken_scorer.store import Store
from kunken_scorer.web import create_app
from kunken_scorer.web.forms import switch_values

ROOT = Path(__file__).resolve().parent.parent
#: Folders the no-writes check leaves out: git's own, a virtualenv made in the clone (`make test`),
#: Python's bytecode caches and pytest's cache (pytest itself writes that, not a test; gitignored).
NOT_CHECKED = {".git", ".venv", "__pycache__", ".pytest_cache"}


# -- a test that stalls ends its worker, saying where it stood ---------------------------------------

#: seconds a test may take, its fixtures included (the longest, the header of every page at three widths in two
#: languages, takes about a minute on two CPUs)
STALL = int(os.environ.get("KUNKEN_TEST_STALL", "300"))


def where_everything_stands(out) -> None:
    """Every thread's stack, then every suspended greenlet's (a Playwright test waits in one: the driver's loop
    runs in another, so a thread's stack alone does not show the test's line)."""
    faulthandler.dump_traceback(file=out)
    for found in gc.get_objects():
        if isinstance(found, greenlet.greenlet) and found.gr_frame is not None:
            print("\nA greenlet, suspended at:", file=out)
            traceback.print_stack(found.gr_frame, file=out)
    out.flush()


@pytest.fixture(autouse=True)
def stall_guard(request):
    """A test past :data:`STALL` seconds stalls the whole run (a promise that never settles, a page waiting for
    nothing): its worker says where it stands on stderr and exits, so the run fails there instead of hanging."""

    def stalled() -> None:
        # pytest holds the test's stderr in a file, lost with the worker: give the run's own stderr back first
        capture = request.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(in_=False)
        print(f"\n{request.node.nodeid} has run {STALL} s: it stalled. Where it stands:", file=sys.stderr)
        where_everything_stands(sys.stderr)
        os._exit(3)

    timer = threading.Timer(STALL, stalled)
    timer.daemon = True
    timer.start()
    yield
    timer.cancel()


# -- a run writes nothing into the repository -----------------------------------------------------


def repository_files(root: Path = ROOT) -> set[str]:
    """Every file and folder under ``root`` (folders end in ``/``), leaving out :data:`NOT_CHECKED`
    and the screenshot folder ``KUNKEN_SHOTS`` a developer may ask for."""
    shots = os.environ.get("KUNKEN_SHOTS")
    skipped = Path(shots).resolve() if shots else None
    found: set[str] = set()
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in NOT_CHECKED and Path(folder, d).resolve() != skipped)
        relative = Path(folder).relative_to(root)
        found.update(f"{relative / d}/" for d in dirs)
        found.update(str(relative / name) for name in names)
    return found


def new_files(before: set[str], after: set[str]) -> list[str]:
    """What is in ``after`` and was not in ``before``, sorted."""
    return sorted(after - before)


def pytest_configure(config):
    """Point whatever the run would write beside the code at a temporary folder."""
    config.addinivalue_line(
        "markers", 'lang(code): the language cookie of the `client` fixture ("en"), or None for none'
    )
    scratch = Path(tempfile.mkdtemp(prefix="kunken-tests-"))
    config._kunken_scratch = scratch
    # Hypothesis keeps its example database and a cache of constants in ./.hypothesis otherwise.
    set_hypothesis_home_dir(scratch / "hypothesis")
    settings.register_profile("kunken-tests", database=None)
    settings.load_profile("kunken-tests")
    # The app reads compiled catalogs (`make catalogs` writes them beside the .po files): the run
    # compiles its own copy, which every app and every `python app.py` a test starts (they
    # inherit the environment) reads, so a bare `pytest` needs no make and writes nothing here.
    catalogs = scratch / "translations"
    shutil.copytree(ROOT / "translations", catalogs, ignore=shutil.ignore_patterns("*.mo"))
    for po in catalogs.glob("*/LC_MESSAGES/messages.po"):
        with po.open("rb") as source:
            catalog = read_po(source)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)
    config._kunken_environ = os.environ.get("KUNKEN_BABEL_TRANSLATION_DIRECTORIES")
    os.environ["KUNKEN_BABEL_TRANSLATION_DIRECTORIES"] = str(catalogs)


def pytest_sessionstart(session):
    session.config._kunken_files = repository_files()


def pytest_sessionfinish(session):
    """In CI, fail the run when any test was skipped; anywhere, when the run left files in the clone."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if os.environ.get("CI") and reporter is not None and reporter.stats.get("skipped"):
        reporter.write_line("\nCI: skipped tests are not allowed here; see the skip reasons above.", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    before = getattr(session.config, "_kunken_files", None)
    left = new_files(before, repository_files()) if before is not None else []
    if left:
        if reporter is not None:
            reporter.write_line(f"\nThe tests wrote into the repository {ROOT}: " + ", ".join(left), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    scratch = getattr(config, "_kunken_scratch", None)
    if scratch is None:
        return
    if config._kunken_environ is None:
        os.environ.pop("KUNKEN_BABEL_TRANSLATION_DIRECTORIES", None)
    else:
        os.environ["KUNKEN_BABEL_TRANSLATION_DIRECTORIES"] = config._kunken_environ
    shutil.rmtree(scratch, ignore_errors=True)


# -- app fixtures (a fresh SQLite file per test) ---------------------------------------------


@pytest.fixture
def app(tmp_path):
    """The app on a fresh database file, CSRF on (as in production)."""
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "kunken.db"), "SECRET_KEY": "test-secret-key-0123456789abcdef"}
    )


@pytest.fixture
def client(app, request):
    """A test client for ``app``; under ``@pytest.mark.lang("en")`` (on the test or its module) it
    has the language cookie set, like :func:`phone`; ``lang(None)`` is a client without it."""
    marker = request.node.get_closest_marker("lang")
    test_client = app.test_client()
    if marker is not None and marker.args[0]:
        test_client.set_cookie("lang", marker.args[0])
    return test_client


@pytest.fixture
def store(app):
    """The store behind ``app`` (its own connection to the same file)."""
    s = Store.open(app.config["DATABASE"])
    yield s
    s.close()


# -- a real server on loopback and a phone-sized Chromium, for browser tests ----------------


@pytest.fixture
def live_server(app):
    """Serve ``app`` on 127.0.0.1 (a free port) in a daemon thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (when asked)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app_py(db: Path, port: int, env: dict | None = None, **popen) -> subprocess.Popen:
    """Start ``python app.py`` (what `make run` starts) on 127.0.0.1:``port`` with its database at
    ``db`` and the links it prints pointing at that address; ``env`` adds or changes variables,
    ``popen`` goes to :class:`subprocess.Popen` (the output goes nowhere unless it says where).
    The server is not answering yet when this returns."""
    environment = {
        **os.environ,
        "KUNKEN_DATABASE": str(db),
        "KUNKEN_SECRET_KEY": "x" * 40,
        "KUNKEN_PUBLIC_URL": f"http://127.0.0.1:{port}",
        **(env or {}),
    }
    return subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)],
        env=environment,
        **{"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, **popen},
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium; never a downloaded browser."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, playwright):
    """Every page is a Pixel 7 phone."""
    return {**browser_context_args, **playwright.devices["Pixel 7"]}


@pytest.fixture
def server(app, live_server):
    """The live server, with the links the app prints (viewer, scorer) pointing at it.

    Without KUNKEN_PUBLIC_URL the app prints the machine's LAN address, which a server bound to
    127.0.0.1 does not answer on; setting it is what a deployment behind a known address does.
    """
    app.config["PUBLIC_URL"] = live_server
    return live_server


@pytest.fixture
def phones(browser, playwright):
    """Open phones: ``phones(locale=...)`` is a fresh Pixel 7 context recording every request URL (``extra`` changes
    the context: ``viewport=`` a narrower phone, ``color_scheme=``)."""
    opened: list = []

    def open_phone(locale: str = "en-US", **extra):
        context = browser.new_context(**{**playwright.devices["Pixel 7"], "locale": locale, **extra})
        context.set_default_timeout(10_000)
        context.requests = []  # every URL this phone asked for
        context.on("request", lambda request: context.requests.append(request.url))
        opened.append(context)
        return context

    yield open_phone
    for context in opened:
        close_phone(context)


def close_phone(context) -> None:
    """Close a browser context, each of its pages leaving the app first (bounded, like every step): a page that
    reloads itself (a seat's page when its deal is recorded) while its context is disposed came back under its
    service worker and kept polling, and Chromium then took from 40 s to for ever to dispose of the context."""
    for page in context.pages:
        try:
            page.goto("about:blank", timeout=5_000)
        except PlaywrightError:
            pass  # closed already, or stuck: closing the context closes it
    context.close()


# -- the table's pages through the test client ----------------------------------------------------

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def at_once(database: str, count: int, work) -> list:
    """``work(store)`` run by ``count`` threads at the same moment, each with a connection of its own to the file
    (``count`` phones' requests arriving together); what each returned, in the order they finished."""
    barrier, done = threading.Barrier(count), []

    def one() -> None:
        store = Store.open(str(database))
        try:
            barrier.wait()
            done.append(work(store))
        finally:
            store.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(done) == count, "a thread failed: see its exception above"
    return done


def phone(app):
    """A test client reading the pages in English (the messages these tests look for)."""
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def text(response) -> str:
    return response.get_data(as_text=True)


def csrf_from(client, url: str = "/") -> str:
    """A CSRF token as a browser gets it: from a form on a page."""
    response = client.get(url)
    assert response.status_code == 200, url
    return CSRF.search(text(response))[1]


def hidden(page: str, name: str) -> str:
    return htmllib.unescape(re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)[1])


def rule_fields(game: str = "kunken") -> dict:
    """The house-rule switches as a browser posts them, left at ``game``'s defaults."""
    data = {}
    for name, value in switch_values(game).items():
        if isinstance(value, bool):
            if value:
                data[f"rules-{name}"] = "y"
        else:
            data[f"rules-{name}"] = str(value)
    return data


def start_fields(token: str, players=("Anna", "Boris"), game="kunken", shown=None, **fields) -> dict:
    """The home page's start form as a phone posts it: the CSRF ``token``, ``game``, ``players`` and
    the house-rule switches left at ``shown``'s defaults (``game``'s unless given); ``fields`` added
    or changed (``**{"rules-wild_card": "JK"}`` for the names with a dash)."""
    shown = shown or game
    data = {"csrf_token": token, "game": game, "defaults_for": shown, "create": "1", **rule_fields(shown)}
    data.update({f"players-{i}": name for i, name in enumerate(players)})
    data.update(fields)
    return data


def start(client, players=("Anna", "Boris"), game="kunken", shown="kunken", target=None, **extra) -> str:
    """Start a session from the home page; return its id (this client becomes the scorer)."""
    data = start_fields(csrf_from(client), players, game, shown, create="Start", target_kind="", target_value="")
    if target:
        data["target_kind"], data["target_value"] = target
    data.update(extra)
    response = client.post("/sessions", data=data)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def deal_data(page: str, players: dict, went_out: str = "", **flags) -> dict:
    """A deal form filled in: ``players`` maps seat index to (melds, vists, hand)."""
    data = {
        "csrf_token": hidden(page, "csrf_token"),
        "form_key": hidden(page, "form_key"),
        "expected": hidden(page, "expected"),
        "went_out": went_out,
    }
    if 'name="hand_mode"' in page:  # the session's way of entering hands, as the page carries it
        data["hand_mode"] = hidden(page, "hand_mode")
    for i, (melds, vists, hand) in players.items():
        data[f"players-{i}-melds"] = melds
        data[f"players-{i}-vists"] = vists
        data[f"players-{i}-hand"] = hand
    for key, value in flags.items():
        if value is True:
            data[key] = "y"
        elif value:
            data[key] = value
    return data


GOOD = {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}  # Anna +35, Boris -5


def record(client, sid: str, players=GOOD, went_out="Anna", button="save", **flags):
    page = text(client.get(f"/s/{sid}/deals/new"))
    return client.post(f"/s/{sid}/deals/new", data={**deal_data(page, players, went_out, **flags), button: "1"})


def totals(page: str) -> dict:
    """The scoreboard's totals by player, read from its DOM hooks."""
    rows = re.findall(r'<tr data-player="([^"]*)" class="standing[^"]*">.*?data-total="(-?\d+)"', page, re.S)
    return {htmllib.unescape(name): int(total) for name, total in rows}


SWAP_FORM = {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "15", "Anna 1: K♦")}


def swap_data(page: str, players: dict, went_out: str = "", **flags) -> dict:
    """``players``: seat -> (melds, vists, hand, swaps)."""
    data = deal_data(page, {i: p[:3] for i, p in players.items()}, went_out, **flags)
    for i, p in players.items():
        data[f"players-{i}-swaps"] = p[3]
    return data


def submit(client, sid: str, players: dict, went_out: str = "", button: str = "save", url: str = None, **flags):
    url = url or f"/s/{sid}/deals/new"
    page = text(client.get(url))
    return client.post(url, data={**swap_data(page, players, went_out, **flags), button: "1"})


# -- the rules desk -------------------------------------------------------------------------------

DESK = "/rules/desk"


def desk_token(client, url: str = DESK, headers=None) -> str:
    """The CSRF token from the rules desk's forms (the page must load)."""
    response = client.get(url, headers=headers or {})
    assert response.status_code == 200, (url, response.status_code)
    match = re.search(r'name="[a-z]+-csrf_token" type="hidden" value="([^"]+)"', text(response))
    assert match, "no CSRF field on the page"
    return match.group(1)


def ask_desk(client, question: str, url: str = DESK, headers=None, **fields):
    """Post one of the desk's questions (``meld``, ``swap``, ...; field names without the prefix)
    and return the response."""
    data = {f"{question}-csrf_token": desk_token(client, url, headers)}
    data.update({f"{question}-{name}": value for name, value in fields.items()})
    data[f"{question}-submit"] = "go"
    return client.post(url, data=data, headers=headers or {})


# -- the JSON API ---------------------------------------------------------------------------------

API = "/api/v1"


DEAL = {
    "game": "kunken",
    "players": [
        {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "meld": 0, "cards": "5♥"}], "hand": ""},
        {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣ JK"},
    ],
    "went_out": "Anna",
    "express": False,
}


def new_session(client, players=("Anna", "Boris"), **extra):
    response = client.post(f"{API}/sessions", json={"players": list(players), **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def auth(session, **headers):
    return {"Authorization": f"Bearer {session['edit_token']}", **headers}


def post_deal(client, session, body=DEAL, key=None, if_match=None):
    """Record a deal with the session's token, optionally an Idempotency-Key and If-Match."""
    headers = auth(session)
    if key is not None:
        headers["Idempotency-Key"] = key
    if if_match is not None:
        headers["If-Match"] = if_match
    return client.post(f"{API}/sessions/{session['id']}/deals", json=body, headers=headers)


SWAP_DEAL = {
    "players": [
        {"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": ""},
        {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": {"points": 15, "jokers": 0}},
    ],
    "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}],
    "went_out": "Anna",
}


# -- the rules core ---------------------------------------------------------------------------------


def kunken(**switches):
    return RuleSet.for_game("kunken", switches)


def ordered(**switches):
    return RuleSet.for_game("ordered-rummy", switches)


#: Hypothesis strategies: cards, and rule sets with any switches.
naturals = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))


jokers = st.one_of(st.just(Card.joker()), naturals.map(Card.joker))


cards = st.one_of(naturals, jokers)


switches = st.fixed_dictionaries(
    {},
    optional={
        "joker_limit": st.sampled_from(["half", "two", "one", "minority"]),
        "ace_low": st.booleans(),
        "wrap": st.booleans(),
        "no_adjacent_jokers": st.booleans(),
    },
)


rule_sets = st.builds(RuleSet.for_game, st.sampled_from(["kunken", "ordered-rummy"]), switches)


# -- phones in a browser ------------------------------------------------------------------------

PLAYERS = ["Anna", "Boris", "Vera"]


#: The table of the reference deal (entered on one phone in test_browser_entry.py, on three in
#: test_browser_seats.py).
REFERENCE_PLAYERS = ["Анна", "Борис", "Вера", "Гоша"]


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# -- helpers -------------------------------------------------------------------------------------


def tap_and_wait(page: Page, target) -> None:
    """Tap something that navigates, and wait for the new page (``tap`` alone does not wait)."""
    locator = page.locator(target) if isinstance(target, str) else target
    with page.expect_navigation():
        locator.tap()


def total(page: Page, name: str):
    """The running-total cell of a player on the session page."""
    return page.locator(f'#totals tr[data-player="{name}"] .total')


def expect_totals(page: Page, totals: dict, count: int, timeout: int = 5_000) -> None:
    """The session page shows these totals and this deal count (waiting for the live update)."""
    for name, value in totals.items():
        expect(total(page, name)).to_have_attribute("data-total", str(value), timeout=timeout)
        expect(total(page, name)).to_have_text(re.compile(rf"^\s*{'[−-]' if value < 0 else ''}{abs(value)}\s*$"))
    expect(page.locator("#deal-count")).to_have_attribute("data-count", str(count), timeout=timeout)


def start_session(page: Page, base: str, players=PLAYERS, hand_entry: str = "cards") -> str:
    """Create a Kunken session on the home page, hands entered card by card (``hand_entry``); returns the
    session page URL."""
    page.goto(base + "/")
    for i, name in enumerate(players):
        page.locator(f"#players-{i}").fill(name)
    page.locator("#hand_entry").select_option(hand_entry)
    page.locator("#target_kind").select_option("deals")
    page.locator("#target_value").fill("10")
    tap_and_wait(page, "#create")
    expect(page.locator("p.flash")).to_be_visible()
    expect(page.locator("#record-deal")).to_be_visible()
    assert re.search(r"/s/[^/]+$", page.url), page.url
    return page.url


def start_on_phone(page: Page, base: str, players: list[str], hand_entry: str, game: str = "kunken") -> str:
    """Start a session on the home page (not counted: the evening's setup, not a deal)."""
    page.goto(base + "/")
    page.locator("#game").select_option(game)
    for i, name in enumerate(players):
        page.locator(f"#players-{i}").fill(name)
    page.locator("#hand_entry").select_option(hand_entry)
    tap_and_wait(page, "#create")
    expect(page.locator("#record-deal")).to_be_visible()
    return page.url


def set_hand_entry(page: Page, session_url: str, mode: str) -> None:
    """The scorer changes how the table enters hands, in the session page's settings (not counted)."""
    page.goto(session_url)
    page.locator("#hand-entry-panel > summary").tap()
    page.locator(f"#hand-entry-{mode}").check()
    tap_and_wait(page, "#set-hand-entry")
    expect(page.locator("p.flash")).to_be_visible()


def start_reference_session(phones, base: str, hand_entry: str = "points") -> tuple[Page, str]:
    """A Russian phone starts the reference deal's session, hands in points (or ``hand_entry``): its page and
    the session URL."""
    page = phones(locale="ru-RU").new_page()
    return page, start_on_phone(page, base, REFERENCE_PLAYERS, hand_entry)


def close_keypad(page: Page) -> None:
    """Put the keypad away so it covers no button."""
    if page.locator("#keypad").is_visible():
        page.locator('#keypad [data-action="close"]').tap()
        expect(page.locator("#keypad")).to_be_hidden()


def quiet(page: Page) -> None:
    """The deal form's live check has nothing pending or running, so the page no longer moves."""
    page.wait_for_function("""() => {
        const f = document.getElementById('deal-form') || document.getElementById('part-form');
        return !f || (!f.hasAttribute('data-pending') && f.getAttribute('data-checking') !== 'true'); }""")


def show_field(page: Page, field_id: str):
    """The field, on screen: one player per screen, so go to its player's tab first."""
    quiet(page)
    field = page.locator(f"#{field_id}")
    seat = re.match(r"players-(\d+)-", field_id)
    if seat and not field.is_visible():
        page.locator(f"#seat-tab-{seat[1]}").tap()
        expect(field).to_be_visible()
    return field


def fill(page: Page, field_id: str, text: str) -> None:
    """Type into a field as with the phone's keyboard (the tests that are not about the keypad)."""
    show_field(page, field_id).fill(text)


def open_deal_form(page: Page, link) -> None:
    """Go from the session page to a deal form and wait for its keypad script."""
    tap_and_wait(page, link)
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")


def ready(page: Page) -> None:
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")


def settled(page: Page) -> None:
    """The live check has answered the last change."""
    quiet(page)
    expect(page.locator("#deal-form")).to_have_attribute("data-checking", "false")


def check(page: Page) -> None:
    """Tap Check and wait for the preview."""
    close_keypad(page)
    quiet(page)
    tap_and_wait(page, "#check")
    expect(page.locator("#preview")).to_be_visible()
    expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")


def check_deal(page: Page, fields: dict, went_out: str, type_in=fill) -> None:
    """On the open deal form: type each field's cards (field id -> text) with ``type_in`` (the
    phone's keyboard unless given), choose who went out, tap Check and wait for the preview."""
    for field_id, cards in fields.items():
        type_in(page, field_id, cards)
    page.locator("#went_out").select_option(went_out)
    check(page)


def expect_preview(page: Page, scores: dict) -> None:
    """The preview shows each player's (plus, minus, score)."""
    expect(page.locator("#preview")).to_have_attribute("data-valid", "true")
    for name, (plus, minus, score) in scores.items():
        row = page.locator(f'#preview-scores tr[data-player="{name}"]')
        expect(row.locator(".plus")).to_have_attribute("data-plus", str(plus))
        expect(row.locator(".minus")).to_have_attribute("data-minus", str(minus))
        expect(row.locator(".score")).to_have_attribute("data-score", str(score))


def save(page: Page, flash: str) -> None:
    """Tap Save; the phone goes back to the session page with a message."""
    close_keypad(page)
    quiet(page)
    tap_and_wait(page, "#save")
    assert re.search(r"/s/[^/]+$", page.url), f"Save did not return to the session page: {page.url}"
    expect(page.locator("p.flash")).to_contain_text(flash)


#: axe-core's rules of WCAG 2.1 AA, the level every page passes
WCAG_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
AXE_SCRIPT = Axe().axe_script
#: how long one axe-core run may take (ms); a page of a 100-deal session takes about 2 s
AXE_RUN = 30_000


def axe_violations(page: Page) -> list[str]:
    """axe-core's WCAG 2.1 AA violations of the page as it is, each as "rule: the first element it names".

    ``axe.run``'s promise has been seen to never settle (a page swapping its live parts under it; a known kind of
    axe-core hang), and ``page.evaluate`` waits for it without a limit: the run is started in the page and waited
    for with ``wait_for_function``, which the driver times out. A run that has not finished is started once more;
    a second one that does not finish fails the test, saying so, instead of stalling the whole run."""
    for _ in range(2):
        page.evaluate(AXE_SCRIPT)
        page.evaluate(
            """(options) => { window.__axe = null;
                axe.run(document, options).then(r => { window.__axe = r; },
                                                 e => { window.__axe = {error: String(e)}; }); }""",
            WCAG_AA,
        )
        try:
            page.wait_for_function("() => window.__axe !== null", polling=100, timeout=AXE_RUN)
        except PlaywrightTimeout:
            continue
        result = page.evaluate("() => window.__axe")
        assert "error" not in result, result["error"]
        return [f"{v['id']}: {v['nodes'][0]['html'][:120]}" for v in result["violations"]]
    raise AssertionError(f"axe-core did not finish on {page.url} in two runs of {AXE_RUN // 1000} s")


def no_horizontal_overflow(page: Page) -> None:
    """Nothing sticks out sideways on the phone's screen.

    In mobile emulation ``window.innerWidth`` grows with content that overflows (the page gets
    zoomed out), so ``scrollWidth <= innerWidth`` alone always holds; the screen's width is the
    layout viewport's ``clientWidth`` (412 CSS pixels on a Pixel 7), and innerWidth must equal it.
    """
    width, inner, screen = page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth, document.documentElement.clientWidth]"
    )
    assert screen == page.viewport_size["width"], (page.url, screen)
    assert width <= screen and inner <= screen, (
        f"{page.url}: the page is {width}px wide (innerWidth {inner}) on a {screen}px screen"
    )


class Taps:
    """Taps on a page, counted."""

    def __init__(self, page: Page):
        self.page = page
        self.count = 0

    def tap(self, target, navigates: bool = False) -> None:
        locator = self.page.locator(target) if isinstance(target, str) else target
        if not (isinstance(target, str) and target.startswith("#keypad")):
            quiet(self.page)  # as a person looks before tapping: the page has stopped moving
        if navigates:
            tap_and_wait(self.page, locator)
        else:
            locator.tap()
        self.count += 1

    def keys(self, *keys: str) -> None:
        """Keypad keys: ranks (``A``, ``10``), suits, ``…``, ``↵``, ``JK``, digits ``d4``."""
        for key in keys:
            if key in "♠♥♦♣":
                selector = f'[data-suit="{key}"]'
            elif key == "…":
                selector = '[data-action="range"]'
            elif key == "↵":
                selector = '[data-action="newline"]'
            elif key == "JK":
                selector = '[data-joker="JK"]'
            elif key == "hJK":
                selector = "[data-hand-joker]"
            elif key.startswith("d"):
                selector = f'[data-digit="{key[1:]}"]'
            else:
                selector = f'[data-rank="{key}"]'
            self.tap(f"#keypad {selector}")

    def pick(self, insert: str, kind: str = "vists") -> None:
        """A vist or swap target from the keypad's list of what is on the table."""
        self.tap(self.page.locator(f'#keypad .key.name[data-kind="{kind}"][data-insert="{insert}"]'))


def part_ready(page: Page) -> None:
    expect(page.locator("#part-form")).to_have_attribute("data-ready", "true")
    expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")


def saved(page: Page, revision: int | None = None) -> None:
    """Every change typed on this phone is stored (the answer to the last save has come back)."""
    quiet(page)
    expect(page.locator("#part-form")).to_have_attribute("data-checking", "false")
    if revision is not None:
        expect(page.locator("#saved-state")).to_have_attribute("data-revision", str(revision))


def take_seat(page: Page, session_url: str, seat: int) -> None:
    """Open the viewer link and say "this is me" (once an evening: not counted)."""
    page.goto(session_url)
    tap_and_wait(page, f"#take-seat-{seat}")
    part_ready(page)


def shots_dir(tmp_path: Path) -> Path:
    """Where the screenshots go: ``KUNKEN_SHOTS`` when set (to look at them), else the test's folder."""
    folder = Path(os.environ.get("KUNKEN_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
