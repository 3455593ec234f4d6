"""The pages' data worked out by ``service.pages`` (moved out of the web layer), the desk's questions as data, and the
live update's conditional answer."""

from __future__ import annotations

from kunken_scorer import RuleSet
from kunken_scorer.core import disputes
from kunken_scorer.core.messages import Reason
from kunken_scorer.service import check_deal, pages
from kunken_scorer.service.ratings import HeadToHead, SamePlayer, UnknownPlayer
from kunken_scorer.web.forms import QUESTIONS


def player(name, melds=(), hand=""):
    return {"name": name, "melds": list(melds), "vists": [], "hand": hand}


def new_session(store, players=("Anna", "Boris", "Vera"), switches=None, target=None):
    rules = RuleSet.for_game("kunken", switches or {})
    session, _token = store.create_session(rules.game, rules.to_dict(), list(players), target)
    return session


def add(store, session, body, **kwargs):
    """Store a deal as the service reads it."""
    store.add_deal(session.id, check_deal(session, body).record, **kwargs)


PLAIN = {
    "players": [player("Anna", ["A♠ A♥ A♦"]), player("Boris", ["2♥ 3♥ 4♥"], "K♣ JK"), player("Vera", [], "5♠ 6♣")],
    "went_out": "Anna",
}


def test_session_page_holds_what_the_page_shows(store):
    session = new_session(store, target={"kind": "deals", "value": 8})
    page = pages.session_page(store, store.get_session(session.id), editor=True, seat=None, undone=3)
    assert page.session.id == session.id and page.rules.game == "kunken"
    assert page.target is not None and (page.target.kind, page.target.value) == ("deals", 8)
    assert page.next_deal == 1 and page.taken == []
    assert page.hand_entry in page.hand_entries
    assert page.undone == 3


def test_only_the_scorer_is_offered_the_undone_deal_back(store):
    session = new_session(store)
    page = pages.session_page(store, store.get_session(session.id), editor=False, seat=1, undone=3)
    assert page.undone is None and page.seat == 1


def test_table_page_shows_the_last_deal(store):
    session = new_session(store)
    empty = pages.table_page(store, session.id)
    assert empty.last is None and empty.changes == {} and empty.melds == {}
    add(store, session, PLAIN)
    page = pages.table_page(store, session.id)
    assert page.last is not None and page.last.number == 1
    assert set(page.changes) == {"Anna", "Boris", "Vera"}
    assert page.melds["Anna"]


def test_summary_page_counts_overrides_redeals_and_house_rules(store):
    session = new_session(store, switches={"opening_points": 40})
    add(store, session, PLAIN, note="Boris was away")
    page = pages.summary_page(store, session.id)
    assert [row.number for row in page.overrides] == [1]
    assert page.redeals == 0
    assert "opening_points" in page.changed and "opening_points" not in page.kept
    assert page.kept  # the preset's key switches kept


def test_players_page_keeps_a_known_game_only(store):
    session = new_session(store)
    add(store, session, PLAIN)
    everyone = pages.players_page(store, "no-such-game", show_all=False)
    assert everyone.game is None and everyone.total == 3
    assert everyone.names == [p.name for p in everyone.history]
    assert pages.players_page(store, "kunken", show_all=True).game == "kunken"


def test_head_to_head_page_outcomes(store):
    session = new_session(store)
    add(store, session, PLAIN)
    assert pages.head_to_head_page(store, None, None).outcome is None
    found = pages.head_to_head_page(store, "Anna", "Boris")
    assert isinstance(found.outcome, HeadToHead) and found.found is found.outcome
    assert isinstance(pages.head_to_head_page(store, "Anna", "Zoe").outcome, UnknownPlayer)
    assert isinstance(pages.head_to_head_page(store, "Anna", "anna").outcome, SamePlayer)
    long = pages.head_to_head_page(store, "A" * 60, "Boris")
    assert long.first == "A" * 40 and long.found is None
    assert set(found.names) == {"Anna", "Boris", "Vera"}
    assert isinstance(pages.head_to_head_page(store, "Anna", "").outcome, Reason | UnknownPlayer | SamePlayer)


def test_deal_form_data_new_and_recorded(store):
    session = new_session(store)
    new = pages.deal_form_data(store, store.get_session(session.id), None, russian=False)
    assert new["expected"] == str(store.get_session(session.id).version) and "hand_mode" in new
    add(store, session, PLAIN)
    deal = store.get_deal(session.id, pages.table_page(store, session.id).last.id)
    typed = pages.deal_form_data(store, store.get_session(session.id), deal, russian=False)
    assert typed["expected"] == str(deal.revision)
    assert "A♠" in str(typed)


def test_deal_page_suggests_who_went_out(store):
    session = new_session(store)
    body = {"players": [player("Anna", ["A♠ A♥ A♦"]), player("Boris", [], "K♣"), player("Vera", [], "5♠")]}
    checked = check_deal(session, body)
    page = pages.deal_page(store, session, checked, body, new=True)
    assert page.report is checked.report and page.went_out_suggestion == "Anna"
    assert page.preview is not None and len(page.preview) == 3
    blank = pages.deal_page(store, session, None, None, new=False)
    assert blank.report is None and blank.preview is None and blank.from_phones == {}


def test_rules_page_session_preset_or_unknown_game(store):
    session = new_session(store)
    add(store, session, PLAIN)
    opened = pages.rules_page(store, session.id, "ordered-rummy")  # the session's rules win over ?game
    assert opened is not None and opened.rules.game == "kunken" and opened.session is not None and opened.table
    preset = pages.rules_page(store, None, "ordered-rummy")
    assert preset is not None and preset.rules.game == "ordered-rummy" and preset.table == []
    assert pages.rules_page(store, None, "poker") is None


def test_every_desk_question_has_its_answer_and_the_fields_it_reads():
    assert list(disputes.QUESTIONS) == list(disputes.ANSWERS)
    kinds = {spec.kind for fields, _button in disputes.QUESTIONS.values() for spec in fields}
    assert kinds == {"card", "cards", "lines", "flag"}
    swap = {spec.name: spec for spec in disputes.QUESTIONS["swap"][0]}
    assert swap["has_layout"].checked and swap["card"].kind == "card"


def test_the_desk_forms_are_made_from_the_questions(app):
    with app.test_request_context("/rules/desk"):
        for question, (fields, _button) in disputes.QUESTIONS.items():
            form = QUESTIONS[question](formdata=None, prefix=question)
            assert [spec.name for spec in fields] + ["submit"] == [
                f.short_name for f in form if f.type != "CSRFTokenField"
            ]


def test_live_answers_304_with_its_headers_while_unchanged(client, store):
    session = new_session(store)
    first = client.get(f"/s/{session.id}/live")
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(f"/s/{session.id}/live", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == "no-cache" and again.headers["Vary"].startswith("Cookie, Accept-Language")
