"""What moved out of the API's, the seat pages' and the club nights' adapters (issue 34): the version an ``If-Match``
header names and the tables a start form's text names (core), the name at a seat, a move code as sent, a move link's
page, a part as the API writes it, the draft recorded as the API asks, a night started as a request asks and the
night's page (service); and the one table of errors that now answers a seat past the table and a night refused."""

from __future__ import annotations

import pytest
from conftest import API

from kunken_scorer.core.messages import KunkenError, Reason
from kunken_scorer.core.nights import MAX_TABLES_TEXT, tables_from_text
from kunken_scorer.core.reading import IF_MATCH_EXPECTED, read_if_match
from kunken_scorer.core.rules import RuleSet
from kunken_scorer.service import (
    Ask,
    Changed,
    DraftMoved,
    PartSaved,
    PartStale,
    Recorded,
    Waiting,
    draft_end,
    load_draft,
    record_draft,
)
from kunken_scorer.service.nights import NightInputError, night_board, night_page, start_night
from kunken_scorer.service.rounds import SeatingAsk, start_round
from kunken_scorer.service.seats import (
    MAX_MOVE_CODE,
    AskedPart,
    NoSeat,
    asked_move_code,
    asked_part,
    move_link_page,
    name_at,
    record_asked_draft,
    seat_name,
    take_seat,
    waiting_reason,
    write_asked_part,
)
from kunken_scorer.store import NotFound, SessionEnded

KUNKEN = RuleSet.preset()
NAMES = ["Anna", "Boris"]

pytestmark = pytest.mark.lang("en")


def say(reason: Reason) -> str:
    return reason.code


@pytest.fixture
def sid(store):
    return store.create_session("kunken", KUNKEN.to_dict(), NAMES, None)[0].id


# -- the core: an If-Match header, a start form's tables ----------------------------------------------


@pytest.mark.parametrize(
    "header, version",
    [(None, None), ("", None), ("  ", None), ("*", None), (" * ", None), ("7", 7), ('"7"', 7), ('W/"12"', 12)],
)
def test_an_if_match_header_names_a_version_or_none(header, version):
    assert read_if_match(header) == version


@pytest.mark.parametrize("header", ["abc", '"-1"', "٣", "²", "1" * 13, '"1 2"', "W/"])
def test_an_if_match_header_naming_no_whole_number_is_refused_with_its_message_id(header):
    with pytest.raises(ValueError) as refused:
        read_if_match(header)
    assert str(refused.value) == IF_MATCH_EXPECTED == "If-Match: expected the score sheet's version, a whole number."


def test_a_start_forms_text_is_a_table_a_line_names_parted_by_commas():
    assert tables_from_text("Anna, Boris\n\n  \nVera,, Gosha ,\r\nDima") == [
        ["Anna", " Boris"],
        ["Vera", " Gosha "],
        ["Dima"],
    ]
    assert tables_from_text("") == [] and tables_from_text("\n \n") == []
    assert tables_from_text(" , \n") == [[]]  # a table with no names: ``night_tables`` says so
    assert MAX_TABLES_TEXT == 12_000


# -- the service: the name at a seat, a move code, a move link's page --------------------------------


def test_the_name_at_a_seat_or_no_seat(store, sid):
    assert name_at(NAMES, 1) == "Boris" and seat_name(store, sid, 0) == "Anna"
    for seat in (2, -1):
        with pytest.raises(NoSeat) as refused:
            name_at(NAMES, seat)
        assert refused.value.seat == seat
    with pytest.raises(NoSeat):
        seat_name(store, sid, 2)
    with pytest.raises(NotFound):
        seat_name(store, "nope", 0)


@pytest.mark.parametrize("code, read", [(None, None), ("", None), ("  ", None), (" 123 456\n", "123456")])
def test_a_move_code_as_sent_loses_its_spaces(code, read):
    assert asked_move_code(code) == read


@pytest.mark.parametrize("code", [123456, True, ["123456"], "1" * (MAX_MOVE_CODE + 1)])
def test_a_move_code_that_is_no_text_or_too_long_is_refused_by_name(code):
    with pytest.raises(KunkenError) as refused:
        asked_move_code(code)
    assert str(refused.value) == "move_code: expected the seat's move code, as text."


