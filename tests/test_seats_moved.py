"""What moved out of the seat pages and the part form (issue 34): the reading of a typed part (core), the draft's form
data, the part page's state and the recording of the draft as the scorer's page showed it (service)."""

from __future__ import annotations

import pytest

from kunken_scorer import RuleSet
from kunken_scorer.core.messages import Reason
from kunken_scorer.core.notation import one_line, read_part_texts
from kunken_scorer.service import Ask, Changed, Recorded, Waiting, load_draft, save_draft_end
from kunken_scorer.service.seats import free_seat, part_page, record_shown_draft, save_part, take_seat
from kunken_scorer.store import Store

KUNKEN = RuleSet.preset()
NAMES = ["Anna", "Boris"]


def say(reason: Reason) -> str:
    return reason.code


@pytest.fixture
def store(tmp_path):
    s = Store.open(str(tmp_path / "kunken.db"))
    yield s
    s.close()


@pytest.fixture
def sid(store):
    return store.create_session("kunken", KUNKEN.to_dict(), NAMES, None)[0].id


# -- the core: a part as typed --------------------------------------------------------------------


def test_a_typed_part_reads_into_the_parts_shape_with_reasons_by_field():
    texts = {"melds": "тп тч тб\nK♠", "vists": "Boris: 5♦", "swaps": "Anna: K♦", "hand": "35 JK"}
    part, reasons = read_part_texts(texts, NAMES, KUNKEN, "points")
    assert part == {
        "melds": ["A♠ A♥ A♦", "K♠"],
        "vists": [{"to": "Boris", "meld": None, "cards": "5♦"}],
        "swaps": [{"from": "Anna", "meld": None, "card": "K♦"}],
        "hand": {"points": 35, "jokers": 1},
    }
    assert {field: [r.code for r in found] for field, found in reasons.items()} == {
        "melds": [],
        "vists": [],
        "swaps": [],
        "hand": [],
    }
    _, bad = read_part_texts({"vists": "nobody: 5♦", "swaps": "Anna: K♦ Q♦"}, NAMES, KUNKEN, "cards")
    assert [r.code for r in bad["vists"]] == ["line_error"] and [r.code for r in bad["swaps"]] == ["line_error"]


def test_a_field_left_out_is_not_read_and_counts_make_the_hand():
    part, reasons = read_part_texts({"small": 2, "jokers": 1, "hand": "nonsense"}, NAMES, KUNKEN, "counts")
    assert part == {"melds": None, "vists": None, "swaps": [], "hand": {"small": 2, "faces": 0, "aces": 0, "jokers": 1}}
    assert reasons == {}


def test_what_a_form_held_is_one_line():
    assert one_line(["A♠ A♥ A♦\n\n K♠ K♥ K♦ ", "", None, "Boris: 5♦"]) == "A♠ A♥ A♦ / K♠ K♥ K♦ · Boris: 5♦"
    assert one_line([None, "  "]) == ""


# -- the service: the draft's form data and the part page ---------------------------------------------


def test_the_scorer_forms_data_keeps_the_end_as_stored(store, sid):
    draft = load_draft(store, sid)
    assert draft.end_fields() == {
        "went_out": "auto",
        "express": False,
        "redeal": False,
        "version": str(draft.version),
        "deal": "1",
        "draft": str(draft.generation),
    }
    for went_out, choice in (("Boris", "1"), (None, "none")):
        save_draft_end(store, sid, {"went_out": went_out, "went_out_set": True}, deal=1, generation=None)
        assert load_draft(store, sid).went_out_choice == choice


def test_the_part_forms_data_is_the_stored_part_as_texts(store, sid):
    token = take_seat(store, sid, 0, token=None, scorer=False, move=None).token
    part = {"melds": ["A♠ A♥ A♦"], "vists": [], "swaps": [], "hand": "K♠"}
    save_part(store, sid, 0, part, revision=0, by="player", deal=1, generation=None)
    data = load_draft(store, sid).part_fields(0, None, russian=True)
    assert data["player"]["melds"] == "Т♠ Т♥ Т♦" and data["player"]["hand"] == "К♠"
    assert (data["revision"], data["hand_mode"]) == ("1", "ranks")
    assert load_draft(store, sid).part_fields(1, "counts", russian=False)["revision"] == "0"
    page = part_page(store, load_draft(store, sid), 0, claimed=(0, token), edit_token=None)
    assert (page.name, page.writer, page.lost, page.entry.revision) == ("Anna", "player", None, 1)


def test_a_phone_that_lost_its_seat_is_told_how(store, sid):
    token = take_seat(store, sid, 0, token=None, scorer=False, move=None).token
    take_seat(store, sid, 0, token=None, scorer=True, move=None)
    taken = part_page(store, load_draft(store, sid), 0, claimed=(0, token), edit_token=None)
    assert (taken.writer, taken.lost) == (None, "taken")
    free_seat(store, sid, 0)
    freed = part_page(store, load_draft(store, sid), 0, claimed=(0, token), edit_token=None)
    assert (freed.writer, freed.lost) == (None, "freed")
    stranger = part_page(store, load_draft(store, sid), 1, claimed=(0, token), edit_token=None)
    assert (stranger.writer, stranger.lost) == (None, None)


# -- the service: recording the draft the scorer's page showed ----------------------------------------


def test_the_draft_is_recorded_only_as_the_scorers_page_showed_it(store, sid):
    draft = load_draft(store, sid)
    ask = Ask(key="form-key-1", expected=draft.version)
    waiting = record_shown_draft(store, draft, draft.end, ask, say, deal=1, generation=draft.generation)
    assert isinstance(waiting, Waiting) and waiting.players == ("Anna", "Boris")
    other = record_shown_draft(store, draft, draft.end, ask, say, deal=1, generation=draft.generation + 1)
    assert isinstance(other, Changed)
    assert isinstance(record_shown_draft(store, draft, draft.end, ask, say, deal=2, generation=None), Changed)
    save_part(store, sid, 0, {"melds": ["A♠ A♥ A♦"], "hand": ""}, revision=0, by="scorer", deal=1, generation=None)
    save_part(store, sid, 1, {"hand": "K♠"}, revision=0, by="scorer", deal=1, generation=None)
    draft = load_draft(store, sid)
    ask = Ask(key="form-key-1", expected=draft.version)
    recorded = record_shown_draft(store, draft, draft.end, ask, say, deal=1, generation=None)
    assert isinstance(recorded, Recorded) and recorded.created and recorded.number == 1
    again = record_shown_draft(store, draft, draft.end, ask, say, deal=1, generation=draft.generation)
    assert isinstance(again, Recorded) and not again.created  # the same form key answers again
