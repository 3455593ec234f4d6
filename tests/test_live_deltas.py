"""Live updates as deltas (issue 48, web/deltas.py): a phone that shows version N of a live screen asks what changed
since N and gets only the parts that changed: for a 100-deal evening of five players at most 2 KB on the wire, the
new deal's row, the totals and the status; a 304 while nothing changed; the whole live part when the server no
longer has the phone's version. The table screen and the room screen take theirs the same way."""

from __future__ import annotations

import re

import pytest
from test_nights import FOUR, night, out_with_aces, record
from test_wire import PLAYERS, evening

from kunken_scorer.service import check_deal
from kunken_scorer.store import Store

JSON = {"Accept": "application/json"}


def next_deal(store: Store, sid: str, out: int = 0) -> int:
    """Record one more valid deal (player ``out`` goes out, the others keep a card each); its id."""
    cards = iter(["5♣", "6♥", "7♦", "9♠"])
    players = [
        {"name": name, "melds": ["A♠ A♥ A♦"] if seat == out else [], "hand": "" if seat == out else next(cards)}
        for seat, name in enumerate(PLAYERS)
    ]
    checked = check_deal(store.get_session(sid), {"players": players, "went_out": PLAYERS[out]})
    assert checked.report.valid, checked.report.problems
    return store.add_deal(sid, checked.record)[0].id


def ids_in(html: str, table: str) -> list[str]:
    """The deals' ids in the table ``table`` of a live part's ``html``, in order."""
    start = html.index(f'<table id="{table}"')
    return re.findall(r'<tbody id="(d-\d+)"', html[start : html.index("</table>", start)])


def spliced(ids: list[str], splices: list[list]) -> list[str]:
    """``ids`` with a delta's splices applied as static/live.js applies them (last first)."""
    ids = list(ids)
    for at, removed, *added in reversed(splices):
        ids[at : at + removed] = added
    return ids


def since(client, sid: str, version: int, extra: str = "", **headers):
    return client.get(
        f"/s/{sid}/live?since={version}{extra}", headers={**JSON, "If-None-Match": f'"{version}"', **headers}
    )


@pytest.fixture
def sid(store) -> str:
    return evening(store)


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_a_new_deal_reaches_a_watching_phone_as_a_delta_of_at_most_2_kb(client, store, sid, encoding):
    client.set_cookie("lang", "ru")
    assert client.get(f"/s/{sid}").status_code == 200  # the phone shows version N
    shown = store.version(sid)
    assert since(client, sid, shown).status_code == 304  # nothing changed yet
    deal = next_deal(store, sid)
    wire = since(client, sid, shown, **{"Accept-Encoding": encoding})
    assert wire.status_code == 200 and wire.headers["Content-Encoding"] == encoding
    assert len(wire.get_data()) <= 2 * 1024, len(wire.get_data())
    answer = since(client, sid, shown).get_json()
    assert "html" not in answer and answer["version"] == store.version(sid) and answer["next_deal"] == 102
    # the new row, the totals and the status: no row that stayed as it was
    assert set(answer["parts"]) == {f"d-{deal}", "scoreboard", "chart-figure", "totals-row", "earlier-summary"}
    assert "Сыграно партий" in answer["parts"]["scoreboard"] and 'data-count="101"' in answer["parts"]["scoreboard"]
    # the deal joined the last twenty, the oldest of them folded into the earlier deals: a splice or two a list
    assert answer["lists"] == {"deals": [[0, 1], [20, 0, f"d-{deal}"]], "deals-earlier": [[80, 0, f"d-{deal - 20}"]]}
    full = client.get(f"/s/{sid}/live", headers=JSON).get_json()["html"]
    for part in answer["parts"].values():
        assert part in full  # each part is the page's own, as a fresh load shows it


