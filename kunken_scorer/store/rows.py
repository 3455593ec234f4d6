"""The rows the store answers with: plain, frozen data, one class per kind of answer.

A row is what the store read, nothing more: it has no method that reads or writes the database, and a JSON
column holding a document (a deal's record, a session's rules, a history entry's detail) stays a dict inside
it. Field names are the keys the store's answers always had, so a template's ``session.players`` (and
``session["players"]``: Jinja falls back from an item to an attribute) reads a row as it read the dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "BackupReport",
    "CorrectionRow",
    "DealRow",
    "DealScore",
    "DraftRow",
    "HistoryRow",
    "LiveDealRow",
    "MergeRow",
    "MoveCode",
    "NightRow",
    "NightTableRow",
    "PartRow",
    "PlayerStatsRow",
    "RatingMark",
    "RatingRow",
    "RefusalRow",
    "SavedPart",
    "SeatRow",
    "SessionRow",
    "SessionStatsRow",
    "Standing",
    "TogetherRow",
    "UnratedSession",
]


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A session (a score sheet), its JSON columns decoded."""

    id: str
    game: str
    #: the rule set's switches (``RuleSet.to_dict``)
    rules: dict[str, Any]
    #: the players' names in seat order
    players: list[str]
    #: the target (``Target.to_dict``), or None for none
    target: dict[str, Any] | None
    created_at: str
    ended_at: str | None
    #: bumped by every change of the score sheet
    version: int
    #: how the table enters hands (``"counts"``, ``"points"``, ``"cards"``), or None: the game's default
    hand_entry: str | None


@dataclass(frozen=True, slots=True)
class DealRow:
    """A stored deal, its record decoded."""

    id: int
    #: its 1-based place among the session's live deals; None for a deal since deleted
    number: int | None
    seq: int
    #: the deal as the table recorded it
    record: dict[str, Any]
    #: recorded anyway (with problems)
    override: bool
    note: str | None
    #: bumped by every change of the deal
    revision: int
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class DealScore:
    """One player's result in one deal, as the service scored it (the store computes no score): a row of the table
    ``deal_results`` and of the view ``deal_scores``."""

    #: the player's name as written in the session
    player: str
    plus: int
    minus: int
    #: ``plus - minus``, doubled by an express as the rules say: what the app adds to the player's total
    score: int


@dataclass(frozen=True, slots=True)
class LiveDealRow:
    """A live deal as ``deals_known`` reads it: a ``DealRow``'s fields, its record None when the caller's cache
    holds it already (read only for a deal whose ``(id, revision)`` the cache lacks)."""

    id: int
    number: int
    seq: int
    revision: int
    record: dict[str, Any] | None
    override: bool
    note: str | None
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One change of a session, as its history keeps it."""

    id: int
    session_id: str
    #: the deal it changed, if any
    deal_id: int | None
    #: ``"record"``, ``"edit"``, ``"delete"``, ``"undo"``, ``"redo"``, ``"end"``, ``"import"`` or ``"token"``
    action: str
    #: what changed (``before``/``after`` of a deal, the deals imported)
    detail: dict[str, Any]
    at: str


@dataclass(frozen=True, slots=True)
class PartRow:
    """One seat's part of the draft of the next deal."""

    part: dict[str, Any]
    revision: int
    #: ``"player"`` (the phone holding the seat) or ``"scorer"``
    written_by: str
    written_at: str


@dataclass(frozen=True, slots=True)
class SavedPart:
    """A seat's part as ``save_part`` wrote it (``part`` None: removed), and the draft's version after it."""

    part: dict[str, Any] | None
    revision: int
    written_by: str
    written_at: str
    version: int


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat a phone holds."""

    taken_at: str


@dataclass(frozen=True, slots=True)
class DraftRow:
    """The draft of a session's next deal, read in one snapshot."""

    #: the number the deal will have when recorded
    deal: int
    #: which draft this is: the deals ever recorded in the session (moves on only when one is recorded)
    generation: int
    #: the draft's version (0: never written)
    version: int
    #: the session's version
    session_version: int
    #: how the deal ended (who went out, express, redeal), as written
    end: dict[str, Any]
    #: each written seat's part, by seat
    parts: dict[int, PartRow]
    #: each seat a phone holds, by seat
    seats: dict[int, SeatRow]
    #: the session has ended
    ended: bool
    #: each seat's last save the server refused since its last stored one (``part_refusals``), by seat
    refusals: dict[int, RefusalRow] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RefusalRow:
    """A save of a seat's part the server refused: its words (in the writer's language) and what was typed."""

    message: str
    typed: str
    at: str


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """A part a phone kept after its deal was recorded, sent to the scorer as a proposed change of that deal."""

    id: int
    deal_id: int
    seat: int
    #: the part as the phone typed it (``draft.read_part``'s shape)
    part: dict[str, Any]
    #: what the phone typed, in one line
    typed: str
    created_at: str
    #: when the scorer applied or dismissed it (None: open), and which
    resolved_at: str | None
    outcome: str | None


