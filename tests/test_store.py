"""Store tests: each test gets a fresh database file of its own."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import inspect
import sqlite3
import threading
from pathlib import Path

import pytest
from conftest import at_once
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database
from test_ratings import deal_for

from kunken_scorer import service
from kunken_scorer import store as store_module
from kunken_scorer.store import (
    Conflict,
    NotFound,
    SessionEnded,
    StorageUnavailable,
    Store,
    StoreError,
    migrations,
)
from kunken_scorer.web import create_app

PLAYERS = ["Anna", "Boris", "Vera"]
RULES = {"joker_penalty": 25, "express_doubles": True}


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "kunken.db")


@pytest.fixture
def store(db_path):
    opened = Store.open(db_path)
    yield opened
    opened.close()


@pytest.fixture
def session(store):
    created, _token = store.create_session("kunken", RULES, PLAYERS, {"points": 500})
    return created


def deal_record(n):
    """A deal as the web layer might record it; the store treats it as opaque JSON."""
    return {
        "players": [{"name": "Anna", "melds": [f"{n}♥ {n}♠ {n}♦"], "hand": ""}],
        "went_out": "Anna",
        "express": False,
    }


def count(store, table, where="1", params=()):
    return store.db.execute(f"SELECT count(*) FROM {table} WHERE {where}", params).fetchone()[0]


# -- opening, migrations, connection settings -----------------------------------------


def test_open_applies_migrations_once(db_path):
    first = Store.open(db_path)
    assert [m.name for m in migrations.applied(first.db)] == [
        "m001_create_tables",
        "m002_creation_keys",
        "m003_hand_entry",
        "m004_drafts",
        "m005_creations",
        "m006_player_stats",
        "m007_live_deals",
        "m008_rescore_player_stats",
        "m009_part_floors",
        "m010_key_requests",
        "m011_seat_moves",
        "m012_utf8_json",
        "m013_deal_scores",
        "m014_ratings",
        "m015_nights",
        "m016_night_keys",
        "m017_parts_kept",
        "m018_club_key",
        "m019_nfc_names",
        "m020_night_settings",
        "m021_player_merges",
        "m022_night_revision",
    ]
    assert {"sessions", "deals", "history", "idempotency", "creation_keys"} <= set(first.db.table_names())
    created, _ = first.create_session("kunken", RULES, PLAYERS, None)
    first.close()

    second = Store.open(db_path)
    try:
        assert migrations.pending(second.db) == []
        assert count(second, "_sqlite_migrations") == 22
        # The tables were not recreated: the session written before re-opening is there.
        assert second.get_session(created.id) == created
    finally:
        second.close()


def test_connection_uses_wal_foreign_keys_and_busy_timeout(store, db_path):
    assert store.db.journal_mode == "wal"
    assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    # A Store wrapping a connection opened elsewhere gets foreign keys too.
    other = Store(Database(db_path))
    try:
        assert other.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert other.db.journal_mode == "wal"  # persistent in the file
        with pytest.raises(sqlite3.IntegrityError):
            other.db.execute(
                "INSERT INTO deals (session_id, seq, record, override, revision,"
                " created_at, updated_at) VALUES ('nope', 1, '{}', 0, 1, 'x', 'x')"
            )
    finally:
        other.close()


def test_memory_database_works_without_wal():
    mem = Store.open(":memory:")
    try:
        assert mem.db.journal_mode == "memory"
        created, _ = mem.create_session("kunken", {}, PLAYERS, None)
        assert mem.get_session(created.id).players == PLAYERS
    finally:
        mem.close()


# -- sessions and tokens --------------------------------------------------------------


def test_create_session_returns_decoded_fields(store):
    created, token = store.create_session("ordered-rummy", RULES, PLAYERS, {"points": 50})
    assert created == store.get_session(created.id)
    assert created.game == "ordered-rummy"
    assert created.rules == RULES
    assert created.players == PLAYERS
    assert created.target == {"points": 50}
    assert created.ended_at is None
    assert created.version == 1
    assert created.created_at.endswith("+00:00")
    # token_urlsafe(n) gives ceil(n * 4 / 3) characters of 6 bits each: >= 128 bits.
    assert len(created.id) * 6 >= 128 and len(token) * 6 >= 128
    assert created.id != token


def test_token_is_stored_only_as_its_hash(store):
    created, token = store.create_session("kunken", RULES, PLAYERS, None)
    rows = store.db.execute("SELECT * FROM sessions").fetchall()
    assert all(token not in str(value) for row in rows for value in row)
    stored = store.db.execute("SELECT token_hash FROM sessions WHERE id = ?", [created.id]).fetchone()[0]
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    assert "token_hash" not in dataclasses.asdict(created)


def test_check_token(store):
    created, token = store.create_session("kunken", RULES, PLAYERS, None)
    other, other_token = store.create_session("kunken", RULES, PLAYERS, None)
    assert store.check_token(created.id, token) is True
    assert store.check_token(created.id, other_token) is False
    assert store.check_token(created.id, token[:-1]) is False
    assert store.check_token(created.id, None) is False
    assert store.check_token(created.id, "") is False
    assert store.check_token("no-such-session", token) is False
    assert store.check_token(other.id, other_token) is True


def test_unknown_session_raises_not_found(store):
    with pytest.raises(NotFound):
        store.get_session("missing")
    with pytest.raises(NotFound):
        store.version("missing")
    with pytest.raises(NotFound):
        store.add_deal("missing", deal_record(1))
    with pytest.raises(NotFound):
        store.list_deals("missing")
    assert issubclass(NotFound, StoreError)


def test_recent_sessions_newest_first(store):
    ids = [store.create_session("kunken", {}, PLAYERS, None)[0].id for _ in range(4)]
    assert [s.id for s in store.recent_sessions()] == ids[::-1]
    assert [s.id for s in store.recent_sessions(limit=2)] == ids[:1:-1]


def test_version_bumps_on_every_change(store, session):
    sid = session.id
    assert store.version(sid) == 1
    deal, _ = store.add_deal(sid, deal_record(1))
    assert store.version(sid) == 2
    store.update_deal(sid, deal.id, deal_record(2), override=False, note=None, expected_revision=1)
    assert store.version(sid) == 3
    store.delete_deal(sid, deal.id)
    assert store.version(sid) == 4
    store.end_session(sid)
    assert store.version(sid) == 5
    assert store.get_session(sid).version == 5


# -- adding deals, idempotency, versions ----------------------------------------------


def test_add_deal_returns_numbered_deal_and_history(store, session):
    sid = session.id
    first, created = store.add_deal(sid, deal_record(1))
    second, _ = store.add_deal(sid, deal_record(2), override=True, note="the table agreed")
    assert created is True
    assert (first.number, second.number) == (1, 2)
    assert second.override is True and second.note == "the table agreed"
    assert second.revision == 1
    assert store.list_deals(sid) == [first, second]
    assert store.get_deal(sid, second.id) == second
    [latest, earliest] = store.history(sid)
    assert latest.action == "record" and latest.deal_id == second.id
    assert latest.detail["after"]["record"] == deal_record(2)
    assert earliest.deal_id == first.id


def test_add_deal_rejects_non_object_record(store, session):
    with pytest.raises(TypeError):
        store.add_deal(session.id, ["not", "an", "object"])
    assert count(store, "deals") == 0


def test_idempotent_add_deal_stores_one_deal(store, session):
    sid = session.id
    first, created_first = store.add_deal(sid, deal_record(1), idempotency_key="tap-1")
    again, created_again = store.add_deal(sid, deal_record(1), idempotency_key="tap-1")
    assert created_first is True and created_again is False
    assert again == first
    assert count(store, "deals") == 1
    assert count(store, "history", "action = 'record'") == 1
    assert store.version(sid) == 2


def test_idempotent_retry_replays_despite_changed_version(store, session):
    sid = session.id
    seen = store.version(sid)
    first, _ = store.add_deal(sid, deal_record(1), idempotency_key="k", expected_version=seen)
    # The retry carries the version the phone saw before its first attempt succeeded.
    again, created = store.add_deal(sid, deal_record(1), idempotency_key="k", expected_version=seen)
    assert created is False and again.id == first.id
    assert count(store, "deals") == 1


def test_idempotent_retry_returns_deleted_deal(store, session):
    sid = session.id
    first, _ = store.add_deal(sid, deal_record(1), idempotency_key="k")
    store.delete_deal(sid, first.id)
    again, created = store.add_deal(sid, deal_record(1), idempotency_key="k")
    assert created is False and again.id == first.id
    assert again.number is None  # no longer among the live deals
    assert count(store, "deals") == 1
    assert store.list_deals(sid) == []


def test_a_key_first_sent_with_one_request_refuses_another(store, session):
    """The API keeps a digest of what a key came with; a page's form key (no digest) is never compared."""
    sid = session.id
    first, _ = store.add_deal(sid, deal_record(1), idempotency_key="api", request="digest-a")
    again, created = store.add_deal(sid, deal_record(1), idempotency_key="api", request="digest-a")
    assert created is False and again.id == first.id
    with pytest.raises(store_module.KeyReused):
        store.add_deal(sid, deal_record(2), idempotency_key="api", request="digest-b")
    store.save_response(sid, "api", 201, {"number": 1}, "digest-a")
    assert store.stored_response(sid, "api", "digest-a") == (201, {"number": 1})
    with pytest.raises(store_module.KeyReused):
        store.stored_response(sid, "api", "digest-b")
    form, _ = store.add_deal(sid, deal_record(3), idempotency_key="form-key")  # a page's key: no digest
    assert store.add_deal(sid, deal_record(3), idempotency_key="form-key", request="any")[0].id == form.id
    assert count(store, "deals") == 2


