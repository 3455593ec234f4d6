"""A deal record's melds are numbered by their place in the player's list: an entry with no cards is refused,
naming it, where leaving it out would shift the numbers of the melds after it (a vist or a swap to meld 1
would then go to another meld, or to none). The deal form reads its textarea line by line, blank lines
left out, so typing a blank line between melds keeps working (issue 35)."""

from __future__ import annotations

import re

import pytest
from conftest import API, new_session, record, start, text

from kunken_scorer import Deal, DealInputError, RuleSet, evaluate_deal
from kunken_scorer.core.draft import read_part
from kunken_scorer.core.notation import read_card_lines

pytestmark = pytest.mark.lang("en")  # the `client` fixture reads the pages in English

EMPTY = ["", "   ", [], None, ","]


def anna_and_boris(first_meld) -> dict:
    """Anna's melds: an entry ``first_meld``, then 5♥ 6♥ 7♥; Boris adds 8♥ to her meld 1 (counted from 0)."""
    return {
        "players": [
            {"name": "Anna", "melds": [first_meld, "5♥ 6♥ 7♥"], "hand": ""},
            {"name": "Boris", "vists": [{"to": "Anna", "meld": 1, "cards": "8♥"}], "hand": "K♣"},
        ],
        "went_out": "Anna",
    }


@pytest.mark.parametrize("entry", EMPTY)
def test_an_empty_meld_entry_is_refused_naming_it_and_located_at_the_players_melds(entry):
    """Before: the empty entry was dropped, 5♥ 6♥ 7♥ became Anna's meld 0, and Boris's vist to her meld 1
    was the problem "Anna has no meld 2"."""
    with pytest.raises(DealInputError) as caught:
        Deal.from_dict(anna_and_boris(entry))
    reason = caught.value.reason
    assert (reason.code, reason.seat, reason.field) == ("empty_meld", 0, "melds")
    assert str(caught.value) == "players[0].melds[0] holds no cards: enter the meld's cards, or leave the entry out."


def test_with_the_meld_entered_the_vist_goes_to_the_meld_it_names():
    report = evaluate_deal(Deal.from_dict(anna_and_boris("A♠ A♥ A♦")), RuleSet.preset())
    assert report.valid and report.scores == {"Anna": 45, "Boris": 5 - 10}


@pytest.mark.parametrize("melds", [[""], ["5♥ 6♥ 7♥", ""], ["5♥ 6♥ 7♥", None]])
def test_an_empty_entry_anywhere_in_the_list_is_refused(melds):
    with pytest.raises(DealInputError) as caught:
        Deal.from_dict({"players": [{"name": "Anna"}, {"name": "Boris", "melds": melds}]})
    assert caught.value.reason.params["field"] == f"players[1].melds[{len(melds) - 1}]"
    assert (caught.value.reason.seat, caught.value.reason.field) == (1, "melds")


def test_melds_given_as_text_leave_blank_lines_out():
    """One text with a meld a line: blank lines are no entries (a textarea's last line is often blank)."""
    deal = Deal.from_dict({"players": [{"name": "Anna", "melds": "\nA♠ A♥ A♦\n\n5♥ 6♥ 7♥\n"}]})
    assert len(deal.players[0].melds) == 2


def test_a_players_part_with_an_empty_meld_is_refused_at_its_seat():
    with pytest.raises(DealInputError) as caught:
        read_part({"melds": ["A♠ A♥ A♦", ""]}, seat=2)
    reason = caught.value.reason
    assert (reason.code, reason.params["field"], reason.seat, reason.field) == (
        "empty_meld",
        "part.melds[1]",
        2,
        "melds",
    )


def test_the_api_answers_400_naming_the_empty_entry(client):
    response = client.post(f"{API}/deals/score", json=anna_and_boris(""))
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("players[0].melds[0] holds no cards")


def test_the_api_records_nothing_with_an_empty_entry(client):
    session = new_session(client)
    response = client.post(
        f"{API}/sessions/{session['id']}/deals",
        json=anna_and_boris(""),
        headers={"Authorization": f"Bearer {session['edit_token']}"},
    )
    assert response.status_code == 400 and "players[0].melds[0]" in response.get_json()["error"]


def test_the_deal_form_leaves_blank_lines_out_so_a_blank_line_between_melds_is_fine(client, store):
    sid = start(client)
    players = {0: ("\nA♠ A♥ A♦\n\n5♥ 6♥ 7♥\n", "", ""), 1: ("", "Anna 2: 8♥", "K♣")}
    response = record(client, sid, players)
    assert response.status_code == 303, text(response)
    saved = store.list_deals(sid)[0].record
    assert saved["players"][0]["melds"] == ["A♠ A♥ A♦", "5♥ 6♥ 7♥"]
    assert saved["players"][1]["vists"] == [{"to": "Anna", "meld": 1, "cards": "8♥"}]


def test_a_form_line_of_commas_alone_is_a_line_with_no_cards():
    """Not a blank line: it is refused by its number, as a line that does not read is, not dropped."""
    melds, reasons = read_card_lines("A♠ A♥ A♦\n , \n5♥ 6♥ 7♥", 40)
    assert melds == ["A♠ A♥ A♦", "5♥ 6♥ 7♥"]
    assert [(r.code, r.params["n"], r.params["why"].code) for r in reasons] == [("line_error", 2, "no_cards")]
    assert reasons[0].message == "Line 2 (“,”): no cards were given."


def test_the_deal_form_names_the_line_of_commas(client, store):
    sid = start(client)
    page = text(record(client, sid, {0: ("A♠ A♥ A♦\n,", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}))
    errors = re.search(r'id="players-0-melds-errors">(.*?)</ul>', page, re.S)[1]
    assert "Line 2" in errors and "no cards were given" in errors
    assert store.list_deals(sid) == []
