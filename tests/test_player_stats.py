"""Player statistics kept up to date as sessions change (issue 11): always equal to working them
out from every stored deal again, which is how /players computed them before."""

from __future__ import annotations

import random
import tempfile
from html import unescape
from pathlib import Path

from kunken_scorer import RuleSet, session_status
from kunken_scorer.service import player_history, refresh_stale_stats, score_row, scoreboard
from kunken_scorer.service.pages import PLAYERS_SHOWN
from kunken_scorer.store import Store

NAMES = ["Anna", "Boris", "Vera", "Gosha", "anna"]


def from_every_deal(store: Store, game=None) -> dict:
    """The statistics worked out from scratch (the oracle)."""
    players: dict = {}
    for session, deals in store.all_sessions_with_deals():
        if game and session.game != game:
            continue
        rules = RuleSet.from_dict(session.rules)
        names = session.players
        scores, expresses = [], {}
        for row in deals:
            scored = score_row(session.id, rules, row)
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
                    "melds": [m for m in [rnd.choice(["2♥ 3♥ 4♥", "K♣ K♦ K♥", ""])] if m],  # "" is no meld: none
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
    store.update_deal(sid, first.id, deal(names, rnd), override=True, note="x", expected_revision=1)
    store.undo_last(sessions[1][0])
    store.delete_deal(sessions[2][0], store.list_deals(sessions[2][0])[0].id)
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


def test_players_page_shows_the_first_fifty_and_all_on_request(client, store):
    """A club with years of play: the page lists the 50 players with the most wins, and every player one
    tap away; the game filter is kept by both links."""
    rnd = random.Random(3)
    names = [f"Player {n:02d}" for n in range(PLAYERS_SHOWN + 5)]
    for i in range(0, len(names), 5):
        seated = names[i : i + 5]
        session, _token = store.create_session("kunken", RuleSet.preset().to_dict(), seated, None)
        # the first of each five goes out: eleven players have a win, and they come first
        store.add_deal(session.id, {**deal(seated, rnd), "went_out": seated[0], "redeal": False})
    ranked = [p.name for p in player_history(store)]
    assert len(ranked) == PLAYERS_SHOWN + 5

    page = unescape(client.get("/players", headers={"Accept-Language": "en"}).get_data(as_text=True))
    rows = [name for name in ranked if f'<th scope="row">{name}<small>' in page]
    assert rows == ranked[:PLAYERS_SHOWN]  # the first fifty, in the page's order
    assert f"Players: {len(ranked)}; here are the {PLAYERS_SHOWN} with the most wins." in page
    assert 'href="/players?all=1"' in page and f"Show all {len(ranked)} players" in page

    everyone = unescape(client.get("/players?all=1", headers={"Accept-Language": "en"}).get_data(as_text=True))
    assert [name for name in ranked if f'<th scope="row">{name}<small>' in everyone] == ranked
    assert "Show all" not in everyone
    assert f"Show only the first {PLAYERS_SHOWN}" in everyone and 'href="/players"' in everyone

    kunken_only = unescape(client.get("/players?game=kunken", headers={"Accept-Language": "ru"}).get_data(as_text=True))
    assert 'href="/players?game=kunken&all=1"' in kunken_only
    assert "Всего игроков: 55; здесь 50, у кого больше всего побед." in kunken_only
    assert "Показать всех (55)" in kunken_only


def test_players_page_with_few_players_offers_no_links(client, store):
    session, _token = store.create_session("kunken", RuleSet.preset().to_dict(), ["Anna", "Boris"], None)
    store.add_deal(session.id, deal(["Anna", "Boris"], random.Random(1)))
    for path in ("/players", "/players?all=1"):
        page = client.get(path).get_data(as_text=True)
        assert "players-more" not in page