def test_a_key_kept_from_before_requests_were_remembered_is_never_pinned_to_a_retry(store, session):
    """A key stored before m010 has no digest: a retry saving its answer later must not make the retry's body
    the key's (the original body would then be refused)."""
    sid = session.id
    store.add_deal(sid, deal_record(1), idempotency_key="old")  # as before the upgrade: no digest
    store.save_response(sid, "old", 201, {"number": 1}, "retry-digest")
    assert store.stored_response(sid, "old", "original-digest") == (201, {"number": 1})
    assert store.stored_response(sid, "old", "retry-digest") == (201, {"number": 1})


def test_idempotency_keys_are_per_session(store, session):
    other, _ = store.create_session("kunken", {}, PLAYERS, None)
    a, created_a = store.add_deal(session.id, deal_record(1), idempotency_key="same")
    b, created_b = store.add_deal(other.id, deal_record(2), idempotency_key="same")
    assert created_a and created_b and a.id != b.id


def test_saved_response_replays(store, session):
    sid = session.id
    assert store.stored_response(sid, "k") is None
    deal, _ = store.add_deal(sid, deal_record(1), idempotency_key="k")
    assert store.stored_response(sid, "k") is None  # stored, response not saved yet
    body = {"number": 1, "totals": {"Anna": 35, "Борис": -5}, "version": 2}
    store.save_response(sid, "k", 201, body)
    assert store.stored_response(sid, "k") == (201, body)
    assert store.stored_response(sid, "other") is None
    other, _ = store.create_session("kunken", {}, PLAYERS, None)
    assert store.stored_response(other.id, "k") is None


