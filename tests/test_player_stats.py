"""Player statistics kept up to date as sessions change (issue 11): always equal to working them
out from every stored deal again, which is how /players computed them before."""

from __future__ import annotations

import random

from kunken_scorer import RuleSet, session_status
from kunken_scorer.service import player_history, refresh_stale_stats, score_row, scoreboard
from kunken_scorer.store import Store

NAMES = ["Anna", "Boris", "Vera", "Gosha", "anna"]


def from_every_deal(store: Store, game=None) -> dict:
    """The statistics worked out from scratch (the oracle)."""
    players: dict = {}
    for session, deals in store.all_sessions_with_deals():
        if game and session["game"] != game:
            continue
        rules = RuleSet.from_dict(session["rules"])
        names = session["players"]
        scores, expresses = [], {}
        for row in deals:
            scored = score_row(session["id"], rules, row)
            if scored.deal is None or scored.deal.redeal:
                continue
            scores.append(scored.scores)
            if scored.deal.express and rules.express and scored.deal.went_out in names:
                expresses[scored.deal.went_out] = expresses.get(scored.deal.went_out, 0) + 1
        if not scores:
            continue
        winners = {s.name for s in session_status(names, scores, None).standings if s.place == 1}
        for name in names:
            entry = players.setdefault(name.casefold(), [0, 0, 0, 0, 0])
            entry[0] += 1
            entry[1] += name in winners
            entry[2] += len(scores)
            entry[3] += sum(s.get(name, 0) for s in scores)
            entry[4] += expresses.get(name, 0)
    return players


def kept(store: Store, game=None) -> dict:
    return {p.name.casefold(): [p.sessions, p.won, p.deals, p.points, p.expresses] for p in player_history(store, game)}


def deal(names, rnd) -> dict:
    went_out = rnd.choice(names)
    players = []
    for name in names:
        if name == went_out:
            players.append({"name": name, "melds": ["A♠ A♥ A♦"], "hand": ""})
        else:
            players.append(
                {
                    "name": name,
                    "melds": [rnd.choice(["2♥ 3♥ 4♥", "K♣ K♦ K♥", ""])],
                    "hand": rnd.choice(["K♣", "5♦ 6♠", "", "JK"]),
                }
            )
    return {"players": players, "went_out": went_out, "express": rnd.random() < 0.2, "redeal": rnd.random() < 0.1}


def test_statistics_follow_every_change_through_the_pages_and_the_api(client, store):
    rnd = random.Random(7)
    sessions = []
    for n in range(6):
        names = rnd.sample(NAMES[:4], rnd.choice([2, 3])) + (["anna"] if n == 5 else [])
        names = list(dict.fromkeys(n.casefold() for n in names)) if n == 5 else names
        game = "ordered-rummy" if n % 3 == 2 else "kunken"
        created = client.post("/api/v1/sessions", json={"game": game, "players": names}).get_json()
        sessions.append((created["id"], created["edit_token"], names))
    for _ in range(40):
        sid, token, names = rnd.choice(sessions)
        body = {**deal(names, rnd), "override": True, "note": "random"}
        assert (
            client.post(
                f"/api/v1/sessions/{sid}/deals", json=body, headers={"Authorization": f"Bearer {token}"}
            ).status_code
            == 201
        )
        assert kept(store) == from_every_deal(store)
    # changes the pages make (the store's own methods here, then a look at /players)
    sid, token, names = sessions[0]
    first = store.list_deals(sid)[0]
    store.update_deal(sid, first["id"], deal(names, rnd), override=True, note="x", expected_revision=1)
    store.undo_last(sessions[1][0])
    store.delete_deal(sessions[2][0], store.list_deals(sessions[2][0])[0]["id"])
    assert client.get("/players").status_code == 200
    assert kept(store) == from_every_deal(store)
    for game in ("kunken", "ordered-rummy"):
        assert kept(store, game) == from_every_deal(store, game)
    exported = client.get(f"/api/v1/sessions/{sid}/export").get_json()
    assert client.post("/api/v1/sessions/import", json=exported).status_code == 201
    assert kept(store) == from_every_deal(store)


def test_a_session_without_a_scored_deal_does_not_count_and_undo_takes_it_back(client, store):
    created = client.post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid, token = created["id"], created["edit_token"]
    assert kept(store) == {}
    body = {
        "players": [{"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""}, {"name": "Boris", "hand": "K♣"}],
        "went_out": "Anna",
    }
    client.post(f"/api/v1/sessions/{sid}/deals", json=body, headers={"Authorization": f"Bearer {token}"})
    assert kept(store) == {"anna": [1, 1, 1, 30, 0], "boris": [1, 0, 1, -10, 0]}
    store.undo_last(sid)
    assert kept(store) == {}


def test_statistics_stale_after_a_crash_are_worked_out_again(app, store):
    created = app.test_client().post("/api/v1/sessions", json={"players": ["Anna", "Boris"]}).get_json()
    sid = created["id"]
    store.add_deal(
        sid, {"players": [{"name": "Anna", "hand": ""}, {"name": "Boris", "hand": "K♣"}], "went_out": "Anna"}
    )  # as if the process died before the statistics were written
    assert store.stale_stats() == [sid]
    assert refresh_stale_stats(store) == 1 and store.stale_stats() == []
    assert kept(store) == from_every_deal(store)
    board = scoreboard(store, sid)
    assert store.set_session_stats(sid, board.version - 1, "kunken", []) is False  # an older answer is not kept
