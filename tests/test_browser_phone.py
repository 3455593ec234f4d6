"""The phone at the table, round 3 (issue 48): each item a newcomer's evening found, checked on a Pixel 7 (412 px),
a narrower Android phone (360 px) and the smallest (320 px), in Russian and in English, with the long Russian names
a family has (Анастасия, Константин, Григорий, Александра, Владимир, Екатерина) beside the short ones."""

from __future__ import annotations

import re
import urllib.error

import pytest
from conftest import close_keypad, fill, no_horizontal_overflow, quiet, ready, tap_and_wait
from playwright.sync_api import Page, expect
from test_browser_pages import api

from kunken_scorer.service import check_deal

LONG = ["Анастасия", "Константин", "Григорий", "Александра", "Владимир", "Екатерина"]
FAMILY = ["Анастасия", "Константин", "Вера", "Григорий", "Дина"]
PHONES = [
    pytest.param(width, height, locale, id=f"{width}-{locale[:2]}")
    for width, height in ((412, 839), (360, 740), (320, 640))
    for locale in ("ru-RU", "en-US")
]
WORDS = {
    "ru": {"locked": "заблокирован", "refused": "Не записано", "meld": "комбинация 1", "points": "5 очков"},
    "en": {"locked": "is locked", "refused": "Not recorded", "meld": "meld 1", "points": "5 points"},
}

#: every word of the page's buttons, links, labels and headings that the browser broke over two lines (not an
#: address, and not a name heading a column of the deals, whose columns share the screen by design)
BROKEN_WORDS = """() => {
  const broken = [];
  const places = 'button, .button, label, summary, .brand, .seat-tab, h1, h2, th, a, legend';
  for (const el of document.querySelectorAll(places)) {
    if (!el.getClientRects().length || el.closest('.deals thead')) { continue; }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
        if (lines.size > 1 && !m[0].includes('://')) { broken.push(m[0]); }
      }
    }
  }
  return [...new Set(broken)];
}"""


def phone(phones, width: int, height: int, locale: str) -> Page:
    return phones(locale=locale, viewport={"width": width, "height": height}).new_page()


def table(server: str, players: list[str]) -> dict:
    """A Kunken session of ``players`` started through the API: its id, edit token and addresses."""
    return api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": players})


def scorer_of(page: Page, made: dict) -> None:
    page.goto(made["edit_url"])
    expect(page.locator("#record-deal")).to_be_visible()


def deal_form_of(phones, server: str, made: dict, screen: tuple) -> Page:
    """A phone of ``screen`` (width, height, locale) made the scorer of ``made``, on its new deal's form."""
    page = phone(phones, *screen)
    scorer_of(page, made)
    page.goto(f"{server}/s/{made['id']}/deals/new")
    ready(page)
    return page


def played(store, sid: str, players: list[str], deals: int) -> None:
    """``deals`` deals recorded: each player in turn goes out with three aces, the others hold a card each."""
    for number in range(deals):
        out = number % len(players)
        hands = iter(["5♣", "6♥", "7♦", "9♠", "10♣", "4♥"])
        body = {
            "players": [
                {"name": n, "melds": ["A♠ A♥ A♦"], "hand": ""} if i == out else {"name": n, "hand": next(hands)}
                for i, n in enumerate(players)
            ],
            "went_out": players[out],
        }
        checked = check_deal(store.get_session(sid), body)
        assert checked.report.valid, checked.report.problems
        store.add_deal(sid, checked.record)


def seat_of(page: Page, made: dict, seat: int) -> None:
    """The phone opens the viewer link and takes ``seat`` (once an evening)."""
    page.goto(made["view_url"])
    tap_and_wait(page, f"#take-seat-{seat}")
    expect(page.locator("#part-form")).to_have_attribute("data-ready", "true")


# 1 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_1_every_seat_tab_shows_its_whole_name_apart_from_the_next(server, phones, width, height, locale):
    made = table(server, LONG[:5])  # Kunken seats five
    page = deal_form_of(phones, server, made, (width, height, locale))
    tabs = page.locator(".seat-tab")
    expect(tabs).to_have_count(5)
    boxes = []
    for i in range(5):
        tab = tabs.nth(i)
        assert tab.evaluate("t => t.scrollWidth <= t.clientWidth + 1"), tab.inner_text()  # the name is whole
        expect(tab).to_have_text(LONG[i])
        box = tab.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= width  # across the screen, none cut at its edge
        boxes.append(box)
    for i, a in enumerate(boxes):  # no tab under another
        for b in boxes[i + 1 :]:
            apart = a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
            assert apart or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5
    no_horizontal_overflow(page)


