"""A file people can read (issue 35): the JSON documents are stored as UTF-8 text, "Аня" and "♠" as they are, not
``\\u`` escapes; a lone surrogate (which UTF-8 cannot hold) keeps its escape and still round-trips; and m012 rewrites
the documents stored before (the same content)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from sqlite_utils import Database

from kunken_scorer.store import Store, migrations

NAMES = ["Аня", "Борис", "Вера"]
RECORD = {
    "players": [{"name": "Аня", "melds": ["Т♠ Т♥ Т♦"], "hand": ""}, {"name": "Борис", "hand": "К♣ JK"}],
    "went_out": "Аня",
}


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "kunken.db")


def _raw(db_path: str, sql: str) -> list[str]:
    conn = sqlite3.connect(db_path)
    try:
        return [row[0] for row in conn.execute(sql)]
    finally:
        conn.close()


def test_names_and_suits_are_stored_as_utf8_text(db_path):
    store = Store.open(db_path)
    try:
        session, _ = store.create_session("kunken", {"wild_card": "JK"}, NAMES, None)
        deal, _ = store.add_deal(session.id, RECORD, note="Аня — ♠")
        store.update_deal(
            session.id, deal.id, {**RECORD, "went_out": "Борис"}, override=False, note=None, expected_revision=1
        )
    finally:
        store.close()
    stored = _raw(db_path, "SELECT players FROM sessions") + _raw(db_path, "SELECT record FROM deals")
    stored += _raw(db_path, "SELECT detail FROM history")
    assert stored[0] == '["Аня", "Борис", "Вера"]'
    assert "Т♠ Т♥ Т♦" in stored[1] and '"went_out": "Борис"' in stored[1]
    assert all("\\u" not in text for text in stored), stored
    assert any("Т♠" in text for text in stored[2:])  # the history's before and after


def test_a_name_with_a_lone_surrogate_is_stored_and_read_back_as_it_was(db_path):
    """UTF-8 has no lone surrogate: such a name (a script's, never a page's) keeps its \\udXXX escape in the JSON."""
    odd = ["Аня\ud800", "\udfffБорис"]
    record = {"players": [{"name": odd[0], "melds": ["Т♠ Т♥ Т♦"]}, {"name": odd[1]}], "went_out": odd[0]}
    store = Store.open(db_path)
    try:
        session, _ = store.create_session("kunken", {}, odd, None)
        deal, _ = store.add_deal(session.id, record)
        assert store.get_session(session.id).players == odd
        assert store.get_deal(session.id, deal.id).record == record
        assert store.history(session.id)[-1].detail["after"]["record"] == record
    finally:
        store.close()
    players = _raw(db_path, "SELECT players FROM sessions")[0]
    assert players == '["Аня\\ud800", "\\udfffБорис"]'
    assert json.loads(players) == odd


def _escaped(value) -> str:
    return json.dumps(value)  # as the store wrote every document before m012


def test_m012_rewrites_stored_documents_as_utf8_with_the_same_content(db_path):
    old = Database(db_path)
    migrations.apply(old, stop_before="m012_utf8_json")
    players = ["Аня", "Борис\ud800"]
    record = {"players": [{"name": "Аня", "melds": ["Т♠ Т♥ Т♦"]}], "note": "a \\u0041 backslash", "n": 1.5}
    old["sessions"].insert(
        {
            "id": "s1",
            "game": "kunken",
            "rules": _escaped({"wild_card": "JK"}),
            "players": _escaped(players),
            "token_hash": "0" * 64,
            "created_at": "2025-01-01T00:00:00+00:00",
            "version": 2,
        }
    )
    old["deals"].insert(
        {
            "session_id": "s1",
            "seq": 1,
            "record": _escaped(record),
            "override": 0,
            "revision": 1,
            "created_at": "2025-01-01T00:00:00+00:00",
            "updated_at": "2025-01-01T00:00:00+00:00",
        }
    )
    old["history"].insert(
        {
            "session_id": "s1",
            "deal_id": 1,
            "action": "record",
            "detail": _escaped({"after": {"record": record}}),
            "at": "x",
        }
    )
    old["sessions"].insert(  # an ASCII-only session: left as it is
        {
            "id": "s2",
            "game": "kunken",
            "rules": "{}",
            "players": '["A", "B"]',
            "token_hash": "0" * 64,
            "created_at": "2025-01-01T00:00:00+00:00",
            "version": 1,
        }
    )
    old.close()

    store = Store.open(db_path)
    try:
        assert store.get_session("s1").players == players
        assert store.get_deal("s1", 1).record == record
        assert store.history("s1")[0].detail == {"after": {"record": record}}
        assert store.get_session("s2").players == ["A", "B"]
    finally:
        store.close()
    assert _raw(db_path, "SELECT players FROM sessions ORDER BY id") == ['["Аня", "Борис\\ud800"]', '["A", "B"]']
    stored_record = _raw(db_path, "SELECT record FROM deals")[0]
    assert "Т♠ Т♥ Т♦" in stored_record and json.loads(stored_record) == record
    assert "a \\\\u0041 backslash" in stored_record  # a backslash written in the text is still one
    assert "Т♠" in _raw(db_path, "SELECT detail FROM history")[0]
