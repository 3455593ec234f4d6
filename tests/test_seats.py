"""Seats and the draft of the next deal (issue 9): the core's checks, the store, the pages and the API.

Each player's phone takes a seat and writes that seat's part; the scorer writes any part, frees
seats, discards the draft and records it. Tested here: the check of a partial draft, seat
takeover, writes without the seat, concurrent writes to one part, a real server restarted
mid-draft, and a part written after its deal was recorded.
"""

from __future__ import annotations

import html as htmllib
import json
import re
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import CSRF, free_port, hidden, phone, start_app_py, text

from kunken_scorer import RuleSet
from kunken_scorer.core.draft import check_draft, read_part
from kunken_scorer.core.reading import DealInputError
from kunken_scorer.store import Conflict, DraftClosed, NotFound, SessionEnded, Store

KUNKEN = RuleSet.preset()
NAMES = ["Anna", "Boris", "Vera"]
ANNA = {"melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "cards": "5♦"}], "hand": ""}  # "no cards": she went out
BORIS = {"melds": ["2♦ 3♦ 4♦"], "hand": {"points": 40, "jokers": 1}}
VERA = {"melds": ["7♠ 8♠ 9♠"], "hand": "K♣ 5♥"}


# -- the core: a draft checked as its parts arrive ---------------------------------------------


def test_a_vist_onto_a_missing_part_waits_and_is_checked_when_the_part_arrives():
    first = check_draft(KUNKEN, NAMES, {0: read_part(ANNA)})
    assert [s.state for s in first.seats] == ["entered", "waiting", "waiting"]
    assert first.seats[0].waiting_for == ("Boris",) and not first.report.problems
    assert first.missing == ("Boris", "Vera") and not first.complete
    wrong = check_draft(KUNKEN, NAMES, {0: read_part(ANNA), 1: read_part({"melds": ["9♣ 10♣ J♣"]})})
    assert wrong.seats[0].state == "problem" and wrong.seats[0].waiting_for == ()
    assert [p.code for p in wrong.seats[0].problems] == ["vist_fits_nothing"]
    full = check_draft(KUNKEN, NAMES, {0: read_part(ANNA), 1: read_part(BORIS), 2: read_part(VERA)})
    assert full.ready and full.went_out == "Anna"
    assert full.report.scores == {"Anna": 35, "Boris": -35, "Vera": 0}


def test_each_meld_is_checked_at_once_and_counts_across_parts():
    bad = check_draft(KUNKEN, NAMES, {1: read_part({"melds": ["2♦ 3♦ 5♦"]})})
    assert bad.seats[1].state == "problem" and bad.seats[1].problems[0].code == "illegal_meld"
    too_many = check_draft(KUNKEN, NAMES, {0: read_part({"melds": ["K♠ K♠ K♥"]}), 1: read_part({"hand": "K♠"})})
    assert [p.code for p in too_many.problems] == ["too_many_copies"]  # a deal-wide problem


def test_who_went_out_is_the_one_empty_hand_until_the_scorer_says():
    two_empty = check_draft(KUNKEN, NAMES, {0: read_part(ANNA), 2: read_part({"melds": ["7♠ 8♠ 9♠"], "hand": ""})})
    assert two_empty.suggested is None and two_empty.went_out is None
    # a part whose hand never came is not a hand of no cards: Anna, who said "no cards", went out
    not_sent = check_draft(KUNKEN, NAMES, {0: read_part(ANNA), 2: read_part({"melds": ["7♠ 8♠ 9♠"]})})
    assert not_sent.suggested == "Anna" and not_sent.seats[2].state == "no_hand" and not not_sent.ready
    alone = check_draft(KUNKEN, NAMES, {2: read_part({"melds": ["7♠ 8♠ 9♠"]})})
    assert alone.suggested is None and alone.no_hand == ("Vera",)
    chosen = check_draft(KUNKEN, NAMES, {0: read_part(ANNA)}, went_out="Vera", went_out_set=True)
    assert chosen.went_out == "Vera"
    nobody = check_draft(KUNKEN, NAMES, {0: read_part(ANNA)}, went_out=None, went_out_set=True)
    assert nobody.went_out is None and nobody.suggested == "Anna"


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"melds": ["A♠ X"]}, "part.melds[0]"),
        ({"hand": {"small": 1}, "colour": 1}, "part.colour"),
        ({"swaps": [{"from": "Anna", "card": "K♦ Q♦"}]}, "part.swaps[0].card"),
        ([], "part"),
    ],
)
def test_a_part_that_cannot_be_read_names_its_field(raw, field):
    with pytest.raises(DealInputError) as err:
        read_part(raw)
    assert err.value.reason.params["field"] == field


def test_a_short_hand_must_fit_the_game():
    with pytest.raises(DealInputError):
        read_part({"hand": {"small": 2}}, rules=RuleSet.preset("ordered-rummy"))


# -- the store ---------------------------------------------------------------------------------


@pytest.fixture
def sid(store):
    return store.create_session("kunken", KUNKEN.to_dict(), NAMES, None)[0].id


def test_one_part_per_seat_with_who_wrote_it_and_when(store, sid):
    first = store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=1)
    second = store.save_part(sid, 0, read_part(BORIS), revision=1, by="scorer")
    draft = store.draft(sid)
    assert (first.revision, second.revision) == (1, 2)
    assert draft.parts[0].written_by == "scorer" and draft.parts[0].written_at
    assert draft.deal == 1 and draft.version == 2
    with pytest.raises(Conflict):
        store.save_part(sid, 0, read_part(ANNA), revision=1, by="player")
    with pytest.raises(NotFound):
        store.save_part(sid, 3, read_part(ANNA), revision=0, by="player")


def test_a_part_saved_again_unchanged_changes_nothing(store, sid):
    """A field left without a change saves the part again: no new revision, and the draft's version (the
    scorer's page's, which recording checks) stays, so the scorer's Record is not refused as changed."""
    first = store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=1)
    version = store.draft(sid).version
    again = store.save_part(sid, 0, read_part(ANNA), revision=1, by="scorer", deal=1)
    late = store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=1)  # an answer the phone missed
    assert (again.revision, late.revision) == (1, 1)
    assert (again.written_by, again.written_at) == ("player", first.written_at)
    assert store.draft(sid).version == version and store.draft(sid).parts[0].revision == 1
    changed = store.save_part(sid, 0, read_part(BORIS), revision=1, by="scorer", deal=1)
    assert changed.revision == 2 and store.draft(sid).version == version + 1


def test_concurrent_writes_to_one_part_store_exactly_one(app, sid):
    """Eight connections write the same part from revision 0 at once: one wins, seven are refused."""
    path = app.config["DATABASE"]
    results: list = []
    barrier = threading.Barrier(8)

    def write(n: int) -> None:
        store = Store.open(path)
        try:
            barrier.wait()
            store.save_part(
                sid, 1, {"melds": [f"{n}♣ {n}♦ {n}♥"], "vists": [], "swaps": [], "hand": ""}, revision=0, by="player"
            )
            results.append(("ok", n))
        except Conflict:
            results.append(("conflict", n))
        finally:
            store.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [n for kind, n in results if kind == "ok"]
    assert len(results) == 8 and len(winners) == 1
    stored = Store.open(path)
    try:
        entry = stored.draft(sid).parts[1]
        assert entry.revision == 1 and entry.part["melds"] == [f"{winners[0]}♣ {winners[0]}♦ {winners[0]}♥"]
    finally:
        stored.close()


def test_recording_a_deal_empties_the_draft_and_closes_it(store, sid):
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=1)
    token, _ = store.take_seat(sid, 0)
    store.add_deal(sid, {"players": []})
    draft = store.draft(sid)
    assert draft.parts == {} and draft.deal == 2 and draft.seats.keys() == {0}
    assert store.seat_of(sid, token) == 0  # the seat stays taken
    with pytest.raises(DraftClosed) as err:
        store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=1)
    assert err.value.deal == 2
    store.end_session(sid)
    with pytest.raises(SessionEnded):
        store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=2)