def test_saved_response_without_deal_then_claimed(store, session):
    sid = session.id
    store.save_response(sid, "k", 422, {"error": "bad deal", "problems": []})
    assert store.stored_response(sid, "k") == (422, {"error": "bad deal", "problems": []})
    deal, created = store.add_deal(sid, deal_record(1), idempotency_key="k")
    assert created is True
    assert store.stored_response(sid, "k") is None  # the rejected answer no longer applies
    assert store.add_deal(sid, deal_record(1), idempotency_key="k") == (deal, False)


def test_expected_version_conflict_leaves_data_unchanged(store, session):
    sid = session.id
    store.add_deal(sid, deal_record(1))
    before = (store.list_deals(sid), store.history(sid), store.version(sid))
    with pytest.raises(Conflict, match="another device"):
        store.add_deal(sid, deal_record(2), expected_version=1, idempotency_key="k")
    assert (store.list_deals(sid), store.history(sid), store.version(sid)) == before
    assert count(store, "idempotency") == 0
    deal, created = store.add_deal(sid, deal_record(2), expected_version=before[2])
    assert created and deal.number == 2


# -- editing, deleting, undoing -------------------------------------------------------


def test_update_deal_bumps_revision_and_logs_before_after(store, session):
    sid = session.id
    deal, _ = store.add_deal(sid, deal_record(1))
    updated = store.update_deal(sid, deal.id, deal_record(9), override=True, note="recount", expected_revision=1)
    assert updated.revision == 2
    assert updated.record == deal_record(9)
    assert (updated.override, updated.note) == (True, "recount")
    assert store.get_deal(sid, deal.id) == updated
    edit = store.history(sid)[0]
    assert edit.action == "edit"
    assert edit.detail["before"]["record"] == deal_record(1)
    assert edit.detail["after"]["record"] == deal_record(9)


