"""Nothing typed at the table is lost, and no phone claims what the server does not have (issue 33).

Pixel 7 phones against a real server on loopback. ``context.set_offline`` cuts a phone (and its
service worker) off the network as a dropped Wi-Fi does; a real ``app.py`` killed and started again
is a server restart. What the server holds is read from its SQLite file, not from the phone.
"""

from __future__ import annotations

import json
import re
import time

from conftest import (
    Taps,
    close_keypad,
    close_phone,
    fill,
    free_port,
    open_deal_form,
    part_ready,
    quiet,
    saved,
    shots_dir,
    start_app_py,
    start_on_phone,
    start_reference_session,
    take_seat,
    tap_and_wait,
)
from playwright.sync_api import expect
from test_browser_a11y import violations

from kunken_scorer.core.reading import Deal
from kunken_scorer.store import Store


def stored_part(db: str, seat: int) -> dict | None:
    """The part of ``seat`` in the draft as the server's file holds it (None: nothing stored)."""
    store = Store.open(db)
    try:
        row = store.db.execute(
            "SELECT part FROM draft_parts WHERE seat = ? ORDER BY revision DESC LIMIT 1", [seat]
        ).fetchone()

        return json.loads(row[0]) if row else None
    finally:
        store.close()


def deal_count(db: str) -> int:
    store = Store.open(db)
    try:
        return store.db.execute("SELECT count(*) FROM deals WHERE deleted_at IS NULL").fetchone()[0]
    finally:
        store.close()


def keep_state(page) -> str:
    return page.locator("#keep-state").get_attribute("data-state") or ""


def wait_for_state(page, state: str, timeout: int = 10_000) -> None:
    expect(page.locator("#keep-state")).to_have_attribute("data-state", state, timeout=timeout)


def hand_of(part: dict | None):
    return None if part is None else part.get("hand")


def anna_on_her_phone(server, phones):
    """The scorer's page and the session's address; Anna's phone (its context and page) on her part."""
    scorer = phones(locale="en-US").new_page()
    session_url = start_on_phone(scorer, server, ["Anna", "Boris"], "cards")
    context = phones(locale="en-US")
    anna = context.new_page()
    take_seat(anna, session_url, 0)
    return scorer, session_url, context, anna


