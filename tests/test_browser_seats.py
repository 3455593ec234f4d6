"""Every player enters their own part (issue 9): three Pixel 7 phones assemble one deal.

The scorer and two players, each a browser context of its own (its own cookies). Each player
takes a seat once (the evening's setup, not counted), then enters their part of the reference
deal of the fast-entry test, every tap counted; the scorer enters the two other parts and
records the deal with one tap. The parts are saved as they are typed: there is no Save to tap.
"""

from __future__ import annotations

import re

from conftest import (
    Taps,
    expect_totals,
    no_horizontal_overflow,
    part_ready,
    ready,
    saved,
    set_hand_entry,
    shots_dir,
    start_on_phone,
    start_reference_session,
    take_seat,
    tap_and_wait,
)
from playwright.sync_api import expect

#: A player's own part of the reference deal: Анна's 15 taps for her melds and vist, and one to say "I went out"
#: (issue 45: a hand left blank is not entered, never read as no cards, so the one who went out says so).
PLAYER_TAP_BUDGET = 16


def test_three_phones_assemble_the_reference_deal(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    scorer, session_url = start_reference_session(phones, server)
    anna = phones(locale="ru-RU").new_page()
    boris = phones(locale="ru-RU").new_page()
    take_seat(anna, session_url, 0)
    take_seat(boris, session_url, 1)
    expect(anna.locator("h1")).to_contain_text("Анна")

    # Анна, on her own phone: A♠ A♥ A♦, 6♥…10♥, J♣…K♣ and the vist 5♦ to Борис.
    melds = anna.locator("#player-melds")
    expect(melds).to_be_focused()  # the keypad is on her melds at once
    taps = Taps(anna)
    taps.keys("A", "♠", "♥", "♦")
    taps.keys("6", "♥", "…", "10")
    taps.keys("J", "♣", "…", "K")
    taps.pick("Борис: ")
    taps.keys("5", "♦")
    taps.tap("#player-out")  # she went out: no cards left in hand
    saved(anna)
    expect(anna.locator("#player-out")).to_be_checked()
    expect(melds).to_have_value(re.compile(r"^Т♠ Т♥ Т♦\n6♥…10♥\nВ♣…К♣\s*$"))
    expect(anna.locator("#player-vists")).to_have_value(re.compile(r"^Борис: 5♦\s*$"))
    assert taps.count <= PLAYER_TAP_BUDGET, f"Анна's part took {taps.count} taps"
    anna_taps = taps.count
    expect(anna.locator("#saved-state")).not_to_have_attribute("data-revision", "0")
    anna.screenshot(path=str(shots / "seat-anna-ru.png"), full_page=False)
    no_horizontal_overflow(anna)

    # Борис, at the same time on his phone: 2♦…4♦, hand 40 points and a joker.
    taps = Taps(boris)
    expect(boris.locator("#player-melds")).to_be_focused()
    taps.keys("2", "♦", "…", "4")
    taps.tap("#player-hand")
    taps.keys("d4", "d0", "hJK")
    saved(boris)
    expect(boris.locator("#player-hand")).to_have_value(re.compile(r"^40 Дж\s*$"))
    assert taps.count <= PLAYER_TAP_BUDGET, f"Борис's part took {taps.count} taps"
    boris_taps = taps.count
    no_horizontal_overflow(boris)

    # The scorer sees both parts arrive, and enters Вера's and Гоша's.
    tap_and_wait(scorer, "#open-draft")
    expect(scorer.locator("#seat-0")).to_have_attribute("data-state", "entered")
    expect(scorer.locator("#seat-1")).to_have_attribute("data-state", "entered")
    expect(scorer.locator("#seat-2")).to_have_attribute("data-state", "waiting")
    expect(scorer.locator("#draft-ready")).to_have_attribute("data-complete", "false")
    scorer.screenshot(path=str(shots / "draft-two-parts-ru.png"), full_page=True)
    no_horizontal_overflow(scorer)

    for seat, run, hand in ((2, ("7", "♠", "…", "9"), ("d4", "d5")), (3, (), ("d7", "d0"))):
        tap_and_wait(scorer, f"#open-seat-{seat}")
        part_ready(scorer)
        taps = Taps(scorer)
        if run:
            taps.keys(*run)
        taps.tap("#player-hand")
        taps.keys(*hand)
        saved(scorer)
        expect(scorer.locator("#saved-state")).to_have_attribute("data-written-by", "scorer")
        tap_and_wait(scorer, "#draft-link")

    expect(scorer.locator("#draft-ready")).to_have_attribute("data-ready", "true")
    expect(scorer.locator("#went_out option:checked")).to_contain_text("Анна")  # the empty hand
    scores = {"Анна": 90, "Борис": -35, "Вера": -30, "Гоша": -70}
    for seat, (_name, score) in enumerate(scores.items()):
        expect(scorer.locator(f"#seat-{seat} .seat-score")).to_have_attribute("data-score", str(score))
    scorer.screenshot(path=str(shots / "draft-ready-ru.png"), full_page=True)
    scorer.evaluate("window.scrollTo(0, 0)")
    expect(scorer.locator("#record-draft")).to_be_in_viewport()  # the one tap is on screen, not at the bottom
    scorer.screenshot(path=str(shots / "draft-ready-screen-ru.png"), full_page=False)

    # One tap records it.
    taps = Taps(scorer)
    taps.tap("#record-draft", navigates=True)
    assert taps.count == 1
    expect_totals(scorer, scores, 1)

    # The players' phones move on to the next deal by themselves, their part empty again.
    for page in (anna, boris):
        expect(page.locator("h1")).to_contain_text("2", timeout=10_000)
        expect(page.locator("#player-melds")).to_have_value("")
    print(f"taps: Анна {anna_taps}, Борис {boris_taps}")


def test_a_phone_is_told_live_when_the_scorer_moves_its_seat_and_sees_the_scorers_correction(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="en-US").new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris"], "cards")
    first = phones(locale="en-US").new_page()
    take_seat(first, session_url, 0)
    first.locator("#player-melds").fill("A♠ A♥ A♦")
    saved(first, revision=1)

    # The scorer corrects Anna's part on the scorer's phone; her idle page shows the correction.
    scorer.goto(session_url.rstrip("/") + "/draft/0")
    part_ready(scorer)
    expect(scorer.locator("#player-melds")).to_have_value(re.compile(r"^A♠ A♥ A♦\s*$"))
    scorer.locator("#player-melds").fill("A♠ A♥ A♦ A♣")
    saved(scorer, revision=2)
    expect(first.locator("#player-melds")).to_have_value(re.compile(r"^A♠ A♥ A♦ A♣\s*$"), timeout=10_000)
    expect(first.locator("#saved-state")).to_have_attribute("data-written-by", "scorer")

    # Another phone cannot just take her seat: it is told whom to ask, and her phone goes on writing.
    second = phones(locale="en-US").new_page()
    second.goto(session_url)
    tap_and_wait(second, "#take-seat-0")
    expect(second.locator(".flash.error")).to_contain_text("The seat of Anna is held by another phone")
    expect(second.locator("#move-seat")).to_have_value("0")
    second.screenshot(path=str(shots / "seat-held-en.png"), full_page=False)
    no_horizontal_overflow(second)
    expect(first.locator("#seat-lost")).to_have_count(0)
    expect(first.locator("#player-melds")).to_be_enabled()

    # The scorer moves her seat to the second phone with the one-time link: the first phone is told,
    # and can no longer write; her part stays.
    tap_and_wait(scorer, "#draft-link")
    scorer.locator("#seat-phone-0 > summary").tap()  # a seat's phone actions are tucked away (issue 36)
    tap_and_wait(scorer, "#move-seat-0")
    expect(scorer.locator("#move-code")).to_have_text(re.compile(r"^\s*Move code: \d{3} \d{3}\s*$"))
    expect(scorer.locator("#seat-move svg.qr")).to_be_visible()
    scorer.screenshot(path=str(shots / "seat-move-scorer-en.png"), full_page=True)
    no_horizontal_overflow(scorer)
    second.goto(scorer.locator("#move-link").get_attribute("href"))
    expect(second.locator("#take-moved-seat")).to_have_text("This is me: take the seat of Anna")
    second.screenshot(path=str(shots / "seat-move-link-en.png"), full_page=False)
    no_horizontal_overflow(second)
    tap_and_wait(second, "#take-moved-seat")
    part_ready(second)
    expect(second.locator(".flash.ok")).to_contain_text("Another phone held this seat")
    expect(second.locator("#player-melds")).to_have_value(re.compile(r"^A♠ A♥ A♦ A♣\s*$"))
    expect(first.locator("#seat-lost")).to_contain_text("Another phone took the seat of Anna", timeout=10_000)
    expect(first.locator("#player-melds")).to_be_disabled()
    first.screenshot(path=str(shots / "seat-taken-en.png"), full_page=False)
    no_horizontal_overflow(first)


def test_the_session_page_offers_the_seats_on_a_phone(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, ["Анна", "Борис", "Вера", "Гоша", "Дмитрий"], "points")
    player = phones(locale="ru-RU").new_page()
    player.goto(session_url)
    expect(player.locator("#seats button[name=seat]")).to_have_count(5)
    player.screenshot(path=str(shots / "session-seats-ru.png"), full_page=True)
    no_horizontal_overflow(player)
    take_seat(player, session_url, 4)
    player.goto(session_url)
    expect(player.locator("#my-part")).to_contain_text("1")
    expect(player.locator("#seats")).to_contain_text("Дмитрий")
    scorer.reload()
    expect(scorer.locator("#open-draft")).to_contain_text("1")
    scorer.screenshot(path=str(shots / "session-scorer-draft-link-ru.png"), full_page=False)
    no_horizontal_overflow(scorer)
    # the scorer records deal 1 (a redeal): the player's page, not reloaded, names deal 2 within a poll (live.js)
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    scorer.locator("#redeal").check()
    tap_and_wait(scorer, "#save")
    expect(scorer.locator("#open-draft")).to_contain_text("2")
    expect(player.locator("#my-part")).to_have_text("Ввести мою часть партии 2", timeout=10_000)


def test_a_stranger_cannot_take_a_held_seat_and_the_holder_moves_it_with_a_code(server, phones, tmp_path):
    """Анна's seat stays hers against a stranger; her own phone shows a move code, typed on her new phone."""
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, ["Анна", "Борис"], "cards")
    anna = phones(locale="ru-RU").new_page()
    take_seat(anna, session_url, 0)
    anna.locator("#player-melds").fill("A♠ A♥ A♦")
    saved(anna, revision=1)

    stranger = phones(locale="ru-RU").new_page()
    stranger.goto(session_url)
    tap_and_wait(stranger, "#take-seat-0")
    expect(stranger.locator(".flash.error")).to_be_visible()
    expect(stranger.locator("#move-code-form")).to_be_visible()
    stranger.screenshot(path=str(shots / "seat-held-ru.png"), full_page=False)
    no_horizontal_overflow(stranger)
    stranger.locator("#move-code").fill("000000")  # a guess
    tap_and_wait(stranger, "#take-with-code")
    expect(stranger.locator(".flash.error")).to_be_visible()
    expect(stranger.locator("#seats")).not_to_contain_text("Анна.")  # no "This phone is Анна."
    expect(anna.locator("#player-melds")).to_be_enabled()
    expect(anna.locator("#seat-lost")).to_have_count(0)

    # Анна's phone moves the seat: the code, typed on her new phone's session page, takes it.
    expect(anna.locator("#move-to-phone")).to_be_visible()
    anna.screenshot(path=str(shots / "part-move-button-ru.png"), full_page=True)
    tap_and_wait(anna, "#move-to-phone")
    code = anna.locator("#move-code").inner_text().split()[-2:]
    anna.screenshot(path=str(shots / "seat-move-holder-ru.png"), full_page=True)
    no_horizontal_overflow(anna)
    new_phone = phones(locale="ru-RU").new_page()
    new_phone.goto(session_url)
    new_phone.locator("#move-seat").select_option("0")
    new_phone.locator("#move-code").fill(" ".join(code))
    tap_and_wait(new_phone, "#take-with-code")
    part_ready(new_phone)
    expect(new_phone.locator("#player-melds")).to_have_value(re.compile(r"^Т♠ Т♥ Т♦\s*$"))
    anna.goto(session_url.rstrip("/") + "/draft/0")
    expect(anna.locator("#seat-lost")).to_be_visible()
    expect(anna.locator("#player-melds")).to_be_disabled()