def test_update_with_stale_revision_conflicts(store, session):
    sid = session.id
    deal, _ = store.add_deal(sid, deal_record(1))
    store.update_deal(sid, deal.id, deal_record(2), override=False, note=None, expected_revision=1)
    version = store.version(sid)
    with pytest.raises(Conflict) as raised:
        store.update_deal(sid, deal.id, deal_record(3), override=True, note="mine", expected_revision=1)
    assert "revision 2, you edited revision 1" in str(raised.value)
    current = store.get_deal(sid, deal.id)
    assert current.record == deal_record(2)
    assert (current.revision, current.override, current.note) == (2, False, None)
    assert store.version(sid) == version


def test_update_of_deleted_deal_conflicts(store, session):
    sid = session.id
    deal, _ = store.add_deal(sid, deal_record(1))
    store.delete_deal(sid, deal.id)
    with pytest.raises(Conflict, match="deleted"):
        store.update_deal(sid, deal.id, deal_record(2), override=False, note=None, expected_revision=1)


def test_deal_of_another_session_is_not_found(store, session):
    other, _ = store.create_session("kunken", {}, PLAYERS, None)
    deal, _ = store.add_deal(other.id, deal_record(1))
    with pytest.raises(NotFound):
        store.get_deal(session.id, deal.id)
    with pytest.raises(NotFound):
        store.update_deal(session.id, deal.id, deal_record(2), override=False, note=None, expected_revision=1)
    with pytest.raises(NotFound):
        store.delete_deal(session.id, deal.id)
    assert store.get_deal(other.id, deal.id).record == deal_record(1)


