"""The card keypad on a real deal form types what its grammar says (static/keypad_grammar.js, tested key by key in
tests/js/keypad_grammar.test.js): a few of the grammar's tricky sequences tapped on the keys, a complete meld that
no later tap breaks (issue 45), and a refused tap that shakes its key and says why in the keypad's live region."""

from __future__ import annotations

import re

from conftest import PNG_SIGNATURE, Taps, ready, settled, shots_dir, start_on_phone, tap_and_wait
from playwright.sync_api import Page, expect

#: (keys tapped, the field's exact text): rows of the grammar's table
SEQUENCES = [
    (("10", "♠", "♥", "♦", "♦", "2", "3", "4"), "10♠ 10♥ 10♦\n2♦ 3♦ 4♦ "),
    (("10", "♠", "♥", "♦", "♣", "2", "♣", "…", "9"), "10♠ 10♥ 10♦ 10♣\n2♣…9♣ "),
    (("A", "♠", "♥", "♦", "♣", "K", "♠", "♥", "♦"), "A♠ A♥ A♦ A♣\nK♠ K♥ K♦ "),
    (("♠", "7", "⌫", "♠", "7", "8"), "7♠ 8♠ "),
    (("6", "♥", "…", "10", "⌫", "8"), "6♥…8♥ "),
    (("♥", "6", "JK", "8"), "6♥ JK 8♥ "),
    (("6", "♥", "…", "JK", "8"), "6♥ JK 8♥ "),
]


def deal_form(phones, server, locale: str = "en-US") -> Page:
    page = phones(locale=locale).new_page()
    start_on_phone(page, server, ["Ann", "Bob", "Cid"], "cards")
    tap_and_wait(page, "#record-deal")
    ready(page)
    expect(page.locator("#players-0-melds")).to_be_focused()
    return page


def tap_keys(taps: Taps, keys) -> None:
    for key in keys:
        if key == "⌫":
            taps.tap('#keypad [data-action="backspace"]')
        else:
            taps.keys(key)


def lit(page: Page) -> list[str]:
    """The keys shown picked."""
    return page.eval_on_selector_all('#keypad [aria-pressed="true"]', "keys => keys.map(k => k.textContent.trim())")


def watch_shakes(page: Page) -> None:
    """Record every key that gets the shake class (it is taken off again after 400 ms)."""
    page.evaluate("""() => {
      window.shaken = [];
      new MutationObserver(changes => new Set(changes.map(c => c.target)).forEach(key => {
        if (key.classList.contains('keypad-shake')) window.shaken.push(key.textContent.trim());
      })).observe(document.getElementById('keypad'), {subtree: true, attributes: true, attributeFilter: ['class']});
    }""")


def test_the_keypad_types_what_the_grammar_says(server, phones):
    page = deal_form(phones, server)
    melds = page.locator("#players-0-melds")
    taps = Taps(page)
    for keys, text in SEQUENCES:
        melds.fill("")  # typed text (not the keypad's) leaves no pick behind
        melds.focus()
        tap_keys(taps, keys)
        expect(melds).to_have_value(text)
    # the set's last suit stays lit; a rank after the set goes on a new line and the set's suit goes off
    melds.fill("")
    tap_keys(taps, ("10", "♠", "♥", "♦", "♣"))
    assert lit(page) == ["10", "♣"]
    taps.keys("2")
    expect(melds).to_have_value("10♠ 10♥ 10♦ 10♣\n")
    assert lit(page) == ["2"]
    # a range then ⌫: the run's end comes back off and "…" is lit again
    melds.fill("")
    tap_keys(taps, ("6", "♥", "…", "10", "⌫"))
    expect(melds).to_have_value("6♥ ")
    assert lit(page) == ["…"]


def test_a_name_key_starts_its_own_line_and_cards_follow_it(server, phones):
    page = deal_form(phones, server)
    taps = Taps(page)
    taps.keys("5", "♦")
    taps.pick("Bob: ")  # from the melds: the vist goes into Ann's vists, the picks cleared
    vists = page.locator("#players-0-vists")
    expect(vists).to_be_focused()
    assert lit(page) == []
    taps.keys("5", "♦", "♥")
    taps.pick("Cid: ")
    taps.keys("7", "♠")
    expect(vists).to_have_value("Bob: 5♦ 5♥\nCid: 7♠ ")
    expect(page.locator("#players-0-melds")).to_have_value("5♦ ")


