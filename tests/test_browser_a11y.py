"""The pages fast entry touches pass axe-core's WCAG 2.1 AA rules on a phone (both languages)."""

from __future__ import annotations

import pytest
from conftest import (
    axe_violations,
    expect_totals,
    fill,
    no_horizontal_overflow,
    ready,
    settled,
    shots_dir,
    start_on_phone,
    tap_and_wait,
)
from playwright.sync_api import Page, expect
from test_browser_seats import part_ready, saved

from kunken_scorer.service import members
from kunken_scorer.store import Store

LIVE_WAIT = 10_000  # ms: a phone polls every 2-3 s


def violations(page: Page) -> list[str]:
    """Each violation as "rule: the first element it names"."""
    return axe_violations(page)


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_the_deal_form_and_the_session_page_pass_axe(server, phones, locale):
    page = phones(locale=locale).new_page()
    start_on_phone(page, server, ["Anna", "Boris", "Vera"], "points")
    page.locator("#hand-entry-panel > summary").tap()  # the session's settings: how hands are entered
    assert violations(page) == [], "session page"
    tap_and_wait(page, "#record-deal")
    ready(page)
    # A deal with a meld, an illegal meld and a vist: every kind of live part shows (counts: test_browser_pages).
    page.locator("#players-0-melds").fill("A♠ A♥ A♦\nK♠ K♠ K♥")
    page.locator("#players-0-vists").fill("Boris: 5♥")
    page.locator("#next-seat").tap()
    page.locator("#players-1-melds").fill("2♥ 3♥ 4♥")
    settled(page)
    expect(page.locator("#preview")).to_be_visible()
    # the verdict is said once, from a live region that stays in the page (the swapped preview is new nodes)
    expect(page.locator("#announce")).to_have_text(page.locator("#preview h2").inner_text().strip())
    assert violations(page) == [], "deal form with the keypad open"
    page.locator("#players-1-hand").tap()
    assert violations(page) == [], "deal form, points on the keypad"
    tap_and_wait(page, "#footer-save")  # refused: the illegal meld
    ready(page)
    assert violations(page) == [], "deal form after a failed save"


