"""The session page paints from the stylesheet in its own head (``static/base.css``, allowed by its hash in
the CSP): it links none, and the other pages' stylesheet (``static/style.css``) would change nothing on it.

Chromium at a phone viewport (a Pixel 7, and a 320 px phone in dark mode), a real server on loopback. For
each state of the page (watching, scoring, the first deal's QR card, a seat taken, a long evening, ended),
the computed style of every element is taken, every panel open, then again with ``style.css`` added.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

PLAYERS = ["Анна", "Борис", "Вера"]
DEALS = [
    {
        "players": [
            {"name": "Анна", "melds": ["A♠ A♥ A♦"], "vists": [{"to": "Борис", "cards": "5♥"}]},
            {"name": "Борис", "melds": ["2♥ 3♥ 4♥"], "hand": "K♣ JK"},
            {"name": "Вера", "hand": "7♠"},
        ],
        "went_out": "Анна",
    },
    {"players": [{"name": "Анна"}, {"name": "Борис"}, {"name": "Вера"}], "redeal": True},
    {
        "players": [
            {"name": "Анна", "hand": "K♦"},
            {"name": "Борис", "melds": ["5♣ 5♦ 5♠", "8♥ 9♥ 10♥"]},
            {"name": "Вера", "hand": "2♠ 3♠"},
        ],
        "went_out": "Борис",
        "express": True,
    },
    {  # recorded anyway, with a note: an illegal meld
        "players": [{"name": "Анна", "melds": ["2♠ 5♥ 9♦"]}, {"name": "Борис", "hand": "K♠"}, {"name": "Вера"}],
        "went_out": "Вера",
        "override": True,
        "note": "так договорились",
    },
    {  # a swap, and a warning: Вера went out having laid nothing
        "players": [
            {"name": "Анна", "melds": ["K♠ K♣ JK"], "hand": "3♣"},
            {"name": "Борис", "melds": ["5♥ JK 7♥"], "hand": "4♣"},
            {"name": "Вера", "hand": ""},
        ],
        "swaps": [{"by": "Борис", "from": "Анна", "meld": 0, "card": "K♦"}],
        "went_out": "Вера",
    },
]

#: every element's computed style (but the sizes a text's length decides), its ::before and ::after,
#: panels open;
#: kept in the page as ``window.styles``
STYLES = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const sized = /^(width|height|(min-)?(inline|block)-size|d|perspective-origin|transform-origin)$/;
  window.styles = [...document.querySelectorAll('html, body, body *')].map(el => {
    const style = getComputedStyle(el);
    const before = getComputedStyle(el, '::before'), after = getComputedStyle(el, '::after');
    const seen = {};
    for (const name of style) if (!sized.test(name)) seen[name] = style.getPropertyValue(name);
    seen['::before'] = before.content + ' ' + before.color;
    seen['::after'] = after.content + ' ' + after.color;
    return [el.tagName + '#' + el.id + '.' + el.getAttribute('class'), seen];
  });
  return window.styles.length;
}"""

ADD_STYLE_CSS = """() => new Promise((done, failed) => {
  window.before = window.styles;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/static/style.css';
  link.onload = done;
  link.onerror = () => failed(new Error('style.css did not load'));
  document.head.append(link);
})"""

#: what changed from ``window.before`` to ``window.styles``, a line per element and property
CHANGES = """() => {
  const found = [];
  window.before.forEach(([element, old], i) => {
    const now = window.styles[i][1];
    for (const name in old) {
      if (old[name] !== now[name]) found.push(element + ' ' + name + ': ' + old[name] + ' → ' + now[name]);
    }
  });
  return found;
}"""


def api(base: str, path: str, body=None, token: str | None = None) -> dict:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def session_with(base: str, deals: int, target: dict | None = None) -> tuple[str, str]:
    target = target or {"kind": "deals", "value": 40}
    made = api(base, "/api/v1/sessions", {"players": PLAYERS, "target": target})
    for i in range(deals):
        api(base, f"/api/v1/sessions/{made['id']}/deals", DEALS[i % len(DEALS)], made["edit_token"])
    return made["id"], made["edit_token"]


def differences(page: Page) -> list[str]:
    """What ``style.css`` would change on the page as it stands (a line per element and property), once the page
    has settled (every image and font in: a page still loading moves by a fraction of a pixel between the two
    measurements)."""
    page.wait_for_load_state("networkidle")
    page.evaluate(
        "document.fonts.ready.then(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))))"
    )
    linked = page.eval_on_selector_all("link[rel=stylesheet]:not([media=print])", "links => links.length")
    assert linked == 0, f"{page.url} links a stylesheet a phone must fetch before it paints"
    count = page.evaluate(STYLES)
    page.evaluate(ADD_STYLE_CSS)
    assert page.evaluate(STYLES) == count > 20
    return page.evaluate(CHANGES)


