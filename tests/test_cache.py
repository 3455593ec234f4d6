"""``cache.Cache``: one process-wide cache whose every key includes the database's identity (issue 34)."""

from __future__ import annotations

import ast
import os
import pathlib
import shutil
import sys
import threading

import pytest
from conftest import DEAL

from kunken_scorer import service
from kunken_scorer.cache import Cache, identity
from kunken_scorer.store import Store


def new_file(path) -> str:
    path.write_bytes(b"")
    return str(path)


def test_two_databases_never_share_an_entry(tmp_path):
    a, b = new_file(tmp_path / "a.sqlite"), new_file(tmp_path / "b.sqlite")
    cache = Cache()
    assert cache.get(a, ("session", 1), lambda: "a's") == "a's"
    assert cache.get(b, ("session", 1), lambda: "b's") == "b's"
    assert cache.get(a, ("session", 1), lambda: "made again") == "a's"
    assert cache.get(b, ("session", 1), lambda: "made again") == "b's"
    assert identity(a) != identity(b)


def test_the_same_file_under_another_name_is_the_same_database(tmp_path):
    a = new_file(tmp_path / "a.sqlite")
    (tmp_path / "link.sqlite").symlink_to(a)
    relative = os.path.relpath(a)
    assert identity(a) == identity(str(tmp_path / "link.sqlite")) == identity(relative)
    cache = Cache()
    cache.get(a, "k", lambda: 1)
    assert cache.get(str(tmp_path / "link.sqlite"), "k", lambda: 2) == 1


def test_a_file_replaced_under_the_same_path_is_a_new_database(tmp_path):
    path = tmp_path / "club.sqlite"
    new_file(path)
    before = identity(str(path))
    cache = Cache()
    assert cache.get(str(path), "totals", lambda: "old") == "old"
    # a backup restored over the file: a new inode under the same path (the old one kept alive so the
    # file system cannot hand its inode straight back)
    keep = open(path, "rb")
    try:
        restored = tmp_path / "restored.sqlite"
        new_file(restored)
        os.replace(restored, path)
        assert identity(str(path)) != before
        assert identity(str(path))[0] == before[0]
        assert cache.get(str(path), "totals", lambda: "new") == "new"
    finally:
        keep.close()


def test_a_missing_file_has_an_identity_of_its_own(tmp_path):
    missing = str(tmp_path / "none.sqlite")
    assert identity(missing) == (os.path.realpath(missing), 0, 0)
    cache = Cache()
    assert cache.get(missing, "k", lambda: "before") == "before"
    new_file(tmp_path / "none.sqlite")
    assert cache.get(missing, "k", lambda: "after") == "after"


def test_the_cache_keeps_at_most_size_entries_the_least_recently_used_go_first(tmp_path):
    db = new_file(tmp_path / "a.sqlite")
    cache = Cache(size=3)
    for key in range(3):
        cache.get(db, key, lambda key=key: key)
    cache.get(db, 0, lambda: "made again")  # 0 is used again: 1 is now the oldest
    cache.get(db, 3, lambda: 3)
    assert len(cache) == 3
    assert cache.get(db, 0, lambda: "made again") == 0
    assert cache.get(db, 1, lambda: "made again") == "made again"
    with pytest.raises(ValueError):
        Cache(size=0)


def test_clear_forgets_every_entry(tmp_path):
    db = new_file(tmp_path / "a.sqlite")
    cache = Cache()
    cache.get(db, "k", lambda: 1)
    cache.clear()
    assert len(cache) == 0
    assert cache.get(db, "k", lambda: 2) == 2


def test_a_failing_make_keeps_nothing(tmp_path):
    db = new_file(tmp_path / "a.sqlite")
    cache = Cache()

    def fail() -> int:
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        cache.get(db, "k", fail)
    assert len(cache) == 0
    assert cache.get(db, "k", lambda: 5) == 5


def test_threads_share_the_cache_safely(tmp_path):
    """Smoke: eight threads on two files and an overflowing key space; every value is its own key's."""
    files = [new_file(tmp_path / "a.sqlite"), new_file(tmp_path / "b.sqlite")]
    cache = Cache(size=50)
    wrong: list[object] = []
    start = threading.Barrier(8)

    def work(n: int) -> None:
        start.wait()
        for i in range(2000):
            db = files[(n + i) % 2]
            key = (i * 7 + n) % 120
            value = cache.get(db, key, lambda db=db, key=key: (db, key))
            if value != (db, key):
                wrong.append(value)
            if i % 500 == 499 and n == 0:
                cache.clear()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert len(cache) <= 50


def test_one_identity_taken_once_serves_many_keys(tmp_path):
    a, b = new_file(tmp_path / "a.sqlite"), new_file(tmp_path / "b.sqlite")
    cache = Cache()
    place = identity(a)
    assert cache.find_at(place, "k") is None
    assert cache.put_at(place, "k", 3) == 3
    assert cache.find_at(place, "k") == cache.get(a, "k", lambda: 0) == cache.get_at(place, "k", lambda: 0) == 3
    assert cache.find_at(identity(b), "k") is None
    cache.put_at(place, "k", 4)  # put replaces
    assert cache.get(a, "k", lambda: 0) == 4


def test_two_copies_of_one_database_never_share_a_scored_deal(tmp_path):
    """service.CACHE: a copy of the file edited apart (the same session, deal id and revision, another record)
    is scored from its own record, and so is a copy restored over the original path."""
    first = str(tmp_path / "first.sqlite")
    store = Store.open(first)
    session, _token = store.create_session("kunken", {}, ["Anna", "Boris"], None)
    store.add_deal(session.id, DEAL)
    store.close()
    second = str(tmp_path / "second.sqlite")
    shutil.copy(first, second)
    boris_out = {**DEAL, "went_out": "Boris", "players": [DEAL["players"][0], {**DEAL["players"][1], "hand": ""}]}

    def scores(path: str, change: dict | None = None) -> dict:
        store = Store.open(path)
        try:
            if change is not None:
                deal = store.list_deals(session.id)[0]
                store.update_deal(session.id, deal.id, change, override=True, note="x", expected_revision=deal.revision)
            return service.scoreboard(store, session.id).totals
        finally:
            store.close()

    anna = scores(first, DEAL)  # both files now hold the deal at revision 2 ...
    boris = scores(second, boris_out)  # ... with another record in each
    assert anna != boris
    assert scores(first) == anna and scores(second) == boris
    restored = str(tmp_path / "restored.sqlite")
    shutil.copy(second, restored)
    os.replace(restored, first)  # a backup restored over the first file
    assert scores(first) == boris


def test_the_cache_needs_only_the_standard_library():
    path = pathlib.Path(__file__).resolve().parent.parent / "kunken_scorer" / "cache.py"
    tops = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            tops |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "cache.py imports nothing of the package"
            tops.add((node.module or "").split(".")[0])
    assert tops <= set(sys.stdlib_module_names) | {"__future__"}, tops
