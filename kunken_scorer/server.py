"""The HTTP server: waitress with the app's own settings, its connections guarded, and a clean stop.

A clean stop (``serve_until_stopped``): ``systemctl stop`` and ``docker stop`` send SIGTERM, Ctrl-C sends SIGINT;
either way the server stops taking connections, finishes the requests it has received and sends their answers,
closes its database connections, copies the write-ahead log into the database file (``wal_checkpoint(TRUNCATE)``)
and returns, so the process exits 0 within 10 s. Before, SIGTERM killed it like ``kill -9``: with its -wal replaced
while idle, that lost acknowledged deals (issue 46).
"""

from __future__ import annotations

import argparse
import functools
import gc
import ipaddress
import logging
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import WSGITask

from .store import StorageUnavailable, Store

if TYPE_CHECKING:
    from types import FrameType

    from _typeshed.wsgi import WSGIApplication


#: Seconds a connection may stay idle (nothing received, nothing sent) before the server closes it.
IDLE_TIMEOUT = 30
#: Seconds after SIGTERM or SIGINT within which the requests in flight must have been answered; what has not is
#: dropped, so that the database is checkpointed and the process has exited within 10 s (systemd's and docker's
#: patience is longer, but an operator's is not).
STOP_DEADLINE = 8.0

_log = logging.getLogger("kunken_scorer.server")


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
        # waitress would drop every X-Forwarded-* header (it trusts no proxy of its own here); the app reads them
        # from KUNKEN_TRUSTED_PROXIES' addresses alone and ignores them from any other (web/proxies.py)
        "clear_untrusted_proxy_headers": False,
    }


def guard_options(args: argparse.Namespace, connection_limit: int) -> dict[str, Any]:
    """``make_server``'s guard options for ``args``, ``connection_limit`` being waitress's (``server_options``).

    Half-open connections (none of their requests arrived whole yet) may take half the connections unless
    ``--half-open`` says otherwise: the other half stays for the phones that poll and for whoever connects next.
    """
    half_open = args.half_open if args.half_open is not None else connection_limit // 2
    return {
        "per_address": args.connections_per_address,
        "request_timeout": args.request_timeout,
        "half_open": max(0, min(half_open, connection_limit)),
        "trusted": trusted_addresses(args.trusted_proxies),
    }


def trusted_addresses(text: str) -> frozenset[str]:
    """The addresses of ``KUNKEN_TRUSTED_PROXIES`` (comma-separated), written as a client's address is here. An
    entry that is no address is left out: the app refuses to start with it (``web.proxies``) and says why."""
    found = set()
    for entry in (text or "").split(","):
        address = _normal(entry.strip())
        if address:
            found.add(address)
    return frozenset(found)


def _normal(text: str) -> str:
    """``text`` as one way of writing its address (an IPv4 address mapped into IPv6 as IPv4); "" for no address."""
    try:
        parsed = ipaddress.ip_address(text)
    except ValueError:
        return ""
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


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


def make_server(
    application: WSGIApplication,
    per_address: int = 0,
    request_timeout: float = 0,
    half_open: int = 0,
    trusted: frozenset[str] = frozenset(),
    **options: Any,
) -> Any:
    """A waitress server whose 304 answers keep the connection open, and whose connections are guarded.

    waitress 3.0.2 drops the ``Content-Length`` of an answer without a body (1xx, 204, 304) and
    then, finding no length, closes the connection: every phone polling an unchanged page would
    connect again every few seconds. A 304 here keeps its ``Content-Length: 0`` (no body is sent),
    which HTTP/1.1 allows, and the connection stays open (see benchmarks/bench_club.py).

    waitress has no limit per client address and closes only idle connections. ``per_address``: the open
    connections one address may have (0: no limit); one more is closed at once, so one machine cannot take
    every slot (2,100 half-open connections from one address made the health check take over 10 s). The
    ``trusted`` addresses (a reverse proxy's, ``KUNKEN_TRUSTED_PROXIES``) are not counted: every phone comes
    from there. ``half_open``: the connections, from all addresses together, that may be open without having
    sent a whole request (0: no limit); one more closes the oldest of them, so that 2,100 of them from 21
    addresses cannot fill waitress's ``connection_limit`` and shut out the next phone. And ``request_timeout``:
    the seconds a request may take to arrive whole from its first byte (0: no limit), so a connection trickling
    a byte every few seconds (never idle) is closed too.
    """
    guard = Guard(per_address, request_timeout, half_open=half_open, trusted=trusted)
    channel_class = type("KeepAliveChannel", (GuardedChannel,), {"guard": guard})
    server = create_server(application, **options)
    for listener in _listeners(server):  # one per address listened on (a host name may have two)
        listener.channel_class = channel_class
        listener.handle_accept = functools.partial(_accept_waiting, listener)
    server.guard = guard
    return server


