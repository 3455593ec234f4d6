"""A club night's rounds through the API (issue 47): seating modes, late arrivals and drop-outs, undo, ending a round
and the night, and ratings that fold the night's tables in round and table order whatever order they ended in."""

from __future__ import annotations

from itertools import combinations

import pytest
from conftest import API
from test_nights import out_with_aces, record

from kunken_scorer.store import Store
from kunken_scorer.web import create_app

SIXTEEN = [
    ["Анна", "Борис", "Вера", "Гоша"],
    ["Дима", "Ева", "Жора", "Зоя"],
    ["Игорь", "Кира", "Лёня", "Маша"],
    ["Нина", "Олег", "Петя", "Рита"],
]


def start(client, tables=SIXTEEN, **extra) -> tuple[str, dict]:
    """A night started through the API: its id and the owner's headers."""
    made = client.post(f"{API}/nights", json={"tables": tables, **extra})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], {"Authorization": f"Bearer {made.get_json()['edit_token']}"}


def next_round(client, nid: str, owner: dict, status: int = 201, **body) -> dict:
    sent = client.post(f"{API}/nights/{nid}/rounds", json=body, headers=owner)
    assert sent.status_code == status, sent.get_json()
    return sent.get_json()


def tables_of(client, nid: str) -> list[list[list[str]]]:
    """Every round's tables' players, from the night's export."""
    document = client.get(f"{API}/nights/{nid}/export").get_json()
    return [[t["players"] for t in r["tables"]] for r in document["rounds"]]


def test_sixteen_players_at_four_tables_meet_each_other_at_most_once_over_five_fresh_rounds(client):
    nid, owner = start(client)
    for n in range(2, 6):
        answer = next_round(client, nid, owner, mode="fresh", round=n)
        assert answer["round"] == n and [len(t["players"]) for t in answer["tables"]] == [4, 4, 4, 4]
        assert all("edit_token" in t for t in answer["tables"])  # the owner is given each table's scorer token
    rounds = tables_of(client, nid)
    assert len(rounds) == 5
    pairs = [frozenset(p) for r in rounds for t in r for p in combinations(t, 2)]
    assert len(pairs) == len(set(pairs)) == 5 * 4 * 6  # 120 meetings, no pair twice: a resolvable design
    assert all(sorted(n for t in r for n in t) == sorted(n for t in SIXTEEN for n in t) for r in rounds)


def test_a_preview_starts_nothing_and_the_round_it_shows_is_the_one_that_starts(client):
    nid, owner = start(client)
    preview = next_round(client, nid, owner, 200, mode="fresh", preview=True)
    assert preview["round"] == 2 and preview["repeats"] == 0 and len(preview["still_playing"]) == 4
    assert client.get(f"{API}/nights/{nid}").get_json()["round"] == 1
    started = next_round(client, nid, owner, mode="fresh", round=2)
    assert [t["players"] for t in started["tables"]] == [t["players"] for t in preview["tables"]]
    again = next_round(client, nid, owner, 200, mode="fresh", round=2)  # a double tap starts nothing more
    assert again["round"] == 2 and [t["id"] for t in again["tables"]] == [t["id"] for t in started["tables"]]
    assert client.get(f"{API}/nights/{nid}").get_json()["round"] == 2


