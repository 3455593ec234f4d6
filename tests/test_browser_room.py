"""The room screen (templates/night_room.html, static/room.js) on a TV at 1280×720 and 1920×1080, for nights of 5,
20, 40 and 100 players (tables of five: the most a night has is 20 tables), a few tables with a deal recorded.

At each size, on every page the screen turns to: nothing scrolls; the QR code to follow the night is wholly on the
screen and shows the very modules of the night's address (read back from a screenshot, module by module, against
the QR code's own matrix); every name is at least 3% of the screen's height, the column heads as large as the names
and in the text's colour; the standings in the night's ranking with both Total and Points. Within one turn of the
pages every player is on the screen, in the standings and in the seating. axe-core (WCAG 2.1 AA) passes and the
strict CSP sees no violation. Then: the screen follows a table's new deal on the page it was on; ``?timer=30``
counts down and says when time is up; without JavaScript the first page fits and says how many are not shown.
Screenshots (``room-*.png``) go to ``KUNKEN_SHOTS`` when it is set."""

from __future__ import annotations

import base64
import json
import re
import urllib.request
from pathlib import Path

import pytest
from conftest import axe_violations, close_phone, no_horizontal_overflow, shots_dir
from playwright.sync_api import Page, expect

from kunken_scorer.qrcodes import qr_modules

SCREENS = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})
FIRST = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира", "Лев", "Мария", "Нина"]
LAST = ["Kate", "Liam", "Olga", "Pavel", "Rosa", "Sam", "Tanya", "Victor"]
#: a name longer than any column holds: cut with an ellipsis, never widening the column past the screen
LONG = "Александра Константинопольская"

WATCH = """document.addEventListener('securitypolicyviolation', function (e) {
  (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + (e.blockedURI || e.sourceFile || ''));
});"""


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = shots_dir(tmp_path_factory.mktemp("room"))
    for old in folder.glob("room-*.png"):
        old.unlink()
    return folder


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    request = urllib.request.Request(
        base + path,
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"{}")


def players(count: int) -> list[str]:
    """``count`` different names, Russian and English, the fourth very long."""
    pool = FIRST + [f"{first} {last[0]}." for last in LAST for first in FIRST]
    return [*pool[:3], LONG, *pool[3:]][:count]


def deal(names: list[str], winner: int) -> dict:
    """A deal of five: ``names[winner]`` goes out (+45), the others lose what they hold."""
    hands = ["K♣ 3♦", "Q♠", "2♣", "4♦ 5♠"]
    others = [n for i, n in enumerate(names) if i != winner]
    return {
        "players": [{"name": names[winner], "melds": ["A♠ A♥ A♦", "5♥ 6♥ 7♥"], "hand": ""}]
        + [{"name": n, "hand": h} for n, h in zip(others, hands, strict=True)],
        "went_out": names[winner],
    }


def night_of(base: str, count: int) -> dict:
    """A night of ``count`` players at tables of five, a deal recorded at its first three tables (different
    winners, so the standings differ): its id, address, players and tables (with each table's token)."""
    names = players(count)
    seating = [names[i : i + 5] for i in range(0, count, 5)]
    made = api(base, "/api/v1/nights", {"tables": seating})
    for number, (table, links) in enumerate(zip(seating, made["tables"], strict=True)):
        if number < 3:
            api(base, f"/api/v1/sessions/{links['id']}/deals", deal(table, number % 5), links["edit_token"])
    return {"id": made["id"], "view_url": made["view_url"], "names": names, "seating": seating, "links": made["tables"]}


def screen(browser, size: dict, locale: str = "en-US", **extra):
    context = browser.new_context(viewport=size, locale=locale, **extra)
    context.set_default_timeout(10_000)
    context.add_init_script(WATCH)
    return context


