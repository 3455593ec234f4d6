"""Every page on a Pixel 7 (412 px wide), in both languages: nothing scrolls sideways, no control is
clipped, every table shows every player, no switch's code name, axe-core finds no WCAG 2.1 AA
violation; and a screenshot of each page (the tests' evidence, to look at before a release).

Screenshots go to ``KUNKEN_SHOTS`` when it is set, else to a temporary folder; the folder's
``page-*.png`` files from an earlier run are removed first.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from conftest import (
    axe_violations,
    close_phone,
    fill,
    open_deal_form,
    save,
    set_hand_entry,
    settled,
    shots_dir,
    show_field,
    start_on_phone,
)
from playwright.sync_api import Page, expect

from kunken_scorer.core.rules import SWITCHES

PLAYERS = ["Анастасия", "Борис", "Вера", "Григорий", "Дина"]
CODE_NAMES = {word for word in (*SWITCHES, *(str(v) for s in SWITCHES.values() for v in s.choices)) if "_" in word}
DEALS = [
    {
        "players": [
            {"name": "Анастасия", "melds": ["A♠ A♥ A♦", "5♥ 6♥ 7♥"], "hand": ""},
            {
                "name": "Борис",
                "melds": ["K♣ K♦ JK"],
                "vists": [{"to": "Анастасия", "meld": 1, "cards": "8♥"}],
                "hand": "3♣ 4♦",
            },
            {"name": "Вера", "hand": "Q♠ Q♦ JK"},
            {"name": "Григорий", "hand": "2♠"},
            {"name": "Дина", "melds": ["9♣ 10♣ J♣"], "hand": "7♦"},
        ],
        "went_out": "Анастасия",
        "express": True,
    },
    {
        "players": [
            {"name": "Анастасия", "hand": "K♠"},
            {"name": "Борис", "melds": ["2♥ 3♥ 4♥"], "hand": ""},
            {"name": "Вера", "hand": "5♣"},
            {"name": "Григорий", "melds": ["J♦ J♥ J♠"], "hand": "A♣"},
            {"name": "Дина", "hand": "6♠ 6♦"},
        ],
        "went_out": "Борис",
    },
]

#: what every page is checked for, in the page (returns a list of findings)
LAYOUT = """() => {
  const found = [];
  // the screen's width: on a phone, innerWidth grows with what sticks out (the page is zoomed out)
  const width = document.documentElement.clientWidth;
  if (window.innerWidth > width + 1) found.push(`zoomed out: ${window.innerWidth}px shown on ${width}px`);
  const bar = document.querySelector('.topbar');
  if (bar && bar.getBoundingClientRect().height > 60) found.push(`header ${bar.getBoundingClientRect().height}px tall`);
  const wide = document.documentElement.scrollWidth;
  if (wide > width + 1) found.push(`page ${wide}px wide`);
  const visible = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  for (const el of document.querySelectorAll('button, a.button, label.segment, input[type=submit], summary.button')) {
    if (visible(el) && el.scrollWidth > el.clientWidth + 1) found.push(`clipped: ${el.outerHTML.slice(0, 80)}`);
  }
  // a key of the keypad says one thing on one line ("Дж" broken into "Д" and "ж" is no key)
  for (const el of document.querySelectorAll('#keypad .key:not(.name)')) {
    const text = document.createRange();
    text.selectNodeContents(el);
    const lines = new Set([...text.getClientRects()].map(r => Math.round(r.top)));
    if (visible(el) && lines.size > 1) found.push(`key on ${lines.size} lines: ${el.outerHTML.slice(0, 80)}`);
  }
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    if (visible(el) && el.tabIndex < 0) found.push(`not reachable by keyboard: ${el.outerHTML.slice(0, 80)}`);
  }
  // a control past the screen's edge (one in a row that scrolls sideways, like the seat tabs, is meant to be)
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true; } return false; };
  for (const el of document.querySelectorAll('button, a.button, input:not([type=hidden]), select, textarea')) {
    const r = el.getBoundingClientRect();
    if (visible(el) && (r.right > width + 1 || r.left < -1) && !scrolls(el)) {
      found.push(`past the edge: ${el.outerHTML.slice(0, 80)}`);
    }
    const card = el.closest('.card');
    if (card && visible(el) && !scrolls(el) && r.right > card.getBoundingClientRect().right + 1) {
      found.push(`out of its card: ${el.outerHTML.slice(0, 80)}`);
    }
  }
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  document.body.appendChild(probe);
  for (const el of document.querySelectorAll('select')) {
    if (!visible(el) || el.selectedIndex < 0) continue;
    probe.style.font = getComputedStyle(el).font;
    probe.textContent = el.options[el.selectedIndex].text;
    if (probe.getBoundingClientRect().width + 28 > el.clientWidth) {
      found.push(`select cut: ${el.id} "${probe.textContent}"`);
    }
  }
  probe.remove();
  for (const table of document.querySelectorAll('table')) {
    if (!visible(table) || scrolls(table)) continue;
    for (const cell of table.querySelectorAll('thead th, tbody tr:first-child > *')) {
      const r = cell.getBoundingClientRect();
      if (r.width > 0 && (r.right > width + 1 || r.left < -1)) {
        found.push(`table ${table.id || table.className}: "${cell.textContent.trim().slice(0, 20)}" off screen`);
        break;
      }
    }
  }
  // what a cell holds must fit its column: wider, it runs into the next one (a table may scroll sideways)
  for (const cell of document.querySelectorAll('td, th')) {
    if (visible(cell) && cell.scrollWidth > cell.clientWidth + 1) {
      const table = cell.closest('table'), where = table.id || table.className;
      const what = cell.textContent.trim().slice(0, 24);
      found.push(`cell ${cell.scrollWidth - cell.clientWidth}px too narrow: "${what}" in ${where}`);
    }
  }
  return found;
}"""


def api(base: str, method: str, path: str, body=None, token=None) -> dict:
    request = urllib.request.Request(
        base + path,
        method=method,
        data=json.dumps(body).encode() if body else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"{}")


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = shots_dir(tmp_path_factory.mktemp("pages"))
    for old in folder.glob("page-*.png"):
        old.unlink()
    return folder


def evening(base: str) -> tuple[str, str]:
    made = api(base, "POST", "/api/v1/sessions", {"game": "kunken", "players": PLAYERS})
    for deal in DEALS:
        api(base, "POST", f"/api/v1/sessions/{made['id']}/deals", deal, made["edit_token"])
    return made["id"], made["edit_url"]


def look(page: Page, shots, name: str, language: str, axe: bool = True) -> list[str]:
    """The findings of one page, and its screenshot (``axe``: with axe-core's, which the colours and names
    decide, not the width: a narrower phone is checked for its layout alone)."""
    page.wait_for_load_state("load")
    found = page.evaluate(LAYOUT)
    text = page.locator("body").inner_text()
    found += [f"code name: {c}" for c in sorted(CODE_NAMES & set(re.findall(r"[a-z_]+", text)))]
    found += [f"a hyphen for a minus: {m!r}" for m in re.findall(r"(?<![\w./:-])-\d+", text)]
    found += [f"no space before a middle dot: {m!r}" for m in re.findall(r"\S·", text)]
    if axe:
        found += [f"axe {v}" for v in axe_violations(page)]
    page.screenshot(path=str(shots / f"page-{name}-{language}.png"), full_page=True)
    return found


# a Pixel 7, the narrower Android phones many players have, and the smallest (in Russian, the longer words)
@pytest.mark.parametrize(
    "locale, width", [("ru-RU", 412), ("en-US", 412), ("ru-RU", 360), ("en-US", 360), ("ru-RU", 320)]
)
def test_every_page_fits_a_phone_and_passes_axe(server, phones, shots, locale, width):
    language = locale[:2] + ("" if width == 412 else f"-{width}")
    sid, edit_url = evening(server)
    screen = {"viewport": {"width": width, "height": 915 if width == 412 else 800}}
    scorer = phones(locale=locale, **screen).new_page()
    scorer.goto(edit_url)
    viewer = phones(locale=locale, **screen).new_page()
    pages = [
        (viewer, "/", "home"),
        (viewer, f"/s/{sid}", "session-viewer"),
        (scorer, f"/s/{sid}", "session-scorer"),
        (scorer, f"/s/{sid}/deals/new", "deal-form"),
        (scorer, f"/s/{sid}/history", "history"),
        (viewer, f"/s/{sid}/summary", "summary"),
        (viewer, "/players", "players"),
        (viewer, f"/players/h2h?a={PLAYERS[0]}&b={PLAYERS[1]}", "head-to-head"),
        (viewer, "/rules/desk", "desk"),
        (viewer, "/rules/kunken", "rules-kunken"),
        (viewer, "/rules/ordered-rummy", "rules-ordered-rummy"),
        (scorer, f"/s/{sid}/draft", "draft"),
        (scorer, f"/s/{sid}/draft/0", "part"),
        (viewer, "/import", "import"),
        (viewer, f"/s/{sid}/table", "table-screen"),
        (viewer, "/s/no-such-session", "not-found"),
    ]
    problems = {}
    for page, path, name in pages:
        answer = page.goto(server + path)
        assert answer.status == (404 if name == "not-found" else 200), (name, answer.status)
        found = look(page, shots, name, language, axe=width == 412)
        if found:
            problems[name] = found
    # the deal form entering hands by counts: two columns of steppers for every player
    set_hand_entry(scorer, f"{server}/s/{sid}", "counts")
    scorer.goto(f"{server}/s/{sid}/deals/new")
    expect(scorer.locator("#players-0-small")).to_be_visible()
    found = look(scorer, shots, "deal-form-counts", language, axe=width == 412)
    if found:
        problems["deal-form-counts"] = found
    # the deal form with its preview: every player's plus, minus and score in a table
    set_hand_entry(scorer, f"{server}/s/{sid}", "cards")
    scorer.goto(f"{server}/s/{sid}/deals/new")
    for seat, text in enumerate(["A♠ A♥ A♦", "K♣ K♦ JK", "Q♠ Q♦ Q♥", "2♠", "9♣ 10♣ J♣"]):
        fill(scorer, f"players-{seat}-melds", text)
    settled(scorer)
    expect(scorer.locator("#preview table")).to_be_visible()
    found = look(scorer, shots, "deal-form-preview", language, axe=width == 412)
    if found:
        problems["deal-form-preview"] = found
    # the keypad, open under a player's hand: every key's label inside its key
    show_field(scorer, "players-4-hand").tap()
    expect(scorer.locator("#keypad")).to_be_visible()
    found = look(scorer, shots, "deal-form-keypad", language, axe=width == 412)
    scorer.screenshot(path=str(shots / f"page-deal-form-keypad-screen-{language}.png"))  # the keypad stays put
    if found:
        problems["deal-form-keypad"] = found
    # the rules desk with an answer shown (the swap answer has the most parts)
    viewer.goto(server + "/rules/desk")
    viewer.locator("#swap-meld").fill("JK K♠ K♣")
    viewer.locator("#swap-card").fill("K♦")
    with viewer.expect_navigation():
        viewer.locator("#swap-submit").click()
    expect(viewer.locator("#swap-answer")).to_have_attribute("data-legal", "true")
    found = look(viewer, shots, "desk-swap-answered", language, axe=width == 412)
    if found:
        problems["desk-swap-answered"] = found
    viewer.locator("#desk-swap").screenshot(path=str(shots / f"page-desk-swap-answer-{language}.png"))
    rows = viewer.evaluate("""() => [...document.querySelectorAll('#swap-answer-facts dt')].map(
        dt => Math.abs(dt.getBoundingClientRect().top - dt.nextElementSibling.getBoundingClientRect().top))""")
    assert rows and max(rows) < 8, rows  # each fact's name beside its value, not a line of its own
    # the players' statistics scroll sideways on the narrower phones, never on a Pixel 7
    viewer.goto(server + "/players")
    hidden = viewer.evaluate(
        "() => { const box = document.querySelector('.scroll'); return box.scrollWidth - box.clientWidth; }"
    )
    if width == 412 and hidden > 1:
        problems["players"] = [f"the statistics scroll {hidden}px sideways"]
    # an ended session: its page names the winner, never "leads"
    scorer.goto(f"{server}/s/{sid}")
    scorer.locator("#end-panel > summary, #end-session").first.wait_for()
    if scorer.locator("#end-panel > summary").count():
        scorer.locator("#end-panel > summary").tap()
    with scorer.expect_navigation():
        scorer.locator("#end-session").tap()
    leader = scorer.locator("#totals tr.leader .badge")
    expect(leader).to_have_text("победа" if locale == "ru-RU" else "won")
    found = look(scorer, shots, "session-ended", language, axe=width == 412)
    if found:
        problems["session-ended"] = found
    assert problems == {}, "\n".join(f"{name}: {found}" for name, found in problems.items())


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_a_long_evening_opens_its_earlier_deals_and_keeps_them_open_live(server, phones, shots, locale):
    """30 deals: the last 20 show, the earlier 10 one tap away; the panel stays open while deals arrive."""
    made = api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": PLAYERS})
    sid, token = made["id"], made["edit_token"]
    for i in range(30):
        api(server, "POST", f"/api/v1/sessions/{sid}/deals", DEALS[i % len(DEALS)], token)
    viewer = phones(locale=locale).new_page()
    viewer.goto(f"{server}/s/{sid}")
    earlier = viewer.locator("#deals-earlier tr.deal")
    expect(viewer.locator("#deals tr.deal")).to_have_count(20)
    expect(earlier.first).to_be_hidden()
    problems = {"closed": look(viewer, shots, "session-long", locale[:2])}
    viewer.locator("#earlier-deals > summary").tap()
    expect(earlier).to_have_count(10)
    expect(earlier.last).to_be_visible()
    problems["open"] = look(viewer, shots, "session-long-open", locale[:2])
    assert problems == {"closed": [], "open": []}, problems
    expect(viewer.locator("#live")).to_have_attribute("data-live", "on")
    api(server, "POST", f"/api/v1/sessions/{sid}/deals", DEALS[0], token)  # deal 31 arrives by the live poll
    expect(viewer.locator('#deals tr.deal[data-number="31"]')).to_have_count(1, timeout=10_000)
    expect(viewer.locator("#earlier-deals")).to_have_attribute("open", "")
    expect(earlier).to_have_count(11)
    expect(earlier.last).to_be_visible()


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_a_club_of_55_players_sees_the_first_50_then_all_with_one_tap(server, phones, shots, locale):
    names = [f"Игрок {n:02d}" for n in range(55)]
    for i in range(0, len(names), 5):
        seated = names[i : i + 5]
        made = api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": seated})
        deal = {
            "players": [{"name": seated[0], "melds": ["A♠ A♥ A♦"], "hand": ""}]
            + [
                {"name": n, "melds": [], "hand": hand}
                for n, hand in zip(seated[1:], ["K♣", "Q♦", "5♥", "7♠"], strict=True)
            ],
            "went_out": seated[0],
        }
        api(server, "POST", f"/api/v1/sessions/{made['id']}/deals", deal, made["edit_token"])
    viewer = phones(locale=locale).new_page()
    viewer.goto(f"{server}/players")
    rows = viewer.locator(".player-stats tbody tr")
    expect(rows).to_have_count(50)
    problems = {"first": look(viewer, shots, "players-first", locale[:2])}
    viewer.locator("#players-more").screenshot(path=str(shots / f"page-players-more-{locale[:2]}.png"))
    viewer.locator(".chart-figure").screenshot(path=str(shots / f"page-players-chart-{locale[:2]}.png"))
    with viewer.expect_navigation():
        viewer.locator("#show-all-players").tap()  # one tap to every player
    expect(rows).to_have_count(55)
    expect(viewer.locator("#show-first-players")).to_be_visible()
    problems["all"] = look(viewer, shots, "players-all", locale[:2])
    assert problems == {"first": [], "all": []}, problems


@pytest.mark.parametrize("width", [412, 360])
def test_a_long_one_word_name_keeps_every_total_on_screen(server, phones, shots, width):
    """A name may be 40 letters: written as one word, it breaks inside the scoreboard, the deals table and
    the summary, rather than push the totals off the phone's screen."""
    long = "Александрина-Виктория"[:12] + "Константиновна"  # 26 letters, no space
    players = [long, "Борис", "Вера", "Григорий", "Дина"]
    made = api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": players})
    deal = {
        "players": [{"name": long, "melds": ["A♠ A♥ A♦"], "hand": ""}]
        + [{"name": n, "hand": h} for n, h in zip(players[1:], ["K♣", "Q♦", "5♥", "7♠"], strict=True)],
        "went_out": long,
    }
    api(server, "POST", f"/api/v1/sessions/{made['id']}/deals", deal, made["edit_token"])
    viewer = phones(locale="ru-RU", viewport={"width": width, "height": 800}).new_page()
    problems = {}
    for path, name in ((f"/s/{made['id']}", "session"), (f"/s/{made['id']}/summary", "summary")):
        viewer.goto(server + path)
        found = look(viewer, shots, f"long-name-{name}", f"ru-{width}")
        totals = viewer.evaluate(
            "[...document.querySelectorAll('#totals td.total, .standings td.num')]"
            ".map(c => c.getBoundingClientRect().right)"
        )
        found += [f"a total at {right:.0f}px" for right in totals if right > width + 1]
        if found or not totals:
            problems[name] = found or ["no totals found"]
    # the players' statistics: the name breaks in its column, the numbers beside it stay in view
    viewer.goto(server + "/players")
    found = look(viewer, shots, "long-name-players", f"ru-{width}")
    share = viewer.evaluate(
        """long => { const box = document.querySelector('.scroll');
        const th = [...box.querySelectorAll('tbody th')].find(th => th.textContent.includes(long));
        return th.getBoundingClientRect().width / box.clientWidth; }""",
        long,
    )
    if found or share > 0.5:
        problems["players"] = found + [f"the name takes {share:.0%} of the table's width"]
    assert problems == {}, problems


