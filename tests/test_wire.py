"""What a phone downloads (issue 35): pages, JSON, SVG, CSS and JS go compressed (Flask-Compress: Brotli, else
gzip), so a 100-deal evening of five players is at most 10 KB a session page and 8 KB a live update on the
wire; an unchanged live poll is still an empty 304.

The evening's deals differ from one another (each hand drawn at random, seeded), as a real evening's do:
a hundred copies of one deal would compress far better than any table's evening."""

from __future__ import annotations

import random

import pytest
from conftest import text

from kunken_scorer.service import check_deal
from kunken_scorer.store import Store

PLAYERS = ["Анна", "Борис", "Вера", "Гоша", "Дима"]
MELDS = ["A♠ A♥ A♦", "2♥ 3♥ 4♥", "K♠ K♥ K♦", "5♣ 6♣ 7♣", "Q♠ Q♥ Q♦"]
POOL = "8♠ 9♠ 10♠ J♠ 8♥ 9♥ 10♥ J♥ 8♦ 9♦ 10♦ J♦ 8♣ 9♣ 10♣ J♣ 2♠ 3♠ 4♠ 2♦ 3♦ 4♦ JK".split()


def evening(store: Store, deals: int = 100, seed: int = 35) -> str:
    """A session of five players with ``deals`` different valid deals; its id."""
    rng = random.Random(seed)
    session, _ = store.create_session("kunken", {"game": "kunken"}, PLAYERS, None)
    with store.db.atomic():
        for number in range(deals):
            out = number % len(PLAYERS)
            cards = rng.sample(POOL, len(POOL))
            players = []
            for seat, name in enumerate(PLAYERS):
                hand = [] if seat == out else [cards.pop() for _ in range(rng.randint(1, 4))]
                players.append({"name": name, "melds": [MELDS[seat]], "hand": " ".join(hand)})
            checked = check_deal(session, {"players": players, "went_out": PLAYERS[out]})
            assert checked.report.valid, checked.report.problems
            store.add_deal(session.id, checked.record)
    return session.id


@pytest.fixture
def sid(store) -> str:
    return evening(store)


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_a_100_deal_evening_is_small_on_the_wire(client, sid, encoding):
    client.set_cookie("lang", "ru")
    plain = client.get(f"/s/{sid}")
    page = client.get(f"/s/{sid}", headers={"Accept-Encoding": encoding})
    assert page.status_code == 200 and page.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in page.headers["Vary"]
    assert len(plain.get_data()) > 60_000  # what went before: the page as text
    assert len(page.get_data()) <= 10 * 1024, len(page.get_data())
    live = client.get(f"/s/{sid}/live", headers={"Accept-Encoding": encoding, "Accept": "application/json"})
    assert live.status_code == 200 and live.headers["Content-Encoding"] == encoding
    assert len(live.get_data()) <= 8 * 1024, len(live.get_data())


def test_an_unchanged_live_poll_is_still_an_empty_304(client, sid):
    first = client.get(f"/s/{sid}/live", headers={"Accept-Encoding": "br"})
    version = first.headers["ETag"].removeprefix("W/").strip('"')
    again = client.get(f"/s/{sid}/live", headers={"Accept-Encoding": "br", "If-None-Match": f'"{version}"'})
    assert again.status_code == 304 and again.get_data() == b""


def test_a_client_that_takes_no_compression_gets_plain_text(client, sid):
    page = client.get(f"/s/{sid}", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in page.headers and "Борис" in text(page)


def test_the_static_files_go_compressed(client):
    for path in ("/static/style.css", "/static/entry.js"):
        answer = client.get(path, headers={"Accept-Encoding": "br"})
        assert answer.status_code == 200 and answer.headers.get("Content-Encoding") == "br", path
