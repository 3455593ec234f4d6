"""A club's data is its members' (issue 46, item 6), and a night's owner link made anew.

Through the Flask test client on a real SQLite file (and, for ``kunken-scorer invite``, the command in a subprocess
and the real server of ``app.py`` on loopback): with members on, a stranger sees no player's name on the home page,
the players, head to head, a night or the API's answers about them, and is told why (403); the same phone, once it
has opened an invite link, sees them; a session's own links work for anyone; a new club key ends every membership
and every invite; members off changes nothing; the setting's default follows ``KUNKEN_PUBLIC_URL``.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import API, CSRF, ROOT, at_once, csrf_from, free_port, start_app_py, text
from test_docs import API_MD, mismatches

from kunken_scorer.service import members
from kunken_scorer.service.background import StartupError
from kunken_scorer.store import Store
from kunken_scorer.web import create_app

#: Names no page says on its own, so finding one in a page means the page shows the club's data.
PLAYERS = ["Zinaida", "Yaroslav"]
TABLES = [["Quentin", "Ulyana"], ["Wenceslas", "Xenia"]]
NAMES = PLAYERS + [n for t in TABLES for n in t]
MEMBERS_ONLY_WORDS = "for the club's members; ask a member for an invite link"
DEAL = {
    "players": [{"name": "Zinaida", "melds": ["A♠ A♥ A♦"], "hand": ""}, {"name": "Yaroslav", "hand": "5♦"}],
    "went_out": "Zinaida",
}


def make_app(tmp_path: Path, **config) -> object:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "kunken.db"),
            "SECRET_KEY": "test-secret-key-0123456789abcdef",
            **config,
        }
    )


def english(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def played(app) -> dict:
    """A session with a deal recorded and ended (so it is rated), and a night of two tables: the club's data."""
    client = english(app)
    session = client.post(f"{API}/sessions", json={"players": PLAYERS}).get_json()
    bearer = {"Authorization": f"Bearer {session['edit_token']}"}
    assert client.post(f"{API}/sessions/{session['id']}/deals", json=DEAL, headers=bearer).status_code == 201
    assert client.post(f"{API}/sessions/{session['id']}/end", headers=bearer).status_code == 200
    night = client.post(f"{API}/nights", json={"tables": TABLES}).get_json()
    return {"session": session, "night": night}


def club_pages(client, data: dict) -> dict:
    """Every page and answer showing the club's data across sessions, as ``client`` gets it."""
    nid = data["night"]["id"]
    return {
        "/players": client.get("/players"),
        "/players?all=1": client.get("/players?all=1"),
        "/players/h2h": client.get("/players/h2h?a=Zinaida&b=Yaroslav"),
        "night": client.get(f"/nights/{nid}"),
        "night room": client.get(f"/nights/{nid}/room"),
        "night summary": client.get(f"/nights/{nid}/summary"),
        "night live": client.get(f"/nights/{nid}/live"),
        "api players": client.get(f"{API}/players"),
        "api h2h": client.get(f"{API}/players/h2h?a=Zinaida&b=Yaroslav"),
        "api night": client.get(f"{API}/nights/{nid}"),
    }


def shows_a_name(response) -> list[str]:
    """The players' names the answer shows (a page's language links repeat the address asked, names and all: a
    stranger's own question is no data of the club's)."""
    body = re.sub(r'href="/lang/[^"]*"', "", text(response))
    return [name for name in NAMES if name in body]


@contextmanager
def opened(app):
    """The store of ``app``'s file, on a connection of its own (as the command line opens it)."""
    store = Store.open(app.config["DATABASE"])
    try:
        yield store
    finally:
        store.close()


def invite_token(app) -> str:
    with opened(app) as store:
        return members.make_invite(store).token


# -- members on: a stranger, then a member ------------------------------------------------------------


