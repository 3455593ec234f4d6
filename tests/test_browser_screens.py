"""Every page on the phones at the table, and the table screen on a laptop and a TV: screenshots to look at,
and the three things issue 36 found cut.

- The header fits the screen at 412, 360 and 320 px in both languages: every element of it inside the screen
  and inside what holds it, its menu too when open (tests/test_browser_pages.py checks the rest of each page).
- The table screen fits 1280×720 and 1920×1080: the QR code and the last deal's rows inside the screen, each
  player of the last deal with that deal's score beside the name.
- With the text at twice its size (the browser's text size at 200%, and the page's own: html at 200%), the deal
  form's "went out" choice and the keypad's key labels are not cut.

Screenshots go to ``KUNKEN_SHOTS`` when it is set (``screen-*.png``), else to a temporary folder. One server
and one evening serve each language's pages at every width.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from conftest import close_phone, ready, shots_dir, start_on_phone, take_seat, tap_and_wait
from playwright.sync_api import Page, expect

PLAYERS = {
    "ru-RU": ["Анастасия", "Борис", "Вера", "Григорий", "Дина"],
    "en-US": ["Anastasia", "Boris", "Vera", "Gregory", "Dina"],
}
WIDTHS = (412, 360, 320)


def deals(names: list[str]) -> list[dict]:
    """Two deals of five players: an express with vists, then a plain one with losses for everyone else."""
    a, b, c, d, e = names
    return [
        {
            "players": [
                {"name": a, "melds": ["A♠ A♥ A♦", "5♥ 6♥ 7♥"], "hand": ""},
                {"name": b, "melds": ["K♣ K♦ JK"], "vists": [{"to": a, "meld": 1, "cards": "8♥"}], "hand": "3♣ 4♦"},
                {"name": c, "hand": "Q♠ Q♦ JK"},
                {"name": d, "hand": "2♠"},
                {"name": e, "melds": ["9♣ 10♣ J♣"], "hand": "7♦"},
            ],
            "went_out": a,
            "express": True,
        },
        {
            "players": [
                {"name": a, "hand": "K♠"},
                {"name": b, "melds": ["2♥ 3♥ 4♥", "10♠ J♠ Q♠ K♠"], "hand": ""},
                {"name": c, "hand": "5♣"},
                {"name": d, "melds": ["J♦ J♥ J♠"], "hand": "A♣"},
                {"name": e, "hand": "6♠ 6♦"},
            ],
            "went_out": b,
        },
    ]


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    request = urllib.request.Request(
        base + path,
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"{}")


def evening(base: str, locale: str) -> tuple[str, str]:
    """A session of five with two deals, made through the API: its id and the scorer's link."""
    made = api(base, "/api/v1/sessions", {"game": "kunken", "players": PLAYERS[locale]})
    for deal in deals(PLAYERS[locale]):
        api(base, f"/api/v1/sessions/{made['id']}/deals", deal, made["edit_token"])
    return made["id"], made["edit_url"]


def phone(phones, base: str, locale: str, width: int = 412) -> Page:
    """A phone reading the pages in ``locale``'s language (its Accept-Language and the "lang" cookie)."""
    context = phones(locale=locale, viewport={"width": width, "height": 800})
    context.add_cookies([{"name": "lang", "value": locale[:2], "url": base}])
    return context.new_page()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = shots_dir(tmp_path_factory.mktemp("screens"))
    for old in folder.glob("screen-*.png"):
        old.unlink()
    return folder


