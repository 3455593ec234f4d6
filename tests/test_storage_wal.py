"""The database's write-ahead log on a real server (issue 35): a ``-wal`` file deleted or replaced under a running
server, and the size cap counting the ``-wal`` too.

As in ``test_faults.py``, every test runs ``python app.py`` (waitress) on a real SQLite file in ``tmp_path``;
nothing is mocked. The promise checked: a deal answered 201 is in the file after a restart (the harshest one: the
server killed with SIGKILL, so nothing is saved on the way out), and a deal answered 503 is not.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

from test_faults import (
    DEAL,
    PLAYERS,
    Writers,
    _assert_503,
    _call,
    _free_port,
    _integrity,
    _new_session,
    _notes_in_file,
    _record,
    _serve,
    _stop,
    _wait_for,
)


def _sessions_in_file(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
    finally:
        conn.close()


def _record_many(port: int, sid: str, token: str, keys: list[str], acked: list[str], refused: list[str]) -> None:
    for key in keys:
        reply = _record(port, sid, token, key)
        if reply.status == 201:
            acked.append(key)
        else:
            _assert_503(reply, "")
            refused.append(key)


def _lose_the_wal(db: Path, how: str) -> None:
    wal = Path(f"{db}-wal")
    if how == "deleted":
        wal.unlink()
    else:  # replaced: a copy put in its place (another file, the same bytes), as a careless restore does
        copy = Path(f"{db}-wal.copy")
        shutil.copyfile(wal, copy)
        os.replace(copy, wal)


def test_a_wal_deleted_under_a_running_server_loses_nothing_acknowledged(tmp_path):
    """The audit: 156 writes acknowledged after ``rm club.db-wal``, and after a restart 74 deals and 6 sessions
    were gone. Now the first request that meets the lost log answers 503 (after saving what the log held into
    the database file), and the server goes on with a new log: nothing acknowledged is lost."""
    _a_lost_wal_loses_nothing(tmp_path, "deleted")


def test_a_wal_replaced_under_a_running_server_loses_nothing_acknowledged(tmp_path):
    _a_lost_wal_loses_nothing(tmp_path, "replaced")


def _a_lost_wal_loses_nothing(tmp_path: Path, how: str) -> None:
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log)
    acked: list[str] = []
    refused: list[str] = []
    sessions = 1
    try:
        sid, token = _new_session(port)
        _record_many(port, sid, token, [f"before-{n:03d}" for n in range(40)], acked, refused)
        assert refused == [] and len(acked) == 40
        _lose_the_wal(db, how)
        answers = []
        for n in range(60):  # more requests than the server has threads: each thread meets the lost log
            key = f"after-{n:03d}"
            _record_many(port, sid, token, [key], acked, refused)
            answers.append(acked[-1] == key)
            made = _call(port, "POST", "/api/v1/sessions", {"players": PLAYERS})
            if made.status == 201:
                sessions += 1
            else:
                _assert_503(made, "")
        assert refused, "the lost -wal file went unnoticed: every write was acknowledged"
        wal_503 = _record(port, sid, token, refused[0])  # the refused deal, sent again: stored now, once
        assert wal_503.status == 201, wal_503
        acked.append(refused.pop(0))
        assert answers[-10:] == [True] * 10, f"the server did not recover by itself: {answers}"
        text = log.read_text(errors="replace")
        assert "-wal" in text and "saved" in text, text[-2000:]
    finally:
        _stop(server, kill=True)  # SIGKILL: only what is in the files survives

    server = _serve(db, port, log)
    try:
        in_session = [d["note"] for d in _call(port, "GET", f"/api/v1/sessions/{sid}").json()["deals"]]
    finally:
        _stop(server)
    in_file = _notes_in_file(db)
    assert in_session == in_file
    lost = [key for key in acked if key not in in_file]
    assert lost == [], f"acknowledged (201), gone after the restart: {lost}"
    assert sorted(in_file) == sorted(acked), "a deal answered 503 is stored, or one is stored twice"
    assert _sessions_in_file(db) == sessions
    assert _integrity(db) == "ok"


def test_a_wal_deleted_under_write_load_loses_nothing_acknowledged(tmp_path):
    """Four phones recording at once while the -wal is deleted: some writes are refused (503) and none of those
    is stored; every one answered 201 is in the file after a SIGKILL and a restart."""
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        with Writers(port, sid, token, 4) as writers:
            _wait_for(lambda: writers.count() >= 60 or writers.errors, "60 deals acknowledged")
            Path(f"{db}-wal").unlink()
            target = writers.count() + 100
            _wait_for(lambda: writers.count() >= target or writers.errors, "100 more deals acknowledged")
        assert writers.errors == [], writers.errors
        for _key, reply in writers.refused:
            _assert_503(reply, "")
        assert writers.refused, "the deleted -wal went unnoticed"
    finally:
        _stop(server, kill=True)
    in_file = _notes_in_file(db)
    lost = set(writers.acked) - set(in_file)
    assert lost == set(), f"acknowledged (201), gone after the restart: {sorted(lost)}"
    refused = {key for key, _reply in writers.refused}
    assert refused & set(in_file) == set(), "a deal answered 503 is stored"
    assert len(in_file) == len(set(in_file)) == len(writers.acked)
    assert _integrity(db) == "ok"


# -- the size cap counts the -wal file ----------------------------------------------------------


def test_the_size_cap_counts_the_wal_file_too(tmp_path):
    """``KUNKEN_DATABASE_MAX_MB=1`` capped the main file only, and its -wal grew 4 MB past the cap. Now the file
    and its -wal together stay within the cap (give or take the one write that crosses it), and the write that
    cannot fit is refused with 503 “full”."""
    cap = 1024 * 1024
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log, KUNKEN_DATABASE_MAX_MB="1")
    wal = Path(f"{db}-wal")
    largest = 0
    try:
        created = _call(port, "POST", "/api/v1/sessions", {"players": PLAYERS})
        sid, token = created.json()["id"], created.json()["edit_token"]
        for n in range(1, 5001):
            key = f"deal-{n:05d}"
            reply = _call(
                port,
                "POST",
                f"/api/v1/sessions/{sid}/deals",
                {**DEAL, "note": key + " " + "x" * 900},
                token=token,
                key=key,
            )
            on_disk = db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
            largest = max(largest, on_disk)
            if reply.status != 201:
                break
        else:
            raise AssertionError("5000 deals and the 1 MB database never filled up")
        _assert_503(reply, "full")
        assert n > 20
    finally:
        _stop(server)
    # one deal's write (its row, its history, its kept answer, their index pages) may cross the cap
    assert largest <= cap + 64 * 1024, f"the file and its -wal reached {largest} bytes, past the cap of {cap}"
    assert _integrity(db) == "ok"


# -- the same, in one process, step by step ---------------------------------------------------------


def test_in_one_process_a_lost_wal_is_saved_by_a_connection_that_still_has_it(tmp_path):
    """Connections of one process: after ``rm club.db-wal`` no new connection may open (it would write to a new
    -wal the shared memory knows nothing of) until a connection that still has the lost file open saves what it
    holds into the database file; its write is refused meanwhile, and afterwards everything works as before."""
    from kunken_scorer.store import StorageUnavailable, Store  # noqa: PLC0415 -- the store alone, for this test

    path = str(tmp_path / "club.db")
    first = Store.open(path)
    second = Store.connect(path)
    try:
        for n in range(5):
            first.create_session("kunken", {}, [f"Anna {n}", "Boris"], None)
        Path(f"{path}-wal").unlink()
        try:
            Store.connect(path)
        except StorageUnavailable as refused:
            assert refused.kind == "wal_lost" and refused.file == f"{path}-wal" and not refused.writing
        else:
            raise AssertionError("a new connection opened beside a lost -wal")
        try:
            first.create_session("kunken", {}, ["Vera", "Gleb"], None)
        except StorageUnavailable as refused:
            assert refused.kind == "wal_lost" and refused.writing and "saved" in str(refused)
        else:
            raise AssertionError("a write to a lost -wal was acknowledged")
        try:
            second.create_session("kunken", {}, ["Vera", "Gleb"], None)  # the other old connection: obsolete now
        except StorageUnavailable as refused:
            assert refused.kind == "wal_lost"
        else:
            raise AssertionError("a write to a lost -wal was acknowledged")
        third = Store.connect(path)  # the lost file's content is in the database file: a new -wal starts
        try:
            third.create_session("kunken", {}, ["Vera", "Gleb"], None)
            assert len(third.recent_sessions()) == 6
        finally:
            third.close()
    finally:
        first.close()
        second.close()
    conn = sqlite3.connect(path)
    try:
        names = sorted(row[0] for row in conn.execute("SELECT players FROM sessions"))
    finally:
        conn.close()
    assert names == sorted([f'["Anna {n}", "Boris"]' for n in range(5)] + ['["Vera", "Gleb"]'])
    assert _integrity(Path(path)) == "ok"