def test_a_stranger_sees_no_name_and_is_told_to_ask_for_an_invite(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    data = played(app)
    stranger = english(app)
    home = stranger.get("/")
    assert home.status_code == 200 and shows_a_name(home) == []
    assert "start-form" in text(home) and "recent-members-only" in text(home)  # starting a game stays
    for name, response in club_pages(stranger, data).items():
        assert response.status_code == 403, name
        assert shows_a_name(response) == [], name
        if "api" in name:
            assert response.get_json() == {"error": "This is for the club's members; ask a member for an invite link."}
        else:
            assert MEMBERS_ONLY_WORDS in text(response).replace("&#39;", "'"), name
        assert response.headers["Cache-Control"] in ("private", "no-store"), name
        assert "Cookie" in response.headers.get("Vary", ""), name


def test_after_opening_an_invite_link_the_same_phone_sees_everything(tmp_path):
    app = make_app(tmp_path, MEMBERS="on", PUBLIC_URL="http://127.0.0.1:9")
    data = played(app)
    phone = english(app)
    assert phone.get("/players").status_code == 403
    opened = phone.get(f"/join/{invite_token(app)}")
    assert opened.status_code == 303 and opened.headers["Location"].endswith("/")
    cookie = next(c for c in opened.headers.getlist("Set-Cookie") if c.startswith("kunken_member="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=" in cookie
    assert "Secure" not in cookie  # plain http: a Secure cookie would never come back
    assert opened.headers["Cache-Control"] == "no-store"
    home = phone.get("/")
    assert "This phone is now one of the club's members" in text(home).replace("&#39;", "'")
    assert set(PLAYERS) <= set(shows_a_name(phone.get("/")))  # the recent sessions, now listed
    assert 'id="invite-member"' in text(phone.get("/"))
    pages = club_pages(phone, data)
    for name, response in pages.items():
        assert response.status_code == 200, (name, response.status_code)
    for name in ("/players", "/players/h2h", "api players", "api h2h"):
        assert set(PLAYERS) <= set(shows_a_name(pages[name])), name
    for name in ("night", "night room", "night summary", "api night"):
        assert set(NAMES[2:]) <= set(shows_a_name(pages[name])), name
    assert 'id="invite-nav"' in text(pages["/players"])  # a member is shown the way to invite another


def test_the_member_cookie_is_secure_under_https(tmp_path):
    app = make_app(tmp_path, PUBLIC_URL="https://club.example.org")
    phone = app.test_client()
    opened = phone.get(f"/join/{invite_token(app)}", base_url="https://club.example.org")
    cookie = next(c for c in opened.headers.getlist("Set-Cookie") if c.startswith("kunken_member="))
    assert "Secure" in cookie and "HttpOnly" in cookie


def test_a_members_phone_shows_an_invite_that_makes_another_member(tmp_path):
    app = make_app(tmp_path, MEMBERS="on", PUBLIC_URL="http://club.lan:8000")
    played(app)
    member, other = english(app), english(app)
    assert member.get(f"/join/{invite_token(app)}").status_code == 303
    assert english(app).get("/members/invite").status_code == 403  # a stranger cannot make invites
    page = member.get("/members/invite")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    link = re.search(r'id="invite-link" href="([^"]+)"', text(page))[1]
    assert link.startswith("http://club.lan:8000/join/")
    assert "<svg" in text(page) and "QR code of the invite link" in text(page)
    assert "7 days" in text(page)
    assert other.get("/players").status_code == 403
    assert other.get(link.removeprefix("http://club.lan:8000")).status_code == 303
    assert other.get("/players").status_code == 200


def test_a_sessions_own_links_work_for_a_stranger(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    data = played(app)
    stranger = english(app)
    sid = data["session"]["id"]
    for path in (
        f"/s/{sid}",
        f"/s/{sid}/summary",
        f"/s/{sid}/history",
        f"/s/{sid}/table",
        f"/s/{sid}/export.csv",
        f"/s/{sid}/export.json",
        f"{API}/sessions/{sid}",
        f"{API}/sessions/{sid}/export",
    ):
        response = stranger.get(path)
        assert response.status_code == 200, path
        assert set(PLAYERS) <= set(shows_a_name(response)), path
    # a night's table: its scorer link makes a stranger its scorer, who records a deal and sees the night
    table = data["night"]["tables"][0]
    scorer = english(app)
    assert scorer.get(f"/s/{table['id']}/scorer/{table['edit_token']}").status_code == 303
    assert english(app).get(f"/s/{table['id']}/deals/new").status_code == 403  # the deal form: its scorer's only
    assert scorer.get(f"/s/{table['id']}/deals/new").status_code == 200
    night = scorer.get(f"/nights/{data['night']['id']}")
    assert night.status_code == 200 and set(TABLES[1]) <= set(shows_a_name(night))
    # a seat at the table: the player's phone takes it without being a member
    player = english(app)
    csrf = CSRF.search(text(player.get(f"/s/{table['id']}")))[1]
    assert player.post(f"/s/{table['id']}/seat", data={"csrf_token": csrf, "seat": "1"}).status_code == 303
    assert player.get(f"/s/{table['id']}/draft/1").status_code == 200


def test_the_nights_owner_link_opens_the_night_for_a_stranger(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    data = played(app)
    owner, stranger = english(app), english(app)
    nid, token = data["night"]["id"], data["night"]["edit_token"]
    assert owner.get(f"/nights/{nid}/own/{token}").status_code == 303
    page = owner.get(f"/nights/{nid}")
    assert page.status_code == 200 and "scorer-link" in text(page)
    assert owner.get(f"{API}/nights/{nid}").status_code == 403  # the API wants the token itself, as a Bearer
    with_bearer = stranger.get(f"{API}/nights/{nid}", headers={"Authorization": f"Bearer {token}"})
    assert with_bearer.status_code == 200 and with_bearer.get_json()["tables"][0]["edit_token"]
    assert stranger.get(f"{API}/nights/{nid}", headers={"Authorization": "Bearer not-the-token"}).status_code == 403
    # another table's scorer cookie for another night opens nothing
    other = english(app).post(f"{API}/nights", json={"tables": [["Aa", "Bb"]]}).get_json()
    other_scorer = english(app)
    table = other["tables"][0]
    assert other_scorer.get(f"/s/{table['id']}/scorer/{table['edit_token']}").status_code == 303
    assert other_scorer.get(f"/nights/{nid}").status_code == 403
    assert other_scorer.get(f"/nights/{other['id']}").status_code == 200


# -- the club key, invites refused --------------------------------------------------------------------


def test_a_new_club_key_ends_every_membership_and_every_invite(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    played(app)
    member = english(app)
    old_invite = invite_token(app)
    assert member.get(f"/join/{old_invite}").status_code == 303
    assert member.get("/players").status_code == 200
    with opened(app) as store:
        members.new_club_key(store)
    assert member.get("/players").status_code == 403
    assert member.get(f"{API}/players").status_code == 403
    refused = english(app).get(f"/join/{old_invite}")
    assert refused.status_code == 403
    assert "This invite link is not valid" in text(refused)
    assert not any(c.startswith("kunken_member=") for c in refused.headers.getlist("Set-Cookie"))
    assert member.get(f"/join/{invite_token(app)}").status_code == 303  # a new invite works again
    assert member.get("/players").status_code == 200


@pytest.mark.parametrize(
    "token",
    ["", "1", "9999999999.abc", "x" * 5000, "1.2.3", "%ff", "9999999999.AAAAAAAAAAAAAAAAAAAAAA", "١٢.abc"],
)
def test_a_damaged_invite_is_refused_in_words(tmp_path, token):
    app = make_app(tmp_path, MEMBERS="on")
    response = english(app).get(f"/join/{token}")
    assert response.status_code in (403, 404), response.status_code  # "" is no invite path at all
    if response.status_code == 403:
        assert "This invite link is not valid" in text(response)


def test_an_expired_invite_says_so(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    with opened(app) as store:
        old = members.make_invite(store, now=time.time() - members.INVITE_AGE - 60)
        fresh = members.make_invite(store, now=time.time() - members.INVITE_AGE + 60)
    response = english(app).get(f"/join/{old.token}")
    assert response.status_code == 403 and "This invite link has expired" in text(response)
    assert english(app).get(f"/join/{fresh.token}").status_code == 303  # a minute left: still good


def test_a_forged_member_cookie_is_no_membership(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    played(app)
    forger = english(app)
    for value in ("x", "abc.def", "a" * 500, invite_token(app)):  # an invite token is no member's pass
        forger.set_cookie("kunken_member", value)
        assert forger.get("/players").status_code == 403, value


# -- members off, and the setting --------------------------------------------------------------------


def test_members_off_changes_nothing(tmp_path):
    app = make_app(tmp_path)  # no public address: a LAN server
    assert app.config["MEMBERS"] is False
    data = played(app)
    stranger = english(app)
    home = stranger.get("/")
    assert set(PLAYERS) <= set(shows_a_name(home)) and "recent-members-only" not in text(home)
    for name, response in club_pages(stranger, data).items():
        assert response.status_code == 200, name
    page = stranger.get("/members/invite")
    assert page.status_code == 200 and 'id="members-off"' in text(page) and "invite-link" not in text(page)


@pytest.mark.parametrize(
    ("setting", "public", "on"),
    [
        (None, None, False),
        (None, "http://192.168.1.20:8000", False),
        (None, "https://club.example.org", True),
        (None, " HTTPS://club.example.org/", True),
        ("", "https://club.example.org", True),
        ("off", "https://club.example.org", False),
        ("OFF", "https://club.example.org", False),
        ("on", None, True),
        ("on", "http://192.168.1.20:8000", True),
        (True, None, True),
        (False, "https://x.org", False),
        (1, None, True),
        (0, "https://x.org", False),
    ],
)
def test_the_setting_and_its_default(setting, public, on):
    assert members.members_required(setting, public) is on


def test_the_default_is_on_behind_an_https_public_address(tmp_path, monkeypatch):
    """As an operator sets it: the environment, read by ``create_app``."""
    monkeypatch.setenv("KUNKEN_PUBLIC_URL", "https://club.example.org")
    monkeypatch.delenv("KUNKEN_MEMBERS", raising=False)
    app = make_app(tmp_path)
    assert app.config["MEMBERS"] is True
    played(app)
    assert english(app).get("/players").status_code == 403
    monkeypatch.setenv("KUNKEN_MEMBERS", "off")
    assert make_app(tmp_path).config["MEMBERS"] is False


def test_a_setting_that_is_neither_on_nor_off_stops_the_start_in_words(tmp_path, monkeypatch):
    monkeypatch.setenv("KUNKEN_MEMBERS", "maybe")
    with pytest.raises(StartupError, match="KUNKEN_MEMBERS must be on or off, not 'maybe'"):
        make_app(tmp_path)


# -- kunken-scorer invite ------------------------------------------------------------------------------


def run_cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kunken_scorer", *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def wait_until_up(base: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            with urllib.request.urlopen(base + "/api/v1/health", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{base} did not answer within 20 s")


def test_the_invite_command_prints_a_link_that_works_on_the_real_server(tmp_path):
    """``kunken-scorer invite`` against the file a real server (app.py, on loopback) serves: its link makes a
    phone (a cookie jar) a member; ``--new-club-key`` ends that membership and the old link."""
    db, port = tmp_path / "club.db", free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"KUNKEN_DATABASE": str(db), "KUNKEN_PUBLIC_URL": base, "KUNKEN_MEMBERS": "on", "KUNKEN_SECRET_KEY": "x" * 40}
    missing = run_cli("invite", env=env)
    assert missing.returncode == 2 and "there is no database at" in missing.stderr and "serve" in missing.stderr
    server = start_app_py(db, port, env={"KUNKEN_MEMBERS": "on"})
    try:
        wait_until_up(base, server)
        made = run_cli("invite", env=env)
        assert made.returncode == 0, made.stderr
        link = re.search(r"Invite link, for 7 days \(until [^)]+\): (\S+)", made.stdout)[1]
        assert link.startswith(base + "/join/")
        assert "\x1b[" not in made.stdout  # no QR code in colour codes when the output is no terminal

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

        def status(path: str) -> int:
            try:
                with opener.open(base + path, timeout=10) as answer:
                    return answer.status
            except urllib.error.HTTPError as err:
                return err.code

        assert status("/players") == 403
        assert status(link.removeprefix(base)) == 200  # the 303 home, followed
        assert "kunken_member" in [c.name for c in jar]
        assert status("/players") == 200 and status("/api/v1/players") == 200

        renewed = run_cli("invite", "--new-club-key", env=env)
        assert renewed.returncode == 0, renewed.stderr
        assert "A new club key: every membership and every invite link made before have ended." in renewed.stdout
        assert status("/players") == 403
        jar.clear()
        assert status(link.removeprefix(base)) == 403
        new_link = re.search(r"Invite link, for 7 days \(until [^)]+\): (\S+)", renewed.stdout)[1]
        assert status(new_link.removeprefix(base)) == 200 and status("/players") == 200
    finally:
        server.terminate()
        server.wait(timeout=15)


def test_the_invite_command_says_when_members_are_off(tmp_path):
    db = tmp_path / "lan.db"
    Store.open(str(db)).close()
    env = {"KUNKEN_DATABASE": str(db), "KUNKEN_PUBLIC_URL": "", "KUNKEN_MEMBERS": "", "KUNKEN_PORT": "8123"}
    made = run_cli("--host", "192.0.2.7", "invite", env=env)
    assert made.returncode == 0, made.stderr
    assert "Members are off on this server" in made.stdout
    assert "http://192.0.2.7:8123/join/" in made.stdout
    bad = run_cli("invite", env={**env, "KUNKEN_MEMBERS": "sometimes"})
    assert bad.returncode == 2 and "KUNKEN_MEMBERS must be on or off" in bad.stderr


# -- the night's owner link made anew ------------------------------------------------------------------


def test_the_api_makes_a_new_night_token_and_the_old_one_stops(tmp_path):
    app = make_app(tmp_path)
    client = english(app)
    night = client.post(f"{API}/nights", json={"tables": TABLES}).get_json()
    nid, old = night["id"], night["edit_token"]
    assert client.post(f"{API}/nights/{nid}/token").status_code == 401
    assert "Authorization: Bearer <edit_token>" in client.post(f"{API}/nights/{nid}/token").get_json()["error"]
    assert client.post(f"{API}/nights/{nid}/token", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post(f"{API}/nights/nothing/token", headers={"Authorization": f"Bearer {old}"}).status_code == 404
    renewed = client.post(f"{API}/nights/{nid}/token", headers={"Authorization": f"Bearer {old}"})
    assert renewed.status_code == 200 and renewed.headers["Cache-Control"] == "no-store"
    answer = renewed.get_json()
    assert set(answer) == {"edit_token", "edit_url"} and answer["edit_token"] != old
    assert answer["edit_url"].endswith(f"/nights/{nid}/own/{answer['edit_token']}")
    # the old token: no scorer links, no second renewal; the new one: every table's scorer link, as before
    with_old = client.get(f"{API}/nights/{nid}", headers={"Authorization": f"Bearer {old}"})
    assert with_old.status_code == 403 and with_old.get_json() == {"error": "This token is not the night's edit token."}
    assert client.post(f"{API}/nights/{nid}/token", headers={"Authorization": f"Bearer {old}"}).status_code == 403
    with_new = client.get(f"{API}/nights/{nid}", headers={"Authorization": f"Bearer {answer['edit_token']}"})
    tokens = [t["edit_token"] for t in with_new.get_json()["tables"]]
    assert tokens == [t["edit_token"] for t in night["tables"]]  # the tables' own tokens, unsealed anew
    assert client.get(f"/nights/{nid}/own/{old}").status_code == 403
    assert client.get(urlsplit(answer["edit_url"]).path).status_code == 303


def test_two_renewals_with_one_token_at_once_make_one_new_token(tmp_path):
    app = make_app(tmp_path)
    night = english(app).post(f"{API}/nights", json={"tables": TABLES}).get_json()
    made = at_once(app.config["DATABASE"], 2, lambda store: store.renew_night_token(night["id"], night["edit_token"]))
    assert sorted(m is None for m in made) == [False, True]
    new = next(m for m in made if m is not None)
    with opened(app) as store:
        assert store.check_night_token(night["id"], new)
        assert not store.check_night_token(night["id"], night["edit_token"])


def test_the_owner_page_makes_a_new_owner_link_and_every_old_phone_stops(tmp_path):
    app = make_app(tmp_path)
    night = english(app).post(f"{API}/nights", json={"tables": TABLES}).get_json()
    nid, old = night["id"], night["edit_token"]
    owner, copy = english(app), english(app)  # the owner's phone, and one that opened a leaked copy of the link
    for phone in (owner, copy):
        assert phone.get(f"/nights/{nid}/own/{old}").status_code == 303
    page = text(owner.get(f"/nights/{nid}"))
    assert 'id="new-owner-link"' in page and 'id="owner-link"' in page
    assert english(app).post(f"/nights/{nid}/token", data={"csrf_token": CSRF.search(page)[1]}).status_code == 400
    viewer = english(app)
    viewer_page = text(viewer.get(f"/nights/{nid}"))
    assert 'id="new-owner-link"' not in viewer_page
    refused = viewer.post(f"/nights/{nid}/token", data={"csrf_token": csrf_from(viewer, "/nights/new")})
    assert refused.status_code == 403 and "Only the phone that holds the night's owner link" in text(refused).replace(
        "&#39;", "'"
    )
    done = owner.post(f"/nights/{nid}/token", data={"csrf_token": CSRF.search(page)[1]})
    assert done.status_code == 303
    assert any(c.startswith(f"kunken_night_{nid}=") for c in done.headers.getlist("Set-Cookie"))
    after = text(owner.get(f"/nights/{nid}"))
    assert "A new owner link was made" in after and after.count('class="scorer-link"') == len(TABLES)
    new_link = re.search(r'id="owner-link" href="[^"]*(/nights/[^"]+)"', after)[1]
    assert new_link != f"/nights/{nid}/own/{old}"
    # the copy's phone stopped at once: no scorer links, no round, no renewal
    copy_page = text(copy.get(f"/nights/{nid}"))
    assert "scorer-link" not in copy_page and 'id="next-round-form"' not in copy_page
    round_form = {"csrf_token": csrf_from(copy, "/nights/new"), "round": "2"}
    assert copy.post(f"/nights/{nid}/rounds", data=round_form).status_code == 403
    assert copy.get(f"/nights/{nid}/own/{old}").status_code == 403
    # the new owner link works on another phone
    helper = english(app)
    assert helper.get(new_link).status_code == 303
    assert text(helper.get(f"/nights/{nid}")).count('class="scorer-link"') == len(TABLES)


def test_with_members_on_the_old_owner_link_shuts_the_night(tmp_path):
    app = make_app(tmp_path, MEMBERS="on")
    night = english(app).post(f"{API}/nights", json={"tables": TABLES}).get_json()
    nid, old = night["id"], night["edit_token"]
    copy = english(app)
    assert copy.get(f"/nights/{nid}/own/{old}").status_code == 303
    assert copy.get(f"/nights/{nid}").status_code == 200
    renewed = english(app).post(f"{API}/nights/{nid}/token", headers={"Authorization": f"Bearer {old}"})
    assert renewed.status_code == 200
    shut = copy.get(f"/nights/{nid}")
    assert shut.status_code == 403 and shows_a_name(shut) == []


def test_the_documented_answer_of_a_new_night_token(tmp_path):
    """docs/api.md shows the 200 answer of ``POST /api/v1/nights/<id>/token`` unreplayed (a night made above is
    not there for the next example): here it is checked."""
    section = API_MD.read_text(encoding="utf-8").split("### `POST /api/v1/nights/<id>/token`", 1)[1]
    documented = re.search(r"```json\n(.*?)\n```", section, re.S)[1]
    app = make_app(tmp_path)
    client = english(app)
    night = client.post(f"{API}/nights", json={"tables": TABLES}).get_json()
    answer = client.post(
        f"{API}/nights/{night['id']}/token", headers={"Authorization": f"Bearer {night['edit_token']}"}
    ).get_json()
    assert mismatches(json.loads(documented), answer) == []
    members_section = API_MD.read_text(encoding="utf-8").split("## Members", 1)[1]
    documented_403 = json.loads(re.search(r"```json\n(.*?)\n```", members_section, re.S)[1])
    (tmp_path / "on").mkdir()
    stranger = english(make_app(tmp_path / "on", MEMBERS="on"))
    assert mismatches(documented_403, stranger.get(f"{API}/players").get_json()) == []
