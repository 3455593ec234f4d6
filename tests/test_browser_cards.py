"""A round's table cards in Chromium: the organiser's phone opens them (axe-core finds nothing at 412 px, nothing
sticks out sideways) and prints them to A4: four cards a sheet, each card whole on one page (its round and table,
every seat and its scorer link's address on that page, read back by pdftotext page by page)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conftest import API, axe_violations, no_horizontal_overflow, shots_dir
from playwright.sync_api import Page, expect
from test_browser_csp import violations, watched

THREE = [
    ["Анна", "Борис", "Вера", "Гоша", "Дима"],
    ["Ева", "Жора", "Зоя", "Игорь"],
    ["Катя", "Лёня", "Маша"],
]
#: six tables of five, each player's name as long as a name may be: two sheets, the last two cards on the second
LONG = [[f"Игрок {t}-{s} с очень длинным-предлинным именем"[:40] for s in range(1, 6)] for t in range(1, 7)]


def start_night(app, tables: list[list[str]]) -> dict:
    answer = app.test_client().post(f"{API}/nights", json={"tables": tables})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def printed(page: Page, pdf: Path) -> list[str]:
    """The page printed to A4 as Chromium prints it, each sheet's text (pdftotext, in the order it was drawn)."""
    page.emulate_media(media="print")
    page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.M)[1])
    assert re.search(r"^Page size:\s+59[45](\.\d+)? x 84[12](\.\d+)? pts \(A4\)", info, re.M), info
    return [
        subprocess.run(
            ["pdftotext", "-raw", "-f", str(n), "-l", str(n), str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        for n in range(1, count + 1)
    ]


def sheet_of(sheets: list[str], words: str) -> list[int]:
    """The sheets (from 1) whose text holds ``words``, spaces and line breaks aside (an address wraps anywhere)."""
    squeezed = re.sub(r"\s+", "", words)
    return [n for n, sheet in enumerate(sheets, start=1) if squeezed in re.sub(r"\s+", "", sheet)]


def whole_cards(sheets: list[str], tables: list[list[str]], urls: list[str], round_: str, table: str) -> list[int]:
    """Each card's sheet, checked whole: its heading, every seat and its address all on that one sheet."""
    found = []
    for m, (players, url) in enumerate(zip(tables, urls, strict=True), start=1):
        where = sheet_of(sheets, f"{round_} 1 · {table} {m}")
        assert len(where) == 1, (m, where)
        for name in players:
            assert where[0] in sheet_of(sheets, name), (m, name)
        assert sheet_of(sheets, url) == where, (m, url)
        found.append(where[0])
    return found


def test_the_organisers_cards_fit_the_phone_and_print_whole_four_to_a_sheet(app, server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    night = start_night(app, THREE)
    organiser = watched(phones(locale="ru-RU"))  # every CSP violation recorded
    organiser.goto(f"{server}/nights/{night['id']}/own/{night['edit_token']}")
    organiser.goto(f"{server}/nights/{night['id']}/rounds/1/cards")
    cards = organiser.locator(".table-card")
    expect(cards).to_have_count(3)
    expect(organiser.locator("[data-print]")).to_be_visible()  # print.js shows the button
    expect(cards.nth(0).locator("h2")).to_have_text("Тур 1 · Стол 1")
    expect(cards.nth(0).locator(".card-seats li")).to_have_text(THREE[0])
    urls = [t["edit_url"] for t in night["tables"]]
    for m, url in enumerate(urls):
        expect(cards.nth(m).locator("a.card-url")).to_have_attribute("href", url)
        expect(cards.nth(m).locator("svg.qr")).to_be_visible()
    organiser.wait_for_load_state("load")
    assert violations(organiser) == []
    assert axe_violations(organiser) == []
    no_horizontal_overflow(organiser)
    organiser.screenshot(path=str(shots / "cards-owner-412-ru.png"), full_page=True)

    sheets = printed(organiser, tmp_path / "cards.pdf")
    assert len(sheets) == 1
    assert whole_cards(sheets, THREE, urls, "Тур", "Стол") == [1, 1, 1]
    assert not sheet_of(sheets, "Меню") and not sheet_of(sheets, "Печать")  # the bar and the button stay off paper
    assert not sheet_of(sheets, "Карточки столов")  # nor the page's own heading and notes: the cards alone
    # the sheet as printed, to look at
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(tmp_path / "cards.pdf"), str(shots / "cards-a4-ru")], check=True
    )


def test_six_long_cards_take_two_sheets_and_none_is_split(app, server, phones, tmp_path):
    night = start_night(app, LONG)
    organiser = phones(locale="en-US").new_page()
    organiser.goto(f"{server}/nights/{night['id']}/own/{night['edit_token']}")
    organiser.goto(f"{server}/nights/{night['id']}/rounds/1/cards")
    expect(organiser.locator(".table-card")).to_have_count(6)
    sheets = printed(organiser, tmp_path / "long.pdf")
    assert len(sheets) == 2
    urls = [t["edit_url"] for t in night["tables"]]
    assert whole_cards(sheets, LONG, urls, "Round", "Table") == [1, 1, 1, 1, 2, 2]
    pdf = tmp_path / "long.pdf"
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf), str(shots_dir(tmp_path) / "cards-long")], check=True)


def test_a_strangers_cards_carry_the_scores_links_and_pass_axe(app, server, phones, tmp_path):
    night = start_night(app, THREE)
    stranger = phones(locale="en-US").new_page()
    stranger.goto(f"{server}/nights/{night['id']}/rounds/1/cards")
    cards = stranger.locator(".table-card")
    expect(cards).to_have_count(3)
    for m, table in enumerate(night["tables"]):
        expect(cards.nth(m).locator("a.card-url")).to_have_attribute("href", table["view_url"])
        expect(cards.nth(m).locator("svg.qr")).to_have_attribute("aria-label", "QR code of the scores link")
    assert night["edit_token"] not in stranger.content()
    assert all(t["edit_token"] not in stranger.content() for t in night["tables"])
    stranger.wait_for_load_state("load")
    assert axe_violations(stranger) == []
    no_horizontal_overflow(stranger)
    stranger.screenshot(path=str(shots_dir(tmp_path) / "cards-stranger-412-en.png"), full_page=True)
    sheets = printed(stranger, tmp_path / "stranger.pdf")
    assert whole_cards(sheets, THREE, [t["view_url"] for t in night["tables"]], "Round", "Table") == [1, 1, 1]
