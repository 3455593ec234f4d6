"""The package a club installs (issue 46, item 1): the sdist and the wheel ``python -m build`` makes from a clean copy
of the repository, installed with its dependencies into a fresh virtualenv, serve every page in both languages as
``kunken-scorer serve`` from an empty folder, with nothing of the checkout; and where the app keeps its data
(``kunken_scorer/web/paths.py``: ``KUNKEN_DATA_DIR``, systemd's ``STATE_DIRECTORY``, else ``instance/``).

The wheel's test is slow (a build and an install, about a minute): pip fetches the dependencies from the configured
index, through its cache."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from conftest import free_port

from kunken_scorer.web import create_app, paths

ROOT = Path(__file__).resolve().parent.parent
CYRILLIC = re.compile("[А-Яа-яЁё]")
#: the deal of docs/api.md's example, and what it scores
DEAL = {
    "players": [
        {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "meld": 0, "cards": "5♥"}], "hand": ""},
        {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣ JK"},
    ],
    "went_out": "Anna",
    "express": False,
}


# -- where the data lives ------------------------------------------------------------------------------


def test_the_checkout_reads_its_own_files_and_keeps_its_data_in_instance():
    assert not paths.INSTALLED and paths.ROOT == ROOT  # the package has no copy of the files in a checkout
    assert (paths.ROOT / "templates" / "base.html").is_file() and (paths.ROOT / "static" / "style.css").is_file()
    assert paths.data_dir({}) == ROOT / "instance"


def test_an_installed_package_keeps_its_data_in_the_current_folder_unless_told(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert paths.data_dir({}, installed=True) == tmp_path / "instance"
    # systemd's StateDirectory= sets STATE_DIRECTORY (several folders: separated by colons, the first is ours)
    assert paths.data_dir({"STATE_DIRECTORY": "/var/lib/kunken-scorer:/var/lib/other"}, installed=True) == Path(
        "/var/lib/kunken-scorer"
    )
    chosen = {"KUNKEN_DATA_DIR": "club", "STATE_DIRECTORY": "/var/lib/kunken-scorer"}
    assert paths.data_dir(chosen, installed=True) == tmp_path / "club"  # made absolute, as Flask requires
    assert paths.data_dir(chosen, installed=False) == tmp_path / "club"


def test_kunken_data_dir_holds_the_database_and_the_secret_key(tmp_path, monkeypatch):
    monkeypatch.setenv("KUNKEN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("KUNKEN_DATABASE", raising=False)
    monkeypatch.delenv("KUNKEN_SECRET_KEY", raising=False)
    app = create_app({"TESTING": True})
    assert app.config["DATABASE"] == str(tmp_path / "data" / "kunken.db")
    assert (tmp_path / "data" / "kunken.db").is_file()
    assert (tmp_path / "data" / "secret_key").read_text().strip() == app.config["SECRET_KEY"]


# -- the wheel, built from a clean copy and installed in a fresh virtualenv --------------------------------


def clean_copy(target: Path) -> Path:
    """The repository's files as a clone of the working tree would have them: git's tracked files as they are now,
    and the new ones not ignored (the work in progress is not committed yet); nothing built, no .mo, no venv."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is gone from the copy too
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def run(command: list[str], env: dict[str, str], cwd: Path) -> str:
    """Run ``command``; its output, or a failure that shows it."""
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
    return done.stdout


