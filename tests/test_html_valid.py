"""Every page is valid HTML: the Nu HTML Checker (the W3C's vnu.jar, ``tests/vnu.py``) finds no error on any
page, in Russian and in English, as a scorer, a seated player and a viewer see it, and with a form's errors
shown (issue 35). It needs Java and the jar, which ``make test`` installs; without them this test fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import vnu
from conftest import CSRF, ask_desk, csrf_from, deal_data, hidden, record, start, text

from kunken_scorer.service import members
from kunken_scorer.store import Store

#: Two players' deal with a problem (Boris's second meld holds K♦ twice): the form shows it at its field.
BAD = {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥\nK♦ K♦ K♥", "", "K♣ JK")}


#: A crafted POST (issue 48): what no browser sends into a number input, and markup in the names, echoed back.
CRAFTED = {
    "create": "1",
    "players-0": '<i>"Анна',
    "players-1": "Борис",
    "target_kind": "score",
    "target_value": "abc",
    "rules-ace_points": "+5",
    "rules-hand_size": "1e3",
    "rules-express_multiplier": "٣",
}
CRAFTED_DEAL = {"hand_mode": "counts", "players-0-small": "abc", "players-1-aces": "-0", "players-1-jokers": "1.5"}


def pages_of(app, language: str) -> dict[str, str]:
    """Every page of an evening (name -> HTML): one deal recorded, a seat taken, a part saved, forms refused."""
    scorer, player, viewer = (app.test_client() for _ in range(3))
    for client in (scorer, player, viewer):
        client.set_cookie("lang", language)
    sid = start(scorer)
    assert record(scorer, sid).status_code == 303
    deal_id = re.search(r"/s/[^/]+/deals/(\d+)/edit", text(scorer.get(f"/s/{sid}")))[1]
    page = text(player.get(f"/s/{sid}"))
    taken = player.post(f"/s/{sid}/seat", data={"csrf_token": CSRF.search(page)[1], "seat": "1"})
    assert taken.status_code == 303
    part = text(player.get(f"/s/{sid}/draft/1"))
    moved = player.post(f"/s/{sid}/seats/1/move", data={"csrf_token": CSRF.search(part)[1]})
    link = re.search(r'id="move-link" href="[^"]*(/s/[^"]+)"', text(moved))[1]
    # issue 45: a save of the part refused (shown on the scorer's page), a part sent as a correction of deal 1
    refused_part = player.post(
        f"/s/{sid}/draft/1",
        data={
            **{k: hidden(part, k) for k in ("csrf_token", "deal", "draft", "revision")},
            "hand_mode": "cards",
            "player-vists": "Nobody: 5♥",
            "autosave": "1",
        },
    )
    correction = {k: hidden(part, k) for k in ("csrf_token", "revision")} | {"deal": "1", "draft": "0"}
    sent = player.post(f"/s/{sid}/draft/1/correction", data={**correction, "hand_mode": "cards", "player-hand": "5♦"})
    assert refused_part.status_code == 422 and sent.status_code == 303
    new_deal = text(scorer.get(f"/s/{sid}/deals/new"))
    refused = scorer.post(f"/s/{sid}/deals/new", data={**deal_data(new_deal, BAD, "Anna"), "save": "1"})
    token = csrf_from(viewer, "/import")
    pages = {
        "home": scorer.get("/"),
        "start refused": scorer.post("/sessions", data={"csrf_token": csrf_from(scorer), "create": "1"}),
        "start refused (crafted)": scorer.post("/sessions", data={"csrf_token": csrf_from(scorer), **CRAFTED}),
        "deal form refused (crafted)": scorer.post(
            f"/s/{sid}/deals/new", data={**deal_data(new_deal, BAD, "Anna"), **CRAFTED_DEAL, "save": "1"}
        ),
        "session (scorer)": scorer.get(f"/s/{sid}"),
        "session (player)": player.get(f"/s/{sid}"),
        "session (viewer)": viewer.get(f"/s/{sid}"),
        "deal form": scorer.get(f"/s/{sid}/deals/new"),
        "deal form refused": refused,
        "edit deal": scorer.get(f"/s/{sid}/deals/{deal_id}/edit"),
        "history": viewer.get(f"/s/{sid}/history"),
        "summary": viewer.get(f"/s/{sid}/summary"),
        "table screen": viewer.get(f"/s/{sid}/table"),
        "draft": scorer.get(f"/s/{sid}/draft"),
        "part": player.get(f"/s/{sid}/draft/1"),
        "part refused": refused_part,
        "correction": scorer.get(f"/s/{sid}/corrections/1"),
        "seat move": moved,
        "seat take": viewer.get(link),
        "players": viewer.get("/players"),
        "head to head": viewer.get("/players/h2h?a=Anna&b=Boris"),
        "head to head refused": viewer.get("/players/h2h?a=Anna&b=Zed"),
        "import": viewer.get("/import"),
        "import refused": viewer.post("/import", data={"csrf_token": token, "text": "not json", "form_key": ""}),
        "rules desk": viewer.get(f"/rules/desk?session={sid}"),
        "rules desk answered": ask_desk(viewer, "meld", cards="5♥ JK"),
        "rules desk refused": ask_desk(viewer, "swap", meld="5♥", card="K♦ K♠"),
        "rules kunken": viewer.get("/rules/kunken"),
        "rules ordered rummy": viewer.get("/rules/ordered-rummy"),
        "not found": viewer.get("/s/no-such-session"),
        **night_pages(scorer, viewer),
        **member_pages(app, language),
    }
    assert refused.status_code == 422 and 'data-code="' in text(refused)  # the problem is shown
    shown = {}
    for name, response in pages.items():
        assert response.status_code in (200, 403, 404, 409, 400, 422), (name, response.status_code)
        assert response.mimetype == "text/html", name
        shown[name] = text(response)
    return shown


def night_pages(starter, viewer) -> dict:
    """The club night's pages (tests/test_nights.py): as its starter and a viewer see them, and a refused form."""
    made = starter.post("/api/v1/nights", json={"tables": [["Анна", "Борис"], ["Вера", "Гоша", "Дима"]]}).get_json()
    assert starter.get(f"/nights/{made['id']}/own/{made['edit_token']}").status_code == 303  # the starter's phone
    token = csrf_from(starter, "/nights/new")
    return {
        "night new": viewer.get("/nights/new"),
        "night refused": starter.post("/nights", data={"csrf_token": token, "tables": "Анна"}),
        "night refused (crafted)": starter.post("/nights", data={"csrf_token": token, "tables": "<b>", **CRAFTED}),
        "night (starter)": starter.get(f"/nights/{made['id']}"),
        "night (viewer)": viewer.get(f"/nights/{made['id']}"),
        "night room": viewer.get(f"/nights/{made['id']}/room"),
        "night summary": viewer.get(f"/nights/{made['id']}/summary"),
    }


