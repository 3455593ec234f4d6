"""The package's build (pyproject.toml says the rest): a wheel's ``kunken_scorer/`` carries the app's files.

The repository keeps ``templates/``, ``static/`` and ``translations/`` at its top level (the design card's layout, read
from the checkout by ``make run``); the build copies the first two into the package and compiles each
``translations/<lang>/LC_MESSAGES/messages.po`` into a ``messages.mo`` there (the compiled catalogs are not in git),
so that an installed package serves every page in both languages with no checkout (``kunken_scorer/web/paths.py``
looks inside the package first). An editable install reads the checkout, as ``make run`` does: nothing is copied.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PACKAGE = "kunken_scorer"
FOLDERS = ("templates", "static")  # copied whole
#: The operator's guide, installed beside the virtualenv's files (<venv>/share/doc/kunken-scorer/hosting.md: the
#: systemd unit's Documentation=); docs/hosting.md is read from the source tree, the sdist carrying it (MANIFEST.in).
GUIDES = [str(path.relative_to(HERE)) for path in sorted((HERE / "docs").glob("hosting.md"))]


def compile_catalogs(source: Path, target: Path) -> list[Path]:
    """Each ``<lang>/LC_MESSAGES/messages.po`` under ``source`` compiled to the same place under ``target``, as
    ``pybabel compile`` does (fuzzy entries left out); the files written. No catalog at all is an error: a wheel
    without them would serve every page in English without a word."""
    written = []
    for po in sorted(source.glob("*/LC_MESSAGES/messages.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as read:
            catalog = read_po(read, locale=po.parent.parent.name)
        with mo.open("wb") as out:
            write_mo(out, catalog)
        written.append(mo)
    if not written:
        raise SystemExit(f"setup.py: no translations/*/LC_MESSAGES/messages.po under {source}")
    return written


class BuildWithFiles(build_py):
    """``build_py`` that also puts the app's files into the built package (not into the checkout)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # `pip install -e .`: the package runs from the checkout and reads its files there
            return
        package = Path(self.build_lib) / PACKAGE
        for folder in FOLDERS:
            shutil.copytree(HERE / folder, package / folder, dirs_exist_ok=True)
        # only the compiled catalogs: with no .po beside them the start-up check has nothing to find stale
        compile_catalogs(HERE / "translations", package / "translations")


setup(cmdclass={"build_py": BuildWithFiles}, data_files=[("share/doc/kunken-scorer", GUIDES)] if GUIDES else [])