def test_a_phone_offline_for_30_seconds_keeps_its_hand_and_never_says_the_server_has_it(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    db = app.config["DATABASE"]
    _scorer, session_url = start_reference_session(phones, server)
    context = phones(locale="ru-RU")
    boris = context.new_page()
    take_seat(boris, session_url, 1)
    taps = Taps(boris)
    taps.keys("2", "♦", "…", "4")
    saved(boris)
    wait_for_state(boris, "stored")
    expect(boris.locator("#keep-state")).to_contain_text("сервер")
    assert hand_of(stored_part(db, 1)) in (None, "", [])

    context.set_offline(True)
    taps.tap("#player-hand")
    taps.keys("d4", "d0", "hJK")
    wait_for_state(boris, "local")
    assert violations(boris) == []
    # heard, politely: the announcer says what the state line says (a retry's brief "sending" is not announced,
    # entry.js, so the two are compared while the line is not showing it)
    boris.wait_for_function(
        """() => document.getElementById("announce").textContent.trim() !== ""
                 && document.getElementById("announce").textContent.trim()
                    === document.getElementById("keep-state").textContent.trim()"""
    )
    boris.screenshot(path=str(shots / "offline-part-kept-ru.png"), full_page=False)
    said = set()
    for _ in range(30):  # thirty seconds off the Wi-Fi: never "stored", and the server has no hand
        said.add(keep_state(boris))
        assert "stored" not in said, "the phone said the server had the hand while it was offline"
        assert not boris.locator("#saved-state").is_visible()
        boris.wait_for_timeout(1_000)
    assert hand_of(stored_part(db, 1)) in (None, "", [])
    expect(boris.locator("#keep-state")).to_contain_text("только на этом телефоне")
    expect(boris.locator("#player-hand")).to_have_value(re.compile(r"^40 Дж\s*$"))

    context.set_offline(False)
    started = time.monotonic()
    while hand_of(stored_part(db, 1)) in (None, "", []):
        assert time.monotonic() - started < 10, "the server did not have the hand 10 s after the phone was back"
        time.sleep(0.2)
    wait_for_state(boris, "stored")
    expect(boris.locator("#keep-state")).to_contain_text(re.compile(r"\d\d:\d\d"))
    boris.screenshot(path=str(shots / "offline-part-stored-ru.png"), full_page=False)


def test_a_reload_offline_and_online_keeps_the_part(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    db = app.config["DATABASE"]
    scorer, session_url, context, anna = anna_on_her_phone(server, phones)
    # the service worker (allowed on 127.0.0.1) keeps the page once it controls it
    anna.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10_000)
    anna.reload()
    part_ready(anna)
    anna.locator("#player-melds").fill("A♠ A♥ A♦")
    saved(anna, revision=1)

    context.set_offline(True)
    anna.locator("#player-hand").fill("K♣ 7♦")
    wait_for_state(anna, "local")
    anna.reload()  # no connection: the service worker's copy of the page, the phone's copy of the typing
    part_ready(anna)
    expect(anna.locator("#player-hand")).to_have_value("K♣ 7♦")
    expect(anna.locator("#player-melds")).to_have_value(re.compile(r"^A♠ A♥ A♦\s*$"))
    wait_for_state(anna, "local")
    anna.screenshot(path=str(shots / "offline-reload-en.png"), full_page=False)
    assert stored_part(db, 0)["hand"] in ("", [], None)

    context.set_offline(False)
    wait_for_state(anna, "stored")
    anna.reload()  # online: the server's part, with the hand
    part_ready(anna)
    expect(anna.locator("#player-hand")).to_have_value(re.compile(r"^K♣ 7♦\s*$"))
    wait_for_state(anna, "stored")
    assert stored_part(db, 0)["hand"]


def test_the_deal_form_survives_a_reload_and_a_trip_to_the_scores(server, phones, tmp_path):
    shots = shots_dir(tmp_path)
    page = phones(locale="en-US").new_page()
    start_on_phone(page, server, ["Anna", "Boris"], "cards")
    open_deal_form(page, "#record-deal")
    wait_for_state(page, "new")
    fill(page, "players-0-melds", "A♠ A♥ A♦")
    fill(page, "players-1-melds", "5♥ 6♥ 7♥")
    fill(page, "players-1-hand", "K♣")
    quiet(page)
    wait_for_state(page, "local")
    page.reload()
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    expect(page.locator("#players-0-melds")).to_have_value("A♠ A♥ A♦")
    expect(page.locator("#players-1-hand")).to_have_value("K♣")
    wait_for_state(page, "local")
    page.screenshot(path=str(shots / "deal-form-kept-en.png"), full_page=False)

    tap_and_wait(page, "#back-link")
    open_deal_form(page, "#record-deal")
    expect(page.locator("#players-1-melds")).to_have_value("5♥ 6♥ 7♥")
    expect(page.locator("#went_out")).to_have_value("Anna")  # the empty hand, chosen again
    quiet(page)
    page.locator("#keypad [data-action=close]").tap()
    tap_and_wait(page, "#save")
    assert re.search(r"/s/[^/]+$", page.url)
    expect(page.locator("#deal-count")).to_have_attribute("data-count", "1")
    open_deal_form(page, "#record-deal")  # recorded: the next form starts empty
    expect(page.locator("#players-0-melds")).to_have_value("")
    wait_for_state(page, "new")

    # The form that edits a recorded deal keeps its changes the same way, until they are saved.
    tap_and_wait(page, "#back-link")
    open_deal_form(page, page.locator("#deals a.edit-deal").first)
    fill(page, "players-1-hand", "K♣ Q♦")
    quiet(page)
    wait_for_state(page, "local")
    page.reload()
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    expect(page.locator("#players-1-hand")).to_have_value("K♣ Q♦")
    close_keypad(page)
    quiet(page)
    tap_and_wait(page, "#save")
    expect(page.locator("p.flash")).to_contain_text("Deal 1 changed")
    open_deal_form(page, page.locator("#deals a.edit-deal").first)
    expect(page.locator("#players-1-hand")).to_have_value(re.compile(r"^K♣ Q♦\s*$"))
    wait_for_state(page, "edit")  # saved: nothing of it is kept on the phone any more


def test_save_tapped_offline_records_the_deal_once_when_the_connection_returns(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    db = app.config["DATABASE"]
    context = phones(locale="ru-RU")
    page = context.new_page()
    start_on_phone(page, server, ["Анна", "Борис"], "cards")
    open_deal_form(page, "#record-deal")
    fill(page, "players-0-melds", "Т♠ Т♥ Т♦")
    fill(page, "players-1-melds", "5♥ 6♥ 7♥")
    fill(page, "players-1-hand", "К♣")
    quiet(page)
    expect(page.locator("#went_out")).to_have_value("Анна")
    page.locator("#keypad [data-action=close]").tap()

    context.set_offline(True)
    page.locator("#save").tap()
    wait_for_state(page, "local-save")
    assert violations(page) == []
    assert "/deals/new" in page.url  # the form, never the browser's error page
    expect(page.locator("h1")).to_be_visible()
    page.screenshot(path=str(shots / "offline-save-ru.png"), full_page=False)
    page.locator("#save").tap()  # a second tap while still offline: still kept, still once
    wait_for_state(page, "local-save")
    page.wait_for_timeout(2_000)
    assert deal_count(db) == 0

    with page.expect_navigation(timeout=15_000):
        context.set_offline(False)
    expect(page.locator("#deal-count")).to_have_attribute("data-count", "1")
    page.wait_for_timeout(2_000)  # every retry has had its chance to store it again
    assert deal_count(db) == 1
    open_deal_form(page, "#record-deal")
    expect(page.locator("#players-0-melds")).to_have_value("")


def test_a_server_restart_mid_entry_loses_nothing_typed(phones, tmp_path):
    db = tmp_path / "restart.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_app_py(db, port)
    try:
        scorer = phones(locale="en-US").new_page()
        for _ in range(100):
            try:
                scorer.goto(base + "/")
                break
            except Exception:
                time.sleep(0.1)
        session_url = start_on_phone(scorer, base, ["Anna", "Boris"], "cards")
        anna = phones(locale="en-US").new_page()
        take_seat(anna, session_url, 0)
        anna.locator("#player-melds").fill("A♠ A♥ A♦")
        saved(anna, revision=1)
        open_deal_form(scorer, "#record-deal")
        fill(scorer, "players-1-melds", "5♥ 6♥ 7♥")
        quiet(scorer)

        proc.kill()
        proc.wait(timeout=10)
        anna.locator("#player-hand").fill("K♣ 7♦")
        wait_for_state(anna, "local")
        fill(scorer, "players-1-hand", "Q♠")
        wait_for_state(scorer, "local")

        proc = start_app_py(db, port)
        started = time.monotonic()
        while not (stored_part(str(db), 0) or {}).get("hand"):
            assert time.monotonic() - started < 20, "the part typed while the server was down never arrived"
            time.sleep(0.2)
        wait_for_state(anna, "stored", timeout=15_000)
        scorer.reload()  # the deal form, typed while the server was down, comes back
        expect(scorer.locator("#deal-form")).to_have_attribute("data-ready", "true")
        expect(scorer.locator("#players-1-melds")).to_have_value("5♥ 6♥ 7♥")
        expect(scorer.locator("#players-1-hand")).to_have_value("Q♠")
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_part_changed_meanwhile_shows_both_versions_and_the_person_chooses(server, phones, app, tmp_path):
    shots = shots_dir(tmp_path)
    db = app.config["DATABASE"]
    scorer, session_url, context, anna = anna_on_her_phone(server, phones)
    anna.locator("#player-melds").fill("A♠ A♥ A♦")
    saved(anna, revision=1)

    context.set_offline(True)
    anna.locator("#player-melds").fill("A♠ A♥ A♦ A♣")
    wait_for_state(anna, "local")
    # meanwhile the scorer corrects her part on the scorer's phone
    scorer.goto(session_url.rstrip("/") + "/draft/0")
    part_ready(scorer)
    scorer.locator("#player-melds").fill("K♠ K♥ K♦")
    saved(scorer, revision=2)

    context.set_offline(False)
    choice = anna.locator("#keep-choice")
    expect(choice).to_be_visible(timeout=15_000)
    expect(choice).to_contain_text("A♠ A♥ A♦ A♣")
    expect(choice).to_contain_text("K♠ K♥ K♦")
    wait_for_state(anna, "choose")
    anna.screenshot(path=str(shots / "two-versions-en.png"), full_page=False)
    assert violations(anna) == []  # the two versions and the status line pass axe (WCAG 2.1 AA)
    assert stored_part(db, 0)["melds"] != ["A♠ A♥ A♦ A♣"]  # nothing overwritten while she chooses

    anna.locator("#keep-mine").tap()
    wait_for_state(anna, "stored")
    expect(choice).to_be_hidden()
    expect(scorer.locator("#player-melds")).to_have_value(re.compile(r"^A♠ A♥ A♦ A♣\s*$"), timeout=10_000)


def test_a_closed_tab_and_a_restarted_browser_bring_the_deal_form_back(server, phones, browser, playwright):
    context = phones(locale="en-US")
    page = context.new_page()
    session_url = start_on_phone(page, server, ["Anna", "Boris"], "cards")
    open_deal_form(page, "#record-deal")
    fill(page, "players-0-melds", "A♠ A♥ A♦")
    quiet(page)
    wait_for_state(page, "local")
    page.close()  # the tab closed
    page = context.new_page()
    page.goto(session_url)
    open_deal_form(page, "#record-deal")
    expect(page.locator("#players-0-melds")).to_have_value("A♠ A♥ A♦")

    kept = context.storage_state()  # the browser quits, and starts again with what it keeps on disk
    close_phone(context)
    again = browser.new_context(**{**playwright.devices["Pixel 7"], "locale": "en-US", "storage_state": kept})
    try:
        page = again.new_page()
        page.goto(session_url)
        open_deal_form(page, "#record-deal")
        expect(page.locator("#players-0-melds")).to_have_value("A♠ A♥ A♦")
        wait_for_state(page, "local")
    finally:
        close_phone(again)


def test_a_deal_form_kept_from_before_another_deal_was_recorded_asks_and_records_once(server, phones, app, tmp_path):
    """The kept form's key may have recorded a deal meanwhile: it is never brought back; both versions are shown."""
    shots = shots_dir(tmp_path)
    db = app.config["DATABASE"]
    page = phones(locale="ru-RU").new_page()
    start_on_phone(page, server, ["Анна", "Борис"], "cards")
    open_deal_form(page, "#record-deal")
    fill(page, "players-0-melds", "Т♠ Т♥ Т♦")
    quiet(page)
    wait_for_state(page, "local")
    old_key = page.locator("input[name=form_key]").input_value()
    sid = page.url.split("/s/", 1)[1].split("/", 1)[0]
    store = Store.open(db)  # meanwhile another phone records a deal
    try:
        record = Deal.from_dict(
            {"players": [{"name": "Анна", "melds": ["5♠ 6♠ 7♠"]}, {"name": "Борис", "hand": "К♣"}], "went_out": "Анна"}
        ).to_dict()
        store.add_deal(sid, record)
    finally:
        store.close()
    page.reload()
    expect(page.locator("#deal-form")).to_have_attribute("data-ready", "true")
    choice = page.locator("#keep-choice")
    expect(choice).to_be_visible()
    expect(choice).to_contain_text("Т♠ Т♥ Т♦")
    wait_for_state(page, "choose")
    expect(page.locator("#keep-discard")).to_be_hidden()  # the choice's own buttons say it
    expect(page.locator("#keep-mine")).to_be_in_viewport()
    page.screenshot(path=str(shots / "kept-from-before-ru.png"), full_page=False)
    page.locator("#keep-mine").tap()
    expect(page.locator("#players-0-melds")).to_have_value("Т♠ Т♥ Т♦")
    assert page.locator("input[name=form_key]").input_value() != old_key  # never the old key
    fill(page, "players-1-melds", "2♥ 3♥ 4♥")
    fill(page, "players-1-hand", "К♣")
    page.locator("#went_out").select_option("Анна")
    quiet(page)
    close_keypad(page)
    tap_and_wait(page, "#save")
    expect(page.locator("#deal-count")).to_have_attribute("data-count", "2")
    assert deal_count(db) == 2


def test_a_save_whose_answer_is_lost_is_recorded_once_when_sent_again(server, browser, playwright, app):
    """The server stores the deal, the answer never reaches the phone, the phone sends it again: one deal."""
    db = app.config["DATABASE"]
    # routing does not see requests a service worker handles: this phone has none
    context = browser.new_context(**{**playwright.devices["Pixel 7"], "locale": "en-US", "service_workers": "block"})
    try:
        page = context.new_page()
        start_on_phone(page, server, ["Anna", "Boris"], "cards")
        open_deal_form(page, "#record-deal")
        fill(page, "players-0-melds", "A♠ A♥ A♦")
        fill(page, "players-1-melds", "5♥ 6♥ 7♥")
        fill(page, "players-1-hand", "K♣")
        quiet(page)
        close_keypad(page)
        lost = []

        def store_then_lose_the_answer(route):
            if route.request.method == "POST" and not lost and route.request.headers.get("x-kunken-keep"):
                route.fetch()  # the server stores the deal...
                lost.append(route.request.url)
                route.abort("connectionreset")  # ...and its answer is lost on the way back
            else:
                route.continue_()

        page.route("**/deals/new", store_then_lose_the_answer)
        page.locator("#save").tap()
        wait_for_state(page, "local-save")
        assert lost and deal_count(db) == 1  # stored once already, the phone does not know it
        with page.expect_navigation(timeout=15_000):
            page.locator("#save").tap()  # the next tap sends it again (so would the next retry)
        expect(page.locator("p.flash")).to_contain_text("was already saved; it was not recorded twice")
        assert deal_count(db) == 1
    finally:
        close_phone(context)
