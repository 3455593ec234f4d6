"""``app.py backup`` and ``app.py restore``, and a damaged database file, with real processes on real files (issue
46): a backup never overwrites a file unasked, never follows a symbolic link, goes into a folder with a dated name and
leaves nothing half-written behind; a restore checks the backup, keeps the file it replaces, and refuses while a
server has the file open; a damaged file says so, names ``PRAGMA integrity_check`` and the restore command."""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from test_disk_full import small_disk
from test_faults import (
    ROOT,
    _call,
    _env,
    _free_port,
    _integrity,
    _new_session,
    _notes_in_file,
    _notes_in_session,
    _record,
    _serve,
    _stop,
)

from kunken_scorer import RuleSet
from kunken_scorer.store import Store


def _database(path: Path, players: list[list[str]]) -> Path:
    """A database file with one session for each list of ``players``."""
    path.parent.mkdir(exist_ok=True)
    store = Store.open(str(path))
    try:
        for names in players:
            store.create_session("kunken", RuleSet.preset().to_dict(), names, None)
    finally:
        store.close()
    return path


def _sessions(db: Path) -> list[list[str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT players FROM sessions ORDER BY created_at")]
    finally:
        conn.close()


def _app(db: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "app.py"), *args],
        cwd=cwd or ROOT,
        env=_env(db, 1),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_line(done: subprocess.CompletedProcess[str], status: int, *words: str) -> None:
    """Refused or failed: ``status``, one line on stderr starting with ``kunken-scorer:`` holding ``words``."""
    assert done.returncode == status, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kunken-scorer: "), done
    assert all(word in lines[0] for word in words), done
    assert "Traceback" not in done.stderr and done.stdout == "", done


# -- backup --------------------------------------------------------------------------------------------------------


def test_a_backup_never_overwrites_a_file_unless_forced(tmp_path):
    db = _database(tmp_path / "club.db", [["Anna", "Boris"]])
    target = tmp_path / "backups" / "club.db"
    target.parent.mkdir()
    target.write_text("last month's backup")

    refused = _app(db, "backup", str(target))
    _one_line(refused, 2, str(target), "exists", "--force")
    assert target.read_text() == "last month's backup"
    assert sorted(p.name for p in target.parent.iterdir()) == ["club.db"]

    forced = _app(db, "backup", "--force", str(target))
    assert forced.returncode == 0 and "1 sessions, 0 deals, integrity ok" in forced.stdout, forced
    assert sorted(p.name for p in target.parent.iterdir()) == ["club.db"]
    assert _integrity(target) == "ok" and len(_sessions(target)) == 1


def test_a_backup_never_follows_a_symbolic_link_and_force_replaces_the_link_itself(tmp_path):
    db = _database(tmp_path / "club.db", [["Anna", "Boris"]])
    precious = tmp_path / "elsewhere" / "precious.txt"
    precious.parent.mkdir()
    precious.write_text("not yours to overwrite")
    backups = tmp_path / "backups"
    backups.mkdir()
    link = backups / "latest.db"
    link.symlink_to(precious)
    dangling = backups / "dangling.db"
    dangling.symlink_to(tmp_path / "elsewhere" / "made-by-the-backup.db")

    for target in (link, dangling):
        _one_line(_app(db, "backup", str(target)), 2, str(target), "symbolic link", "--force")
        assert target.is_symlink()
    assert precious.read_text() == "not yours to overwrite"
    assert sorted(p.name for p in precious.parent.iterdir()) == ["precious.txt"]  # the dangling link made nothing

    forced = _app(db, "backup", "--force", str(link))
    assert forced.returncode == 0 and "integrity ok" in forced.stdout, forced
    assert sorted(p.name for p in backups.iterdir()) == ["dangling.db", "latest.db"]
    assert not link.is_symlink() and _integrity(link) == "ok"  # the link itself replaced by the copy
    assert precious.read_text() == "not yours to overwrite"


def test_a_backup_into_a_folder_gets_a_dated_name_inside_it(tmp_path):
    db = _database(tmp_path / "club.db", [["Anna", "Boris"], ["Vera", "Gleb"]])
    backups = tmp_path / "backups"
    backups.mkdir()
    done = _app(db, "backup", str(backups))
    assert done.returncode == 0, done
    made = list(backups.iterdir())
    assert len(made) == 1 and re.fullmatch(r"kunken-\d{4}-\d\d-\d\d-\d{6}\.db", made[0].name), made
    assert done.stdout == f"Backed up {db} to {made[0]}: 2 sessions, 0 deals, integrity ok\n"
    assert _integrity(made[0]) == "ok" and len(_sessions(made[0])) == 2


def test_a_failed_backup_leaves_nothing_behind(tmp_path):
    db = _database(tmp_path / "club.db", [["Anna", "Boris"]])
    conn = sqlite3.connect(db)  # a database larger than the 3 MB disk the backup is sent to
    conn.execute("CREATE TABLE photos (x BLOB)")
    conn.executemany("INSERT INTO photos VALUES (randomblob(100000))", [()] * 40)
    conn.commit()
    conn.close()
    with small_disk(tmp_path / "disk") as disk:
        full = _app(db, "backup", str(disk / "club.db"))
        _one_line(full, 1, "backup failed", "full")
        assert list(disk.iterdir()) == [], list(disk.iterdir())  # no .partial, no -journal
    (tmp_path / "a-file").write_text("not a folder")
    _one_line(_app(db, "backup", str(tmp_path / "a-file" / "club.db")), 1, "backup failed")
    assert (tmp_path / "a-file").read_text() == "not a folder"
    assert _integrity(db) == "ok"


# -- restore -------------------------------------------------------------------------------------------------------


def test_a_restore_brings_the_backup_back_and_keeps_the_file_it_replaced(tmp_path):
    db, port, log = tmp_path / "data" / "club.db", _free_port(), tmp_path / "server.log"
    db.parent.mkdir()
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        for key in ("one", "two"):
            assert _record(port, sid, token, key).status == 201
        backup = tmp_path / "backup.db"
        assert _app(db, "backup", str(backup)).returncode == 0
        later, later_token = _new_session(port)  # after the backup: not in it
        assert _record(port, later, later_token, "later").status == 201
    finally:
        _stop(server, kill=True)  # its -wal still holds the last deals: the kept file must keep them too

    done = _app(db, "restore", str(backup))
    assert done.returncode == 0, done
    printed = re.fullmatch(
        rf"Restored {re.escape(str(db))} from {re.escape(str(backup))}: 1 sessions, 2 deals, integrity ok; "
        rf"the file it replaced is kept as ({re.escape(str(db))}\.before-restore-\d{{4}}-\d\d-\d\d-\d{{6}})\n",
        done.stdout,
    )
    assert printed, done.stdout
    kept = Path(printed[1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.db", "data", "server.log"]
    # one file kept (what the killed server's -wal held folded into it); no .partial, no -wal of the old file
    assert sorted(p.name for p in db.parent.iterdir()) == ["club.db", kept.name]
    assert _integrity(kept) == "ok" and sorted(_notes_in_file(kept)) == ["later", "one", "two"]

    server = _serve(db, port, log)
    try:
        assert _notes_in_session(port, sid) == ["one", "two"]
        assert _call(port, "GET", f"/api/v1/sessions/{later}").status == 404
        assert _record(port, sid, token, "three").status == 201  # the restored file takes writes
    finally:
        _stop(server)
    assert _notes_in_file(db) == ["one", "two", "three"]


def test_a_restore_is_refused_while_a_server_has_the_file_open(tmp_path):
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    backup = _database(tmp_path / "backup.db", [["Old", "Times"]])
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        assert _record(port, sid, token, "live").status == 201
        refused = _app(db, "restore", str(backup))
        _one_line(refused, 2, f"a server is running on {db}: stop it first (systemctl stop kunken-scorer)")
        assert _notes_in_session(port, sid) == ["live"]  # the server's file untouched
        assert _record(port, sid, token, "still").status == 201
    finally:
        _stop(server)
    assert sorted(p.name for p in tmp_path.iterdir() if "club.db" in p.name) == ["club.db"]
    assert _notes_in_file(db) == ["live", "still"]

    assert _app(db, "restore", str(backup)).returncode == 0  # stopped: the restore goes ahead
    assert _sessions(db) == ['["Old", "Times"]']


def test_a_server_starting_while_a_restore_holds_the_file_says_so_and_exits_2(tmp_path):
    db = _database(tmp_path / "club.db", [["Anna", "Boris"]])
    fd = os.open(db, os.O_RDONLY)  # the lock a restore takes while it works
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        started = _app(db, "--host", "127.0.0.1", "--port", str(_free_port()))
        _one_line(started, 2, str(db), "is being restored")
    finally:
        os.close(fd)


def test_a_restore_refuses_a_file_that_is_no_sound_backup(tmp_path):
    db = _database(tmp_path / "data" / "club.db", [["Anna", "Boris"]])
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all " * 200)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    damaged = tmp_path / "damaged.db"
    assert _app(db, "backup", str(damaged)).returncode == 0
    _damage(damaged, "sessions")
    cases = {
        text: "not an SQLite database",
        other: "holds no score sheets",
        damaged: "integrity check",
        tmp_path / "missing.db": "no such file",
        db: "the database itself",
    }
    for backup, words in cases.items():
        _one_line(_app(db, "restore", str(backup)), 2, str(backup), words)
    assert sorted(p.name for p in db.parent.iterdir()) == ["club.db"]  # nothing kept, nothing half-written
    assert _sessions(db) == ['["Anna", "Boris"]'] and _integrity(db) == "ok"


# -- a damaged database file ---------------------------------------------------------------------------------------


def _damage(db: Path, table: str) -> None:
    """Overwrite the pages of ``table`` (after a checkpoint: the file holds every page), in the middle of the file,
    with bytes no page has."""
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = [row[0] for row in conn.execute("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno", [table])]
    finally:
        conn.close()
    with open(db, "r+b") as file:
        for page in pages:
            file.seek((page - 1) * size)
            file.write(b"\xff" * size)


def test_a_damaged_file_says_so_names_integrity_check_and_the_restore_command(tmp_path):
    db, port, log = tmp_path / "club.db", _free_port(), tmp_path / "server.log"
    server = _serve(db, port, log)
    try:
        sid, token = _new_session(port)
        for n in range(60):  # deals enough for the table to take many pages
            assert _record(port, sid, token, f"deal-{n:02d}", note=f"deal-{n:02d} " + "x" * 800).status == 201
        _damage(db, "deals")

        words = ("damaged", 'sqlite3 club.db "PRAGMA integrity_check"', "kunken-scorer restore BACKUP")
        read = _call(port, "GET", f"/api/v1/sessions/{sid}")
        assert read.status == 503 and read.headers.get_content_type() == "application/json", read
        assert all(word in read.json()["error"] for word in words), read
        assert "cannot be read right now" not in read.json()["error"]
        page = _call(port, "GET", f"/s/{sid}", cookie="lang=en")
        assert page.status == 503 and page.headers.get_content_type() == "text/html", page
        body = page.body.decode()
        assert all(word.replace('"', "&#34;") in body or word in body for word in words), body
        write = _record(port, sid, token, "after-damage")
        assert write.status == 503 and "Nothing was saved" in write.json()["error"], write
        assert all(word in write.json()["error"] for word in words), write
    finally:
        _stop(server)
    said = log.read_text(errors="replace")
    assert f"the database file {db} is damaged" in said and f'sqlite3 {db} "PRAGMA integrity_check"' in said, said
    assert "kunken-scorer restore BACKUP" in said and "Traceback" not in said