def test_axe_finds_a_field_without_a_label(server, phones):
    """The check above can fail: a field with no label on the same page is reported."""
    page = phones().new_page()
    page.goto(server + "/")
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<input id=bare>')")
    assert any(v.startswith("label:") for v in violations(page))


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_the_seat_pages_pass_axe(server, phones, locale, tmp_path):
    """The session page with its "This is me" panel, a player's part page and the scorer's draft page."""
    scorer = phones(locale=locale).new_page()
    url = start_on_phone(scorer, server, ["Anna", "Boris", "Vera"], "points")
    player = phones(locale=locale).new_page()
    player.goto(url)
    assert violations(player) == [], "session page of a phone without a seat"
    tap_and_wait(player, "#take-seat-0")
    part_ready(player)
    player.locator("#player-melds").fill("A♠ A♥ A♦\nK♠ K♠ K♥")
    player.locator("#player-vists").fill("Boris: 5♥")
    saved(player)
    expect(player.locator("#announce")).to_contain_text("✓")  # "Saved from Anna's phone at …", said once
    expect(player.locator("#player-melds-verdicts li")).to_have_count(2)
    assert violations(player) == [], "a player's part, with a problem, keypad open"
    tap_and_wait(scorer, "#open-draft")
    expect(scorer.locator("#seat-0")).to_have_attribute("data-state", "problem")
    assert violations(scorer) == [], "the scorer's draft page"
    tap_and_wait(scorer, "#open-seat-1")
    part_ready(scorer)
    assert violations(scorer) == [], "the scorer on another player's part"
    scorer.goto(url)
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    expect(scorer.locator("#from-phones")).to_contain_text("Anna")  # the form starts from the part her phone stored
    assert violations(scorer) == [], "the deal form filled in from a part in the draft"
    scorer.evaluate("window.scrollTo(0, 0)")
    scorer.screenshot(path=str(shots_dir(tmp_path) / f"deal-form-draft-notice-{locale}.png"))
    player.goto(url)
    assert violations(player) == [], "session page of a phone holding a seat"


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_the_seat_move_pages_pass_axe(server, phones, locale, tmp_path):
    """A held seat moves only with consent (issue 33): the refusal with its code form, the move code's page
    (the holder's and the scorer's), the one-time link's page, and the page of a link used up."""
    shots = shots_dir(tmp_path)
    scorer = phones(locale=locale).new_page()
    url = start_on_phone(scorer, server, ["Anna", "Boris", "Vera"], "points")
    player = phones(locale=locale).new_page()
    player.goto(url)
    tap_and_wait(player, "#take-seat-0")
    part_ready(player)
    stranger = phones(locale=locale).new_page()
    stranger.goto(url)
    tap_and_wait(stranger, "#take-seat-0")
    expect(stranger.locator("#move-code-form")).to_be_visible()
    assert violations(stranger) == [], "session page refusing a held seat, with the move code form"
    no_horizontal_overflow(stranger)
    tap_and_wait(player, "#move-to-phone")
    assert violations(player) == [], "the holder's move code page"
    no_horizontal_overflow(player)
    player.screenshot(path=str(shots / f"seat-move-holder-{locale[:2]}.png"), full_page=True)
    tap_and_wait(scorer, "#open-draft")
    scorer.locator("#seat-phone-0 > summary").tap()  # a seat's phone actions are tucked away (issue 36)
    tap_and_wait(scorer, "#move-seat-0")
    assert violations(scorer) == [], "the scorer's move code page"
    link = scorer.locator("#move-link").get_attribute("href")
    stranger.goto(link)
    assert violations(stranger) == [], "the one-time link's page"
    no_horizontal_overflow(stranger)
    stranger.screenshot(path=str(shots / f"seat-move-link-{locale[:2]}.png"), full_page=True)
    tap_and_wait(stranger, "#take-moved-seat")
    part_ready(stranger)
    stranger.goto(link)
    expect(stranger.locator("#move-expired")).to_be_visible()
    assert violations(stranger) == [], "a one-time link used up"
    stranger.screenshot(path=str(shots / f"seat-move-used-{locale[:2]}.png"), full_page=True)


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_a_table_of_ten_plays_ordered_rummy_from_the_start_form(server, phones, locale, tmp_path):
    """ "Any number of players": seats 9 to 12 wait behind "More seats"; ten players start, record a deal
    and read the scoreboard and the summary, each page passing axe and fitting the phone's width."""
    shots = shots_dir(tmp_path)
    page = phones(locale=locale).new_page()
    page.goto(server + "/")
    page.locator("#game").select_option("ordered-rummy")
    expect(page.locator("#players-5")).to_be_hidden()  # the form a Kunken table sees is no longer
    page.locator("#more-seats > summary").tap()
    names = [f"P{i + 1}" for i in range(10)]
    for i, name in enumerate(names):
        page.locator(f"#players-{i}").fill(name)
    expect(page.locator("#players-11")).to_be_visible()
    assert violations(page) == [], "start form with every seat"
    no_horizontal_overflow(page)
    page.screenshot(path=str(shots / f"ten-start-{locale[:2]}.png"), full_page=True)
    tap_and_wait(page, "#create")
    expect(page.locator("#record-deal")).to_be_visible()
    tap_and_wait(page, "#record-deal")
    ready(page)
    fill(page, "players-0-melds", "8♥ 9♥ 10♥")  # P1 goes out: 27
    for seat in range(1, 10):
        fill(page, f"players-{seat}-hand", f"{seat + 1}♣")  # P2 to P10 keep 2♣ to 10♣: −2 to −10
    settled(page)
    expect(page.locator("#preview")).to_have_attribute("data-valid", "true")
    assert violations(page) == [], "deal form for ten"
    no_horizontal_overflow(page)
    page.screenshot(path=str(shots / f"ten-deal-{locale[:2]}.png"), full_page=False)
    tap_and_wait(page, "#footer-save")
    expect_totals(page, {"P1": 27, **{f"P{seat + 1}": -(seat + 1) for seat in range(1, 10)}}, 1)
    assert violations(page) == [], "session page for ten"
    no_horizontal_overflow(page)
    page.screenshot(path=str(shots / f"ten-session-{locale[:2]}.png"), full_page=True)
    page.goto(page.url + "/summary")
    assert violations(page) == [], "summary for ten"
    no_horizontal_overflow(page)