@dataclass(frozen=True, slots=True)
class MoveCode:
    """A seat's new one-time move code: ``code`` to type, ``link`` the secret of its one-time link (the store
    keeps only their hashes), working until ``expires_at``."""

    code: str
    link: str
    expires_at: str


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What a backup copied: the sessions, the live deals, and the copy's ``integrity_check`` (``"ok"``)."""

    sessions: int
    deals: int
    integrity: str


@dataclass(frozen=True, slots=True)
class SessionStatsRow:
    """One player's part of the statistics of one session (``set_session_stats``)."""

    #: the name casefolded: the key a player's statistics are summed by
    player: str
    #: the name as written in the session
    name: str
    deals: int
    points: int
    expresses: int
    won: bool
    played_at: str


@dataclass(frozen=True, slots=True)
class PlayerStatsRow:
    """One player's statistics summed over the sessions of a game, or of every game (``player_stats``)."""

    #: the name casefolded
    player: str
    #: the name as written when last played
    name: str
    sessions: int
    won: int
    deals: int
    points: int
    expresses: int
    last_played: str


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating (``store.ratings``): worked out by the service from the ended sessions' final orders."""

    #: the name casefolded
    player: str
    #: the name as written in the last session rated
    name: str
    mu: float
    sigma: float
    #: the ended sessions rated for the player
    sessions: int


@dataclass(frozen=True, slots=True)
class RatingMark:
    """How far the ratings have come: the last ended session folded in (its ``ended_key``, then its id, the order
    the ratings replay), and ``generation``, one more at every write of the ratings."""

    ended_key: str
    session_id: str
    generation: int


@dataclass(frozen=True, slots=True)
class UnratedSession:
    """An ended session whose place in the ratings is not yet worked out for its version."""

    id: str
    ended_at: str
    version: int
    #: the version it was rated at before (0: never)
    rated_version: int
    #: its player statistics (its totals) are worked out for its version
    stats_fresh: bool
    #: for a club night's table: (when the night started, its round, its table number); None for a session alone
    night_place: tuple[str, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's final total in one session, from its player statistics."""

    player: str
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class TogetherRow:
    """One session two players played together (``head_to_head``): each one's total."""

    session_id: str
    game: str
    played_at: str
    ended_at: str | None
    a_points: int
    b_points: int


@dataclass(frozen=True, slots=True)
class NightRow:
    """A club night: the game and rules every table plays, when it started, its settings, and when it ended."""

    id: str
    game: str
    #: the rule set's switches (``RuleSet.to_dict``), the same at every table
    rules: dict[str, Any]
    created_at: str
    #: the night's name as the organiser typed it (None: shown as the date it started)
    name: str | None = None
    #: how the standings rank: ``"points"`` (place points, the fair one) or ``"total"``
    ranking: str = "points"
    #: how its tables enter hands (None: the game's default)
    hand_entry: str | None = None
    #: when the organiser ended the night (every table ended), or None
    ended_at: str | None = None


@dataclass(frozen=True, slots=True)
class RecentNight:
    """A night on the home page's list: the night, its count of rounds and of tables (over every round)."""

    night: NightRow
    rounds: int
    tables: int


@dataclass(frozen=True, slots=True)
class SessionNight:
    """The night a session is a table of: the night's id, the round and the table's number."""

    night_id: str
    round: int
    table: int


@dataclass(frozen=True, slots=True)
class NightTableRow:
    """One table of one round of a club night: the session it is, and its edit token sealed with the night's."""

    #: the round, from 1
    round: int
    #: the table's number in its round, from 1
    table: int
    session_id: str
    sealed_token: str


@dataclass(frozen=True, slots=True)
class MergeRow:
    """Two names merged into one player on ``/players`` (``player_merges``): the statistics and ratings read the
    player ``from_player`` as ``into_player`` while the merge stands (``undone_at`` None)."""

    id: int
    #: the merged name's player key (``core.fields.player_key``), and the name as shown when it was merged
    from_player: str
    from_name: str
    #: the player it was merged into (itself perhaps merged into another since: the statistics follow the chain)
    into_player: str
    into_name: str
    created_at: str
    undone_at: str | None
