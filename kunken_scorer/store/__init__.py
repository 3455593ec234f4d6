"""Persistence for score sheets: sessions, their deals and an audit history, in SQLite.

The store keeps JSON documents and nothing else. It knows no game rules: a deal is
stored exactly as the table recorded it, and scores are always computed elsewhere from
these records. It never imports Flask or the rest of ``kunken_scorer``.

Every write runs in one ``BEGIN IMMEDIATE`` transaction, so the read-check-write steps
inside it (the session version, a deal's revision, an idempotency key) cannot interleave
with another connection's: two phones retrying the same request store one deal, and two
phones editing the same deal get a ``Conflict`` instead of a silent overwrite.

The package, one concern a module: ``errors``, ``migrations``, ``db`` (the connection, the write transaction,
the backup and the restore, and the shared helpers: the base class ``Database``), ``files`` (the -wal and -shm
beside the file, watched, repaired and checkpointed), ``copies`` (backups written and restored, never half), and a
mixin of ``Store`` per concern:
``sessions``, ``deals``, ``scores`` (each deal's results, as the service scored them, for reading the file with
SQL), ``keys`` (idempotency keys), ``reads`` (the deals and the history as read),
``drafts`` (the draft of the next deal), ``kept`` (refused saves of parts, the parts a recorded deal was made
from, proposed corrections), ``seats`` (seats and move codes), ``stats`` (player statistics,
import and export), ``members`` (the club key that signs invites and members' cookies). What the store answers
with is typed: the frozen rows of ``rows`` (``SessionRow``, ``DealRow``, ``DraftRow`` …), plain data that never
reads the database again.
"""

from __future__ import annotations

from .copies import BackupRefused
from .db import Database
from .deals import DealsMixin
from .drafts import DraftsMixin
from .errors import (
    Conflict,
    DraftClosed,
    KeyReused,
    NightNotFound,
    NotFound,
    PartsChanged,
    SeatHeld,
    SessionEnded,
    StorageUnavailable,
    StoreError,
)
from .kept import KeptMixin
from .keys import KeysMixin
from .members import ClubMixin
from .merges import MergesMixin
from .migrations import migrations
from .nights import NightsMixin
from .ratings import RatingsMixin
from .reads import ReadsMixin
from .rows import (
    BackupReport,
    CorrectionRow,
    DealRow,
    DealScore,
    DraftRow,
    HistoryRow,
    LiveDealRow,
    MergeRow,
    MoveCode,
    NightRow,
    NightTableRow,
    PartRow,
    PlayerStatsRow,
    RatingMark,
    RatingRow,
    RecentNight,
    RefusalRow,
    SavedPart,
    SeatRow,
    SessionNight,
    SessionRow,
    SessionStatsRow,
    Standing,
    TogetherRow,
    UnratedSession,
)
from .seats import SeatsMixin
from .sessions import SessionsMixin
from .stats import StatsMixin

__all__ = [
    "BackupRefused",
    "BackupReport",
    "Conflict",
    "CorrectionRow",
    "DealRow",
    "DealScore",
    "DraftClosed",
    "DraftRow",
    "HistoryRow",
    "KeyReused",
    "LiveDealRow",
    "MergeRow",
    "MoveCode",
    "NightNotFound",
    "NightRow",
    "NightTableRow",
    "RecentNight",
    "SessionNight",
    "NotFound",
    "PartRow",
    "PartsChanged",
    "PlayerStatsRow",
    "RatingMark",
    "RatingRow",
    "RefusalRow",
    "SavedPart",
    "SeatHeld",
    "SeatRow",
    "SessionEnded",
    "SessionRow",
    "SessionStatsRow",
    "Standing",
    "StorageUnavailable",
    "Store",
    "StoreError",
    "TogetherRow",
    "UnratedSession",
    "migrations",
]


class Store(
    SessionsMixin,
    DealsMixin,
    KeysMixin,
    ReadsMixin,
    DraftsMixin,
    KeptMixin,
    SeatsMixin,
    StatsMixin,
    RatingsMixin,
    NightsMixin,
    ClubMixin,
    MergesMixin,
    Database,
):
    """Sessions, deals and history kept in one SQLite database."""
