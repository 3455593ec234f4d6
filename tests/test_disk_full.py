"""A full disk, for real: a 3 MB tmpfs holds the database of a real ``python app.py`` server (issue 46).

The server's own -wal once filled such a disk by itself (2.9 MB of a 3 MB disk): SQLite checkpoints only at 1000
pages (4 MB), and a checkpoint needs room for the pages the file gains, so once the disk was full nothing could
checkpoint it and every write answered 503, even after a restart. Now the server checkpoints the -wal while there
is room for it, when a write finds the disk full, and as it starts: the deals themselves fill the disk, and
freeing some space (deleting a file written here to fill it) brings writes back, with or without a restart.

The tests mount the filesystem themselves (``mount -t tmpfs``: the machine and CI run as root); where mounting is
impossible they fail, saying so: a skipped test would pass for a check that never ran.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

from test_faults import (
    Reply,
    _assert_503,
    _free_port,
    _integrity,
    _new_session,
    _notes_in_file,
    _notes_in_session,
    _record,
    _serve,
    _stop,
)


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "3m") -> Iterator[Path]:
    """A real filesystem of ``size`` mounted on ``folder`` for the block, unmounted after it (processes using it
    must be stopped by then)."""
    folder.mkdir(exist_ok=True)
    try:
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except FileNotFoundError:
        raise AssertionError("this test needs the mount command (util-linux) to make a small real disk") from None
    assert mounted.returncode == 0, (
        f"this test needs a real {size} filesystem and could not mount one (run it as root, as CI does): "
        f"mount -t tmpfs said {mounted.stderr.strip()!r}"
    )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], capture_output=True, timeout=60)


def _fill(path: Path, size: int) -> None:
    """A file of ``size`` bytes that takes that room on the disk (a file a person could delete to free it)."""
    path.write_bytes(b"\x5a" * size)


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def _record_until_refused(port: int, sid: str, token: str, prefix: str, acked: list[str]) -> tuple[str, Reply]:
    """Record deals (a 500-byte note each: the disk fills in a few hundred) until one is refused; its key and
    answer."""
    for n in range(1, 5001):
        key = f"{prefix}-{n:05d}"
        reply = _record(port, sid, token, key, note=f"{key} " + "x" * 500)
        if reply.status != 201:
            return key, reply
        acked.append(key)
    raise AssertionError("5000 deals and the 3 MB disk never filled up")


def test_the_wal_never_holds_a_small_disk_and_freeing_space_brings_writes_back_without_a_restart(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        db, port, log = disk / "club.db", _free_port(), tmp_path / "server.log"
        wal = Path(f"{db}-wal")
        server = _serve(db, port, log)
        try:
            sid, token = _new_session(port)
            filler = disk / "old-photos.bin"
            _fill(filler, 1_200_000)
            acked: list[str] = []
            refused, reply = _record_until_refused(port, sid, token, "deal", acked)
            _assert_503(reply, "full")
            assert len(acked) > 100, f"only {len(acked)} deals fitted in the 1.8 MB left: the -wal took the room"
            # the deals hold the disk, not a log of them: the -wal was checkpointed into the file while it could be
            assert _size(wal) * 4 < _size(db), f"the -wal takes {_size(wal)} bytes beside a {_size(db)}-byte file"
            _assert_503(_record(port, sid, token, refused), "full")  # nothing freed: still refused

            filler.unlink()  # the person running the server frees some space; no restart
            more: list[str] = []
            for n in range(1, 21):
                key = f"after-{n:02d}"
                reply = _record(port, sid, token, key)
                assert reply.status == 201, (key, reply)
                more.append(key)
            assert [note.split(" ")[0] for note in _notes_in_session(port, sid)] == acked + more
        finally:
            _stop(server)
        assert _integrity(db) == "ok"
        assert [note.split(" ")[0] for note in _notes_in_file(db)] == acked + more  # nothing acknowledged lost


#: A process that writes to the database as the server used to, with no checkpoint at all, until its -wal fills the
#: disk, then dies without closing (as a killed server): the state the issue found, a -wal holding the disk full.
FILL_THE_WAL = textwrap.dedent(
    """
    import os, sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE IF NOT EXISTS padding (x BLOB)")
    try:
        for _ in range(10000):
            conn.execute("INSERT INTO padding VALUES (randomblob(20000))")
            conn.execute("DELETE FROM padding")
    except sqlite3.OperationalError as err:
        print(err)
        os._exit(0)
    os._exit(3)
    """
)


def test_a_restart_on_a_disk_its_wal_filled_starts_and_writes_come_back_once_space_is_freed(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        db, port, log = disk / "club.db", _free_port(), tmp_path / "server.log"
        wal = Path(f"{db}-wal")
        server = _serve(db, port, log)
        try:
            sid, token = _new_session(port)
            acked = [f"before-{n:02d}" for n in range(1, 11)]
            for key in acked:
                assert _record(port, sid, token, key).status == 201
        finally:
            _stop(server, kill=True)
        filler = disk / "old-photos.bin"
        _fill(filler, 400_000)
        filled = subprocess.run(
            [sys.executable, "-c", FILL_THE_WAL, str(db)], capture_output=True, text=True, timeout=120
        )
        assert filled.returncode == 0 and "full" in filled.stdout, filled
        assert _size(wal) > 1_500_000, f"the -wal took only {_size(wal)} bytes"

        server = _serve(db, port, log)  # a full disk is no reason not to start
        try:
            assert _notes_in_session(port, sid) == acked  # reads answer
            _assert_503(_record(port, sid, token, "while-full"), "full")
            filler.unlink()
            for key in ("freed-1", "freed-2", "freed-3"):
                reply = _record(port, sid, token, key)
                assert reply.status == 201, (key, reply)
            acked += ["freed-1", "freed-2", "freed-3"]
            # checkpointed once there was room, not merely grown into the room freed
            assert _size(wal) < 256 * 1024, f"the -wal still takes {_size(wal)} bytes"
            assert _notes_in_session(port, sid) == acked
        finally:
            _stop(server, kill=True)

        # full again the same way while stopped; space freed, then a restart: the start-up checkpoints the -wal
        _fill(filler, 400_000)
        filled = subprocess.run(
            [sys.executable, "-c", FILL_THE_WAL, str(db)], capture_output=True, text=True, timeout=120
        )
        assert filled.returncode == 0 and "full" in filled.stdout, filled
        assert _size(wal) > 1_500_000, f"the -wal took only {_size(wal)} bytes"
        filler.unlink()
        server = _serve(db, port, log)
        try:
            assert _size(wal) < 256 * 1024, f"after the start the -wal still takes {_size(wal)} bytes"
            assert _record(port, sid, token, "after-restart").status == 201
            acked.append("after-restart")
            assert _notes_in_session(port, sid) == acked
        finally:
            _stop(server)
        assert _integrity(db) == "ok"
        assert _notes_in_file(db) == acked
        assert "Traceback" not in log.read_text(errors="replace")
