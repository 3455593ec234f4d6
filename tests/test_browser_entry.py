"""Entering a deal on the scorer's phone: fast entry (issue 8), the reference deal tapped in with
every tap counted, and a joker swap, a short hand and a warning in Russian (issue 7).

Every fast-entry interaction goes through ``Taps.tap`` (keys, fields, tabs, Next, Save,
navigation), so the count is what a person's thumb does. The count is deterministic; the budget
is 38 taps with hands in points; by rank (one tap a card, no sums) the count is what it is, asserted exactly.
"""

from __future__ import annotations

import re

import pytest
from conftest import (
    PNG_SIGNATURE,
    Taps,
    check_deal,
    close_keypad,
    expect_preview,
    expect_totals,
    fill,
    no_horizontal_overflow,
    open_deal_form,
    quiet,
    ready,
    save,
    settled,
    shots_dir,
    start_on_phone,
    start_reference_session,
    start_session,
    take_seat,
    tap_and_wait,
)
from playwright.sync_api import Page, expect

TAP_BUDGET = 38

#: The reference deal's hands (Борис, Вера, Гоша) as keys: in points (the scorer adds them up), and by rank
#: (one tap a card: Борис's 9 9 K Q 3 8 and a joker are 40 and a joker; Вера's seven cards 45; Гоша's ten 70).
REFERENCE_HANDS = {
    "points": (("d4", "d0", "hJK"), ("d4", "d5"), ("d7", "d0")),
    "ranks": (
        ("9", "9", "K", "Q", "3", "8", "JK"),
        ("Q", "J", "10", "6", "5", "4", "2"),
        ("K", "K", "Q", "J", "2", "3", "4", "6", "7", "8"),
    ),
}
#: Each hand typed by rank costs a tap a card more than in points: 7 + 7 + 10 cards against 3 + 2 + 2 digits.
TAPS_BY_RANK_MORE = (7 + 7 + 10) - (3 + 2 + 2)
#: The counts, deterministic: in points within the budget, by rank that many more.
REFERENCE_TAPS = {"points": 38, "ranks": 38 + TAPS_BY_RANK_MORE}


def new_deal_form(phones, server, players: list[str], hand_entry: str) -> Page:
    """A new phone starts a session and opens the deal form (the setup: no tap counted)."""
    page = phones().new_page()
    start_on_phone(page, server, players, hand_entry)
    tap_and_wait(page, "#record-deal")
    ready(page)
    return page