def test_a_move_links_page_names_its_seat_and_whether_this_phone_holds_it(store, sid):
    token = take_seat(store, sid, 1, token=None, scorer=False, move=None).token
    made = store.new_move_code(sid, 1, token)
    assert made is not None
    stranger = move_link_page(store, sid, made.link, claimed=(None, None))
    assert (stranger.seat, stranger.name, stranger.mine) == (1, "Boris", False)
    holder = move_link_page(store, sid, made.link, claimed=(1, token))
    assert (holder.seat, holder.name, holder.mine) == (1, "Boris", True)
    assert not move_link_page(store, sid, made.link, claimed=(1, "another token")).mine
    for link in ("no-such-link", "x" * (MAX_MOVE_CODE + 1)):
        unknown = move_link_page(store, sid, link, claimed=(1, token))
        assert (unknown.seat, unknown.name, unknown.mine) == (None, None, False)
    with pytest.raises(NotFound):
        move_link_page(store, "nope", made.link, claimed=(None, None))


# -- the service: a part as the API writes it --------------------------------------------------------


def test_a_part_as_the_api_writes_it_is_read_into_its_revision_deal_draft_and_part():
    asked = asked_part({"revision": 2, "deal": 1, "draft": 3, "melds": ["тп тч тб"], "hand": "K♠"}, KUNKEN)
    assert asked == AskedPart({"melds": ["A♠ A♥ A♦"], "vists": [], "swaps": [], "hand": "K♠"}, 2, 1, 3)
    assert asked_part({"revision": 0}, KUNKEN) == AskedPart(
        {"melds": [], "vists": [], "swaps": [], "hand": None},
        0,
        None,
        None,  # a hand left out: not entered
    )


@pytest.mark.parametrize(
    "body, message",
    [
        ({"melds": []}, "missing_field"),
        ({"revision": -1}, "bad_field"),
        ({"revision": 0, "deal": "1"}, "bad_field"),
        ({"revision": 0, "draft": True}, "bad_field"),
        ({"revision": 0, "hand": "11♥"}, None),
    ],
)
def test_a_part_that_does_not_read_is_refused_naming_the_field(body, message):
    with pytest.raises(KunkenError) as refused:
        asked_part(body, KUNKEN)
    assert message is None or refused.value.code == message


def test_a_part_written_is_saved_and_the_draft_read_again(store, sid):
    draft = load_draft(store, sid)
    saved, fresh = write_asked_part(store, draft, 0, AskedPart({"melds": ["A♠ A♥ A♦"]}, 0, 1), by="scorer")
    assert saved == PartSaved(1) and fresh.parts[0].revision == 1 and fresh.version != draft.version
    stale, now = write_asked_part(store, draft, 0, AskedPart({"hand": "K♠"}, 0, 1), by="player")
    assert stale == PartStale("scorer") and now.parts[0].part["melds"] == ["A♠ A♥ A♦"]
    moved, _ = write_asked_part(store, fresh, 1, AskedPart({"hand": "K♠"}, 0, 5, None), by="scorer")
    assert moved == DraftMoved(1)


# -- the service: the draft recorded as the API asks --------------------------------------------------


def test_the_draft_is_recorded_as_the_api_asks(store, sid):
    session = store.get_session(sid)
    waiting = record_asked_draft(store, session, {}, Ask(), say)
    assert isinstance(waiting, Waiting) and waiting.players == ("Anna", "Boris")
    assert waiting_reason(waiting) == Reason("draft_waiting", {"players": "Anna, Boris"})
    draft = load_draft(store, sid)
    write_asked_part(store, draft, 0, AskedPart({"melds": ["A♠ A♥ A♦"]}, 0), by="scorer")
    write_asked_part(store, draft, 1, AskedPart({"hand": "K♠"}, 0), by="scorer")
    stale = record_asked_draft(store, session, {}, Ask(expected=draft.version), say)
    assert isinstance(stale, Changed) and stale.version == load_draft(store, sid).version
    # with no version asked, a part written while the draft is being recorded is a change too (the API says so
    # without a version: "The draft changed while it was being recorded")
    read = load_draft(store, sid)
    write_asked_part(store, read, 1, AskedPart({"hand": "K♠ Q♠"}, 1), by="scorer")
    racing = record_draft(store, read, draft_end(NAMES, "0", False, False), Ask(), say)
    assert isinstance(racing, Changed) and racing.version == load_draft(store, sid).version > read.version
    assert store.list_deals(sid) == []
    with pytest.raises(KunkenError) as refused:
        record_asked_draft(store, session, {"went_out": "Vera"}, Ask(), say)
    assert str(refused.value) == "went_out: expected a player's name or null."
    ask = Ask(key="key-1", digest="d")
    recorded = record_asked_draft(store, session, {"went_out": "Anna"}, ask, say)
    assert isinstance(recorded, Recorded) and recorded.created and recorded.number == 1
    ended = store.end_session(sid)
    again = record_asked_draft(store, ended, {"went_out": "Anna"}, ask, say)
    assert isinstance(again, Recorded) and not again.created  # a retry answers again, although the session ended
    with pytest.raises(SessionEnded):
        record_asked_draft(store, ended, {"went_out": "Anna"}, Ask(key="key-2", digest="d"), say)