#: the header's findings: an element (shown) past the screen's edges, or outside what clips it, or its text
#: outside its own box
HEADER = """() => {
  const found = [];
  const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
  const header = document.querySelector('body > header');
  const shown = el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  if (!header || !shown(header)) return found;
  // one row: the brand, the way back and the menu button (a link on two lines at most)
  if (header.getBoundingClientRect().height > 60) found.push(`header ${header.getBoundingClientRect().height}px tall`);
  const name = el => el.outerHTML.slice(0, 70);
  const clips = el => getComputedStyle(el).overflowX !== 'visible' || getComputedStyle(el).overflowY !== 'visible';
  for (const el of [header, ...header.querySelectorAll('*')]) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) {
      found.push(`off the screen (${Math.round(r.left)} to ${Math.round(r.right)} of ${width}): ${name(el)}`);
    }
    if (el.matches(':popover-open') && r.bottom > height + 0.5) {
      found.push(`menu below the screen: ${Math.round(r.bottom)} of ${height}`);
    }
    if (clips(el) && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
      found.push(`cut: ${name(el)}`);
    }
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (!clips(p)) continue;
      const q = p.getBoundingClientRect();
      if (r.left < q.left - 0.5 || r.right > q.right + 0.5 || r.top < q.top - 0.5 || r.bottom > q.bottom + 0.5) {
        found.push(`clipped by ${p.tagName.toLowerCase()}.${p.className}: ${name(el)}`);
      }
    }
    if (el.matches('a, strong, button, span')) {  // its text inside its box, not spilling over a neighbour
      const text = document.createRange();
      text.selectNodeContents(el);
      for (const t of text.getClientRects()) {
        if (t.width > 0 && (t.left < r.left - 1 || t.right > r.right + 1)) {
          found.push(`text out of its box: ${name(el)}`);
          break;
        }
      }
    }
  }
  return found;
}"""

MENU = "body > header [popovertarget]"


def header_findings(page: Page, shot: Path) -> list[str]:
    """What the header shows cut, with its menu closed and (on a phone) open, every link of it then shown; the
    screen with the menu open to ``shot``."""
    found = page.evaluate(HEADER)
    button = page.locator(MENU)
    if button.count() and button.is_visible():
        button.click()
        page.wait_for_function("() => document.querySelector('body > header :popover-open')")
        found += [f"menu open: {f}" for f in page.evaluate(HEADER)]
        links = page.evaluate("""() => [...document.querySelectorAll('body > header a')].filter(a => {
            const r = a.getBoundingClientRect(); return r.width === 0 || r.height === 0; }).map(a => a.outerHTML)""")
        found += [f"menu open, a link not shown: {link}" for link in links]
        page.screenshot(path=str(shot))
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('body > header :popover-open')")
    return found


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_every_page_keeps_its_header_on_a_phones_screen(server, phones, shots, locale):
    """Every page at 412, 360 and 320 px: nothing of the header cut or off the screen, every link reachable;
    a screenshot of each page at each width."""
    sid, edit_url = evening(server, locale)
    night = api(server, "/api/v1/nights", {"tables": [PLAYERS[locale][:3], PLAYERS[locale][3:]]})["id"]
    scorer, viewer, player = (phone(phones, server, locale) for _ in range(3))
    scorer.goto(edit_url)
    take_seat(player, f"{server}/s/{sid}", 2)
    pages = [
        (viewer, "/", "home"),
        (viewer, f"/s/{sid}", "session"),
        (scorer, f"/s/{sid}", "session-scorer"),
        (scorer, f"/s/{sid}/deals/new", "deal-form"),
        (scorer, f"/s/{sid}/history", "history"),
        (viewer, f"/s/{sid}/summary", "summary"),
        (viewer, "/players", "players"),
        (viewer, "/players/h2h", "head-to-head"),
        (viewer, f"/nights/{night}", "night"),
        (viewer, f"/nights/{night}/room", "night-room"),
        (viewer, f"/nights/{night}/summary", "night-summary"),
        (viewer, "/rules/desk", "desk"),
        (viewer, "/rules/kunken", "rules"),
        (viewer, "/import", "import"),
        (player, f"/s/{sid}/draft/2", "part"),
        (scorer, f"/s/{sid}/draft/0", "part-scorer"),
        (scorer, f"/s/{sid}/draft", "draft"),
        (viewer, f"/s/{sid}/table", "table-screen"),
        (viewer, "/s/no-such-session", "error"),
    ]
    problems = {}
    for page, path, name in pages:
        answer = page.goto(server + path)
        assert answer.status == (404 if name == "error" else 200), (name, answer.status)
        page.wait_for_load_state("load")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            found = header_findings(page, shots / f"screen-{name}-{locale[:2]}-{width}-menu.png")
            page.screenshot(path=str(shots / f"screen-{name}-{locale[:2]}-{width}.png"), full_page=True)
            if found:
                problems[f"{name} at {width}"] = found
        page.set_viewport_size({"width": 412, "height": 800})
    assert problems == {}, "\n".join(f"{where}: {found}" for where, found in problems.items())


