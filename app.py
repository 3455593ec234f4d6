"""Start the Kunken scorer: ``python app.py`` serves it on all interfaces with waitress.

Exposes ``app`` (the WSGI app) and ``create_app``. Settings come from ``KUNKEN_*``
environment variables: ``KUNKEN_DATABASE``, ``KUNKEN_SECRET_KEY``, ``KUNKEN_PUBLIC_URL``,
``KUNKEN_HOST`` and ``KUNKEN_PORT``.
"""

from __future__ import annotations

import argparse
import os

from kunken_scorer.web import create_app

app = create_app()


def main() -> None:
    """Apply migrations (done by create_app), print the join address and QR code, and serve."""
    parser = argparse.ArgumentParser(description="Kunken scorer")
    parser.add_argument("--host", default=os.environ.get("KUNKEN_HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("KUNKEN_PORT", "8000")))
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    from kunken_scorer.web.qr import lan_address, qr_text
    public = app.config.get("PUBLIC_URL")
    host = args.host if args.host not in ("0.0.0.0", "::", "") else lan_address()
    url = str(public).rstrip("/") + "/" if public else f"http://{host}:{args.port}/"
    print(f"Kunken scorer: database {app.config['DATABASE']}")
    print(f"Open on this network: {url}")
    print(qr_text(url))

    from waitress import serve
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="kunken-scorer")


if __name__ == "__main__":
    main()
