"""What moved out of the web layer's infrastructure (issue 34): the start-up and background work
(``service.background``), the start form's reading (``service.sessions.start_rules``, ``start_players``, and
``core.rules``'s ``switch_values``, ``raw_switch``, ``rule_lines``) and the words of a storage fault
(``StorageUnavailable.words``), each called with plain values, no app or request."""

import logging
import os
import sqlite3
import threading
import time

import pytest

from kunken_scorer.core.messages import Reason
from kunken_scorer.core.rules import HOUSE_RULES, RuleSet, raw_switch, rule_lines, switch_values
from kunken_scorer.service import background
from kunken_scorer.service.background import StartupError
from kunken_scorer.service.sessions import StartRefused, start_players, start_rules
from kunken_scorer.store import StorageUnavailable, Store
from kunken_scorer.store.errors import FAULT_WORDS

LOG = logging.getLogger("test_infra_moved")

# -- service.background ------------------------------------------------------------------------------------


def test_the_secret_key_is_made_once_owner_only_and_kept(tmp_path):
    key = background.kept_secret_key(tmp_path / "instance")
    assert len(key) >= 32 and background.kept_secret_key(tmp_path / "instance") == key
    assert os.stat(tmp_path / "instance" / "secret_key").st_mode & 0o777 == 0o600


def test_an_instance_folder_that_cannot_keep_the_key_is_a_startup_error(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StartupError, match="cannot keep the secret key"):
        background.kept_secret_key(tmp_path / "file" / "instance")


def test_a_catalog_older_than_its_po_is_a_startup_error(tmp_path):
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.mo").write_bytes(b"")
    (folder / "messages.po").write_text("")
    os.utime(folder / "messages.mo", (1, 1))
    assert background.stale_catalogs(tmp_path) == [folder / "messages.po"]
    with pytest.raises(StartupError, match="make catalogs"):
        background.check_catalogs(str(tmp_path))
    os.utime(folder / "messages.mo")
    background.check_catalogs(str(tmp_path))  # compiled: nothing to say


def test_the_database_is_opened_with_its_folder_made(tmp_path):
    database = tmp_path / "new" / "k.db"
    background.start_database(str(database), at_once=True, log=LOG)
    assert database.exists()


def test_a_database_that_cannot_be_opened_is_a_startup_error(tmp_path):
    (tmp_path / "k.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StartupError, match="cannot open the database"):
        background.start_database(str(tmp_path / "k.db"), at_once=True, log=LOG)


def test_a_replay_that_fails_is_logged_not_raised(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        background.catch_up_ratings(str(tmp_path / "missing" / "k.db"), at_once=True, log=LOG)
    assert "not brought up to date" in caplog.text


def test_one_replay_of_a_file_runs_at_a_time(tmp_path, monkeypatch):
    database = str(tmp_path / "k.db")
    Store.open(database).close()
    started, release, runs = threading.Event(), threading.Event(), []

    def slow(path, _log):
        runs.append(path)
        started.set()
        release.wait(5)

    monkeypatch.setattr(background, "_refresh_all", slow)
    background.catch_up_ratings(database, at_once=False, log=LOG)
    assert started.wait(5)
    background.catch_up_ratings(database, at_once=False, log=LOG)  # the first still runs: nothing more
    release.set()
    for _ in range(100):
        if database not in background._REPLAYING:
            break
        time.sleep(0.02)
    assert runs == [database] and database not in background._REPLAYING


# -- the start form's reading ----------------------------------------------------------------------------


def test_switch_values_and_raw_switch_read_the_form_as_typed():
    assert set(switch_values("kunken")) == set(HOUSE_RULES)
    assert switch_values("ordered-rummy")["wild_card"] == "" and switch_values("bogus") == switch_values("kunken")
    assert raw_switch("wild_card", " ") is None and raw_switch("opening_points", " 40 ") == "40"
    assert raw_switch("ace_low", True) is True


def test_start_rules_keeps_only_the_switches_changed_from_the_defaults_shown():
    typed = {**switch_values("kunken"), "opening_points": "40"}
    rules = start_rules("ordered-rummy", "kunken", typed)
    assert isinstance(rules, RuleSet) and rules.game == "ordered-rummy"
    assert rules.opening_points == 40 and rules.ace_points == RuleSet.preset("ordered-rummy").ace_points
    # a switch typed on a game's defaults where it means nothing still counts for the game chosen (Kunken's express)
    typed = {**switch_values("ordered-rummy"), "express_multiplier": "3"}
    assert start_rules("kunken", "ordered-rummy", typed).express_multiplier == 3


def test_start_rules_says_which_switch_it_refused():
    refused = start_rules("kunken", "kunken", {**switch_values("kunken"), "opening_points": "lots"})
    assert isinstance(refused, StartRefused) and refused.switch == "opening_points" and refused.seat is None


def test_a_rule_refused_for_the_chosen_game_belongs_to_the_rules_as_a_whole():
    refused = start_rules("bogus", "kunken", switch_values("kunken"))
    assert refused == StartRefused(Reason("unknown_game", refused.reason.params))


def test_start_players_places_a_refused_name_at_its_form_seat():
    rules = RuleSet.preset()
    assert start_players(rules, ["Anna", "Boris"], [0, 3]) == ["Anna", "Boris"]
    refused = start_players(rules, ["Anna", "Bo\x07ris"], [0, 3])
    assert isinstance(refused, StartRefused) and refused.seat == 3
    refused = start_players(rules, ["Anna"], [0])
    assert isinstance(refused, StartRefused) and refused.seat is None and refused.reason.code == "session_players"


def test_rule_lines_say_each_switch_with_the_words_given():
    rules = RuleSet.for_game("kunken", {"ace_points": 5})
    [line] = rule_lines(rules, ["ace_points"], str.upper, lambda _reason: "said")
    assert line.label == "POINTS FOR AN ACE" and (line.value, line.preset, line.differs) == ("said", "said", True)


# -- the words of a storage fault ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", StorageUnavailable.KINDS)
def test_every_fault_has_words_for_a_read_and_a_write(kind):
    for reading in (True, False):
        assert StorageUnavailable(kind).words(reading) in FAULT_WORDS.values()
    assert "nothing can be read" not in StorageUnavailable(kind).words(False)


def test_a_read_only_file_named_by_the_fault_is_named_to_a_write_only():
    fault = StorageUnavailable("read_only", file="/data/k.db-shm")
    assert "%(file)s" in fault.words(False) and "%(file)s" not in fault.words(True)
    assert "%(file)s" not in StorageUnavailable("read_only").words(False)


def test_an_sqlite_error_keeps_its_kind_and_words():
    fault = StorageUnavailable.from_error(sqlite3.OperationalError("database is locked"), writing=True)
    assert fault.kind == "busy" and "try again in a moment" in fault.words(False)
