"""The dependency files agree: pyproject.toml's ranges are requirements*.txt's, and the locks pin within them.

requirements.txt (the runtime ranges) is pyproject's ``dependencies``; requirements-dev.txt (minus its
``-r requirements.txt``) is the ``test`` extra. requirements.lock (what `make run` installs) pins every
runtime package inside its range; requirements-dev.lock (what `make test` installs) pins the test tools
inside theirs and the runtime packages at requirements.lock's versions. Both are `make lock`'s output.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def _key(requirement: Requirement) -> str:
    """What a requirement asks for, written one way: ``[extras]range; marker``."""
    extras = f"[{','.join(sorted(requirement.extras))}]" if requirement.extras else ""
    marker = f"; {requirement.marker}" if requirement.marker else ""
    return f"{extras}{requirement.specifier}{marker}"


def ranges(lines: list[str], where: str) -> dict[str, str]:
    """Normalized name -> what it asks for, from requirement strings; a name given twice is an error."""
    out: dict[str, str] = {}
    for line in lines:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name not in out, f"{where}: {requirement.name} is listed twice"
        out[name] = _key(requirement)
    return out


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a requirements file (no comments, no ``-r``/``-c`` options)."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith(("#", "-")):
            lines.append(line)
    return lines


def differences(listed: dict[str, str], declared: dict[str, str]) -> list[str]:
    """One line per package the two lists disagree on."""
    return [
        f"{name}: {listed.get(name, 'missing')} here, {declared.get(name, 'missing')} in pyproject.toml"
        for name in sorted(set(listed) | set(declared))
        if listed.get(name) != declared.get(name)
    ]


def pyproject() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["project"]


def test_requirements_txt_are_pyprojects_dependencies():
    declared = ranges(pyproject()["dependencies"], "pyproject.toml dependencies")
    listed = ranges(requirement_lines(ROOT / "requirements.txt"), "requirements.txt")
    assert not differences(listed, declared), "requirements.txt: " + "; ".join(differences(listed, declared))


def test_requirements_dev_txt_is_pyprojects_test_extra():
    declared = ranges(pyproject()["optional-dependencies"]["test"], "pyproject.toml test extra")
    listed = ranges(requirement_lines(ROOT / "requirements-dev.txt"), "requirements-dev.txt")
    assert not differences(listed, declared), "requirements-dev.txt: " + "; ".join(differences(listed, declared))


def test_requirements_dev_txt_builds_on_the_runtime_ranges():
    lines = [line.strip() for line in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").splitlines()]
    assert "-r requirements.txt" in lines
    runtime = set(ranges(pyproject()["dependencies"], "dependencies"))
    test = set(ranges(pyproject()["optional-dependencies"]["test"], "test extra"))
    assert not runtime & test, f"listed both as runtime and test dependencies: {sorted(runtime & test)}"


# -- the locks (pip-compile's output, `make lock`) pin versions within those ranges ---------------

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def pins(path: Path) -> dict[str, Version]:
    """Normalized name -> pinned version, from a lock written by pip-compile; every entry is ``name==version``."""
    out: dict[str, Version] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line[0] in "# \t-":  # comments, `--hash` continuation lines, options
            continue
        match = PIN.match(line)
        assert match, f"{path.name}: not a pin: {line!r}"
        out[canonicalize_name(match.group(1))] = Version(match.group(2))
    return out


def outside(wanted: dict[str, str], pinned: dict[str, Version]) -> list[str]:
    """Every wanted package missing from the lock or pinned outside its range."""
    problems = []
    for name, asked in sorted(wanted.items()):
        specifier = Requirement(f"{name}{asked.split(';')[0]}").specifier
        if name not in pinned:
            problems.append(f"{name} is not in the lock")
        elif not specifier.contains(pinned[name], prereleases=True):
            problems.append(f"{name}=={pinned[name]} is outside {specifier}")
    return problems


def test_the_runtime_lock_pins_every_runtime_package_within_its_range():
    wanted = ranges(requirement_lines(ROOT / "requirements.txt"), "requirements.txt")
    problems = outside(wanted, pins(ROOT / "requirements.lock"))
    assert not problems, "requirements.lock does not fit requirements.txt (run `make lock`): " + "; ".join(problems)


def test_the_dev_lock_pins_the_test_tools_within_their_ranges_and_the_runtime_as_deployed():
    wanted = ranges(requirement_lines(ROOT / "requirements-dev.txt"), "requirements-dev.txt")
    dev = pins(ROOT / "requirements-dev.lock")
    problems = outside(wanted, dev)
    runtime = pins(ROOT / "requirements.lock")
    problems += [
        f"{name}=={dev.get(name)} here, =={version} in requirements.lock"
        for name, version in sorted(runtime.items())
        if dev.get(name) != version
    ]
    assert not problems, "requirements-dev.lock (run `make lock`): " + "; ".join(problems)


def test_every_pin_of_the_locks_is_hashed():
    for lock in ("requirements.lock", "requirements-dev.lock"):
        text = (ROOT / lock).read_text(encoding="utf-8")
        entries = re.split(r"\n(?=[A-Za-z0-9])", text)
        unhashed = [entry.split()[0] for entry in entries if PIN.match(entry) and "--hash=sha256:" not in entry]
        assert not unhashed, f"{lock}: pinned without a hash (pip would refuse the file): {unhashed}"


def test_make_test_runs_the_linters_first_and_they_write_no_cache_into_the_clone():
    """`make test` fails on a ruff or mypy finding: the test target depends on lint, which runs them."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    prerequisites = re.search(r"^test:(.*)$", makefile, re.M)[1].split()
    assert "lint" in prerequisites
    recipe = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M)[1]
    assert "ruff check --no-cache ." in recipe and "ruff format --no-cache --check ." in recipe
    assert "mypy --cache-dir=/dev/null kunken_scorer app.py" in recipe
