"""The scorer's page of the players' phones (issue 36, items 7, 8 and 12), on Pixel 7 phones (412 px).

A seat shows its whole part (melds, vists, joker swaps, the cards left in hand) and one main action; moving or
freeing its phone is tucked in a disclosure. The record button looks ready only when every part is in and
nothing is wrong; until then the line above it says whom it waits for and whose part has a problem, and who
went out is named only once every part is in. A player's phone moves on to the next deal by itself once the
scorer records.
"""

from __future__ import annotations

import re

from conftest import (
    axe_violations,
    no_horizontal_overflow,
    part_ready,
    saved,
    shots_dir,
    start_on_phone,
    take_seat,
    tap_and_wait,
)
from playwright.sync_api import Page, expect

LIVE = 10_000  # ms: the draft page polls every 2 s


def violations(page: Page) -> list[str]:
    return axe_violations(page)


def write_part(
    page: Page, session_url: str, seat: int, melds: str = "", hand: str = "", vists: str = "", out: bool = False
) -> None:
    """The scorer (or a player on their page) writes a part; it is saved as typed (``out``: "I went out")."""
    url = f"{session_url.rstrip('/')}/draft/{seat}"
    if page.url != url:
        page.goto(url)
    part_ready(page)
    for field, value in (("#player-melds", melds), ("#player-vists", vists), ("#player-hand", hand)):
        if value or page.locator(field).input_value():
            page.locator(field).fill(value)
    if out:
        page.locator("#player-out").check()
    saved(page)


def shoot(page: Page, shots, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"{name}-screen.png"), full_page=False)
    no_horizontal_overflow(page)


def test_the_record_button_waits_for_every_part_and_the_players_phone_moves_on(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, ["Анна", "Борис", "Вера", "Гоша"], "cards")
    boris = phones(locale="ru-RU").new_page()
    take_seat(boris, session_url, 1)
    write_part(boris, session_url, 1, melds="2♦ 3♦ 4♦", out=True)  # "I went out": no cards left
    write_part(scorer, session_url, 0, melds="A♠ A♥ 2♦", hand="K♣")  # not a meld: a problem

    # Two parts in, one with a problem: the record button does not look ready, and says why.
    tap_and_wait(scorer, "#draft-link")
    ready_line, record = scorer.locator("#draft-ready"), scorer.locator("#record-draft")
    expect(ready_line).to_have_attribute("data-ready", "false")
    expect(ready_line).to_contain_text("Ждём части от: Вера, Гоша.")
    expect(scorer.locator("#draft-bad-parts")).to_contain_text("Анна")
    expect(scorer.locator("#draft-anyway")).to_have_count(0)  # a deal with parts missing is not recorded anyway
    expect(record).to_have_class(re.compile(r"\bsecondary\b"))
    expect(record).not_to_have_class(re.compile(r"\bbig\b"))
    # Борис's empty hand is nobody's going out while two parts may still be empty too.
    expect(scorer.locator("#went_out option:checked")).not_to_contain_text("Борис")
    expect(scorer.locator("#went_out")).to_have_value("auto")
    # One main action a seat; his phone's seat moves or is freed from a disclosure.
    seat = scorer.locator("#seat-1")
    expect(seat.locator(".part-lines dd.hand")).not_to_contain_text(re.compile("[♠♥♦♣]"))  # "no cards"
    expect(seat.locator("a.button:visible, button:visible")).to_have_count(1)
    expect(scorer.locator("#free-seat-1")).to_be_hidden()
    expect(scorer.locator("#seat-0 .part-lines dd.hand")).to_have_text("К♣")  # in Russian ranks
    shoot(scorer, shots, "draft-missing-ru")
    assert violations(scorer) == [], "the draft page, parts missing"
    scorer.locator("#seat-phone-1 > summary").tap()
    expect(scorer.locator("#free-seat-1")).to_be_visible()
    expect(scorer.locator("#move-seat-1")).to_be_visible()
    scorer.locator("#seat-1").screenshot(path=str(shots / "draft-seat-phone-open-ru.png"))
    assert violations(scorer) == [], "the draft page, a seat's phone actions open"
    scorer.locator("h1").click()  # the finger leaves the disclosure: the live parts may be swapped again

    # Вера's and Гоша's parts arrive from their phones: the page follows, the disclosure stays open.
    for index, (melds, vists, hand) in enumerate((("7♠ 8♠ 9♠", "Борис: 5♦", "K♥"), ("Q♥ Q♠ Q♦", "", "5♣ 9♣"))):
        player = phones(locale="ru-RU").new_page()
        take_seat(player, session_url, 2 + index)
        write_part(player, session_url, 2 + index, melds=melds, vists=vists, hand=hand)
        expect(scorer.locator(f"#seat-{2 + index}")).to_have_attribute("data-state", "entered", timeout=LIVE)
    expect(scorer.locator("#seat-phone-1")).to_have_attribute("open", "")
    expect(scorer.locator("#seat-2 .part-lines")).to_contain_text("Висты: Борис: 5♦")
    expect(scorer.locator("#draft-waiting")).to_have_count(0, timeout=LIVE)
    expect(scorer.locator("#draft-bad-parts")).to_contain_text("Анна")
    expect(scorer.locator("#draft-anyway")).to_be_visible()  # every part in: recording anyway with a note is open
    expect(record).to_have_class(re.compile(r"\bsecondary\b"))
    expect(scorer.locator("#went_out option:checked")).to_have_text("Без карт на руках: Борис")  # every part in
    scorer.locator("#seat-phone-1 > summary").tap()  # closed again for the picture
    scorer.locator("h1").click()
    shoot(scorer, shots, "draft-problem-ru")

    # The scorer corrects Анна's part: the deal is ready, and the button says so.
    tap_and_wait(scorer, "#open-seat-0")
    write_part(scorer, session_url, 0, melds="A♠ A♥ A♦", hand="K♣")
    tap_and_wait(scorer, "#draft-link")
    expect(ready_line).to_have_attribute("data-ready", "true")
    expect(record).to_have_class(re.compile(r"\bbig\b"))
    expect(record).not_to_have_class(re.compile(r"\bsecondary\b"))
    shoot(scorer, shots, "draft-ready-ru")
    assert violations(scorer) == [], "the draft page, ready"
    expect(boris.locator("h1")).to_contain_text("Партия 1")

    # Recorded: Борис's phone says deal 2 by itself, his part empty again.
    tap_and_wait(scorer, "#record-draft")
    expect(scorer.locator("p.flash")).to_be_visible()
    expect(boris.locator("h1")).to_contain_text("Партия 2", timeout=LIVE)
    expect(boris).to_have_title(re.compile(r"^Партия 2"))
    expect(boris.locator("#player-melds")).to_have_value("")
    expect(boris.locator("#saved-state")).to_have_attribute("data-revision", "0")