#: each player's rating as the row shows it, and the line boxes the word "provisional" takes in the legend
PROVISIONAL = """word => {
  const ratings = [...document.querySelectorAll('.player-stats small.rating')].map(
    small => small.querySelector('.provisional-mark')?.textContent);
  const legend = document.querySelector('#provisional-legend').firstChild;
  const at = legend.data.indexOf(word);
  const range = document.createRange();
  range.setStart(legend, at);
  range.setEnd(legend, at + word.length);
  return {ratings, at, lines: new Set([...range.getClientRects()].map(r => Math.round(r.top))).size}; }"""


@pytest.mark.parametrize("width", [320, 360, 412])
def test_provisional_is_never_broken_inside_the_word_on_the_players_page(server, phones, shots, width):
    """A provisional rating is marked «*» in the row, beside a long name too, and «предварительный» is said once, whole,
    in the legend under the table (a screen reader hears it in the row as well); the table does not scroll."""
    long = "Александрина-Константиновна"
    players = [long, "Борис", "Вера", "Григорий", "Дина"]
    made = api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": players})
    deal = {
        "players": [{"name": long, "melds": ["A♠ A♥ A♦"], "hand": ""}]
        + [{"name": n, "hand": h} for n, h in zip(players[1:], ["K♣", "Q♦", "5♥", "7♠"], strict=True)],
        "went_out": long,
    }
    api(server, "POST", f"/api/v1/sessions/{made['id']}/deals", deal, made["edit_token"])
    viewer = phones(locale="ru-RU", viewport={"width": width, "height": 800}).new_page()
    viewer.goto(server + "/players")
    found = look(viewer, shots, "players-provisional", f"ru-{width}", axe=False)
    shown = viewer.evaluate(PROVISIONAL, "предварительный")
    assert len(shown["ratings"]) == len(players), shown  # every player's rating is provisional after one session
    assert shown["ratings"] == ["*"] * len(players), shown
    assert shown["at"] >= 0 and shown["lines"] == 1 and found == [], (shown, found)
    hidden = viewer.locator(".player-stats small.rating .visually-hidden").all_text_contents()
    assert hidden == [" (предварительный)"] * len(players), hidden


