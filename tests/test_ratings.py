"""Players' ratings (issue 37): openskill's Plackett-Luce over every ended session's final order, replayed in the
order the sessions ended; ending a session through the API; head to head."""

from __future__ import annotations

import json

import pytest
from conftest import API, auth, csrf_from, new_session, start_fields
from openskill.models import PlackettLuce

from kunken_scorer.service import ratings, refresh_stale_stats
from kunken_scorer.service.ratings import (
    Rating,
    end_key,
    places,
    refresh_ratings,
    refresh_ratings_in,
    replay_ratings,
)
from kunken_scorer.web import create_app

pytestmark = pytest.mark.lang("en")

MODEL = PlackettLuce()


def deal_for(order: list[tuple[str, int]]) -> dict:
    """One deal whose scores follow ``order``: (name, small cards left in hand); 0 cards: went out with three aces
    (+30), n cards: −5 n."""
    players = []
    for name, cards in order:
        if cards == 0:
            players.append({"name": name, "melds": ["A♠ A♥ A♦"], "hand": ""})
        else:
            players.append({"name": name, "melds": [], "hand": {"small": cards}})
    return {"players": players, "went_out": next(name for name, cards in order if cards == 0)}


def play(client, order: list[tuple[str, int]], end: bool = True) -> dict:
    """A session of ``order``'s players with one deal scored as ``order`` says, ended through the API."""
    session = new_session(client, players=[name for name, _ in order])
    recorded = client.post(f"{API}/sessions/{session['id']}/deals", json=deal_for(order), headers=auth(session))
    assert recorded.status_code == 201, recorded.get_json()
    if end:
        ended = client.post(f"{API}/sessions/{session['id']}/end", headers=auth(session))
        assert ended.status_code == 200, ended.get_json()
    return session


def imported(client, order: list[tuple[str, int]], ended_at: str | None) -> dict:
    """A session of one deal, imported with its end (the way an evening played elsewhere comes in)."""
    doc = {
        "format": "kunken-scorer/v1",
        "game": "kunken",
        "players": [name for name, _ in order],
        "created_at": ended_at,
        "ended_at": ended_at,
        "deals": [{"record": deal_for(order)}],
    }
    response = client.post(f"{API}/sessions/import", json=doc)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def api_players(client, **args) -> dict:
    response = client.get(f"{API}/players", query_string=args)
    assert response.status_code == 200, response.get_json()
    return {p["name"]: p for p in response.get_json()["players"]}