def test_a_phone_typing_when_the_deal_is_recorded_says_the_new_deal_and_keeps_what_it_typed(server, phones):
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, ["Анна", "Борис"], "cards")
    anna = phones(locale="ru-RU", service_workers="block").new_page()  # (a worker's fetches are not routed)
    take_seat(anna, session_url, 0)
    write_part(anna, session_url, 0, melds="A♠ A♥ A♦", out=True)
    write_part(scorer, session_url, 1, melds="2♦ 3♦ 4♦", hand="5♥")
    tap_and_wait(scorer, "#draft-link")
    expect(scorer.locator("#record-draft")).to_have_class(re.compile(r"\bbig\b"))
    anna.route(re.compile(r"/draft/live$"), lambda route: route.abort())  # her phone has not heard of it yet
    tap_and_wait(scorer, "#record-draft")
    anna.locator("#player-vists").fill("Борис: 7♦")
    expect(anna.locator("h1")).to_contain_text("Партия 2", timeout=LIVE)  # from the answer refusing her save
    expect(anna.locator("#keep-choice")).to_be_visible()  # what she typed is offered, not lost
    expect(anna.locator("#keep-choice")).to_contain_text("Борис: 7♦")
    expect(anna.locator("[data-keep=mine]")).to_be_hidden()  # never into deal 2's part: a correction of deal 1
    anna.unroute(re.compile(r"/draft/live$"))
    anna.locator("[data-keep=drop]").tap()  # she lets it go: her phone is simply on deal 2
    expect(anna.locator("#keep-state")).to_have_attribute("data-state", "dropped")
    expect(anna).to_have_title(re.compile(r"^Партия 2"), timeout=LIVE)
    expect(anna.locator("#player-vists")).to_have_value("")


def test_a_deal_with_a_problem_is_recorded_anyway_with_a_note(server, phones):
    scorer = phones(locale="en-US").new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris"], "cards")
    write_part(scorer, session_url, 0, melds="A♠ A♥ 2♦", out=True)
    write_part(scorer, session_url, 1, melds="2♦ 3♦ 4♦", hand="5♥")
    tap_and_wait(scorer, "#draft-link")
    expect(scorer.locator("#draft-ready")).to_contain_text("Problems in the part of Anna.")
    expect(scorer.locator("#draft-ready")).to_contain_text("record anyway with a note")
    expect(scorer.locator("#record-draft")).to_have_class(re.compile(r"\bsecondary\b"))
    scorer.locator("#override-box > summary").tap()
    scorer.locator("#override").check()
    scorer.locator("#note").fill("the table agreed")
    tap_and_wait(scorer, "#record-draft")
    assert re.search(r"/s/[^/]+$", scorer.url), scorer.url
    expect(scorer.locator("p.flash")).to_be_visible()


def test_a_part_saved_again_unchanged_does_not_stop_the_scorer_recording(server, phones):
    """A phone saves its part again with nothing changed (a field left, a change event): the scorer's page,
    shown before that save, still records. (Each such save used to make a new revision and refuse the Record.)"""
    scorer = phones(locale="en-US").new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris"], "cards")
    anna = phones(locale="en-US").new_page()
    take_seat(anna, session_url, 0)
    write_part(anna, session_url, 0, melds="A♠ A♥ A♦", hand="K♣")
    write_part(scorer, session_url, 1, melds="2♦ 3♦ 4♦", hand="5♥")
    tap_and_wait(scorer, "#draft-link")
    expect(scorer.locator("#record-draft")).to_have_class(re.compile(r"\bbig\b"))
    revision = anna.locator("#saved-state").get_attribute("data-revision")
    with anna.expect_response(re.compile(r"/draft/0$")) as sent:  # what leaving a field does: a change event
        anna.locator("#player-hand").dispatch_event("change")
    assert sent.value.status == 200
    saved(anna, int(revision))
    tap_and_wait(scorer, "#record-draft")
    assert re.search(r"/s/[^/]+$", scorer.url), scorer.url
    expect(scorer.locator("p.flash")).to_contain_text("Deal 1")
