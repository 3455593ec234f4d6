"""What moved out of the page forms (issue 34): where a reason is shown on a deal or part form, what a part form held
as one line and the ways of entering hands in words (core), the draft's end as the scorer's form chose it, and the
start form's players and target (service)."""

from __future__ import annotations

import pytest

from kunken_scorer import RuleSet
from kunken_scorer.core.messages import Reason
from kunken_scorer.core.notation import (
    END_FIELDS,
    HAND_ENTRY_WORDS,
    PART_FIELDS,
    Placed,
    deal_field,
    part_field,
    place,
    typed_part,
)
from kunken_scorer.core.reading import HAND_COUNTS, HAND_ENTRIES
from kunken_scorer.core.session import Target
from kunken_scorer.service import DRAFT_END, draft_end, load_draft
from kunken_scorer.service.sessions import StartRefused, start_target, typed_players
from kunken_scorer.store import Store
from kunken_scorer.web import forms

KUNKEN = RuleSet.preset()
NAMES = ["Anna", "Boris", "Vera"]


# -- the core: where a reason is shown ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "mode", "shown"),
    [
        ("melds", "ranks", "melds"),
        ("vists", "counts", "vists"),
        ("swaps", "cards", "swaps"),
        ("hand", "points", "hand"),
        ("hand", "counts", "small"),  # a hand entered by counts: its problems at the small cards
        ("aces", "counts", "aces"),
        ("aces", "ranks", "hand"),  # a count's problem, the hand typed as text: at the hand
        ("jokers", "cards", "hand"),
        ("name", "ranks", None),  # no field of a part
        ("went_out", "ranks", None),
        (None, "counts", None),
    ],
)
def test_a_reasons_field_is_shown_at_the_parts_field_for_the_way_hands_are_entered(name, mode, shown):
    assert part_field(name, mode) == shown


def test_every_part_field_a_reason_is_shown_at_is_a_field_of_the_part():
    assert PART_FIELDS == {"melds", "vists", "swaps", "hand", *HAND_COUNTS}
    assert not PART_FIELDS & END_FIELDS


def test_a_deal_forms_reason_is_shown_at_the_end_or_at_a_seats_field():
    assert deal_field(Reason("no_cards", seat=1, field="went_out"), 3, "ranks") == (None, "went_out")
    for name in ("express", "redeal", "note"):
        assert deal_field(Reason("no_cards", field=name), 3, "ranks") == (None, name)
    assert deal_field(Reason("no_cards", seat=2, field="melds"), 3, "ranks") == (2, "melds")
    assert deal_field(Reason("no_cards", seat=0, field="hand"), 3, "counts") == (0, "small")
    assert deal_field(Reason("no_cards", seat=0, field="faces"), 3, "points") == (0, "hand")


@pytest.mark.parametrize(
    "reason",
    [
        Reason("no_cards", field="melds"),  # no seat: a part field of no player
        Reason("no_cards", seat=3, field="melds"),  # past the form's seats
        Reason("no_cards", seat=-1, field="melds"),
        Reason("no_cards", seat=1),  # no field
        Reason("no_cards", seat=1, field="name"),  # a field the form does not have
        Reason("no_cards"),
    ],
)
def test_a_reason_the_deal_form_has_no_field_for_is_the_forms_own(reason):
    assert deal_field(reason, 3, "ranks") is None


def test_reasons_are_placed_by_the_field_found_in_their_order():
    first, second = Reason("no_cards", {"n": 1}, field="melds"), Reason("no_cards", {"n": 2}, field="melds")
    general = Reason("too_few_cards", {"count": 2})
    placed = place([first, general, second, Reason("no_cards", field="hand")], lambda r: r.field)
    assert placed.at == {"melds": [first, second], "hand": [Reason("no_cards")]}
    assert placed.general == [general]
    assert place([], lambda r: r.field) == Placed()


# -- the core: what a part form held, and the ways of entering hands -------------------------------


def test_a_typed_part_is_one_line_its_hand_as_typed_or_by_counts():
    texts = {"melds": "A♠ A♥ A♦\n\n2♦ 3♦ 4♦", "vists": "", "swaps": "Boris: K♦", "hand": "35 JK", "small": 2}
    assert typed_part(texts, "points", {}) == "A♠ A♥ A♦ / 2♦ 3♦ 4♦ · Boris: K♦ · 35 JK"
    labels = {"small": "Small", "faces": "JQK", "aces": "Aces", "jokers": "Jokers"}
    counts = {**texts, "faces": 0, "aces": None, "jokers": 1}
    assert typed_part(counts, "counts", labels) == "A♠ A♥ A♦ / 2♦ 3♦ 4♦ · Boris: K♦ · Small: 2, Jokers: 1"
    assert typed_part({"hand": "", "small": 0}, "counts", labels) == ""


