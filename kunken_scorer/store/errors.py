"""What the store raises: every failure is a ``StoreError``."""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """Base class for every failure the store reports."""


class NotFound(StoreError):
    """The session or deal does not exist (or the deal was deleted)."""


class Conflict(StoreError):
    """The data changed on another device since the caller last read it."""


class KeyReused(StoreError):
    """An idempotency key already answered a different request: a retry must send the same body."""


class SessionEnded(StoreError):
    """The session has ended: it can be read but no longer changed."""


class StorageUnavailable(StoreError):
    """The database file cannot be used: missing, read-only, full or busy, or its write-ahead log (``-wal``) was
    deleted or replaced under the running server (``kind`` says which).

    ``str()`` is the detail for the server's log (SQLite's own words, or what happened and what to do), never for
    a phone. ``file``: the exact file to fix, when it is not the database file itself (a ``-shm`` the server may
    not write, a lost ``-wal``). ``writing``: raised by a write (its transaction rolled back: nothing of it is
    stored); False when the database could not even be opened or read, which a read (GET) is told as "nothing
    could be read" rather than "nothing was saved".
    """

    KINDS = ("missing", "read_only", "full", "busy", "wal_lost", "unknown")

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
        elif any(w in text for w in ("unable to open", "no such table", "disk i/o", "not a database")):
            kind = "missing"
        else:
            kind = "unknown"
        return cls(kind, str(error), writing=writing)


class SeatHeld(StoreError):
    """Another phone holds the seat, and the request is neither the scorer's, nor the holder's, nor sent with a
    valid move code for it: nothing changed. ``wrong_code``: a move code was sent, and it is not (or no longer)
    one for this seat."""

    def __init__(self, seat: int, wrong_code: bool = False) -> None:
        super().__init__(f"Seat {seat} is held by another phone.")
        self.seat = seat
        self.wrong_code = wrong_code


class DraftClosed(Conflict):
    """A write to the draft of a deal that has since been recorded (or whose number changed)."""

    def __init__(self, message: str, deal: int) -> None:
        """``deal``: the number of the deal the draft is for now."""
        super().__init__(message)
        self.deal = deal