# 2 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_2_the_keypad_goes_down_for_the_steppers_and_the_express_box(server, store, phones, width, height, locale):
    """The keypad is for the card fields: a stepper of the counts, the Express box or who went out puts it away,
    so it never covers what the finger is on (the footer's own buttons keep it: they must not move under a tap)."""
    made = table(server, LONG[:4])
    store.set_hand_entry(made["id"], "counts")
    page = deal_form_of(phones, server, made, (width, height, locale))
    pad = page.locator("#keypad")
    expect(pad).to_be_visible()  # up on the first player's melds
    plus = page.locator("#player-0 .step-plus").first
    plus.scroll_into_view_if_needed()
    plus.tap()
    expect(pad).to_be_hidden()
    expect(page.locator("#player-0 .count-input").first).to_have_value("1")
    page.locator("#players-0-melds").tap()  # back to the cards: the keypad comes up again
    expect(pad).to_be_visible()
    express = page.locator("#express")
    express.evaluate("e => e.scrollIntoView({block: 'center'})")  # as a thumb scrolls it up to tap it
    express.tap()
    expect(pad).to_be_hidden()
    expect(express).to_be_checked()
    footer = page.locator("#deal-footer").bounding_box()
    box = express.bounding_box()
    assert box["y"] + box["height"] <= footer["y"], (box, footer)  # not under the footer
    # the footer's Next player keeps the keypad up, for the next player's melds
    page.locator("#players-0-melds").tap()
    page.locator("#next-seat").tap()
    expect(pad).to_be_visible()
    no_horizontal_overflow(page)


# 3 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_3_a_viewers_first_screen_shows_the_totals(server, store, phones, width, height, locale):
    made = table(server, FAMILY)
    played(store, made["id"], FAMILY, 3)
    page = phone(phones, width, height, locale)
    page.goto(made["view_url"])
    rows = page.locator("#totals tbody tr")
    expect(rows).to_have_count(5)
    screen = page.viewport_size["height"]
    assert rows.first.bounding_box()["y"] + rows.first.bounding_box()["height"] <= screen  # the leader, unscrolled
    # the names to take a seat are still there, one tap away, below the scores
    assert page.locator("#seats").bounding_box()["y"] > page.locator("#totals").bounding_box()["y"]
    tap_and_wait(page, "#to-seats")
    expect(page.locator("#take-seat-0")).to_be_in_viewport()


# 4 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_4_reaching_the_target_leads_every_screen_to_the_end(server, store, phones, browser, width, height, locale):
    made = api(
        server,
        "POST",
        "/api/v1/sessions",
        {"game": "kunken", "players": FAMILY, "target": {"kind": "deals", "value": 2}},
    )
    played(store, made["id"], FAMILY, 2)
    scorer = phone(phones, width, height, locale)
    scorer_of(scorer, made)
    # the scorer's first screen: End the game, big; playing on is the secondary way
    end = scorer.locator("#end-game")
    expect(end).to_be_in_viewport(ratio=1)
    assert end.bounding_box()["y"] < scorer.locator("#record-deal").bounding_box()["y"]
    expect(scorer.locator("#record-deal")).to_have_class(re.compile(r"\bsecondary\b"))
    # the deal's number is a word of the sentence, not a column of its own (item 5)
    expect(scorer.locator("#record-deal > span .next-deal")).to_have_text("3")
    # a player's phone: its part of a next deal opens with the keypad down, and says the target is reached
    player = phone(phones, width, height, locale)
    seat_of(player, made, 1)
    expect(player.locator("#target-reached-note")).to_be_visible()
    player.wait_for_timeout(300)
    expect(player.locator("#keypad")).to_be_hidden()
    # the table screen names no next deal and no next dealer
    laptop = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale).new_page()
    laptop.goto(f"{server}/s/{made['id']}/table")
    expect(laptop.locator("#table-title")).not_to_contain_text("3")
    expect(laptop.locator("#table-dealer")).to_have_count(0)
    laptop.context.close()
    # ending it is one tap
    tap_and_wait(scorer, "#end-game")
    expect(scorer.locator("#ended-banner")).to_be_visible()
    no_horizontal_overflow(scorer)