#: Connections accepted at most at one turn of the main loop.
ACCEPT_BATCH = 64


def _accept_waiting(listener: Any) -> None:
    """Accept the connections waiting (up to ``ACCEPT_BATCH``), not only one as waitress does.

    Each turn of waitress's main loop asks every open connection whether it wants to read or write: with 1,000
    connections open a turn takes milliseconds. Accepting one connection a turn, a flood of 2,100 took seconds to
    take in, and a phone connecting behind it waited in the queue all that while (p99 of the health check: 225
    ms); taking in all that wait at each turn, it is reached at once (benchmarks/bench_stop.py)."""
    for _ in range(ACCEPT_BATCH):
        if len(listener._map) >= listener.adj.connection_limit:
            return  # waitress's own limit: the rest wait in the queue until connections close
        try:
            accepted = listener.accept()
            if accepted is None:
                return  # no more waiting
            conn, addr = accepted
            listener.set_socket_options(conn)
        except OSError:
            # as waitress: a socket the client closed before it was accepted is not the server's failure
            if listener.adj.log_socket_errors:
                listener.logger.warning("server accept() threw an exception", exc_info=True)
            return
        listener.channel_class(listener, conn, listener.fix_addr(addr), listener.adj, map=listener._map)


class KeepAliveTask(WSGITask):  # type: ignore[misc]  # waitress ships no types: its classes are Any
    """A task whose 304 answer keeps its ``Content-Length: 0`` and so its connection (``make_server``)."""

    @property
    def has_body(self) -> bool:
        return not (self.status.startswith("1") or self.status.startswith("204"))

    def build_response_header(self) -> bytes:
        if self.status.startswith("304") and getattr(self, "content_length", None) is None:
            self.content_length = 0  # the app sends no body: say so, and keep the connection
        return bytes(super().build_response_header())


class GuardedChannel(HTTPChannel):  # type: ignore[misc]  # waitress ships no types: its classes are Any
    """A connection counted by its ``guard`` (a subclass made by ``make_server`` sets it) and answered with
    ``KeepAliveTask``; it reads nothing more once the server is stopping."""

    task_class = KeepAliveTask
    guard: Guard
    #: the address counted for this connection (None: not counted, or no longer)
    counted: str | None = None
    #: the request being received, and when its first byte came (monotonic)
    receiving: object = None
    began: float | None = None
    #: the server is stopping and this connection has nothing more to send: its sending side is shut
    finished = False

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map)
        address = addr[0] if isinstance(addr, tuple) and addr else None
        if address is not None and self.guard.per_address and not self.guard.trusts(address):
            self.counted = address
        if self.counted is not None and not self.guard.admit(self.counted):
            self.will_close = True  # the main loop closes it at once, before reading anything
            return
        oldest = self.guard.opened(self)
        if oldest is not None:
            oldest.will_close = True  # closed on the main loop's next turn

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        self.guard.gone(self)
        if self.counted is not None:
            self.guard.leave(self.counted)
            self.counted = None

    def received(self, data: bytes) -> bool:
        done = bool(super().received(data))
        if self.requests:
            self.guard.gone(self)  # a whole request came: no longer half-open (idle later, not half-open)
        if self.request is None:
            self.receiving = self.began = None
        elif self.request is not self.receiving:
            self.receiving, self.began = self.request, time.monotonic()
        return done

    def readable(self) -> bool:
        # asked of every connection on each turn of the main loop (at least once a second)
        if self.guard.stopping:
            return False  # the server is stopping: it answers what it has, and reads nothing more
        if self.began is not None and not self.requests and self.guard.too_slow(self.began):
            self.will_close = True
            self.began = None
        return bool(super().readable())

    def writable(self) -> bool:
        return not self.finished and bool(super().writable())

    def finish(self) -> None:
        """The server is stopping and this connection has nothing more to send: end its sending side.

        Not closed yet: a close with a request unread would reset the connection, and a reset can take with it
        an answer the phone has not read yet. It is closed as the server exits."""
        self.finished = True
        try:
            self.socket.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the phone closed it already