def test_a_players_keypad_offers_every_other_player_for_a_vist(server, phones):
    """On a player's own part the keypad's vist names leave out that player alone (it hid the first seat's names on
    every phone but the first seat's, and showed the player's own)."""
    scorer = phones().new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris", "Vera"], "cards")
    anna = phones().new_page()
    take_seat(anna, session_url, 0)
    anna.locator("#player-melds").fill("5♥ 6♥ 7♥")
    saved(anna, 1)
    boris = phones().new_page()
    take_seat(boris, session_url, 1)
    boris.locator("#player-vists").tap()
    picks = boris.locator("#keypad-picks .key.name")
    expect(picks.first).to_be_visible()
    shown = {picks.nth(i).get_attribute("data-seat") for i in range(picks.count()) if picks.nth(i).is_visible()}
    assert shown == {"0", "2"}, shown  # Anna (and her meld) and Vera; not Boris
    expect(boris.locator('#keypad-picks .key.name[data-seat="0"]').first).to_be_visible()


def test_a_live_page_older_than_the_phones_last_save_takes_nothing_back(server, phones, store):
    """A slow answer to a live poll (static/draft.js) may bring the part as it was before this phone's last save came
    back: it is not taken for a change made elsewhere (which emptied what was just typed and stored, and sent the
    phone's next taps against an old revision)."""
    scorer = phones().new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris"], "cards")
    anna = phones().new_page()
    take_seat(anna, session_url, 0)
    anna.locator("#player-melds").fill("5♥ 6♥ 7♥")
    saved(anna, 1)
    anna.evaluate(
        "window.askedAt = performance.now();"
        "fetch(location.pathname).then(r => r.text()).then(html => { window.oldPage = html; })"
    )
    anna.wait_for_function("window.oldPage !== undefined")
    anna.locator("#player-hand").fill("3♣")
    saved(anna, 2)
    # the answer to a poll asked before that save was answered, arriving after it (as static/draft.js hands it on)
    anna.evaluate(
        "window.kunkenEntry.apply(new DOMParser().parseFromString(window.oldPage, 'text/html'), window.askedAt)"
    )
    # at once (a later poll would bring the page as it is now, and hide what the old page took back)
    assert anna.locator("#player-hand").input_value() == "3♣"
    assert anna.locator("input[name=revision]").input_value() == "2"
    anna.locator("#player-hand").fill("3♣ 4♦")
    saved(anna, 3)  # the next save goes against revision 2: stored, no "two versions"
    expect(anna.locator("#keep-choice")).to_be_hidden()
    # a page asked for after it, of a draft the scorer discarded (revision 0 again), is taken: the part is empty
    sid = session_url.rstrip("/").rsplit("/", 1)[1]
    store.discard_draft(sid)
    expect(anna.locator("#player-hand")).to_have_value("", timeout=10_000)
    expect(anna.locator("input[name=revision]")).to_have_value("0")