# 5 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_5_no_word_is_broken_over_two_lines(server, store, phones, width, height, locale):
    made = table(server, LONG[:4])
    played(store, made["id"], LONG[:4], 2)
    scorer = phone(phones, width, height, locale)
    scorer_of(scorer, made)
    found = {"session (scorer)": scorer.evaluate(BROKEN_WORDS)}
    scorer.goto(f"{server}/s/{made['id']}/deals/new")
    ready(scorer)
    close_keypad(scorer)
    found["deal form"] = scorer.evaluate(BROKEN_WORDS)
    scorer.goto(f"{server}/rules/kunken")
    found["rules"] = scorer.evaluate(BROKEN_WORDS)
    player = phone(phones, width, height, locale)
    player.goto(made["view_url"])
    tap_and_wait(player, "#take-seat-1")
    player.goto(made["view_url"])
    found["session (player)"] = player.evaluate(BROKEN_WORDS)
    # the deal's number is a word of the sentence, not a column of its own beside it
    label = player.locator("#my-part > span")
    expect(label.locator(".next-deal")).to_have_text("3")
    assert player.locator("#my-part > .next-deal").count() == 0
    tap_and_wait(player, "#my-part")
    expect(player.locator("#part-form")).to_have_attribute("data-ready", "true")
    close_keypad(player)
    found["part"] = player.evaluate(BROKEN_WORDS)
    assert {page: words for page, words in found.items() if words} == {}


# 6 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_6_the_seat_marks_on_a_part_page_have_a_legend(server, phones, width, height, locale):
    made = table(server, FAMILY)
    page = phone(phones, width, height, locale)
    seat_of(page, made, 2)
    waiting = page.locator('#seat-states .seat-state[data-state="waiting"]').first
    word = waiting.locator(".visually-hidden").text_content()
    legend = page.locator("#seat-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text(f"… {word}")
    assert legend.bounding_box()["y"] < page.viewport_size["height"]
    fill(page, "player-hand", "K K 5")  # this seat's part entered: its mark and its word in the legend
    quiet(page)
    expect(page.locator('#seat-states .seat-state[data-seat="2"]')).to_have_attribute("data-state", "entered")
    entered = page.locator('#seat-states .seat-state[data-seat="2"] .visually-hidden').text_content()
    expect(legend).to_contain_text(f"✓ {entered}")
    no_horizontal_overflow(page)


# 7 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_7_a_code_locked_after_wrong_tries_is_said_to_be_locked(server, phones, width, height, locale):
    made = table(server, FAMILY)
    holder = api(server, "POST", f"/api/v1/sessions/{made['id']}/seats/0")["seat_token"]
    code = api(server, "POST", f"/api/v1/sessions/{made['id']}/seats/0/move", token=holder)["move_code"]
    for n in range(1, 6):  # five wrong codes from some other phone
        wrong = f"{(int(code) + n) % 1_000_000:06d}"
        with pytest.raises(urllib.error.HTTPError):
            api(server, "POST", f"/api/v1/sessions/{made['id']}/seats/0", {"move_code": wrong})
    page = phone(phones, width, height, locale)
    page.goto(made["view_url"])
    page.locator("#move-code").fill(code)  # the right code, too late
    tap_and_wait(page, "#take-with-code")
    expect(page.locator("p.flash.error")).to_contain_text(WORDS[locale[:2]]["locked"])
    expect(page.locator("p.flash.error")).to_be_in_viewport()
    no_horizontal_overflow(page)


# 8 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_8_a_refused_save_never_says_tap_save_to_record(server, phones, width, height, locale):
    made = table(server, LONG[:4])
    page = deal_form_of(phones, server, made, (width, height, locale))
    local = page.locator("#keep-state").get_attribute("data-words-local")
    close_keypad(page)
    tap_and_wait(page, "#footer-save")  # nothing typed: refused, every hand not entered
    ready(page)
    state = page.locator("#keep-state")
    expect(state).to_have_attribute("data-state", "refused")
    expect(state).to_contain_text(WORDS[locale[:2]]["refused"])
    assert local not in state.inner_text()
    expect(state).to_be_visible()


# 9 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "locale"), PHONES)
def test_9_a_vists_meld_number_and_points_read_apart(server, phones, width, height, locale):
    made = table(server, LONG[:3])
    page = deal_form_of(phones, server, made, (width, height, locale))
    fill(page, "players-0-melds", "2♦ 3♦ 4♦")
    fill(page, "players-1-vists", f"{LONG[0]}: 5♦")
    quiet(page)
    verdict = page.locator("#players-1-vists-verdicts li").first
    expect(verdict).to_have_attribute("data-legal", "true")
    words = WORDS[locale[:2]]
    text = re.sub(r"\s+", " ", verdict.inner_text())
    assert f"{words['meld']} (2♦ 3♦ 4♦ 5♦) · {words['points']}" in text, text
    assert not re.search(r"\d \d", text.replace("♦ ", "♦|")), text
