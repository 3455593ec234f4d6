"""A recorded deal is the deal the table played (issue 45), on Pixel 7 phones in Russian against a real server:
each scenario of the issue ends with the table's true score stored, or with nothing stored and a screen that says
why. The request-level checks (the core's rule, the API, the pages' answers) are in ``test_recorded_truth.py``.

The reference table: Анна went out with A♠ A♥ A♦ (+30); Борис laid 2♦ 3♦ 4♦ and holds 9 9 К Д 3 8 Дж (15 − 50 =
−35, where a hand never entered read as "no cards" gave +15); Вера 7♠ 8♠ 9♠ and Д В 10 6 5 4 2 (−30); Гоша holds
К К Д В 2 3 4 6 7 8 (−70).
"""

from __future__ import annotations

from conftest import (
    axe_violations,
    close_keypad,
    expect_totals,
    fill,
    no_horizontal_overflow,
    part_ready,
    quiet,
    ready,
    saved,
    shots_dir,
    start_on_phone,
    take_seat,
    tap_and_wait,
)
from playwright.sync_api import Page, expect

from kunken_scorer.store import Store

PLAYERS = ["Анна", "Борис", "Вера", "Гоша"]
BORIS_HAND = "9 9 К Д 3 8 Дж"
TRUE_TOTALS = {"Анна": 30, "Борис": -35, "Вера": -30, "Гоша": -70}
LIVE = 10_000  # ms: the draft page and a player's page poll every 2 s


def watched(page: Page) -> Page:
    """The page, keeping every console message: a strict Content-Security-Policy refusal shows there."""
    page.console_texts = []
    page.on("console", lambda message: page.console_texts.append(message.text))
    return page


def csp_refusals(page: Page) -> list[str]:
    return [m for m in page.console_texts if "Content Security Policy" in m]


def store_of(app) -> Store:
    return Store.open(app.config["DATABASE"])


