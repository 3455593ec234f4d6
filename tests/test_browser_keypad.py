"""The card keypad on a real deal form types what its grammar says (static/keypad_grammar.js, tested key by key in
tests/js/keypad_grammar.test.js): a few of the grammar's tricky sequences tapped on the keys, and a refused tap
that shakes its key and says why in the keypad's live region."""

from __future__ import annotations

from conftest import PNG_SIGNATURE, Taps, ready, shots_dir, start_on_phone, tap_and_wait
from playwright.sync_api import Page, expect

#: (keys tapped, the field's exact text): rows of the grammar's table
SEQUENCES = [
    (("10", "♠", "♥", "♦", "♣", "2", "3", "4"), "10♠ 10♥ 10♦\n2♣ 3♣ 4♣ "),
    (("10", "♠", "♥", "♦", "♣", "2", "…", "9"), "10♠ 10♥ 10♦\n2♣…9♣ "),
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
    # the suit after a set stays lit, and so does the rank after it: every step is visible
    melds.fill("")
    tap_keys(taps, ("10", "♠", "♥", "♦", "♣"))
    assert lit(page) == ["10", "♣"]
    taps.keys("2")
    expect(melds).to_have_value("10♠ 10♥ 10♦ 10♣\n")
    assert lit(page) == ["2", "♣"]
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


def test_russian_notation_and_a_joker_in_a_run(server, phones):
    page = deal_form(phones, server, locale="ru-RU")
    melds = page.locator("#players-0-melds")
    taps = Taps(page)
    tap_keys(taps, ("A", "♠", "♥", "♦", "♣", "2", "3"))
    expect(melds).to_have_value("Т♠ Т♥ Т♦\n2♣ 3♣ ")
    taps.tap('#keypad [data-action="newline"]')
    tap_keys(taps, ("♥", "6", "JK", "8"))
    expect(melds).to_have_value("Т♠ Т♥ Т♦\n2♣ 3♣\n6♥ Дж 8♥ ")


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
