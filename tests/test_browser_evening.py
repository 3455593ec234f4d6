"""Browser tests: an evening at the table on phones (Playwright, Debian's Chromium, Pixel 7).

Expected scores are worked out by hand from RULES.md (Kunken preset): J Q K A = 10, 2..10 = 5,
a laid joker counts as its card, a joker left in hand = 10; express doubles the score of the
player who went out and every other player's minus.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin, urlparse

from conftest import (
    PNG_SIGNATURE,
    check,
    check_deal,
    close_keypad,
    expect_preview,
    expect_totals,
    fill,
    no_horizontal_overflow,
    open_deal_form,
    quiet,
    save,
    show_field,
    start_session,
    tap_and_wait,
    total,
)
from playwright.sync_api import Page, expect

#: The session page polls every 3 s; a change must show within this time.
LIVE_WAIT = 10_000


def keypad_field(page: Page, field_id: str) -> None:
    """Tap a card field so the keypad types into it; the caret goes to the end of its text."""
    pad = page.locator("#keypad")
    close_keypad(page)  # an open keypad may cover the field
    field = show_field(page, field_id)
    field.scroll_into_view_if_needed()
    box = field.bounding_box()
    # At the right edge, half-way down, the tap lies past the end of the (one- or two-line) text,
    # so the caret lands at its end. (Chromium ignores taps on an input's lowest few pixels.)
    field.tap(position={"x": box["width"] - 8, "y": box["height"] / 2})
    expect(pad).to_be_visible()
    expect(field).to_be_focused()


def tap_cards(page: Page, text: str) -> None:
    """Tap cards on the keypad: tokens like ``K♠``/``10♥``/``JK``, ``|`` for the next line."""
    for token in text.split():
        if token == "|":
            page.locator('#keypad [data-action="newline"]').tap()
        elif token == "JK":
            page.locator('#keypad [data-joker="JK"]').tap()
        else:
            page.locator(f'#keypad [data-rank="{token[:-1]}"]').tap()
            page.locator(f'#keypad [data-suit="{token[-1]}"]').tap()


def enter(page: Page, field_id: str, cards: str) -> None:
    """Tap a field, tap its cards on the keypad, and check the field reads them back canonically."""
    keypad_field(page, field_id)
    tap_cards(page, cards)
    expect(page.locator(f"#{field_id}")).to_have_value(as_typed(cards))


def as_typed(cards: str) -> re.Pattern:
    """What the keypad leaves in a field after tapping ``cards`` (``|`` = next line): the tokens
    separated by single spaces, lines by newlines, trailing blanks allowed."""
    lines = [" ".join(re.escape(token) for token in line.split()) for line in cards.split("|")]
    return re.compile("^" + r"[ \t]*\n".join(lines) + r"\s*$")


def vist(page: Page, field_id: str, to: str, cards: str) -> None:
    """Tap a vist in: the name button of the player whose meld it joins, then the cards."""
    keypad_field(page, field_id)
    page.locator(f'#keypad [data-insert="{to}: "]').tap()
    tap_cards(page, cards)
    expect(page.locator(f"#{field_id}")).to_have_value(re.compile(rf"^{to}: {as_typed(cards).pattern[1:]}"))


def off_host(requests: list[str]) -> list[str]:
    """Requests that went anywhere but the loopback server."""
    return [url for url in requests if urlparse(url).hostname != "127.0.0.1"]


# -- 1 and 2: a whole evening on two phones ----------------------------------------------------


def test_whole_evening_on_two_phones(server, phones):
    """Create, watch from a second phone, record three deals by tapping, fix a bad meld, edit, undo."""
    scorer_phone, viewer_phone = phones(), phones()
    page = scorer_phone.new_page()
    session_url = start_session(page, server)
    expect_totals(page, {"Anna": 0, "Boris": 0, "Vera": 0}, 0)

    # The second phone opens the viewer link: no scorer cookie.
    viewer_href = page.locator("#viewer-link").get_attribute("href")
    assert viewer_href == session_url
    viewer = viewer_phone.new_page()
    viewer.goto(viewer_href)
    expect(viewer.locator("#live")).to_have_attribute("data-live", "on")
    expect(viewer.locator("#viewer-note")).to_be_visible()
    assert viewer.locator("#record-deal, #undo, #end-session, #scorer-link").count() == 0
    viewer.evaluate("window.stillTheSamePage = true")  # gone if the viewer ever reloads
    expect_totals(viewer, {"Anna": 0, "Boris": 0, "Vera": 0}, 0)

    # Deal 1: Anna goes out.
    #   Anna  K♠ K♥ K♦ (30) + 5♥ 6♥ 7♥ (15), nothing in hand        -> +45 −0  =  45
    #   Boris A♠ A♥ A♣ (30), hand 2♣ J♦ (5 + 10)                    -> +30 −15 =  15
    #   Vera  no melds, hand Q♠ 3♦ (10 + 5)                          -> +0  −15 = −15
    open_deal_form(page, "#record-deal")
    fields = {
        "players-0-melds": "K♠ K♥ K♦ | 5♥ 6♥ 7♥",
        "players-1-melds": "A♠ A♥ A♣",
        "players-1-hand": "2♣ J♦",
        "players-2-hand": "Q♠ 3♦",
    }
    check_deal(page, fields, "Anna", type_in=enter)
    expect_preview(page, {"Anna": (45, 0, 45), "Boris": (30, 15, 15), "Vera": (0, 15, -15)})
    save(page, "Deal 1 saved")
    expect_totals(page, {"Anna": 45, "Boris": 15, "Vera": -15}, 1)
    expect_totals(viewer, {"Anna": 45, "Boris": 15, "Vera": -15}, 1, timeout=LIVE_WAIT)
    chart_link = viewer.locator('#live a[href$="/chart.svg"]')
    chart_link.focus()  # a keyboard user on the chart's link when the next deal arrives keeps their place

    # Deal 2: Boris goes out; his Q♦ Q♥ Q♦ holds the same card twice and is fixed to Q♦ Q♥ Q♣.
    #   Anna  8♥ 8♦ 8♣ (15), hand K♣ JK (10 + joker 10)              -> +15 −20 =  −5
    #   Boris 8♣ 9♣ 10♣ (15) + Q♦ Q♥ Q♣ (30) + vist 8♠ to Anna (5)   -> +50 −0  =  50
    #   Vera  10♠ J♠ Q♠ (5 + 10 + 10), hand A♦ (10)                  -> +25 −10 =  15
    open_deal_form(page, "#record-deal")
    enter(page, "players-0-melds", "8♥ 8♦ 8♣")
    enter(page, "players-0-hand", "K♣ JK")
    enter(page, "players-1-melds", "8♣ 9♣ 10♣ | Q♦ Q♥ Q♦")
    vist(page, "players-1-vists", "Anna", "8♠")
    enter(page, "players-2-melds", "10♠ J♠ Q♠")
    enter(page, "players-2-hand", "A♦")
    page.locator("#went_out").select_option("Boris")
    check(page)
    expect(page.locator("#preview")).to_have_attribute("data-valid", "false")
    problem = page.locator('#players-1-melds-errors li.problem[data-code="illegal_meld"]')
    expect(problem).to_be_visible()
    expect(page.locator("#players-1-melds")).to_have_attribute("aria-invalid", "true")
    expect(problem).to_contain_text("Boris")
    expect(problem).to_contain_text("Q♦")
    expect(problem).to_contain_text("twice")
    expect(page.locator("#players-1-melds-verdicts li.verdict").nth(1)).to_have_attribute("data-legal", "false")
    # Saving as it is is refused: problems remain and "record anyway" is not ticked.
    close_keypad(page)
    tap_and_wait(page, "#save")
    expect(page.locator("#deal-form")).to_be_visible()
    expect(page.locator("#override-errors")).to_be_visible()
    expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")
    # Fix it on the keypad: delete the last card, tap Q♣.
    keypad_field(page, "players-1-melds")
    page.locator('#keypad [data-action="backspace"]').tap()
    expect(page.locator("#players-1-melds")).to_have_value(as_typed("8♣ 9♣ 10♣ | Q♦ Q♥"))
    tap_cards(page, "Q♣")
    expect(page.locator("#players-1-melds")).to_have_value(as_typed("8♣ 9♣ 10♣ | Q♦ Q♥ Q♣"))
    check(page)
    expect(page.locator("#players-1-melds-errors")).to_have_count(0)
    expect_preview(page, {"Anna": (15, 20, -5), "Boris": (50, 0, 50), "Vera": (25, 10, 15)})
    save(page, "Deal 2 saved")
    expect_totals(page, {"Anna": 40, "Boris": 65, "Vera": 0}, 2)
    expect_totals(viewer, {"Anna": 40, "Boris": 65, "Vera": 0}, 2, timeout=LIVE_WAIT)
    expect(chart_link).to_be_focused()

    # Deal 3: Vera goes out with an express (her score and the others' minus doubled).
    #   Anna  hand 7♠ 9♥ (10)                                        -> +0  −20 = −20
    #   Boris 4♣ 5♣ 6♣ (15), hand K♥ (10)                             -> +15 −20 =  −5
    #   Vera  2♦ 3♦ JK 5♦ (JK = 4♦; 20) + J♣ J♥ J♠ (30)               -> 2 × 50  = 100
    open_deal_form(page, "#record-deal")
    enter(page, "players-0-hand", "7♠ 9♥")
    enter(page, "players-1-melds", "4♣ 5♣ 6♣")
    enter(page, "players-1-hand", "K♥")
    enter(page, "players-2-melds", "2♦ 3♦ JK 5♦ | J♣ J♥ J♠")
    close_keypad(page)
    page.locator("#went_out").select_option("Vera")
    page.locator("#express").tap()
    expect(page.locator("#express")).to_be_checked()
    page.locator("#note").fill("Vera's express — <b>well played</b>")
    check(page)
    expect(page.locator("#players-2-melds-verdicts span.joker-pin")).to_have_attribute("data-stands-for", "4♦")
    expect_preview(page, {"Anna": (0, 20, -20), "Boris": (15, 20, -5), "Vera": (100, 0, 100)})
    save(page, "Deal 3 saved")
    expect_totals(page, {"Anna": 20, "Boris": 60, "Vera": 100}, 3)
    expect_totals(viewer, {"Anna": 20, "Boris": 60, "Vera": 100}, 3, timeout=LIVE_WAIT)
    note = viewer.locator('#deals tr.deal-info[data-number="3"] q.note')
    expect(note).to_have_text("Vera's express — <b>well played</b>")  # escaped, shown as typed

    # Edit deal 1: Vera had 4♠ in hand as well (minus 20 instead of 15).
    deal_1 = page.locator('#deals tr.deal[data-number="1"]')
    expect(deal_1).to_have_attribute("data-deal-id", re.compile(r"^\d+$"))
    open_deal_form(page, deal_1.locator("a.edit-deal"))
    expect(page.locator("#players-2-hand")).to_have_value("Q♠ 3♦")
    keypad_field(page, "players-2-hand")
    tap_cards(page, "4♠")
    expect(page.locator("#players-2-hand")).to_have_value(as_typed("Q♠ 3♦ 4♠"))
    check(page)
    expect_preview(page, {"Anna": (45, 0, 45), "Boris": (30, 15, 15), "Vera": (0, 20, -20)})
    save(page, "Deal 1 changed")
    expect_totals(page, {"Anna": 20, "Boris": 60, "Vera": 95}, 3)
    expect_totals(viewer, {"Anna": 20, "Boris": 60, "Vera": 95}, 3, timeout=LIVE_WAIT)

    # Undo the last deal (deal 3): two taps (open, confirm), far from "Record a deal"; back to two deals.
    undo = page.locator("#undo")
    expect(undo).to_be_hidden()
    page.locator("#undo-panel > summary").tap()
    expect(undo).to_have_text("Undo deal 3")
    record_box, undo_box = page.locator("#record-deal").bounding_box(), undo.bounding_box()
    assert undo_box["y"] - (record_box["y"] + record_box["height"]) > 200, (record_box, undo_box)
    tap_and_wait(page, "#undo")
    expect(page.locator("p.flash")).to_contain_text("Deal 3 was undone")
    expect(page.locator("p.flash")).to_be_focused()  # a screen reader reads what happened at once
    expect_totals(page, {"Anna": 40, "Boris": 65, "Vera": -5}, 2)
    expect(page.locator("#deals tr.deal")).to_have_count(2)
    expect_totals(viewer, {"Anna": 40, "Boris": 65, "Vera": -5}, 2, timeout=LIVE_WAIT)
    expect(viewer.locator("#deals tr.deal")).to_have_count(2)
    # One tap brings it back (offered right after the undo), and undoes it again for the rest of the test.
    tap_and_wait(page, "#redo")
    expect(page.locator("p.flash")).to_contain_text("Deal 3 is back")
    expect_totals(page, {"Anna": 20, "Boris": 60, "Vera": 95}, 3)
    expect(page.locator("#redo")).to_have_count(0)
    page.locator("#undo-panel > summary").tap()
    tap_and_wait(page, "#undo")
    expect_totals(page, {"Anna": 40, "Boris": 65, "Vera": -5}, 2)

    # The viewer saw all of it without a reload, and never got a write button.
    assert viewer.evaluate("window.stillTheSamePage === true"), "the viewer page was reloaded"
    assert viewer.locator("#record-deal, #undo, #undo-form, #end-session, a.edit-deal").count() == 0
    # Nothing either phone loaded came from another host.
    assert scorer_phone.requests and viewer_phone.requests
    assert off_host(scorer_phone.requests + viewer_phone.requests) == []


def test_viewer_has_no_write_buttons_and_nothing_leaves_the_host(server, phones):
    """A viewer phone can only watch; no page of the app asks another host for anything."""
    scorer_phone, viewer_phone = phones(), phones()
    page = scorer_phone.new_page()
    session_url = start_session(page, server)
    sid = session_url.rsplit("/", 1)[1]
    # A deal typed in (this test is not about the keypad), so the deals table and its links exist.
    open_deal_form(page, "#record-deal")
    fill(page, "players-0-melds", "K♠ K♥ K♦")
    fill(page, "players-1-hand", "2♣")
    fill(page, "players-2-hand", "Q♠")
    page.locator("#went_out").select_option("Anna")
    quiet(page)
    tap_and_wait(page, "#save")
    expect(page.locator("p.flash")).to_contain_text("Deal 1 saved")
    expect(page.locator("p.flash")).to_be_focused()
    expect(page.locator("#record-deal")).to_be_visible()
    expect(page.locator("#undo-panel")).to_be_visible()
    expect(page.locator("#deals a.edit-deal")).to_have_count(1)
    expect(page.locator("#scorer-link")).to_have_count(1)

    viewer = viewer_phone.new_page()
    viewer.goto(page.locator("#viewer-link").get_attribute("href"))
    expect(total(viewer, "Anna")).to_have_attribute("data-total", "30")
    expect(viewer.locator("#live")).to_have_attribute("data-live", "on")
    for selector in (
        "#record-deal",
        "#undo",
        "#undo-form",
        "#end-session",
        "#end-panel",
        "#scorer-panel",
        "#scorer-link",
        "a.edit-deal",
        "#scorer-actions",
    ):
        expect(viewer.locator(selector)).to_have_count(0)
    # Typing the scorer's addresses does not help either.
    for path in (f"/s/{sid}/deals/new", f"/s/{sid}/deals/1/edit"):
        response = viewer.goto(server + path)
        assert response.status == 403, (path, response.status)
    # Nor does a well-formed POST: a valid CSRF token (from the start form any phone may use) but no scorer token.
    viewer.goto(server + "/")
    csrf = viewer.locator('#start-form input[name="csrf_token"]').input_value()
    for path, form in (
        (f"/s/{sid}/undo", {"expected_version": "1"}),
        (f"/s/{sid}/end", {}),
        (f"/s/{sid}/deals/1/delete", {"revision": "1"}),
    ):
        response = viewer_phone.request.post(server + path, form={"csrf_token": csrf, **form}, max_redirects=0)
        assert response.status == 403, (path, response.status)
    viewer.goto(session_url)
    expect(viewer.locator("#ended-banner")).to_have_count(0)
    expect(viewer.locator("#deal-count")).to_have_attribute("data-count", "1")

    # Every page either phone opens, with all it loads, stays on 127.0.0.1.
    for phone_page in (page, viewer):
        for path in (
            "/",
            f"/s/{sid}",
            f"/s/{sid}/history",
            f"/s/{sid}/summary",
            "/rules/desk",
            "/rules/kunken",
            "/players",
            f"/s/{sid}/qr.svg",
        ):
            response = phone_page.goto(server + path)
            assert response.ok, (path, response.status)
            phone_page.wait_for_load_state("load")
    page.goto(f"{server}/s/{sid}/deals/new")
    page.wait_for_load_state("load")
    assert len(scorer_phone.requests) > 10 and len(viewer_phone.requests) > 10
    assert off_host(scorer_phone.requests + viewer_phone.requests) == []


# -- 3: the rules desk in Russian --------------------------------------------------------------


def test_rules_desk_in_russian(server, phones):
    """Tap К♦ К♦ К♥ on the Russian keypad: illegal, with a reason linking to the rule; 5ч Дж 7ч is legal."""
    phone = phones(locale="ru-RU")
    page = phone.new_page()
    page.goto(server + "/rules/desk")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#keypad")).to_have_attribute("data-ready", "true")
    labels = {"J": "В", "Q": "Д", "K": "К", "A": "Т", "10": "10", "2": "2"}
    for rank, label in labels.items():
        expect(page.locator(f'#keypad [data-rank="{rank}"]')).to_have_text(label)
    expect(page.locator('#keypad [data-joker="JK"]')).to_have_text("Дж")

    keypad_field(page, "meld-cards")
    king = page.locator('#keypad [data-rank="K"]')
    expect(king).to_have_text("К")
    king.tap()
    page.locator('#keypad [data-suit="♦"]').tap()
    tap_cards(page, "K♦ K♥")
    # one notation on screen: the Russian keypad types Russian ranks
    expect(page.locator("#meld-cards")).to_have_value(as_typed("К♦ К♦ К♥"))
    close_keypad(page)
    tap_and_wait(page, "#meld-submit")

    answer = page.locator("#meld-answer")
    expect(answer).to_have_attribute("data-legal", "false")
    reason = page.locator("#meld-answer-reasons li.reason").first
    expect(reason).to_have_attribute("data-code", "set_duplicate_card")
    expect(reason).to_have_attribute("data-rule", "sets")
    expect(reason.locator(".reason-text")).to_contain_text("К♦")  # in the page's notation
    # Checked at the end, after the rest of the flow: the answer is in words, in Russian.
    words = {
        "verdict": page.locator("#meld-answer-verdict").inner_text(),
        "reason": reason.locator(".reason-text").inner_text(),
        "rule link": reason.locator("a.rule-link").first.inner_text(),
    }
    link = reason.locator("a.rule-link").first
    expect(link).to_have_attribute("href", re.compile(r"/rules/kunken.*#sets$"))
    tap_and_wait(page, link)
    assert page.url.endswith("#sets"), page.url
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#sets h2")).to_have_text("Комбинации по рангу (комплекты)")
    expect(page.locator("#sets")).to_be_in_viewport()

    # Typed in Russian notation: 5ч Дж 7ч is the run 5♥ 6♥ 7♥, the joker standing for 6♥.
    page.goto(server + "/rules/desk")
    page.locator("#meld-cards").fill("5ч Дж 7ч")
    tap_and_wait(page, "#meld-submit")
    expect(answer).to_have_attribute("data-legal", "true")
    expect(page.locator("#meld-answer-points")).to_have_text("15")
    expect(page.locator("#meld-answer-jokers li.joker")).to_have_count(1)
    expect(page.locator("#meld-answer-jokers li.joker")).to_have_attribute("data-card", "6♥")
    expect(page.locator("#meld-answer-jokers li.joker")).to_contain_text("6♥")
    expect(page.locator("#meld-answer-reasons")).to_have_count(0)
    words["joker"] = page.locator("#meld-answer-jokers li.joker").inner_text()
    not_russian = {what: text for what, text in words.items() if not re.search("[а-яё]{3}", text, re.I)}
    assert not not_russian, f"answers not in Russian on a ru-RU phone: {not_russian}"


# -- 4: installable, and the screen stays awake --------------------------------------------------


def test_session_page_is_installable_and_keeps_the_screen_awake(server, phones):
    """The manifest and its icons load from this server; the wake-lock script runs on the session page."""
    phone = phones()
    page = phone.new_page()
    session_url = start_session(page, server)

    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href, "the session page links no manifest"
    manifest_url = urljoin(session_url, href)
    assert urlparse(manifest_url).hostname == "127.0.0.1"
    response = phone.request.get(manifest_url)
    assert response.status == 200
    manifest = json.loads(response.text())
    assert manifest["name"] and manifest["start_url"] and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        icon_url = urljoin(manifest_url, icon["src"])
        assert urlparse(icon_url).hostname == "127.0.0.1", icon_url
        got = phone.request.get(icon_url)
        assert got.status == 200, icon_url
        assert got.headers["content-type"].startswith("image/png"), got.headers["content-type"]
        body = got.body()
        assert body.startswith(PNG_SIGNATURE)
        width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"], icon_url

    # Wake lock: this origin (127.0.0.1) is a secure context, so Chromium offers navigator.wakeLock.
    assert page.evaluate("'wakeLock' in navigator")
    body = page.locator("body")
    # The attribute starts empty; page.js sets it once the request is granted or refused
    # (headless Chromium may refuse the lock: "unavailable" still proves the script ran).
    expect(body).to_have_attribute("data-wake-lock", re.compile(r"^(on|off|unavailable)$"))


# -- 5: screenshots at phone size, nothing sticks out sideways ------------------------------------


def test_phone_screenshots_without_horizontal_overflow(server, phones, tmp_path):
    """The session page and the deal form fit a Pixel 7 screen (saved as screenshots)."""
    phone = phones()
    page = phone.new_page()
    start_session(page, server, players=["Anna-Maria", "Boris", "Vera", "Grigory"])
    open_deal_form(page, "#record-deal")
    fields = {
        "players-0-melds": "K♠ K♥ K♦\n5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥",
        "players-1-melds": "A♠ A♥ A♣",
        "players-1-hand": "2♣ J♦ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠",
        "players-2-hand": "Q♠ 3♦",
        "players-3-hand": "JK",
    }
    check_deal(page, fields, "Anna-Maria")
    preview_shot = tmp_path / "deal-form-preview.png"
    page.screenshot(path=str(preview_shot), full_page=True, scale="css")
    no_horizontal_overflow(page)
    keypad_field(page, "players-2-hand")  # and with the keypad open over the form
    form_shot = tmp_path / "deal-form-keypad.png"
    page.screenshot(path=str(form_shot), full_page=True, scale="css")
    no_horizontal_overflow(page)
    save(page, "Deal 1 saved")
    expect(total(page, "Anna-Maria")).to_have_attribute("data-total", "80")
    page.locator("#scorer-panel summary").tap()
    expect(page.locator("#scorer-link")).to_be_visible()
    session_shot = tmp_path / "session.png"
    page.screenshot(path=str(session_shot), full_page=True, scale="css")
    no_horizontal_overflow(page)
    for shot in (preview_shot, form_shot, session_shot):
        data = shot.read_bytes()
        assert data.startswith(PNG_SIGNATURE)
        # A full-page shot is as wide as the page: the phone's 412 CSS pixels, not more.
        assert int.from_bytes(data[16:20], "big") == 412, shot
