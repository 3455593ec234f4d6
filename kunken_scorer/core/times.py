"""Stored times read back: the store keeps each time as ISO 8601 UTC text; a page shows it in the table's time zone
(the server's) and gives it to HTML's ``<time datetime>`` (the web layer writes it in the page's language)."""

from __future__ import annotations

from datetime import datetime


def local_time(stamp: str | None) -> datetime | None:
    """A stored UTC time in the table's time zone (the server's), or None when missing or unreadable.

    >>> local_time(None), local_time("yesterday")
    (None, None)
    """
    try:
        return datetime.fromisoformat(stamp).astimezone() if stamp else None
    except (ValueError, OverflowError):  # a stamp too near year 1 or 9999 for local time
        return None


def machine_time(stamp: str | None) -> str:
    """A stored ISO 8601 time as HTML's ``<time datetime>`` takes it: whole milliseconds at most (HTML allows one
    to three digits of a second's fraction; the store keeps six), the offset kept; anything unreadable as is.

    >>> machine_time("2026-12-02T20:15:03.123456+00:00"), machine_time("2026-12-02T20:15:03+00:00")
    ('2026-12-02T20:15:03.123+00:00', '2026-12-02T20:15:03+00:00')
    """
    try:
        parsed = datetime.fromisoformat(stamp or "")
    except ValueError:
        return stamp or ""
    return parsed.isoformat(timespec="milliseconds" if parsed.microsecond else "seconds")