def test_a_deal_deleted_or_undone_meanwhile_renumbers_the_draft_but_does_not_close_it(store, sid):
    """Players type deal 3 while the scorer deletes deal 1: their saves go on (the draft is the same, now
    deal 2). Once it is recorded, a page still holding that draft is refused even when deleting another
    deal brings its old number back (by the number alone it was let into the next deal's draft)."""
    for _ in range(2):
        store.add_deal(sid, {"players": [], "redeal": True})
    opened = store.draft(sid)
    assert (opened.deal, opened.generation) == (3, 2)
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player", deal=3, generation=2)
    store.delete_deal(sid, store.list_deals(sid)[0].id)
    store.undo_last(sid)
    assert store.draft(sid).deal == 1 and store.draft(sid).generation == 2
    assert store.save_part(sid, 0, read_part(BORIS), revision=1, by="player", deal=3, generation=2).revision == 2
    store.save_draft_end(sid, {"redeal": True}, deal=3, generation=2)
    store.add_deal(sid, {"players": [], "redeal": True})  # the draft is recorded as deal 1
    store.add_deal(sid, {"players": [], "redeal": True})
    store.add_deal(sid, {"players": [], "redeal": True})  # the next deal is numbered 4
    store.delete_deal(sid, store.list_deals(sid)[0].id)  # ... and 3 again
    assert store.draft(sid).deal == 3
    with pytest.raises(DraftClosed):
        store.save_part(sid, 1, read_part(BORIS), revision=0, by="player", deal=3, generation=2)
    store.save_part(sid, 1, read_part(BORIS), revision=0, by="player", deal=3)  # by the number alone: let in


def test_a_stale_draft_is_not_recorded(store, sid):
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")
    seen = store.draft(sid).version
    store.save_part(sid, 1, read_part(BORIS), revision=0, by="player")
    with pytest.raises(Conflict):
        store.add_deal(sid, {"players": []}, draft_version=seen)
    assert store.list_deals(sid) == []


# -- the pages ---------------------------------------------------------------------------------


def start_api(client, players=NAMES):
    answer = client.post("/api/v1/sessions", json={"players": list(players)}).get_json()
    return answer["id"], answer["edit_token"]


def scorer_phone(app, sid, token):
    client = phone(app)
    assert client.get(f"/s/{sid}/scorer/{token}").status_code == 303
    return client


def take(client, sid, seat):
    page = text(client.get(f"/s/{sid}"))
    return client.post(f"/s/{sid}/seat", data={"csrf_token": CSRF.search(page)[1], "seat": str(seat)})


def part_data(page: str, **fields) -> dict:
    data = {
        "csrf_token": hidden(page, "csrf_token"),
        "deal": hidden(page, "deal"),
        "draft": hidden(page, "draft"),
        "revision": hidden(page, "revision"),
        "hand_mode": "cards",
        "autosave": "1",
    }
    data.update({f"player-{k}": v for k, v in fields.items()})
    return data


def test_taking_a_seat_sets_an_httponly_cookie_scoped_to_the_session(app):
    sid, _ = start_api(app.test_client())
    anna = phone(app)
    response = take(anna, sid, 0)
    assert response.status_code == 303 and response.location.endswith(f"/s/{sid}/draft/0")
    cookie = response.headers["Set-Cookie"]
    assert f"kunken_seat_{sid}=0." in cookie and "HttpOnly" in cookie and f"Path=/s/{sid}" in cookie
    assert "SameSite=Lax" in cookie
    page = text(anna.get(f"/s/{sid}"))
    assert 'id="my-part"' in page and 'id="take-seat-0"' not in page


@pytest.mark.parametrize("seat", ["²", "①", "٣", "-1", "1000", "0x1", ""])
def test_a_seat_cookie_naming_no_seat_is_no_seat(app, seat):
    sid, _ = start_api(app.test_client())
    viewer = phone(app)
    viewer.set_cookie(f"kunken_seat_{sid}", f"{seat}.token", path=f"/s/{sid}")
    for url in (f"/s/{sid}", f"/s/{sid}/draft", f"/s/{sid}/draft/0"):
        assert viewer.get(url).status_code == 200, url
    assert viewer.get(f"/s/{sid}/me").location.endswith(f"/s/{sid}")  # no seat: the session page


def test_a_stranger_cannot_take_a_held_seat_and_is_told_whom_to_ask(app, store):
    sid, _ = start_api(app.test_client())
    anna, stranger = phone(app), phone(app)
    take(anna, sid, 0)
    page = text(anna.get(f"/s/{sid}/draft/0"))
    assert anna.post(f"/s/{sid}/draft/0", data=part_data(page, melds="A♠ A♥ A♦")).status_code == 200
    holder = store.db.execute("SELECT holder_hash FROM seats WHERE session_id = ?", [sid]).fetchone()
    refused = take(stranger, sid, 0)
    assert refused.status_code == 303 and refused.location.endswith(f"/s/{sid}?held=0")
    assert f"kunken_seat_{sid}" not in refused.headers.get("Set-Cookie", "")
    shown = text(stranger.get(refused.location))
    assert "The seat of Anna is held by another phone. Ask the scorer to move it to this phone" in shown
    assert 'id="move-code-form"' in shown and '<option value="0" selected>Anna</option>' in shown
    # nothing changed for Anna: her token, her part, her page
    assert store.db.execute("SELECT holder_hash FROM seats WHERE session_id = ?", [sid]).fetchone() == holder
    assert store.draft(sid).parts[0].part["melds"] == ["A♠ A♥ A♦"]
    mine = text(anna.get(f"/s/{sid}/draft/0"))
    assert 'id="seat-lost"' not in mine and 'id="move-to-phone"' in mine
    # the stranger's page offers the seat back (it is refused the same way) and writes nothing
    told = text(stranger.get(f"/s/{sid}/draft/0"))
    assert 'id="take-back"' in told and 'id="move-to-phone"' not in told
    assert stranger.post(f"/s/{sid}/draft/0", data=part_data(told, melds="JK JK JK")).status_code == 403
    assert store.draft(sid).parts[0].part["melds"] == ["A♠ A♥ A♦"]
    # taking it again from its own phone changes nothing
    again = take(anna, sid, 0)
    assert again.status_code == 303 and again.location.endswith(f"/s/{sid}/draft/0")
    assert "already holds the seat of Anna" in text(anna.get(again.location))
    assert store.db.execute("SELECT holder_hash FROM seats WHERE session_id = ?", [sid]).fetchone() == holder


def test_a_phone_that_takes_another_seat_leaves_its_first_one_free(app, store):
    """A phone has one seat (its cookie names one): tapping another name frees the first seat, which any phone may then
    take without a code, and its part stays. A seat it is refused leaves it where it was."""
    sid, _ = start_api(app.test_client())
    anna, boris, stranger = phone(app), phone(app), phone(app)
    take(anna, sid, 0)
    page = text(anna.get(f"/s/{sid}/draft/0"))
    assert anna.post(f"/s/{sid}/draft/0", data=part_data(page, melds="A♠ A♥ A♦")).status_code == 200
    code = store.new_move_code(sid, 0)  # a move code belongs to one phone's holding of the seat
    assert code is not None
    take(boris, sid, 1)
    assert take(anna, sid, 1).location.endswith(f"/s/{sid}?held=1")  # refused: Anna's phone keeps seat 0
    assert set(store.draft(sid).seats) == {0, 1}
    moved = take(anna, sid, 2)  # a mis-tap corrected: this phone is Vera now
    assert moved.location.endswith(f"/s/{sid}/draft/2") and set(store.draft(sid).seats) == {1, 2}
    assert store.db.execute("SELECT count(*) FROM seat_moves WHERE session_id = ?", [sid]).fetchone()[0] == 0
    assert store.draft(sid).parts[0].part["melds"] == ["A♠ A♥ A♦"]
    taken = take(stranger, sid, 0)  # free again: no code needed, nobody to ask
    assert taken.location.endswith(f"/s/{sid}/draft/0") and set(store.draft(sid).seats) == {0, 1, 2}


def test_a_seat_move_codes_qr_code_names_the_player_once_escaped(app):
    """The QR code's label (drawn by a template: its words escaped by Jinja) says a name with markup in it once
    escaped: "A&amp;B", not "A&amp;amp;B"."""
    sid, _ = start_api(app.test_client(), ['A&B "<x>', "Борис", "Вера"])
    holder = phone(app)
    take(holder, sid, 0)
    page = text(holder.get(f"/s/{sid}/draft/0"))
    shown = text(holder.post(f"/s/{sid}/seats/0/move", data={"csrf_token": CSRF.search(page)[1]}))
    assert 'aria-label="QR code to take the seat of A&amp;B &quot;&lt;x>"' in shown