#: one page of the room screen as the TV shows it: the page's size against the screen, the QR code's box, the
#: smallest name and column head, each column head's colour against the text's, the names on the screen (their
#: boxes inside it) and the page indicator
PAGE = """() => {
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  const inside = r => r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const size = el => parseFloat(getComputedStyle(el).fontSize);
  const qr = document.querySelector('.room-join .qr'), q = qr.getBoundingClientRect(), qs = getComputedStyle(qr);
  const pad = parseFloat(qs.paddingLeft);
  const rows = [...document.querySelectorAll('#room-stage tbody tr')];
  const seated = [...document.querySelectorAll('#room-stage .room-seat-players li')];
  const heads = [...document.querySelectorAll('#room-stage thead th')]
    .filter(h => !h.querySelector('.visually-hidden'));
  const stage = document.getElementById('room-stage').getBoundingClientRect();
  const out = el => { const r = el.getBoundingClientRect(); return !inside(r) || r.right > stage.right + 0.5; };
  return {
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight, vw, vh],
    qr: {inside: inside(q), x: q.left + pad, y: q.top + pad, size: q.width - 2 * pad,
         modules: qr.viewBox.baseVal.width},
    names: rows.map(r => r.dataset.player), seated: seated.map(s => s.dataset.player),
    offscreen: [...rows, ...seated].filter(out).map(el => el.dataset.player),
    spilt: [...document.querySelectorAll('#room-stage .room-table, #room-stage .room-seat')].filter(el => {
      const r = el.getBoundingClientRect(), c = el.parentElement.getBoundingClientRect();
      return r.width && (r.right > c.right + 0.5 || r.left < c.left - 0.5); }).length,
    nameSize: Math.min(...rows.map(r => size(r.querySelector('.name'))), ...seated.map(size)),
    headSize: Math.min(...heads.map(size)),
    headColours: [...new Set(heads.map(h => getComputedStyle(h).color))],
    textColour: getComputedStyle(document.body).color,
    heads: heads.map(h => h.textContent.trim()),
    page: document.getElementById('night-live').dataset.page || '1',
    pages: document.getElementById('night-live').dataset.pages || '1',
    pager: document.getElementById('room-pager').hidden ? '' : document.getElementById('room-page').textContent,
    ranking: document.getElementById('room-ranking').textContent.trim(),
  };
}"""

#: the modules of a screenshot of the QR code (its content box, ``count`` modules a side), read at each module's
#: centre on a blank page (the app's CSP allows no data: image, rightly)
READ_QR = """async ([png, count]) => {
  const img = new Image(); img.src = 'data:image/png;base64,' + png; await img.decode();
  const canvas = document.createElement('canvas'); canvas.width = img.width; canvas.height = img.height;
  const g = canvas.getContext('2d'); g.drawImage(img, 0, 0);
  const data = g.getImageData(0, 0, img.width, img.height).data, step = img.width / count;
  const rows = [];
  for (let y = 0; y < count; y++) {
    const row = [];
    for (let x = 0; x < count; x++) {
      const i = (Math.floor((y + 0.5) * step) * img.width + Math.floor((x + 0.5) * step)) * 4;
      row.push(data[i] + data[i + 1] + data[i + 2] < 3 * 128);
    }
    rows.push(row);
  }
  return rows;
}"""


def read_qr(page: Page, reader: Page, box: dict) -> list[list[bool]]:
    """The QR code on ``page`` read back from the screen, module by module."""
    clip = {"x": box["x"], "y": box["y"], "width": box["size"], "height": box["size"]}
    png = base64.b64encode(page.screenshot(clip=clip)).decode()
    return reader.evaluate(READ_QR, [png, box["modules"]])


def check_page(tv: Page, reader: Page, night: dict) -> dict:
    """One page of the screen: what it shows, after the checks every page passes."""
    found = tv.evaluate(PAGE)
    width, height, vw, vh = found["scroll"]
    assert width <= vw and height <= vh, f"the screen scrolls: {width}×{height} on {vw}×{vh}"
    qr = found["qr"]
    assert qr["inside"], f"the QR code is not wholly on the screen: {qr}"
    assert qr["size"] >= 3 * qr["modules"], f"the QR code's modules are under 3 px: {qr}"
    assert read_qr(tv, reader, qr) == qr_modules(night["view_url"]), "the QR code on the screen is not the night's"
    assert found["offscreen"] == [], f"names past the screen or the stage: {found['offscreen']}"
    assert found["spilt"] == 0, "a column wider than its place on the stage"
    assert found["nameSize"] >= 0.03 * vh, f"names of {found['nameSize']} px on a screen {vh} px high"
    if found["names"]:  # a page of the standings (not one of the seating alone)
        assert found["headSize"] >= found["nameSize"], f"heads of {found['headSize']} px, names {found['nameSize']}"
        assert found["headColours"] == [found["textColour"]], "column heads not in the text's colour"
    return found


def every_page(tv: Page, reader: Page, night: dict) -> list[dict]:
    """Every page of one turn of the screen (``?turn=1``: a page a second), each checked, in page order. Each is
    read in one go (the page it says it is, with what it shows), so a turn while the test looks skips nothing."""
    seen: dict[int, dict] = {}
    pages = 1
    for _ in range(40):
        found = check_page(tv, reader, night)
        pages = int(found["pages"])
        seen[int(found["page"])] = found
        if len(seen) == pages:
            break
        expect(tv.locator("#night-live")).not_to_have_attribute("data-page", found["page"])
    assert sorted(seen) == list(range(1, pages + 1)), f"pages seen: {sorted(seen)} of {pages}"
    return [seen[n] for n in sorted(seen)]