def anna_with_a_hand(server, phones, hand: str):
    """A session of Anna and Boris entering hands as cards, and Anna's phone in her seat with ``hand`` stored:
    (the scorer's page, the session's address, its id, Anna's page)."""
    scorer = phones().new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris"], "cards")
    anna = phones().new_page()
    take_seat(anna, session_url, 0)
    anna.locator("#player-hand").fill(hand)
    saved(anna, 1)
    return scorer, session_url, session_url.rstrip("/").rsplit("/", 1)[1], anna


def test_typing_then_leaving_the_part_at_once_still_stores_it(server, phones):
    """A tap and straight back to the scores, inside the pause before a save: the line said "stored" over an unsent
    tap and the tap stayed on the phone. The line now says it is being sent, and leaving sends it."""
    scorer, session_url, sid, anna = anna_with_a_hand(server, phones, "K♠")
    expect(anna.locator("#keep-state")).to_have_attribute("data-state", "stored")
    anna.locator("#player-hand").fill("K♠ 5♥")
    assert anna.locator("#keep-state").get_attribute("data-state") == "sending"  # not "stored" while unsent
    anna.locator("#back-link").click()  # within the 350 ms pause
    anna.wait_for_url(session_url)

    def hand() -> object:
        draft = anna.request.get(f"{server}/api/v1/sessions/{sid}/draft").json()
        return draft["seats"][0]["part"]["hand"]

    for _ in range(50):
        if hand() == "K♠ 5♥":
            break
        anna.wait_for_timeout(100)
    assert hand() == "K♠ 5♥"


def test_the_table_switching_to_counts_mid_deal_keeps_a_typed_hand(server, phones, store):
    """The scorer switches how hands are entered while a player's typed hand is stored: her part keeps showing it as
    typed (counts cannot show "K♠ 5♥"; the steppers at 0 then stored an empty hand on her next tap). The next part
    she has nothing in follows the table's way."""
    scorer, session_url, sid, anna = anna_with_a_hand(server, phones, "K♠ 5♥")
    set_hand_entry(scorer, session_url, "counts")
    anna.wait_for_timeout(4_000)  # a draft poll or two: the page as it is now comes
    expect(anna.locator("#part-form")).to_have_attribute("data-hand-mode", "cards")
    expect(anna.locator("#player-hand")).to_be_visible()
    expect(anna.locator("#player-hand")).to_have_value("K♠ 5♥")
    anna.locator("#player-melds").fill("2♥ 3♥ 4♥")
    saved(anna, 2)
    assert store.draft(sid).parts[0].part["hand"] == "K♠ 5♥"
    boris = phones().new_page()
    take_seat(boris, session_url, 1)
    expect(boris.locator("#part-form")).to_have_attribute("data-hand-mode", "counts")
