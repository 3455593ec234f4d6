"""Start the Kunken scorer: ``python app.py`` serves it on all interfaces with waitress.

The design card's entry point, over the same code as the installed ``kunken-scorer`` command
(``kunken_scorer/cli.py``): ``python app.py backup FILE`` copies the database while the server may be
running, and so on (``python app.py --help``). Exposes ``app`` (the WSGI app, when imported) and
``create_app``. Settings come from ``KUNKEN_*`` environment variables (docs/hosting.md).
"""

from __future__ import annotations

from kunken_scorer.cli import load_app, main
from kunken_scorer.web import create_app

__all__ = ["app", "create_app", "main"]

if __name__ == "__main__":
    main()
else:
    app = load_app()