@pytest.mark.parametrize("count", [5, 20, 40, 100])
def test_every_night_fits_the_tv_and_shows_everyone_within_one_turn(server, browser, shots, count):
    night = night_of(server, count)
    url = f"{server}/nights/{night['id']}/room?turn=1"
    reader = browser.new_page()
    for size, locale, scheme in zip(SCREENS, ("en-US", "ru-RU"), ("light", "dark"), strict=True):
        context = screen(browser, size, locale, color_scheme=scheme)
        context.add_cookies([{"name": "lang", "value": locale[:2], "url": server}])
        tv = context.new_page()
        tv.goto(url)
        expect(tv.locator("#night-live")).to_have_class(re.compile(r"\broom-paged\b"))
        assert tv.locator(".topbar").is_hidden()
        where = f"{count} players at {size['width']}×{size['height']}"
        pages = every_page(tv, reader, night)
        shown = [name for page in pages for name in page["names"]]
        assert sorted(shown) == sorted(night["names"]), f"{where}: the standings showed {len(shown)} of {count}"
        seated = [name for page in pages for name in page["seated"]]
        assert sorted(seated) == sorted(night["names"]), f"{where}: the seating showed {len(seated)} of {count}"
        first = pages[0]
        assert first["heads"][:4] == (
            ["Player", "Table", "Total", "Points"] if locale == "en-US" else ["Игрок", "Стол", "Итого", "Очки"]
        ), where
        assert first["ranking"] == ("Ranked by place points" if locale == "en-US" else "Порядок — по очкам за места")
        if len(pages) > 1:
            total = len(pages)
            assert first["pager"] == (
                f"Page {first['page']} of {total}" if locale == "en-US" else f"Страница {first['page']} из {total}"
            ), where
        else:
            assert first["pager"] == "", where
        if count <= 20:
            assert len(pages) == 1, f"{where}: {len(pages)} pages for a night that fits one"
        if count == 5:  # room to spare: the names grow
            assert first["nameSize"] >= 0.05 * size["height"], f"{where}: names of {first['nameSize']} px"
        # the standings in the night's ranking: place points, best first, places not going down
        points = tv.locator("#room-stage td.points").evaluate_all("es => es.map(e => parseFloat(e.dataset.points))")
        assert points == sorted(points, reverse=True), where
        assert tv.evaluate("window.__csp || []") == [], where
        assert [f"axe {v}" for v in axe_violations(tv)] == [], where
        tv.screenshot(path=str(shots / f"room-{count}-{size['width']}x{size['height']}-{locale[:2]}-{scheme}.png"))
        close_phone(context)
    close_phone(reader.context)


def test_the_screen_follows_a_new_deal_on_the_page_it_shows(server, browser, shots):
    night = night_of(server, 100)
    context = screen(browser, SCREENS[0])
    tv = context.new_page()
    tv.goto(f"{server}/nights/{night['id']}/room?turn=1")
    live = tv.locator("#night-live")
    expect(live).to_have_attribute("data-page", "2")
    tv.locator("#room-pause").click()
    expect(tv.locator("#room-pause")).to_have_attribute("aria-pressed", "true")
    page = live.get_attribute("data-page")
    tv.evaluate("window.stillWatching = true")
    version = live.get_attribute("data-version")
    table = night["seating"][10]  # a table that had not played
    api(server, f"/api/v1/sessions/{night['links'][10]['id']}/deals", deal(table, 0), night["links"][10]["edit_token"])
    expect(live).not_to_have_attribute("data-version", version, timeout=10_000)
    assert live.get_attribute("data-page") == page, "the screen went back to another page"
    assert tv.evaluate("window.stillWatching") is True  # swapped in place, never reloaded
    expect(tv.locator("#room-pause")).to_have_attribute("aria-pressed", "true")
    tv.wait_for_timeout(2_500)
    assert live.get_attribute("data-page") == page, "paused, the pages turned"
    tv.locator("#room-pause").click()
    expect(live).not_to_have_attribute("data-page", page)
    # the winner's row found on whichever page it is now: 45 in total
    for _ in range(int(live.get_attribute("data-pages")) + 1):
        row = tv.locator(f'#room-stage tr[data-player="{table[0]}"]')
        if row.count():
            break
        tv.wait_for_timeout(1_000)
    expect(row.locator(".total")).to_have_attribute("data-total", "45")
    tv.screenshot(path=str(shots / "room-live-1280x720-en.png"))
    close_phone(context)


