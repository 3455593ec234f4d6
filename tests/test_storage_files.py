"""The files beside the database (issue 35): a ``-shm`` or ``-wal`` left read-only by a read-only episode.

SQLite creates the ``-shm`` and ``-wal`` files with the database file's own mode: after ``chmod 444`` on the file
and a few requests it made a mode-0444 ``-shm``, and after ``chmod 644`` on the file (and after a restart) every
write still answered 503. The store now repairs such a file when it opens the database: one the server owns gets
the database file's mode back; one it cannot change is named in the 503.

The tests run as root, and root writes any file whatever its mode. So the repair is tested twice: on the files'
modes (``repair_companions``, which looks at the mode bits and the owner, not at what the process may do), and on
a real server started without root's override (``setpriv`` drops ``CAP_DAC_OVERRIDE``, as ``test_faults.py``'s
read-only test does), which meets a mode-0444 file as any user does.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from test_faults import (
    ROOT,
    _assert_503,
    _call,
    _env,
    _free_port,
    _integrity,
    _new_session,
    _notes_in_session,
    _record,
    _serve,
    _stop,
    _without_root_override,
)

from kunken_scorer.store import StorageUnavailable, Store
from kunken_scorer.store.files import repair_companions


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def database(tmp_path):
    """A database file with its -wal and -shm beside it (a connection is open), mode 0660."""
    path = tmp_path / "club.db"
    store = Store.open(str(path))
    store.create_session("kunken", {}, ["Anna", "Boris"], None)
    path.chmod(0o660)
    yield path, store
    store.close()


@pytest.mark.parametrize("companion", ["-shm", "-wal"])
def test_a_read_only_companion_the_server_owns_gets_the_database_files_mode_back(database, companion):
    path, _store = database
    other = Path(f"{path}{companion}")
    other.chmod(0o444)
    repaired = repair_companions(str(path))
    assert _mode(other) == 0o660
    assert repaired == [str(other)]


def test_companions_are_left_alone_while_the_database_file_is_read_only_or_they_are_writable(database):
    path, _store = database
    shm, wal = Path(f"{path}-shm"), Path(f"{path}-wal")
    modes = _mode(shm), _mode(wal)
    assert repair_companions(str(path)) == []  # writable already: nothing to do
    assert (_mode(shm), _mode(wal)) == modes
    path.chmod(0o444)
    shm.chmod(0o444)
    assert repair_companions(str(path)) == []  # the file itself is read-only: that is the operator's to change
    assert _mode(shm) == 0o444


def test_a_read_only_companion_of_another_owner_is_named_in_the_refusal(database, monkeypatch):
    path, _store = database
    shm = Path(f"{path}-shm")
    shm.chmod(0o444)
    monkeypatch.setattr(os, "geteuid", lambda: shm.stat().st_uid + 1)  # the server runs as another user,
    monkeypatch.setattr(os, "access", lambda name, _mode: not str(name).endswith("-shm"))  # who may not write it
    with pytest.raises(StorageUnavailable) as refused:
        repair_companions(str(path))
    assert refused.value.kind == "read_only"
    assert refused.value.file == str(shm)
    assert str(shm) in str(refused.value) and "chmod" in str(refused.value)
    assert _mode(shm) == 0o444  # not ours: not touched


def test_a_missing_database_names_no_companion(tmp_path):
    assert repair_companions(str(tmp_path / "none.db")) == []


# -- on a real server, without root's override ------------------------------------------------------


@pytest.mark.parametrize("then", ["while-serving", "after-a-restart"])
def test_a_read_only_episode_leaves_no_read_only_shm_behind(tmp_path, then):
    """The audit: ``chmod 444 club.db``, a few requests, ``chmod 644 club.db``: every write answered 503, even
    after a restart, because SQLite had re-created ``club.db-shm`` with mode 0444."""
    prefix = _without_root_override(tmp_path)
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    shm = Path(f"{db}-shm")
    server = _serve(db, port, log, prefix=prefix)
    try:
        sid, token = _new_session(port)
        assert _record(port, sid, token, "first").status == 201
        db.chmod(0o444)  # the file alone, as an operator does
        refused = []
        for n in range(12):  # more requests than threads: every connection is opened again on the read-only file
            reply = _record(port, sid, token, f"while-read-only-{n}")
            if reply.status != 201:  # (a connection may still write through a descriptor opened before the chmod)
                _assert_503(reply, "read-only")
                refused.append(n)
            assert _call(port, "GET", f"/api/v1/sessions/{sid}").status == 200
        assert refused, "the read-only file was never refused"
        left = _mode(shm)
        if then == "after-a-restart":
            _stop(server)  # (SIGTERM: the -shm stays, as after any stop that closes nothing)
            assert _mode(shm) == left
        db.chmod(0o644)
        if then == "after-a-restart":
            server = _serve(db, port, log, prefix=prefix)
        again = _record(port, sid, token, "second")
        assert again.status == 201, f"still refused once the file is writable again (-shm mode {left:o}): {again}"
        notes = _notes_in_session(port, sid)
        assert notes[0] == "first" and notes[-1] == "second" and len(notes) == 14 - len(refused)
        assert _mode(shm) == 0o644
    finally:
        _stop(server)
    assert _integrity(db) == "ok"


def test_a_companion_the_server_cannot_change_stops_the_start_naming_it(tmp_path):
    """A ``-shm`` of another owner that the server may not write (root ran ``app.py backup`` while the server was
    stopped, say): the start stops with one line naming the file to fix, and starts once it is fixed."""
    prefix = _without_root_override(tmp_path)
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    shm = Path(f"{db}-shm")
    store = Store.open(str(db))  # keeps the -shm while the server starts
    try:
        store.create_session("kunken", {}, ["Anna", "Boris"], None)
        os.chown(shm, 12345, 12345)
        shm.chmod(0o444)
        started = subprocess.run(
            [*prefix, sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=_env(db, port),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert started.returncode == 2, started
        assert len(started.stderr.splitlines()) == 1 and str(shm) in started.stderr, started.stderr
        assert _mode(shm) == 0o444
        shm.chmod(0o666)
        server = _serve(db, port, log, prefix=prefix)
        try:
            sid, token = _new_session(port)
            assert _record(port, sid, token, "first").status == 201
        finally:
            _stop(server)
    finally:
        store.close()