#: the pages a way back leads from, and where it goes: on a phone it stays in the bar, one tap, not in the menu
WAYS_BACK = {
    "/s/{sid}/summary": "/s/{sid}",
    "/players/h2h": "/players",
    "/nights/{night}/room": "/nights/{night}",
    "/nights/{night}/summary": "/nights/{night}",
}


def test_a_pages_way_back_stays_in_the_bar_on_a_phone(server, phones):
    sid, _ = evening(server, "en-US")
    night = api(server, "/api/v1/nights", {"tables": [PLAYERS["en-US"][:3], PLAYERS["en-US"][3:]]})["id"]
    viewer = phone(phones, server, "en-US", width=360)
    for path, back in WAYS_BACK.items():
        viewer.goto(server + path.format(sid=sid, night=night))
        link = viewer.locator("body > header #back-link")
        expect(link).to_be_visible()  # without opening the menu
        assert link.get_attribute("href") == back.format(sid=sid, night=night), path


#: the table screen's findings: the QR code or a row of the last deal not wholly on the screen, a player of the
#: last deal with no score beside the name (or one that is not the change the totals show), the page scrolling
TABLE = """() => {
  const found = [];
  const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
  const round = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(', ');
  const inside = (el, what) => { const r = el.getBoundingClientRect();
    if (r.width === 0 || r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > height + 0.5) {
      found.push(`${what} not on the screen: ${round(r)} on ${width}×${height}`);
    } };
  const qr = document.querySelector('.table-join .qr');
  if (!qr) found.push('no QR code'); else inside(qr, 'QR code');
  const rows = [...document.querySelectorAll('.table-screen-melds li')];
  if (!rows.length) found.push('no last deal');
  for (const row of rows) {
    const who = row.dataset.player;
    inside(row, `last deal: ${who}`);
    const name = row.querySelector('.name'), score = row.querySelector('.deal-score');
    const change = document.querySelector(`.table-standings li[data-player="${CSS.escape(who)}"] .change`);
    if (!name || !score || !score.textContent.trim()) { found.push(`last deal: no score beside ${who}`); continue; }
    const n = name.getBoundingClientRect(), s = score.getBoundingClientRect();
    if (s.left < n.right - 0.5 || s.left - n.right > width / 4 || s.top > n.bottom || s.bottom < n.top) {
      found.push(`last deal: the score of ${who} is not beside the name`);
    }
    inside(score, `last deal: the score of ${who}`);
    if (change && score.dataset.score !== change.dataset.change) {
      found.push(`last deal: ${who} ${score.dataset.score}, the totals say ${change.dataset.change}`);
    }
  }
  const name = document.querySelector('.table-standings .name');
  if (name && name.scrollWidth > name.clientWidth + 1) found.push(`a name cut: ${name.textContent}`);
  const page = document.documentElement;
  if (page.scrollHeight > height + 1 || page.scrollWidth > width + 1) {
    found.push(`the page scrolls: ${page.scrollWidth}×${page.scrollHeight}`);
  }
  return found;
}"""

SCREENS = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})


def ordered_rummy_of_twelve(base: str) -> str:
    """A session of ordered rummy at twelve seats (the most a table has) with one deal: its id."""
    names = [f"Игрок {n}" for n in range(1, 13)]
    made = api(base, "/api/v1/sessions", {"game": "ordered-rummy", "players": names})
    deal = {
        "players": [{"name": names[0], "melds": ["8♥ 9♥ 10♥", "5♣ 5♦ 5♠"], "hand": ""}]
        + [
            {"name": name, "hand": f"{rank}♣"}
            for name, rank in zip(names[1:], [*"23456789", "10", "J", "Q"], strict=True)
        ],
        "went_out": names[0],
    }
    api(base, f"/api/v1/sessions/{made['id']}/deals", deal, made["edit_token"])
    return made["id"]


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_the_table_screen_fits_a_laptop_and_a_tv(server, browser, shots, locale):
    """At 1280×720 and 1920×1080: the QR code and every row of the last deal on the screen, each player's score of
    that deal beside the name; five players of Kunken and twelve of ordered rummy."""
    five, _edit_url = evening(server, locale)
    twelve = ordered_rummy_of_twelve(server)
    context = browser.new_context(viewport=SCREENS[0], locale=locale)
    context.add_cookies([{"name": "lang", "value": locale[:2], "url": server}])
    screen = context.new_page()
    problems = {}
    for sid, table in ((five, "five"), (twelve, "twelve")):
        screen.goto(f"{server}/s/{sid}/table")
        for size in SCREENS:
            screen.set_viewport_size(size)
            where = f"{table} at {size['width']}×{size['height']}"
            screen.screenshot(path=str(shots / f"screen-table-{table}-{locale[:2]}-{size['width']}.png"))
            found = screen.evaluate(TABLE)
            if found:
                problems[where] = found
    close_phone(context)
    assert problems == {}, "\n".join(f"{where}: {found}" for where, found in problems.items())