def test_store_treats_a_huge_deal_id_as_not_found(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    with pytest.raises(NotFound):
        store.get_deal(session.id, 2**70)
    with pytest.raises(NotFound):
        store.delete_deal(session.id, -(2**70))


def test_delete_and_undo_renumber_live_deals(store, session):
    sid = session.id
    deals = [store.add_deal(sid, deal_record(n))[0] for n in range(1, 5)]
    store.delete_deal(sid, deals[1].id, expected_revision=1)
    live = store.list_deals(sid)
    assert [d.id for d in live] == [deals[0].id, deals[2].id, deals[3].id]
    assert [d.number for d in live] == [1, 2, 3]
    assert [d.seq for d in live] == [1, 3, 4]
    assert store.get_deal(sid, deals[3].id).number == 3
    with pytest.raises(NotFound):
        store.get_deal(sid, deals[1].id)

    undone = store.undo_last(sid)
    assert undone.id == deals[3].id and undone.number == 3
    assert [d.number for d in store.list_deals(sid)] == [1, 2]

    added, _ = store.add_deal(sid, deal_record(5))
    assert (added.number, added.seq) == (3, 5)

    # Soft deletes: the rows remain, and the history tells what happened.
    assert count(store, "deals", "deleted_at IS NOT NULL") == 2
    actions = [h.action for h in store.history(sid)]
    assert actions == ["record", "undo", "delete"] + ["record"] * 4
    undo_entry = store.history(sid)[1]
    assert undo_entry.deal_id == deals[3].id
    assert undo_entry.detail["before"]["record"] == deal_record(4)


def test_repeated_delete_does_nothing(store, session):
    sid = session.id
    deal, _ = store.add_deal(sid, deal_record(1))
    store.delete_deal(sid, deal.id)
    version = store.version(sid)
    store.delete_deal(sid, deal.id, expected_revision=1)
    assert store.version(sid) == version
    assert [h.action for h in store.history(sid)] == ["delete", "record"]


def test_delete_with_stale_revision_conflicts(store, session):
    sid = session.id
    deal, _ = store.add_deal(sid, deal_record(1))
    store.update_deal(sid, deal.id, deal_record(2), override=False, note=None, expected_revision=1)
    with pytest.raises(Conflict):
        store.delete_deal(sid, deal.id, expected_revision=1)
    assert [d.id for d in store.list_deals(sid)] == [deal.id]


def test_undo_with_nothing_to_undo_and_stale_version(store, session):
    sid = session.id
    assert store.undo_last(sid) is None
    assert store.version(sid) == 1 and store.history(sid) == []
    store.add_deal(sid, deal_record(1))
    store.add_deal(sid, deal_record(2))
    seen = store.version(sid)
    store.undo_last(sid, expected_version=seen)
    # A double tap of "undo" carries the same version and must not remove a second deal.
    with pytest.raises(Conflict):
        store.undo_last(sid, expected_version=seen)
    assert len(store.list_deals(sid)) == 1


# -- ending ---------------------------------------------------------------------------


def test_ended_session_rejects_writes_but_reads_work(store, session):
    sid = session.id
    deal, _ = store.add_deal(sid, deal_record(1), idempotency_key="k")
    ended = store.end_session(sid)
    assert ended.ended_at is not None
    with pytest.raises(SessionEnded):
        store.add_deal(sid, deal_record(2))
    with pytest.raises(SessionEnded):
        store.update_deal(sid, deal.id, deal_record(2), override=False, note=None, expected_revision=1)
    with pytest.raises(SessionEnded):
        store.delete_deal(sid, deal.id)
    with pytest.raises(SessionEnded):
        store.undo_last(sid)
    assert store.get_session(sid).ended_at == ended.ended_at
    assert [d.record for d in store.list_deals(sid)] == [deal_record(1)]
    assert store.get_deal(sid, deal.id).revision == 1
    # A retry of a request that succeeded before the end still gets its answer.
    assert store.add_deal(sid, deal_record(1), idempotency_key="k") == (deal, False)

    version = store.version(sid)
    store.end_session(sid)  # ending twice is harmless
    assert store.version(sid) == version
    assert store.end_now(sid) is False
    assert store.get_session(sid).ended_at == ended.ended_at
    assert [h.action for h in store.history(sid)] == ["end", "record"]


def test_two_ends_at_the_same_moment_end_the_session_once(db_path, store, session):
    """Four requests ending a session together, each with the row read before any wrote (four connections): one
    ends it, the others are told it had ended (the API's 200 and 409s)."""
    outcomes = at_once(db_path, 4, lambda mine: service.end_session(mine, session).already)
    assert sorted(outcomes) == [False, True, True, True]
    assert [entry.action for entry in store.history(session.id)].count("end") == 1


# -- import and statistics ------------------------------------------------------------


def test_import_session_stores_everything(store):
    deals = [
        {"record": deal_record(1), "override": False, "note": None},
        {"record": deal_record(2), "override": True, "note": "house rule"},
        {"record": {"redeal": True}, "override": False, "note": None},
    ]
    created, token = store.import_session("kunken", RULES, PLAYERS, None, deals)
    assert store.check_token(created.id, token)
    assert created.version == 1 and created.players == PLAYERS
    listed = store.list_deals(created.id)
    assert [(d.record, d.override, d.note) for d in listed] == [(d["record"], d["override"], d["note"]) for d in deals]
    assert [d.number for d in listed] == [1, 2, 3]
    [entry] = store.history(created.id)
    assert entry.action == "import" and entry.detail == {"deals": 3}


def test_import_is_atomic(store):
    deals = [
        {"record": deal_record(1), "override": False, "note": None},
        {"record": deal_record(2), "override": False, "note": None},
        {"record": {"cards": object()}, "override": False, "note": None},  # not JSON
    ]
    with pytest.raises(TypeError):
        store.import_session("kunken", RULES, PLAYERS, None, deals)
    assert count(store, "sessions") == 0
    assert count(store, "deals") == 0
    assert count(store, "history") == 0
    assert not store.db.conn.in_transaction
    # The store is still usable afterwards.
    created, _ = store.import_session("kunken", RULES, PLAYERS, None, deals[:2])
    assert len(store.list_deals(created.id)) == 2


def test_all_sessions_with_deals_lists_live_deals(store):
    first, _ = store.create_session("kunken", {}, PLAYERS, None)
    empty, _ = store.create_session("kunken", {}, ["Ola", "Per"], None)
    a, _ = store.add_deal(first.id, deal_record(1))
    b, _ = store.add_deal(first.id, deal_record(2))
    c, _ = store.add_deal(first.id, deal_record(3))
    store.delete_deal(first.id, b.id)
    result = list(store.all_sessions_with_deals())
    assert [(s.id, [d.id for d in ds]) for s, ds in result] == [
        (first.id, [a.id, c.id]),
        (empty.id, []),
    ]
    assert result[0][1] == store.list_deals(first.id)


# -- concurrency ----------------------------------------------------------------------


def run_in_threads(db_path, rounds, step, threads=2):
    """Run ``rounds`` rounds of step(store, index, barrier, n) in parallel threads, each with its own
    Store on db_path; return each thread's list of what its steps returned."""
    barrier = threading.Barrier(threads, timeout=20)
    results, errors = [None] * threads, []

    def target(index):
        own = Store.open(db_path)  # sqlite3 connections belong to their thread
        try:
            results[index] = [step(own, index, barrier, n) for n in range(rounds)]
        except BaseException as error:  # reported to the main thread below
            errors.append(error)
            barrier.abort()  # release the other thread instead of leaving it waiting
        finally:
            own.close()

    workers = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers)
    assert not errors, errors
    return results


