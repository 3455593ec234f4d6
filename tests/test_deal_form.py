"""Recording and editing a deal on the table's deal form, through the test client with CSRF on:
Check and Save, the preview, errors next to their fields, conflicts between phones, notation,
the three ways of entering hands, swap and vist lines, the keypad's lists, and the plain form
that works without JavaScript."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from conftest import (
    API,
    GOOD,
    SWAP_DEAL,
    SWAP_FORM,
    csrf_from,
    deal_data,
    hidden,
    new_session,
    phone,
    post_deal,
    record,
    start,
    submit,
    text,
    totals,
)

from kunken_scorer import Deal, Reason
from kunken_scorer.core.notation import parse_vist_line, read_hand, read_vist_lines, vist_line
from kunken_scorer.core.reading import MAX_NOTE
from kunken_scorer.core.rules import RuleSet

pytestmark = pytest.mark.lang("en")  # the `client` fixture reads the pages in English

# -- recording deals -------------------------------------------------------------------------


def test_full_flow_record_a_deal_and_see_the_totals(client, store):
    sid = start(client)
    response = record(client, sid)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/s/{sid}")
    page = text(client.get(f"/s/{sid}"))
    assert "Deal 1 saved." in page
    assert totals(page) == {"Anna": 35, "Boris": -5}
    assert re.search(r'id="deal-count" data-count="1"', page)
    assert re.search(r'id="next-dealer">Boris<', page)
    assert (
        '<td class="num" data-score="35"><b>35</b><small>+35 −0</small><small class="went-out">'
        '<span aria-hidden="true">★</span><span class="visually-hidden">went out</span></small></td>' in page
    )
    assert '<p class="legend muted" aria-hidden="true"><span class="went-out">★</span> went out</p>' in page
    assert len(store.list_deals(sid)) == 1


def test_check_shows_the_preview_with_jokers_and_scores_and_stores_nothing(client, store):
    sid = start(client)
    players = {0: ("5♥ JK 7♥\nA♠ A♥ A♦", "", ""), 1: ("2♣ 3♣ 4♣", "", "K♣")}
    response = record(client, sid, players, button="check")
    page = text(response)
    assert response.status_code == 200
    assert 'id="preview"' in page and 'data-valid="true"' in page
    assert 'data-stands-for="6♥"' in page
    assert re.search(r'<tr data-player="Anna">.*?data-score="45"', page, re.S)
    assert re.search(r'<tr data-player="Boris">.*?data-plus="15".*?data-minus="10"', page, re.S)
    assert store.list_deals(sid) == []
    assert "5♥ JK 7♥" in page  # the form keeps what was typed


def test_illegal_meld_shows_its_reason_next_to_the_field_and_stores_nothing(client, store):
    sid = start(client)
    players = {0: ("K♦ K♦ K♥", "", ""), 1: ("2♥ 3♥ 4♥", "", "5♣")}
    response = record(client, sid, players)
    page = text(response)
    assert response.status_code == 422
    errors = re.search(r'<ul class="errors" id="players-0-melds-errors">(.*?)</ul>', page, re.S)[1]
    assert "two copies of the same card" in errors and 'data-code="illegal_meld"' in errors
    assert 'id="override-errors"' in page
    assert store.list_deals(sid) == []


def test_record_anyway_needs_a_note_and_the_note_shows_in_history(client, store):
    sid = start(client)
    players = {0: ("K♦ K♦ K♥", "", ""), 1: ("2♥ 3♥ 4♥", "", "5♣")}
    response = record(client, sid, players, override=True)
    assert response.status_code == 422 and 'id="note-errors"' in text(response)
    assert store.list_deals(sid) == []
    response = record(client, sid, players, override=True, note="   ")
    assert response.status_code == 422 and store.list_deals(sid) == []
    response = record(client, sid, players, override=True, note="Vera <b>swears</b> it was two decks")
    assert response.status_code == 303
    deal = store.list_deals(sid)[0]
    assert deal.override and deal.note == "Vera <b>swears</b> it was two decks"
    session_page = text(client.get(f"/s/{sid}"))
    assert "Vera &lt;b&gt;swears&lt;/b&gt; it was two decks" in session_page
    assert "recorded anyway" in session_page
    history = text(client.get(f"/s/{sid}/history"))
    assert "Vera &lt;b&gt;swears&lt;/b&gt; it was two decks" in history and 'data-action="record"' in history


def test_double_submit_with_the_same_form_key_stores_once(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = {**deal_data(page, GOOD, "Anna"), "save": "1"}
    first = client.post(f"/s/{sid}/deals/new", data=data)
    second = client.post(f"/s/{sid}/deals/new", data=data)
    assert first.status_code == second.status_code == 303
    assert len(store.list_deals(sid)) == 1
    assert "was already saved" in text(client.get(f"/s/{sid}"))


def test_each_render_of_the_form_has_its_own_key(client):
    sid = start(client)
    first = hidden(text(client.get(f"/s/{sid}/deals/new")), "form_key")
    second = hidden(text(client.get(f"/s/{sid}/deals/new")), "form_key")
    assert first != second


def test_a_new_deal_from_a_stale_form_gets_a_conflict_then_may_be_saved(client, store, app):
    sid = start(client)
    other = phone(app)
    other.get(f"/s/{sid}/scorer/{client.get_cookie(f'kunken_edit_{sid}').value}")
    stale = text(client.get(f"/s/{sid}/deals/new"))
    assert record(other, sid).status_code == 303
    players = {0: ("Q♠ Q♥ Q♦", "", ""), 1: ("", "", "2♠")}
    response = client.post(f"/s/{sid}/deals/new", data={**deal_data(stale, players, "Anna"), "save": "1"})
    page = text(response)
    assert response.status_code == 409 and 'id="conflict"' in page and "Nothing was saved" in page
    assert "Q♠ Q♥ Q♦" in page  # the form data is kept
    assert len(store.list_deals(sid)) == 1
    again = client.post(f"/s/{sid}/deals/new", data={**deal_data(page, players, "Anna"), "save": "1"})
    assert again.status_code == 303 and len(store.list_deals(sid)) == 2


def test_two_phones_editing_the_same_deal_get_a_conflict_message(client, store, app):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    other = phone(app)
    other.get(f"/s/{sid}/scorer/{client.get_cookie(f'kunken_edit_{sid}').value}")
    url = f"/s/{sid}/deals/{deal_id}/edit"
    mine, theirs = text(client.get(url)), text(other.get(url))
    assert "A♠ A♥ A♦" in mine and "Boris: 5♥" in mine
    their_change = {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}
    assert other.post(url, data={**deal_data(theirs, their_change, "Anna"), "save": "1"}).status_code == 303
    my_change = {0: ("A♠ A♥ A♦ A♣", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}
    response = client.post(url, data={**deal_data(mine, my_change, "Anna"), "save": "1"})
    page = text(response)
    assert response.status_code == 409 and 'id="conflict"' in page and "changed on another phone" in page
    assert "A♠ A♥ A♦ A♣" in page
    stored = store.get_deal(sid, deal_id)
    assert stored.record["players"][1]["hand"] == "K♣" and stored.revision == 2


def test_edit_a_deal_and_a_double_tap_on_save_is_not_a_conflict(client, store):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    url = f"/s/{sid}/deals/{deal_id}/edit"
    page = text(client.get(url))
    data = {**deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}, "Anna"), "save": "1"}
    assert client.post(url, data=data).status_code == 303
    assert client.post(url, data=data).status_code == 303
    assert totals(text(client.get(f"/s/{sid}"))) == {"Anna": 30, "Boris": 5}
    assert store.get_deal(sid, deal_id).revision == 2


def test_russian_notation_typed_in_the_form_works(client, store):
    sid = start(client, ["Анна", "Борис"])
    players = {0: ("Тп Тч Тб", "борис: 5ч", ""), 1: ("2ч 3ч 4ч", "", "Кт Дж")}
    response = record(client, sid, players, went_out="Анна")
    assert response.status_code == 303, text(response)
    record_ = store.list_deals(sid)[0].record
    assert record_["players"][0]["melds"] == ["A♠ A♥ A♦"]
    assert record_["players"][0]["vists"] == [{"to": "Борис", "meld": None, "cards": "5♥"}]
    assert record_["players"][1]["hand"] == "K♣ JK"
    assert totals(text(client.get(f"/s/{sid}"))) == {"Анна": 35, "Борис": -5}


def test_russian_page_shows_russian_ranks_on_the_keypad(client):
    sid = start(client)
    client.set_cookie("lang", "ru")
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert re.search(r'data-rank="K"[^>]*>К<', page) and re.search(r'data-rank="A"[^>]*>Т<', page)
    client.set_cookie("lang", "en")
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert re.search(r'data-rank="K"[^>]*>K<', page)


def test_a_bad_card_or_vist_line_is_an_error_naming_the_line(client, store):
    sid = start(client)
    players = {0: ("A♠ A♥ A♦\n11♥ 12♥ 13♥", "Vera: 5♥\nBoris 5♥", ""), 1: ("", "", "K♣ Zz")}
    page = text(record(client, sid, players))
    melds = re.search(r'id="players-0-melds-errors">(.*?)</ul>', page, re.S)[1]
    assert "Line 2" in melds and "11♥" in melds
    vists = re.search(r'id="players-0-vists-errors">(.*?)</ul>', page, re.S)[1]
    assert "Line 1" in vists and "Vera" in vists and "Line 2" in vists
    assert "Zz" in re.search(r'id="players-1-hand-errors">(.*?)</ul>', page, re.S)[1]
    assert store.list_deals(sid) == []


def test_vist_problems_and_deal_wide_problems_are_placed(client):
    sid = start(client)
    players = {0: ("A♠ A♥ A♦", "Boris 3: 5♥", "2♠"), 1: ("2♥ 3♥ 4♥", "", "5♦")}
    page = text(record(client, sid, players, went_out="Anna", button="check"))
    assert 'data-code="vist_no_meld"' in re.search(r'id="players-0-vists-errors">(.*?)</ul>', page, re.S)[1]
    assert 'data-code="went_out_with_cards"' in re.search(r'id="players-0-hand-errors">(.*?)</ul>', page, re.S)[1]
    page = text(record(client, sid, GOOD, went_out="", button="check", express=True))
    assert 'data-code="express_without_going_out"' in re.search(r'id="express-errors">(.*?)</ul>', page, re.S)[1]


def test_oversized_fields_get_a_form_error(client, store):
    sid = start(client)
    players = {0: ("A♠ " * 1000, "", ""), 1: ("", "", "")}
    response = record(client, sid, players, note="x" * 1001)
    page = text(response)
    assert response.status_code == 422
    assert 'id="players-0-melds-errors"' in page and 'id="note-errors"' in page
    assert store.list_deals(sid) == []


def test_a_redeal_ignores_the_cards_and_scores_nothing(client, store):
    sid = start(client)
    response = record(client, sid, {0: ("junk that does not parse", "", ""), 1: ("", "", "")}, went_out="", redeal=True)
    assert response.status_code == 303
    page = text(client.get(f"/s/{sid}"))
    assert totals(page) == {"Anna": 0, "Boris": 0} and "redeal" in page
    assert store.list_deals(sid)[0].record["redeal"] is True


def test_vist_line_syntax():
    names = ["Anna", "Anna Maria", "R2"]
    assert parse_vist_line("anna maria 2: 5♥", names) == {"to": "Anna Maria", "meld": 1, "cards": "5♥"}
    assert parse_vist_line("Anna #3: 5h 6h", names) == {"to": "Anna", "meld": 2, "cards": "5♥ 6♥"}
    assert parse_vist_line("R2: Тп", names) == {"to": "R2", "meld": None, "cards": "A♠"}
    # a name whose case folding is longer than itself ("ß" folds to "ss")
    assert parse_vist_line("STRASSE 1: 5h", ["Straße"]) == {"to": "Straße", "meld": 0, "cards": "5♥"}


def test_a_number_too_long_to_read_is_a_reason_not_a_crash():
    """int() refuses more than 4,300 digits: the notation reads at most 9 and says what it could not read."""
    assert [r.code for r in read_hand("1" * 5000, RuleSet.preset())[1]] == ["no_such_rank"]
    vists, reasons = read_vist_lines("Boris " + "1" * 5000 + ": 5♥", ["Anna", "Boris"])
    assert vists == [] and [r.params["why"].code for r in reasons] == ["vist_unknown_player"]
    vists, reasons = read_vist_lines("Boris 123456789: 5♥\nBoris 40: 5♥\nBoris 41: 6♥", ["Anna", "Boris"])
    assert vists == [{"to": "Boris", "meld": 39, "cards": "5♥"}]
    assert [(r.params["n"], r.params["why"]) for r in reasons] == [
        (1, Reason("vist_meld_from_one", {"limit": 40})),
        (3, Reason("vist_meld_from_one", {"limit": 40})),
    ]


def test_a_meld_number_past_the_last_is_explained_as_the_form_counts(client, store):
    sid = start(client)
    page = text(record(client, sid, {0: ("A♠ A♥ A♦", "Boris 50: 5♥", ""), 1: ("2♥ 3♥ 4♥", "", "")}))
    vists = re.search(r'id="players-0-vists-errors">(.*?)</ul>', page, re.S)[1]
    assert "melds are numbered from 1 to 40" in vists and "null" not in page and "counted from 0" not in page
    assert store.list_deals(sid) == []


def test_a_vist_to_boris_meld_2_survives_editing_beside_a_player_called_boris_2():
    """With players "Boris" and "Boris 2", meld 2 of Boris is written back unambiguously."""
    names = ["Anna", "Boris", "Boris 2"]
    to_meld = {"to": "Boris", "meld": 1, "cards": "5♥"}
    to_player = {"to": "Boris 2", "meld": None, "cards": "7♣"}
    for vist in (to_meld, to_player):
        assert parse_vist_line(vist_line(vist, names), names) == vist


@pytest.mark.parametrize(
    "names",
    [
        ["Anna", "Anna 2", "Anna #2"],
        ["B #1", "B 1", "B"],
        ["Anna", "anna 2", "ANNA #2", "Anna № 2"],
        ["Vera", "Vera 10", "Vera #10", "Vera 1"],
    ],
)
def test_every_vist_and_swap_line_reads_back_as_written_whatever_the_names(names):
    """Writing a stored vist (or swap) into the form and reading it back gives the same player and meld,
    even when other players are called "Anna 2" and "Anna #2" (an unchanged edit once moved points)."""
    for to in names:
        for meld in (None, 0, 1, 9):
            vist = {"to": to, "meld": meld, "cards": "5♥"}
            assert parse_vist_line(vist_line(vist, names), names) == vist, (to, meld)


def test_an_unchanged_edit_changes_nothing_beside_players_named_like_meld_numbers(client, store):
    session = new_session(client, players=("Anna", "Anna 2", "Anna #2"))
    body = {
        "players": [
            {"name": "Anna", "melds": ["2♥ 3♥ 4♥", "K♠ K♣ JK"], "hand": ""},
            {
                "name": "Anna 2",
                "melds": ["5♦ 6♦ 7♦"],
                "vists": [{"to": "Anna", "meld": 0, "cards": "5♥"}],
                "hand": "JK",
            },
            {"name": "Anna #2", "melds": ["K♠ K♣ JK"], "hand": "3♣"},
        ],
        "swaps": [{"by": "Anna 2", "from": "Anna", "meld": 1, "card": "K♦"}],
        "went_out": "Anna",
    }
    assert post_deal(client, session, body).status_code == 201
    sid = session["id"]
    path = "/" + session["edit_url"].split("://", 1)[1].split("/", 1)[1]
    client.get(path)  # the scorer link: this phone may edit
    before = store.list_deals(sid)[0]
    url = f"/s/{sid}/deals/{before.id}/edit"
    page = text(client.get(url))
    data = {name: hidden(page, name) for name in ("csrf_token", "expected", "form_key", "hand_mode")}
    for i in range(3):
        for key in ("melds", "vists", "swaps"):
            found = re.search(rf'id="players-{i}-{key}"[^>]*>(.*?)</textarea>', page, re.S)
            data[f"players-{i}-{key}"] = htmllib.unescape(found[1]) if found else ""
        data[f"players-{i}-hand"] = hidden(page, f"players-{i}-hand")
    data["went_out"] = "Anna"
    data["save"] = "1"
    assert client.post(url, data=data).status_code == 303
    after = store.list_deals(sid)[0]
    assert after.record["swaps"] == before.record["swaps"]
    assert after.record["players"][1]["vists"] == before.record["players"][1]["vists"]


@pytest.mark.parametrize(
    "field, value",
    [
        ("went_out", "Nobody-at-all"),
        ("expected", "abc"),
        ("form_key", "x"),
        ("players-0-melds", "\x00\x01"),
        ("players-0-vists", ":::"),
        ("players-1-hand", "JK=JK"),
        ("players-5-melds", "A♠ A♥ A♦"),
        ("players-0-small", "9" * 400),  # a count past float's range
        ("players-1-hand", "1" * 5000),  # points past int()'s 4,300 digits
        ("players-0-vists", "Boris " + "1" * 5000 + ": 5♥"),  # a meld number as long
        ("players-0-swaps", "Boris " + "1" * 5000 + ": K♦"),
    ],
)
def test_hostile_deal_input_never_gives_a_500(client, store, field, value):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    for button in ("check", "save"):
        data = {**deal_data(page, GOOD, "Anna"), button: "1", field: value}
        response = client.post(f"/s/{sid}/deals/new", data=data)
        assert response.status_code < 500
    assert len(store.list_deals(sid)) <= 1


# -- the plain form (no JavaScript) -------------------------------------------------------------


def counts_data(page: str, counts: dict, melds: dict, went_out: str = "") -> dict:
    data = deal_data(page, {i: (melds.get(i, ""), "", "") for i in range(2)}, went_out)
    data["hand_mode"] = "counts"
    for i, values in counts.items():
        for key, value in values.items():
            data[f"players-{i}-{key}"] = str(value)
    return data


def test_hands_by_counts_are_recorded_as_counts(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = counts_data(page, {1: {"small": 2, "faces": 1, "aces": 1, "jokers": 1}}, {0: "A♠ A♥ A♦"}, "Anna")
    response = client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"})
    assert response.status_code == 303, text(response)
    record = store.list_deals(sid)[0].record
    assert record["players"][1]["hand"] == {"small": 2, "faces": 1, "aces": 1, "jokers": 1}
    # Anna went out: no count entered is her hand of no cards, which the record keeps as ""
    assert record["players"][0]["hand"] == ""
    # 2 × 5 + 10 + 10 + a joker's 10
    assert re.search(r'data-player="Boris"[^>]*>.*?data-total="-40"', text(client.get(f"/s/{sid}")), re.S)
    # how hands are entered is the session's setting (the start form's, by rank), not the deal form's
    assert store.get_session(sid).hand_entry == "ranks"
    assert hidden(text(client.get(f"/s/{sid}/deals/new")), "hand_mode") == "ranks"


def test_numbers_too_long_to_be_numbers_are_explained_next_to_their_field(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = {**counts_data(page, {1: {"aces": "9" * 400}}, {0: "A♠ A♥ A♦"}, "Anna"), "save": "1"}
    response = client.post(f"/s/{sid}/deals/new", data=data)
    assert response.status_code == 422 and "Enter a whole number." in text(response)
    data = {**deal_data(page, GOOD, "Anna"), "players-1-hand": "1" * 5000, "save": "1"}
    response = client.post(f"/s/{sid}/deals/new", data=data)
    assert response.status_code == 422 and "Too long: at most 500 characters." in text(response)
    assert store.list_deals(sid) == []


def test_a_count_out_of_range_is_explained_next_to_it(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    response = client.post(
        f"/s/{sid}/deals/new", data={**counts_data(page, {1: {"aces": 9}}, {0: "A♠ A♥ A♦"}, "Anna"), "save": "1"}
    )
    assert response.status_code == 422
    assert 'id="players-1-aces-errors"' in text(response)
    assert store.list_deals(sid) == []


def test_the_start_form_chooses_how_hands_are_entered(client, store):
    sid = start(client, hand_entry="points")
    assert store.get_session(sid).hand_entry == "points"
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert hidden(page, "hand_mode") == "points"
    hand = re.search(r'<input[^>]*id="players-0-hand"[^>]*>', page)[0]
    assert "data-keypad-points" in hand and 'data-keypad-kind="hand"' in hand


@pytest.mark.parametrize("mode", ["points", "cards"])
def test_a_hand_that_is_neither_cards_nor_points_is_told_the_way_the_table_enters_hands(client, store, mode):
    """Entering points, "abc" is answered with how to write points; entering cards, with the card error."""
    sid = start(client, hand_entry=mode)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "abc")}, "Anna", hand_mode=mode)
    answer = client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"})
    assert answer.status_code == 422
    errors = re.search(r'id="players-1-hand-errors".*?</ul>', text(answer), re.S)[0]
    if mode == "points":
        assert "whole number" in errors and "35 JK" in errors and "no such" not in errors
    else:
        assert "abc" in errors and "whole number" not in errors
    assert store.list_deals(sid) == []


def test_ordered_rummy_offers_no_express(client):
    """Ordered rummy has no express: the deal form does not offer one (ticking it was only ever a problem)."""
    sid = start(client, players=("Ann", "Bob"), game="ordered-rummy", shown="ordered-rummy")
    assert 'name="express"' not in text(client.get(f"/s/{sid}/deals/new"))
    kunken = start(client)
    assert 'name="express"' in text(client.get(f"/s/{kunken}/deals/new"))


def test_ordered_rummy_offers_no_counts(client, store):
    sid = start(client, players=("Ann", "Bob"), game="ordered-rummy", shown="ordered-rummy", hand_entry="counts")
    assert store.get_session(sid).hand_entry is None  # counts are not a way for this game
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert hidden(page, "hand_mode") == "ranks"  # the default: by rank
    assert 'value="counts"' not in text(client.get(f"/s/{sid}"))  # nor does the session's setting offer counts


def test_the_preview_shows_no_points_for_an_illegal_meld_and_marks_the_express(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦\nK♠ K♠ K♥", "", ""), 1: ("", "", "2♣")}, "Anna", express=True)
    response = client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"})
    checked = text(response)
    verdicts = re.findall(r'<li class="verdict (ok|bad)"[^>]*data-points="(\d+)"', checked)
    assert verdicts == [("ok", "30"), ("bad", "0")]
    assert 'data-plus="60"' in checked  # the legal set only, doubled by the express
    # the number shown is the one that counts (no "60×2" a card player reads as 120); the doubling is said once
    assert "×2</span>" not in checked and 'class="times"' not in checked
    assert re.search(r'id="express-note">Express by Anna: every plus and minus is doubled \(×2\)', checked)


def test_an_edit_shows_the_cards_in_the_page_notation(app, store):
    russian = app.test_client()
    russian.set_cookie("lang", "ru")
    sid = start(russian)
    page = text(russian.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}, "Anna")
    assert russian.post(f"/s/{sid}/deals/new", data={**data, "save": "1"}).status_code == 303
    deal = store.list_deals(sid)[0]
    edit = text(russian.get(f"/s/{sid}/deals/{deal.id}/edit"))
    assert "Т♠ Т♥ Т♦</textarea>" in edit
    assert "Boris: 5♥</textarea>" in edit
    assert hidden(edit, "players-1-hand") == "К♣ Дж"


def test_the_keypad_lists_the_melds_on_the_table_as_vist_and_swap_targets(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ JK 4♥", "", "")})
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    picks = re.findall(r'data-kind="(vists|swaps)" data-seat="\d+" data-insert="([^"]*)"', checked)
    assert ("vists", "Anna 1: ") in picks and ("vists", "Boris 1: ") in picks
    assert ("swaps", "Boris 1: ") in picks and ("swaps", "Anna 1: ") not in picks  # only melds with a joker
    assert ("vists", "Anna: ") in picks and ("vists", "Boris: ") in picks


def test_the_went_out_suggestion_is_the_one_empty_hand(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "2♣")})
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert 'data-went-out-suggestion="Anna"' in checked
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "")})
    both_empty = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert 'data-went-out-suggestion=""' in both_empty


# -- edits, counts and odd input ----------------------------------------------------------------


def test_an_edit_shows_hands_as_they_were_entered_whatever_the_table_uses_now(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "35 JK")}, "Anna")
    assert client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"}).status_code == 303
    store.set_hand_entry(sid, "counts")  # the table has since moved to counts
    deal = store.list_deals(sid)[0]
    edit = text(client.get(f"/s/{sid}/deals/{deal.id}/edit"))
    assert hidden(edit, "hand_mode") == "points"
    assert hidden(edit, "players-1-hand") == "35 JK"


def test_a_mixed_deal_comes_back_as_text_and_loses_nothing(client, store):
    session = new_session(client)
    body = {
        "players": [
            {"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
            {"name": "Boris", "hand": {"small": 1, "faces": 1, "aces": 0, "jokers": 1}},
        ],
        "went_out": "Anna",
    }
    assert post_deal(client, session, body).status_code == 201
    client.get("/" + session["edit_url"].split("://", 1)[1].split("/", 1)[1])
    deal = store.list_deals(session["id"])[0]
    edit = text(client.get(f"/s/{session['id']}/deals/{deal.id}/edit"))
    assert hidden(edit, "hand_mode") == "counts"
    body["players"][0]["hand"] = "2♣"
    body["went_out"] = None
    store.update_deal(
        session["id"],
        deal.id,
        Deal.from_dict(body).to_dict(),
        override=False,
        note=None,
        expected_revision=deal.revision,
    )
    edit = text(client.get(f"/s/{session['id']}/deals/{deal.id}/edit"))
    assert hidden(edit, "hand_mode") == "cards"
    assert hidden(edit, "players-0-hand") == "2♣" and hidden(edit, "players-1-hand") == "15 JK"
    assert client.get(f"{API}/sessions/{session['id']}").status_code == 200


def test_in_counts_mode_a_player_out_with_cards_is_told_at_the_counts(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = counts_data(page, {0: {"small": 1}}, {0: "A♠ A♥ A♦"}, "Anna")
    checked = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    errors = re.search(r'id="players-0-small-errors".*?</ul>', checked, re.S)
    assert errors and "went out but still has cards" in errors[0]


def test_counts_left_over_from_another_mode_are_ignored(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "2♣")}, "Anna")
    data.update({"players-1-small": "lots", "players-1-aces": "-3"})
    assert client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"}).status_code == 303
    assert store.list_deals(sid)[0].record["players"][1]["hand"] == "2♣"


def test_a_form_error_names_the_field_as_the_page_does(client):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", "33")}, "Anna")
    answer = text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    assert "players[1]" not in answer and "multiple of 5" in answer


def checked_at_wild_table(client, wild: str, seats: dict, went_out: str) -> str:
    """The deal form of a new Ann-and-Bob ordered-rummy session with ``wild`` wild, checked with ``seats``."""
    sid = start(
        client, players=("Ann", "Bob"), game="ordered-rummy", shown="ordered-rummy", **{"rules-wild_card": wild}
    )
    data = deal_data(text(client.get(f"/s/{sid}/deals/new")), seats, went_out)
    return text(client.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))


def test_a_wild_card_table_takes_wild_cards_as_jokers_in_short_hands_and_picks(client):
    checked = checked_at_wild_table(client, "2♠", {0: ("5♥ 2♠ 7♥", "", ""), 1: ("", "", "35 2♠")}, "Ann")
    assert re.search(r'data-kind="swaps" data-seat="0" data-insert="Ann 1: "', checked)  # the wild card is a joker
    assert "Left in hand: 35 points, 1 joker." in checked


def test_a_wild_card_in_a_meld_is_shown_as_the_card_laid(client):
    """7♠ laid for 6♥ shows as 7♠, not as a printed joker (JK=6♥) that deck does not have; a vist too."""
    checked = checked_at_wild_table(client, "7♠", {0: ("5♥ 7♠ 7♥", "", ""), 1: ("9♣ 10♣ J♣", "Ann: 8♥", "")}, "Bob")
    verdicts = re.sub(r"<[^>]+>", "", re.search(r'id="players-0-melds-verdicts".*?</ol>', checked, re.S)[0])
    assert "5♥ 7♠ 7♥" in verdicts and "JK" not in verdicts
    assert "stands for 6♥" in verdicts
    vist = re.sub(r"<[^>]+>", "", re.search(r'id="players-1-vists-verdicts".*?</ol>', checked, re.S)[0])
    assert "(5♥ 7♠ 7♥ 8♥)" in vist


def test_a_russian_page_names_cards_in_russian_in_its_problems(app):
    russian = app.test_client()
    russian.set_cookie("lang", "ru")
    sid = start(russian)
    page = text(russian.get(f"/s/{sid}/deals/new"))
    data = deal_data(page, {0: ("K♠ K♠ K♥", "", ""), 1: ("2♥ JK 4♥", "", "")})
    answer = text(russian.post(f"/s/{sid}/deals/new", data={**data, "check": "1"}))
    problem = re.search(r'id="players-0-melds-errors".*?</ul>', answer, re.S)[0]
    assert "К♠ К♠ К♥" in problem and "K♠" not in problem  # Cyrillic К: the page's notation


# -- swaps, short hands and warnings on the form ----------------------------------------------


def test_a_swap_and_a_short_hand_typed_in_the_form_are_recorded(client, store):
    sid = start(client)
    response = submit(client, sid, SWAP_FORM, went_out="Anna")
    assert response.status_code == 303, text(response)
    deal = store.list_deals(sid)[0]
    assert deal.record["swaps"] == [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}]
    assert deal.record["players"][1]["hand"] == {"points": 15, "jokers": 0}
    session_page = text(client.get(f"/s/{sid}"))
    assert "Boris swapped K♦ for the joker in meld 1 of Anna" in re.sub(r"<[^>]+>", "", session_page)
    assert 'data-total="20"' in session_page and 'data-total="10"' in session_page


def test_the_swap_and_the_hand_come_back_on_the_edit_page(client, store):
    sid = start(client)
    submit(client, sid, {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "35 JK", "Anna: K♥")}, went_out="Anna")
    deal = store.list_deals(sid)[0]
    page = text(client.get(f"/s/{sid}/deals/{deal.id}/edit"))
    assert hidden(page, "players-1-hand") == "35 JK"
    assert "Anna: K♥</textarea>" in page


def test_a_stored_count_hand_is_shown_as_points_on_the_edit_page(client, store):
    session = new_session(client)
    body = dict(
        SWAP_DEAL,
        players=[
            SWAP_DEAL["players"][0],
            {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": {"small": 1, "aces": 1, "jokers": 1}},
        ],
    )
    assert post_deal(client, session, body).status_code == 201
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"][0]["players"][1]["minus"] == 25
    path = "/" + session["edit_url"].split("://", 1)[1].split("/", 1)[1]
    assert client.get(path).status_code in (302, 303)  # the scorer link: this phone may edit
    stored = store.list_deals(session["id"])[0]
    page = text(client.get(f"/s/{session['id']}/deals/{stored.id}/edit"))
    assert hidden(page, "players-1-hand") == "15 JK"  # 5 + 10 points, one joker


@pytest.mark.parametrize(
    "hand, message",
    [
        ("-5", "whole number"),
        ("3.5", "whole number"),
        ("35 K♠", "only the jokers"),
        ("35 XX", "XX"),
    ],
)
def test_a_bad_short_hand_is_a_form_error(client, store, hand, message):
    sid = start(client)
    response = submit(client, sid, {0: ("2♣ 3♣ 4♣", "", "", ""), 1: ("", "", hand, "")}, went_out="Anna")
    assert response.status_code == 422
    assert message in text(response)
    assert store.list_deals(sid) == []


def test_an_impossible_short_hand_is_explained_next_to_the_hand(client, store):
    sid = start(client)
    response = submit(client, sid, {0: ("2♣ 3♣ 4♣", "", "", ""), 1: ("", "", "33", "")}, went_out="Anna")
    assert response.status_code == 422
    page = text(response)
    assert 'id="players-1-hand-errors"' in page and "multiple of 5" in page
    assert store.list_deals(sid) == []


def test_a_bad_swap_line_is_an_error_naming_the_line(client, store):
    sid = start(client)
    response = submit(client, sid, {0: ("K♠ K♣ JK", "", "", ""), 1: ("5♥ JK 7♥", "", "", "Anna: K♦ K♥")})
    assert response.status_code == 422
    assert "exactly one card" in text(response)
    response = submit(client, sid, {0: ("K♠ K♣ JK", "", "9♦", ""), 1: ("5♥ JK 7♥", "", "", "Anna: K♠")}, "Boris")
    assert response.status_code == 422
    page = text(response)
    assert 'id="players-1-swaps-errors"' in page and "already holds" in page
    assert store.list_deals(sid) == []


def test_warnings_show_on_the_form_and_in_the_history_and_do_not_block(client):
    sid = start(client, players=("Anna", "Boris", "Vera"))
    players = {0: ("9♣ JK J♣", "", "", ""), 1: ("10♣ 10♥ 10♠", "", "2♣", ""), 2: ("10♣ 10♦ 10♠", "", "3♣", "")}
    check = submit(client, sid, players, went_out="Anna", button="check")
    page = text(check)
    assert 'id="deal-warnings"' in page and "laid before the second copy" in page
    assert 'data-valid="true"' in page
    saved = submit(client, sid, players, went_out="Anna")
    assert saved.status_code == 303
    assert 'class="warning" data-code="joker_laid_early"' in text(client.get(f"/s/{sid}"))


def test_the_russian_form_explains_a_bad_hand_in_russian(app):
    phone = app.test_client()
    phone.set_cookie("lang", "ru")
    sid = start(phone)
    response = submit(phone, sid, {0: ("2♣ 3♣ 4♣", "", "", ""), 1: ("", "", "-5", "")}, went_out="Anna")
    assert response.status_code == 422
    assert "целое число" in text(response)


# -- a note's limit, an edit of a deleted deal, a delete without its revision ---------------------


def test_one_note_limit_for_the_api_and_the_form(client, app, store):
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, token = created["id"], created["edit_token"]
    body = {
        "players": [{"name": "Anna", "melds": ["A♠ A♥ 2♦"], "hand": ""}, {"name": "Boris", "hand": "K♣"}],
        "went_out": "Anna",
        "override": True,
        "note": "n" * MAX_NOTE,
    }
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/v1/sessions/{sid}/deals", json=body, headers=auth).status_code == 201
    too_long = client.post(f"/api/v1/sessions/{sid}/deals", json={**body, "note": "n" * (MAX_NOTE + 1)}, headers=auth)
    assert too_long.status_code == 400
    scorer = phone(app)
    scorer.get(f"/s/{sid}/scorer/{token}")
    deal_id = store.list_deals(sid)[0].id
    page = text(scorer.get(f"/s/{sid}/deals/{deal_id}/edit"))
    assert f'maxlength="{MAX_NOTE}"' in page
    data = {
        **deal_data(page, {0: ("A♠ A♥ 2♦", "", ""), 1: ("", "", "K♣")}, "Anna", override=True),
        "note": "n" * MAX_NOTE,
        "save": "1",
    }
    assert scorer.post(f"/s/{sid}/deals/{deal_id}/edit", data=data).status_code == 303  # such a deal can be edited


def test_an_edit_of_a_deal_deleted_meanwhile_keeps_what_was_typed(client, store):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    page = text(client.get(f"/s/{sid}/deals/{deal_id}/edit"))
    store.delete_deal(sid, deal_id)  # another phone
    typed = {0: ("K♠ K♥ K♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "Q♣")}
    response = client.post(f"/s/{sid}/deals/{deal_id}/edit", data={**deal_data(page, typed, "Anna"), "save": "1"})
    answer = text(response)
    assert response.status_code == 409 and "deleted on another phone" in answer
    assert "K♠ K♥ K♦" in answer and "Q♣" in answer
    assert f'action="/s/{sid}/deals/new"' in answer
    assert store.list_deals(sid) == []
    resent = {**deal_data(answer, typed, "Anna"), "save": "1"}
    assert client.post(f"/s/{sid}/deals/new", data=resent).status_code == 303
    assert store.list_deals(sid)[0].record["players"][0]["melds"] == ["K♠ K♥ K♦"]


def test_a_delete_without_its_revision_is_refused(client, store):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0].id
    page = text(client.get(f"/s/{sid}/deals/{deal_id}/edit"))
    response = client.post(f"/s/{sid}/deals/{deal_id}/delete", data={"csrf_token": hidden(page, "csrf_token")})
    assert response.status_code == 400 and "nothing was deleted" in text(response)
    assert len(store.list_deals(sid)) == 1
    for damaged in ("٠", "0_0", "0" * 25):  # int() reads each as 0; a hidden number is ASCII digits, at most 9
        data = {"csrf_token": hidden(page, "csrf_token"), "revision": damaged}
        response = client.post(f"/s/{sid}/deals/{deal_id}/delete", data=data)
        assert response.status_code == 400 and "nothing was deleted" in text(response), damaged
    assert len(store.list_deals(sid)) == 1
    response = client.post(
        f"/s/{sid}/deals/{deal_id}/delete",
        data={"csrf_token": hidden(page, "csrf_token"), "revision": hidden(page, "revision")},
    )
    assert response.status_code == 303 and store.list_deals(sid) == []


def test_a_note_with_a_control_character_is_explained_at_the_note(client, store):
    sid = start(client)
    response = submit(client, sid, SWAP_FORM, went_out="Anna", note="bell\x07")
    assert response.status_code == 422
    errors = re.search(r'id="note-errors">(.*?)</ul>', text(response), re.S)
    assert errors and "may not hold control characters" in errors[1]
    assert store.list_deals(sid) == []


# -- how the table enters hands: the session's setting, and hands by rank -----------------------------------


def test_the_session_page_changes_how_hands_are_entered_for_the_next_deal_form(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}"))
    assert re.search(r'id="hand-entry-ranks"[^>]* checked', page)  # the start form's default: by rank
    token = csrf_from(client, f"/s/{sid}")
    answer = client.post(f"/s/{sid}/hand-entry", data={"csrf_token": token, "hand_entry": "counts"})
    assert answer.status_code == 303
    assert store.get_session(sid).hand_entry == "counts"
    assert "From now on, cards left in hand are entered: counts by kind." in text(client.get(f"/s/{sid}"))
    form = text(client.get(f"/s/{sid}/deals/new"))
    assert hidden(form, "hand_mode") == "counts" and 'id="hand-mode"' not in form  # no chooser on the form


@pytest.mark.parametrize("sent", ["", "pointz", "counts\x00", "x" * 5000, "ranks ", None])
def test_a_way_of_entering_hands_that_is_not_offered_is_refused_in_words(client, store, sent):
    sid = start(client, players=("Ann", "Bob"), game="ordered-rummy", shown="ordered-rummy")
    before = store.get_session(sid).hand_entry
    data = {"csrf_token": csrf_from(client, f"/s/{sid}")}
    if sent is not None:
        data["hand_entry"] = sent
    answer = client.post(f"/s/{sid}/hand-entry", data=data, follow_redirects=True)
    assert answer.status_code == 200
    assert "Choose one of: by rank, no suits, points and jokers, card by card, with suits." in text(answer)
    assert store.get_session(sid).hand_entry == before
    # counts are no way for ordered rummy, where small cards score apart
    data["hand_entry"] = "counts"
    assert "Choose one of" in text(client.post(f"/s/{sid}/hand-entry", data=data, follow_redirects=True))


def test_only_the_scorer_changes_how_hands_are_entered(app, client, store):
    sid = start(client)
    watcher = app.test_client()
    token = csrf_from(watcher, f"/s/{sid}")
    answer = watcher.post(f"/s/{sid}/hand-entry", data={"csrf_token": token, "hand_entry": "cards"})
    assert answer.status_code in (403, 401)
    assert store.get_session(sid).hand_entry == "ranks"
    assert 'id="hand-entry-panel"' not in text(watcher.get(f"/s/{sid}"))


@pytest.mark.parametrize(
    ("game", "hand", "minus", "stored"),
    [
        # 5 + 5 + 10 + 10 + 5 + 5 and a joker's 10
        ("kunken", "9 9 K Q 3 8 JK", 50, {"ranks": "9 9 K Q 3 8", "jokers": 1}),
        # ace 10, jack 10, a small card 5, two jokers 20, Russian ranks (kept in the record's notation)
        ("kunken", "Т В 10 Дж Дж", 45, {"ranks": "A J 10", "jokers": 2}),
        # face values: 9 + 9 + 10 + 10 + 3 + 8 and a joker’s 25
        ("ordered-rummy", "9 9 K Q 3 8 JK", 74, {"ranks": "9 9 K Q 3 8", "jokers": 1}),
        # the points, where the table counted them
        ("kunken", "40 JK", 50, {"points": 40, "jokers": 1}),
    ],
)
def test_a_hand_typed_by_rank_scores_as_its_cards_would(client, store, game, hand, minus, stored):
    sid = start(client, players=("Ann", "Bob"), game=game, shown=game)
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert hidden(page, "hand_mode") == "ranks"
    data = deal_data(page, {0: ("5♥ 6♥ 7♥ 8♥", "", ""), 1: ("", "", hand)}, "Ann")
    answer = client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"})
    assert answer.status_code == 303, re.findall(r'class="(?:error|problem)"[^>]*>([^<]*)', text(answer))
    hand_stored = store.list_deals(sid)[0].record["players"][1]["hand"]
    assert hand_stored == stored  # a hand by rank is kept as its ranks, as typed, and its jokers
    board = text(client.get(f"/s/{sid}"))
    assert re.search(rf'data-player="Bob"[^>]*>.*?data-total="-{minus}"', board, re.S), board[:3000]


def test_a_hand_by_rank_with_a_suit_forgotten_or_a_word_that_is_no_card_is_told_how(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    for hand, words in (("9 K♠", "by its rank"), ("Zz", "Zz")):
        data = deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", hand)}, "Anna")
        answer = client.post(f"/s/{sid}/deals/new", data={**data, "save": "1"})
        assert answer.status_code == 422
        errors = re.search(r'id="players-1-hand-errors".*?</ul>', text(answer), re.S)[0]
        assert words in errors
    assert store.list_deals(sid) == []
