"""The command line: ``kunken-scorer serve`` (also ``python -m kunken_scorer`` and ``python app.py``) and the
maintenance commands. Each option's default comes from its ``KUNKEN_*`` variable (docs/hosting.md)."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from typing import Any

from .qrcodes import lan_address, qr_text
from .server import make_server, quiet_short_queues, server_options
from .store import Store, StoreError
from .web import StartupError, configuration, create_app


def load_app() -> Any:
    """The app, or one clear line on stderr and exit status 2 when it cannot start."""
    try:
        return create_app()
    except StartupError as err:
        print(f"kunken-scorer: {err}", file=sys.stderr)
        sys.exit(2)


def backup(target: str) -> None:
    """Copy the database to ``target`` (consistent while the server writes); print what was copied."""
    database = os.path.realpath(configuration()["DATABASE"])  # only reads: no migration, no start-up work
    # the database's own files: the file, and SQLite's write-ahead log and shared memory beside it
    if os.path.realpath(target) in {database, database + "-wal", database + "-shm", database + "-journal"}:
        print(
            "kunken-scorer: the backup must go to another file than the database and its -wal, -shm files",
            file=sys.stderr,
        )
        sys.exit(2)
    try:
        store = Store.connect(database)
        try:
            copied = store.backup(target)
        finally:
            store.close()
    except (StoreError, OSError) as err:
        print(f"kunken-scorer: backup failed: {err}", file=sys.stderr)
        sys.exit(1)
    print(
        f"Backed up {database} to {target}: {copied.sessions} sessions, {copied.deals} deals, "
        f"integrity {copied.integrity}"
    )


def serve(args: argparse.Namespace) -> None:
    """Apply migrations (done by create_app), print the join address and QR code, and serve."""
    logging.basicConfig()  # before the app starts: what start-up logs has its level and logger
    application = load_app()
    gc.freeze()  # what start-up made lives all along: the collector need not walk it again and again
    public = application.config.get("PUBLIC_URL")
    host = args.host if args.host not in ("0.0.0.0", "::", "") else lan_address()
    url = str(public).rstrip("/") + "/" if public else f"http://{host}:{args.port}/"
    print(f"Kunken scorer: database {application.config['DATABASE']}")
    print(f"Open on this network: {url}")
    if sys.stdout.isatty():  # a QR code in a log file helps nobody; its colour codes would only clutter it
        print(qr_text(url))

    quiet_short_queues(args.threads)
    server = make_server(
        application,
        per_address=args.connections_per_address,
        request_timeout=args.request_timeout,
        **server_options(args),
    )
    server.run()


def main(argv: list[str] | None = None) -> None:
    """``kunken-scorer [serve] [--host H] [--port P] ...`` serves; ``kunken-scorer backup FILE`` backs up."""
    args = arguments(argv)
    if args.command == "backup":
        backup(args.file)
    else:
        serve(args)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line read, each option's default from its ``KUNKEN_*`` variable (docs/hosting.md).

    The server's options are read before the command (``app.py --port 8001``, as ever) or after ``serve``
    (``kunken-scorer serve --port 8001``); no command is ``serve``."""
    parser = argparse.ArgumentParser(prog="kunken-scorer", description="Kunken scorer")
    _server_arguments(parser, defaults=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve_command = commands.add_parser("serve", help="serve the app (the default command)")
    _server_arguments(serve_command, defaults=False)
    backup_command = commands.add_parser("backup", help="copy the database to FILE, safely while serving")
    backup_command.add_argument("file")
    return parser.parse_args(argv)


def _server_arguments(parser: argparse.ArgumentParser, *, defaults: bool) -> None:
    """The server's options; without ``defaults`` (after ``serve``) an option not given keeps what was read
    before the command, or its default there."""

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    env = os.environ.get
    parser.add_argument("--host", default=default(env("KUNKEN_HOST", "0.0.0.0")))
    parser.add_argument("--port", type=int, default=default(int(env("KUNKEN_PORT", "8000"))))
    parser.add_argument("--threads", type=int, default=default(int(env("KUNKEN_THREADS", "8"))))
    parser.add_argument(
        "--connections",
        type=int,
        default=default(int(env("KUNKEN_CONNECTIONS", "2000"))),
        help="open connections served at once (each phone keeps one)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=default(int(env("KUNKEN_CONNECTIONS_PER_ADDRESS", "100"))),
        help="open connections one client address may have (0: no limit); raise it behind a reverse proxy",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=default(float(env("KUNKEN_REQUEST_TIMEOUT", "30"))),
        help="seconds a request may take to arrive whole (0: no limit)",
    )
