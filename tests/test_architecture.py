"""The rules core is pure: standard library only, no web, storage or I/O imports; and the test run
writes nothing into the repository (conftest.py checks every run; here, that the check sees a file)."""

import ast
import pathlib
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "kunken_scorer"
CORE = [
    "__init__",
    "cards",
    "rules",
    "melds",
    "deal",
    "reading",
    "draft",
    "messages",
    "session",
    "charts",
    "notation",
    "disputes",
    "records",
]
FORBIDDEN = {
    "flask",
    "wtforms",
    "flask_wtf",
    "flask_babel",
    "sqlite_utils",
    "sqlite3",
    "qrcode",
    "werkzeug",
    "jinja2",
    "waitress",
    "socket",
    "http",
    "urllib",
    "os",
    "io",
    "subprocess",
}
#: the layers above the core (the web layer is the package kunken_scorer/web/; qrcodes draws the join
#: link's QR code for the pages and for app.py's terminal, so it is not web code)
NOT_CORE = {"web", "store", "service", "exports", "qrcodes"}
WEB_IMPORTS = {"flask", "flask_wtf", "flask_babel", "wtforms", "werkzeug", "jinja2", "markupsafe"}


def imports_of(path: pathlib.Path) -> set[str]:
    """Top-level module names and package-relative modules imported by ``path``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.add("." + (node.module or "").split(".")[0])
            else:
                names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", CORE)
def test_core_imports_only_the_standard_library_and_core(module):
    found = imports_of(PACKAGE / f"{module}.py")
    assert not found & FORBIDDEN, f"{module}.py imports {found & FORBIDDEN}"
    relative = {n[1:] for n in found if n.startswith(".")}
    assert not relative & NOT_CORE, f"{module}.py imports {relative & NOT_CORE}"
    absolute = {n for n in found if not n.startswith(".")}
    assert absolute <= set(sys.stdlib_module_names) | {"__future__"}, absolute - set(sys.stdlib_module_names)


def test_every_core_module_is_checked():
    """A new module in the package must be named core or not-core here."""
    present = {p.stem for p in PACKAGE.glob("*.py")}
    assert present <= set(CORE) | NOT_CORE, present - set(CORE) - NOT_CORE


@pytest.mark.parametrize("module", sorted(NOT_CORE - {"web"}))
def test_store_and_service_layers_never_import_the_web(module):
    """DESIGN.md: app.py -> web -> store -> core; the store and service know nothing of Flask."""
    found = imports_of(PACKAGE / f"{module}.py")
    assert not found & WEB_IMPORTS, found & WEB_IMPORTS
    assert ".web" not in found


def test_the_web_layer_lives_in_its_own_package():
    """Every module that imports Flask sits under kunken_scorer/web/, so the core stays easy to see."""
    for path in PACKAGE.glob("*.py"):
        assert not imports_of(path) & WEB_IMPORTS, path.name
    assert any(imports_of(p) & WEB_IMPORTS for p in (PACKAGE / "web").glob("*.py"))


def test_only_qrcodes_imports_the_qr_library():
    """The QR code library stays out of the core, the store and the service: qrcodes.py alone draws codes."""
    for path in [*PACKAGE.glob("*.py"), *(PACKAGE / "web").glob("*.py")]:
        assert "qrcode" not in imports_of(path) or path.name == "qrcodes.py", path.name


def test_the_checker_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import sqlite3\nfrom flask import Flask\nfrom .store import Store\n")
    assert {"sqlite3", "flask", ".store"} <= imports_of(bad)


def test_every_message_code_is_registered_in_messages_py():
    """A ``Reason("code", ...)`` anywhere in the package names a code of ``messages.MESSAGES``, and every
    code is registered in messages.py itself (not added to the table by another module at import)."""
    from kunken_scorer.messages import MESSAGES

    package = pathlib.Path(__file__).resolve().parent.parent / "kunken_scorer"
    used = {}
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "Reason"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                used.setdefault(node.args[0].value, str(path.relative_to(package)))
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "update"
                and getattr(node.value, "id", None) == "MESSAGES"
                and path.name != "messages.py"
            ):
                raise AssertionError(f"{path.name} adds to MESSAGES; register the codes in messages.py")
    assert len(used) > 50
    assert {code: where for code, where in used.items() if code not in MESSAGES} == {}


def test_the_no_writes_check_sees_every_new_file_and_folder(tmp_path):
    from conftest import new_files, repository_files

    (tmp_path / "app.py").write_text("")
    (tmp_path / "tests" / "__pycache__").mkdir(parents=True)
    before = repository_files(tmp_path)
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "secret_key").write_text("k")
    (tmp_path / ".hypothesis" / "constants").mkdir(parents=True)
    (tmp_path / "tests" / "stray.db").write_text("")
    (tmp_path / "tests" / "__pycache__" / "conftest.pyc").write_text("")  # bytecode is not the tests' doing
    (tmp_path / ".venv").mkdir()
    assert new_files(before, repository_files(tmp_path)) == [
        ".hypothesis/",
        ".hypothesis/constants/",
        "instance/",
        "instance/secret_key",
        "tests/stray.db",
    ]
    assert new_files(before, before) == []