def test_an_edited_deal_sends_its_row_and_a_deleted_one_renumbers_the_rows_after_it(client, store, sid):
    client.get(f"/s/{sid}")
    shown = store.version(sid)
    rows = store.list_deals(sid)
    store.update_deal(
        sid, rows[89].id, rows[89].record, override=False, note="пересчитали", expected_revision=rows[89].revision
    )
    answer = since(client, sid, shown).get_json()
    # the row, the status that says the deals' count and the chart (drawn again for each version); no other row
    assert {key for key in answer["parts"] if key.startswith("d-")} == {f"d-{rows[89].id}"}
    assert "пересчитали" in answer["parts"][f"d-{rows[89].id}"] and answer["lists"] == {}
    client.get(f"/s/{sid}")
    shown = store.version(sid)
    page = client.get(f"/s/{sid}/live", headers=JSON).get_json()["html"]
    store.delete_deal(sid, rows[95].id)
    answer = since(client, sid, shown).get_json()
    now = client.get(f"/s/{sid}/live", headers=JSON).get_json()["html"]
    for table in ("deals", "deals-earlier"):  # the splices turn the rows shown into the rows a fresh load shows
        assert spliced(ids_in(page, table), answer["lists"].get(table, [])) == ids_in(now, table)
    # deals 97 to 100 are 96 to 99 now, and the one before the gap joined the last twenty
    renumbered = {f"d-{row.id}" for row in rows[96:]}
    assert renumbered <= set(answer["parts"])
    assert all(f'data-number="{n}"' in answer["parts"][f"d-{row.id}"] for n, row in enumerate(rows[96:], 96))


def test_a_phone_too_far_behind_gets_the_whole_live_part(client, sid):
    """A version the server no longer keeps (a restart, a phone asleep for the evening) or never had."""
    for asked in (1, 10**9, "abc"):
        answer = client.get(f"/s/{sid}/live?since={asked}", headers=JSON).get_json()
        assert answer["html"].count('class="deal') >= 20 and "parts" not in answer


def test_the_first_deal_changes_the_skeleton_and_sends_the_whole_part(client, store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, PLAYERS, None)
    client.get(f"/s/{session.id}")
    shown = store.version(session.id)
    next_deal(store, session.id)
    answer = since(client, session.id, shown).get_json()
    assert "Нет партий" not in answer["html"] and "No deals yet" not in answer["html"] and "parts" not in answer


def test_the_table_screen_takes_its_parts_as_a_delta(client, store, sid):
    client.set_cookie("lang", "ru")
    client.get(f"/s/{sid}/table")
    shown = store.version(sid)
    assert since(client, sid, shown, "&screen=table").status_code == 304
    next_deal(store, sid, out=2)
    wire = since(client, sid, shown, "&screen=table", **{"Accept-Encoding": "br"})
    assert wire.status_code == 200 and len(wire.get_data()) <= 2 * 1024
    answer = since(client, sid, shown, "&screen=table").get_json()
    assert set(answer["parts"]) == {"table-title", "table-totals", "table-last"}
    assert "Партия 102" in answer["parts"]["table-title"] and "Партия 101" in answer["parts"]["table-last"]
    assert "svg" not in "".join(answer["parts"].values())  # the QR code stays where it is


def test_the_room_screen_takes_its_stage_as_a_delta(client):
    made = night(client)
    nid = made["id"]
    assert client.get(f"/nights/{nid}/room").status_code == 200
    shown = client.get(f"/nights/{nid}/live").get_json()["version"]
    record(client, made["tables"][0], out_with_aces(FOUR, "Вера"))
    asked = {**JSON, "If-None-Match": f'"{shown}"'}
    answer = client.get(f"/nights/{nid}/live?screen=room&since={shown}", headers=asked).get_json()
    assert "html" not in answer and "room-stage" in answer["parts"]
    assert set(answer["parts"]) <= {"room-title", "room-stage"}
    assert answer["parts"]["room-stage"].index('data-player="Вера"') < answer["parts"]["room-stage"].index("Борис")
    now = answer["version"]
    assert (
        client.get(f"/nights/{nid}/live?screen=room&since={now}", headers={"If-None-Match": f'"{now}"'}).status_code
        == 304
    )