@pytest.mark.parametrize("hand_entry", ["points", "ranks"])
def test_the_reference_deal_in_at_most_38_taps(server, phones, tmp_path, hand_entry):
    shots = shots_dir(tmp_path)
    page, _ = start_reference_session(phones, server, hand_entry)
    boris, vera, gosha = REFERENCE_HANDS[hand_entry]
    taps = Taps(page)
    taps.tap("#record-deal", navigates=True)
    ready(page)
    melds = page.locator("#players-0-melds")
    expect(melds).to_be_focused()  # the first player's melds take the keypad at once
    expect(page.locator("#player-1")).to_be_hidden()  # one player per screen

    # Анна: A♠ A♥ A♦, 6♥…10♥, J♣…K♣ by shape; the vist 5♦ to Борис picked from the list.
    taps.keys("A", "♠", "♥", "♦")
    taps.keys("6", "♥", "…", "10")
    taps.keys("J", "♣", "…", "K")
    expect(melds).to_have_value(re.compile(r"^Т♠ Т♥ Т♦\n6♥…10♥\nВ♣…К♣\s*$"))
    taps.pick("Борис: ")
    taps.keys("5", "♦")
    expect(page.locator("#players-0-vists")).to_have_value(re.compile(r"^Борис: 5♦\s*$"))
    settled(page)
    verdicts = page.locator("#players-0-melds-verdicts li.verdict")
    expect(verdicts).to_have_count(3)
    expect(verdicts.nth(1)).to_have_attribute("data-legal", "true")
    expect(verdicts.nth(1).locator(".cards")).to_have_text("6♥ 7♥ 8♥ 9♥ 10♥")
    expect(page.locator('#footer-scores .chip[data-player="Анна"] .chip-plus')).to_have_attribute("data-plus", "85")
    page.screenshot(path=str(shots / "entry-anna-ru.png"), full_page=False)

    # Борис: 2♦…4♦; his hand in points: 40 and a joker.
    taps.tap("#next-seat")
    expect(page.locator("#player-1")).to_be_visible()
    expect(page.locator("#players-1-melds")).to_be_focused()
    taps.keys("2", "♦", "…", "4")
    taps.tap("#players-1-hand")
    if hand_entry == "points":
        expect(page.locator("#keypad .keypad-digits")).to_be_visible()
    else:  # ranks and the joker, no suits
        expect(page.locator("#keypad .keypad-ranks")).to_be_visible()
        expect(page.locator('#keypad [data-suit="♠"]')).to_be_hidden()
    taps.keys(*boris)
    shown = r"^40 Дж\s*$" if hand_entry == "points" else r"^9 9 К Д 3 8 Дж\s*$"
    expect(page.locator("#players-1-hand")).to_have_value(re.compile(shown))

    # Вера: 7♠…9♠; hand 45 points.
    taps.tap("#next-seat")
    taps.keys("7", "♠", "…", "9")
    taps.tap("#players-2-hand")
    taps.keys(*vera)

    # Гоша: no melds; hand 70 points.
    taps.tap("#next-seat")
    taps.tap("#players-3-hand")
    taps.keys(*gosha)
    settled(page)
    expect(page.locator("#went_out")).to_have_value("Анна")  # the one player with an empty hand
    expect(page.locator("#preview")).to_have_attribute("data-valid", "true")
    chips = {"Анна": (90, 0), "Борис": (15, 50), "Вера": (15, 45), "Гоша": (0, 70)}
    for name, (plus, minus) in chips.items():
        chip = page.locator(f'#footer-scores .chip[data-player="{name}"]')
        expect(chip.locator(".chip-plus")).to_have_attribute("data-plus", str(plus))
        expect(chip.locator(".chip-minus")).to_have_attribute("data-minus", str(minus))
    page.screenshot(path=str(shots / f"entry-reference-{hand_entry}-ru.png"), full_page=False)
    no_horizontal_overflow(page)

    taps.tap("#footer-save", navigates=True)
    expect(page.locator("p.flash")).to_contain_text("Партия 1")
    expect_totals(page, {"Анна": 90, "Борис": -35, "Вера": -30, "Гоша": -70}, 1)
    print(f"\nreference deal, hands {hand_entry}: {taps.count} taps")
    assert REFERENCE_TAPS["points"] <= TAP_BUDGET
    assert taps.count == REFERENCE_TAPS[hand_entry], f"{taps.count} taps for the reference deal, hands {hand_entry}"
    assert (shots / f"entry-reference-{hand_entry}-ru.png").read_bytes().startswith(PNG_SIGNATURE)