class Guard:
    """The open connections counted by client address, the half-open ones over all addresses, the time a request
    may take to arrive, and whether the server is stopping.

    Called from waitress's main loop; the lock keeps the counts right should another thread close a connection."""

    def __init__(
        self,
        per_address: int,
        request_timeout: float,
        *,
        half_open: int = 0,
        trusted: frozenset[str] = frozenset(),
    ) -> None:
        self.per_address, self.request_timeout = per_address, request_timeout
        self.half_open, self.trusted = half_open, trusted
        self.lock = threading.Lock()
        self.open: dict[str, int] = {}
        self.warned: dict[str, float] = {}
        #: the connections that have not yet sent a whole request, oldest first (a dict keeps its order)
        self.waiting: dict[object, None] = {}
        #: half-open connections closed to make room, since the last warning said so
        self.evicted = 0
        self.evicted_warned = -3600.0
        #: set when SIGTERM or SIGINT came: no connection reads anything more
        self.stopping = False

    def trusts(self, address: str) -> bool:
        """True when ``address`` is a trusted proxy's: its connections are every phone's, not counted by address."""
        return bool(self.trusted) and _normal(address) in self.trusted

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

    def opened(self, connection: object) -> Any:
        """Count ``connection``, new and half-open; the oldest half-open connection, to close, when there are now
        more than ``half_open`` (None: there are not, or no limit). The oldest goes, not the newest: a flood's
        connections are older than the phone (or health check) connecting now, which is served at once."""
        if not self.half_open:
            return None
        with self.lock:
            self.waiting[connection] = None
            if len(self.waiting) <= self.half_open:
                return None
            oldest = next(iter(self.waiting))
            del self.waiting[oldest]
            self.evicted += 1
            now = time.monotonic()
            warn, evicted = now - self.evicted_warned >= 60, self.evicted
            if warn:
                self.evicted_warned, self.evicted = now, 0
        if warn:
            logging.getLogger("kunken_scorer.connections").warning(
                "more than %d connections were open without having sent a whole request: the oldest of them are "
                "closed (%d since the last such warning; KUNKEN_HALF_OPEN)",
                self.half_open,
                evicted,
            )
        return oldest

    def gone(self, connection: object) -> None:
        """``connection`` sent a whole request, or closed: no longer half-open."""
        if self.half_open and connection in self.waiting:
            with self.lock:
                self.waiting.pop(connection, None)

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


# -- the clean stop -------------------------------------------------------------------------------------


def serve_until_stopped(server: Any, database: str, *, max_bytes: int = 0, deadline: float = STOP_DEADLINE) -> None:
    """Serve until SIGTERM or SIGINT, then stop cleanly and return (the process exits 0).

    waitress's own ``run()`` leaves SIGTERM to its default (the process dies where it stands, its answers half
    sent, its database connections open) and stops at Ctrl-C without waiting for its requests. Here the main loop
    turns until a signal comes, then: the listening sockets close (a new connection is refused: a phone retries
    against the restarted server); what was received whole is answered and sent, within ``deadline`` seconds
    (past it, what is left is dropped, unanswered, so nothing is acknowledged that was not stored); every
    worker thread closes its database connection (saving first what a -wal deleted or replaced since held, as a
    request would); and the -wal is copied into the database file. A second signal skips the waiting.
    ``database``, ``max_bytes``: the file and the cap the app's connections were opened with (``Store.kept``).
    """
    stop = _Signals(server)
    socket_map = _socket_map(server)
    use_poll = server.adj.asyncore_use_poll
    try:
        while not stop.received:
            wasyncore.loop(timeout=server.adj.asyncore_loop_timeout, use_poll=use_poll, map=socket_map, count=1)
        began = time.monotonic()
        _log.info("%s: stopping; no new connections, the requests received are answered", stop.received[0])
        answered, dropped = _drain(server, socket_map, stop, began + deadline)
        closed = _close_connections(server.task_dispatcher, database, max_bytes, began + deadline + 0.5)
        server.task_dispatcher.shutdown(
            cancel_pending=True, timeout=max(0.1, began + deadline + 0.8 - time.monotonic())
        )
        wasyncore.close_all(socket_map, ignore_all=True)
        saved = checkpoint(database, seconds=max(0.2, began + deadline + 1.5 - time.monotonic()))
        _log.info(
            "stopped in %.2f s: %d requests answered, %d dropped unanswered, %d threads closed their database "
            "connection; %s",
            time.monotonic() - began,
            answered,
            dropped,
            closed,
            saved,
        )
    finally:
        stop.restore()


class _Signals:
    """SIGTERM and SIGINT, caught while the server runs: each is noted, and wakes the main loop at once."""

    def __init__(self, server: Any) -> None:
        self.received: list[str] = []
        self.wake: Callable[[], None] = _listeners(server)[0].pull_trigger
        self.previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():  # Python lets only the main thread catch signals
            for signum in (signal.SIGTERM, signal.SIGINT):
                self.previous[signum] = signal.signal(signum, self.caught)

    def caught(self, signum: int, _frame: FrameType | None) -> None:
        self.received.append(signal.Signals(signum).name)
        try:
            self.wake()  # writes a byte to waitress's own pipe (no lock taken: safe in a handler), ending poll()
        except OSError:
            pass  # the pipe is closed already: the loop is ending anyway

    def restore(self) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)


