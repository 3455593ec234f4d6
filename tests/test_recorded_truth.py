"""A recorded deal is the deal the table played (issue 45): a hand nobody entered is never read as no cards, a
part the server refused says so on the scorer's page, and a part a phone kept after its deal was recorded goes to
the scorer as a proposed correction of that deal, never into the next deal's draft.

Request level, against the real app and SQLite file; the phones' own flows in Chromium are in
``test_browser_recorded_truth.py``.
"""

from __future__ import annotations

import re

import pytest
from conftest import API, auth, hidden, new_session, phone, post_deal, text

from kunken_scorer import RuleSet
from kunken_scorer.core.deal import Deal, evaluate_deal
from kunken_scorer.core.draft import read_part
from kunken_scorer.core.notation import read_hand

KUNKEN = RuleSet.preset()
NAMES = ["Anna", "Boris", "Vera"]


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# -- the core: only the one who went out ends with no cards ------------------------------------------


def codes_at(report) -> list[tuple[str, str | None, int | None, str | None]]:
    return [(r.code, r.params.get("player"), r.seat, r.field) for r in report.problems]


@pytest.mark.parametrize("hand", ["left out", None, "", [], {"points": 0}, {"small": 0, "jokers": 0}])
def test_a_hand_not_entered_or_of_no_cards_is_a_problem_but_for_who_went_out(hand):
    boris = {"name": "Boris", "melds": ["2♥ 3♥ 4♥"]} | ({} if hand == "left out" else {"hand": hand})
    body = {"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, boris, {"name": "Vera", "hand": "5♦"}]}
    report = evaluate_deal(Deal.from_dict({**body, "went_out": "Anna"}), KUNKEN)
    assert codes_at(report) == [("hand_not_entered", "Boris", 1, "hand")]
    assert report.problems[0].message == "Boris: cards left in hand not entered — type them, or mark who went out."
    assert report.scores == {"Anna": 30, "Boris": 15, "Vera": -5}  # scored all the same: the table decides
    # Boris is who went out: his hand of none is right, and Anna's never entered is now the problem
    out = evaluate_deal(Deal.from_dict({**body, "went_out": "Boris"}), KUNKEN)
    assert codes_at(out) == [("hand_not_entered", "Anna", 0, "hand")]


def test_who_went_out_holds_no_cards_and_the_record_says_so():
    deal = Deal.from_dict(
        {"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, {"name": "Boris", "hand": "5♦"}], "went_out": "Anna"}
    )
    assert evaluate_deal(deal, KUNKEN).valid
    assert deal.to_dict()["players"][0]["hand"] == ""  # not null: the one who went out has none
    nobody = Deal.from_dict({"players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"]}, {"name": "Boris", "hand": "5♦"}]})
    assert nobody.to_dict()["players"][0]["hand"] is None
    assert codes_at(evaluate_deal(nobody, KUNKEN)) == [("hand_not_entered", "Anna", 0, "hand")]


def test_an_untouched_deal_names_every_player_and_a_redeal_needs_no_hands():
    names = [{"name": n} for n in NAMES]
    report = evaluate_deal(Deal.from_dict({"players": names}), KUNKEN)
    assert [p for _, p, _, _ in codes_at(report)] == NAMES and report.scores == dict.fromkeys(NAMES, 0)
    assert evaluate_deal(Deal.from_dict({"players": names, "redeal": True}), KUNKEN).valid