def test_the_holder_moves_its_seat_with_a_one_time_link_and_the_first_phone_is_told(app, store):
    sid, _ = start_api(app.test_client())
    first, second = phone(app), phone(app)
    take(first, sid, 0)
    page = text(first.get(f"/s/{sid}/draft/0"))
    assert first.post(f"/s/{sid}/draft/0", data=part_data(page, melds="A♠ A♥ A♦")).status_code == 200
    moved = first.post(f"/s/{sid}/seats/0/move", data={"csrf_token": CSRF.search(page)[1]})
    assert moved.status_code == 200 and moved.headers["Cache-Control"] == "no-store"
    shown = text(moved)
    code = re.search(r'id="move-code"><span class="visually-hidden">Move code: </span>(\d{3} \d{3})<', shown)[1]
    link = re.search(r'id="move-link" href="([^"]+)"', shown)[1]
    assert '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="QR code to take the seat of Anna"' in shown
    path = link[link.index("/s/") :]
    # the link's page changes nothing, however often it is opened
    for _ in range(2):
        landing = second.get(path)
        assert landing.status_code == 200 and landing.headers["Cache-Control"] == "no-store"
    assert store.seat_of(sid, None) is None and "This is me: take the seat of Anna" in text(landing)
    assert first.get(f"/s/{sid}/draft/0").status_code == 200 and 'id="seat-lost"' not in text(
        first.get(f"/s/{sid}/draft/0")
    )
    landed = text(landing)
    taken = second.post(
        f"/s/{sid}/seat",
        data={
            "csrf_token": CSRF.search(landed)[1],
            "seat": hidden(landed, "seat"),
            "move_code": hidden(landed, "move_code"),
        },
    )
    assert taken.status_code == 303 and taken.location.endswith(f"/s/{sid}/draft/0")
    assert f"kunken_seat_{sid}=0." in taken.headers["Set-Cookie"]
    assert "Another phone held this seat" in text(second.get(taken.location))
    told = text(first.get(f"/s/{sid}/draft/0"))
    assert 'id="seat-lost"' in told and "Another phone took the seat of Anna" in told
    assert first.post(f"/s/{sid}/draft/0", data=part_data(told, melds="K♠ K♥ K♦")).status_code == 403
    assert store.draft(sid).parts[0].part["melds"] == ["A♠ A♥ A♦"]  # the part stays
    # used: neither the link nor the code works again
    gone = second.get(path)
    assert gone.status_code == 404 and "This link no longer works" in text(gone)
    third = phone(app)
    again = text(third.get(f"/s/{sid}"))
    refused = third.post(f"/s/{sid}/seat", data={"csrf_token": CSRF.search(again)[1], "seat": "0", "move_code": code})
    assert "That move code is wrong, used or expired" in text(third.get(refused.location))
    assert store.seat_of(sid, None) is None


def test_the_scorer_moves_a_seat_and_a_code_typed_on_the_session_page_takes_it(app):
    sid, token = start_api(app.test_client())
    anna, scorer, new_phone = phone(app), scorer_phone(app, sid, token), phone(app)
    take(anna, sid, 0)
    draft_page = text(scorer.get(f"/s/{sid}/draft"))
    assert 'id="move-seat-0"' in draft_page and 'id="move-seat-1"' not in draft_page
    shown = text(scorer.post(f"/s/{sid}/seats/0/move", data={"csrf_token": CSRF.search(draft_page)[1]}))
    code = re.search(r"(\d{3}) (\d{3})<", shown)
    assert code and f'href="/s/{sid}/draft" id="back-link"' in shown
    session_page = text(new_phone.get(f"/s/{sid}"))
    assert 'id="move-code-form"' in session_page and '<option value="0">Anna</option>' in session_page
    taken = new_phone.post(
        f"/s/{sid}/seat",
        data={"csrf_token": CSRF.search(session_page)[1], "seat": "0", "move_code": f" {code[1]} {code[2]} "},
    )
    assert taken.status_code == 303 and taken.location.endswith(f"/s/{sid}/draft/0")
    assert "Another phone took the seat of Anna" in text(anna.get(f"/s/{sid}/draft/0"))
    # a code for one seat is none for another; nobody but the holder or the scorer makes one
    assert (
        new_phone.post(f"/s/{sid}/seats/1/move", data={"csrf_token": CSRF.search(session_page)[1]}).status_code == 403
    )
    page = text(anna.get(f"/s/{sid}"))
    lost = anna.post(f"/s/{sid}/seats/0/move", data={"csrf_token": CSRF.search(page)[1]})  # no longer hers
    assert lost.status_code == 303 and "Another phone took the seat of Anna" in text(anna.get(lost.location))
    # the scorer's phone may take a held seat itself (the scorer's rule), and a free seat's code is none
    assert (
        scorer.post(f"/s/{sid}/seat", data={"csrf_token": CSRF.search(draft_page)[1], "seat": "0"}).status_code == 303
    )
    free = scorer.post(f"/s/{sid}/seats/2/move", data={"csrf_token": CSRF.search(draft_page)[1]})
    assert "Nobody holds the seat of Vera" in text(scorer.get(free.location))


def test_the_scorer_frees_a_seat_and_its_phone_is_told(app, store):
    sid, token = start_api(app.test_client())
    anna, scorer = phone(app), scorer_phone(app, sid, token)
    take(anna, sid, 0)
    draft_page = text(scorer.get(f"/s/{sid}/draft"))
    assert 'id="free-seat-0"' in draft_page
    response = scorer.post(f"/s/{sid}/seats/0/free", data={"csrf_token": CSRF.search(draft_page)[1]})
    assert response.status_code == 303 and store.draft(sid).seats == {}
    assert "The scorer freed the seat of Anna" in text(anna.get(f"/s/{sid}/draft/0"))
    viewer = phone(app)
    page = text(viewer.get(f"/s/{sid}"))
    assert viewer.post(f"/s/{sid}/seats/0/free", data={"csrf_token": CSRF.search(page)[1]}).status_code == 403


def test_without_the_seat_nothing_is_written_and_only_the_scorer_records(app, store):
    sid, token = start_api(app.test_client())
    anna, viewer = phone(app), phone(app)
    take(anna, sid, 0)
    page = text(viewer.get(f"/s/{sid}/draft/0"))
    assert "disabled" in page and 'id="take-back"' in page
    for seat in (0, 1):
        assert viewer.post(f"/s/{sid}/draft/{seat}", data=part_data(page, melds="A♠ A♥ A♦")).status_code == 403
    # the seat holder writes its own seat only
    own = text(anna.get(f"/s/{sid}/draft/0"))
    assert anna.post(f"/s/{sid}/draft/1", data=part_data(own, melds="2♦ 3♦ 4♦")).status_code == 403
    for url in (f"/s/{sid}/draft", f"/s/{sid}/draft/discard"):
        for client, csrf in ((viewer, CSRF.search(page)[1]), (anna, CSRF.search(own)[1])):
            assert client.post(url, data={"csrf_token": csrf, "record": "1"}).status_code == 403
    assert store.draft(sid).parts == {} and store.list_deals(sid) == []
    # CSRF as on every form
    assert (
        anna.post(f"/s/{sid}/draft/0", data={**part_data(page, melds="A♠ A♥ A♦"), "csrf_token": "forged"}).status_code
        == 400
    )
    assert anna.post(f"/s/{sid}/seat", data={"seat": "1"}).status_code == 400


def test_two_phones_writing_one_part_the_later_is_refused_with_the_part_shown(app, store):
    sid, token = start_api(app.test_client())
    anna, scorer = phone(app), scorer_phone(app, sid, token)
    take(anna, sid, 0)
    seen_by_anna = text(anna.get(f"/s/{sid}/draft/0"))
    seen_by_scorer = text(scorer.get(f"/s/{sid}/draft/0"))
    assert scorer.post(f"/s/{sid}/draft/0", data=part_data(seen_by_scorer, melds="K♠ K♥ K♦")).status_code == 200
    late = anna.post(f"/s/{sid}/draft/0", data=part_data(seen_by_anna, melds="Q♠ Q♥ Q♦"))
    page = text(late)
    assert late.status_code == 409
    assert "changed by the scorer" in page and "Q♠ Q♥ Q♦" in page  # what she typed is not lost
    assert re.search(r'id="player-melds"[^>]*>\s*K♠ K♥ K♦', page)  # the part as it is now
    assert hidden(page, "revision") == "1"
    assert store.draft(sid).parts[0].part["melds"] == ["K♠ K♥ K♦"]
    # with the revision the refusal showed, her next write goes through
    assert anna.post(f"/s/{sid}/draft/0", data=part_data(page, melds="Q♠ Q♥ Q♦")).status_code == 200
    assert store.draft(sid).parts[0].revision == 2