def _drain(server: Any, socket_map: dict[int, Any], stop: _Signals, deadline: float) -> tuple[int, int]:
    """Close the listening sockets and answer what was received, until ``deadline`` (monotonic) or a second
    signal; (the requests answered meanwhile, the requests dropped). Connections with nothing more to send have
    their sending side shut as they come to it; the others are closed when dropped."""
    server.guard.stopping = True
    for listener in _listeners(server):
        wasyncore.dispatcher.close(listener)  # the listening socket alone: the loop's wake-up pipe stays
    first = None
    while True:
        busy = []
        for channel in list(socket_map.values()):
            if not isinstance(channel, HTTPChannel) or getattr(channel, "finished", True):
                continue
            if channel.requests or channel.total_outbufs_len:
                busy.append(channel)
            else:
                channel.finish()
        waiting = sum(len(c.requests) for c in busy)
        if first is None:
            first = waiting
        if not busy or len(stop.received) > 1 or time.monotonic() >= deadline:
            break
        wasyncore.loop(timeout=0.05, use_poll=server.adj.asyncore_use_poll, map=socket_map, count=1)
    for channel in busy:
        channel.handle_close()  # a task waiting to write its answer ends (ClientDisconnected): nothing is sent
    if busy:
        _log.warning(
            "%d connections still had requests in flight or answers unsent at the stop's deadline: dropped",
            len(busy),
        )
    return max(0, first - waiting), waiting


def _close_connections(dispatcher: Any, database: str, max_bytes: int, deadline: float) -> int:
    """Have every worker thread close its kept database connection, in that thread (SQLite's connections are
    the thread's own); the count closed by ``deadline`` (monotonic). A connection whose -wal was deleted or
    replaced meanwhile saves what that held into the database file first (``Store.kept`` does, as for a request):
    closed unsaved, a server stopped while idle lost acknowledged deals."""
    threads = len(dispatcher.threads)
    if not threads:
        return 0
    barrier = threading.Barrier(threads, timeout=max(0.1, deadline - time.monotonic()))
    marks = threading.local()  # the threads that closed theirs: one taking a second such task opens none
    closed: list[bool] = []
    finished = threading.Condition()

    class CloseConnection:
        def service(self) -> None:
            try:
                closed.append(_close_kept(database, max_bytes, marks))
                # each thread takes one: it waits here until every thread has taken its own
                barrier.wait()
            except threading.BrokenBarrierError:
                pass  # a thread still busy past the deadline: it never came
            finally:
                with finished:
                    finished.notify_all()

        def cancel(self) -> None:
            pass

    for _ in range(threads):
        dispatcher.add_task(CloseConnection())
    with finished:
        finished.wait_for(lambda: len(closed) >= threads, timeout=max(0.0, deadline - time.monotonic()))
    _close_kept(database, max_bytes, marks)  # the main thread's, if start-up kept one
    return sum(closed)


def _close_kept(database: str, max_bytes: int, marks: threading.local) -> bool:
    """Close this thread's kept connection, unless ``marks`` says it did already; True when it closed one now."""
    if getattr(marks, "done", False):
        return False
    marks.done = True
    try:
        Store.kept(database, max_bytes=max_bytes)  # a lost -wal found here is saved, and the connection dropped
    except StorageUnavailable as err:
        _log.warning("closing a database connection: %s", err)
    Store.drop_kept()
    return True


def checkpoint(database: str, *, seconds: float) -> str:
    """Copy the -wal into the database file and empty it (``wal_checkpoint(TRUNCATE)``), waiting at most
    ``seconds`` for a connection still reading or writing; what was done, as one line for the log."""
    gc.collect()  # a connection only garbage holds (a thread's, ended) is closed first, not left reading
    try:
        store = Store.connect(database)
    except StorageUnavailable as err:
        return f"the -wal was not checkpointed: {err}"
    try:
        store.db.execute(f"PRAGMA busy_timeout = {max(1, int(seconds * 1000))}")
        busy, frames, copied = store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error as err:
        return f"the -wal was not checkpointed: {err}"
    finally:
        store.close()
    if busy:
        return f"the -wal was checkpointed in part ({copied} of {frames} pages): a connection was still busy"
    return f"the -wal was checkpointed into {database} ({copied} pages) and emptied"


def _socket_map(server: Any) -> dict[int, Any]:
    """waitress's map of the sockets its main loop watches (a server on several addresses keeps it as ``map``)."""
    return server.map if hasattr(server, "map") else server._map  # type: ignore[no-any-return]


def _listeners(server: Any) -> list[Any]:
    """The server's listening servers, one per address (they share the map, the threads and the channels)."""
    return [obj for obj in _socket_map(server).values() if isinstance(obj, BaseWSGIServer)]
