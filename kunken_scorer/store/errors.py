"""What the store raises: every failure is a ``StoreError``."""

from __future__ import annotations

import sqlite3


def N_(text: str) -> str:
    """Mark a message id for the translation catalogs (``make catalogs`` extracts it; the web layer translates it),
    as the core's ``N_`` does: the store imports nothing of the core."""
    return text


class StoreError(Exception):
    """Base class for every failure the store reports."""


class NotFound(StoreError):
    """The session or deal does not exist (or the deal was deleted)."""


class NightNotFound(NotFound):
    """The club night does not exist."""


class Conflict(StoreError):
    """The data changed on another device since the caller last read it."""


class KeyReused(StoreError):
    """An idempotency key already answered a different request: a retry must send the same body."""


class SessionEnded(StoreError):
    """The session has ended: it can be read but no longer changed."""


class StorageUnavailable(StoreError):
    """The database file cannot be used: missing, read-only, full, busy or damaged (``corrupt``: SQLite found a page
    it cannot read), or its write-ahead log (``-wal``) was deleted or replaced under the running server (``kind``
    says which).

    ``str()`` is the detail for the server's log (SQLite's own words, or what happened and what to do), never for
    a phone. ``file``: the exact file to fix, when it is not the database file itself (a ``-shm`` the server may
    not write, a lost ``-wal``). ``writing``: raised by a write (its transaction rolled back: nothing of it is
    stored); False when the database could not even be opened or read, which a read (GET) is told as "nothing
    could be read" rather than "nothing was saved".
    """

    KINDS = ("missing", "read_only", "full", "busy", "wal_lost", "corrupt", "unknown")

    def __init__(self, kind: str, detail: str = "", *, file: str | None = None, writing: bool = False) -> None:
        """``kind``: one of ``KINDS``; ``detail``: SQLite's own words, or what happened and what to do."""
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind if kind in self.KINDS else "unknown"
        self.file = file
        self.writing = writing

    @classmethod
    def from_error(cls, error: sqlite3.Error, *, writing: bool = False) -> StorageUnavailable:
        """Classify an SQLite error by SQLite's own message."""
        text = str(error).lower()
        if "readonly" in text or "read-only" in text:
            kind = "read_only"
        elif "full" in text:
            kind = "full"
        elif "locked" in text or "busy" in text:
            kind = "busy"
        elif "malformed" in text or "not a database" in text or "corrupt" in text:
            # "database disk image is malformed": a damaged page; "file is not a database": a damaged first page
            # (or another kind of file put in its place). Neither mends itself: a backup must be restored.
            kind = "corrupt"
        elif any(w in text for w in ("unable to open", "no such table", "disk i/o")):
            kind = "missing"
        else:
            kind = "unknown"
        return cls(kind, str(error), writing=writing)

    def for_the_log(self, file: str | None) -> str:
        """What the server's log says of this fault: SQLite's words; for a damaged ``file``, its whole path and what
        to do (the log is read by whoever runs the server)."""
        if self.kind != "corrupt" or not file:
            return str(self)
        return (
            f'the database file {file} is damaged ({self}). Check it: sqlite3 {file} "PRAGMA integrity_check"; '
            "then stop the server and restore a backup: kunken-scorer restore BACKUP"
        )

    def words(self, reading: bool) -> str:
        """What a phone is told of this fault, a message id of ``FAULT_WORDS`` (``%(file)s``: the file's name):
        for a ``reading`` that nothing could be read, else that nothing of the write was saved; and what to do."""
        kind = "read_only_file" if self.kind == "read_only" and self.file else self.kind
        return (
            FAULT_WORDS.get((kind, reading)) or FAULT_WORDS.get((self.kind, reading)) or FAULT_WORDS["unknown", reading]
        )


#: What a phone is told of each kind of ``StorageUnavailable``, by (kind, reading): message ids, translated by the
#: web layer. A kind without words of its own for a read or a write is told as "unknown"; "read_only_file" is a
#: read-only file the fault names (``%(file)s``).
FAULT_WORDS: dict[tuple[str, bool], str] = {
    ("read_only_file", False): N_(
        "The server's database file %(file)s is read-only, so nothing can be saved. Nothing was saved "
        "by this request. Tell whoever runs the server to make that file writable."
    ),
    ("missing", False): N_(
        "The server's database file is missing, so nothing can be saved. Nothing was saved by "
        "this request. Tell whoever runs the server: restore the file from a backup and "
        "restart it."
    ),
    ("read_only", False): N_(
        "The server's database file is read-only, so nothing can be saved. Nothing was saved "
        "by this request. Tell whoever runs the server to make the file writable."
    ),
    ("full", False): N_(
        "The server's disk (or database size limit) is full, so nothing can be saved. Nothing was "
        "saved by this request. Tell whoever runs the server to free some space."
    ),
    ("busy", False): N_("The server's database is busy. Nothing was saved by this request; try again in a moment."),
    ("wal_lost", False): N_(
        "The server's database log (its -wal file) was deleted or replaced while the server ran; what was "
        "saved before is kept. Nothing was saved by this request: send it again. Tell whoever runs the "
        "server never to delete the -wal or -shm file of a running server."
    ),
    ("unknown", False): N_(
        "The server's database cannot be used right now. Nothing was saved by this "
        "request. Tell whoever runs the server."
    ),
    ("corrupt", False): N_(
        "The server's database file %(file)s is damaged, so nothing can be saved. Nothing was saved by this "
        'request. Tell whoever runs the server: check the file with sqlite3 %(file)s "PRAGMA integrity_check", '
        "then stop the server and restore a backup with kunken-scorer restore BACKUP."
    ),
    ("missing", True): N_(
        "The server's database file is missing, so nothing can be read. Tell whoever runs the server: "
        "restore the file from a backup and restart it."
    ),
    ("busy", True): N_("The server's database is busy, so nothing could be read; try again in a moment."),
    ("wal_lost", True): N_(
        "The server's database log (its -wal file) was deleted or replaced while the server ran, so "
        "nothing could be read this time; try again in a moment, and tell whoever runs the server."
    ),
    ("corrupt", True): N_(
        "The server's database file %(file)s is damaged, so this could not be read. Tell whoever runs the server: "
        'check the file with sqlite3 %(file)s "PRAGMA integrity_check", then stop the server and restore a '
        "backup with kunken-scorer restore BACKUP."
    ),
    ("unknown", True): N_("The server's database cannot be read right now. Tell whoever runs the server."),
}


class SeatHeld(StoreError):
    """Another phone holds the seat, and the request is neither the scorer's, nor the holder's, nor sent with a
    valid move code for it: nothing changed. ``code``: what became of a move code sent with the request: None (none
    was sent), ``"wrong"`` (it is not, or no longer, one for this seat) or ``"locked"`` (the seat's code took too
    many wrong tries, this one or earlier ones, and stopped working)."""

    def __init__(self, seat: int, code: str | None = None) -> None:
        super().__init__(f"Seat {seat} is held by another phone.")
        self.seat = seat
        self.code = code


class DraftClosed(Conflict):
    """A write to the draft of a deal that has since been recorded (or whose number changed)."""

    def __init__(self, message: str, deal: int) -> None:
        """``deal``: the number of the deal the draft is for now."""
        super().__init__(message)
        self.deal = deal


class PartsChanged(Conflict):
    """A deal form filled in from the players' parts is saved while a phone has written a part since: recording
    it would empty the draft of a part the scorer never saw."""