def draft_form(page: str, **extra) -> dict:
    """The draft page's "Record deal" form as the scorer's phone posts it."""
    return {
        "csrf_token": hidden(page, "csrf_token"),
        "form_key": hidden(page, "form_key"),
        "version": hidden(page, "version"),
        "deal": hidden(page, "deal"),
        "went_out": "auto",
        "record": "1",
        **extra,
    }


def record_draft(scorer, sid, **extra):
    data = draft_form(text(scorer.get(f"/s/{sid}/draft")), **extra)
    return scorer.post(f"/s/{sid}/draft", data=data), data


def fill_draft(store, sid):
    for seat, part in enumerate((ANNA, BORIS, VERA)):
        store.save_part(sid, seat, read_part(part), revision=None, by="player")


def test_the_scorer_records_the_draft_with_one_tap_and_it_is_a_deal_like_any_other(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")
    waiting, _ = record_draft(scorer, sid)
    assert waiting.status_code == 422 and "Boris, Vera" in text(waiting) and store.list_deals(sid) == []
    fill_draft(store, sid)
    page = text(scorer.get(f"/s/{sid}/draft"))
    assert page.count('data-state="entered"') == 3 and 'data-ready="true"' in page
    response, data = record_draft(scorer, sid)
    assert response.status_code == 303
    again = scorer.post(f"/s/{sid}/draft", data=data)  # a double tap
    assert again.status_code == 303 and len(store.list_deals(sid)) == 1
    deal = store.list_deals(sid)[0]
    assert deal.record["went_out"] == "Anna"
    session = app.test_client().get(f"/api/v1/sessions/{sid}").get_json()
    assert session["totals"] == {"Anna": 35, "Boris": -35, "Vera": 0}
    assert store.draft(sid).parts == {}
    assert "Anna" in text(scorer.get(f"/s/{sid}/history"))
    assert text(scorer.get(f"/s/{sid}/deals/{deal.id}/edit")).count("A♠ A♥ A♦") >= 1
    session_page = text(scorer.get(f"/s/{sid}"))
    undo = scorer.post(
        f"/s/{sid}/undo",
        data={
            "csrf_token": hidden(session_page, "csrf_token"),
            "expected_version": hidden(session_page, "expected_version"),
        },
    )
    assert undo.status_code == 303 and store.list_deals(sid) == []


def test_a_recorded_draft_sent_again_after_the_session_ended_is_told_it_was_recorded(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    fill_draft(store, sid)
    response, data = record_draft(scorer, sid)
    assert response.status_code == 303
    store.end_session(sid)
    late = scorer.post(f"/s/{sid}/draft", data=data, headers={"X-Kunken-Keep": "1", "Accept-Language": "en"})
    assert late.status_code == 303 and "Deal 1 was already saved" in text(scorer.get(late.location))
    fresh = {**data, "form_key": "form-" + "n" * 22}  # a Record that recorded nothing: the session has ended
    refused = scorer.post(f"/s/{sid}/draft", data=fresh, headers={"X-Kunken-Keep": "1", "Accept-Language": "en"})
    assert refused.status_code == 409 and "This session has ended" in text(refused)
    assert len(store.list_deals(sid)) == 1


def deal_fields(page: str) -> dict:
    """Every field of a deal form's page as a browser would post it (text, hidden and textareas)."""
    data = {
        name: htmllib.unescape(value)
        for name, value in re.findall(r'<input [^>]*?name="([^"]+)"[^>]*?value="([^"]*)"', page)
        if not name.startswith(("check", "save", "override", "express", "redeal"))
    }
    for name, value in re.findall(r'<textarea [^>]*?name="([^"]+)"[^>]*>(.*?)</textarea>', page, re.S):
        data[name] = htmllib.unescape(value).strip("\r\n")
    data["went_out"] = (
        re.search(r'<select [^>]*name="went_out".*?<option selected value="([^"]*)"', page, re.S) or [""] * 2
    )[1]
    return data


def test_the_deal_form_starts_from_the_parts_the_phones_stored(app, store):
    """Recording from the scorer's form empties the draft: so the form opens with the parts the phones stored,
    marked as from the phone; nothing a phone stored goes without the scorer seeing it in the form."""
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    assert 'id="from-phones"' not in text(scorer.get(f"/s/{sid}/deals/new"))
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")
    store.save_part(sid, 2, read_part(VERA), revision=0, by="player")
    page = text(scorer.get(f"/s/{sid}/deals/new"))
    notice = re.search(r'<p id="from-phones"[^>]*>(.*?)</p>', page, re.S)[1]
    assert "Anna, Vera" in notice and "Boris" not in notice
    assert (
        'id="player-0-from-phone"' in page and 'id="player-2-from-phone"' in page and "player-1-from-phone" not in page
    )
    fields = deal_fields(page)
    assert fields["players-0-melds"] == "A♠ A♥ A♦" and fields["players-0-vists"] == "Boris: 5♦"
    assert fields["players-2-melds"] == "7♠ 8♠ 9♠" and fields["players-2-hand"] == "K♣ 5♥"
    assert fields["players-1-melds"] == "" and fields["parts_seen"] == "0:1,2:1"
    russian = scorer_phone(app, sid, token)
    russian.set_cookie("lang", "ru")
    notice = re.search(r'<p id="from-phones"[^>]*>(.*?)</p>', text(russian.get(f"/s/{sid}/deals/new")), re.S)[1]
    assert "Части игроков Anna, Vera пришли с их телефонов" in notice
    # the scorer types Boris's part and says Anna went out: the deal is recorded with the phones' parts
    fields.update({"players-1-melds": "2♦ 3♦ 4♦", "players-1-hand": "40 JK", "went_out": "Anna", "save": "1"})
    response = scorer.post(f"/s/{sid}/deals/new", data=fields)
    assert response.status_code == 303, text(response)
    deal = store.list_deals(sid)[0]
    assert [p["melds"] for p in deal.record["players"]] == [["A♠ A♥ A♦"], ["2♦ 3♦ 4♦"], ["7♠ 8♠ 9♠"]]
    assert store.draft(sid).parts == {} and set(store.recorded_parts(sid, deal.seq)) == {0, 2}  # kept beside it
    assert 'id="from-phones"' not in text(scorer.get(f"/s/{sid}/deals/new"))  # recorded: the draft is empty
    store.save_part(sid, 1, read_part(BORIS), revision=0, by="player")
    assert 'id="from-phones"' not in text(scorer.get(f"/s/{sid}/deals/{deal.id}/edit"))  # an edit takes no part


def test_a_part_stored_after_the_deal_form_opened_stops_its_save_and_is_shown(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")
    fields = deal_fields(text(scorer.get(f"/s/{sid}/deals/new")))
    store.save_part(sid, 2, read_part(VERA), revision=0, by="player")  # Vera's phone, while the scorer types
    fields.update({"players-1-melds": "2♦ 3♦ 4♦", "players-1-hand": "40 JK", "went_out": "Anna"})
    fields.update({"players-2-melds": "9♣ 10♣ J♣", "players-2-hand": "5♦", "save": "1"})
    refused = scorer.post(f"/s/{sid}/deals/new", data=fields)
    page = text(refused)
    assert refused.status_code == 409 and store.list_deals(sid) == [] and set(store.draft(sid).parts) == {0, 2}
    conflict = " ".join(htmllib.unescape(re.search(r'<p id="conflict"[^>]*>(.*?)</p>', page, re.S)[1]).split())
    assert "Nothing was recorded" in conflict and "Vera (you had typed: 9♣ 10♣ J♣ · 5♦)" in conflict
    again = deal_fields(page)
    assert again["players-2-melds"] == "7♠ 8♠ 9♠" and again["players-2-hand"] == "K♣ 5♥"  # the phone's part now
    assert again["players-1-melds"] == "2♦ 3♦ 4♦" and again["parts_seen"] == "0:1,2:1"  # the scorer's typing stays
    response = scorer.post(f"/s/{sid}/deals/new", data={**again, "save": "1"})
    assert response.status_code == 303 and store.list_deals(sid)[0].record["players"][2]["melds"] == ["7♠ 8♠ 9♠"]


def test_a_phone_whose_part_the_scorers_form_replaced_is_told_so(app, store):
    sid, token = start_api(app.test_client())
    vera, scorer = phone(app), scorer_phone(app, sid, token)
    take(vera, sid, 2)
    store.save_part(sid, 2, read_part(VERA), revision=0, by="player")
    store.save_part(sid, 0, read_part(ANNA), revision=0, by="player")
    fields = deal_fields(text(scorer.get(f"/s/{sid}/deals/new")))
    fields.update({"players-1-melds": "2♦ 3♦ 4♦", "players-1-hand": "40 JK", "went_out": "Anna"})
    fields.update({"players-2-hand": "K♣ 5♥ 5♠", "save": "1"})  # the scorer changed Vera's hand
    assert scorer.post(f"/s/{sid}/deals/new", data=fields).status_code == 303
    page = text(vera.get(f"/s/{sid}/draft/2"))
    replaced = " ".join(
        re.sub(
            r"<[^>]+>", " ", re.search(r'<div class="card replaced".*?</div>\s*</div>\s*</div>', page, re.S)[0]
        ).split()
    )
    assert "Deal 1 was recorded on the scorer’s phone with your part as the scorer typed it" in replaced
    assert "As recorded Melds: 7♠ 8♠ 9♠ In hand: K♣ 5♥ 5♠" in replaced
    assert "As your phone saved it Melds: 7♠ 8♠ 9♠ In hand: K♣ 5♥" in replaced
    assert 'id="part-replaced"' not in text(phone(app).get(f"/s/{sid}/draft/0"))  # Anna's part went in as saved
    store.save_part(sid, 2, read_part(VERA), revision=0, by="player", generation=1)  # Vera starts deal 2
    assert 'id="part-replaced"' not in text(vera.get(f"/s/{sid}/draft/2"))


def test_the_draft_pages_seat_buttons_name_their_player_for_a_screen_reader(app):
    """Three "Enter the part" links read alike to a screen reader: each names its player (hidden on screen)."""
    sid, token = start_api(app.test_client())
    page = text(scorer_phone(app, sid, token).get(f"/s/{sid}/draft"))
    for seat, name in enumerate(NAMES):
        link = re.search(rf'<a [^>]*id="open-seat-{seat}"[^>]*>(.*?)</a>', page, re.S)[1]
        assert f'<span class="visually-hidden">: {name}</span>' in link
    # a part page's list of parts says each state in words (an aria-label on a plain span is not read)
    part = text(scorer_phone(app, sid, token).get(f"/s/{sid}/draft/0"))
    states = re.search(r'<ul class="seat-states".*?</ul>', part, re.S)[0]
    items = states.split(">", 1)[1]  # the list's own name is a label on a list, which is read
    assert items.count('<span class="visually-hidden">waiting</span>') == 3 and "aria-label=" not in items


def test_went_out_with_nothing_laid_waits_for_that_players_part():
    """The scorer may say who went out before that player's part is in: the draft does not warn that their
    cards were left out until their part arrives (empty of melds and vists)."""
    boris = {"melds": ["2♥ 3♥ 4♥"], "hand": "K♣"}
    early = check_draft(RuleSet.preset(), ["Anna", "Boris"], {1: read_part(boris)}, went_out="Anna", went_out_set=True)
    assert early.report.warnings == ()
    empty = {0: read_part({}), 1: read_part(boris)}
    late = check_draft(RuleSet.preset(), ["Anna", "Boris"], empty, went_out="Anna", went_out_set=True)
    assert [w.code for w in late.report.warnings] == ["went_out_empty"]


def test_a_draft_that_changed_since_the_page_showed_it_is_not_recorded(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    fill_draft(store, sid)
    page = text(scorer.get(f"/s/{sid}/draft"))
    store.save_part(sid, 2, read_part({"melds": ["7♠ 8♠ 9♠"], "hand": "K♣"}), revision=1, by="player")
    data = draft_form(page)
    response = scorer.post(f"/s/{sid}/draft", data=data)
    assert response.status_code == 409 and store.list_deals(sid) == []
    assert "A part or a seat of this deal changed since your page showed it." in text(response)
    seated = draft_form(text(scorer.get(f"/s/{sid}/draft")))
    take(phone(app), sid, 1)  # a seat taken counts as a change too: the page said who held it
    assert scorer.post(f"/s/{sid}/draft", data=seated).status_code == 409 and store.list_deals(sid) == []
    # a hidden number is whole digits only: a trailing newline is a damaged form, not a number
    digits = {"version": "".join(chr(0x660 + int(d)) for d in data["version"])}  # Arabic-Indic digits: int() reads them
    for bad in ({"version": data["version"] + "\n"}, {"deal": data["deal"] + "\n"}, {"version": "-1"}, digits):
        response = scorer.post(f"/s/{sid}/draft", data={**data, **bad})
        assert response.status_code == 422 and "The form is damaged; reload it." in text(response), bad
    assert store.list_deals(sid) == []


def test_a_draft_with_problems_needs_record_anyway_and_a_note(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    store.save_part(sid, 0, read_part({"melds": ["A♠ A♥ 2♦"]}), revision=0, by="player")
    store.save_part(sid, 1, read_part(BORIS), revision=0, by="player")
    store.save_part(sid, 2, read_part(VERA), revision=0, by="player")
    refused, _ = record_draft(scorer, sid)
    assert refused.status_code == 422 and store.list_deals(sid) == []
    response, _ = record_draft(scorer, sid, override="y", note="the table agreed")
    assert response.status_code == 303
    deal = store.list_deals(sid)[0]
    assert deal.override and deal.note == "the table agreed"


def test_a_part_written_after_its_deal_was_recorded_is_refused_clearly(app, store):
    sid, token = start_api(app.test_client())
    anna, scorer = phone(app), scorer_phone(app, sid, token)
    take(anna, sid, 0)
    stale = text(anna.get(f"/s/{sid}/draft/0"))
    fill_draft(store, sid)
    assert record_draft(scorer, sid)[0].status_code == 303
    late = anna.post(f"/s/{sid}/draft/0", data={**part_data(stale, melds="K♠ K♥ K♦"), "revision": "1"})
    page = text(late)
    assert late.status_code == 409
    assert "Deal 1 has already been recorded" in page and "K♠ K♥ K♦" in page
    assert hidden(page, "deal") == "2" and hidden(page, "revision") == "0"
    assert store.draft(sid).parts == {} and len(store.list_deals(sid)) == 1


def test_the_draft_live_answer_is_an_etag_and_304_until_a_part_or_seat_changes(app, store):
    sid, _ = start_api(app.test_client())
    client = app.test_client()
    first = client.get(f"/s/{sid}/draft/live")
    tag = first.headers["ETag"]
    assert first.get_json()["deal"] == 1
    assert client.get(f"/s/{sid}/draft/live", headers={"If-None-Match": tag}).status_code == 304
    store.take_seat(sid, 2)
    moved = client.get(f"/s/{sid}/draft/live", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert client.get("/s/nope/draft/live").status_code == 404
    assert client.get(f"/s/{sid}/draft/7").status_code == 404


def test_the_draft_pages_answer_hostile_input_without_a_500(app, store):
    sid, token = start_api(app.test_client())
    anna = phone(app)
    take(anna, sid, 0)
    page = text(anna.get(f"/s/{sid}/draft/0"))
    for fields in (
        {"melds": "A♠ X♦"},
        {"vists": "Nobody: 5♦"},
        {"hand": "-5"},
        {"melds": "x" * 5000},
        {"swaps": "Boris: K♦ Q♦"},
        {"hand": "1" * 5000},  # past int()'s 4,300 digits
        {"vists": "Boris " + "1" * 5000 + ": 5♦"},
        {"swaps": "Boris " + "1" * 5000 + ": K♦"},
    ):
        response = anna.post(f"/s/{sid}/draft/0", data=part_data(page, **fields))
        assert response.status_code == 422, fields
        assert 'class="errors"' in text(response)
    for bad in (
        {"deal": "x"},
        {"revision": "-1"},
        {"hand_mode": "counts", "player-small": "-3"},
        {"hand_mode": "counts", "player-small": "9" * 400},  # past float's range
    ):
        assert anna.post(f"/s/{sid}/draft/0", data={**part_data(page), **bad}).status_code == 422
    for bad in (
        {"deal": "x"},
        {"revision": "-1"},
        {"deal": "", "revision": "1.5"},
        {"revision": "𝟎"},
        {"draft": "x"},
        {"draft": " "},  # a blank draft is damaged, not missing (it was a 500)
        {"draft": "\t"},
    ):  # hidden numbers
        shown = text(anna.post(f"/s/{sid}/draft/0", data={**part_data(page), **bad}))
        assert shown.count("The form is damaged; reload it.") == 1, bad
    scorer = scorer_phone(app, sid, token)
    for bad in ({"draft": " "}, {"draft": "\n"}, {"version": "x"}, {"deal": ""}):
        for button in ({"record": "1"}, {"record": "", "check": "1"}):
            data = {**draft_form(text(scorer.get(f"/s/{sid}/draft"))), **button, **bad}
            shown = scorer.post(f"/s/{sid}/draft", data=data)
            assert shown.status_code == 422, (bad, button)
            assert "The form is damaged; reload it." in text(shown)
    assert store.draft(sid).parts == {} and store.list_deals(sid) == []
    assert take(anna, sid, 9).status_code == 303 and store.draft(sid).seats.keys() == {0}


# -- the API -----------------------------------------------------------------------------------


def test_the_api_refuses_writes_without_the_seat_and_an_old_token_after_a_takeover(client):
    sid, token = start_api(client)
    old = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()["seat_token"]
    new = client.post(f"/api/v1/sessions/{sid}/seats/0", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert new["took_over"] is True  # the scorer moved the seat
    body = {"revision": 0, **ANNA}
    assert (
        client.put(
            f"/api/v1/sessions/{sid}/draft/parts/0", json=body, headers={"Authorization": f"Bearer {old}"}
        ).status_code
        == 403
    )
    assert (
        client.put(
            f"/api/v1/sessions/{sid}/draft/parts/0", json=body, headers={"Authorization": f"Bearer {new['seat_token']}"}
        ).status_code
        == 200
    )
    assert (
        client.delete(
            f"/api/v1/sessions/{sid}/draft", headers={"Authorization": f"Bearer {new['seat_token']}"}
        ).status_code
        == 403
    )
    assert (
        client.post(
            f"/api/v1/sessions/{sid}/draft/record", json={}, headers={"Authorization": f"Bearer {new['seat_token']}"}
        ).status_code
        == 403
    )
    assert client.post(f"/api/v1/sessions/{sid}/seats/3").status_code == 404
    for bad in (
        {"revision": -1},
        {"revision": "0"},
        {},
        {"revision": 0, "melds": "A♠ X"},
        {"revision": 0, "hand": {"small": -1}},
        {"revision": 0, "deal": True},
    ):
        response = client.put(
            f"/api/v1/sessions/{sid}/draft/parts/0", json=bad, headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 400 and response.get_json()["error"], bad


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _seat_state(store, sid):
    """(holder hash, part) of seat 0: what a refused request must leave as it was."""
    holder = store.db.execute("SELECT holder_hash FROM seats WHERE session_id = ? AND seat = 0", [sid]).fetchone()
    return holder, store.draft(sid).parts.get(0)


def test_the_api_refuses_a_stranger_a_held_seat_and_nothing_changes_for_its_phone(client, store):
    sid, _ = start_api(client)
    anna = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()
    assert anna["took_over"] is False
    written = client.put(
        f"/api/v1/sessions/{sid}/draft/parts/0", json={"revision": 0, **ANNA}, headers=_bearer(anna["seat_token"])
    )
    assert written.status_code == 200
    before = _seat_state(store, sid)
    version = store.draft(sid).version
    for headers, body in (({}, None), (_bearer("not-a-token"), None), ({}, {}), ({}, {"move_code": None})):
        refused = client.post(f"/api/v1/sessions/{sid}/seats/0", headers=headers, json=body)
        assert refused.status_code == 409
        assert refused.get_json() == {
            "error": "The seat of Anna is held by another phone. Ask the scorer to move it to this phone, "
            "or ask Anna’s phone for its move code.",
            "code": "seat_held",
        }
    assert _seat_state(store, sid) == before and store.draft(sid).version == version
    again = client.put(
        f"/api/v1/sessions/{sid}/draft/parts/0",
        json={"revision": 1, "melds": ["K♠ K♥ K♦"]},
        headers=_bearer(anna["seat_token"]),
    )
    assert again.status_code == 200  # her token still writes
    # her own phone taking it again: the same token, nothing taken over, nothing changed
    same = client.post(f"/api/v1/sessions/{sid}/seats/0", headers=_bearer(anna["seat_token"])).get_json()
    assert same == {"seat": 0, "player": "Anna", "seat_token": anna["seat_token"], "took_over": False}
    assert store.draft(sid).version == version + 1  # the part written, not the seat taken again
    # a free seat is anyone's, as before; in Russian the refusal is Russian
    assert client.post(f"/api/v1/sessions/{sid}/seats/1").status_code == 200
    russian = client.post(f"/api/v1/sessions/{sid}/seats/0", headers={"Accept-Language": "ru"})
    assert russian.status_code == 409 and russian.get_json()["code"] == "seat_held"


def test_the_api_scorer_takes_a_held_seat_over(client, store):
    sid, token = start_api(client)
    anna = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()["seat_token"]
    client.put(f"/api/v1/sessions/{sid}/draft/parts/0", json={"revision": 0, **ANNA}, headers=_bearer(anna))
    moved = client.post(f"/api/v1/sessions/{sid}/seats/0", headers=_bearer(token)).get_json()
    assert moved["took_over"] is True and moved["seat_token"] not in (anna, token)
    assert store.seat_of(sid, anna) is None and store.seat_of(sid, moved["seat_token"]) == 0
    assert store.draft(sid).parts[0].part["melds"] == ["A♠ A♥ A♦"]  # the part stays


def test_a_move_code_works_once_for_its_seat_and_time_only(client, store):
    sid, token = start_api(client)
    anna = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()["seat_token"]
    boris = client.post(f"/api/v1/sessions/{sid}/seats/1").get_json()["seat_token"]
    made = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(anna))
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    answer = made.get_json()
    assert set(answer) == {"seat", "player", "move_code", "move_url", "expires_at"}
    assert answer["seat"] == 0 and answer["player"] == "Anna" and re.fullmatch(r"\d{6}", answer["move_code"])
    assert re.search(rf"/s/{sid}/seat/move/[\w-]{{20,}}$", answer["move_url"])
    assert answer["move_code"] not in answer["move_url"]
    code = answer["move_code"]
    stored = store.db.execute("SELECT * FROM seat_moves WHERE session_id = ?", [sid]).fetchall()
    assert len(stored) == 1 and code not in repr(stored)  # only hashes are kept
    # not for another seat (and that wrong try counts against Boris's seat, which has no code: nothing)
    assert client.post(f"/api/v1/sessions/{sid}/seats/1", json={"move_code": code}).status_code == 409
    taken = client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": code})
    assert taken.status_code == 200 and taken.get_json()["took_over"] is True
    assert store.seat_of(sid, anna) is None and store.seat_of(sid, boris) == 1
    new = taken.get_json()["seat_token"]
    # once: the same code again is refused, and says so
    twice = client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": code})
    assert twice.status_code == 409 and "wrong, used or expired" in twice.get_json()["error"]
    assert store.seat_of(sid, new) == 0
    # not after ten minutes
    late = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(token)).get_json()["move_code"]
    store.db.execute(
        "UPDATE seat_moves SET expires_at = '2000-01-01T00:00:00.000000+00:00' WHERE session_id = ?", [sid]
    )
    assert client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": late}).status_code == 409
    assert store.seat_of(sid, new) == 0
    # a new code replaces the one before
    first = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(new)).get_json()["move_code"]
    second = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(new)).get_json()["move_code"]
    if first != second:
        assert client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": first}).status_code == 409
    assert client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": second}).status_code == 200


def test_a_move_code_stops_after_five_wrong_tries(client, store):
    sid, _ = start_api(client)
    anna = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()["seat_token"]
    code = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(anna)).get_json()["move_code"]
    wrong = [f"{(int(code) + n) % 1_000_000:06d}" for n in range(1, 6)]
    said = []
    for guess in wrong:
        answer = client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": guess})
        assert answer.status_code == 409
        said.append(answer.get_json()["error"])
    assert all("wrong, used or expired" in words for words in said[:4])
    # the fifth wrong try locks the code, and the phone holding the right one is told so, not "wrong" (issue 48)
    assert "is locked: too many wrong codes were typed" in said[4]
    refused = client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": code})
    assert refused.status_code == 409 and refused.get_json()["code"] == "seat_held"
    assert "The move code of Anna’s seat is locked" in refused.get_json()["error"]
    assert store.seat_of(sid, anna) == 0
    # the holder makes a new one, which works
    fresh = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(anna)).get_json()["move_code"]
    assert client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": fresh}).status_code == 200


def test_only_the_holder_or_the_scorer_makes_a_move_code(client, store):
    sid, token = start_api(client)
    anna = client.post(f"/api/v1/sessions/{sid}/seats/0").get_json()["seat_token"]
    boris = client.post(f"/api/v1/sessions/{sid}/seats/1").get_json()["seat_token"]
    unsigned = client.post(f"/api/v1/sessions/{sid}/seats/0/move")
    assert unsigned.status_code == 401 and "Moving a seat needs" in unsigned.get_json()["error"]
    assert unsigned.headers["WWW-Authenticate"] == "Bearer"
    assert client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(boris)).status_code == 403
    assert client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer("nope")).status_code == 403
    assert client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(token)).status_code == 201
    free = client.post(f"/api/v1/sessions/{sid}/seats/2/move", headers=_bearer(token))
    assert free.status_code == 409 and "Nobody holds the seat of Vera" in free.get_json()["error"]
    assert client.post(f"/api/v1/sessions/{sid}/seats/7/move", headers=_bearer(token)).status_code == 404
    assert store.db.execute("SELECT count(*) FROM seat_moves").fetchone()[0] == 1
    # freeing the seat throws its code away: a later holder's seat does not move with it
    code = client.post(f"/api/v1/sessions/{sid}/seats/0/move", headers=_bearer(anna)).get_json()["move_code"]
    assert client.delete(f"/api/v1/sessions/{sid}/seats/0", headers=_bearer(anna)).get_json()["freed"] is True
    client.post(f"/api/v1/sessions/{sid}/seats/0")
    assert client.post(f"/api/v1/sessions/{sid}/seats/0", json={"move_code": code}).status_code == 409
    for bad in ({"move_code": 123456}, {"move_code": ["1"]}, {"move_code": "1" * 101}):
        response = client.post(f"/api/v1/sessions/{sid}/seats/0", json=bad)
        assert response.status_code == 400 and "move_code" in response.get_json()["error"], bad
    assert client.post(f"/api/v1/sessions/{sid}/seats/0", data="x", content_type="text/plain").status_code == 415
    store.end_session(sid)
    assert client.post(f"/api/v1/sessions/{sid}/seats/1/move", headers=_bearer(token)).status_code == 409