#: the "went out" choice's findings at the text size set, each option chosen in turn (then the choice put back): a
#: native select shows one line, cut at its box (the option's text, measured, wider than the room beside the
#: arrow); a customisable one (appearance: base-select) lays its text out, which must not overflow the box
WENT_OUT = """() => {
  const found = [];
  const select = document.getElementById('went_out');
  const chosen = select.selectedIndex;
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';  // (a script's style: the CSP allows it)
  document.body.appendChild(probe);
  const style = getComputedStyle(select);
  probe.style.font = style.font;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - 1.5 * parseFloat(style.fontSize);
  for (let i = 0; i < select.options.length; i++) {
    select.selectedIndex = i;
    probe.textContent = select.options[i].text;
    const r = select.getBoundingClientRect();
    if (select.scrollWidth > select.clientWidth + 1 || select.scrollHeight > select.clientHeight + 1) {
      found.push(`"${probe.textContent}": ${select.scrollWidth}×${select.scrollHeight}`
                 + ` in ${select.clientWidth}×${select.clientHeight}`);
    }
    if (style.appearance !== 'base-select' && probe.getBoundingClientRect().width > room) {
      const wide = Math.round(probe.getBoundingClientRect().width);
      found.push(`"${probe.textContent}" cut: ${wide}px in ${Math.round(room)}px`);
    }
    if (r.right > document.documentElement.clientWidth + 0.5 || r.left < -0.5) found.push('the choice past the screen');
  }
  select.selectedIndex = chosen;
  probe.remove();
  return found;
}"""

#: the keypad's findings: a key (shown) whose label's box is not inside the key (within its border)
KEY_LABELS = """() => {
  const found = [];
  for (const key of document.querySelectorAll('#keypad .key')) {
    const box = key.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(key).visibility === 'hidden') continue;
    const k = {left: box.left + key.clientLeft, top: box.top + key.clientTop,
               right: box.left + key.clientLeft + key.clientWidth, bottom: box.top + key.clientTop + key.clientHeight,
               width: key.clientWidth, height: key.clientHeight};
    const label = document.createRange();
    label.selectNodeContents(key);
    for (const r of label.getClientRects()) {
      const out = r.left < k.left - 0.5 || r.right > k.right + 0.5 || r.top < k.top - 0.5 || r.bottom > k.bottom + 0.5;
      if (r.width && out) {
        const size = b => `${Math.round(b.width)}×${Math.round(b.height)}`;
        found.push(`"${key.textContent.trim()}" over its key (${size(r)} in ${size(k)})`);
        break;
      }
    }
    if (key.scrollWidth > key.clientWidth + 1) found.push(`"${key.textContent.trim()}" cut`);
  }
  return found;
}"""


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_with_the_text_at_twice_its_size_the_deal_form_keeps_its_words_whole(server, phones, shots, locale):
    """The text at 200% (WCAG 1.4.4) at 412, 360 and 320 px, as the browser's text size (36 px: the page's 112.5% of
    32) and as the page's own size (html at 200%: 32 px): every option of "went out" fits its box, and every key of
    the keypad holds its label (cards, with the names of a vist, and a hand)."""
    sid, edit_url = evening(server, locale)
    page = phone(phones, server, locale)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    page.goto(edit_url)
    problems = {}
    for way, root in (("text size", "36px"), ("html", "32px")):
        standard, fixed = (32, 26) if way == "text size" else (16, 13)  # the browser's 16 px and 13 px, doubled
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": standard, "fixed": fixed}})
        page.goto(f"{server}/s/{sid}/deals/new")
        expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")
        if way == "html":
            page.evaluate("document.documentElement.style.fontSize = '200%'")  # (the CSP allows a script's style)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == root, (way, width)
            page.locator("#went_out").evaluate("el => el.scrollIntoView({block: 'start'})")  # above the footer
            name = f"screen-deal-form-200-{way.replace(' ', '-')}-{locale[:2]}-{width}"
            page.screenshot(path=str(shots / f"{name}-went-out.png"))
            problems[f"{way} 200%, went out at {width}"] = page.evaluate(WENT_OUT)
            for field in ("melds", "vists", "hand"):  # cards; cards and the names of a vist; a hand
                page.locator(f"#players-0-{field}").focus()
                expect(page.locator("#keypad")).to_be_visible()
                page.locator("#keypad .keypad-ranks").scroll_into_view_if_needed()
                page.screenshot(path=str(shots / f"{name}-keypad-{field}.png"))
                problems[f"{way} 200%, the keypad of {field} at {width}"] = page.evaluate(KEY_LABELS)
    problems = {where: found for where, found in problems.items() if found}
    assert problems == {}, "\n".join(f"{where}: {found}" for where, found in problems.items())