def test_russian_notation_and_a_joker_in_a_run(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = deal_form(phones, server, locale="ru-RU")
    melds = page.locator("#players-0-melds")
    taps = Taps(page)
    tap_keys(taps, ("A", "♠", "♥", "♦", "♣", "2", "♣", "…", "4"))
    expect(melds).to_have_value("Т♠ Т♥ Т♦ Т♣\n2♣…4♣ ")
    taps.tap('#keypad [data-action="newline"]')
    tap_keys(taps, ("♥", "6", "JK", "8"))
    expect(melds).to_have_value("Т♠ Т♥ Т♦ Т♣\n2♣…4♣\n6♥ Дж 8♥ ")
    # a range typed downwards is refused, and the hint says how to type it
    taps.tap('#keypad [data-action="newline"]')
    tap_keys(taps, ("Q", "♠", "…", "2"))
    hint = page.locator("#keypad-hint")
    expect(hint).to_have_text("С младшей карты: 2♠…Д♠")
    assert hint.evaluate("box => box.scrollWidth <= box.clientWidth"), "the hint is cut off"
    expect(melds).to_have_value("Т♠ Т♥ Т♦ Т♣\n2♣…4♣\n6♥ Дж 8♥\nД♠ ")
    melds.evaluate("field => field.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots / "keypad-range-hint-ru.png"), full_page=False)


def test_a_complete_meld_keeps_its_cards(server, phones, tmp_path):
    """Issue 45: a rank after a complete set asks for its suit instead of taking the set's last card into a run,
    and a new suit after a complete run starts a new line (both tapped as a player met them)."""
    shots = shots_dir(tmp_path)
    page = deal_form(phones, server)
    melds = page.locator("#players-0-melds")
    hint = page.locator("#keypad-hint")
    watch_shakes(page)
    taps = Taps(page)
    tap_keys(taps, ("10", "♠", "♥", "♦", "2", "3", "4"))
    expect(melds).to_have_value("10♠ 10♥ 10♦\n")  # the set keeps its 10♦
    expect(hint).to_have_text("Pick a suit for 2 first")
    assert page.evaluate("window.shaken") == ["3", "4"]
    assert lit(page) == ["2"]
    melds.evaluate("field => field.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots / "keypad-set-kept-en.png"), full_page=False)
    tap_keys(taps, ("♦", "…", "4"))  # the suit the 2 asked for, then the run's end
    expect(melds).to_have_value("10♠ 10♥ 10♦\n2♦…4♦ ")
    expect(hint).to_have_text("")
    taps.tap('#keypad [data-action="newline"]')
    tap_keys(taps, ("♥", "5", "6", "7", "♠", "8", "9", "10"))
    expect(melds).to_have_value("10♠ 10♥ 10♦\n2♦…4♦\n5♥ 6♥ 7♥\n8♠ 9♠ 10♠ ")
    assert lit(page) == ["♠"]
    settled(page)  # the server reads four legal melds
    verdicts = page.locator("#players-0-melds-verdicts li.verdict")
    expect(verdicts).to_have_count(4)
    for i in range(4):
        expect(verdicts.nth(i)).to_have_attribute("data-legal", "true")
    melds.evaluate("field => field.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots / "keypad-complete-melds-en.png"), full_page=False)
    assert (shots / "keypad-complete-melds-en.png").read_bytes().startswith(PNG_SIGNATURE)


def test_a_field_entered_again_goes_on_with_a_new_line(server, phones):
    """Issue 45: the keypad's picks go when the field is left or the page reloaded; the next meld after a complete
    one still starts its own line (the grammar reads the line's text)."""
    page = deal_form(phones, server)
    melds = page.locator("#players-0-melds")
    taps = Taps(page)
    tap_keys(taps, ("6", "♥", "…", "10"))
    taps.tap("#players-0-vists")  # another field: the picks are cleared
    melds.focus()
    tap_keys(taps, ("J", "♣", "…", "K"))
    expect(melds).to_have_value("6♥…10♥\nJ♣…K♣ ")
    settled(page)
    page.reload()
    ready(page)
    expect(melds).to_have_value(re.compile(r"^6♥…10♥\nJ♣…K♣\s*$"))  # the phone kept the typing
    melds.evaluate("field => { field.focus(); field.setSelectionRange(field.value.length, field.value.length); }")
    tap_keys(taps, ("A", "♠", "♥", "♦"))
    expect(melds).to_have_value(re.compile(r"^6♥…10♥\nJ♣…K♣\nA♠ A♥ A♦ $"))


def test_a_refused_tap_shakes_its_key_and_says_why(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = deal_form(phones, server)
    melds = page.locator("#players-0-melds")
    hint = page.locator("#keypad-hint")
    expect(hint).to_have_attribute("aria-live", "polite")
    expect(hint).to_have_text("")
    watch_shakes(page)
    taps = Taps(page)
    taps.keys("2", "3")  # two ranks in a row: no suit for the 2 yet
    expect(hint).to_be_visible()
    expect(hint).to_have_text("Pick a suit for 2 first")
    expect(page.locator("#keypad-target")).to_be_hidden()  # the hint takes the label's place in the bar
    assert page.evaluate("window.shaken") == ["3"]
    assert lit(page) == ["2"]
    expect(melds).to_have_value("")
    page.screenshot(path=str(shots / "keypad-hint-en.png"), full_page=False)
    assert (shots / "keypad-hint-en.png").read_bytes().startswith(PNG_SIGNATURE)

    taps.keys("♣")  # the hint goes once a tap does something
    expect(melds).to_have_value("2♣ ")
    expect(hint).to_have_text("")
    expect(page.locator("#keypad-target")).to_be_visible()

    taps.tap('#keypad [data-action="newline"]')
    taps.keys("♠", "♠")  # the lit suit stays lit, and says so
    expect(hint).to_have_text("♠ is picked: tap a rank")
    assert lit(page) == ["♠"]
    taps.keys("…")  # no card on the line to run from
    expect(hint).to_have_text("Tap a card first, then “…”")
    assert page.evaluate("window.shaken") == ["3", "♠", "…"]
    expect(page.locator("#keypad .keypad-shake")).to_have_count(0)  # each shake is over after 400 ms

    taps.keys("Q", "…", "2")  # a range typed downwards: refused, and the hint says how to type it
    expect(melds).to_have_value("2♣\nQ♠ ")
    expect(hint).to_have_text("Lowest card first: 2♠…Q♠")
    assert hint.evaluate("box => box.scrollWidth <= box.clientWidth"), "the hint is cut off"
    assert lit(page) == ["♠", "…"]  # the suit picked first, and "…" still waiting for the run's end