def test_a_late_arrival_and_a_drop_out_between_rounds(client):
    nid, owner = start(client)
    first = client.get(f"{API}/nights/{nid}", headers=owner).get_json()["tables"]
    record(client, first[0], out_with_aces(SIXTEEN[0], "Анна"))
    answer = next_round(client, nid, owner, mode="fresh", arrivals=["Сева"], leaving=["Анна"], round=2)
    seated = [n for t in answer["tables"] for n in t["players"]]
    assert "Сева" in seated and "Анна" not in seated and len(seated) == 16
    night = client.get(f"{API}/nights/{nid}").get_json()
    anna = next(s for s in night["standings"] if s["name"] == "Анна")
    assert (anna["total"], anna["table"]) == (30, 1)  # her points stay, and the table she last sat at
    assert all("Анна" not in t["players"] for t in night["tables"])
    assert next(s for s in night["standings"] if s["name"] == "Сева")["deals"] == 0
    # she comes back: 17 players make the tables 5, 4, 4, 4
    back = next_round(client, nid, owner, mode="standings", arrivals=["Анна"], round=3)
    assert sorted(len(t["players"]) for t in back["tables"]) == [4, 4, 4, 5]
    for wrong, words in (
        ({"leaving": ["Зина"]}, "Зина is not playing this round"),
        ({"arrivals": ["борис"]}, "борис is already playing"),
        ({"arrivals": "Сева"}, None),  # one name as text reads as one arrival: a preview of it
        ({"mode": "alphabet"}, "mode: expected one of fresh, standings, rating, tables"),
        ({"mode": "fresh", "tables": SIXTEEN}, "either the tables or a seating mode"),
        ({"leaving": [n for t in back["tables"] for n in t["players"] if n != "Рита"]}, "cannot sit at tables of"),
    ):
        sent = client.post(f"{API}/nights/{nid}/rounds", json={"preview": True, **wrong}, headers=owner)
        if words is None:
            assert sent.status_code == 400 and "Сева is already playing" in sent.get_json()["error"]
        else:
            assert sent.status_code == 400 and words in sent.get_json()["error"], (wrong, sent.get_json())
    assert client.get(f"{API}/nights/{nid}").get_json()["round"] == 3  # nothing refused started a round