def test_the_ways_of_entering_hands_have_their_words_in_order():
    assert tuple(HAND_ENTRY_WORDS) == HAND_ENTRIES
    assert HAND_ENTRY_WORDS["ranks"] == "by rank, no suits"  # the catalog's message id


# -- the service: the draft's end, the start form's players and target ------------------------------


@pytest.mark.parametrize(
    ("choice", "went_out", "chosen"),
    [
        ("auto", None, False),
        ("", None, False),  # blank: the core's choice
        (None, None, False),
        ("none", None, True),  # nobody went out (the stock ran out)
        ("0", "Anna", True),
        ("2", "Vera", True),
        ("3", None, True),  # past the seats
        ("²", None, True),  # no ASCII digit
        ("-1", None, True),
    ],
)
def test_the_drafts_end_is_read_from_the_scorers_choice(choice, went_out, chosen):
    end = draft_end(NAMES, choice, True, False)
    assert end == {"went_out": went_out, "went_out_set": chosen, "express": True, "redeal": False}
    assert set(end) == set(DRAFT_END)


def test_the_drafts_end_reads_back_what_its_form_shows(tmp_path):
    store = Store.open(str(tmp_path / "kunken.db"))
    try:
        sid = store.create_session("kunken", KUNKEN.to_dict(), NAMES, None)[0].id
        for end in ({"went_out": "Boris", "went_out_set": True}, {"went_out": None, "went_out_set": True}, {}):
            store.save_draft_end(sid, {**DRAFT_END, **end, "redeal": True}, deal=1, generation=None)
            draft = load_draft(store, sid)
            shown = draft.end_fields()
            assert draft_end(NAMES, shown["went_out"], shown["express"], shown["redeal"]) == draft.end
    finally:
        store.close()


def test_the_names_typed_keep_their_seats_and_those_past_the_seats_come_last():
    assert typed_players(["", "Anna", None, "  ", "Boris "], ["Gleb", "Dana"]) == (
        ["Anna", "Boris ", "Gleb", "Dana"],
        [1, 4, None, None],
    )
    assert typed_players([None, ""], []) == ([], [])


def test_the_target_chosen_is_the_cores_and_its_refusal_is_said():
    assert start_target("", 5) is None and start_target(None, None) is None
    assert start_target("deals", 8) == Target("deals", 8)
    assert start_target("score", "500") == Target("score", 500)
    for kind, value in (("score", None), ("deals", 0), ("deals", -3), ("penalty", 100001), ("bogus", 3)):
        refused = start_target(kind, value)
        assert isinstance(refused, StartRefused) and refused.reason.code == "bad_target"
        assert refused.switch is None and refused.seat is None


# -- the forms keep only the lookup of their fields -------------------------------------------------


def test_the_forms_names_stay_importable_from_forms():
    assert forms.Placed is Placed
    assert list(forms.HAND_ENTRY_NAMES) == list(HAND_ENTRIES)


def test_the_forms_place_reasons_at_their_fields_and_say_the_ways_in_the_pages_language(app):
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        deal = forms.deal_form(NAMES, KUNKEN)
        reasons = [
            Reason("no_cards", seat=1, field="aces"),
            Reason("no_cards", field="went_out"),
            Reason("no_cards", seat=5, field="melds"),
        ]
        placed = deal.place(reasons)
        assert placed.at == {"players-1-hand": [reasons[0]], "went_out": [reasons[1]]}
        assert placed.general == [reasons[2]]
        part = forms.part_form(NAMES, KUNKEN, data={"hand_mode": "counts"})
        assert part.place([Reason("no_cards", seat=2, field="hand")]).at == {"player-small": [Reason("no_cards")]}
        assert part.field_at(Reason("no_cards", field="note")) is None
        assert str(forms.HAND_ENTRY_NAMES["counts"]) == "counts by kind"
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        assert str(forms.HAND_ENTRY_NAMES["ranks"]) == "по достоинству, без мастей"


def test_the_part_form_says_what_it_held_and_the_draft_form_its_end(app):
    data = {"hand_mode": "counts", "player": {"melds": "A♠ A♥ A♦", "hand": "ignored", "small": 2, "jokers": 1}}
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        part = forms.part_form(NAMES, KUNKEN, data=data)
        assert part.typed() == "A♠ A♥ A♦ · Small cards, 2 to 10: 2, Jokers: 1"
        draft = forms.DraftForm(data={"went_out": "1", "express": True})
        assert draft.end(NAMES) == {"went_out": "Boris", "went_out_set": True, "express": True, "redeal": False}
