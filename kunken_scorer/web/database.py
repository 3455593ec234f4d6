"""The request's store: this thread's kept connection to the database file, and its end with the request."""

from __future__ import annotations

import os
from typing import Any, cast

from flask import current_app, g

from ..store import Store


def get_store() -> Store:
    """The request's store: this thread's kept connection to the database file (``Store.kept``); a missing
    file is ``StorageUnavailable`` (503)."""
    if "store" not in g:
        max_bytes = int(current_app.config.get("DATABASE_MAX_MB") or 0) * 1024 * 1024
        g.store = Store.kept(current_app.config["DATABASE"], max_bytes=max_bytes)
    return cast(Store, g.store)  # g's attributes are untyped


def close_store(_exc: Any = None) -> None:
    """End of a request: the thread keeps its connection, with no transaction left open."""
    store = g.pop("store", None)
    if store is not None:
        if store.db.conn.in_transaction:
            store.db.conn.rollback()
        if g.pop("storage_fault", False) or not os.access(current_app.config["DATABASE"], os.W_OK):
            # SQLite shares one handle of the -shm file between a process's connections: one kept
            # open while the file is read-only would keep every later connection read-only too.
            Store.drop_kept()
