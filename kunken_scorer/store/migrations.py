"""The schema: append-only migrations, applied in order by ``sqlite-migrate``'s ``Migrations``."""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database, Migrations

# Append-only: never edit or reorder a migration that has shipped; add a new function
# below the last one. Each runs inside the store's write transaction, so a migration
# must be transactional (no VACUUM).
migrations = Migrations("kunken_scorer")


@migrations()
def m001_create_tables(db: Database) -> None:
    """Create sessions, deals, history and idempotency tables."""
    db.table("sessions").create(
        {
            "id": str,
            "game": str,
            "rules": str,
            "players": str,
            "target": str,
            "token_hash": str,
            "created_at": str,
            "ended_at": str,
            "version": int,
        },
        pk="id",
        not_null=["game", "rules", "players", "token_hash", "created_at", "version"],
        defaults={"version": 1},
        strict=True,
    )
    db.table("sessions").create_index(["created_at"])
    db.table("deals").create(
        {
            "id": int,
            "session_id": str,
            "seq": int,
            "record": str,
            "override": int,
            "note": str,
            "revision": int,
            "created_at": str,
            "updated_at": str,
            "deleted_at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=[
            "session_id",
            "seq",
            "record",
            "override",
            "revision",
            "created_at",
            "updated_at",
        ],
        defaults={"override": 0, "revision": 1},
        strict=True,
    )
    # Serves list_deals (live deals in order), numbering, and the next seq.
    db.table("deals").create_index(["session_id", "seq"], unique=True)
    db.table("history").create(
        {
            "id": int,
            "session_id": str,
            "deal_id": int,
            "action": str,
            "detail": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id"), ("deal_id", "deals", "id")],
        not_null=["session_id", "action", "detail", "at"],
        strict=True,
    )
    db.table("history").create_index(["session_id", "id"])
    db.table("idempotency").create(
        {
            "session_id": str,
            "key": str,
            "deal_id": int,
            "response": str,
            "status": int,
            "created_at": str,
        },
        pk=("session_id", "key"),
        foreign_keys=[("session_id", "sessions", "id"), ("deal_id", "deals", "id")],
        not_null=["session_id", "key", "created_at"],
        strict=True,
    )


@migrations()
def m002_creation_keys(db: Database) -> None:
    """Remember the one-time key of each form that created a session (start or import)."""
    db.table("creation_keys").create(
        {"key": str, "session_id": str, "created_at": str},
        pk="key",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["session_id", "created_at"],
        strict=True,
    )


@migrations()
def m003_hand_entry(db: Database) -> None:
    """How the table enters the cards left in hand (cards, counts or points); empty: the game's default."""
    db.table("sessions").add_column("hand_entry", str)


@migrations()
def m004_drafts(db: Database) -> None:
    """The draft of each session's next deal: one part per seat, and the phones holding the seats."""
    db.table("drafts").create(
        {"session_id": str, "end": str, "version": int, "updated_at": str},
        pk="session_id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["end", "version", "updated_at"],
        strict=True,
    )
    db.table("draft_parts").create(
        {"session_id": str, "seat": int, "part": str, "revision": int, "written_by": str, "written_at": str},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["part", "revision", "written_by", "written_at"],
        strict=True,
    )
    db.table("seats").create(
        {"session_id": str, "seat": int, "holder_hash": str, "taken_at": str},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["holder_hash", "taken_at"],
        strict=True,
    )


@migrations()
def m005_creations(db: Database) -> None:
    """When each address created (or imported) a session: the per-address limit reads it."""
    db.table("creations").create({"address": str, "at": str}, not_null=["address", "at"], strict=True)
    db.table("creations").create_index(["address", "at"])


@migrations()
def m006_player_stats(db: Database) -> None:
    """Player statistics kept up to date: each session's summary per player, and their sums per game."""
    db.table("session_stats").create(
        {
            "session_id": str,
            "player": str,
            "name": str,
            "game": str,
            "deals": int,
            "points": int,
            "expresses": int,
            "won": int,
            "played_at": str,
        },
        pk=("session_id", "player"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["name", "game", "deals", "points", "expresses", "won", "played_at"],
        strict=True,
    )
    db.table("session_stats").create_index(["game", "player", "played_at"])
    db.table("player_stats").create(
        {
            "game": str,
            "player": str,
            "name": str,
            "sessions": int,
            "won": int,
            "deals": int,
            "points": int,
            "expresses": int,
            "last_played": str,
        },
        pk=("game", "player"),
        not_null=["name", "sessions", "won", "deals", "points", "expresses", "last_played"],
        strict=True,
    )
    # the session version the statistics were last worked out for (0: never; they are then worked out)
    db.table("sessions").add_column("stats_version", int, not_null_default=0)
    db.execute("CREATE INDEX sessions_stale_stats ON sessions (id) WHERE stats_version != version")


@migrations()
def m007_live_deals(db: Database) -> None:
    """Index a session's live deals, so counting them (a deal's number) reads the index alone."""
    # pays: a deal's number on a 900-deal session 101 µs → 37 µs. deleted_at is a column too: without
    # it SQLite (3.40) still visits each row to test the index's own condition.
    db.execute("CREATE INDEX deals_live ON deals (session_id, seq, deleted_at) WHERE deleted_at IS NULL")


@migrations()
def m008_rescore_player_stats(db: Database) -> None:
    """Work the player statistics out again: the scoring of jokers in vists and swaps and of the decks'
    copies was corrected (2026-12), and statistics kept from before would disagree with the sessions."""
    db.execute("UPDATE sessions SET stats_version = 0")


@migrations()
def m009_part_floors(db: Database) -> None:
    """The last revision of each seat's part that the draft threw away (discarded, or removed): a part written
    afterwards numbers on from it, so a phone still holding that revision cannot overwrite the new part."""
    db.table("draft_floors").create(
        {"session_id": str, "seat": int, "revision": int},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["revision"],
        strict=True,
    )


@migrations()
def m010_key_requests(db: Database) -> None:
    """What each API idempotency key was first sent with (a digest of the request body): the same key with
    another body is refused instead of answered with the first request's answer. NULL: a page's form key."""
    db.table("idempotency").add_column("request", str)


@migrations()
def m011_seat_moves(db: Database) -> None:
    """The one move code of each held seat (issue 33): a short code to type and a long secret for the one-time
    link, both kept as hashes only, when they stop working, and the wrong tries made against the code."""
    db.table("seat_moves").create(
        {
            "session_id": str,
            "seat": int,
            "code_hash": str,
            "link_hash": str,
            "created_at": str,
            "expires_at": str,
            "wrong_tries": int,
        },
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["code_hash", "link_hash", "created_at", "expires_at", "wrong_tries"],
        strict=True,
    )
    db.table("seat_moves").create_index(["link_hash"], unique=True)


#: Every column holding a JSON document, by table (m012).
_JSON_COLUMNS = {
    "sessions": ("rules", "players", "target"),
    "deals": ("record",),
    "history": ("detail",),
    "drafts": ("end",),
    "draft_parts": ("part",),
    "idempotency": ("response",),
}
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _utf8_json(text: str) -> str:
    """The same JSON document as UTF-8 text: ``json.dumps(ensure_ascii=False)``, a lone surrogate kept escaped.
    (A copy of the store's encoder as it was when m012 shipped: a migration never changes.)"""
    out = json.dumps(json.loads(text), ensure_ascii=False, allow_nan=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", out)


@migrations()
def m012_utf8_json(db: Database) -> None:
    """The JSON documents as UTF-8 text a person can read in any SQLite tool (issue 35): "Аня" and "♠" were kept
    as ``\\u`` escapes (``json.dumps``'s default). The same content: every rewritten document decodes to what it
    did before. Only documents holding an escape are read at all."""
    for table, columns in _JSON_COLUMNS.items():
        for column in columns:
            rows = db.execute(f"SELECT rowid, [{column}] FROM [{table}] WHERE instr([{column}], '\\u') > 0").fetchall()
            for rowid, text in rows:
                new = _utf8_json(text)
                if new != text:
                    db.execute(f"UPDATE [{table}] SET [{column}] = ? WHERE rowid = ?", [new, rowid])


@migrations()
def m013_deal_scores(db: Database) -> None:
    """Each deal's scores, for reading the file with SQL (issue 35): ``deal_results`` holds one row per player of
    every deal as the service scored it (the store computes no score), and the view ``deal_scores`` shows the
    live deals' rows numbered as the app numbers them. ``sessions.scores_version``: the session's version its
    results are complete for (0: not yet; the service works them out, as for the player statistics)."""
    db.table("deal_results").create(
        {"deal_id": int, "player": str, "plus": int, "minus": int, "score": int},
        pk=("deal_id", "player"),
        foreign_keys=[("deal_id", "deals", "id")],
        not_null=["plus", "minus", "score"],
        strict=True,
    )
    db.table("sessions").add_column("scores_version", int, not_null_default=0)
    db.execute("CREATE INDEX sessions_stale_scores ON sessions (id) WHERE scores_version != version")
    db.execute(
        """CREATE VIEW deal_scores AS
        SELECT live.session_id AS session_id, live.deal AS deal, r.player AS player, r.plus AS plus,
               r.minus AS minus, r.score AS score, r.deal_id AS deal_id
        FROM (SELECT id, session_id, row_number() OVER (PARTITION BY session_id ORDER BY seq) AS deal
              FROM deals WHERE deleted_at IS NULL) AS live
        JOIN deal_results AS r ON r.deal_id = live.id"""
    )


@migrations()
def m014_ratings(db: Database) -> None:
    """Players' ratings (issue 37): one row a player (``ratings``: the rating's mu and sigma, and the sessions rated),
    worked out by the service from every ended session's final order in the order the sessions ended; the last
    session folded in (``rating_mark``); ``sessions.rated_version``: the version a session's place in the ratings
    was worked out for (0: not yet)."""
    db.table("ratings").create(
        {"player": str, "name": str, "mu": float, "sigma": float, "sessions": int},
        pk="player",
        not_null=["name", "mu", "sigma", "sessions"],
        strict=True,
    )
    db.table("rating_mark").create(
        {"id": int, "ended_key": str, "session_id": str, "generation": int},
        pk="id",
        not_null=["ended_key", "session_id", "generation"],
        strict=True,
    )
    db.table("sessions").add_column("rated_version", int, not_null_default=0)
    db.execute("CREATE INDEX sessions_unrated ON sessions (id) WHERE ended_at IS NOT NULL AND rated_version != version")


@migrations()
def m015_nights(db: Database) -> None:
    """Club nights (issue 37): a night of several tables, each table a session of its own, in rounds. ``nights``
    keeps the game, the rules every table plays and the hash of the token of whoever started it;
    ``night_tables`` each round's tables in order, the session each is, and its edit token sealed with the
    night's token (only the night's token opens it, to show the starter the table's scorer link)."""
    db.table("nights").create(
        {"id": str, "game": str, "rules": str, "token_hash": str, "created_at": str},
        pk="id",
        not_null=["game", "rules", "token_hash", "created_at"],
        strict=True,
    )
    db.table("night_tables").create(
        {"night_id": str, "round": int, "table_no": int, "session_id": str, "sealed_token": str},
        pk=("night_id", "round", "table_no"),
        foreign_keys=[("night_id", "nights", "id"), ("session_id", "sessions", "id")],
        not_null=["session_id", "sealed_token"],
        strict=True,
    )
    db.table("night_tables").create_index(["session_id"], unique=True)


@migrations()
def m016_night_keys(db: Database) -> None:
    """The one-time key of the start form that started a night (``nights.form_key``; none for the API's): the same
    form sent twice (a double tap, a resent form) finds the night the first one started instead of another."""
    db.table("nights").add_column("form_key", str)
    db.execute("CREATE UNIQUE INDEX nights_form_key ON nights (form_key) WHERE form_key IS NOT NULL")


@migrations()
def m017_parts_kept(db: Database) -> None:
    """What the players' phones sent is never lost unseen (issue 45): ``recorded_parts`` keeps the parts the draft
    held when a deal was recorded (by the deal's ``seq``), so a phone whose part the scorer's form replaced is told
    so; ``part_refusals`` the last save of a seat's part the server refused (its words and what was typed), shown on
    the scorer's page until the seat's next save is stored; ``corrections`` a part a phone kept after its deal was
    recorded, sent to the scorer as a proposed change of that deal (open until applied or dismissed)."""
    db.table("recorded_parts").create(
        {
            "session_id": str,
            "seq": int,
            "seat": int,
            "part": str,
            "revision": int,
            "written_by": str,
            "written_at": str,
        },
        pk=("session_id", "seq", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["part", "revision", "written_by", "written_at"],
        strict=True,
    )
    db.table("part_refusals").create(
        {"session_id": str, "seat": int, "message": str, "typed": str, "at": str},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null=["message", "typed", "at"],
        strict=True,
    )
    db.table("corrections").create(
        {
            "id": int,
            "session_id": str,
            "deal_id": int,
            "seat": int,
            "part": str,
            "typed": str,
            "created_at": str,
            "resolved_at": str,
            "outcome": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id"), ("deal_id", "deals", "id")],
        not_null=["session_id", "deal_id", "seat", "part", "typed", "created_at"],
        strict=True,
    )
    db.execute("CREATE INDEX corrections_open ON corrections (session_id) WHERE resolved_at IS NULL")


@migrations()
def m018_club_key(db: Database) -> None:
    """A club's data is its members' (issue 46): ``club`` keeps the one club key (a single row, ``id`` 1) that signs
    every invite link and every member's cookie, so a new key ends every membership at once. It is made here, once,
    so that reading it never writes."""
    db.table("club").create(
        {"id": int, "key": str, "created_at": str}, pk="id", not_null=["key", "created_at"], strict=True
    )
    db.execute(
        "INSERT INTO club (id, key, created_at) VALUES (1, ?, ?)",
        [secrets.token_urlsafe(32), datetime.now(UTC).isoformat(timespec="microseconds")],
    )


#: Every column holding a JSON document that may name a session's players, by table (m019); each table has
#: ``session_id`` (the deals' results are keyed by name outside JSON: worked out again, not rewritten).
_NAMED_JSON = {
    "sessions": ("id", ("players",)),
    "deals": ("session_id", ("record",)),
    "history": ("session_id", ("detail",)),
    "drafts": ("session_id", ("end",)),
    "draft_parts": ("session_id", ("part",)),
    "recorded_parts": ("session_id", ("part",)),
    "corrections": ("session_id", ("part",)),
}


def _nfc(value: Any) -> Any:
    """A JSON value with every text in it (keys too) in Unicode's composed form (NFC)."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [_nfc(v) for v in value]
    if isinstance(value, dict):
        return {_nfc(k): _nfc(v) for k, v in value.items()}
    return value


@migrations()
def m019_nfc_names(db: Database) -> None:
    """Players' names in Unicode's composed form (issue 47): "Лёня" typed with "ё" and with "е" and a combining
    diaeresis were two players. Every name read is NFC now (``core.fields.clean_name``); a session stored with a name
    that is not has every text of its documents (its players, deals, history, draft, parts) made NFC, and its
    statistics, deal results and rating worked out again (a session rated before the ratings' mark replays them).
    A session two of whose names would become one is left as it was; other sessions are not read past their players."""
    for session_id, players in db.execute("SELECT id, players FROM sessions").fetchall():
        names = json.loads(players)
        if all(unicodedata.is_normalized("NFC", n) for n in names if isinstance(n, str)):
            continue
        if len({_nfc(n).casefold() for n in names}) != len(names):
            continue
        for table, (key, columns) in _NAMED_JSON.items():
            for column in columns:
                rows = db.execute(f"SELECT rowid, [{column}] FROM [{table}] WHERE [{key}] = ?", [session_id])
                for rowid, text in rows.fetchall():
                    if text is None:
                        continue
                    new = _utf8_json(json.dumps(_nfc(json.loads(text)), ensure_ascii=False, allow_nan=False))
                    if new != text:
                        db.execute(f"UPDATE [{table}] SET [{column}] = ? WHERE rowid = ?", [new, rowid])
        db.execute(
            "UPDATE sessions SET stats_version = 0, scores_version = 0, rated_version = 0 WHERE id = ?", [session_id]
        )


@migrations()
def m020_night_settings(db: Database) -> None:
    """A night's own settings (issue 47): its ``name`` (none: the date it started), how its standings rank
    (``ranking``: ``"points"``, place points, the fair one across tables of different sizes; or ``"total"``), the
    way its tables enter hands (``hand_entry``; none: the game's default) and when it ended (``ended_at``: every
    table ended by the organiser's "End the night"). Nights started before keep ranking by total, as they were
    shown."""
    nights = db.table("nights")
    nights.add_column("name", str)
    nights.add_column("ranking", str, not_null_default="total")
    nights.add_column("hand_entry", str)
    nights.add_column("ended_at", str)


@migrations()
def m021_player_merges(db: Database) -> None:
    """Two names merged into one player on ``/players`` (issue 47): ``from_player`` (a casefolded NFC name) is read
    as ``into_player`` by the statistics and ratings while the merge stands (``undone_at`` null); undoing it sets
    ``undone_at``, and both names are two players again. Sessions keep their names as typed."""
    db.table("player_merges").create(
        {
            "id": int,
            "from_player": str,
            "from_name": str,
            "into_player": str,
            "into_name": str,
            "created_at": str,
            "undone_at": str,
        },
        pk="id",
        not_null=["from_player", "from_name", "into_player", "into_name", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX player_merges_standing ON player_merges (from_player) WHERE undone_at IS NULL")


@migrations()
def m022_night_revision(db: Database) -> None:
    """A night's own changes counted (issue 47): an undone round, the night ended, a new owner link. The night's
    version (``night_version``) adds it to its tables' versions, so a screen following the night sees a round
    undone and started again (the same count of tables, every version 1) as a change."""
    db.table("nights").add_column("revision", int, not_null_default=0)
