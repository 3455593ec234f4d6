"""The dependency files agree: pyproject.toml's ranges are requirements*.txt's, and the locks pin within them.

requirements.txt (the runtime ranges) is pyproject's ``dependencies``; requirements-dev.txt (minus its
``-r requirements.txt``) is the ``test`` extra.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

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
    return [f"{name}: {listed.get(name, 'missing')} here, {declared.get(name, 'missing')} in pyproject.toml"
            for name in sorted(set(listed) | set(declared)) if listed.get(name) != declared.get(name)]


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
