"""Live updates as deltas in a real browser (issue 48): a viewer's phone and the table screen on a 100-deal evening
take only the parts that changed (no page fetched again), and what they then show is what a fresh load shows: a new
deal, an edited one, a deleted one (the rows after it renumbered)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from test_live_deltas import next_deal
from test_wire import evening

#: the live part's markup, whitespace between tags dropped and the table screen's highlight left out
SHOWN = "id => document.getElementById(id).innerHTML"


def same(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r" fresh(?=[ \"])", "", html)).strip()


def answers(page: Page) -> list[dict]:
    """Every live answer with a body that ``page`` receives from now on."""
    seen: list[dict] = []

    def keep(response) -> None:
        if "/live?" in response.url and response.status == 200:
            seen.append(response.json())

    page.on("response", keep)
    return seen


def follows(page: Page, fresh: Page, url: str, box: str) -> None:
    """``page`` shows what a fresh load of ``url`` shows in ``box``."""
    fresh.goto(url)
    assert same(page.evaluate(SHOWN, box)) == same(fresh.evaluate(SHOWN, box))


def test_a_viewer_and_the_table_screen_take_deltas_and_show_what_a_fresh_load_shows(server, store, phones, browser):
    sid = evening(store)
    viewer = phones(locale="ru-RU").new_page()
    viewer.goto(f"{server}/s/{sid}")
    laptop = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ru-RU").new_page()
    laptop.goto(f"{server}/s/{sid}/table")
    expect(viewer.locator("#live")).to_have_attribute("data-live", "on")
    got, screen_got = answers(viewer), answers(laptop)
    asked = viewer.context.requests
    before = len(asked)
    fresh = phones(locale="ru-RU").new_page()
    rows = store.list_deals(sid)

    deal = next_deal(store, sid)
    expect(viewer.locator(f"#deal-{deal}")).to_have_count(1, timeout=5_000)
    expect(viewer.locator("#deal-count")).to_have_attribute("data-count", "101")
    follows(viewer, fresh, f"{server}/s/{sid}", "live")
    expect(laptop.locator("#table-title")).to_contain_text("Партия 102")
    follows(laptop, fresh, f"{server}/s/{sid}/table", "table-live")

    store.update_deal(
        sid, rows[89].id, rows[89].record, override=False, note="пересчитали", expected_revision=rows[89].revision
    )
    expect(viewer.locator(f"#d-{rows[89].id} q.note")).to_have_text("пересчитали", timeout=5_000)
    follows(viewer, fresh, f"{server}/s/{sid}", "live")

    store.delete_deal(sid, rows[95].id)
    expect(viewer.locator(f"#deal-{rows[95].id}")).to_have_count(0, timeout=5_000)
    expect(viewer.locator(f"#deal-{rows[99].id}")).to_have_attribute("data-number", "99")
    follows(viewer, fresh, f"{server}/s/{sid}", "live")
    expect(laptop.locator("#table-title")).to_contain_text("Партия 101")
    follows(laptop, fresh, f"{server}/s/{sid}/table", "table-live")

    # deltas every time, never the page again nor the whole live part
    assert len(got) == 3 and all("parts" in answer and "html" not in answer for answer in got)
    assert screen_got and all("html" not in answer for answer in screen_got)
    assert not [url for url in asked[before:] if url.rstrip("/").endswith(sid)], asked[before:]