def test_an_ordered_rummy_deal_by_tapping(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = phones().new_page()
    start_on_phone(page, server, ["Ann", "Bob", "Cid"], "cards", game="ordered-rummy")
    taps = Taps(page)
    taps.tap("#record-deal", navigates=True)
    ready(page)
    # Ann: 8♥ 9♥ 10♥ (27) and 10♣ J♣ Q♣ K♣ (40), out; Bob: 2♠ 3♠ 4♠ (9), 5♠ 5♥ 5♦ (15), K♦ in
    # hand; Ann adds 5♣ to Bob's set (5) -> Ann 72. Cid: 3♠ 8♥ in hand -> −11.
    taps.keys("8", "♥", "…", "10")
    taps.keys("10", "♣", "…", "K")
    taps.tap("#next-seat")
    taps.keys("2", "♠", "…", "4", "↵", "5", "♠", "♥", "♦")
    taps.tap("#players-1-hand")
    taps.keys("K", "♦")
    taps.tap("#prev-seat")
    taps.tap("#players-0-vists")
    settled(page)
    taps.pick("Bob 2: ")
    taps.keys("5", "♣")
    expect(page.locator("#players-0-vists")).to_have_value(re.compile(r"^Bob 2: 5♣\s*$"))
    taps.tap("#seat-tab-2")
    taps.tap("#players-2-hand")
    taps.keys("3", "♠", "8", "♥")
    settled(page)
    expect(page.locator("#went_out")).to_have_value("Ann")
    expect(page.locator("#preview")).to_have_attribute("data-valid", "true")
    page.screenshot(path=str(shots / "entry-ordered-en.png"), full_page=False)
    no_horizontal_overflow(page)
    taps.tap("#footer-save", navigates=True)
    expect_totals(page, {"Ann": 72, "Bob": 24 - 10, "Cid": -11}, 1)
    print(f"\nordered-rummy deal: {taps.count} taps")
    assert taps.count <= 34  # 27 of them for the 13 cards laid and left in hand


def test_counts_a_swap_and_a_failed_save_that_lands_on_the_first_error(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = phones().new_page()
    start_on_phone(page, server, ["Ann", "Bob", "Cid"], "counts")
    taps = Taps(page)
    taps.tap("#record-deal", navigates=True)
    ready(page)
    expect(page.locator("#players-0-small")).to_be_visible()  # hands by counts, on each player's screen
    expect(page.locator("#players-1-small")).to_be_hidden()
    taps.keys("K", "♠", "♥", "♦")  # Ann: K♠ K♥ K♦, out
    taps.tap("#next-seat")
    taps.keys("5", "♥", "JK", "7", "♥")  # Bob: 5♥ JK 7♥ and two small cards in hand
    taps.tap(page.locator("#players-1-small + .step-plus"))
    taps.tap(page.locator("#players-1-small + .step-plus"))
    expect(page.locator("#players-1-small")).to_have_value("2")
    taps.tap("#next-seat")
    taps.keys("Q", "♠", "♠", "♥")  # Cid: Q♠ Q♠ Q♥ (one card twice: not legal yet)
    settled(page)
    taps.tap("#players-2-swaps")
    taps.pick("Bob 1: ", "swaps")  # Cid puts 6♥ in for Bob's joker and keeps the joker in hand
    taps.keys("6", "♥")
    taps.tap(page.locator("#players-2-jokers + .step-plus"))
    settled(page)
    verdict = page.locator("#players-2-melds-verdicts li.verdict")
    expect(verdict).to_have_attribute("data-legal", "false")
    expect(verdict.locator(".points")).to_have_count(0)  # an illegal meld shows no points
    expect(page.locator('#footer-scores .chip[data-player="Cid"] .chip-plus')).to_have_attribute("data-plus", "5")

    # Save with the problem: refused, and the page opens on Cid's melds with everything kept.
    taps.tap("#footer-save", navigates=True)
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    expect(page.locator("#player-2")).to_be_visible()
    expect(page.locator("#player-0")).to_be_hidden()
    expect(page.locator("#players-2-melds")).to_be_focused()
    expect(page.locator("#players-2-melds")).to_have_value(re.compile(r"^Q♠ Q♠ Q♥\s*$"))
    expect(page.locator("#players-2-swaps")).to_have_value(re.compile(r"^Bob 1: 6♥\s*$"))
    expect(page.locator("#players-1-small")).to_have_value("2")
    page.screenshot(path=str(shots / "entry-failed-save-en.png"), full_page=False)
    # the keypad is on the field that failed, the caret at its end: drop Q♥ and the second Q♠
    taps.tap('#keypad [data-action="backspace"]')
    taps.tap('#keypad [data-action="backspace"]')
    taps.keys("Q", "♦", "♥")
    expect(page.locator("#players-2-melds")).to_have_value(re.compile(r"^Q♠ Q♦ Q♥\s*$"))
    settled(page)
    expect(page.locator("#went_out")).to_have_value("Ann")
    expect(page.locator("#preview")).to_have_attribute("data-valid", "true")
    taps.tap("#footer-save", navigates=True)
    # Ann 30; Bob 5♥ 7♥ (10) − 2 small (10); Cid Q set (30) + 6♥ (5) − the joker in hand (10)
    expect_totals(page, {"Ann": 30, "Bob": 0, "Cid": 25}, 1)


def test_a_swipe_moves_between_players(server, phones):
    page = new_deal_form(phones, server, ["Ann", "Bob", "Cid"], "cards")
    page.locator('#keypad [data-action="close"]').tap()  # the swipe starts on the player's card
    cdp = page.context.new_cdp_session(page)

    def swipe(x0: int, x1: int, y: int = 300) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
        for x in range(x0, x1, (x1 - x0) // 6):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    legend = page.locator("#player-0 legend")
    y = int(legend.bounding_box()["y"] + 10)
    swipe(350, 60, y)  # right to left: the next player
    expect(page.locator("#player-1")).to_be_visible()
    expect(page.locator("#player-0")).to_be_hidden()
    expect(page.locator("#seat-tab-1")).to_have_attribute("aria-current", "step")
    y = int(page.locator("#player-1 legend").bounding_box()["y"] + 10)
    swipe(60, 350, y)  # left to right: back
    expect(page.locator("#player-0")).to_be_visible()


def test_the_sessions_way_of_entering_hands_reaches_the_deal_form_and_a_seated_phone_at_once(server, phones):
    """How hands are entered is one setting of the session (not a chooser on every form): the scorer changes it on
    the session page, the next deal form takes it, and a seated player's open part follows without a reload."""
    scorer = phones().new_page()
    session_url = start_on_phone(scorer, server, ["Ann", "Bob"], "cards")
    viewer_url = scorer.locator("#viewer-link").get_attribute("href")
    player = phones().new_page()
    take_seat(player, viewer_url, 1)
    player.evaluate("window.stillTheSamePage = true")
    expect(player.locator("#hand-mode")).to_have_count(0)  # no chooser on the part
    player.locator("#player-1-hand, #player-hand, input[data-keypad-kind=hand]").first.tap()
    expect(player.locator("#keypad .keypad-suits [data-suit]").first).to_be_visible()  # cards: suits

    scorer.goto(session_url)
    scorer.locator("#hand-entry-panel > summary").tap()
    scorer.locator("#hand-entry-points").check()
    tap_and_wait(scorer, "#set-hand-entry")
    expect(scorer.locator("p.flash")).to_contain_text("points and jokers")
    expect(scorer.locator("#hand-entry-panel > summary")).to_contain_text("points and jokers")

    hand = player.locator("input[data-keypad-kind=hand]").first
    expect(hand).to_have_attribute("data-keypad-points", "", timeout=8_000)  # the next poll brings it
    expect(player.locator("#part-form")).to_have_attribute("data-hand-mode", "points")
    hand.tap()
    expect(player.locator("#keypad .keypad-digits")).to_be_visible()
    assert player.evaluate("window.stillTheSamePage") is True

    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    expect(scorer.locator("#hand-mode")).to_have_count(0)
    expect(scorer.locator("input[name=hand_mode]")).to_have_value("points")
    scorer.locator("#players-0-hand").tap()
    expect(scorer.locator("#keypad .keypad-digits")).to_be_visible()
    expect(scorer.locator("#keypad .keypad-ranks")).to_be_hidden()


def test_a_joker_keeps_the_picked_rank_and_a_closed_keypad_stays_closed(server, phones):
    page = new_deal_form(phones, server, ["Ann", "Bob"], "counts")
    taps = Taps(page)
    taps.keys("A", "♠", "♥", "JK", "♦")
    expect(page.locator("#players-0-melds")).to_have_value(re.compile(r"^A♠ A♥ JK A♦\s*$"))
    taps.keys("5", "♣", "…", "7")  # a new rank after the set: a new meld, on its own line
    expect(page.locator("#players-0-melds")).to_have_value(re.compile(r"^A♠ A♥ JK A♦\n5♣…7♣\s*$"))
    settled(page)
    page.locator('#keypad [data-action="close"]').tap()
    expect(page.locator("#keypad")).to_be_hidden()
    page.locator("#players-0-small + .step-plus").tap()  # a live check follows...
    settled(page)
    expect(page.locator("#keypad")).to_be_hidden()  # ...and the keypad stays put away
    expect(page.locator("#players-0-melds-verdicts li.verdict")).to_have_count(2)


# -- a joker swap, a short hand and a warning in Russian, with screenshots --------------------------


def test_a_swap_and_a_short_hand_in_russian(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = phones(locale="ru-RU").new_page()
    start_session(page, server, players=["Анна", "Борис", "Вера"])
    open_deal_form(page, "#record-deal")
    expect(page.locator("label[for=players-1-swaps]")).to_contain_text("Замены джокера")
    fields = {
        "players-0-melds": "К♠ К♣ Дж\n9т Дж Вт",
        "players-1-melds": "5ч Дж 7ч\n10т 10ч 10п",
        "players-1-swaps": "Анна 1: Кб",
        "players-1-hand": "15",
        "players-2-melds": "10т 10б 10п",
        "players-2-hand": "35 Дж",
    }
    check_deal(page, fields, "Анна")
    # Anna: К♠ К♣ (20) + 9♣ JK=10♣ J♣ (20); Boris: К♦ 10 + run 15 + set 15, minus 15; Vera: 15 − (35 + 10)
    expect_preview(page, {"Анна": (40, 0, 40), "Борис": (40, 15, 25), "Вера": (15, 45, -30)})
    expect(page.locator("#players-1-swaps-verdicts .verdict")).to_have_attribute("data-legal", "true")
    warning = page.locator("#deal-warnings li")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text("выложен до второго экземпляра")
    page.screenshot(path=str(shots / "swap-form-ru.png"), full_page=True, scale="css")
    no_horizontal_overflow(page)
    save(page, "Партия 1")
    notes = page.locator("#deals tr.deal-info td")
    expect(notes.locator(".swap")).to_have_text(
        re.compile(r"Борис забирает джокера из комбинации 1 игрока Анна и кладёт К♦")
    )
    expect(notes.locator(".warning")).to_have_count(1)
    notes.locator("details.warnings summary").tap()  # the warning's text folds out
    expect(notes.locator(".warning")).to_be_visible()
    expect(notes.locator(".warning")).to_contain_text("10♣")
    page.screenshot(path=str(shots / "swap-session-ru.png"), full_page=True, scale="css")
    no_horizontal_overflow(page)
    for name in ("swap-form-ru.png", "swap-session-ru.png"):
        assert (shots / name).read_bytes().startswith(PNG_SIGNATURE)


def test_enter_in_a_hand_goes_on_to_the_next_player_and_never_reloads_the_form(server, phones):
    """Enter (a keyboard's, or a phone keyboard's Go) in a hand moves on like "Next player", then from the last
    player to "Who went out"; the form's first button is Check, which would reload the page and lose the place."""
    page = new_deal_form(phones, server, ["Ann", "Bob", "Cy"], "cards")
    page.evaluate("window.stillTheSamePage = true")
    page.locator("#players-0-hand").fill("2♣")
    page.locator("#players-0-hand").press("Enter")
    expect(page.locator("#players-1-melds")).to_be_focused()
    expect(page.locator("#seat-tab-1")).to_have_attribute("aria-current", "step")
    page.locator("#players-1-hand").press("Enter")
    page.locator("#players-2-hand").fill("Q♠")
    page.locator("#players-2-hand").press("Enter")
    expect(page.locator("#went_out")).to_be_focused()
    assert page.evaluate("window.stillTheSamePage === true"), "Enter reloaded the form"
    expect(page.locator("#players-0-hand")).to_have_value("2♣")


def test_the_keypad_by_keyboard_escape_closes_it_and_tab_never_lands_behind_the_footer(server, phones):
    """Keyboard use of the deal form: Escape (or ✕) closes the keypad and leaves the focus in its field; Tab on
    to "Who went out" closes it too, and the select stands above the sticky footer, not hidden behind it; the
    ⌨ key says whether the phone's keyboard is on."""
    page = new_deal_form(phones, server, ["Ann", "Bob"], "cards")
    pad, melds = page.locator("#keypad"), page.locator("#players-0-melds")
    expect(melds).to_be_focused()
    expect(pad).to_be_visible()
    page.keyboard.press("Escape")
    expect(pad).to_be_hidden()
    expect(melds).to_be_focused()
    melds.click()  # a tap on the field brings it back
    expect(pad).to_be_visible()
    close = page.locator('#keypad [data-action="close"]')
    close.focus()
    page.keyboard.press("Enter")
    expect(pad).to_be_hidden()
    expect(melds).to_be_focused()

    page.locator("#players-0-hand").focus()
    expect(pad).to_be_visible()
    page.keyboard.press("Tab")
    went_out = page.locator("#went_out")
    expect(went_out).to_be_focused()
    expect(pad).to_be_hidden()
    footer_top = page.locator(".deal-footer").bounding_box()["y"]
    box = went_out.bounding_box()
    assert box["y"] + box["height"] <= footer_top, (box, footer_top)

    # a set by keys of the keypad: the focus stays on the keypad, each suit one Tab away from the last
    melds.focus()
    page.locator('#keypad [data-rank="A"]').focus()
    page.keyboard.press("Enter")
    for suit in ("♠", "♥", "♦"):
        page.locator(f'#keypad [data-suit="{suit}"]').focus()
        page.keyboard.press("Enter")
        expect(page.locator(f'#keypad [data-suit="{suit}"]')).to_be_focused()
    expect(melds).to_have_value(re.compile(r"^A♠ A♥ A♦\s*$"))

    keyboard = page.locator('#keypad [data-action="keyboard"]')
    melds.focus()
    expect(keyboard).to_have_attribute("aria-pressed", "false")
    keyboard.click()
    expect(keyboard).to_have_attribute("aria-pressed", "true")
    expect(melds).not_to_have_attribute("inputmode", "none")
    keyboard.click()
    expect(keyboard).to_have_attribute("aria-pressed", "false")


def test_a_fields_verdicts_change_one_by_one_so_its_live_region_reads_only_the_new_one(server, phones):
    """A field's live region is read out wherever it changes: a new meld's verdict is added to the list, and a
    changed one replaced, while the verdicts already there stay the same nodes (not read again)."""
    page = new_deal_form(phones, server, ["Ann", "Bob"], "cards")
    melds = page.locator("#players-0-melds")
    verdicts = page.locator("#players-0-melds-verdicts li")
    expect(page.locator("#players-0-melds-live")).to_have_attribute("aria-live", "polite")
    melds.fill("A♠ A♥ A♦")
    settled(page)
    expect(verdicts).to_have_count(1)
    page.evaluate("document.querySelector('#players-0-melds-verdicts li').kept = true")
    melds.fill("A♠ A♥ A♦\n2♣ 3♣ 4♣")
    settled(page)
    expect(verdicts).to_have_count(2)
    kept = "[...document.querySelectorAll('#players-0-melds-verdicts li')].map(li => li.kept === true)"
    assert page.evaluate(kept) == [True, False]
    page.evaluate("document.querySelectorAll('#players-0-melds-verdicts li')[1].kept = true")
    melds.fill("A♠ A♥ A♦\n2♣ 3♣ 5♣")
    settled(page)
    expect(verdicts.nth(1)).to_have_attribute("data-legal", "false")
    assert page.evaluate(kept) == [True, False]  # only the changed verdict is new


def test_the_footer_leaves_most_of_the_screen_to_the_form_and_one_save_shows_at_a_time(server, phones, tmp_path):
    """With the keypad up the sticky footer (scores, buttons, keypad) takes under 45% of a Pixel 7's screen, five
    players' scores fit one line, and with the keypad down the end of the deal (who went out, express) shows with
    one Save on the screen, not the footer's and the form's both."""
    shots = shots_dir(tmp_path)
    page = new_deal_form(phones, server, ["Анна", "Борис", "Вера", "Гоша", "Дима"], "points")
    fill(page, "players-0-melds", "A♠ A♥ A♦\n5♥ 6♥ 7♥")
    settled(page)
    page.locator("#players-0-melds").tap()
    expect(page.locator("#keypad")).to_be_visible()
    share = page.evaluate("document.getElementById('deal-footer').getBoundingClientRect().height / innerHeight")
    assert share < 0.45, f"the footer takes {share:.0%} of the screen with the keypad up"
    chips = page.locator("#footer-scores .chip")
    tops = {round(chips.nth(i).bounding_box()["y"]) for i in range(5)}
    assert len(tops) == 1, f"the five scores take {len(tops)} lines"
    expect(page.locator("#seat-tab-4")).to_be_in_viewport(ratio=1)  # the fifth player's tab is not cut
    page.screenshot(path=str(shots / "entry-footer-keypad-ru.png"))

    close_keypad(page)
    page.locator("#went_out").scroll_into_view_if_needed()
    for control in ("#went_out", "#express"):
        box = page.locator(control).bounding_box()
        footer_top = page.locator("#deal-footer").bounding_box()["y"]
        assert box["y"] + box["height"] <= footer_top, f"{control} is under the footer"
    page.locator("#save").scroll_into_view_if_needed()
    quiet(page)
    expect(page.locator("#save")).to_be_in_viewport()
    expect(page.locator("#footer-save")).to_be_hidden()  # one Save at a time
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("#footer-save")).to_be_visible()  # the form's own is out of sight: the footer's is back
    page.screenshot(path=str(shots / "entry-footer-end-ru.png"))