@pytest.mark.parametrize("timer", ["0", "241", "abc", "30.5", "-5", ""])
def test_a_timer_that_is_not_1_to_240_minutes_shows_nothing(server, browser, timer):
    night = night_of(server, 5)
    context = screen(browser, SCREENS[0])
    tv = context.new_page()
    tv.goto(f"{server}/nights/{night['id']}/room" + (f"?timer={timer}" if timer else ""))
    expect(tv.locator("#night-live")).to_have_class(re.compile(r"\broom-paged\b"))
    tv.wait_for_timeout(1_200)
    expect(tv.locator("#room-timer")).to_be_hidden()
    close_phone(context)


def test_the_round_timer_counts_down_then_says_time_is_up(server, browser, shots):
    night = night_of(server, 20)
    context = screen(browser, SCREENS[0], locale="ru-RU")
    context.add_cookies([{"name": "lang", "value": "ru", "url": server}])
    tv = context.new_page()
    tv.clock.install()
    tv.goto(f"{server}/nights/{night['id']}/room?timer=30")
    timer = tv.locator("#room-timer")
    expect(timer).to_be_visible()
    clock = tv.locator("#room-clock").inner_text()
    minutes, seconds = (int(n) for n in re.fullmatch(r"(\d+):(\d\d)", clock).groups())
    assert 29 * 60 <= minutes * 60 + seconds <= 30 * 60, clock
    expect(tv.locator("#room-timer-label")).to_have_text("До конца тура")
    assert tv.locator("#room-clock").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 0.08 * 720
    check_page(tv, browser.new_page(), night)  # the timer takes no room the QR code needs
    tv.screenshot(path=str(shots / "room-timer-1280x720-ru.png"))
    tv.clock.fast_forward("31:00")
    expect(tv.locator("#room-clock")).to_have_text("0:00")
    expect(tv.locator("#room-timer-label")).to_have_text("Время вышло")
    expect(timer).to_have_class(re.compile(r"\bover\b"))
    assert [f"axe {v}" for v in axe_violations(tv)] == []
    close_phone(context)


@pytest.mark.parametrize("size", SCREENS, ids=["1280x720", "1920x1080"])
def test_without_javascript_the_first_page_fits_and_says_who_is_not_shown(server, browser, shots, size):
    night = night_of(server, 100)
    context = screen(browser, size, java_script_enabled=False)
    tv = context.new_page()
    tv.goto(f"{server}/nights/{night['id']}/room")
    found = tv.evaluate(PAGE)
    width, height, vw, vh = found["scroll"]
    assert width <= vw and height <= vh, f"the screen scrolls: {width}×{height} on {vw}×{vh}"
    assert found["qr"]["inside"], found["qr"]
    assert found["spilt"] == 0, "a column wider than its place on the stage"
    assert found["qr"]["size"] >= 3 * found["qr"]["modules"], found["qr"]
    visible = tv.locator("#room-stage tbody tr:visible")
    expect(visible).to_have_count(16)
    assert visible.evaluate_all("rs => rs.map(r => r.dataset.player)") == tv.locator(
        "#room-stage tbody tr"
    ).evaluate_all("rs => rs.slice(0, 16).map(r => r.dataset.player)")
    for row in range(16):
        box = visible.nth(row).bounding_box()
        assert box["y"] + box["height"] <= vh, f"row {row + 1} past the screen"
    assert tv.locator("#room-stage .name-text").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= (
        0.03 * vh
    )
    seats = tv.locator("#room-stage .room-seat:visible")
    for n in range(seats.count()):
        box = seats.nth(n).bounding_box()
        assert box["y"] + box["height"] <= vh, f"table {n + 1} of the seating past the screen"
    hidden_tables = 20 - seats.count()
    assert hidden_tables > 0
    expect(tv.locator("#room-more")).to_have_text(
        f"84 more players not shown. {hidden_tables} more tables not shown. With JavaScript on, this screen turns its"
        " pages."
    )
    more = tv.locator("#room-more").bounding_box()
    assert more["y"] + more["height"] <= vh, "the note of who is not shown is past the screen"
    assert tv.locator("#room-timer").is_hidden() and tv.locator("#room-pager").is_hidden()
    tv.screenshot(path=str(shots / f"room-nojs-100-{size['width']}x{size['height']}.png"))
    close_phone(context)


def test_on_a_phone_the_room_screen_is_one_long_page(server, phones):
    night = night_of(server, 40)
    phone = phones().new_page()
    phone.goto(f"{server}/nights/{night['id']}/room")
    expect(phone.locator("#night-live")).to_have_class(re.compile(r"\broom-paged\b"))
    expect(phone.locator("#room-stage tbody tr")).to_have_count(40)
    expect(phone.locator("#room-stage .room-seat")).to_have_count(8)
    expect(phone.locator("#room-pager")).to_be_hidden()
    no_horizontal_overflow(phone)