# -- a real server restarted mid-draft ------------------------------------------------------------


def _call(base: str, method: str, path: str, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def _serve(db: Path, port: int) -> subprocess.Popen:
    proc = start_app_py(db, port)
    for _ in range(150):
        try:
            _call(f"http://127.0.0.1:{port}", "GET", "/api/v1/health")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def test_a_draft_survives_a_server_restart(tmp_path):
    db, port = tmp_path / "club.db", free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(db, port)
    try:
        created = _call(base, "POST", "/api/v1/sessions", {"players": NAMES})
        sid, token = created["id"], created["edit_token"]
        seat = _call(base, "POST", f"/api/v1/sessions/{sid}/seats/0", {})["seat_token"]
        _call(base, "PUT", f"/api/v1/sessions/{sid}/draft/parts/0", {"revision": 0, "deal": 1, **ANNA}, seat)
        _call(base, "PUT", f"/api/v1/sessions/{sid}/draft/parts/1", {"revision": 0, **BORIS}, token)
    finally:
        server.kill()  # no clean shutdown
        server.wait(timeout=10)
    server = _serve(db, port)
    try:
        draft = _call(base, "GET", f"/api/v1/sessions/{sid}/draft")
        assert [s["state"] for s in draft["seats"]] == ["entered", "entered", "waiting"]
        assert draft["seats"][0]["written_by"] == "player" and draft["seats"][1]["written_by"] == "scorer"
        # the seat token still writes its seat, from the revision it last saw
        _call(base, "PUT", f"/api/v1/sessions/{sid}/draft/parts/2", {"revision": 0, **VERA}, token)
        recorded = _call(base, "POST", f"/api/v1/sessions/{sid}/draft/record", {}, token)
        assert recorded["totals"] == {"Anna": 35, "Boris": -35, "Vera": 0}
        answer = _call(base, "PUT", f"/api/v1/sessions/{sid}/draft/parts/0", {"revision": 0, "deal": 2, **ANNA}, seat)
        assert answer["revision"] == 1
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_scorer_discards_the_draft_and_the_seats_stay(app, store):
    sid, token = start_api(app.test_client())
    anna, scorer = phone(app), scorer_phone(app, sid, token)
    take(anna, sid, 0)
    fill_draft(store, sid)
    page = text(scorer.get(f"/s/{sid}/draft"))
    assert 'id="discard-draft"' in page
    response = scorer.post(f"/s/{sid}/draft/discard", data={"csrf_token": CSRF.search(page)[1]})
    assert response.status_code == 303
    draft = store.draft(sid)
    assert draft.parts == {} and draft.seats.keys() == {0} and store.list_deals(sid) == []
    assert 'data-state="waiting"' in text(scorer.get(f"/s/{sid}/draft"))


def test_a_recorded_draft_is_in_the_summary(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    fill_draft(store, sid)
    assert record_draft(scorer, sid)[0].status_code == 303
    summary = text(scorer.get(f"/s/{sid}/summary"))
    assert re.search(r"Anna.{0,400}35", summary, re.S) and re.search(r"Boris.{0,400}[-−]35", summary, re.S)


def test_an_untouched_draft_recorded_as_a_redeal_twice_is_one_deal(client):
    """Nothing was written to the draft: its version is 0 both times; the first record moves it on, so the
    second (a double tap, another scorer phone) is refused instead of storing a second redeal."""
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    first = client.post(f"/api/v1/sessions/{sid}/draft/record", json={"version": 0, "redeal": True}, headers=auth)
    assert first.status_code == 201
    second = client.post(f"/api/v1/sessions/{sid}/draft/record", json={"version": 0, "redeal": True}, headers=auth)
    assert second.status_code == 409
    assert len(client.get(f"/api/v1/sessions/{sid}").get_json()["deals"]) == 1


def test_a_part_written_after_a_discard_is_not_overwritten_by_a_phone_holding_the_old_revision(store):
    """Anna saved revision 1; the scorer discards the draft and writes her part himself. Her phone, still
    at revision 1, is refused (the new part numbers on from the thrown one), not silently let through."""
    session, _ = store.create_session("kunken", RuleSet.preset().to_dict(), ["Anna", "Boris"], None)
    sid = session.id
    assert store.save_part(sid, 0, {"melds": ["A♠ A♥ A♦"]}, revision=0, by="player", deal=1).revision == 1
    store.discard_draft(sid)
    rewritten = store.save_part(sid, 0, {"melds": ["2♥ 3♥ 4♥"]}, revision=0, by="scorer", deal=1)
    assert rewritten.revision == 2
    with pytest.raises(Conflict):
        store.save_part(sid, 0, {"melds": ["K♠ K♥ K♦"]}, revision=1, by="player", deal=1)
    # removed by its writer and written again: the same
    store.save_part(sid, 1, {"melds": ["5♦ 6♦ 7♦"]}, revision=0, by="player", deal=1)
    store.save_part(sid, 1, None, revision=1, by="scorer", deal=1)
    assert store.save_part(sid, 1, {"melds": ["5♣ 6♣ 7♣"]}, revision=0, by="scorer", deal=1).revision == 2
    # recording the deal starts the next one's parts from 1 again
    store.add_deal(sid, {"players": [{"name": "Anna"}, {"name": "Boris"}], "redeal": True})
    assert store.save_part(sid, 0, {"melds": ["A♠ A♥ A♦"]}, revision=0, by="player", deal=2).revision == 1


def test_a_part_page_and_the_draft_page_go_on_after_an_earlier_deal_is_deleted(app, store):
    """The scorer deletes deal 1 while Anna types deal 3: her save is kept (it was refused as "deal 3 has
    already been recorded", and what she typed was lost), and Record on the open draft page is not told
    that a part changed."""
    sid, token = start_api(app.test_client())
    for _ in range(2):
        store.add_deal(sid, {"players": [], "redeal": True})
    anna = phone(app)
    take(anna, sid, 0)
    page = text(anna.get(f"/s/{sid}/draft/0"))
    scorer = scorer_phone(app, sid, token)
    draft_page = text(scorer.get(f"/s/{sid}/draft"))
    store.delete_deal(sid, store.list_deals(sid)[0].id)
    saved = anna.post(f"/s/{sid}/draft/0", data=part_data(page, melds="A♠ A♥ A♦"))
    assert saved.status_code == 200 and "has already been recorded" not in text(saved)
    assert store.draft(sid).parts[0].part["melds"] == ["A♠ A♥ A♦"]
    form = {name: hidden(draft_page, name) for name in ("csrf_token", "version", "deal", "draft", "form_key")}
    form["version"] = str(store.draft(sid).version)  # the page as it is after Anna's save (live refresh)
    recorded = scorer.post(f"/s/{sid}/draft", data={**form, "went_out": "auto", "redeal": "y", "record": "1"})
    assert recorded.status_code == 303, text(recorded)
    assert len(store.list_deals(sid)) == 2


def test_the_draft_record_reads_went_out_as_a_deal_does(client):
    """Spaces around the name are a name's (as in deals/score); blank is nobody; an unknown name is refused."""
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    for body in ({"went_out": " Anna "}, {"went_out": "   "}):
        answer = client.post(f"/api/v1/sessions/{sid}/draft/record", json={**body, "redeal": True}, headers=auth)
        assert answer.status_code == 201, answer.get_json()
    refused = client.post(f"/api/v1/sessions/{sid}/draft/record", json={"went_out": "Vera"}, headers=auth)
    assert refused.status_code == 400 and "went_out" in refused.get_json()["error"]


def test_the_api_names_the_draft_and_a_write_naming_it_survives_an_earlier_deal_deleted(client, store):
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    for _ in range(2):
        assert (
            client.post(f"/api/v1/sessions/{sid}/draft/record", json={"redeal": True}, headers=auth).status_code == 201
        )
    draft = client.get(f"/api/v1/sessions/{sid}/draft").get_json()
    assert (draft["deal"], draft["draft"]) == (3, 2)
    store.delete_deal(sid, store.list_deals(sid)[0].id)
    url = f"/api/v1/sessions/{sid}/draft/parts/0"
    body = {"revision": 0, "deal": 3, "draft": 2, "melds": ["A♠ A♥ A♦"]}
    assert client.put(url, json=body, headers=auth).status_code == 200  # by the number alone: 409
    assert client.put(url, json={**body, "revision": 1, "draft": None}, headers=auth).status_code == 409
    assert client.post(f"/api/v1/sessions/{sid}/draft/record", json={"redeal": True}, headers=auth).status_code == 201
    stale = client.put(url, json={**body, "revision": 0}, headers=auth)
    assert stale.status_code == 409 and stale.get_json()["deal"] == 3
    assert stale.get_json()["error"].startswith("Deal 3 has already been recorded")
    # a part naming its draft only (as docs/api.md suggests) is told the deal it is now for, and no "Deal None"
    only_draft = client.put(url, json={"revision": 0, "draft": 2, "melds": ["A♠ A♥ A♦"]}, headers=auth)
    assert only_draft.status_code == 409 and only_draft.get_json() == {
        "error": "The deal of this draft has already been recorded (or the deals changed): nothing was saved. "
        "The draft is now for deal 3.",
        "deal": 3,
    }
    russian = client.put(url, json={"revision": 0, "draft": 2}, headers={**auth, "Accept-Language": "ru"})
    assert "None" not in russian.get_json()["error"] and "партии 3" in russian.get_json()["error"]


# -- the scorer's draft page: what each seat entered, and whether the deal is ready (issue 36) ----------------


def _seat_html(page: str, seat: int) -> str:
    end = r'(?=<li class="seat |</ul>\s*</section>)'
    return re.search(rf'<li class="seat [^"]*" id="seat-{seat}".*?{end}', page, re.S)[0]


def _record_button(page: str) -> str:
    return re.search(r'<input [^>]*id="record-draft"[^>]*>', page)[0]


def test_the_draft_page_shows_each_part_whole_vists_swaps_and_the_hand_as_entered(app, store):
    sid, token = start_api(app.test_client(), ["Anna", "Boris", "Vera", "Gosha"])
    scorer = scorer_phone(app, sid, token)
    parts = (
        {"melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "meld": 0, "cards": "5♦"}], "hand": "K♣ 5♥"},
        {"melds": ["2♦ 3♦ 4♦", "7♣ JK 9♣"], "hand": {"points": 40, "jokers": 1}},
        {"melds": ["7♠ 8♠ 9♠"], "swaps": [{"from": "Boris", "meld": 1, "card": "8♣"}]}
        | {"hand": {"small": 2, "jokers": 1}},
        {"melds": ["Q♥ Q♠ Q♦"], "hand": ""},
    )
    for seat, part in enumerate(parts):
        store.save_part(sid, seat, read_part(part), revision=0, by="player")
    page = text(scorer.get(f"/s/{sid}/draft"))
    anna, boris, vera, gosha = (" ".join(re.sub(r"<[^>]+>", "", _seat_html(page, seat)).split()) for seat in range(4))
    assert "Vists: Boris 1: 5♦" in anna and "In hand: K♣ 5♥" in anna
    assert "Melds: 2♦ 3♦ 4♦ · 7♣ JK 9♣" in boris and "In hand: 40 points, 1 joker" in boris
    assert "Joker swaps: Boris 2: 8♣" in vera and "In hand: 2–10 ×2 · Jokers ×1" in vera
    assert "In hand: no cards" in gosha and "✓ entered" in gosha  # his phone said so: he went out
    store.save_part(sid, 3, read_part({"melds": ["Q♥ Q♠ Q♦"]}), revision=1, by="player")  # a hand never sent
    page = text(scorer.get(f"/s/{sid}/draft"))
    gosha = " ".join(re.sub(r"<[^>]+>", "", _seat_html(page, 3)).split())
    assert "In hand: ✗ not entered" in gosha and "✗ hand not entered" in gosha and "✓" not in gosha
    assert "Gosha: cards left in hand not entered — type them, or mark who went out." in gosha
    store.save_part(
        sid, 0, read_part({"melds": ["A♠ A♥ A♦"], "hand": {"ranks": "9 9 K Q", "jokers": 1}}), revision=1, by="player"
    )
    anna = " ".join(re.sub(r"<[^>]+>", "", _seat_html(text(scorer.get(f"/s/{sid}/draft")), 0)).split())
    assert "In hand: 9 9 K Q JK" in anna  # by rank, as typed


def test_the_record_button_looks_ready_only_when_the_deal_is_and_says_what_is_missing(app, store):
    """Secondary while a part is missing or has a problem, with the names; the went-out player is named only once
    every part is in (Boris's empty hand is no one's going out while Vera's part may be empty too)."""
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    store.save_part(sid, 0, read_part({"melds": ["A♠ A♥ 2♦"], "hand": "K♣"}), revision=0, by="player")
    store.save_part(sid, 1, read_part({"melds": ["2♦ 3♦ 4♦"], "hand": ""}), revision=0, by="player")  # no cards
    page = text(scorer.get(f"/s/{sid}/draft"))
    ready = re.search(r'<p id="draft-ready".*?</p>', page, re.S)[0]
    assert 'data-ready="false"' in ready and "Waiting for the part of Vera." in ready
    assert "Problems in the part of Anna." in ready and "record anyway" not in ready  # not while a part is missing
    assert "secondary" in _record_button(page) and "big" not in _record_button(page)
    assert page.count('id="draft-ready"') == 1  # one line, at the record button
    went_out = re.search(r'<select [^>]*id="went_out".*?</select>', page, re.S)[0]
    assert re.search(r'<option selected value="auto">No cards left: unknown yet</option>', went_out)
    assert "No cards left: Boris" not in page

    store.save_part(sid, 2, read_part({"melds": ["7♠ 8♠ 9♠"], "hand": "5♥"}), revision=0, by="player")
    page = text(scorer.get(f"/s/{sid}/draft"))
    ready = re.search(r'<p id="draft-ready".*?</p>', page, re.S)[0]
    assert "Waiting" not in ready and "Problems in the part of Anna." in ready and "record anyway" in ready
    assert "secondary" in _record_button(page)
    assert '<option selected value="auto">No cards left: Boris</option>' in page  # every part in, one empty hand

    store.save_part(sid, 0, read_part({"melds": ["A♠ A♥ A♦"], "hand": "K♣"}), revision=1, by="scorer")
    page = text(scorer.get(f"/s/{sid}/draft"))
    assert 'data-ready="true"' in page and "big" in _record_button(page) and "secondary" not in _record_button(page)


def test_a_seat_shows_one_main_action_and_its_phone_actions_in_a_disclosure(app):
    sid, token = start_api(app.test_client())
    take(phone(app), sid, 1)
    page = text(scorer_phone(app, sid, token).get(f"/s/{sid}/draft"))
    boris = _seat_html(page, 1)
    assert boris.count('class="button') == 1 and 'id="open-seat-1"' in boris
    phone_actions = re.search(r'<details class="seat-phone" id="seat-phone-1">.*?</details>', boris, re.S)[0]
    assert 'id="move-seat-1"' in phone_actions and 'id="free-seat-1"' in phone_actions
    assert "<summary>Move or free the seat" in phone_actions
    assert 'id="seat-phone-0"' not in page  # a seat no phone holds has nothing to move or free
