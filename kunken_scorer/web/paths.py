"""Where the app's files are (``templates/``, ``static/``, ``translations/``) and where it keeps its data.

An installed package carries the files inside ``kunken_scorer/`` (setup.py copies them there, catalogs compiled, as
the wheel is built); a checkout has them beside the package, at the repository's top level (the design card's
layout), and a checkout's package has no copy of them: ``ROOT`` is whichever holds ``templates/``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # kunken_scorer/
CHECKOUT = PACKAGE.parent  # the repository, when the package is run from one
INSTALLED = (PACKAGE / "templates").is_dir()  # a wheel's (or `pip install .`'s) copy, not a checkout
ROOT = PACKAGE if INSTALLED else CHECKOUT  # templates/, static/, translations/


def data_dir(environ: Mapping[str, str] = os.environ, *, installed: bool = INSTALLED) -> Path:
    """The folder of the database (``kunken.db``) and the secret key, absolute: ``KUNKEN_DATA_DIR``; else systemd's
    ``StateDirectory=`` (it sets ``STATE_DIRECTORY``; the first one when several); else ``instance/`` in the
    checkout, as ever; else, installed, ``instance/`` in the current folder: site-packages is no place for data (a
    reinstall or an upgrade would wipe it, and a service's user may not write there)."""
    chosen = environ.get("KUNKEN_DATA_DIR") or environ.get("STATE_DIRECTORY", "").split(":")[0]
    if chosen:
        return Path(os.path.abspath(chosen))  # abspath, not resolve: a symlinked folder stays as the operator named it
    return Path.cwd() / "instance" if installed else CHECKOUT / "instance"
