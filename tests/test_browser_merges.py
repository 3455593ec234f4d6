"""Merging two names on /players in a phone's browser (Chromium, a Pixel 7 412 px wide, in Russian): a refused merge
shows why, a merge makes one row of two, its Undo makes two again; every step fits the phone and passes axe-core
(``test_browser_pages.look``), with a screenshot of each."""

from __future__ import annotations

import pytest
from conftest import shots_dir, tap_and_wait
from playwright.sync_api import expect
from test_browser_pages import api, look

EVENINGS = [
    (["Лёня", "Вера"], "Лёня"),
    (["Леня", "Вера"], "Вера"),
    (["Вера", "Борис"], "Борис"),
]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return shots_dir(tmp_path_factory.mktemp("merges"))


def deal(names: list[str], winner: str) -> dict:
    """One deal: ``winner`` goes out with three aces, everyone else keeps a card."""
    players = [
        {"name": n, "melds": ["A♠ A♥ A♦"], "hand": ""} if n == winner else {"name": n, "hand": "5♦"} for n in names
    ]
    return {"players": players, "went_out": winner}


def rows(page) -> list[str]:
    """The names of the players' statistics, as shown."""
    return [name.split("\n")[0].strip() for name in page.locator(".player-stats tbody th").all_inner_texts()]


def test_merge_two_names_and_undo_on_a_phone(server, phones, shots):
    for names, winner in EVENINGS:
        made = api(server, "POST", "/api/v1/sessions", {"game": "kunken", "players": names})
        api(server, "POST", f"/api/v1/sessions/{made['id']}/deals", deal(names, winner), made["edit_token"])
        api(server, "POST", f"/api/v1/sessions/{made['id']}/end", None, made["edit_token"])
    page = phones(locale="ru-RU", viewport={"width": 412, "height": 915}).new_page()
    page.goto(server + "/players")
    expect(page.locator("#merge-title")).to_have_text("Объединить два имени")
    assert sorted(rows(page)) == ["Борис", "Вера", "Леня", "Лёня"]
    problems = {"players-merge": look(page, shots, "players-merge", "ru")}

    # two who sat at one table: refused, with why, the names kept in the form
    page.locator("#merge-from").fill("Лёня")
    page.locator("#merge-into").fill("Вера")
    with page.expect_navigation() as refused:
        page.locator("#merge-submit").tap()
    assert refused.value.status == 422
    expect(page.locator("#merge-error")).to_contain_text("сидели за одним столом")
    expect(page.locator("#merge-into")).to_have_value("Вера")
    problems["players-merge-refused"] = look(page, shots, "players-merge-refused", "ru")

    page.locator("#merge-from").fill("Лёня")
    page.locator("#merge-into").fill("Леня")
    tap_and_wait(page, "#merge-submit")
    expect(page.locator("p.flash")).to_contain_text("объединено с «Леня»")
    assert sorted(rows(page)) == ["Борис", "Вера", "Леня"]
    expect(page.locator("#merges li")).to_have_count(1)
    expect(page.locator("#merges li")).to_contain_text("«Лёня» считается игроком «Леня»")
    problems["players-merged"] = look(page, shots, "players-merged", "ru")

    tap_and_wait(page, page.get_by_role("button", name="Отменить объединение «Лёня» с «Леня»"))
    expect(page.locator("p.flash")).to_contain_text("Объединение отменено")
    assert sorted(rows(page)) == ["Борис", "Вера", "Леня", "Лёня"]
    expect(page.locator("#merges")).to_have_count(0)
    problems["players-unmerged"] = look(page, shots, "players-unmerged", "ru")
    assert {name: found for name, found in problems.items() if found} == {}
    assert (shots / "page-players-merged-ru.png").stat().st_size > 0
