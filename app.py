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
import threading
import time
from typing import TYPE_CHECKING, Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

from kunken_scorer.qrcodes import lan_address, qr_text
from kunken_scorer.store import Store, StoreError
from kunken_scorer.web import StartupError, configuration, create_app

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication


def _app() -> Flask:
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
    server = _waitress(
        application,
        per_address=args.connections_per_address,
        request_timeout=args.request_timeout,
        **server_options(args),
    )
    server.run()


#: Seconds a connection may stay idle (nothing received, nothing sent) before the server closes it.
IDLE_TIMEOUT = 30


def server_options(args: argparse.Namespace) -> dict[str, Any]:
    """waitress's options for ``args``.

    Phones poll every few seconds over kept-alive connections: many more connections than threads. poll()
    instead of select() (select stops at 1024 descriptors). A connection that sends nothing (a half-open one)
    holds a slot, not a thread, and is closed after ``IDLE_TIMEOUT`` seconds (looked at every 10 s); one that
    sends a byte now and then is never idle, and is closed by ``request_timeout`` instead (``_waitress``).
    """
    return {
        "host": args.host,
        "port": args.port,
        "threads": args.threads,
        "ident": "kunken-scorer",
        "connection_limit": _open_files_for(args.connections),
        "channel_timeout": IDLE_TIMEOUT,
        "cleanup_interval": 10,
        "backlog": 2048,
        "asyncore_use_poll": True,
    }


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


def _waitress(application: WSGIApplication, per_address: int = 0, request_timeout: float = 0, **options: Any) -> Any:
    """A waitress server whose 304 answers keep the connection open, and whose connections are guarded.

    waitress 3.0.2 drops the ``Content-Length`` of an answer without a body (1xx, 204, 304) and
    then, finding no length, closes the connection: every phone polling an unchanged page would
    connect again every few seconds. A 304 here keeps its ``Content-Length: 0`` (no body is sent),
    which HTTP/1.1 allows, and the connection stays open (see benchmarks/bench_club.py).

    waitress has no limit per client address and closes only idle connections. ``per_address``: the open
    connections one address may have (0: no limit); one more is closed at once, so one machine cannot take
    every slot (2,100 half-open connections from one address made the health check take over 10 s). And
    ``request_timeout``: the seconds a request may take to arrive whole from its first byte (0: no limit), so
    a connection trickling a byte every few seconds (never idle) is closed too.
    """

    class KeepAliveTask(WSGITask):  # type: ignore[misc]  # waitress ships no types: its classes are Any
        @property
        def has_body(self) -> bool:
            return not (self.status.startswith("1") or self.status.startswith("204"))

        def build_response_header(self) -> bytes:
            if self.status.startswith("304") and getattr(self, "content_length", None) is None:
                self.content_length = 0  # the app sends no body: say so, and keep the connection
            return bytes(super().build_response_header())

    guard = _Guard(per_address, request_timeout)

    class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]  # waitress ships no types: its classes are Any
        task_class = KeepAliveTask
        #: the address counted for this connection (None: not counted, or no longer)
        counted: str | None = None
        #: the request being received, and when its first byte came (monotonic)
        receiving: object = None
        began: float | None = None

        def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map)
            self.counted = addr[0] if isinstance(addr, tuple) and per_address else None
            if self.counted is not None and not guard.admit(self.counted):
                self.will_close = True  # the main loop closes it at once, before reading anything

        def del_channel(self, map: Any = None) -> None:
            super().del_channel(map)
            if self.counted is not None:
                guard.leave(self.counted)
                self.counted = None

        def received(self, data: bytes) -> bool:
            done = bool(super().received(data))
            if self.request is None:
                self.receiving = self.began = None
            elif self.request is not self.receiving:
                self.receiving, self.began = self.request, time.monotonic()
            return done

        def readable(self) -> bool:
            # asked of every connection on each turn of the main loop (at least once a second)
            if self.began is not None and not self.requests and guard.too_slow(self.began):
                self.will_close = True
                self.began = None
            return bool(super().readable())

    server = create_server(application, **options)
    server.channel_class = KeepAliveChannel
    return server


class _Guard:
    """The open connections counted by client address, and the time a request may take to arrive."""

    def __init__(self, per_address: int, request_timeout: float) -> None:
        self.per_address, self.request_timeout = per_address, request_timeout
        self.lock = threading.Lock()
        self.open: dict[str, int] = {}
        self.warned: dict[str, float] = {}

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address``; False when it is one too many (it is still counted)."""
        with self.lock:
            count = self.open[address] = self.open.get(address, 0) + 1
            if count <= self.per_address:
                return True
            now = time.monotonic()
            warn = now - self.warned.get(address, -3600.0) >= 60
            if warn:
                self.warned[address] = now
        if warn:
            logging.getLogger("kunken_scorer.connections").warning(
                "%s opened more than the %d connections one address may have: its new ones are closed at once "
                "(KUNKEN_CONNECTIONS_PER_ADDRESS)",
                address,
                self.per_address,
            )
        return False

    def leave(self, address: str) -> None:
        """A connection from ``address`` closed."""
        with self.lock:
            left = self.open.get(address, 0) - 1
            if left > 0:
                self.open[address] = left
            else:
                self.open.pop(address, None)

    def too_slow(self, began: float) -> bool:
        """True when a request that began at ``began`` has taken longer than ``request_timeout`` to arrive."""
        return bool(self.request_timeout) and time.monotonic() - began > self.request_timeout


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
    args = arguments(argv)
    if args.command == "backup":
        backup(args.file)
    else:
        serve(args)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line read, each option's default from its ``KUNKEN_*`` variable (README "Configuration")."""
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
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=int(os.environ.get("KUNKEN_CONNECTIONS_PER_ADDRESS", "100")),
        help="open connections one client address may have (0: no limit); raise it behind a reverse proxy",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=float(os.environ.get("KUNKEN_REQUEST_TIMEOUT", "30")),
        help="seconds a request may take to arrive whole (0: no limit)",
    )
    commands = parser.add_subparsers(dest="command")
    backup_command = commands.add_parser("backup", help="copy the database to FILE, safely while serving")
    backup_command.add_argument("file")
    return parser.parse_args(argv)


if __name__ == "__main__":
    main()
else:
    app = _app()