#: the keys a row of the keypad shows (ranks, then suits)
KEYS_A_ROW = """() => ['.keypad-ranks', '.keypad-suits'].map(
  s => getComputedStyle(document.querySelector(s)).gridTemplateColumns.split(' ').length)"""


@pytest.mark.parametrize("width", [412, 320])
def test_with_text_twice_as_large_the_keypad_keeps_its_labels_and_leaves_room_for_the_form(
    server, phones, shots, width
):
    """WCAG 1.4.4: with the text at twice its size (a phone's large-text setting) every key still holds its
    label (fewer keys a row), the footer holding the keypad scrolls rather than cover the whole screen, and
    the keys still type. At the usual size the keypad keeps seven keys a row."""
    sid, edit_url = evening(server)
    page = phones(locale="ru-RU", viewport={"width": width, "height": 800}).new_page()
    page.goto(edit_url)
    set_hand_entry(page, f"{server}/s/{sid}", "cards")  # the keypad with its suits
    page.goto(f"{server}/s/{sid}/deals/new")
    hand = page.locator("#players-0-hand")  # the first player's, on the first screen
    hand.focus()
    expect(page.locator("#keypad")).to_be_visible()
    assert page.evaluate(KEYS_A_ROW) == [7, 7]
    page.evaluate("() => { document.documentElement.style.fontSize = '36px'; }")  # the page's 18px, doubled
    page.screenshot(path=str(shots / f"page-deal-form-keypad-large-text-ru-{width}.png"))
    findings = [f for f in page.evaluate(LAYOUT) if f.startswith(("clipped", "key on"))]
    ranks, suits = page.evaluate(KEYS_A_ROW)
    footer = page.locator("#deal-footer").bounding_box()
    assert findings == [] and ranks < 7 and suits < 7, (findings, ranks, suits)
    assert footer["height"] <= 0.7 * 800 + 1, footer  # the form keeps the top of the screen
    for key in ('[data-rank="10"]', '[data-suit="♥"]'):  # scrolled to in the footer, then a finger's tap
        button = page.locator(f"#keypad {key}")
        button.evaluate("el => el.scrollIntoView({block: 'nearest'})")
        box = button.bounding_box()
        assert box["y"] >= 800 - footer["height"] - 1 and box["y"] + box["height"] <= 801, (key, box)
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(hand).to_have_value(re.compile(r"^10♥\s*$"))


