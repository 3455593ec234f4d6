"""Each deal's scores in the file, for reading it with SQL (issue 35): the table ``deal_results`` the store writes
from the scores its caller passes, and the view ``deal_scores`` (session_id, deal: the number the app shows,
player, plus, minus, score) over the live deals.

The store computes no score: these tests pass the scores as the service would (``exports.deal_scores`` of the
core's report) and check the store keeps them in step on record, edit, undo, redo, delete and import; that a write
without them leaves the session to the backfill (``stale_scores``, ``set_session_scores``); and that the view's
sums are the app's totals.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from sqlite_utils import Database

from kunken_scorer import RuleSet, service
from kunken_scorer.service import check_deal, scoreboard
from kunken_scorer.service.exports import deal_scores, export_document, import_document
from kunken_scorer.store import DealScore, Store, migrations

PLAYERS = ["Anna", "Boris", "Vera"]


def player(name, melds=(), hand="", vists=()):
    return {"name": name, "melds": list(melds), "vists": list(vists), "hand": hand}


DEALS = [
    {
        "players": [
            player("Anna", ["A♠ A♥ A♦"], vists=[{"to": "Boris", "meld": 0, "cards": "5♥"}]),
            player("Boris", ["2♥ 3♥ 4♥"], "K♣ JK"),
            player("Vera", [], "5♠ 6♣"),
        ],
        "went_out": "Anna",
    },
    {
        "players": [player("Anna", [], "7♣"), player("Boris", ["K♠ K♥ K♦"]), player("Vera", [], "Q♣")],
        "went_out": "Boris",
        "express": True,
    },
    {"players": PLAYERS, "redeal": True},
    {
        "players": [player("Anna", ["9♣ 10♣ J♣"]), player("Boris", [], "3♠"), player("Vera", ["2♦ 3♦ 4♦"], "8♦")],
        "went_out": "Anna",
    },
]


@pytest.fixture
def store(tmp_path):
    opened = Store.open(str(tmp_path / "kunken.db"))
    yield opened
    opened.close()


@pytest.fixture
def session(store):
    rules = RuleSet.preset()
    created, _ = store.create_session(rules.game, rules.to_dict(), PLAYERS, None)
    return created


def scored(session, body):
    """The deal as the service reads it, and its scores as the service passes them."""
    checked = check_deal(session, body)
    return checked.record, deal_scores(session.players, checked.report)


def record(store, session, body, **options):
    record_, scores = scored(session, body)
    deal, _ = store.add_deal(session.id, record_, scores=scores, **options)
    return deal


def view(store, session_id):
    """The view as a reader of the file sees it: (deal, player, plus, minus, score)."""
    return sorted(
        store.db.execute(
            "SELECT deal, player, plus, minus, score FROM deal_scores WHERE session_id = ?", [session_id]
        ).fetchall()
    )


def view_totals(store, session_id):
    rows = store.db.execute(
        "SELECT player, sum(score) FROM deal_scores WHERE session_id = ? GROUP BY player", [session_id]
    )
    return dict(rows.fetchall())


def app_rows(store, session_id):
    """The same rows as the app shows them (its scoreboard: every live deal's results, numbered)."""
    board = scoreboard(store, session_id)
    return sorted(
        (line.number, name, r.plus, r.minus, r.score)
        for line in board.lines
        for name, r in zip(board.players, line.results, strict=True)
        if r is not None
    )


def complete(store, session_id):
    return session_id not in store.stale_scores()


def test_a_new_session_has_complete_results_and_recording_keeps_them(store, session):
    assert complete(store, session.id) and view(store, session.id) == []
    for body in DEALS:
        record(store, session, body)
    assert view(store, session.id) == app_rows(store, session.id)
    assert view_totals(store, session.id) == scoreboard(store, session.id).totals
    assert {row[0] for row in view(store, session.id)} == {1, 2, 3, 4}
    assert [row for row in view(store, session.id) if row[0] == 3] == [(3, n, 0, 0, 0) for n in sorted(PLAYERS)]
    assert complete(store, session.id)
    assert store.deal_scores(session.id)[1] == scored(session, DEALS[0])[1]  # the rows in seat order


def test_edit_undo_redo_and_delete_keep_the_view_in_step(store, session):
    deals = [record(store, session, body) for body in DEALS]
    record_, scores = scored(session, DEALS[3])
    store.update_deal(
        session.id, deals[0].id, record_, override=False, note="swapped", expected_revision=1, scores=scores
    )
    assert view(store, session.id) == app_rows(store, session.id)
    store.delete_deal(session.id, deals[1].id)  # the deals after it move up one number
    assert view(store, session.id) == app_rows(store, session.id)
    assert {row[0] for row in view(store, session.id)} == {1, 2, 3}
    undone = store.undo_last(session.id)
    assert undone.id == deals[3].id and view(store, session.id) == app_rows(store, session.id)
    assert {row[0] for row in view(store, session.id)} == {1, 2}
    store.redo_undone(session.id, deals[3].id)
    assert view(store, session.id) == app_rows(store, session.id)
    assert view_totals(store, session.id) == scoreboard(store, session.id).totals
    store.end_session(session.id)
    assert complete(store, session.id)


def test_a_write_without_scores_leaves_the_session_to_the_backfill(store, session):
    deals = [record(store, session, body) for body in DEALS[:2]]
    record_, _scores = scored(session, DEALS[3])
    store.add_deal(session.id, record_)  # a caller that passes no scores
    assert not complete(store, session.id)
    store.update_deal(session.id, deals[0].id, record_, override=False, note=None, expected_revision=1)
    assert [row for row in view(store, session.id) if row[0] == 1] == []  # its old results are not shown
    store.end_session(session.id)
    assert not complete(store, session.id)
    backfill(store)
    assert complete(store, session.id)
    assert view(store, session.id) == app_rows(store, session.id)


def backfill(store):
    """What the service's backfill does: each stale session scored (its scoreboard) and its results given."""
    entries = []
    for session_id in store.stale_scores():
        board = scoreboard(store, session_id)
        entries.append(
            (session_id, board.version, {d.row.id: deal_scores(board.players, d.report) for d in board.deals})
        )
    return store.set_many_session_scores(entries)


def test_results_given_for_an_older_version_are_not_written(store, session):
    record_, _ = scored(session, DEALS[0])
    store.add_deal(session.id, record_)
    board = scoreboard(store, session.id)
    record(store, session, DEALS[1])  # another phone records meanwhile
    results = {d.row.id: deal_scores(board.players, d.report) for d in board.deals}
    assert store.set_session_scores(session.id, board.version, results) is False
    assert not complete(store, session.id)
    assert backfill(store) == 1 and complete(store, session.id)


def test_redo_of_a_deal_without_results_leaves_the_session_to_the_backfill(store, session):
    record_, _ = scored(session, DEALS[0])
    deal, _ = store.add_deal(session.id, record_)
    backfill(store)  # the live deals get their results; an undone deal would not
    store.undo_last(session.id)
    store.db.execute("DELETE FROM deal_results")  # as a deal undone before m013 has none
    assert complete(store, session.id)
    store.redo_undone(session.id, deal.id)
    assert not complete(store, session.id)
    backfill(store)
    assert view(store, session.id) == app_rows(store, session.id)


def test_an_import_stores_every_deals_results(store, session):
    for body in DEALS:
        record(store, session, body)
    imported, _token = import_document(store, export_document(store, session.id))
    assert complete(store, imported.id)
    assert view(store, imported.id) == view(store, session.id) == app_rows(store, imported.id)
    assert view_totals(store, imported.id) == scoreboard(store, imported.id).totals


def test_an_import_without_results_is_left_to_the_backfill(store, session):
    record_, _ = scored(session, DEALS[0])
    imported, _ = store.import_session("kunken", session.rules, PLAYERS, None, [{"record": record_}])
    assert not complete(store, imported.id)
    backfill(store)
    assert view(store, imported.id) == app_rows(store, imported.id)


def test_bad_scores_are_refused_before_anything_is_written(store, session):
    record_, scores = scored(session, DEALS[0])
    with pytest.raises(ValueError):
        store.add_deal(session.id, record_, scores=[scores[0], scores[0]])
    with pytest.raises(TypeError):
        store.add_deal(session.id, record_, scores=[("Anna", 1, 0, 1)])
    with pytest.raises(TypeError):
        store.add_deal(session.id, record_, scores=[DealScore("Anna", 1.5, 0, 1)])
    assert store.list_deals(session.id) == [] and store.version(session.id) == session.version


def test_m013_leaves_every_stored_session_to_the_backfill(tmp_path):
    path = str(tmp_path / "old.db")
    old = Database(path)
    migrations.apply(old, stop_before="m013_deal_scores")
    old.close()
    store = Store(Database(path), migrate=False)
    try:  # sessions and deals as the store of before m013 wrote them
        store.db["sessions"].insert(
            {
                "id": "old",
                "game": "kunken",
                "rules": "{}",
                "players": '["Anna", "Boris", "Vera"]',
                "token_hash": "0" * 64,
                "created_at": "2025-01-01T00:00:00+00:00",
                "version": 5,
            }
        )
        session = store.get_session("old")
        for seq, body in enumerate(DEALS, start=1):
            record_, _ = scored(session, body)
            store.db["deals"].insert(
                {
                    "session_id": "old",
                    "seq": seq,
                    "record": json.dumps(record_),
                    "override": 0,
                    "revision": 1,
                    "created_at": "x",
                    "updated_at": "x",
                    "deleted_at": "x" if seq == 2 else None,
                }
            )
    finally:
        store.close()
    store = Store.open(path)
    try:
        assert store.stale_scores() == ["old"]
        assert backfill(store) == 1
        assert view(store, "old") == app_rows(store, "old")
        assert {row[0] for row in view(store, "old")} == {1, 2, 3}
        assert view_totals(store, "old") == scoreboard(store, "old").totals
    finally:
        store.close()


def test_the_view_reads_in_any_sqlite_tool(store, session):
    for body in DEALS:
        record(store, session, body)
    path = store.db.execute("PRAGMA database_list").fetchone()[2]
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        columns = [c[1] for c in conn.execute("PRAGMA table_info(deal_scores)")]
        rows = conn.execute("SELECT player, sum(score) FROM deal_scores GROUP BY player").fetchall()
    finally:
        conn.close()
    assert columns[:6] == ["session_id", "deal", "player", "plus", "minus", "score"]
    assert dict(rows) == scoreboard(store, session.id).totals


# -- through the service's use cases -------------------------------------------------------------------


def test_the_services_use_cases_keep_the_view_in_step(store, session):
    """What the pages and the API do: record (from the form, the API or the draft), edit, undo, redo, delete and
    import, each through its use case; the view is the app's scoreboard after each, with nothing left to fill."""

    def say(reason):
        return reason.code

    def check():
        assert view(store, session.id) == app_rows(store, session.id)
        assert view_totals(store, session.id) == scoreboard(store, session.id).totals
        assert store.stale_scores() == []

    for body in DEALS:
        current = store.get_session(session.id)
        service.record_deal(store, current, check_deal(current, body), service.Ask(expected=current.version), say)
        check()
    first = store.list_deals(session.id)[0]
    edited = service.edit_deal(store, session, first.id, check_deal(session, DEALS[3]), service.Ask(expected=1))
    assert isinstance(edited, service.Edited)
    check()
    undone = service.undo_deal(store, session.id, store.version(session.id))
    check()
    service.redo_deal(store, session.id, undone.deal.id, store.version(session.id))
    check()
    second = store.list_deals(session.id)[1]
    service.delete_deal(store, session.id, second.id, second.revision)
    check()
    created = service.import_session(store, export_document(store, session.id))
    assert view(store, created.session.id) == app_rows(store, created.session.id)
    assert store.stale_scores() == []