def test_concurrent_retries_with_same_key_store_one_deal(store, session, db_path):
    sid = session.id
    rounds = 25

    def retry(own, _index, barrier, n):
        barrier.wait()  # both phones send the same request at the same moment
        return own.add_deal(sid, deal_record(n), idempotency_key=f"tap-{n}")

    first, second = run_in_threads(db_path, rounds, retry)
    for (deal_a, created_a), (deal_b, created_b) in zip(first, second, strict=False):
        assert deal_a.id == deal_b.id
        assert sorted([created_a, created_b]) == [False, True]
    assert count(store, "deals") == rounds
    assert count(store, "idempotency") == rounds
    assert store.version(sid) == 1 + rounds


def test_concurrent_writes_with_same_version_one_wins(store, session, db_path):
    sid = session.id
    rounds = 10

    def write(own, index, barrier, _n):
        barrier.wait()
        seen = own.version(sid)
        barrier.wait()  # both have read the same version before either writes
        try:
            own.add_deal(sid, deal_record(index), expected_version=seen)
        except Conflict:
            return "conflict"
        return "stored"

    first, second = run_in_threads(db_path, rounds, write)
    assert all(sorted(pair) == ["conflict", "stored"] for pair in zip(first, second, strict=False))
    assert count(store, "deals") == rounds


# -- round trip -----------------------------------------------------------------------

unicode_text = st.text(st.characters(codec="utf-8"), max_size=20)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | unicode_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(unicode_text, inner, max_size=4),
    max_leaves=15,
)
records = st.dictionaries(unicode_text, json_values, max_size=6)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(record=records, note=st.none() | unicode_text, override=st.booleans())
def test_records_round_trip(store, record, note, override):
    created, _ = store.create_session("kunken", {"name": "Kunken ♠"}, PLAYERS, None)
    stored, _ = store.add_deal(created.id, record, override=override, note=note)
    [listed] = store.list_deals(created.id)
    assert listed.record == record
    assert repr(listed.record) == repr(record)  # same key order, same int/float types
    assert (listed.note, listed.override) == (note, override)
    assert listed == stored