#: every control of the page's form with an ancestor that is a size container (a container query's container)
IN_A_SIZE_CONTAINER = """() => [...document.querySelectorAll('form input, form select, form textarea, form button')]
  .filter(el => { for (let up = el.parentElement; up; up = up.parentElement) {
    if (getComputedStyle(up).containerType !== 'normal') return true; } return false; })
  .map(el => el.id || el.name)"""


def test_the_text_at_200_lays_out_who_went_out_and_the_keypad_anew_and_no_field_is_in_a_size_container(server, phones):
    """The deal form and the draft page keep their fields out of size containers (inside one, Chromium now and then
    left "Who went out" without a box: not drawn, and skipped by Tab); page.js marks the end of the deal narrow
    below 14rem and the keypad below 16rem, which the text at 200% makes them on a 360 px phone, and the usual text
    does not: "Who went out" then wraps its choice (a customisable select) and the keypad puts fewer keys a row."""
    sid, edit_url = evening(server, "en-US")
    page = phone(phones, server, "en-US", width=360)
    page.goto(edit_url)
    narrow = re.compile(r"\bnarrow\b")
    for url, end in ((f"{server}/s/{sid}/deals/new", "#deal-end"), (f"{server}/s/{sid}/draft", "#draft-end")):
        page.goto(url)
        expect(page.locator("#went_out")).to_be_visible()
        assert page.evaluate(IN_A_SIZE_CONTAINER) == [], url
        boxes = [page.locator(end)] + ([page.locator("#keypad")] if end == "#deal-end" else [])
        if end == "#deal-end":
            page.locator("#players-0-melds").focus()
            expect(page.locator("#keypad")).to_be_visible()
        for box in boxes:
            expect(box).not_to_have_class(narrow)
        columns = "getComputedStyle(document.querySelector('.keypad-ranks')).gridTemplateColumns.split(' ').length"
        usual = page.evaluate(columns) if end == "#deal-end" else 0
        page.evaluate("document.documentElement.style.fontSize = '200%'")  # (the CSP allows a script's style)
        for box in boxes:
            expect(box).to_have_class(narrow)
        if page.evaluate("CSS.supports('appearance', 'base-select')"):
            assert page.locator("#went_out").evaluate("el => getComputedStyle(el).appearance") == "base-select"
        if end == "#deal-end":
            assert page.evaluate(columns) < usual
        page.evaluate("document.documentElement.style.fontSize = ''")
        for box in boxes:
            expect(box).not_to_have_class(narrow)


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_the_deal_form_buttons_keep_each_word_whole_at_320(server, phones, locale):
    """ "Проверить" and "Сохранить" once broke mid-word at 320 px (the big buttons' sides left them too little
    room): each button's words are on one line there."""
    page = phones(locale=locale, viewport={"width": 320, "height": 700}).new_page()
    start_on_phone(page, server, PLAYERS[locale][:3], "points")
    tap_and_wait(page, "#record-deal")
    ready(page)
    for button in ("#check", "#save"):
        # a big button's one line of words fits its min-height; a word broken onto a second line makes it taller
        height, one_line = page.evaluate(
            """(selector) => { const el = document.querySelector(selector);
                 return [el.getBoundingClientRect().height, parseFloat(getComputedStyle(el).minHeight)]; }""",
            button,
        )
        assert height <= one_line + 1, f"{button} is {height} px tall at 320 px: its words take two lines"