def oracle(history: list[list[tuple[str, int]]]) -> dict:
    """openskill itself, over ``history`` (each session's order: name, points) in the order given."""
    ratings: dict = {}
    for session in history:
        names = [name for name, _ in session]
        teams = [[ratings.get(name) or MODEL.rating()] for name in names]
        ranks = [1 + sum(o > p for _, o in session) for _, p in session]
        for name, team in zip(names, MODEL.rate(teams, ranks=ranks), strict=True):
            ratings[name] = team[0]
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def points_of(order: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return [(name, 30 if cards == 0 else -5 * cards) for name, cards in order]


def assert_ratings(client, expected: dict) -> None:
    got = api_players(client)
    for name, (mu, sigma) in expected.items():
        assert got[name]["rating"]["mu"] == pytest.approx(mu, abs=1e-4), name
        assert got[name]["rating"]["sigma"] == pytest.approx(sigma, abs=1e-4), name


AB = [("Anna", 0), ("Boris", 2)]  # Anna ahead
BA = [("Boris", 0), ("Anna", 2)]  # Boris ahead


# -- the rating's arithmetic -------------------------------------------------------------------------------------


def test_places_share_a_place_on_equal_totals():
    assert places([30, -10, -10, 5]) == [1, 3, 3, 2]
    assert places([0, 0]) == [1, 1]


def test_with_the_models_default_margin_scores_read_the_order_not_the_margin_of_victory():
    """What docs/decisions.md says: the model kunken_scorer rates with keeps openskill's default ``margin`` (0), under
    which ``scores=`` comes to the same as ``ranks=`` of their places, however wide the wins; a margin above 0 is what
    would make a wide win count more."""
    assert ratings.MODEL.margin == 0.0

    def after(model: PlackettLuce, **how) -> list[tuple[float, float]]:
        teams = [[model.rating(mu=25 + i, sigma=8 - i)] for i in range(4)]
        return [(r.mu, r.sigma) for [r] in model.rate(teams, **how)]

    totals = [120, 5, 5, -300]
    by_places = after(ratings.MODEL, ranks=[float(p) for p in places(totals)])
    assert after(ratings.MODEL, scores=[float(t) for t in totals]) == by_places
    assert after(ratings.MODEL, scores=[2.0, 1.0, 1.0, 0.0]) == by_places  # narrow wins: the same ratings
    with_margin = PlackettLuce(margin=2.0)
    assert after(with_margin, scores=[float(t) for t in totals]) != after(with_margin, scores=[2.0, 1.0, 1.0, 0.0])


def test_end_key_orders_by_the_moment_in_utc():
    assert end_key("2026-11-30T20:00:00+02:00") < end_key("2026-11-30T19:00:00+00:00")
    assert end_key("2026-11-30T18:00:00") == end_key("2026-11-30T18:00:00+00:00")


def test_the_ordinal_is_openskills_and_a_new_player_is_provisional():
    rating = Rating(30.0, 5.0, 4)
    assert rating.ordinal == MODEL.create_rating([30.0, 5.0]).ordinal()
    assert rating.provisional and not Rating(30.0, 5.0, 5).provisional
    assert Rating().ordinal == pytest.approx(0) and Rating().provisional


# -- ratings through the API ------------------------------------------------------------------------------------


def test_a_player_who_keeps_winning_rates_above_one_who_keeps_losing(client):
    for _ in range(6):
        play(client, [("Anna", 0), ("Vera", 1), ("Boris", 3)])
    players = api_players(client)
    anna, vera, boris = (players[n]["rating"] for n in ("Anna", "Vera", "Boris"))
    assert anna["ordinal"] > vera["ordinal"] > boris["ordinal"]
    assert anna["mu"] > 25 > boris["mu"]
    assert anna["ordinal"] == pytest.approx(anna["mu"] - 3 * anna["sigma"], abs=1e-3)
    assert_ratings(client, oracle([points_of([("Anna", 0), ("Vera", 1), ("Boris", 3)])] * 6))


def test_equal_totals_share_a_place(client):
    play(client, [("Anna", 0), ("Boris", 2), ("Vera", 2)])
    players = api_players(client)
    assert players["Boris"]["rating"] == players["Vera"]["rating"]
    assert_ratings(client, oracle([[("Anna", 30), ("Boris", -10), ("Vera", -10)]]))


def test_provisional_until_five_rated_sessions(client):
    for played in range(1, 6):
        play(client, AB)
        anna = api_players(client)["Anna"]
        assert anna["rated_sessions"] == played
        assert anna["provisional"] is (played < 5)
    page = client.get("/players").get_data(as_text=True)
    assert "provisional" not in page.split("<tbody>")[1].split("</tbody>")[0]


COMPOSED, DECOMPOSED = "Лёня", "Ле\u0308ня"  # "ё" as one letter, and as "е" with a combining diaeresis


def test_a_name_typed_in_two_unicode_forms_is_one_player(client, store):
    assert COMPOSED != DECOMPOSED
    first = play(client, [(DECOMPOSED, 0), ("Anna", 2)])
    assert client.get(f"{API}/sessions/{first['id']}").get_json()["players"] == [COMPOSED, "Anna"]  # stored NFC
    play(client, [(COMPOSED, 0), ("Boris", 2)])
    players = api_players(client)
    assert set(players) == {COMPOSED, "Anna", "Boris"}
    assert players[COMPOSED]["sessions"] == 2 and players[COMPOSED]["rated_sessions"] == 2
    assert_ratings(client, oracle([[(COMPOSED, 30), ("Anna", -10)], [(COMPOSED, 30), ("Boris", -10)]]))
    page = client.get("/players").get_data(as_text=True)
    rows = page.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count(f'<th scope="row">{COMPOSED}<') == 1 and DECOMPOSED not in page
    h2h = client.get(f"{API}/players/h2h", query_string={"a": DECOMPOSED, "b": "anna"})
    assert h2h.status_code == 200, h2h.get_json()
    # the start form too keeps the name NFC
    started = client.post("/sessions", data=start_fields(csrf_from(client), [DECOMPOSED, "Vera"]))
    assert started.status_code == 303
    assert [s.players for s in store.recent_sessions(1)] == [[COMPOSED, "Vera"]]


@pytest.mark.parametrize("path", ["sessions", "nights"])
def test_two_names_that_differ_only_in_unicode_form_are_one_name_twice(client, path):
    body = {"players": [COMPOSED, DECOMPOSED]} if path == "sessions" else {"tables": [[COMPOSED, DECOMPOSED]]}
    twice = {"players": [COMPOSED, COMPOSED]} if path == "sessions" else {"tables": [[COMPOSED, COMPOSED]]}
    refused, same = client.post(f"{API}/{path}", json=body), client.post(f"{API}/{path}", json=twice)
    assert refused.status_code == same.status_code == 400
    assert refused.get_json() == same.get_json()


def test_only_ended_sessions_are_rated(client):
    play(client, AB, end=False)
    anna = api_players(client)["Anna"]
    assert anna["sessions"] == 1 and anna["rated_sessions"] == 0 and anna["provisional"]
    assert anna["rating"] == {"mu": 25.0, "sigma": 8.3333, "ordinal": 0.0}
    page = client.get("/players").get_data(as_text=True)
    assert "provisional" in page


def test_the_players_page_shows_the_ordinal(client):
    for _ in range(5):
        play(client, AB)
    ordinal = api_players(client)["Anna"]["rating"]["ordinal"]
    page = client.get("/players").get_data(as_text=True)
    assert f"{ordinal:,.1f}" in page
    assert 'href="/players/h2h"' in page or 'action="/players/h2h"' in page


def test_the_order_sessions_ended_in_matters(client, app):
    """The same two results, ended in the other order, rate otherwise: a replay follows the end, not the start."""
    imported(client, AB, "2026-11-01T20:00:00+00:00")
    imported(client, BA, "2026-11-02T20:00:00+00:00")
    first = api_players(client)
    assert_ratings(client, oracle([points_of(AB), points_of(BA)]))
    # a second file: the same results, ended the other way round
    second_app = create_app({**app.config, "DATABASE": app.config["DATABASE"] + "-2"})
    second = second_app.test_client()
    imported(second, BA, "2026-11-01T20:00:00+00:00")
    imported(second, AB, "2026-11-02T20:00:00+00:00")
    flipped = api_players(second)
    assert first["Anna"]["rating"] != flipped["Anna"]["rating"]
    assert first["Anna"]["rating"]["mu"] < flipped["Anna"]["rating"]["mu"]  # Anna won last there
    assert_ratings(second, oracle([points_of(BA), points_of(AB)]))


def test_an_older_ended_session_brought_in_replays_the_history(client):
    """An evening that ended before the last one rated (an import) takes its place in the order: every rating is
    worked out again, not the new session folded in last."""
    imported(client, AB, "2026-11-01T20:00:00+00:00")
    imported(client, AB, "2026-11-03T20:00:00+00:00")
    api_players(client)  # rated: two sessions
    imported(client, BA, "2026-11-02T20:00:00+00:00")
    assert_ratings(client, oracle([points_of(AB), points_of(BA), points_of(AB)]))
    # folded in last, it would have given other ratings
    assert oracle([points_of(AB), points_of(BA), points_of(AB)]) != oracle([points_of(AB)] * 2 + [points_of(BA)])


def test_a_change_to_an_old_ended_session_changes_the_ratings(client, store):
    """Nothing in the app changes an ended session; a hand edit of the file that moves its version (decisions.md)
    replays the ratings from it, as a change would."""
    first = play(client, AB)
    play(client, AB)
    before = api_players(client)
    row = store.db.execute("SELECT id, record FROM deals WHERE session_id = ?", [first["id"]]).fetchone()
    record = json.loads(row[1])
    record.update(deal_for(BA))  # the table wrote the deal the wrong way round
    with store.db.conn:
        store.db.execute(
            "UPDATE deals SET record = ?, revision = revision + 1 WHERE id = ?", [json.dumps(record), row[0]]
        )
        store.db.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", [first["id"]])
    after = api_players(client)
    assert after["Anna"]["rating"] != before["Anna"]["rating"]
    assert_ratings(client, oracle([points_of(BA), points_of(AB)]))


def test_kept_ratings_equal_a_replay_of_the_whole_history(client, store):
    orders = [AB, BA, [("Vera", 0), ("Anna", 1), ("Boris", 1)], [("Boris", 0), ("Vera", 4)], AB]
    for order in orders:
        play(client, order)
        api_players(client)  # each folded in on its own
    kept = store.ratings()
    assert replay_ratings(store)
    assert store.ratings() == kept
    assert_ratings(client, oracle([points_of(o) for o in orders]))


def test_a_long_history_is_replayed_in_the_background(client, app, store):
    """A request does not replay past ``inline`` ended sessions: the ratings stay as they were until the background
    catch-up (the one the server runs at start-up) has replayed them."""
    imported(client, AB, "2026-11-03T20:00:00+00:00")
    api_players(client)
    imported(client, BA, "2026-11-01T20:00:00+00:00")
    refresh_stale_stats(store)  # the statistics worked out
    before = store.ratings()
    assert refresh_ratings(store, inline=1) is False
    assert store.ratings() == before
    refresh_ratings_in(app.config["DATABASE"])
    assert refresh_ratings(store, inline=1) is True
    assert_ratings(client, oracle([points_of(BA), points_of(AB)]))


def test_more_sessions_waiting_than_a_request_looks_at_replay_the_whole_history(client, store, monkeypatch):
    """More ended sessions waiting to be rated than ``PENDING_LOOK`` (an upgraded file): a request does not fold
    them in one by one but replays the whole history, when that is short enough, else leaves it to the background."""
    monkeypatch.setattr("kunken_scorer.service.ratings.PENDING_LOOK", 3)  # 501 sessions, in small
    orders = [AB, BA, AB, AB]
    for day, order in enumerate(orders, start=1):
        imported(client, order, f"2026-11-0{day}T20:00:00+00:00")
    refresh_stale_stats(store)  # the statistics worked out: only the number waiting stops the folding in
    assert len(store.unrated_sessions(10)) == 4
    assert refresh_ratings(store, inline=3) is False  # four ended sessions: more than a request replays
    assert store.ratings() == {} and len(store.unrated_sessions(10)) == 4
    assert refresh_ratings(store) is True  # within the inline limit: the whole history, in the order it ended
    assert store.unrated_sessions(10) == []
    assert_ratings(client, oracle([points_of(o) for o in orders]))


def test_the_players_api_filters_by_game_and_refuses_an_unknown_one(client):
    play(client, AB)
    assert set(api_players(client, game="kunken")) == {"Anna", "Boris"}
    assert api_players(client, game="ordered-rummy") == {}
    response = client.get(f"{API}/players", query_string={"game": "poker" * 100})
    assert response.status_code == 400
    assert "game" in response.get_json()["error"]


# -- ending a session through the API ------------------------------------------------------------------------------


def test_ending_a_session_needs_its_token(client):
    session = new_session(client)
    url = f"{API}/sessions/{session['id']}/end"
    unsigned = client.post(url)
    assert unsigned.status_code == 401 and unsigned.headers["WWW-Authenticate"] == "Bearer"
    assert client.post(url, headers={"Authorization": "Bearer not-the-token"}).status_code == 403
    assert client.post(f"{API}/sessions/no-such-session/end", headers=auth(session)).status_code == 404
    ended = client.post(url, headers=auth(session))
    assert ended.status_code == 200
    body = ended.get_json()
    assert body["ended_at"] and body["totals"] == {"Anna": 0, "Boris": 0} and body["version"] == 2
    again = client.post(url, headers=auth(session))
    assert again.status_code == 409 and "ended" in again.get_json()["error"]
    assert client.get(f"{API}/sessions/{session['id']}").get_json()["ended_at"] == body["ended_at"]
    assert client.get(url).status_code == 405


def test_an_ended_session_takes_no_more_deals(client):
    session = play(client, AB)
    response = client.post(f"{API}/sessions/{session['id']}/deals", json=deal_for(BA), headers=auth(session))
    assert response.status_code == 409


# -- head to head ------------------------------------------------------------------------------------------------


def test_head_to_head_counts(client):
    play(client, AB)
    play(client, AB)
    play(client, BA)
    play(client, [("Anna", 1), ("Boris", 1), ("Vera", 0)])  # level, both behind Vera
    play(client, [("Vera", 0), ("Gosha", 1)])  # neither played
    play(client, AB, end=False)  # a session in play counts too, as on /players
    response = client.get(f"{API}/players/h2h", query_string={"a": "anna", "b": "BORIS"})
    assert response.status_code == 200
    body = response.get_json()
    assert body["players"] == ["Anna", "Boris"]
    assert body["sessions"] == 5 and body["ahead"] == {"Anna": 3, "Boris": 1} and body["level"] == 1
    assert [t["ahead"] for t in body["together"]].count(None) == 1
    assert [t["ended"] for t in body["together"]].count(False) == 1
    assert all(set(t["points"]) == {"Anna", "Boris"} for t in body["together"])
    page = client.get("/players/h2h", query_string={"a": "Anna", "b": "Boris"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "5 sessions together." in text and "Anna finished ahead: 3." in text and "Level: 1." in text


def test_head_to_head_of_players_who_never_met(client):
    play(client, AB)
    play(client, [("Vera", 0), ("Gosha", 1)])
    body = client.get(f"{API}/players/h2h", query_string={"a": "Anna", "b": "Vera"}).get_json()
    assert body["sessions"] == 0 and body["together"] == []
    page = client.get("/players/h2h?a=Anna&b=Vera").get_data(as_text=True)
    assert "They have not played a session together yet." in page


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({}, 400),
        ({"a": "Anna"}, 400),
        ({"b": "Anna"}, 400),
        ({"a": "", "b": "Boris"}, 400),
        ({"a": "Anna", "b": "x" * 10_000}, 400),
        ({"a": "Anna", "b": "bad\x00name"}, 400),
        ({"a": "Anna", "b": "ANNA"}, 400),
        ({"a": "Anna", "b": "Zed"}, 404),
        ({"a": "Zed" * 13, "b": "Anna"}, 404),
    ],
)
def test_hostile_head_to_head_gets_a_clear_refusal(client, query, status):
    play(client, AB)
    response = client.get(f"{API}/players/h2h", query_string=query)
    assert response.status_code == status, response.get_json()
    assert response.get_json()["error"]
    page = client.get("/players/h2h", query_string=query) if query else None
    if page is not None:
        assert page.status_code == status
        assert 'role="alert"' in page.get_data(as_text=True)


def test_the_head_to_head_page_without_names_is_its_form(client):
    play(client, AB)
    page = client.get("/players/h2h")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'name="a"' in text and 'name="b"' in text and '<option value="Anna">' in text


def test_unknown_name_is_named_in_the_refusal(client):
    play(client, AB)
    response = client.get(f"{API}/players/h2h", query_string={"a": "Anna", "b": "Zed"})
    assert response.get_json() == {"error": "No player named Zed has a scored session on this device."}