def test_a_name_shows_as_last_played_across_games(store):
    """The sums over the games keep the spelling of the latest session, whichever game it was."""
    rnd = random.Random(5)
    first, _ = store.create_session("kunken", RuleSet.preset().to_dict(), ["Anna", "Boris"], None)
    store.add_deal(first.id, deal(["Anna", "Boris"], rnd))
    later, _ = store.create_session("ordered-rummy", RuleSet.preset("ordered-rummy").to_dict(), ["ANNA", "Vera"], None)
    store.add_deal(later.id, {**deal(["ANNA", "Vera"], rnd), "redeal": False})
    history = {p.name.casefold(): p for p in player_history(store)}
    assert history["anna"].name == "ANNA" and history["anna"].sessions == 2
    latest, _ = store.create_session("kunken", RuleSet.preset().to_dict(), ["anna", "Boris"], None)
    store.add_deal(latest.id, {**deal(["anna", "Boris"], rnd), "redeal": False})
    assert {p.name.casefold(): p.name for p in player_history(store)}["anna"] == "anna"
    assert {p.name for p in player_history(store, "ordered-rummy")} == {"ANNA", "Vera"}


def test_players_are_ranked_by_wins_then_average_then_name_and_a_limit_keeps_the_first():
    """SQLite ranks the players as the rule says: the most wins, the best average over every game, then the name
    compared casefolded (Cyrillic and Latin, ties and all); a limit gives the first of that very order."""
    rnd = random.Random(11)
    names = ["Ёжик", "ёлка", "Анна", "anna", "Zoë", "Борис", "Öskar", "boris", "Яна", "Ира", "Émile", "ира"]
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(str(Path(folder) / "k.db"))
        try:
            for _ in range(30):
                seated = list(dict.fromkeys(n.casefold() for n in rnd.sample(names, 3)))
                seated = [next(n for n in names if n.casefold() == key) for key in seated]
                game = rnd.choice(["kunken", "ordered-rummy"])  # a player's rows of both games summed
                session, _ = store.create_session(game, RuleSet.preset(game).to_dict(), seated, None)
                for _ in range(rnd.randint(1, 2)):
                    store.add_deal(session.id, {**deal(seated, rnd), "redeal": False})
            for pair in (["Zoë", "Öskar"], ["Émile", "ёлка"], ["Юля", "юрий"]):  # alike records: a tie each
                session, _ = store.create_session("kunken", RuleSet.preset().to_dict(), ["Ян", *pair], None)
                players = [{"name": "Ян", "melds": ["A♠ A♥ A♦"], "hand": ""}]
                players += [{"name": n, "melds": [], "hand": "K♣"} for n in pair]
                store.add_deal(session.id, {"players": players, "went_out": "Ян"})
            ranked = player_history(store)
            expected = sorted(ranked, key=lambda p: (-p.won, -p.average, p.name.casefold()))
            assert [p.name for p in ranked] == [p.name for p in expected]
            assert len({(p.won, p.average) for p in ranked}) < len(ranked)  # some ties, broken by the name
            assert player_history(store, limit=4) == ranked[:4]
            assert store.player_count() == len(ranked)
        finally:
            store.close()


def test_a_score_past_what_the_statistics_keep_does_not_break_them_for_everyone(client, store):
    """An older release let a short hand of 100 doubling jokers be recorded anyway (a minus of 32 digits). Its
    session's statistics are kept at the most an SQLite integer holds over many sessions; /players answers,
    and the other sessions' statistics are worked out as before."""
    rules = RuleSet.for_game("kunken", {"joker_in_hand": "double"})
    absurd, _ = store.create_session("kunken", rules.to_dict(), ["Anna", "Boris"], None)
    store.add_deal(
        absurd.id,
        {"players": [{"name": "Anna", "hand": ""}, {"name": "Boris", "hand": {"points": 10, "jokers": 100}}]},
        override=True,
        note="as an older release let it",
    )
    plain, _ = store.create_session("kunken", RuleSet.preset().to_dict(), ["Vera", "Gleb"], None)
    store.add_deal(plain.id, {"players": [{"name": "Vera", "hand": ""}, {"name": "Gleb", "hand": "K♣"}]})
    answer = client.get("/players")
    assert answer.status_code == 200
    assert store.stale_stats() == []
    stats = kept(store)
    assert stats["gleb"][3] == -10 and stats["vera"][3] == 0
    assert -(10**15) == stats["boris"][3]
