"""A joker swap, a short hand and a warning recorded on a phone in Russian (issue 7), with screenshots."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from test_browser import (PNG_SIGNATURE, check, expect_preview, fill, no_horizontal_overflow,
                          open_deal_form, save, start_session)


def shots_dir(tmp_path: Path) -> Path:
    """Where the screenshots go: ``KUNKEN_SHOTS`` when set (to look at them), else the test's folder."""
    folder = Path(os.environ.get("KUNKEN_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_swap_and_a_short_hand_in_russian(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = phones(locale="ru-RU").new_page()
    start_session(page, server, players=["Анна", "Борис", "Вера"])
    open_deal_form(page, "#record-deal")
    expect(page.locator("label[for=players-1-swaps]")).to_contain_text("Замены джокера")
    fill(page, "players-0-melds", "К♠ К♣ Дж\n9т Дж Вт")
    fill(page, "players-1-melds", "5ч Дж 7ч\n10т 10ч 10п")
    fill(page, "players-1-swaps", "Анна 1: Кб")
    fill(page, "players-1-hand", "15")
    fill(page, "players-2-melds", "10т 10б 10п")
    fill(page, "players-2-hand", "35 Дж")
    page.locator("#went_out").select_option("Анна")
    check(page)
    # Anna: К♠ К♣ (20) + 9♣ JK=10♣ J♣ (20); Boris: К♦ 10 + run 15 + set 15, minus 15; Vera: 15 − (35 + 10)
    expect_preview(page, {"Анна": (40, 0, 40), "Борис": (40, 15, 25), "Вера": (15, 45, -30)})
    expect(page.locator("#players-1-swaps-verdicts .verdict")).to_have_attribute("data-legal", "true")
    warning = page.locator("#deal-warnings li")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text("выложен до второго экземпляра")
    page.screenshot(path=str(shots / "swap-form-ru.png"), full_page=True, scale="css")
    no_horizontal_overflow(page)
    save(page, "Партия 1")
    notes = page.locator("#deals tr.deal td.notes")
    expect(notes.locator(".swap")).to_have_text(re.compile(r"Борис заменил джокера картой К♦ в комбинации 1 игрока Анна"))
    expect(notes.locator(".warning")).to_have_count(1)
    notes.locator("details.warnings summary").tap()  # the warning's text folds out
    expect(notes.locator(".warning")).to_be_visible()
    expect(notes.locator(".warning")).to_contain_text("10♣")
    page.screenshot(path=str(shots / "swap-session-ru.png"), full_page=True, scale="css")
    no_horizontal_overflow(page)
    for name in ("swap-form-ru.png", "swap-session-ru.png"):
        assert (shots / name).read_bytes().startswith(PNG_SIGNATURE)