def test_the_layout_check_catches_a_wide_table_a_cell_too_narrow_and_a_clipped_button(server, phones):
    """The checks above can fail."""
    page = phones().new_page()
    page.goto(server + "/")
    page.evaluate("""() => {
        const main = document.querySelector('main');
        main.insertAdjacentHTML('beforeend', '<table id=wide><thead><tr>'
            + '<th>Player_with_a_long_unbreakable_name</th>'.repeat(6) + '</tr></thead></table>');
        // (styles set from script: the page's CSP refuses style attributes)
        main.insertAdjacentHTML('beforeend', '<table id=narrow><tbody><tr>'
            + '<td><small>выход выход</small></td>' + '<td>1</td>'.repeat(4) + '</tr></tbody></table>');
        Object.assign(document.querySelector('#narrow').style, {tableLayout: 'fixed', width: '200px'});
        Object.assign(document.querySelector('#narrow small').style, {display: 'block', whiteSpace: 'nowrap'});
        const button = document.createElement('button');
        button.textContent = 'A caption far too long for its button';
        Object.assign(button.style, {width: '40px', whiteSpace: 'nowrap', overflow: 'hidden'});
        main.appendChild(button);
    }""")
    found = page.evaluate(LAYOUT)
    assert any(f.startswith("table wide") for f in found) and any(f.startswith("clipped") for f in found), found
    assert any(f.startswith("cell ") and f.endswith("in narrow") for f in found), found


