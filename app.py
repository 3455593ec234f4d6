"""Start the Kunken scorer: ``python app.py`` serves it on all interfaces with waitress.

``python app.py backup FILE`` copies the database to FILE while the server may be running
(SQLite's online backup). Exposes ``app`` (the WSGI app, when imported) and ``create_app``.
Settings come from ``KUNKEN_*`` environment variables (see the README).
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

from kunken_scorer.qrcodes import lan_address, qr_text
from kunken_scorer.store import Store, StoreError
from kunken_scorer.web import StartupError, configuration, create_app


def _app():
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
    application = _app()
    gc.freeze()  # what start-up made lives all along: the collector need not walk it again and again
    public = application.config.get("PUBLIC_URL")
    host = args.host if args.host not in ("0.0.0.0", "::", "") else lan_address()
    url = str(public).rstrip("/") + "/" if public else f"http://{host}:{args.port}/"
    print(f"Kunken scorer: database {application.config['DATABASE']}")
    print(f"Open on this network: {url}")
    if sys.stdout.isatty():  # a QR code in a log file helps nobody; its colour codes would only clutter it
        print(qr_text(url))

    quiet_short_queues(args.threads)
    connections = _open_files_for(args.connections)
    # Phones poll every few seconds over kept-alive connections: many more connections than threads.
    # poll() instead of select() (select stops at 1024 descriptors); a connection that sends half a
    # request and stalls holds a slot, not a thread, and is closed after channel_timeout seconds.
    server = _waitress(
        application,
        host=args.host,
        port=args.port,
        threads=args.threads,
        ident="kunken-scorer",
        connection_limit=connections,
        channel_timeout=30,
        cleanup_interval=10,
        backlog=2048,
        asyncore_use_poll=True,
    )
    server.run()


def quiet_short_queues(threads: int) -> None:
    """Let waitress warn of waiting requests only when as many wait as there are threads.

    waitress writes "WARNING Task queue depth is 1" whenever one request waits for a thread, which
    happens at any busy moment of a club night (271 lines in 10 s of eight phones recording, each
    request waiting a few milliseconds): an operator would take it for trouble. A queue as long as
    the threads are many means each waiting request waits a whole request or more: that is still said.
    """

    def long_enough(record: logging.LogRecord) -> bool:
        depth = record.args[0] if isinstance(record.args, tuple) and record.args else None
        return not isinstance(depth, int) or depth >= threads

    logging.getLogger("waitress.queue").addFilter(long_enough)


def _waitress(application, **options):
    """A waitress server whose 304 answers keep the connection open.

    waitress 3.0.2 drops the ``Content-Length`` of an answer without a body (1xx, 204, 304) and
    then, finding no length, closes the connection: every phone polling an unchanged page would
    connect again every few seconds. A 304 here keeps its ``Content-Length: 0`` (no body is sent),
    which HTTP/1.1 allows, and the connection stays open (see benchmarks/bench_club.py).
    """

    class KeepAliveTask(WSGITask):
        @property
        def has_body(self) -> bool:
            return not (self.status.startswith("1") or self.status.startswith("204"))

        def build_response_header(self):
            if self.status.startswith("304") and getattr(self, "content_length", None) is None:
                self.content_length = 0  # the app sends no body: say so, and keep the connection
            return super().build_response_header()

    class KeepAliveChannel(HTTPChannel):
        task_class = KeepAliveTask

    server = create_server(application, **options)
    server.channel_class = KeepAliveChannel
    return server


def _open_files_for(connections: int) -> int:
    """Raise this process's open-file limit for ``connections`` sockets if allowed; the count that fits."""
    try:
        import resource  # noqa: PLC0415 -- Unix only: elsewhere the ImportError below keeps the given count

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = connections + 64  # the database, the listening socket, the threads' own files
        if soft != resource.RLIM_INFINITY and soft < wanted:
            new_soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (new_soft, hard))
            soft = new_soft
        return max(10, min(connections, soft - 64)) if soft != resource.RLIM_INFINITY else connections
    except (ImportError, ValueError, OSError):
        return connections


def main(argv: list[str] | None = None) -> None:
    """``app.py [--host H] [--port P] [--threads N]`` serves; ``app.py backup FILE`` backs up."""
    parser = argparse.ArgumentParser(description="Kunken scorer")
    parser.add_argument("--host", default=os.environ.get("KUNKEN_HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("KUNKEN_PORT", "8000")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("KUNKEN_THREADS", "8")))
    parser.add_argument(
        "--connections",
        type=int,
        default=int(os.environ.get("KUNKEN_CONNECTIONS", "2000")),
        help="open connections served at once (each phone keeps one)",
    )
    commands = parser.add_subparsers(dest="command")
    backup_command = commands.add_parser("backup", help="copy the database to FILE, safely while serving")
    backup_command.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "backup":
        backup(args.file)
    else:
        serve(args)


if __name__ == "__main__":
    main()
else:
    app = _app()