def test_what_arrives_live_is_said_on_the_draft_and_the_session_page(server, phones):
    """A part arriving on the scorer's draft page, and the new totals on a watching phone, are said from the
    page's live region: the parts swapped in are new nodes, which a screen reader often does not read."""
    scorer = phones(locale="en-US").new_page()
    url = start_on_phone(scorer, server, ["Anna", "Boris", "Vera"], "points")
    viewer = phones(locale="en-US").new_page()
    viewer.goto(url)
    player = phones(locale="en-US").new_page()
    player.goto(url)
    tap_and_wait(player, "#take-seat-0")
    part_ready(player)
    tap_and_wait(scorer, "#open-draft")
    expect(scorer.locator("#announce")).to_have_text("")
    player.locator("#player-melds").fill("A♠ A♥ A♦")
    saved(player)
    expect(scorer.locator("#announce")).to_have_text("Parts in: 1 of 3.", timeout=LIVE_WAIT)

    expect(viewer.locator("#announce")).to_have_text("")
    scorer.goto(url)
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    fill(scorer, "players-0-melds", "K♠ K♥ K♦")
    fill(scorer, "players-1-hand", "2♣")
    fill(scorer, "players-2-hand", "Q♠")
    scorer.locator("#went_out").select_option("Anna")
    tap_and_wait(scorer, "#save")
    expect_totals(viewer, {"Anna": 30, "Boris": -5, "Vera": -10}, 1, timeout=LIVE_WAIT)
    expect(viewer.locator("#announce")).to_have_text("Deals played: 1. Totals: Anna 30, Boris −5, Vera −10.")


def test_the_pages_pass_axe_in_the_dark(server, phones, tmp_path):
    """A phone set to dark mode gets the dark colours (``prefers-color-scheme``): every colour a page shows
    there, the green of a legal meld and of a part entered, the labels of the red buttons, keeps WCAG's
    contrast, as in the light scheme the other tests check."""
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU", color_scheme="dark").new_page()
    assert scorer.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    url = start_on_phone(scorer, server, ["Anna", "Boris", "Vera"], "cards")
    assert violations(scorer) == [], "session page, no deal yet"
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    fill(scorer, "players-0-melds", "A♠ A♥ A♦")
    fill(scorer, "players-1-hand", "2♣")
    fill(scorer, "players-2-hand", "Q♠")
    settled(scorer)
    expect(scorer.locator("#preview")).to_have_attribute("data-valid", "true")  # the green verdicts
    assert violations(scorer) == [], "deal form, a legal deal"
    scorer.screenshot(path=str(shots / "dark-deal-form.png"))
    tap_and_wait(scorer, "#footer-save")
    expect_totals(scorer, {"Anna": 30, "Boris": -5, "Vera": -10}, 1)
    scorer.locator("#undo-panel > summary").tap()
    scorer.locator("#end-panel > summary").tap()
    expect(scorer.locator("#undo")).to_be_visible()  # the red buttons
    expect(scorer.locator("#end-session")).to_be_visible()
    assert violations(scorer) == [], "session page with Undo and End"
    scorer.screenshot(path=str(shots / "dark-session.png"), full_page=True)
    player = phones(locale="ru-RU", color_scheme="dark").new_page()
    player.goto(url)
    tap_and_wait(player, "#take-seat-0")
    part_ready(player)
    player.locator("#player-melds").fill("K♠ K♥ K♦")
    player.locator("#player-out").check()  # she went out: no cards left
    saved(player)
    assert violations(player) == [], "a player's part, saved"
    tap_and_wait(scorer, "#open-draft")
    expect(scorer.locator("#seat-0")).to_have_attribute("data-state", "entered")  # "✓ entered", in green
    assert violations(scorer) == [], "the draft page with a part entered"
    scorer.screenshot(path=str(shots / "dark-draft.png"), full_page=True)
    for path in ("/summary", "/history"):
        scorer.goto(url + path)
        assert violations(scorer) == [], path
    scorer.goto(server + "/rules/desk")
    scorer.locator("#meld-cards").fill("5♥ 6♥ 7♥")
    tap_and_wait(scorer, "#meld-submit")
    assert violations(scorer) == [], "rules desk, a legal meld"
    for path in ("/", "/players", "/players/h2h?a=Anna&b=Boris", "/rules/kunken"):
        scorer.goto(server + path)
        assert violations(scorer) == [], path


