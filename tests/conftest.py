"""Shared fixtures; in CI a skipped test is a failure (nothing may pass by not running)."""

import os
import subprocess
import sys

import pytest


def pytest_configure(config):
    """Compile the stale message catalogs as `make catalogs` does, for a bare `pytest` run.

    The app only reads compiled catalogs and refuses to start without them; `make test` has
    compiled them already, so this does nothing there.
    """
    from kunken_scorer.web import ROOT, stale_catalogs
    for po in stale_catalogs(ROOT / "translations"):
        subprocess.run([sys.executable, "-m", "babel.messages.frontend", "compile", "--domain", "messages",
                        "--locale", po.parent.parent.name, "--input-file", str(po),
                        "--output-file", str(po.with_suffix(".mo"))], check=True)


def pytest_sessionfinish(session, exitstatus):
    """In CI, fail the run when any test was skipped."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if os.environ.get("CI") and reporter is not None and reporter.stats.get("skipped"):
        reporter.write_line("CI: skipped tests are not allowed here; see the skip reasons above.", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# -- app fixtures (a fresh SQLite file per test) ---------------------------------------------

@pytest.fixture
def app(tmp_path):
    """The app on a fresh database file, CSRF on (as in production)."""
    from kunken_scorer.web import create_app
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "kunken.db"),
                       "SECRET_KEY": "test-secret-key-0123456789abcdef"})


@pytest.fixture
def client(app):
    """A test client for ``app``."""
    return app.test_client()


@pytest.fixture
def store(app):
    """The store behind ``app`` (its own connection to the same file)."""
    from kunken_scorer.store import Store
    s = Store.open(app.config["DATABASE"])
    yield s
    s.close()


# -- a real server on loopback and a phone-sized Chromium, for browser tests ----------------

@pytest.fixture
def live_server(app):
    """Serve ``app`` on 127.0.0.1 (a free port) in a daemon thread; yields its base URL."""
    import threading

    from werkzeug.serving import make_server
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium; never a downloaded browser."""
    return {**browser_type_launch_args, "executable_path": "/usr/bin/chromium",
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


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
    """Open phones: ``phones(locale=...)`` is a fresh Pixel 7 context recording every request URL."""
    opened: list = []

    def open_phone(locale: str = "en-US", **extra):
        context = browser.new_context(**playwright.devices["Pixel 7"], locale=locale, **extra)
        context.set_default_timeout(10_000)
        context.requests = []  # every URL this phone asked for
        context.on("request", lambda request: context.requests.append(request.url))
        opened.append(context)
        return context

    yield open_phone
    for context in opened:
        context.close()