def outside_environment() -> dict[str, str]:
    """This environment without what points into the checkout or the test run: no ``KUNKEN_*`` (the run's own
    compiled catalogs), no ``PYTHONPATH``, no virtualenv."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("KUNKEN_", "PYTHON", "VIRTUAL_ENV")) and name != "STATE_DIRECTORY"
    }


def fetch(url: str, language: str | None = None, data: object = None, token: str | None = None):
    """GET (or POST ``data`` as JSON) ``url``; the status, the headers and the body."""
    headers = {"Accept-Language": language} if language else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = None
    if data is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(data).encode()
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def wait_until_serving(proc: subprocess.Popen[str], base: str) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            pytest.fail(f"kunken-scorer serve exited with {proc.returncode}:\n{proc.communicate()[0]}")
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    pytest.fail("kunken-scorer serve did not answer /api/v1/health within 30 s")


#: The host's paths docs/hosting.md names, and where the guide's commands find them in the test (under its folder).
HOST_PATHS = {
    "/opt/kunken-scorer": "opt/kunken-scorer",
    "/var/lib/kunken-scorer": "var/lib/kunken-scorer",
    "/var/backups/kunken": "var/backups/kunken",
    "/etc/kunken-scorer.env": "etc/kunken-scorer.env",
}
GUIDE_FENCE = re.compile(r"^```(\w*)(?: (\w+))?\s*$")


def guide_blocks(text: str) -> list[tuple[str, str, str]]:
    """docs/hosting.md's fenced blocks with a language: (language, role, text); ``sh install``, ``sh serving`` and
    ``sh stopped`` run (before the service starts, while it serves, once it stopped); ``console`` is only shown."""
    blocks, current, lines = [], None, []
    for line in text.splitlines():
        fence = GUIDE_FENCE.match(line)
        if fence and current is None:
            current, lines = (fence.group(1), fence.group(2) or ""), []
        elif fence and line.strip() == "```":
            if current[0]:
                blocks.append((*current, "\n".join(lines) + "\n"))
            current = None
        elif current is not None:
            lines.append(line)
    return blocks


def on_host(text: str, root: Path) -> str:
    """``text`` with the host's paths moved under ``root``."""
    for host, here in HOST_PATHS.items():
        text = text.replace(host, str(root / here))
    return text


def run_guide(role: str, guide: str, root: Path, env: dict[str, str], cwd: Path) -> str:
    """Run every ``sh <role>`` block of the guide, in order, each with bash -euo pipefail; their output."""
    out = []
    blocks = [text for language, kind, text in guide_blocks(guide) if language == "sh" and kind == role]
    assert blocks, f"docs/hosting.md has no `sh {role}` block"
    for text in blocks:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", on_host(text, root)], env=env, cwd=cwd, capture_output=True, text=True
        )
        said = f"{done.stdout}{done.stderr}"
        assert done.returncode == 0, f"docs/hosting.md's block failed ({done.returncode}):\n{text}\n{said}"
        out.append(done.stdout + done.stderr)
    return "".join(out)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The package as docs/hosting.md installs it: its ``sh install`` blocks run in a clean copy of the repository
    (the wheel built through the sdist, a fresh virtualenv at the guide's /opt/kunken-scorer, moved under this test's
    folder), with nothing of the test run's environment but the ``build`` package on the PATH."""
    if importlib.util.find_spec("build") is None:
        pytest.fail("the `build` package is missing: pip install -r requirements-dev.lock (make test does)")
    work = tmp_path_factory.mktemp("wheel")
    clone = clean_copy(work / "clone")
    for here in HOST_PATHS.values():
        (work / here).parent.mkdir(parents=True, exist_ok=True)
    environment = outside_environment()
    # the guide's `python3 -m build` needs the build package: the test run's virtualenv has it (make test)
    with_build = {**environment, "PATH": f"{Path(sys.executable).parent}:{environment.get('PATH', '')}"}
    guide = (clone / "docs" / "hosting.md").read_text(encoding="utf-8")
    run_guide("install", guide, work, with_build, clone)
    wheels, sdists = sorted((clone / "dist").glob("*.whl")), sorted((clone / "dist").glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in (clone / "dist").iterdir())
    empty = work / "empty"
    empty.mkdir()
    return {
        "venv": work / HOST_PATHS["/opt/kunken-scorer"],
        "wheel": wheels[0],
        "empty": empty,
        "env": environment,
        "guide": guide,
        "root": work,
        "clone": clone,
    }