#: The contrast of two CSS colours (rgb() or rgba() as getComputedStyle gives them), as WCAG defines it.
CONTRAST_JS = """
(pairs) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const backdrop = (el) => {  // the colour behind an element: the nearest ancestor's opaque background
    for (let node = el.parentElement; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      if (!/rgba\\(.*,\\s*0\\)$/.test(bg) && bg !== "transparent") return bg;
    }
    return "rgb(255, 255, 255)";
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  return pairs.map(([selector, property]) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length)
    .map((el) => [el.id || el.className || el.tagName, ratio(getComputedStyle(el)[property], backdrop(el))]));
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_fields_edge_keeps_three_to_one_against_what_is_behind_it(server, phones, scheme):
    """WCAG 1.4.11 (axe does not check it): the border that shows where a field, a way of entering hands or a
    suit key is keeps 3:1 against the card or page behind it, in both colour schemes."""
    page = phones(locale="en-US", color_scheme=scheme).new_page()
    start_on_phone(page, server, ["Anna", "Boris", "Vera"], "cards")
    tap_and_wait(page, "#record-deal")
    ready(page)
    page.locator("#players-0-melds").tap()  # the keypad opens, with its suit keys
    expect(page.locator("#keypad .key.suit").first).to_be_visible()
    found = page.evaluate(
        CONTRAST_JS,
        [["textarea, input[type=text], select", "borderTopColor"], [".segment, #keypad .key.suit", "borderTopColor"]],
    )
    edges = [edge for group in found for edge in group]
    assert len(edges) >= 8, edges  # the fields and the four suit keys were measured
    assert [edge for edge in edges if edge[1] < 3] == []


def test_a_dark_phone_prints_the_summary_black_on_white(server, phones):
    """Printing from a phone in dark mode: every word of the summary (a redeal, a deal recorded with problems,
    the muted notes) prints dark on the white page, at WCAG's 4.5:1 or more."""
    page = phones(locale="en-US", color_scheme="dark").new_page()
    url = start_on_phone(page, server, ["Anna", "Boris", "Vera"], "cards")
    tap_and_wait(page, "#record-deal")
    ready(page)
    page.locator("#redeal").check()
    tap_and_wait(page, "#save")
    tap_and_wait(page, "#record-deal")
    ready(page)
    fill(page, "players-0-melds", "K♠ K♠ K♥")  # an illegal set, recorded anyway with a note
    fill(page, "players-1-hand", "2♣")
    fill(page, "players-2-hand", "Q♠")
    page.locator("#went_out").select_option("Anna")
    page.locator("#override").check()
    fill(page, "note", "we agreed")
    tap_and_wait(page, "#save")
    page.goto(url + "/summary")
    page.emulate_media(media="print", color_scheme="dark")
    found = page.evaluate(CONTRAST_JS, [["main *:not(svg *)", "color"]])[0]
    texts = page.evaluate(
        "[...document.querySelectorAll('main *:not(svg *)')].filter(e => e.getClientRects().length)"
        ".map(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))"
    )
    pale = [name for (name, ratio), has_text in zip(found, texts, strict=True) if has_text and ratio < 4.5]
    assert len(found) > 50 and pale == []


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_the_members_pages_pass_axe(app, server, phones, locale):
    """Issue 46, members on: a stranger's members-only page, home page and refused invite; a member's home page and
    invite page; the night's owner page with its owner-link panels open, and after a new owner link."""
    app.config["MEMBERS"] = True
    store = Store.open(app.config["DATABASE"])
    try:
        token = members.make_invite(store).token
    finally:
        store.close()
    page = phones(locale=locale).new_page()
    page.goto(server + "/players")
    expect(page.locator("#members-only")).to_be_visible()
    assert violations(page) == [], "members only"
    page.goto(server + "/")
    expect(page.locator("#recent-members-only")).to_be_visible()
    assert violations(page) == [], "home, a stranger"
    page.goto(server + "/join/1.not-an-invite")
    expect(page.locator("#members-only-message")).to_be_visible()
    assert violations(page) == [], "an invite refused"
    page.goto(server + f"/join/{token}")
    expect(page.locator("#invite-member")).to_be_visible()
    assert violations(page) == [], "home, a member, told so"
    tap_and_wait(page, "#invite-member a")
    expect(page.locator("#invite-link")).to_be_visible()
    assert violations(page) == [], "invite a member"
    no_horizontal_overflow(page)  # the long link wraps
    made = page.request.post(server + "/api/v1/nights", data={"tables": [["Anna", "Boris"], ["Vera", "Gosha"]]})
    assert made.status == 201
    page.goto(made.json()["edit_url"])
    page.locator("#owner-link-panel > summary").tap()
    page.locator("#revoke-panel > summary").tap()
    expect(page.locator("#new-owner-link")).to_be_visible()
    assert violations(page) == [], "the night's owner page, its owner-link panels open"
    no_horizontal_overflow(page)
    tap_and_wait(page, "#new-owner-link")
    expect(page.locator(".flash")).to_be_visible()
    expect(page.locator(".scorer-link")).to_have_count(2)
    assert violations(page) == [], "the night's owner page with a new owner link"
