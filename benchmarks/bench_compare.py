"""Deal scoring now against an earlier commit, interleaved in one process (noise hits both alike).

The rules core of ``REV`` (default ``HEAD``) is taken from git into a temporary folder under
another package name, and both cores read and score the benchmark's 5-player deal in
alternating rounds.  Prints the median microseconds of each and their ratio (now / then).

Run: ``.venv/bin/python benchmarks/bench_compare.py [REV]``.
"""

from __future__ import annotations

import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_core import DEAL  # noqa: E402

import kunken_scorer as now  # noqa: E402


def core_at(rev: str, folder: Path):
    """Import the ``kunken_scorer`` package of commit ``rev`` as ``kunken_then``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "kunken_scorer"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "kunken_scorer").rename(folder / "kunken_then")
    sys.path.insert(0, str(folder))
    return importlib.import_module("kunken_then")


def rounds(fn, count: int = 200) -> float:
    start = time.perf_counter()
    for _ in range(count):
        fn()
    return (time.perf_counter() - start) / count * 1e6


def main(rev: str = "HEAD") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        then = core_at(rev, Path(tmp))
        cases = {}
        for label, core in (("then", then), ("now", now)):
            rules = core.RuleSet.preset()
            parsed = core.Deal.from_dict(DEAL)
            cases[label] = {
                "read, validate and score": lambda core=core, rules=rules: core.evaluate_deal(
                    core.Deal.from_dict(DEAL), rules
                ),
                "validate and score (parsed)": lambda core=core, rules=rules, parsed=parsed: core.evaluate_deal(
                    parsed, rules
                ),
            }
        print(f"5-player deal scoring, {rev} (then) against the working tree (now); median µs")
        print(f"{'figure':40} {'then':>8} {'now':>8} {'now/then':>9}")
        for figure in cases["now"]:
            fns = (cases["then"][figure], cases["now"][figure])
            for fn in fns:
                for _ in range(500):
                    fn()
            times: tuple[list, list] = ([], [])
            for _ in range(40):
                for fn, out in zip(fns, times, strict=False):
                    out.append(rounds(fn))
            a, b = (statistics.median(t) for t in times)
            print(f"{figure:40} {a:8.1f} {b:8.1f} {b / a:9.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