def test_the_wheel_carries_the_templates_the_static_files_and_the_compiled_catalogs(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for name in ("templates/base.html", "templates/home.html", "static/style.css", "static/sw.js"):
        assert f"kunken_scorer/{name}" in names, f"{name} is not in the wheel"
    assert "kunken_scorer/translations/ru/LC_MESSAGES/messages.mo" in names
    assert not [n for n in names if n.endswith(".po")]  # compiled only: nothing for the start-up check to find stale
    assert "kunken_scorer-0.1.0.dist-info/entry_points.txt" in names
    entry_points = zipfile.ZipFile(installed["wheel"]).read("kunken_scorer-0.1.0.dist-info/entry_points.txt")
    assert b"kunken-scorer = kunken_scorer.cli:main" in entry_points


def test_the_operators_guide_is_installed_where_the_systemd_unit_points(installed):
    """docs/hosting.md goes to <venv>/share/doc/kunken-scorer/ (deploy/kunken-scorer.service's Documentation=)."""
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    guides = [name for name in names if name.endswith("share/doc/kunken-scorer/hosting.md")]
    assert guides == ["kunken_scorer-0.1.0.data/data/share/doc/kunken-scorer/hosting.md"]
    installed_guide = installed["venv"] / "share" / "doc" / "kunken-scorer" / "hosting.md"
    assert installed_guide.read_text(encoding="utf-8") == installed["guide"]
    unit = (ROOT / "deploy" / "kunken-scorer.service").read_text(encoding="utf-8")
    assert "Documentation=file:///opt/kunken-scorer/share/doc/kunken-scorer/hosting.md" in unit


def test_the_installed_package_reads_its_own_files_not_the_checkout(installed):
    """Its code and its files come from the virtualenv's site-packages; the checkout is not on its path."""
    probe = (
        "import json, sys, kunken_scorer.cli, kunken_scorer.web as web; from kunken_scorer.web import paths; "
        "print(json.dumps({'installed': paths.INSTALLED, 'root': str(paths.ROOT), "
        "'catalogs': web.DEFAULTS['BABEL_TRANSLATION_DIRECTORIES'], "
        "'modules': sorted({m.__file__ for n, m in sys.modules.items() "
        "if n.startswith('kunken_scorer') and getattr(m, '__file__', None)})}))"
    )
    python = str(installed["venv"] / "bin" / "python")
    seen = json.loads(run([python, "-c", probe], env=installed["env"], cwd=installed["empty"]))
    site = str(installed["venv"].resolve())
    assert seen["installed"] is True
    assert seen["root"].startswith(site) and seen["root"].endswith("site-packages/kunken_scorer")
    assert seen["catalogs"].startswith(seen["root"])
    assert len(seen["modules"]) > 20 and all(module.startswith(site) for module in seen["modules"])
    assert not any(str(ROOT) in module for module in seen["modules"])


def test_python_m_kunken_scorer_and_the_console_script_answer_help(installed):
    env, empty = installed["env"], installed["empty"]
    module = run([str(installed["venv"] / "bin" / "python"), "-m", "kunken_scorer", "--help"], env=env, cwd=empty)
    script = run([str(installed["venv"] / "bin" / "kunken-scorer"), "--help"], env=env, cwd=empty)
    assert module == script
    assert "serve" in script and "backup" in script and "--port" in script
    serve = run([str(installed["venv"] / "bin" / "kunken-scorer"), "serve", "--help"], env=env, cwd=empty)
    assert "--host" in serve and "--connections-per-address" in serve


def test_kunken_scorer_serve_from_an_empty_folder_serves_both_languages_and_records_a_deal(installed):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [str(installed["venv"] / "bin" / "kunken-scorer"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        command,
        cwd=installed["empty"],
        env={**installed["env"], "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_until_serving(proc, base)

        status, headers, russian = fetch(f"{base}/", "ru")
        assert status == 200 and b'<html lang="ru"' in russian
        title = re.search(r"<title>([^<]*)</title>", russian.decode()).group(1)
        assert CYRILLIC.search(title), f"the page asked in Russian is not translated (the catalog?): {title!r}"
        status, headers, english = fetch(f"{base}/", "en")
        assert status == 200 and b'<html lang="en"' in english
        title = re.search(r"<title>([^<]*)</title>", english.decode()).group(1)
        assert "Kunken" in title and not CYRILLIC.search(title)

        # the CSS and the JS the page links, each the repository's file and with its type
        styles = re.findall(r'<link[^>]+href="(/static/[^"]+\.css[^"]*)"', english.decode())
        scripts = re.findall(r'<script[^>]+src="(/static/[^"]+\.js[^"]*)"', english.decode())
        assert styles and scripts, "the home page links no CSS or no JS"
        for link, kind in [*((s, "text/css") for s in styles), *((s, "javascript") for s in scripts)]:
            status, headers, body = fetch(base + link)
            assert status == 200 and kind in headers["Content-Type"], f"{link}: {status} {headers['Content-Type']}"
            assert body == (ROOT / link.lstrip("/").split("?")[0]).read_bytes(), f"{link} is not the repository's"

        # a deal recorded through the API and read back (docs/api.md)
        status, _, created = fetch(f"{base}/api/v1/sessions", data={"game": "kunken", "players": ["Anna", "Boris"]})
        assert status == 201, created
        session = json.loads(created)
        status, _, recorded = fetch(
            f"{base}/api/v1/sessions/{session['id']}/deals", data=DEAL, token=session["edit_token"]
        )
        assert status == 201, recorded
        assert json.loads(recorded)["totals"] == {"Anna": 35, "Boris": -5}
        status, _, sheet = fetch(f"{base}/api/v1/sessions/{session['id']}")
        assert status == 200 and len(json.loads(sheet)["deals"]) == 1
        assert json.loads(sheet)["totals"] == {"Anna": 35, "Boris": -5}
    finally:
        proc.terminate()
        try:
            out = proc.communicate(timeout=15)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            out = proc.communicate()[0]
    # the data where an installed package keeps it by default: instance/ in the folder it was started from
    data = installed["empty"] / "instance"
    assert f"database {data / 'kunken.db'}" in out
    assert (data / "kunken.db").is_file() and (data / "secret_key").is_file()


# -- docs/hosting.md, run as written -----------------------------------------------------------------------------

#: What a ``console`` block of the guide may hold: the commands that need the real host (systemd as PID 1, /etc,
#: root's crontab); everything else is an ``sh`` block, run here.
HOST_ONLY = ("systemctl ", "journalctl ", "cp deploy/", "0 3 * * * ")
#: Caddy in front, as the guide's Caddyfile makes it send each phone's request (the unit trusts 127.0.0.1)
THROUGH_CADDY = {"Host": "scores.example.org", "X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}


def the_unit(root: Path, clone: Path) -> tuple[list[str], dict[str, str], Path]:
    """deploy/kunken-scorer.service as systemd reads it: its command, its environment (``Environment=``, then the
    ``EnvironmentFile=``, then ``STATE_DIRECTORY`` from ``StateDirectory=``) and its working folder; host paths
    moved under ``root``."""
    unit = on_host((clone / "deploy" / "kunken-scorer.service").read_text(encoding="utf-8"), root)
    settings = dict(re.findall(r"^(\w+)=(.*)$", unit, re.MULTILINE))  # the last of each kind
    environment = dict(line.split("=", 1) for line in re.findall(r"^Environment=(.*)$", unit, re.MULTILINE))
    settings_file = Path(settings["EnvironmentFile"].lstrip("-"))
    for line in settings_file.read_text().splitlines() if settings_file.exists() else []:
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            environment[name] = value
    assert settings["StateDirectory"] == "kunken-scorer"
    state = root / HOST_PATHS["/var/lib/kunken-scorer"]
    state.mkdir(parents=True, exist_ok=True)  # what systemd makes for StateDirectory=
    environment["STATE_DIRECTORY"] = str(state)
    return settings["ExecStart"].split(), environment, Path(settings["WorkingDirectory"])


def ask(url: str, data: object = None, token: str | None = None, cookie: str | None = None):
    """A request as Caddy forwards a phone's: the status, the headers and the body."""
    headers = dict(THROUGH_CADDY)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if cookie:
        headers["Cookie"] = cookie
    body = None if data is None else json.dumps(data).encode()
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body else "GET")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer of its own here (the invite link's, with its cookie)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ARG002 -- urllib's signature
        return None


def test_the_hosting_guides_console_blocks_hold_only_what_needs_the_real_host(installed):
    shown = [text for language, _, text in guide_blocks(installed["guide"]) if language == "console"]
    assert shown, "the guide shows no systemctl line"
    for text in shown:
        for line in filter(None, text.splitlines()):
            assert line.startswith(HOST_ONLY), f"docs/hosting.md: {line!r} could run in the test: make it `sh`"
    languages = {language for language, _, _ in guide_blocks(installed["guide"])}
    assert languages <= {"sh", "console", "sql"}, languages


def test_the_hosting_guide_runs_as_written_on_the_service_its_unit_starts(installed):
    """The guide's blocks around the service its unit starts: members on behind https (KUNKEN_PUBLIC_URL from the
    guide's settings file), an invite printed by `kunken-scorer invite` makes a phone a member, a backup while
    serving, SIGTERM stops it with status 0, a restore brings the backup's deals back, an upgrade reinstalls."""
    root, clone, guide = installed["root"], installed["clone"], installed["guide"]
    command, unit_environment, workdir = the_unit(root, clone)
    port = free_port()
    command[command.index("--port") + 1] = str(port)
    base = f"http://127.0.0.1:{port}"
    environment = {**installed["env"], **unit_environment}
    with_build = {**environment, "PATH": f"{Path(sys.executable).parent}:{environment.get('PATH', '')}"}

    def start() -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            command, cwd=workdir, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        wait_until_serving(proc, base)
        return proc

    proc = start()
    try:
        status, _, created = ask(f"{base}/api/v1/sessions", data={"game": "kunken", "players": ["Anna", "Boris"]})
        assert status == 201, created
        session = json.loads(created)
        deals = f"{base}/api/v1/sessions/{session['id']}/deals"
        assert ask(deals, data=DEAL, token=session["edit_token"])[0] == 201
        # members are on behind https: a stranger sees no player; the game's own link still works
        status, _, page = ask(f"{base}/players")
        assert status == 403 and b"Anna" not in page
        assert ask(f"{base}/api/v1/sessions/{session['id']}")[0] == 200

        said = run_guide("serving", guide, root, with_build, clone)
        link = re.search(r"https://scores\.example\.org(/join/\S+)", said)
        assert link, f"`kunken-scorer invite` printed no invite link:\n{said}"
        status, headers, _ = ask(base + link.group(1))
        assert status in (302, 303), status
        cookie = next(c for c in headers.get_all("Set-Cookie") if c.startswith("kunken_member="))
        assert "Secure" in cookie and "HttpOnly" in cookie  # set over https, as Caddy said
        status, _, page = ask(f"{base}/players", cookie=cookie.split(";")[0])
        assert status == 200 and b"Anna" in page  # the same phone, now a member
        backups = root / HOST_PATHS["/var/backups/kunken"]
        assert (backups / "before-upgrade.db").is_file() and len(list(backups.glob("kunken-*.db"))) == 1

        assert ask(deals, data=DEAL, token=session["edit_token"])[0] == 201  # a deal after the backup
        proc.send_signal(signal.SIGTERM)  # systemctl stop
        assert proc.wait(timeout=12) == 0
        assert "SIGTERM: stopping" in proc.communicate()[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

    said = run_guide("stopped", guide, root, with_build, clone)
    assert "Restored" in said and said.rstrip().endswith("ok"), said  # the restore, then the integrity check: ok
    proc = start()  # systemctl start: the backup's one deal, not the two of before the restore
    try:
        status, _, sheet = ask(f"{base}/api/v1/sessions/{session['id']}")
        assert status == 200 and len(json.loads(sheet)["deals"]) == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=12) == 0
        proc.communicate()
