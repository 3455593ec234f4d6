"""The one process-wide cache: entries keyed by the database they came from and a key of the caller's.

Every entry's key includes the database's identity (:func:`identity`: the SQLite file's real path,
device and inode), so two apps on two files in one process, or a file restored under the same path
(a new inode), never share an entry. Standard library only; safe to use from the server's threads.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> a, b = os.path.join(folder, "a.sqlite"), os.path.join(folder, "b.sqlite")
>>> for path in (a, b):
...     open(path, "w").close()
>>> cache = Cache(size=2)
>>> cache.get(a, "answer", lambda: 42)
42
>>> cache.get(a, "answer", lambda: 0)  # a hit: ``make`` is not called
42
>>> cache.get(b, "answer", lambda: 7)  # another file, another entry
7
>>> cache.clear()
>>> cache.get(a, "answer", lambda: 1)
1
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

#: a database's identity: its file's real path, device and inode
Place = tuple[str, int, int]

__all__ = ["Cache", "Place", "identity"]


def identity(database: str) -> Place:
    """The identity of the SQLite file ``database``: its real path, device and inode.

    A file that does not exist (yet) has device and inode 0: its entries are its path's until it is
    created, and from then on the new file's (a new identity).
    """
    path = os.path.realpath(database)
    try:
        status = os.stat(path)
    except OSError:
        return (path, 0, 0)
    return (path, status.st_dev, status.st_ino)


class Cache:
    """A least-recently-used cache of at most ``size`` entries, each keyed by a database and a key.

    ``get(database, key, make)`` returns the entry for ``key`` in the file ``database``, calling
    ``make()`` (outside the lock: two threads missing at once may both call it, the last one's value
    stays) and keeping its value when there is none; an exception from ``make`` keeps nothing.

    A caller looking up many keys of one database at once (every deal of a session) takes its
    ``identity`` once and uses ``get_at``, ``find_at`` and ``put_at`` with it.
    """

    def __init__(self, size: int = 256) -> None:
        if size < 1:
            raise ValueError("a cache holds at least one entry")
        self.size = size
        self._entries: OrderedDict[tuple[Place, Hashable], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, database: str, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept for ``key`` in the file ``database``, made by ``make()`` when there is none."""
        return self.get_at(identity(database), key, make)

    def get_at(self, place: Place, key: Hashable, make: Callable[[], T]) -> T:
        """``get`` for the database whose ``identity`` is ``place``."""
        full = (place, key)
        with self._lock:
            try:
                value: T = self._entries[full]
            except KeyError:
                pass
            else:
                self._entries.move_to_end(full)
                return value
        return self.put_at(place, key, make())

    def find(self, database: str, key: Hashable) -> Any | None:
        """The value kept for ``key`` in the file ``database``, or None (nothing is made)."""
        return self.find_at(identity(database), key)

    def find_at(self, place: Place, key: Hashable) -> Any | None:
        """The value kept for ``key`` in the database whose ``identity`` is ``place``, or None."""
        full = (place, key)
        with self._lock:
            value = self._entries.get(full)
            if value is not None:
                self._entries.move_to_end(full)
            return value

    def put_at(self, place: Place, key: Hashable, value: T) -> T:
        """Keep ``value`` for ``key`` in the database whose ``identity`` is ``place`` (replacing any); returns it."""
        full = (place, key)
        with self._lock:
            self._entries[full] = value
            self._entries.move_to_end(full)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