@pytest.mark.parametrize("width, scheme", [(412, "light"), (320, "dark")])
def test_the_session_page_needs_no_stylesheet_but_its_own(server, phones, width, scheme):
    phone = {"viewport": {"width": width, "height": 915}, "color_scheme": scheme}
    first, first_token = session_with(server, 0)
    long, long_token = session_with(server, 30)
    short, _ = session_with(server, 5)
    out, _ = session_with(server, 5, {"kind": "penalty", "value": 20})  # Вера out after deal 3 (−25)
    seen: dict[str, list[str]] = {}

    viewer = phones(locale="ru-RU", **phone).new_page()
    watched = (("watching a long evening", long), ("watching, no deals", first), ("a player out", out))
    for name, sid in watched:
        viewer.goto(f"{server}/s/{sid}")
        expect(viewer.locator("#live")).to_be_visible()
        seen[name] = differences(viewer)
        if sid == long:  # every kind of deal the page shows is there: the earlier ones, a note, a warning
            for shown in ("#earlier-deals", "tr.redeal", "q.note", ".tag.bad", "details.warnings", ".went-out"):
                expect(viewer.locator(shown).first).to_be_attached()
            swap = viewer.locator("tr.deal-info").filter(has_text=re.compile("[KК]♦"))  # K♦ for the joker
            expect(swap).not_to_have_count(0)
        if sid == out:
            expect(viewer.locator("#totals tr.out")).not_to_have_count(0)
            expect(viewer.locator(".banner")).to_be_visible()
    viewer.goto(f"{server}/s/{short}")
    with viewer.expect_navigation():
        viewer.locator("#take-seat-1").tap()
    viewer.goto(f"{server}/s/{short}")
    expect(viewer.locator("#my-part")).to_be_visible()
    seen["a seat taken"] = differences(viewer)

    scorer = phones(locale="en-US", **phone).new_page()
    scorer.goto(f"{server}/s/{first}/scorer/{first_token}")
    expect(scorer.locator("#join")).to_be_visible()
    seen["scoring, the QR card first"] = differences(scorer)
    scorer.goto(f"{server}/s/{long}/scorer/{long_token}")
    scorer.locator("#undo-panel > summary").tap()
    scorer.locator("#undo").tap()
    expect(scorer.locator("p.flash")).to_be_visible()  # a message, and "bring deal 30 back"
    expect(scorer.locator("#redo")).to_be_visible()
    seen["scoring, a deal just undone"] = differences(scorer)
    scorer.goto(f"{server}/s/{long}")
    scorer.locator("#end-panel > summary").tap()
    scorer.locator("#end-session").tap()
    expect(scorer.locator(".banner.ended")).to_be_visible()
    seen["ended"] = differences(scorer)

    assert {name: found[:5] for name, found in seen.items() if found} == {}


def test_the_check_sees_what_a_stylesheet_changes(server, phones):
    """The comparison above can fail: the deal form without its stylesheet, then with it, differs."""
    sid, token = session_with(server, 0)
    page = phones().new_page()
    page.goto(f"{server}/s/{sid}/scorer/{token}")
    page.goto(f"{server}/s/{sid}/deals/new")
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    page.evaluate("document.querySelectorAll('link[rel=stylesheet]').forEach(link => link.remove())")
    found = differences(page)
    changed = {line.split(" ")[0] for line in found}
    assert {"DIV#keypad.keypad", "DIV#deal-footer.deal-footer", "FIELDSET#player-0.card"} <= changed, sorted(changed)
    # and base.css is what paints the page: without it, the body keeps the browser's own margin
    assert page.evaluate("getComputedStyle(document.body).margin") == "0px"
    page.evaluate("document.querySelector('head style').remove()")
    assert page.evaluate("getComputedStyle(document.body).margin") == "8px"


def test_the_text_follows_the_size_the_reader_chose_in_the_browser(server, phones):
    """The pages' 18 px are 112.5% of the browser's text size: a reader who set 20 px gets 22.5 px."""
    page = phones().new_page()
    page.goto(server + "/")
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "18px"
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 20, "fixed": 16}})
    page.reload()
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "22.5px"
    assert page.evaluate("getComputedStyle(document.querySelector('h1')).fontSize") == "33.75px"  # 1.5rem