def sid_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def shoot(page: Page, shots, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    no_horizontal_overflow(page)


def write_part(
    page: Page, session_url: str, seat: int, melds: str = "", hand: str = "", vists: str = "", out: bool = False
) -> None:
    """The scorer (or a player on their own page) writes a part; it is saved as it is typed."""
    url = f"{session_url}/draft/{seat}"
    if page.url != url:
        page.goto(url)
    part_ready(page)
    for field, value in (("#player-melds", melds), ("#player-vists", vists), ("#player-hand", hand)):
        if value or page.locator(field).input_value():
            page.locator(field).fill(value)
    if out:
        page.locator("#player-out").check()
    saved(page)


def others_by_the_scorer(scorer: Page, session_url: str) -> None:
    """Анна went out ("I went out", no cards), Вера and Гоша hold their cards: written on the scorer's phone."""
    write_part(scorer, session_url, 0, melds="A♠ A♥ A♦", out=True)
    write_part(scorer, session_url, 2, melds="7♠ 8♠ 9♠", hand="Д В 10 6 5 4 2")
    write_part(scorer, session_url, 3, hand="К К Д В 2 3 4 6 7 8")


def test_a_hand_typed_offline_is_never_read_as_no_cards_and_the_true_score_is_recorded(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, PLAYERS, "ranks")
    sid = sid_of(session_url)
    boris = phones(locale="ru-RU").new_page()
    take_seat(boris, session_url, 1)
    write_part(boris, session_url, 1, melds="2♦ 3♦ 4♦")
    # the Wi-Fi drops while Борис types his hand: his own phone says so
    boris.context.set_offline(True)
    boris.locator("#player-hand").fill(BORIS_HAND)
    expect(boris.locator("#keep-state")).to_have_attribute("data-state", "local", timeout=LIVE)
    others_by_the_scorer(scorer, session_url)

    # The scorer's page: Борис's hand is not entered, the deal is not ready, the button says whose hand is missing.
    scorer.goto(f"{session_url}/draft")
    seat = scorer.locator("#seat-1")
    expect(seat).to_have_attribute("data-state", "no_hand")
    expect(seat.locator(".state-tag")).to_have_text("✗ карты на руках не введены")
    expect(seat.locator(".part-lines dd.hand")).to_have_text("✗ не введено")
    expect(seat.locator(".seat-score")).to_contain_text("−?")
    expect(scorer.locator("#seat-0")).to_have_attribute("data-state", "entered")  # "I went out": no cards, said
    expect(scorer.locator("#draft-ready")).to_have_attribute("data-ready", "false")
    expect(scorer.locator("#draft-no-hand")).to_have_text("✗ Карты на руках не введены: Борис.")
    expect(scorer.locator("#record-draft")).to_have_value("Записать партию 1 · нет данных: Борис")
    expect(scorer.locator("#went_out option:checked")).to_contain_text("Анна")
    shoot(scorer, shots, "truth-no-hand-draft-ru")
    assert axe_violations(scorer) == [], "the draft page with a hand not entered"
    # One tap on Record: nothing is recorded, and the page says why.
    tap_and_wait(scorer, "#record-draft")
    expect(scorer.locator("#draft-message")).to_contain_text("Исправьте части")
    expect(scorer.locator("#seat-1 .errors")).to_contain_text("Борис: карты на руках не введены")
    assert store_of(app).list_deals(sid) == []

    # Борис's phone is back: his hand reaches the server, the scorer's page follows by itself, the deal is true.
    boris.context.set_offline(False)
    boris.evaluate("window.dispatchEvent(new Event('online'))")
    expect(boris.locator("#keep-state")).to_have_attribute("data-state", "stored", timeout=LIVE)
    scorer.goto(f"{session_url}/draft")
    expect(scorer.locator("#seat-1")).to_have_attribute("data-state", "entered")
    expect(scorer.locator("#seat-1 .part-lines dd.hand")).to_have_text(BORIS_HAND)
    expect(scorer.locator("#draft-ready")).to_have_attribute("data-ready", "true")
    tap_and_wait(scorer, "#record-draft")
    expect_totals(scorer, TRUE_TOTALS, 1)
    assert store_of(app).list_deals(sid)[0].record["players"][1]["hand"] == {"ranks": "9 9 K Q 3 8", "jokers": 1}
    # Editing the deal shows Борис's hand as he typed it, by rank (not as its points)
    deal_id = store_of(app).list_deals(sid)[0].id
    scorer.goto(f"{session_url}/deals/{deal_id}/edit")
    ready(scorer)
    expect(scorer.locator("#players-1-hand")).to_have_value(BORIS_HAND)
    expect(scorer.locator("#deal-form")).to_have_attribute("data-hand-mode", "ranks")


def test_a_refused_part_shows_as_refused_and_a_vist_waits_for_its_meld(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, PLAYERS, "ranks")
    sid = sid_of(session_url)
    anna = phones(locale="ru-RU").new_page()
    take_seat(anna, session_url, 0)
    # Анна's vist onto Борис's meld, before his part is in: waiting, not wrong
    write_part(anna, session_url, 0, melds="A♠ A♥ A♦", vists="Борис: 5♦", out=True)
    verdict = anna.locator("#player-vists-verdicts li.verdict")
    expect(verdict).to_have_attribute("data-legal", "waiting")
    expect(verdict).to_contain_text("ждём комбинацию игрока Борис")
    expect(verdict.locator(".mark")).to_have_text("…")
    shoot(anna, shots, "truth-vist-waiting-ru")
    # Борис types a vist line the server cannot read: his whole save is refused, and the scorer is told
    boris = phones(locale="ru-RU").new_page()
    take_seat(boris, session_url, 1)
    write_part(boris, session_url, 1, melds="2♦ 3♦ 4♦")
    boris.locator("#player-vists").fill("Никто: 5♥")
    boris.locator("#player-hand").fill(BORIS_HAND)
    expect(boris.locator("#keep-state")).to_have_attribute("data-state", "refused", timeout=LIVE)
    scorer.goto(f"{session_url}/draft")
    seat = scorer.locator("#seat-1")
    expect(seat).to_have_attribute("data-refused", "true")
    expect(seat.locator(".state-tag")).to_have_text("✗ не сохранилось с телефона")
    expect(seat.locator(".refusal")).to_contain_text("Никто")
    expect(seat.locator(".refusal")).to_contain_text(f"Набрано на телефоне: 2♦ 3♦ 4♦ · Никто: 5♥ · {BORIS_HAND}")
    expect(scorer.locator("#draft-refused")).to_contain_text("Борис")
    expect(anna.locator("#player-vists-verdicts li.verdict")).to_have_attribute("data-legal", "true", timeout=LIVE)
    shoot(scorer, shots, "truth-refused-draft-ru")
    assert axe_violations(scorer) == [], "the draft page with a refused part"
    assert store_of(app).draft(sid).parts[1].part["hand"] is None  # nothing of the refused save stored
    # He corrects the line: stored, and the refusal is gone from the scorer's page by itself
    boris.locator("#player-vists").fill("")
    expect(boris.locator("#keep-state")).to_have_attribute("data-state", "stored", timeout=LIVE)
    expect(scorer.locator("#seat-1")).not_to_have_attribute("data-refused", "true", timeout=LIVE)
    expect(scorer.locator("#seat-1")).to_have_attribute("data-state", "entered")


def test_an_untouched_deal_form_and_a_stale_one_record_nothing(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, PLAYERS, "points")
    sid = sid_of(session_url)
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    close_keypad(scorer)
    tap_and_wait(scorer, "#footer-save")  # untouched: every hand is not entered
    expect(scorer.locator("#preview")).to_have_attribute("data-valid", "false")
    expect(scorer.locator("#players-0-hand-field .errors")).to_contain_text("Анна: карты на руках не введены")
    expect(scorer.locator("#keep-state")).to_contain_text("Не записано")
    assert store_of(app).list_deals(sid) == []
    shoot(scorer, shots, "truth-untouched-form-ru")
    # Анна went out, Гоша's hand forgotten: not "no errors", and who went out is not silently "nobody"
    scorer.goto(session_url)
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    fill(scorer, "players-0-melds", "A♠ A♥ A♦")
    fill(scorer, "players-1-melds", "2♦ 3♦ 4♦")
    fill(scorer, "players-1-hand", "40 Дж")
    fill(scorer, "players-2-hand", "45")
    scorer.locator("#went_out").select_option("Анна")
    close_keypad(scorer)
    quiet(scorer)
    expect(scorer.locator("#preview")).to_have_attribute("data-valid", "false")
    gosha = scorer.locator('#preview-scores tr[data-player="Гоша"]')
    expect(gosha.locator(".minus")).to_have_attribute("data-minus", "")  # not 0
    expect(gosha.locator(".minus")).to_contain_text("не введено")  # said to a screen reader; "?" on screen
    expect(gosha.locator(".score")).to_have_text("?")
    expect(scorer.locator('#footer-scores .chip[data-player="Гоша"] .chip-minus')).to_have_text("−?")
    fill(scorer, "players-3-hand", "70")
    quiet(scorer)
    expect(scorer.locator("#preview")).to_have_attribute("data-valid", "true")
    close_keypad(scorer)
    tap_and_wait(scorer, "#footer-save")
    expect(scorer.locator("p.flash")).to_contain_text("Партия 1")
    # Back after Save, then Save again: no second deal
    scorer.go_back()
    ready(scorer)
    close_keypad(scorer)
    quiet(scorer)
    tap_and_wait(scorer, "#footer-save")
    expect(scorer.locator("#preview")).to_have_attribute("data-valid", "false")
    shoot(scorer, shots, "truth-back-after-save-ru")
    deals = store_of(app).list_deals(sid)
    assert len(deals) == 1 and deals[0].record["players"][3]["hand"] == {"points": 70, "jokers": 0}


def test_the_deal_form_starts_from_the_phones_parts_and_a_replaced_part_is_told(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = phones(locale="ru-RU").new_page()
    session_url = start_on_phone(scorer, server, PLAYERS, "ranks")
    sid = sid_of(session_url)
    vera = phones(locale="ru-RU").new_page()
    take_seat(vera, session_url, 2)
    write_part(vera, session_url, 2, melds="7♠ 8♠ 9♠", hand="Д В 10 6 5 4 2")
    scorer.goto(session_url)
    tap_and_wait(scorer, "#record-deal")
    ready(scorer)
    expect(scorer.locator("#from-phones")).to_contain_text("Вера")
    expect(scorer.locator("#player-2-from-phone")).to_contain_text("Заполнено с телефона игрока Вера")
    scorer.locator("#seat-tab-2").tap()
    expect(scorer.locator("#players-2-melds")).to_have_value("7♠ 8♠ 9♠")
    expect(scorer.locator("#players-2-hand")).to_have_value("Д В 10 6 5 4 2")
    shoot(scorer, shots, "truth-form-from-phones-ru")
    fill(scorer, "players-0-melds", "A♠ A♥ A♦")
    fill(scorer, "players-1-melds", "2♦ 3♦ 4♦")
    fill(scorer, "players-1-hand", BORIS_HAND)
    fill(scorer, "players-2-hand", "Д В 10 6 5 4 2 3")  # the scorer changes Вера's hand: one card more
    fill(scorer, "players-3-hand", "К К Д В 2 3 4 6 7 8")
    scorer.locator("#went_out").select_option("Анна")
    close_keypad(scorer)
    quiet(scorer)
    tap_and_wait(scorer, "#footer-save")
    expect_totals(scorer, {**TRUE_TOTALS, "Вера": -35}, 1)
    assert store_of(app).list_deals(sid)[0].record["players"][2]["melds"] == ["7♠ 8♠ 9♠"]  # her part, kept
    # Вера's phone moves to deal 2 and says her part was recorded otherwise, both versions side by side
    replaced = vera.locator("#part-replaced")
    expect(replaced).to_be_visible(timeout=LIVE)
    expect(replaced).to_contain_text("Партию 1 записали на телефоне счётчика с вашей частью")
    expect(replaced.locator("#replaced-recorded")).to_contain_text("Д В 10 6 5 4 2 3")
    expect(replaced.locator("#replaced-stored")).to_contain_text("Д В 10 6 5 4 2")
    expect(vera.locator("h1")).to_contain_text("Партия 2")
    shoot(vera, shots, "truth-part-replaced-ru")
    assert axe_violations(vera) == [], "a part page saying the part was replaced"


def test_a_part_kept_after_its_deal_was_recorded_becomes_a_correction_of_that_deal(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    scorer = watched(phones(locale="ru-RU").new_page())
    session_url = start_on_phone(scorer, server, PLAYERS, "ranks")
    sid = sid_of(session_url)
    boris = watched(phones(locale="ru-RU").new_page())
    take_seat(boris, session_url, 1)
    write_part(boris, session_url, 1, melds="2♦ 3♦ 4♦")
    boris.context.set_offline(True)
    boris.locator("#player-hand").fill(BORIS_HAND)
    expect(boris.locator("#keep-state")).to_have_attribute("data-state", "local", timeout=LIVE)
    others_by_the_scorer(scorer, session_url)
    # the scorer records anyway, with a note: Борис's hand is not there
    scorer.goto(f"{session_url}/draft")
    scorer.locator("#override-box > summary").tap()
    scorer.locator("#override").check()
    scorer.locator("#note").fill("Борис назовёт карты позже")
    tap_and_wait(scorer, "#record-draft")
    expect(scorer.locator("p.flash")).to_contain_text("Партия 1")
    # Борис's phone comes back: deal 1 is recorded, so what it kept is offered as a correction, not deal 2's part
    boris.context.set_offline(False)
    boris.evaluate("window.dispatchEvent(new Event('online'))")
    choice = boris.locator("#keep-choice")
    expect(choice).to_be_visible(timeout=LIVE)
    expect(choice).to_contain_text("Партию 1 записали без того, что сохранил этот телефон")
    expect(boris.locator("#keep-mine")).to_be_hidden()
    expect(boris.locator("#keep-correct")).to_be_visible()
    expect(choice.locator("tbody")).to_contain_text(BORIS_HAND)
    shoot(boris, shots, "truth-kept-after-recorded-ru")
    assert axe_violations(boris) == [], "the phone offering a correction"
    boris.locator("#keep-correct").tap()
    expect(boris.locator("#keep-state")).to_have_attribute("data-state", "sent", timeout=LIVE)
    expect(boris.locator("#keep-state")).to_contain_text("Отправлено счётчику как исправление партии 1")
    expect(boris.locator("#player-hand")).to_have_value("")  # deal 2's part: untouched
    store = store_of(app)
    assert store.draft(sid).parts == {} and len(store.corrections(sid)) == 1
    # The scorer sees it, both versions side by side, and applies it with one tap: the deal's true score.
    scorer.goto(session_url)
    tap_and_wait(scorer, "#corrections a")
    expect(scorer.locator("#version-recorded dd.hand")).to_have_text("✗ не введено")
    expect(scorer.locator("#version-proposed dd.hand")).to_have_text(BORIS_HAND)
    expect(scorer.locator('#after-scores tr[data-player="Борис"] td[data-after]')).to_have_attribute(
        "data-after", "-35"
    )
    shoot(scorer, shots, "truth-correction-ru")
    assert axe_violations(scorer) == [], "the correction page"
    tap_and_wait(scorer, "#apply-correction")
    expect_totals(scorer, TRUE_TOTALS, 1)
    deal = store_of(app).list_deals(sid)[0]
    assert deal.record["players"][1]["hand"] == {"ranks": "9 9 K Q 3 8", "jokers": 1} and not deal.override
    assert len(store_of(app).list_deals(sid)) == 1 and store_of(app).corrections(sid) == []
    assert csp_refusals(scorer) == [] and csp_refusals(boris) == []  # the correction page and the phone's panel
