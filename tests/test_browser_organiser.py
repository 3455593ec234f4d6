"""The organiser's evening on a real phone (issue 47): start a named night of three tables on the start form, run two
more rounds through the seating preview (one with a late arrival and a player leaving), end the night; a second
phone holding the owner link and the room screen on a TV follow every step by themselves. Each step's taps are
counted (the closing note gives them); the pages pass axe-core and fit the phone."""

from __future__ import annotations

from conftest import Taps, axe_violations, close_phone, no_horizontal_overflow, shots_dir
from playwright.sync_api import expect
from test_browser_csp import violations, watched

TABLES = "Анна, Борис, Вера, Гоша\nДима, Ева, Жора, Зоя\nИгорь, Кира, Лёня, Маша"
EVERYONE = {n.strip() for line in TABLES.splitlines() for n in line.split(",")}


def seated(page, selector: str) -> list[list[str]]:
    """The players of each table shown under ``selector`` (each a table's block with its players' line)."""
    lines = page.locator(f"{selector} .night-players").all_inner_texts()
    return [[n.strip() for n in line.split(",")] for line in lines]


def test_the_organisers_evening_from_one_phone_with_the_room_following(server, phones, browser, tmp_path):
    shots = shots_dir(tmp_path)
    organiser = watched(phones(locale="ru-RU"))  # every CSP violation recorded, page by page
    taps = Taps(organiser)
    counted: dict[str, int] = {}

    # 1. start: the home page's "club night", the tables typed, a name, Start
    organiser.goto(server + "/")
    taps.tap("#club-night a", navigates=True)
    organiser.locator("#night-tables").fill(TABLES)
    organiser.locator("#night-name").fill("Пятница")
    assert organiser.locator("#night-ranking-choice").input_value() == "points"  # the fair ranking by default
    assert axe_violations(organiser) == []
    assert violations(organiser) == []
    taps.tap("#start-night", navigates=True)
    counted["start"] = taps.count
    expect(organiser.locator("h1")).to_contain_text("Пятница")
    expect(organiser.locator("#night-ranking")).to_contain_text("по очкам за места")
    night_url = organiser.url
    nid = night_url.rsplit("/", 1)[1]

    # the owner link to hand the night to another phone: a QR code, opened by a second phone
    organiser.locator("#owner-link-panel summary").tap()
    expect(organiser.locator("#owner-link-panel .qr")).to_be_visible()
    owner_link = organiser.locator("#owner-link").get_attribute("href")
    helper = phones(locale="ru-RU").new_page()
    helper.goto(owner_link)
    expect(helper.locator("#next-round")).to_be_visible()  # the second phone holds the night too
    helper.evaluate("window.neverReloaded = true")

    tv = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ru-RU").new_page()
    tv.goto(night_url + "/room")
    expect(tv.locator(".room-seat")).to_have_count(3)
    tv.evaluate("window.neverReloaded = true")

    # the home page lists the night
    home = phones(locale="ru-RU").new_page()
    home.goto(server + "/")
    expect(home.locator("#recent-nights a")).to_have_text("Пятница")

    # 2. round 2: the seating preview, then confirm
    before = taps.count
    taps.tap("#next-round", navigates=True)
    preview = seated(organiser, "#plan-tables")
    assert len(preview) == 3 and {n for t in preview for n in t} == EVERYONE
    expect(organiser.locator("#plan-repeats")).to_be_visible()
    expect(organiser.locator("#plan-still-playing")).to_be_visible()  # round 1's tables have not ended
    assert axe_violations(organiser) == []
    no_horizontal_overflow(organiser)
    assert violations(organiser) == []
    organiser.screenshot(path=str(shots / "organiser-preview-412-ru.png"), full_page=True)
    taps.tap("#confirm-round", navigates=True)
    counted["round 2"] = taps.count - before
    assert seated(organiser, "#night-tables") == preview  # the round started as the preview showed it
    expect(organiser.locator("#night-tables-title")).to_contain_text("Тур 2")
    # the other organiser phone and the TV follow by themselves
    expect(helper.locator("#night-tables-title")).to_contain_text("Тур 2", timeout=10_000)
    assert helper.evaluate("window.neverReloaded") is True
    assert violations(organiser) == []
    first_seat = preview[0][0]
    expect(tv.locator(f'.room-seat[data-table="1"] li[data-player="{first_seat}"]')).to_have_count(1, timeout=10_000)
    assert tv.evaluate("window.neverReloaded") is True

    # 3. round 3: Юля arrives, Маша leaves; round 2 ended first, from the night's page
    before = taps.count
    taps.tap("#end-round", navigates=True)
    expect(organiser.locator("p.flash")).to_contain_text("Тур 2 закончен")
    taps.tap("#next-round", navigates=True)
    organiser.locator("#arrivals").fill("Юля")
    taps.tap(organiser.locator("#leaving label").filter(has_text="Маша"))
    taps.tap("#mode-standings")
    taps.tap("#show-seating", navigates=True)
    expect(organiser.locator("#plan-arrivals")).to_contain_text("Юля")
    expect(organiser.locator("#plan-leaving")).to_contain_text("Маша")
    third = seated(organiser, "#plan-tables")
    assert {n for t in third for n in t} == EVERYONE - {"Маша"} | {"Юля"}
    taps.tap("#confirm-round", navigates=True)
    counted["round 3 with an arrival and a leaver, round 2 ended"] = taps.count - before
    assert seated(organiser, "#night-tables") == third
    expect(tv.locator('.room-seat li[data-player="Юля"]')).to_have_count(1, timeout=10_000)

    # 4. a round started by mistake is undone while nothing is typed at its tables; the TV follows
    before = taps.count
    taps.tap("#undo-round", navigates=True)
    counted["undo a round"] = taps.count - before
    expect(organiser.locator("#night-tables-title")).to_contain_text("Тур 2")
    expect(tv.locator('.room-seat li[data-player="Юля"]')).to_have_count(0, timeout=10_000)
    expect(helper.locator("#night-tables-title")).to_contain_text("Тур 2", timeout=10_000)

    # 5. end the night: every table of every round, in two taps (the second one confirms)
    before = taps.count
    taps.tap("#end-night-open")
    taps.tap("#end-night", navigates=True)
    counted["end the night"] = taps.count - before
    expect(organiser.locator("#night-ended")).to_be_visible()
    expect(organiser.locator("#next-round")).to_have_count(0)
    expect(helper.locator("#night-ended")).to_be_visible(timeout=10_000)
    expect(tv.locator("#room-ended")).to_be_visible(timeout=10_000)
    api = organiser.request.get(f"{server}/api/v1/nights/{nid}/export").json()
    assert all(t["ended"] for r in api["rounds"] for t in r["tables"]) and api["night"]["ended_at"]
    assert axe_violations(organiser) == [] and violations(organiser) == []
    no_horizontal_overflow(organiser)
    organiser.screenshot(path=str(shots / "organiser-ended-412-ru.png"), full_page=True)
    tv.screenshot(path=str(shots / "organiser-room-1280x720-ru.png"))

    # the table cards and the downloads are a tap away
    cards = organiser.locator("#cards-link").get_attribute("href")
    assert cards.endswith(f"/nights/{nid}/rounds/2/cards")
    csv_text = organiser.request.get(server + organiser.locator("#export-csv").get_attribute("href")).text()
    assert "Маша" in csv_text and "Юля" not in csv_text  # the undone round left nobody behind

    # a table's page leads back to its night
    table_page = phones(locale="ru-RU").new_page()
    table_page.goto(f"{server}/s/{api['rounds'][0]['tables'][0]['session_id']}")
    expect(table_page.locator("#night-link")).to_contain_text("тур 1, стол 1")

    assert counted == {
        "start": 2,
        "round 2": 2,
        "round 3 with an arrival and a leaver, round 2 ended": 6,
        "undo a round": 1,
        "end the night": 2,
    }, counted
    print("organiser taps:", counted)
    for page in (organiser, helper, home, table_page):
        close_phone(page.context)
    close_phone(tv.context)
