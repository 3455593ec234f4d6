"""The HTTP server: waitress with the app's own settings, its connections guarded, and a clean stop."""

from __future__ import annotations

import argparse
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication


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
        "connection_limit": open_files_for(args.connections),
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


def make_server(application: WSGIApplication, per_address: int = 0, request_timeout: float = 0, **options: Any) -> Any:
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

    guard = Guard(per_address, request_timeout)

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


class Guard:
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


def open_files_for(connections: int) -> int:
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
