"""A club night on real phones (issue 37): the organiser starts a two-table night on the start form, each table's
scorer opens the scorer link from the organiser's night page and records a deal, and the room screen (a TV at
1280×720) follows both tables without a reload. The pages pass axe-core (WCAG 2.1 AA), fit the phone, and the
summary prints."""

from __future__ import annotations

import re
import subprocess

from conftest import (
    axe_violations,
    close_phone,
    fill,
    no_horizontal_overflow,
    open_deal_form,
    save,
    shots_dir,
    tap_and_wait,
)
from playwright.sync_api import Page, expect

TABLES = "Анна, Борис, Вера\nДима, Ева, Жора, Зоя"


def axe_findings(page: Page) -> list[str]:
    page.wait_for_load_state("load")
    return [f"axe {v}" for v in axe_violations(page)]


def record_at_table(scorer: Page, scorer_url: str, names: list[str]) -> None:
    """Open the table's scorer link, enter hands as cards, record a deal the first player wins (+45)."""
    scorer.goto(scorer_url)
    expect(scorer.locator("#record-deal")).to_be_visible()
    scorer.locator("#hand-entry-panel summary").tap()
    scorer.locator("#hand-entry-cards").check()
    tap_and_wait(scorer, "#set-hand-entry")
    open_deal_form(scorer, "#record-deal")
    fill(scorer, "players-0-melds", "A♠ A♥ A♦\n5♥ 6♥ 7♥")
    fill(scorer, "players-1-hand", "K♣ 3♦")
    for seat in range(2, len(names)):
        fill(scorer, f"players-{seat}-hand", ["Q♠", "2♣", "4♦"][seat - 2])
    scorer.locator("#went_out").select_option(names[0])
    save(scorer, "Партия 1 записана")


def test_a_two_table_night_on_the_phones_and_the_room_screen(server, phones, browser, tmp_path):
    shots = shots_dir(tmp_path)
    organiser = phones(locale="ru-RU").new_page()
    organiser.goto(server + "/")
    tap_and_wait(organiser, "#club-night a")
    assert organiser.url.endswith("/nights/new")
    assert axe_findings(organiser) == []
    organiser.locator("#night-tables").fill(TABLES)
    tap_and_wait(organiser, "#start-night")
    expect(organiser.locator("p.flash")).to_be_visible()
    night_url = organiser.url
    assert re.search(r"/nights/[^/]+$", night_url)
    links = organiser.locator(".scorer-link")
    expect(links).to_have_count(2)
    scorer_urls = [links.nth(i).get_attribute("href") for i in range(2)]
    organiser.locator(".scorer-panel summary").first.tap()
    expect(organiser.locator(".scorer-panel .qr").first).to_be_visible()
    assert axe_findings(organiser) == []
    no_horizontal_overflow(organiser)
    organiser.screenshot(path=str(shots / "night-page-412-ru.png"), full_page=True)

    # a stranger's phone sees the tables, not their scorer links
    stranger = phones(locale="ru-RU").new_page()
    stranger.goto(night_url)
    expect(stranger.locator(".table-link")).to_have_count(2)
    expect(stranger.locator(".scorer-link")).to_have_count(0)

    tv = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ru-RU").new_page()
    tv.goto(night_url + "/room")
    expect(tv.locator("#room-standings tbody tr")).to_have_count(7)
    assert tv.locator(".topbar").is_hidden()
    tv.evaluate("window.stillWatching = true")

    first, second = (phones(locale="ru-RU").new_page() for _ in range(2))
    record_at_table(first, scorer_urls[0], ["Анна", "Борис", "Вера"])
    leader = tv.locator("#room-standings tbody tr").first
    expect(leader).to_have_attribute("data-player", "Анна", timeout=10_000)
    expect(leader.locator(".total")).to_have_attribute("data-total", "45")
    record_at_table(second, scorer_urls[1], ["Дима", "Ева", "Жора", "Зоя"])
    dima = tv.locator('#room-standings tr[data-player="Дима"]')
    expect(dima.locator(".total")).to_have_attribute("data-total", "45", timeout=10_000)
    expect(tv.locator('#room-stage tr[data-player="Дима"] .points')).to_have_attribute("data-points", "100.0")
    assert tv.evaluate("window.stillWatching") is True  # swapped in place, never reloaded
    totals = [int(t) for t in tv.locator("#room-standings .total").evaluate_all("es => es.map(e => e.dataset.total)")]
    assert totals == sorted(totals, reverse=True)
    # everything fits the TV: no scrolling, no line past the right edge
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    assert tv.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert axe_findings(tv) == []
    tv.screenshot(path=str(shots / "night-room-1280x720-ru.png"))
    tv.set_viewport_size({"width": 1920, "height": 1080})
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    tv.screenshot(path=str(shots / "night-room-1920x1080-ru.png"))

    organiser.reload()
    expect(organiser.locator('#night-standings tr[data-player="Анна"] .total')).to_have_attribute("data-total", "45")
    tap_and_wait(organiser, "#next-round")  # the seating first, then the confirm
    expect(organiser.locator("#plan-tables li")).to_have_count(2)
    tap_and_wait(organiser, "#confirm-round")
    expect(organiser.locator("#night-repeats")).to_be_visible()
    expect(organiser.locator(".scorer-link")).to_have_count(2)
    organiser.screenshot(path=str(shots / "night-page-round-2-412-ru.png"), full_page=True)

    summary = phones(locale="ru-RU").new_page()
    summary.goto(night_url + "/summary")
    assert axe_findings(summary) == []
    pdf = tmp_path / "night.pdf"
    summary.pdf(path=str(pdf), format="A4", print_background=True)
    printed = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert re.search(r"1\s+Анна\s+\d\s+1\s+45", printed), printed
    assert re.search(r"1\s+Дима\s+\d\s+1\s+45", printed), printed
    assert "Меню" not in printed  # the bar and the buttons are not printed
    close_phone(tv.context)