def test_lone_surrogate_from_json_input_round_trips(store, session):
    # json.loads('"\\ud800"') yields a lone surrogate, which UTF-8 cannot store as is.
    record = {"name": "\ud800", "hand": "K♣ JK"}
    store.add_deal(session.id, record)
    assert store.list_deals(session.id)[0].record == record


def test_nan_is_not_stored(store, session):
    with pytest.raises(ValueError):
        store.add_deal(session.id, {"score": float("nan")})
    assert count(store, "deals") == 0


# -- house style ----------------------------------------------------------------------


def test_store_imports_no_web_or_core_modules():
    """Every module of the store package imports its siblings at most: nothing else of ``kunken_scorer``."""
    for path in Path(store_module.__file__).parent.glob("*.py"):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                imported.add("." * node.level + (node.module or ""))
        assert not {name for name in imported if name.split(".")[0] in {"flask", "wtforms"}}, path.name
        assert not {name for name in imported if name.startswith(("..", "kunken_scorer"))}, path.name


def test_every_public_method_has_a_docstring():
    for name, member in inspect.getmembers(Store):
        if not name.startswith("_") and callable(member):
            assert member.__doc__, name
    for cls in (StoreError, NotFound, Conflict, SessionEnded, Store):
        assert cls.__doc__, cls