def test_a_hand_given_by_rank_keeps_its_ranks_and_scores_as_its_cards():
    deal = Deal.from_dict(
        {
            "players": [
                {"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
                {"name": "Boris", "hand": {"ranks": "9 9 К Д 3 8", "jokers": 1}},
            ],
            "went_out": "Anna",
        }
    )
    assert deal.to_dict()["players"][1]["hand"] == {"ranks": "9 9 K Q 3 8", "jokers": 1}
    assert evaluate_deal(deal, KUNKEN).scores == {"Anna": 30, "Boris": -50}  # 5+5+10+10+5+5 and a joker
    with pytest.raises(ValueError, match=r"players\[1\]\.hand\.ranks"):
        Deal.from_dict({"players": [{"name": "A"}, {"name": "B", "hand": {"ranks": "9 K♠"}}]})


# -- the API ------------------------------------------------------------------------------------------


def test_the_api_refuses_a_deal_with_a_hand_not_entered_and_stores_nothing(client):
    session = new_session(client)
    body = {
        "players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""}, {"name": "Boris", "melds": ["2♥ 3♥ 4♥"]}],
        "went_out": "Anna",
    }
    refused = post_deal(client, session, body)
    assert refused.status_code == 422
    problems = refused.get_json()["problems"]
    assert [p["code"] for p in problems] == ["hand_not_entered"] and "Boris" in problems[0]["message"]
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["deals"] == []
    empty = {"players": [{"name": "Anna", "hand": ""}, {"name": "Boris", "hand": ""}]}
    assert [p["code"] for p in post_deal(client, session, empty).get_json()["problems"]] == ["hand_not_entered"] * 2
    anyway = post_deal(client, session, {**body, "override": True, "note": "Boris left early"})
    assert anyway.status_code == 201
    deal = client.get(f"{API}/sessions/{session['id']}").get_json()["deals"][0]
    assert deal["override"] is True and deal["note"] == "Boris left early"
    assert deal["record"]["players"][1]["hand"] is None  # stored as not entered, not as no cards


def test_the_api_records_a_draft_only_once_every_part_has_its_hand(client):
    session = new_session(client, ["Anna", "Boris"])
    sid = session["id"]
    part = client.put(
        f"{API}/sessions/{sid}/draft/parts/0",
        json={"revision": 0, "melds": ["A♠ A♥ A♦"], "hand": ""},
        headers=auth(session),
    )
    assert part.get_json()["state"] == "entered"  # "no cards": the one who went out
    boris = client.put(
        f"{API}/sessions/{sid}/draft/parts/1", json={"revision": 0, "melds": ["2♥ 3♥ 4♥"]}, headers=auth(session)
    ).get_json()
    assert boris["state"] == "no_hand" and boris["part"]["hand"] is None
    draft = client.get(f"{API}/sessions/{sid}/draft").get_json()
    assert draft["complete"] is True and draft["valid"] is False and draft["went_out"] == "Anna"
    refused = client.post(f"{API}/sessions/{sid}/draft/record", json={}, headers=auth(session))
    assert refused.status_code == 422 and [p["code"] for p in refused.get_json()["problems"]] == ["hand_not_entered"]
    assert client.get(f"{API}/sessions/{sid}").get_json()["deals"] == []
    anyway = client.post(
        f"{API}/sessions/{sid}/draft/record", json={"override": True, "note": "lost his cards"}, headers=auth(session)
    )
    assert anyway.status_code == 201
    assert client.get(f"{API}/sessions/{sid}").get_json()["deals"][0]["override"] is True


# -- the pages ---------------------------------------------------------------------------------------


def start_api(client, players=NAMES):
    answer = client.post(f"{API}/sessions", json={"players": list(players)}).get_json()
    return answer["id"], answer["edit_token"]


def scorer_phone(app, sid, token):
    client = phone(app)
    assert client.get(f"/s/{sid}/scorer/{token}").status_code == 303
    return client


def seated(app, sid, seat):
    client = phone(app)
    page = text(client.get(f"/s/{sid}"))
    assert (
        client.post(f"/s/{sid}/seat", data={"csrf_token": hidden(page, "csrf_token"), "seat": str(seat)}).status_code
        == 303
    )
    return client


def part_form(page: str, **fields) -> dict:
    data = {name: hidden(page, name) for name in ("csrf_token", "deal", "draft", "revision")}
    data.update({"hand_mode": "cards", "autosave": "1"})
    data.update({f"player-{k}": v for k, v in fields.items()})
    return data


def test_an_untouched_deal_form_is_not_recorded(app, store):
    sid, token = start_api(app.test_client())
    scorer = scorer_phone(app, sid, token)
    page = text(scorer.get(f"/s/{sid}/deals/new"))
    data = {name: hidden(page, name) for name in ("csrf_token", "form_key", "expected", "hand_mode", "parts_seen")}
    response = scorer.post(f"/s/{sid}/deals/new", data={**data, "went_out": "", "save": "1"})
    page = text(response)
    assert response.status_code == 422 and store.list_deals(sid) == []
    for seat, name in enumerate(NAMES):  # each hand field says it, in words
        field = re.search(rf'<div class="field invalid" id="players-{seat}-hand-field">.*?</ul>', page, re.S)[0]
        assert f"{name}: cards left in hand not entered — type them, or mark who went out." in words(field)


def test_a_part_the_server_refused_shows_as_refused_on_the_scorers_page(app, store):
    sid, token = start_api(app.test_client())
    boris, scorer = seated(app, sid, 1), scorer_phone(app, sid, token)
    page = text(boris.get(f"/s/{sid}/draft/1"))
    saved = boris.post(f"/s/{sid}/draft/1", data=part_form(page, melds="2♦ 3♦ 4♦"))
    assert saved.status_code == 200 and store.draft(sid).parts[1].revision == 1
    page = text(saved)
    refused = boris.post(
        f"/s/{sid}/draft/1", data=part_form(page, melds="2♦ 3♦ 4♦", vists="Nobody: 5♥", hand="9 9 K Q 3 8 JK")
    )
    assert refused.status_code == 422 and store.draft(sid).parts[1].part["hand"] is None  # nothing of it stored
    draft = text(scorer.get(f"/s/{sid}/draft"))
    seat = words(re.search(r'<li class="seat [^"]*" id="seat-1".*?</li>\s*(?=<li class="seat|</ul>)', draft, re.S)[0])
    assert "✗ not saved from the phone" in seat and "✓" not in seat
    assert "The phone’s last save was refused at" in seat and "Nobody" in seat and "Anna, Boris, Vera" in seat
    assert "Typed on the phone: 2♦ 3♦ 4♦ · Nobody: 5♥ · 9 9 K Q 3 8 JK" in seat and "Stored, older:" in seat
    ready = words(re.search(r'<p id="draft-ready".*?</p>', draft, re.S)[0])
    assert "Not saved from the phone of Boris" in ready
    assert re.search(r'id="record-draft"[^>]*value="Record deal 1 · missing: Anna, Vera, Boris"', draft)
    api = app.test_client().get(f"{API}/sessions/{sid}/draft").get_json()
    assert api["seats"][1]["refused"]["typed"].startswith("2♦ 3♦ 4♦") and api["valid"] is False
    # his next save is stored: the refusal goes
    again = boris.post(f"/s/{sid}/draft/1", data=part_form(text(refused), melds="2♦ 3♦ 4♦", hand="9 9 K Q 3 8 JK"))
    assert again.status_code == 200
    assert store.draft(sid).parts[1].part["hand"] == {"ranks": "9 9 K Q 3 8", "jokers": 1}
    assert "not saved from the phone" not in text(scorer.get(f"/s/{sid}/draft"))


def test_a_part_kept_after_its_deal_was_recorded_is_a_correction_not_the_next_deal(app, store):
    sid, token = start_api(app.test_client())
    boris, scorer = seated(app, sid, 1), scorer_phone(app, sid, token)
    stale = text(boris.get(f"/s/{sid}/draft/1"))  # deal 1's page, and then the phone goes offline
    store.save_part(sid, 0, read_part({"melds": ["A♠ A♥ A♦"], "hand": ""}), revision=0, by="player")
    store.save_part(sid, 1, read_part({"melds": ["2♦ 3♦ 4♦"]}), revision=0, by="player")
    store.save_part(sid, 2, read_part({"melds": ["7♠ 8♠ 9♠"], "hand": "5♥"}), revision=0, by="player")
    recorded = app.test_client().post(
        f"{API}/sessions/{sid}/draft/record",
        json={"override": True, "note": "no hand"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert recorded.status_code == 201
    # back online, Boris's phone sends what it kept, typed on deal 1's page
    kept = part_form(stale, melds="2♦ 3♦ 4♦", hand="9 9 K Q 3 8 JK")
    kept["revision"] = "1"
    sent = boris.post(f"/s/{sid}/draft/1/correction", data=kept)
    assert sent.status_code == 303
    assert "went to the scorer as a proposed correction" in text(boris.get(sent.location))
    assert store.draft(sid).parts == {}  # deal 2's draft is untouched
    again = boris.post(f"/s/{sid}/draft/1/correction", data=kept)  # sent twice: one correction
    assert again.status_code == 303 and len(store.corrections(sid)) == 1
    correction = store.corrections(sid)[0]
    session_page = text(scorer.get(f"/s/{sid}"))
    assert f'href="/s/{sid}/corrections/{correction.id}"' in session_page
    assert "Deal 1: a correction from the phone of Boris" in words(session_page)
    assert "Deal 1: a correction from the phone of Boris" in words(text(scorer.get(f"/s/{sid}/draft")))
    assert phone(app).get(f"/s/{sid}/corrections/{correction.id}").status_code == 403  # the scorer's alone
    page = text(scorer.get(f"/s/{sid}/corrections/{correction.id}"))
    recorded_side = words(re.search(r'<section class="card version" id="version-recorded".*?</section>', page, re.S)[0])
    proposed_side = words(re.search(r'<section class="card version" id="version-proposed".*?</section>', page, re.S)[0])
    assert "In hand: ✗ not entered" in recorded_side and "Boris: 15 for this deal" in recorded_side
    assert "In hand: 9 9 K Q 3 8 JK" in proposed_side and "Boris: −35 for this deal" in proposed_side
    applied = scorer.post(
        f"/s/{sid}/corrections/{correction.id}",
        data={"csrf_token": hidden(page, "csrf_token"), "expected": hidden(page, "expected"), "apply": "1"},
    )
    assert applied.status_code == 303
    deal = store.list_deals(sid)[0]
    assert deal.record["players"][1]["hand"] == {"ranks": "9 9 K Q 3 8", "jokers": 1} and not deal.override
    assert app.test_client().get(f"{API}/sessions/{sid}").get_json()["totals"]["Boris"] == -35
    assert [h.action for h in store.history(sid)][:1] == ["edit"]  # in the history, as an edit
    assert store.corrections(sid) == [] and store.corrections(sid, open_only=False)[0].outcome == "applied"
    twice = scorer.post(
        f"/s/{sid}/corrections/{correction.id}",
        data={"csrf_token": hidden(page, "csrf_token"), "expected": hidden(page, "expected"), "apply": "1"},
    )
    assert twice.status_code == 303 and "applied already" in text(scorer.get(twice.location))
    assert len(store.history(sid)) == 2  # the second tap changed nothing


def test_a_correction_the_scorer_dismisses_leaves_the_deal_as_recorded(app, store):
    sid, token = start_api(app.test_client())
    vera, scorer = seated(app, sid, 2), scorer_phone(app, sid, token)
    stale = text(vera.get(f"/s/{sid}/draft/2"))
    body = {
        "players": [
            {"name": "Anna", "melds": ["A♠ A♥ A♦"]},
            {"name": "Boris", "hand": "5♦"},
            {"name": "Vera", "hand": "K♣"},
        ],
        "went_out": "Anna",
    }
    assert (
        app.test_client()
        .post(f"{API}/sessions/{sid}/deals", json=body, headers={"Authorization": f"Bearer {token}"})
        .status_code
        == 201
    )
    sent = vera.post(f"/s/{sid}/draft/2/correction", data=part_form(stale, melds="7♠ 8♠ 9♠", hand="K♣"))
    assert sent.status_code == 303
    correction = store.corrections(sid)[0]
    page = text(scorer.get(f"/s/{sid}/corrections/{correction.id}"))
    dismissed = scorer.post(
        f"/s/{sid}/corrections/{correction.id}",
        data={"csrf_token": hidden(page, "csrf_token"), "expected": hidden(page, "expected"), "dismiss": "1"},
    )
    assert dismissed.status_code == 303 and store.corrections(sid) == []
    assert store.list_deals(sid)[0].record["players"][2]["melds"] == [] and store.list_deals(sid)[0].revision == 1


def test_a_part_sent_as_a_correction_while_its_draft_is_open_is_not_one(app, store):
    sid, _ = start_api(app.test_client())
    vera = seated(app, sid, 2)
    page = text(vera.get(f"/s/{sid}/draft/2"))
    sent = vera.post(f"/s/{sid}/draft/2/correction", data=part_form(page, melds="7♠ 8♠ 9♠", hand="K♣"))
    assert sent.status_code == 303 and store.corrections(sid) == []
    assert "still being entered" in text(vera.get(sent.location))
    stranger = phone(app)
    assert stranger.post(f"/s/{sid}/draft/2/correction", data=part_form(page, melds="7♠ 8♠ 9♠")).status_code in (
        400,
        403,
    )


# -- a rule edge: jokers typed by rank or in points at a wild-card table are its wild cards ------------------


@pytest.mark.parametrize(
    "entry, typed, stored",
    [
        ("ranks", "Дж Дж", {"ranks": "", "jokers": 2}),
        ("points", "JK", {"points": 0, "jokers": 1}),
        ("ranks", "7 Дж", {"ranks": "7", "jokers": 1}),
    ],
)
def test_a_hand_of_jokers_typed_by_rank_or_points_at_a_wild_table_is_its_wild_cards(entry, typed, stored):
    wild = RuleSet.for_game("kunken", {"wild_card": "7♠"})
    hand, reasons = read_hand(typed, wild, entry=entry)
    assert (hand, reasons) == (stored, [])
    deal = Deal.from_dict(
        {
            "players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""}, {"name": "Boris", "hand": hand}],
            "went_out": "Anna",
        }
    )
    report = evaluate_deal(deal, wild)
    assert report.valid, [p.code for p in report.problems]  # was joker_not_in_deck: a printed joker
    assert report.players[1].minus == 10 * stored["jokers"] + (5 if "7" in typed else 0)
    # typed card by card, a printed joker stays what it is
    assert read_hand("JK", wild, entry="cards") == ("JK", [])


@pytest.mark.parametrize("draft", ["abc", "", " ", "٣"])
def test_a_correction_form_without_a_readable_draft_is_refused_in_words(app, store, draft):
    sid, _ = start_api(app.test_client())
    vera = seated(app, sid, 2)
    page = text(vera.get(f"/s/{sid}/draft/2"))
    sent = vera.post(f"/s/{sid}/draft/2/correction", data={**part_form(page, melds="7♠ 8♠ 9♠"), "draft": draft})
    assert sent.status_code == 422 and store.corrections(sid) == []
    assert "The form is damaged; reload it." in text(sent)


def test_an_import_meets_the_same_check_a_hand_not_entered_needs_its_mark(client):
    deal = {
        "players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""}, {"name": "Boris", "melds": ["2♥ 3♥ 4♥"]}],
        "went_out": "Anna",
    }
    doc = {"format": "kunken-scorer/v1", "players": ["Anna", "Boris"], "deals": [{"number": 1, "record": deal}]}
    refused = client.post(f"{API}/sessions/import", json=doc)
    assert refused.status_code == 422 and "Boris: cards left in hand not entered" in refused.get_json()["error"]
    marked = {**doc, "deals": [{"number": 1, "record": deal, "override": True, "note": "lost his cards"}]}
    imported = client.post(f"{API}/sessions/import", json=marked)
    assert imported.status_code == 201
    session = client.get(f"{API}/sessions/{imported.get_json()['id']}").get_json()
    assert session["deals"][0]["record"]["players"][1]["hand"] is None and session["deals"][0]["override"] is True
