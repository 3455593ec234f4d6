"""The command line: ``kunken-scorer serve`` (also ``python -m kunken_scorer`` and ``python app.py``) and the
maintenance commands. Each option's default comes from its ``KUNKEN_*`` variable (docs/hosting.md)."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sqlite3
import sys
import time
from typing import Any

from .maintenance import backup, held_while_serving, restore
from .qrcodes import lan_address, qr_text
from .server import guard_options, make_server, quiet_short_queues, serve_until_stopped, server_options
from .service import members
from .store import Store, StoreError
from .web import StartupError, configuration, create_app


def load_app() -> Any:
    """The app, or one clear line on stderr and exit status 2 when it cannot start."""
    try:
        return create_app()
    except StartupError as err:
        print(f"kunken-scorer: {err}", file=sys.stderr)
        sys.exit(2)


def serve(args: argparse.Namespace) -> None:
    """Apply migrations (done by create_app), print the join address and QR code, and serve."""
    logging.basicConfig()  # before the app starts: what start-up logs has its level and logger
    logging.getLogger("kunken_scorer.server").setLevel(logging.INFO)  # what the stop did is said, not a warning
    if args.trusted_proxies:  # the option, given on the command line, reaches the app as the variable would
        os.environ["KUNKEN_TRUSTED_PROXIES"] = args.trusted_proxies
    application = held_while_serving(load_app)  # its lock on the file: no restore replaces it under us
    gc.freeze()  # what start-up made lives all along: the collector need not walk it again and again
    public = application.config.get("PUBLIC_URL")
    host = args.host if args.host not in ("0.0.0.0", "::", "") else lan_address()
    url = str(public).rstrip("/") + "/" if public else f"http://{host}:{args.port}/"
    print(f"Kunken scorer: database {application.config['DATABASE']}")
    print(f"Open on this network: {url}")
    if sys.stdout.isatty():  # a QR code in a log file helps nobody; its colour codes would only clutter it
        print(qr_text(url))

    quiet_short_queues(args.threads)
    options = server_options(args)
    server = make_server(application, **guard_options(args, options["connection_limit"]), **options)
    # SIGTERM (systemctl stop, docker stop) and Ctrl-C: the requests received are answered, the -wal checkpointed
    max_bytes = int(application.config.get("DATABASE_MAX_MB") or 0) * 1024 * 1024  # as web.database opens it
    serve_until_stopped(server, application.config["DATABASE"], max_bytes=max_bytes)


def invite(args: argparse.Namespace) -> None:
    """Print an invite link (``KUNKEN_PUBLIC_URL``, else this machine's address as ``serve`` prints it) and, on a
    terminal, its QR code; with ``--new-club-key`` a new club key first, which ends every membership and every
    invite link made before."""
    settings = configuration()  # only the settings: the server need not be stopped
    database, public = settings["DATABASE"], settings.get("PUBLIC_URL")
    try:
        required = members.members_required(settings.get("MEMBERS"), public)
    except members.MembersSettingError as err:
        print(f"kunken-scorer: {err}", file=sys.stderr)
        sys.exit(2)
    if not os.path.exists(database):  # opening it would make an empty one, whose key the server would not use
        print(
            f"kunken-scorer: there is no database at {database}: start the server once (kunken-scorer serve), "
            "or set KUNKEN_DATABASE to its file",
            file=sys.stderr,
        )
        sys.exit(2)
    try:
        store = Store.open(database)  # migrated if the server has not run since an upgrade: the club key is there
        try:
            if args.new_club_key:
                members.new_club_key(store)
            made = members.make_invite(store)
        finally:
            store.close()
    except (StoreError, OSError, sqlite3.Error) as err:
        print(f"kunken-scorer: invite failed: {err}", file=sys.stderr)
        sys.exit(1)
    host = args.host if args.host not in ("0.0.0.0", "::", "") else lan_address()
    base = str(public).rstrip("/") if public else f"http://{host}:{args.port}"
    url = f"{base}{members.INVITE_PATH}{made.token}"
    if args.new_club_key:
        print("A new club key: every membership and every invite link made before have ended.")
    if not required:
        print("Members are off on this server (KUNKEN_MEMBERS): everyone sees everything; this link counts once on.")
    until = time.strftime("%Y-%m-%d %H:%M", time.localtime(made.expires))
    print(f"Invite link, for {members.INVITE_DAYS} days (until {until}): {url}")
    if sys.stdout.isatty():  # as serve: a QR code only where a phone can scan it
        print(qr_text(url))


def main(argv: list[str] | None = None) -> None:
    """``kunken-scorer [serve] [--host H] [--port P] ...`` serves; ``kunken-scorer backup FILE`` backs up,
    ``kunken-scorer restore BACKUP`` restores."""
    args = arguments(argv)
    if args.command == "backup":
        backup(args.file, force=args.force)
    elif args.command == "restore":
        restore(args.backup)
    elif args.command == "invite":
        invite(args)
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
    backup_command = commands.add_parser(
        "backup", help="copy the database to FILE (or a dated file in FOLDER), safely while serving"
    )
    backup_command.add_argument("file", metavar="FILE|FOLDER")
    backup_command.add_argument(
        "--force", action="store_true", help="replace FILE if it exists (a symbolic link: the link itself)"
    )
    restore_command = commands.add_parser(
        "restore", help="replace the database by BACKUP, the server stopped (the old file is kept beside it)"
    )
    restore_command.add_argument("backup", metavar="BACKUP")
    invite_command = commands.add_parser("invite", help="print an invite link that makes a phone a club member")
    invite_command.add_argument(
        "--new-club-key",
        action="store_true",
        help="make a new club key first: every membership and every invite link made before end at once",
    )
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
    half_open = env("KUNKEN_HALF_OPEN")
    parser.add_argument(
        "--half-open",
        type=int,
        default=default(int(half_open) if half_open else None),
        help="connections, from all addresses, open without a whole request sent (0: no limit; default: half of "
        "--connections); one more closes the oldest of them",
    )
    parser.add_argument(
        "--trusted-proxies",
        default=default(env("KUNKEN_TRUSTED_PROXIES", "")),
        help="the reverse proxy's addresses, comma-separated: its X-Forwarded-For/-Proto are believed, and its "
        "connections are not counted against --connections-per-address",
    )