def test_a_round_started_by_mistake_is_undone_until_a_deal_is_typed(client):
    nid, owner = start(client)
    first = client.get(f"{API}/nights/{nid}").get_json()["tables"]
    next_round(client, nid, owner, mode="fresh", round=2)
    undone = client.delete(f"{API}/nights/{nid}/rounds/2", headers=owner)
    assert undone.status_code == 200 and undone.get_json() == {"undone": 2, "round": 1}
    night = client.get(f"{API}/nights/{nid}").get_json()
    assert night["round"] == 1 and [t["id"] for t in night["tables"]] == [t["id"] for t in first]
    second = next_round(client, nid, owner, mode="fresh", round=2)
    assert client.get(f"{API}/sessions/{second['tables'][0]['id']}").status_code == 200
    table = second["tables"][0]
    record(client, table, out_with_aces(table["players"], table["players"][0]))
    refused = client.delete(f"{API}/nights/{nid}/rounds/2", headers=owner)
    assert refused.status_code == 409 and "a deal or a player's part is already typed" in refused.get_json()["error"]
    assert client.delete(f"{API}/nights/{nid}/rounds/1", headers=owner).status_code == 409
    assert client.delete(f"{API}/nights/{nid}/rounds/2").status_code == 401
    assert client.delete(f"{API}/nights/{nid}/rounds/2", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(f"{API}/nights/{nid}").get_json()["round"] == 2


def _play_two_rounds(client) -> tuple[str, dict, list[dict], list[dict]]:
    """A night of two rounds, the second seated as given, one deal at every table: the same on any install."""
    nid, owner = start(client)
    first = client.get(f"{API}/nights/{nid}", headers=owner).get_json()["tables"]
    for table in first:
        record(client, table, out_with_aces(table["players"], table["players"][1]))
    columns = [[t[i] for t in SIXTEEN] for i in range(4)]  # each first-round table spreads over the four
    second = next_round(client, nid, owner, tables=columns, round=2)["tables"]
    for table in second:
        record(client, table, out_with_aces(table["players"], table["players"][2]))
    return nid, owner, first, second


def _ratings(client) -> dict[str, tuple]:
    players = client.get(f"{API}/players").get_json()
    assert players["ratings_current"] is True
    return {p["name"]: (p["rating"]["mu"], p["rating"]["sigma"], p["rated_sessions"]) for p in players["players"]}


def test_ending_the_tables_in_any_order_rates_everyone_the_same(tmp_path):
    rated = []
    for order in ("night", "round 2 first", "scorers backwards"):
        settings = {"DATABASE": str(tmp_path / f"{order}.db"), "SECRET_KEY": "test-secret-key-0123456789abcdef"}
        app = create_app({"TESTING": True, **settings})  # a key given: nothing written into the repository
        client = app.test_client()
        nid, owner, first, second = _play_two_rounds(client)
        if order == "night":
            ended = client.post(f"{API}/nights/{nid}/end", headers=owner)
            assert ended.status_code == 200 and ended.get_json() == {"ended": 8, "tables": 8}
        elif order == "round 2 first":
            for n in (2, 1):
                ended = client.post(f"{API}/nights/{nid}/rounds/{n}/end", headers=owner)
                assert ended.status_code == 200 and ended.get_json() == {"ended": 4, "tables": 4}
        else:  # each table's scorer ends it, the last table of the last round first
            for table in reversed(first + second):
                sent = client.post(
                    f"{API}/sessions/{table['id']}/end", headers={"Authorization": f"Bearer {table['edit_token']}"}
                )
                assert sent.status_code == 200
            again = client.post(f"{API}/nights/{nid}/end", headers=owner)
            assert again.get_json() == {"ended": 0, "tables": 8}  # every table had ended: the night ends
        night = client.get(f"{API}/nights/{nid}").get_json()
        assert night["ended"] is (order != "round 2 first") and all(t["ended"] for t in night["tables"])
        ratings = _ratings(client)
        assert set(ratings) == {n for t in SIXTEEN for n in t}  # every player of the night is rated
        assert {r[2] for r in ratings.values()} == {2}  # both their tables
        rated.append(ratings)
    assert rated[0] == rated[1] == rated[2]
    assert len({r[0] for r in rated[0].values()}) > 1  # the ratings moved: the comparison says something


def test_an_ended_night_starts_no_round_and_ending_it_again_ends_nothing_more(client):
    nid, owner = start(client)
    assert client.post(f"{API}/nights/{nid}/end", headers=owner).get_json() == {"ended": 4, "tables": 4}
    assert client.post(f"{API}/nights/{nid}/end", headers=owner).get_json() == {"ended": 0, "tables": 4}
    refused = client.post(f"{API}/nights/{nid}/rounds", json={"mode": "fresh"}, headers=owner)
    assert refused.status_code == 409 and refused.get_json()["error"] == "The night has ended: no round can start."
    assert client.post(f"{API}/nights/{nid}/rounds/7/end", headers=owner).status_code == 400
    assert client.post(f"{API}/nights/{nid}/end").status_code == 401
    assert client.post(f"{API}/nights/no-such-night/end", headers=owner).status_code == 404


@pytest.mark.parametrize("body", [[], "fresh", {"mode": 3}, {"tables": "x"}, {"arrivals": [3]}, {"round": "two"}])
def test_a_malformed_round_request_is_a_clear_400(client, body):
    nid, owner = start(client)
    sent = client.post(f"{API}/nights/{nid}/rounds", json=body, headers=owner)
    assert sent.status_code == 400 and sent.get_json()["error"]
    assert client.get(f"{API}/nights/{nid}").get_json()["round"] == 1


def test_the_night_is_named_and_ranked_as_chosen_and_a_name_in_two_unicode_forms_is_one_player(client):
    nid, _ = start(client, name="  Пятница   у  Оли ", ranking="total", hand_entry="points")
    night = client.get(f"{API}/nights/{nid}").get_json()
    assert (night["name"], night["ranking"]) == ("Пятница у Оли", "total")
    table = night["tables"][0]
    store = Store.connect(client.application.config["DATABASE"])
    assert store.get_session(table["id"]).hand_entry == "points"  # every table enters hands as the night chose
    store.close()
    for bad, words in (
        ({"ranking": "luck"}, "ranking: expected one of"),
        ({"name": 5}, "name: expected"),
        ({"name": "x" * 81}, "at most 80"),
    ):
        sent = client.post(f"{API}/nights", json={"tables": SIXTEEN, **bad})
        assert sent.status_code == 400 and words in sent.get_json()["error"], bad
    twice = client.post(f"{API}/nights", json={"tables": [["Лёня", "Анна"], ["Ле\u0308ня", "Вера"]]})
    assert twice.status_code == 400 and "a player sits at one table" in twice.get_json()["error"]
