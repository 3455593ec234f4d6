"""No layout shift (issue 48): the player's part page and the scorer's deal form, loaded on a phone whose scripts
arrive 400 ms after the page (as on a table's Wi-Fi), score a cumulative layout shift of at most 0.02, Lighthouse's
"good" being 0.1: nothing the scripts do once they run moves what the page already showed."""

from __future__ import annotations

import time

import pytest
from conftest import open_deal_form, part_ready, start_on_phone, take_seat
from playwright.sync_api import expect

#: the layout shifts of the page, summed as the browser reports them (not those within 500 ms of a tap or a key)
WATCH = """
window.__cls = 0; window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) { continue; }
    window.__cls += entry.value;
    window.__shifts.push([entry.value, (entry.sources || []).map((s) => s.node ? (s.node.id || s.node.className ||
      s.node.nodeName) + ' ' + Math.round(s.previousRect.y) + '>' + Math.round(s.currentRect.y) : '?')]);
  }
}).observe({type: 'layout-shift', buffered: true});
"""
NAMES = ["Анастасия", "Константин", "Григорий", "Александра", "Владимир", "Екатерина"]
WIDTHS = [(412, 839), (360, 740), (320, 640)]


def slow_scripts(route) -> None:
    time.sleep(0.4)
    route.continue_()


def shift(page) -> tuple[float, list]:
    page.wait_for_timeout(1500)  # the scripts have run and anything they start has settled
    return page.evaluate("[window.__cls, window.__shifts]")


@pytest.fixture
def slow_phone(phones):
    def open_phone(locale: str, width: int, height: int):
        context = phones(locale=locale, viewport={"width": width, "height": height})
        context.add_init_script(WATCH)
        context.route("**/*.js*", slow_scripts)
        return context.new_page()

    return open_phone


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_part_page_does_not_shift(server, phones, slow_phone, locale, width, height):
    scorer = phones(locale=locale).new_page()
    url = start_on_phone(scorer, server, NAMES[:4], "ranks")
    player = slow_phone(locale, width, height)
    take_seat(player, url, 1)
    for reload in range(2):  # the first visit and the next, with the part saved once
        if reload:
            player.locator("#player-hand").fill("K K 5")
            expect(player.locator("#saved-state, #keep-state").locator("visible=true")).to_contain_text("✓")
            player.reload()
            part_ready(player)
        cls, shifts = shift(player)
        assert cls <= 0.02, (cls, shifts)


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_deal_form_does_not_shift(server, slow_phone, locale, width, height):
    scorer = slow_phone(locale, width, height)
    url = start_on_phone(scorer, server, NAMES[:4], "ranks")
    scorer.goto(url)
    open_deal_form(scorer, "#record-deal")
    scorer.reload()
    expect(scorer.locator("#deal-form")).to_have_attribute("data-ready", "true")
    cls, shifts = shift(scorer)
    assert cls <= 0.02, (cls, shifts)
