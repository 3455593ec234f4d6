"""The card keypad's grammar (static/keypad_grammar.js) is tested key by key under Node's own test runner
(tests/js/keypad_grammar.test.js, no npm packages): this runs it in ``make test``. Node is a test tool like
Chromium (the Makefile's ``browser`` target and ``.ci/run`` install Debian's ``nodejs``): without it this fails."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "js"


def expected_tests() -> int:
    """The rows of the table of key sequences, and the tests written one by one."""
    count = 0
    for source in TESTS.glob("*.test.js"):
        text = source.read_text(encoding="utf-8")
        count += len(re.findall(r'^\s*\["', text, re.M)) + len(re.findall(r"^test\(", text, re.M))
    return count


def test_the_keypad_grammar_passes_its_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: install Debian's nodejs (make browser does)")
    run = subprocess.run(
        [node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    passed = re.search(r"^# pass (\d+)$", output, re.M)
    failed = re.search(r"^# fail (\d+)$", output, re.M)
    assert passed and failed, output[-4000:]
    assert int(failed[1]) == 0
    assert int(passed[1]) >= expected_tests() >= 80, (passed[1], expected_tests())