def test_the_scorer_finds_the_qr_code_on_the_first_screen_then_one_tap_away(server, phones):
    made = api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": PLAYERS})
    page = phones(locale="ru-RU").new_page()
    page.goto(made["edit_url"])
    qr = page.locator("#join svg").bounding_box()
    assert qr["y"] + qr["height"] <= page.viewport_size["height"], qr  # before the first deal: the first screen
    api(server, "POST", f"/api/v1/sessions/{made['id']}/deals", DEALS[0], made["edit_token"])
    page.reload()
    assert page.locator("#join svg").bounding_box()["y"] > page.viewport_size["height"]  # the scores come first now
    page.locator("#jump-to-join").tap()
    expect(page.locator("#join svg")).to_be_in_viewport()


def test_the_table_screen_follows_the_scorers_phone_live(server, phones, browser, shots):
    """A laptop in the middle of the table shows the totals big, who deals next, and the deal that just
    arrived from the scorer's phone (its changes highlighted, its melds), without anyone touching it."""
    scorer = phones(locale="ru-RU").new_page()
    url = start_on_phone(scorer, server, ["Анна", "Борис", "Вера"], "cards")
    laptop = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ru-RU").new_page()
    laptop.goto(url + "/table")
    expect(laptop.locator(".table-title")).to_contain_text("Партия 1")
    assert laptop.locator(".topbar").is_hidden()  # a screen, not a page to browse
    name = laptop.locator(".table-standings li").first.locator(".name")
    assert float(name.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 40  # legible from two metres
    laptop.evaluate("window.stillWatching = true")
    first_version = laptop.locator("#table-live").get_attribute("data-version")

    open_deal_form(scorer, "#record-deal")
    fill(scorer, "players-0-melds", "A♠ A♥ A♦\n5♥ 6♥ 7♥")
    fill(scorer, "players-1-hand", "K♣ 3♦")
    fill(scorer, "players-2-hand", "Q♠")
    scorer.locator("#went_out").select_option("Анна")
    save(scorer, "Партия 1 записана")

    expect(laptop.locator(".table-title")).to_contain_text("Партия 2", timeout=10_000)
    changes = laptop.locator(".table-standings .change.fresh")
    expect(changes).to_have_count(3)
    assert sorted(changes.all_inner_texts()) == sorted(["+45", "−15", "−10"])
    # a loss is highlighted in the colour of a loss, a gain in the accent colour
    losses = laptop.locator(".table-standings .change.fresh.loss")
    assert sorted(losses.all_inner_texts()) == sorted(["−15", "−10"])
    colour = "e => getComputedStyle(e).animationName"
    assert losses.first.evaluate(colour) == "fresh-loss"
    assert laptop.locator(".table-standings li").first.locator(".change").evaluate(colour) == "fresh"
    expect(laptop.locator(".table-standings li").first).to_have_attribute("data-player", "Анна")
    expect(laptop.locator("#table-dealer")).to_have_text(scorer.locator("#next-dealer").inner_text())
    expect(laptop.locator(".table-screen-melds li").first.locator(".meld")).to_have_count(2)
    # swapped in place, not reloaded: the page (and its wake lock, and full screen) is the one first opened
    assert laptop.evaluate("window.stillWatching") is True
    expect(laptop.locator("body")).to_have_attribute("data-wake-lock", re.compile(r"^(on|off|unavailable)$"))
    expect(laptop).to_have_title(re.compile("Анна, Борис, Вера"))
    assert laptop.locator("#table-live").get_attribute("data-version") != first_version
    laptop.screenshot(path=str(shots / "page-table-screen-laptop-ru.png"))
    close_phone(laptop.context)


def test_the_start_form_keeps_start_on_screen_and_shows_the_chosen_games_defaults(server, phones):
    page = phones(locale="ru-RU").new_page()
    page.goto(server + "/")
    expect(page.locator("#create")).to_be_in_viewport()  # the seats do not push it off the first screen
    expect(page.locator("#players-5")).to_be_hidden()  # Kunken seats five: the sixth is behind "More seats"
    page.locator("#players-4").fill("Пятый")  # the last seat open, at the bottom of the seats
    expect(page.locator("#create")).to_be_in_viewport()
    # the way hands are entered sits right under the players, the one tap a card (by rank) chosen
    expect(page.locator("#hand_entry")).to_be_in_viewport()
    expect(page.locator("#hand_entry")).to_have_value("ranks")
    page.locator("#house-rules > summary").tap()
    expect(page.locator("#rules-hand_size")).to_have_value("13")
    page.locator("#rules-opening_points").fill("40")  # the table's own choice stays as typed
    page.locator("#game").select_option("ordered-rummy")
    expect(page.locator("#rules-hand_size")).to_have_value("8")
    expect(page.locator("#rules-ace_points")).to_have_value("15")
    expect(page.locator("#rules-opening_points")).to_have_value("40")
    expect(page.locator("#defaults-of")).to_contain_text("порядковый рамми", ignore_case=True)


@pytest.mark.parametrize("width", [412, 360, 320])
def test_a_phone_shows_the_chart_drawn_for_it_with_labels_it_can_read(server, phones, shots, width):
    """The session page's and the summary's chart shrinks with its 12-pixel text: a phone gets the narrower
    chart, whose names and totals stay about 10 px (the full chart's were 6 to 7.5 px)."""
    sid, _edit_url = evening(server)
    page = phones(viewport={"width": width, "height": 800}).new_page()
    for path in (f"/s/{sid}", f"/s/{sid}/summary"):
        page.goto(server + path)
        shown_chart = page.locator(".chart-figure .chart:visible")
        expect(shown_chart).to_have_count(1)
        shown_chart.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => [...document.querySelectorAll('img.chart')].some(i => i.offsetWidth && i.complete && i.naturalWidth)"
        )
        source, shown, drawn = page.evaluate(
            "() => { const i = [...document.querySelectorAll('img.chart')].find(i => i.offsetWidth); "
            "return [i.currentSrc, i.getBoundingClientRect().width, i.naturalWidth]; }"
        )
        assert "size=phone" in source, path
        assert 12 * shown / drawn >= (9.5 if width >= 360 else 8.5), f"{path}: labels of {12 * shown / drawn:.1f} px"
        page.locator(".chart-figure").screenshot(path=str(shots / f"page-chart-{width}-{path.count('/')}.png"))


def test_a_wide_screen_and_a_printed_summary_keep_the_full_chart(server, phones):
    """The full chart where there is room for it: a laptop's session page and summary, and the summary printed
    from a phone."""
    sid, _edit_url = evening(server)
    laptop = phones(viewport={"width": 1024, "height": 800}).new_page()
    laptop.goto(f"{server}/s/{sid}")
    laptop.locator("img.chart").scroll_into_view_if_needed()
    laptop.wait_for_function("() => document.querySelector('img.chart').currentSrc")
    assert "size=phone" not in laptop.evaluate("document.querySelector('img.chart').currentSrc")
    laptop.goto(f"{server}/s/{sid}/summary")
    expect(laptop.locator(".chart-full svg")).to_be_visible()
    expect(laptop.locator("img.chart-phone")).to_be_hidden()
    phone = phones(viewport={"width": 412, "height": 800}).new_page()
    phone.goto(f"{server}/s/{sid}/summary")
    expect(phone.locator(".chart-full svg")).to_be_hidden()
    phone.emulate_media(media="print")
    expect(phone.locator(".chart-full svg")).to_be_visible()
    expect(phone.locator("img.chart-phone")).to_be_hidden()
