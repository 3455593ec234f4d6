"""Where the app's files are: the repository's ``templates/``, ``static/`` and ``translations/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent  # the repository: templates/, static/, translations/