def test_a_database_from_the_first_release_is_upgraded_without_losing_data(db_path):
    """Migrations are append-only: a file made before m002 gains its table and keeps its sessions."""
    old = Database(db_path)
    migrations.apply(old, stop_before="m002_creation_keys")
    assert "creation_keys" not in old.table_names()
    old["sessions"].insert(
        {
            "id": "old-session",
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
        assert "creation_keys" in store.db.table_names()
        assert store.get_session("old-session").players == ["A", "B"]
        session, token = store.create_session("kunken", RULES, PLAYERS, None, idempotency_key="k" * 22)
        again, none = store.create_session("kunken", RULES, PLAYERS, None, idempotency_key="k" * 22)
        assert token and none is None and again.id == session.id
    finally:
        store.close()


def test_hand_entry_is_remembered_without_a_new_version(db_path):
    store = Store.open(db_path)
    try:
        session, _ = store.create_session("kunken", RULES, PLAYERS, None)
        assert session.hand_entry is None
        store.set_hand_entry(session.id, "points")
        again = store.get_session(session.id)
        assert again.hand_entry == "points" and again.version == session.version
        with pytest.raises(ValueError):
            store.set_hand_entry(session.id, "pictures")
        with pytest.raises(NotFound):
            store.set_hand_entry("no-such-session", "points")
    finally:
        store.close()


def test_statistics_kept_from_before_a_scoring_correction_are_worked_out_again(db_path):
    """m008: every session's player statistics are stale after the upgrade, and the next look brings them
    back in step with the sessions (the scoring of some joker vists and swaps changed)."""
    old = Database(db_path)
    migrations.apply(old, stop_before="m008_rescore_player_stats")
    old.close()
    store = Store(Database(db_path), migrate=False)
    # a session as the store of then wrote it (today's writes the columns of later migrations too)
    store.db["sessions"].insert(
        {
            "id": "old-session",
            "game": "kunken",
            "rules": "{}",
            "players": '["Anna", "Boris"]',
            "token_hash": "0" * 64,
            "created_at": "2025-01-01T00:00:00+00:00",
            "version": 1,
        }
    )
    store.db.execute("UPDATE sessions SET stats_version = version")  # up to date before the upgrade
    assert store.stale_stats() == []
    store.close()
    store = Store.open(db_path)
    assert store.stale_stats() == ["old-session"]
    store.close()


def test_a_storage_fault_says_whether_a_write_failed_or_the_file_could_not_be_read(tmp_path):
    """Issue 35: a read (GET) on a missing database was told “nothing was saved by this request”. The fault says
    which it was: ``writing`` when a write's transaction failed (nothing of it stored), not when the file could
    not even be opened or read; the web layer picks its words by that and the request's method."""
    path = str(tmp_path / "kunken.db")
    Store.open(path).close()
    with pytest.raises(StorageUnavailable) as missing:
        Store.kept(str(tmp_path / "gone.db"))
    assert missing.value.kind == "missing" and missing.value.writing is False
    with pytest.raises(StorageUnavailable) as foreign:
        Store.connect(str(tmp_path))  # a folder: no database
    assert foreign.value.writing is False
    store = Store.connect(path, max_bytes=1)  # a cap the file is past already: every write is refused as full
    try:
        with pytest.raises(StorageUnavailable) as full:
            store.create_session("kunken", RULES, PLAYERS, None)
        assert full.value.kind == "full" and full.value.writing is True
        assert store.recent_sessions() == []
    finally:
        store.close()
    Store.drop_kept()


def test_m019_makes_stored_names_nfc_and_they_count_as_one_player_again(tmp_path):
    """Names stored before every name was read NFC: "Лёня" written with "е" and a combining diaeresis, in the
    session, its deals and every table the statistics and ratings keep. After the upgrade the session names the
    player NFC, its statistics and rating are worked out again, and a later "Лёня" (NFC) is the same player."""
    composed, decomposed = "Лёня", "Ле\u0308ня"
    path = str(tmp_path / "kunken.db")
    config = {"TESTING": True, "DATABASE": path, "SECRET_KEY": "test-secret-key-0123456789abcdef"}
    client = create_app(config).test_client()
    order = [(composed, 0), ("Anna", 2)]
    made = client.post("/api/v1/sessions", json={"players": [n for n, _ in order]}).get_json()
    bearer = {"Authorization": f"Bearer {made['edit_token']}"}
    assert client.post(f"/api/v1/sessions/{made['id']}/deals", json=deal_for(order), headers=bearer).status_code == 201
    assert client.post(f"/api/v1/sessions/{made['id']}/end", headers=bearer).status_code == 200
    assert client.get("/api/v1/players").status_code == 200  # statistics and ratings worked out and kept
    # the file as the app before the upgrade kept it: the name decomposed everywhere, m019 not applied
    raw = sqlite3.connect(path)
    named = {
        "sessions": ["players"],
        "deals": ["record"],
        "history": ["detail"],
        "session_stats": ["player", "name"],
        "player_stats": ["player", "name"],
        "deal_results": ["player"],
        "ratings": ["player", "name"],
    }
    with raw:
        for table, columns in named.items():
            for column in columns:
                raw.execute(f"UPDATE [{table}] SET [{column}] = replace([{column}], 'ё', ?)", ["е\u0308"])
        raw.execute("DELETE FROM _sqlite_migrations WHERE name = 'm019_nfc_names'")
    assert raw.execute("SELECT count(*) FROM ratings WHERE player = ?", [decomposed.casefold()]).fetchone() == (1,)
    raw.close()

    store = Store.open(path)  # the upgrade
    try:
        session = store.get_session(made["id"])
        assert session.players == [composed, "Anna"]
        records = [r[0] for r in store.db.execute("SELECT record FROM deals WHERE session_id = ?", [made["id"]])]
        assert records and all(decomposed not in r and composed in r for r in records)
        assert store.stale_stats() == [made["id"]]
    finally:
        store.close()
    client = create_app(config).test_client()
    later = client.post("/api/v1/sessions", json={"players": [composed, "Boris"]}).get_json()
    bearer = {"Authorization": f"Bearer {later['edit_token']}"}
    body = deal_for([(composed, 0), ("Boris", 2)])
    assert client.post(f"/api/v1/sessions/{later['id']}/deals", json=body, headers=bearer).status_code == 201
    assert client.post(f"/api/v1/sessions/{later['id']}/end", headers=bearer).status_code == 200
    players = {p["name"]: p for p in client.get("/api/v1/players").get_json()["players"]}
    assert set(players) == {composed, "Anna", "Boris"}, set(players)
    assert players[composed]["sessions"] == 2 and players[composed]["rated_sessions"] == 2
    assert players["Anna"]["sessions"] == 1  # the old session's other player is still there, once
    raw = sqlite3.connect(path)
    for table, columns in named.items():
        for column in columns:
            left = raw.execute(f"SELECT count(*) FROM [{table}] WHERE instr([{column}], ?) > 0", ["\u0308"]).fetchone()
            assert left == (0,), (table, column)
    raw.close()