def member_pages(app, language: str) -> dict:
    """The members' pages (tests/test_members.py), with members on for a moment: what a stranger is shown at a
    members-only page and at a refused invite, the home page without its recent sessions, and a member's home
    and invite page."""
    app.config["MEMBERS"] = True
    try:
        stranger, member = app.test_client(), app.test_client()
        for client in (stranger, member):
            client.set_cookie("lang", language)
        store = Store.open(app.config["DATABASE"])
        try:
            token = members.make_invite(store).token
        finally:
            store.close()
        assert member.get(f"/join/{token}").status_code == 303
        return {
            "home (stranger, members on)": stranger.get("/"),
            "members only": stranger.get("/players"),
            "invite refused": stranger.get("/join/1.not-an-invite"),
            "home (member)": member.get("/"),
            "invite a member": member.get("/members/invite"),
        }
    finally:
        app.config["MEMBERS"] = False


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_nu_html_checker_finds_no_error_on_any_page(app, tmp_path, language):
    files = []
    for name, html in pages_of(app, language).items():
        path = tmp_path / (re.sub(r"\W+", "-", name) + ".html")
        path.write_text(html, encoding="utf-8")
        files.append(path)
    assert vnu.check(files) == []


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_page_has_a_meta_description_in_its_language(app, language):
    """What a search engine or a shared link's preview shows under the title (issue 48: Lighthouse's SEO)."""
    for name, html in pages_of(app, language).items():
        found = re.findall(r'<meta name="description" content="([^"]{40,300})">', html)
        assert len(found) == 1, name
        assert bool(re.search("[а-яё]", found[0])) == (language == "ru"), (name, found[0])


def test_the_checker_finds_the_errors_the_audit_found(tmp_path):
    page = tmp_path / "audit.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>'
        '<ul role="alert"><li>x</li></ul><time datetime="2026-12-02T20:15:03.123456+00:00">x</time></body></html>',
        encoding="utf-8",
    )
    found = vnu.check([Path(page)])
    assert len(found) == 2 and "role" in found[0] and "fraction of a second" in found[1]