# -- the service: a night started as a request asks, and the night's page ----------------------------------


def test_a_night_is_started_only_once_its_tables_read(store):
    allowed = []
    with pytest.raises(NightInputError) as refused:
        start_night(store, KUNKEN, [["Anna", "Boris"], ["anna", "Vera"]], allow=lambda: allowed.append(1))
    assert refused.value.params == {"name": "anna", "table": 2, "other": 1} and allowed == []
    made = start_night(
        store, KUNKEN, [[" Anna ", "Boris"], ["Vera", "Gosha"]], "k" * 32, allow=lambda: allowed.append(1)
    )
    assert made.token is not None and len(made.tables) == 2 and allowed == [1, 1]
    assert [store.get_session(s).players for s, _ in made.tables] == [["Anna", "Boris"], ["Vera", "Gosha"]]
    again = start_night(
        store, KUNKEN, [["Anna", "Boris"], ["Vera", "Gosha"]], "k" * 32, allow=lambda: allowed.append(1)
    )
    assert again.token is None and again.night.id == made.night.id and allowed == [1, 1]


def test_the_nights_page_for_its_owner_and_for_anyone_else(store):
    made = start_night(store, KUNKEN, [["Anna", "Boris"], ["Vera", "Gosha"]])
    assert made.token is not None
    board = night_board(store, made.night.id)
    anyone = night_page(store, board, None)
    assert (anyone.owner, anyone.tokens, anyone.repeats, anyone.board) == (False, {}, None, board)
    assert not night_page(store, board, "another token").owner
    owner = night_page(store, board, made.token)
    assert owner.owner and owner.tokens == dict(made.tables) and owner.repeats is None
    assert start_round(store, made.night.id, made.token, 2, SeatingAsk()) is not None
    assert (
        start_round(store, made.night.id, made.token, 2, SeatingAsk()) is None
    )  # round 2 again: it has started, nothing made
    with pytest.raises(NightInputError):
        start_round(store, made.night.id, made.token, 4, SeatingAsk())  # round 3 comes first
    assert len(night_board(store, made.night.id).rounds) == 2
    later = night_page(store, night_board(store, made.night.id), made.token)
    assert later.repeats is not None and later.repeats >= 0 and len(later.tokens) == 4


# -- the web: the one table of errors answers what moved ------------------------------------------------


def test_a_seat_past_the_table_is_a_404_in_words_for_the_api_and_the_404_page_for_a_page(client):
    session = client.post(f"{API}/sessions", json={"players": NAMES}).get_json()
    bearer = {"Authorization": f"Bearer {session['edit_token']}"}
    for method, path in (("post", "seats/2"), ("post", "seats/2/move"), ("delete", "seats/2")):
        response = getattr(client, method)(f"{API}/sessions/{session['id']}/{path}", headers=bearer)
        assert response.status_code == 404
        assert response.get_json() == {"error": "This score sheet has no seat 2 (seats are counted from 0)."}
    response = client.put(f"{API}/sessions/{session['id']}/draft/parts/5", json={"revision": 0}, headers=bearer)
    assert response.status_code == 404 and "no seat 5" in response.get_json()["error"]
    page = client.get(f"/s/{session['id']}/draft/2")
    assert page.status_code == 404 and "There is no such page or session." in page.get_data(as_text=True)


def test_a_night_refused_is_a_400_in_words_for_the_api(client):
    response = client.post(f"{API}/nights", json={"tables": [["Anna", "Boris"], ["Vera"]]})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("Table 2: ")
    response = client.post(f"{API}/nights", json={"tables": []})
    assert response.get_json() == {"error": "Name the players of at least one table."}
