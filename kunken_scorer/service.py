"""Between the store and the web layer: load a session's stored deals and score them with the core.

Scores are always derived from the stored deal records under the session's stored rule set;
a stored deal's report is kept in ``CACHE`` by (database, session, deal, revision) — a record changes
only with its revision and a session's rules never change — so a page that shows a hundred deals does
not re-score them on every poll.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from . import Deal, DealReport, KunkenError, Reason, RuleSet, Target, evaluate_deal, running_totals, session_status
from .cache import Cache, Place, identity
from .core.cards import format_cards
from .core.deal import PlayerScore
from .core.draft import DraftCheck, check_draft
from .core.melds import on_table
from .core.messages import M_
from .core.reading import check_short_hands, clean_name, read_flag
from .core.rules import GAMES
from .core.session import SessionStatus
from .store import (
    DealRow,
    LiveDealRow,
    NotFound,
    PartRow,
    SeatRow,
    SessionRow,
    SessionStatsRow,
    StorageUnavailable,
    Store,
)

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScoredDeal:
    """A stored deal with its report."""

    row: DealRow
    deal: Deal | None
    report: DealReport | None
    error: Reason | None = None

    @property
    def number(self) -> int:
        """The deal's place in the session (1-based)."""
        number = self.row.number
        assert number is not None  # a scored deal is a live one: it has its place
        return number

    @property
    def scores(self) -> dict[str, int]:
        """Deal score by player (zeros for an unreadable record)."""
        return self.report.scores if self.report else {}


@dataclass(frozen=True)
class DealLine:
    """One deal as every table of deals shows it (the session page, the summary, the CSV)."""

    id: int
    number: int
    #: each player's result in seat order (None for a player the record does not score)
    results: tuple[PlayerScore | None, ...]
    went_out: str | None
    express: bool
    redeal: bool
    override: bool
    note: str | None
    error: Reason | None
    swaps: tuple
    problems: tuple[Reason, ...]
    warnings: tuple[Reason, ...]


@dataclass(frozen=True)
class Scoreboard:
    """Everything a page or the API shows about a session, derived from the store."""

    session: SessionRow
    rules: RuleSet
    target: Target | None
    deals: tuple[ScoredDeal, ...]
    status: SessionStatus
    running: tuple[dict, ...] = field(default=())

    @property
    def players(self) -> list[str]:
        """The players in seat order."""
        return self.session.players

    @property
    def totals(self) -> dict[str, int]:
        """Running totals by player name, in seat order."""
        by_name = {s.name: s.total for s in self.status.standings}
        return {name: by_name[name] for name in self.players}

    @property
    def version(self) -> int:
        """The session's version (changes with every write)."""
        return self.session.version

    @property
    def ended(self) -> bool:
        """True once the table ended the session."""
        return bool(self.session.ended_at)

    @cached_property
    def lines(self) -> tuple[DealLine, ...]:
        """Every deal as a line of a table: results looked up in seat order, never computed again."""
        lines = []
        for scored in self.deals:
            deal, report, row = scored.deal, scored.report, scored.row
            by_name = {p.name: p for p in report.players} if report else {}
            lines.append(
                DealLine(
                    row.id,
                    scored.number,
                    tuple(by_name.get(name) for name in self.players),
                    deal.went_out if deal else None,
                    bool(deal and deal.express),
                    bool(deal and deal.redeal),
                    bool(row.override),
                    row.note,
                    scored.error,
                    deal.swaps if deal else (),
                    report.problems if report else (),
                    report.warnings if report else (),
                )
            )
        return tuple(lines)


#: The process's one cache (issue 34): every entry's key holds the identity of the database file it came
#: from (``cache.identity``), so two apps on two files, or a file restored under the same path, share nothing.
#: Its entries, by key:
#:
#: - ``("deal", session id, deal id, revision)``: the stored deal's (Deal, DealReport, reading error, record).
#:   A record changes only with its revision and a session's rules never change, so it never goes stale.
#:   Pays: the summary and GET api/v1/sessions/<id> several times slower without it (bench_tricks, scored).
#: - ``("known", session id)``: deal id -> the revision kept above (which records need not be read again;
#:   an entry forgotten meanwhile makes ``scoreboard`` read every record once).
#: - ``("tally", session id, version)``: the session's tally at that version (a recording adds its deal to
#:   the tally of the version just before its own). Pays: recording a deal slower without it (bench_tricks, tally).
CACHE = Cache(size=20000)
#: the name the tests clear to forget every tally (the whole cache goes: nothing is lost but time)
_TALLIES = CACHE


def place_of(store: Store) -> Place | None:
    """The identity of the file ``store`` reads (None for a database in memory: nothing of it is cached)."""
    row = store.db.execute("PRAGMA database_list").fetchone()
    return identity(row[2]) if row and row[2] else None


def _score_record(record: dict | None, rules: RuleSet, key: tuple) -> tuple:
    if record is None:
        raise LookupError(key)  # read without its record and forgotten since: read it again
    try:
        deal = Deal.from_dict(record)
        return (deal, evaluate_deal(deal, rules), None, record)
    except KunkenError as err:
        return (None, None, Reason("stored_deal_unreadable", {"why": err.reason}), record)


def score_row(session_id: str, rules: RuleSet, row: DealRow | LiveDealRow, place: Place | None = None) -> ScoredDeal:
    """Score a stored deal row; an unreadable record gets ``error``. With ``place`` (the database's
    ``identity``) the result is kept in ``CACHE`` by session, deal and revision.

    A row whose ``record`` is None was read without it (``Store.deals_known``): its record is the
    cached one (``LookupError`` when there is none).
    """
    key = ("deal", session_id, row.id, row.revision)
    record = row.record
    if place is None:
        hit = _score_record(record, rules, key)
    else:
        hit = CACHE.get_at(place, key, lambda: _score_record(record, rules, key))
    if isinstance(row, LiveDealRow):
        row = DealRow(
            id=row.id,
            number=row.number,
            seq=row.seq,
            record=hit[3] if record is None else record,
            override=row.override,
            note=row.note,
            revision=row.revision,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )
    return ScoredDeal(row, *hit[:3])


def scoreboard(store: Store, session_id: str) -> Scoreboard:
    """Load a session and score every live deal (raises the store's ``NotFound``).

    Only the records of deals not scored before are read and decoded: a session of 900 deals
    costs its index rows, not 900 JSON documents, on every look.
    """
    place = place_of(store)
    known: dict[int, int] = {} if place is None else CACHE.get_at(place, ("known", session_id), dict)
    session, rows = store.session_and_deals(session_id, set(known.copy().items()))
    rules = RuleSet.from_dict(session.rules)
    target = Target.from_dict(session.target)
    try:
        scored = [score_row(session_id, rules, row, place) for row in rows]
    except LookupError:  # deals cached before and forgotten meanwhile (a full cache): read every record
        session, rows = store.session_and_deals(session_id, ())
        scored = [score_row(session_id, rules, row, place) for row in rows]
    if place is not None:
        known.update((row.id, row.revision) for row in rows)
    scores = [d.scores for d in scored if d.deal is None or not d.deal.redeal]
    redeals = sum(1 for d in scored if d.deal is not None and d.deal.redeal)
    status = session_status(session.players, scores, target, redeals)
    return Scoreboard(session, rules, target, tuple(scored), status, tuple(running_totals(session.players, scores)))


def session_players(rules: RuleSet, names: Any) -> list[str]:
    """Check a new session's player list: the game's range of distinct, well-formed names."""
    if not isinstance(names, list):
        raise KunkenError(Reason("bad_field", {"field": "players", "expected": M_("a list of names")}))
    cleaned = [clean_name(n, f"players[{i}]") for i, n in enumerate(names)]
    if not rules.min_players <= len(cleaned) <= rules.max_players or len({n.casefold() for n in cleaned}) != len(
        cleaned
    ):
        raise KunkenError(Reason("session_players", {"min": rules.min_players, "max": rules.max_players}))
    return cleaned


def prepare_deal(session: SessionRow, body: Any, recorded_anyway: bool = False) -> tuple[dict, DealReport]:
    """Read a deal for ``session``: its canonical record and report. Bad input raises ``KunkenError``.

    ``recorded_anyway``: an imported deal the table recorded anyway (``HandSummary.check_for``)."""
    return prepare_record(session.rules, session.players, body, recorded_anyway)


def prepare_record(
    switches: dict[str, Any], players: list[str], body: Any, recorded_anyway: bool = False
) -> tuple[dict[str, Any], DealReport]:
    """``prepare_deal`` for a session not stored yet (an import): its rules' ``switches`` and ``players``."""
    rules = RuleSet.from_dict(switches)
    deal = Deal.from_dict(body)
    if sorted(deal.names) != sorted(players):
        raise KunkenError(
            Reason("deal_players", {"players": ", ".join(players), "got": ", ".join(deal.names) or M_("nobody")})
        )
    check_short_hands(deal, rules, recorded_anyway)
    return deal.to_dict(), evaluate_deal(deal, rules)


def request_digest(asked: Any, where: str | None = None) -> str:
    """A digest of what a write asks for (JSON, key order aside), and ``where`` it was sent when that tells two
    ways of writing apart: its idempotency key sent again with something else is then not taken for a retry
    (``store.KeyReused``)."""
    text = json.dumps(asked, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if where is not None:
        text = f"{where}\n{text}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Anyway:
    """What "record anyway" comes to for one deal: stored marked as recorded anyway or not, or refused for
    what is ``missing`` (``"override"``, ``"note"``)."""

    override: bool
    missing: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        """True when the deal may not be stored as sent."""
        return bool(self.missing)


def record_anyway(report: DealReport, override: bool, note: str | None) -> Anyway:
    """The one rule for every way a deal is recorded (the deal form, the draft, the API): a deal with problems
    is stored only with "record anyway" and a note, and is then marked so; a valid deal is never marked."""
    if not report.problems:
        return Anyway(override=False)
    missing = tuple(name for name, given in (("override", override), ("note", (note or "").strip())) if not given)
    return Anyway(override=not missing, missing=missing)


# -- the draft of the next deal, entered from the players' phones ------------------------------


@dataclass(frozen=True)
class Draft:
    """The stored draft of a session's next deal, checked together by the core."""

    session: SessionRow
    rules: RuleSet
    deal: int
    version: int
    tag: str
    end: dict
    parts: dict[int, PartRow]
    taken: dict[int, SeatRow]
    check: DraftCheck
    #: which draft this is (``Store.draft``): moves on only when a deal is recorded
    generation: int = 0

    @property
    def players(self) -> list[str]:
        """The players in seat order."""
        return self.session.players


#: The keys of a draft's end, with their defaults.
DRAFT_END = {"went_out": None, "went_out_set": False, "express": False, "redeal": False}


def _checked(rules: RuleSet, names: list[str], entries: dict[int, PartRow], end: dict) -> tuple[dict, DraftCheck]:
    """The end with its defaults, and the parts checked together under it."""
    end = {**DRAFT_END, **{k: v for k, v in end.items() if k in DRAFT_END}}
    parts = {seat: entry.part for seat, entry in entries.items()}
    return end, check_draft(
        rules, names, parts, end["went_out"], bool(end["went_out_set"]), bool(end["express"]), bool(end["redeal"])
    )


def load_draft(store: Store, session_id: str) -> Draft:
    """The session's draft with its check (raises the store's ``NotFound``)."""
    stored = store.draft(session_id)
    session = store.get_session(session_id)
    rules = RuleSet.from_dict(session.rules)
    end, check = _checked(rules, session.players, stored.parts, stored.end)
    return Draft(
        session,
        rules,
        stored.deal,
        stored.version,
        f"{stored.session_version}-{stored.version}",
        end,
        stored.parts,
        stored.seats,
        check,
        stored.generation,
    )


def with_end(draft: Draft, end: dict) -> Draft:
    """The draft as it would be with this end (who went out, express, redeal), checked again."""
    end, check = _checked(draft.rules, draft.players, draft.parts, end)
    return replace(draft, end=end, check=check)


def draft_deal(draft: Draft) -> tuple[dict, DealReport]:
    """The deal a complete draft makes, and its report; a missing part raises ``KunkenError``."""
    if not draft.check.complete:
        raise KunkenError(Reason("draft_waiting", {"players": ", ".join(draft.check.missing)}))
    return prepare_deal(draft.session, draft.check.body)


# -- player statistics, kept up to date as sessions change --------------------------------------


@dataclass
class PlayerHistory:
    """One player's record across every session on this install (names compared casefolded)."""

    name: str
    sessions: int = 0
    won: int = 0
    deals: int = 0
    points: int = 0
    expresses: int = 0
    last_played: str | None = None

    @property
    def average(self) -> float:
        """Average deal score (0 before the first deal)."""
        return self.points / self.deals if self.deals else 0.0


@dataclass(frozen=True)
class Tally:
    """What a session's statistics, and the answer to a recording, need of its deals: their sums."""

    session_id: str
    version: int
    game: str
    created_at: str
    players: tuple[str, ...]
    points: dict  # each player's total over the scored deals (redeals score nothing)
    deals: int  # scored deals (redeals do not count)
    expresses: dict  # express wins by player

    def add(self, record: dict, report: DealReport, version: int, rules: RuleSet) -> Tally:
        """The tally with one more deal (its record as stored, and its report)."""
        if record.get("redeal"):
            return replace(self, version=version)
        scores = report.scores
        expresses = dict(self.expresses)
        went_out = record.get("went_out")
        if record.get("express") and rules.express and went_out in self.players:
            expresses[went_out] = expresses.get(went_out, 0) + 1
        return replace(
            self,
            version=version,
            deals=self.deals + 1,
            expresses=expresses,
            points={n: self.points[n] + scores.get(n, 0) for n in self.players},
        )


def tally_of(board: Scoreboard) -> Tally:
    """A session's tally, from its scoreboard."""
    names, rules = board.players, board.rules
    points = {n: 0 for n in names}
    deals = 0
    expresses: dict[str, int] = {}
    for scored in board.deals:
        deal = scored.deal
        if deal is None or deal.redeal:
            continue
        deals += 1
        for name, score in scored.scores.items():
            if name in points:
                points[name] += score
        if deal.express and rules.express and deal.went_out in names:
            expresses[deal.went_out] = expresses.get(deal.went_out, 0) + 1
    session = board.session
    return Tally(session.id, board.version, session.game, session.created_at, tuple(names), points, deals, expresses)


def _remember(place: Place | None, tally: Tally) -> Tally:
    if place is not None:
        CACHE.put_at(place, ("tally", tally.session_id, tally.version), tally)
    return tally


def tally_after(
    place: Place | None, session_id: str, record: dict, report: DealReport, version: int, rules: RuleSet
) -> Tally | None:
    """The session's tally at ``version``, the version the deal ``record`` is making: the tally of the
    version before (kept in ``CACHE`` for the database ``place``) plus this deal. None when that tally is
    not known (nothing is summed again).

    Called inside the deal's transaction, so nothing is remembered here: the caller remembers the
    tally (``remember_tally``) once the deal is committed, and a rolled-back deal leaves no trace.
    """
    known = None if place is None else CACHE.find_at(place, ("tally", session_id, version - 1))
    return None if known is None else known.add(record, report, version, rules)


def remember_tally(place: Place | None, tally: Tally) -> Tally:
    """Keep a committed version's tally for the recordings after it."""
    return _remember(place, tally)


def session_tally(store: Store, session_id: str) -> Tally:
    """The session's tally now."""
    place = place_of(store)
    version = store.version(session_id)
    known = None if place is None else CACHE.find_at(place, ("tally", session_id, version))
    return known or _remember(place, tally_of(scoreboard(store, session_id)))


#: The most points, either way, one session adds to a player's statistics: sums over any number of sessions
#: stay SQLite integers. Only a hand an older release let through scores more (100 doubling jokers: 32 digits,
#: which SQLite refused, and /players failed for every session).
MOST_STATS_POINTS = 10**15


def stats_rows(tally: Tally) -> list[SessionStatsRow]:
    """Each player's part of the statistics from one session; none while it has no scored deal.

    A session counts once it has at least one scored deal (redeals do not count). Its winner
    is whoever leads after its last deal, ended or not; players tied for the lead each win.
    Its points count up to ``MOST_STATS_POINTS`` either way.
    """
    if not tally.deals:
        return []
    names = list(tally.players)
    winners = {s.name for s in session_status(names, [tally.points], None).standings if s.place == 1}
    return [
        SessionStatsRow(
            player=name.casefold(),
            name=name,
            deals=tally.deals,
            points=max(-MOST_STATS_POINTS, min(MOST_STATS_POINTS, tally.points[name])),
            expresses=tally.expresses.get(name, 0),
            won=name in winners,
            played_at=tally.created_at,
        )
        for name in names
    ]


def refresh_stale_stats(store: Store, budget: int | None = None) -> int:
    """Bring the sessions' statistics up to date (those changed outside a request, or before a
    crash), at most ``budget`` of them; returns how many were worked out. Cheap when none is
    stale (a partial index)."""
    done = 0
    while budget is None or done < budget:
        stale = store.stale_stats(500)
        if not stale:
            return done
        entries = []
        for session_id in stale:
            tally = tally_of(scoreboard(store, session_id))
            entries.append((session_id, tally.version, tally.game, stats_rows(tally)))
        written = store.set_many_session_stats(entries)  # one transaction for the lot
        done += len(stale)
        if not written:
            return done  # changed meanwhile by requests, which work their statistics out themselves
    return done


def player_history(store: Store, game: str | None = None, limit: int | None = None) -> list[PlayerHistory]:
    """Every player's sessions played and won, deals, points and expresses, the most wins first, then the
    best average (the first ``limit`` players, when given). Read from the statistics the store keeps, so the
    cost does not grow with the number of sessions."""
    # The sessions changed since the last look (a write only makes its session's statistics stale;
    # working them out here costs one tally each, usually remembered from the recording itself).
    try:
        refresh_stale_stats(store, budget=500)
    except StorageUnavailable:
        pass  # a file that cannot be written now: the statistics as they were last worked out
    return [
        PlayerHistory(row.name, row.sessions, row.won, row.deals, row.points, row.expresses, row.last_played)
        for row in store.player_stats(game, limit)
    ]


# -- the rules desk opened from a session -------------------------------------------------------


def session_rules(session: SessionRow) -> RuleSet:
    """The rule set a session was played under (the session's game when the record omits it)."""
    data = dict(session.rules or {})
    data.setdefault("game", session.game or "kunken")
    try:
        return RuleSet.from_dict(data)
    except KunkenError:
        game = data["game"] if data["game"] in GAMES else "kunken"
        return RuleSet.preset(game)


def last_deal_melds(board: Scoreboard) -> tuple[int | None, list[str]]:
    """The melds on the table at the end of the last recorded deal (vists added to their melds)."""
    if not board.deals:
        return None, []
    scored = board.deals[-1]
    if scored.deal is None or scored.report is None or scored.deal.redeal:
        return scored.number, []
    table = {d.name: [m.extension_base() for m in d.final_melds] for d in scored.report.details}
    # a vist that fitted no meld stays on the table as its own line
    loose = [v.vist.cards for d in scored.report.details for v in d.vists if not v.legal]
    lines = [format_cards(on_table(m, board.rules)) for name in board.players for m in table.get(name, [])]
    lines += [format_cards(on_table(m, board.rules)) for m in loose]
    return scored.number, [line for line in lines if line]


def desk_session(store: Store, session_id: str) -> dict:
    """A session as the rules desk uses it: its rule set, players and last deal's melds
    (``NotFound`` for an unknown session)."""
    session = store.get_session(session_id)
    deal_number: int | None = None
    table: list[str] = []
    try:
        deal_number, table = last_deal_melds(scoreboard(store, session_id))
    except (KunkenError, NotFound):
        pass  # an unreadable record: the desk still answers, just without the table prefilled
    return {
        "id": session_id,
        "rules": session_rules(session),
        "players": session.players,
        "deal_number": deal_number,
        "table": table,
    }


# -- the draft's end as a client asks for it, and statistics at start-up ---------------------------


def asked_end(draft: Draft, body: dict) -> dict:
    """The draft's end with what ``body`` says of it (who went out, express, redeal); a bad field is a
    ``KunkenError`` naming it."""
    end = dict(draft.end)
    if "went_out" in body:
        went_out = body["went_out"]
        if isinstance(went_out, str):  # read as a deal's went_out is: a name, spaces as names have them; blank: nobody
            went_out = clean_name(went_out, "went_out") if went_out.strip() else None
        if went_out is not None and (not isinstance(went_out, str) or went_out not in draft.players):
            raise KunkenError(Reason("bad_field", {"field": "went_out", "expected": M_("a player's name or null")}))
        end.update(went_out=went_out, went_out_set=True)
    for flag in ("express", "redeal"):
        if flag in body:
            end[flag] = read_flag(body, flag)
    return end


def same_rules(body: dict, rules: RuleSet) -> None:
    """A deal for a session is scored under the session's rules: a ``KunkenError`` for a body that asks for
    another game or other values of the switches."""
    game = body.get("game")
    if game is not None and game != rules.game:
        if not isinstance(game, str):
            raise KunkenError(Reason("bad_field", {"field": "game", "expected": M_('"kunken" or "ordered-rummy"')}))
        raise KunkenError(Reason("other_game", {"game": rules.game, "value": game}))
    switches = body.get("rules")
    if switches in (None, {}):
        return
    asked = RuleSet.for_game(rules.game, switches)  # refuses unknown switches and values
    differ = [name for name in switches if name != "game" and getattr(asked, name) != getattr(rules, name)]
    if differ:
        raise KunkenError(Reason("other_rules", {"switches": ", ".join(differ)}))


def stats_stale_in(database: str) -> bool:
    """True when some session's player statistics in the file ``database`` are out of date (read on a
    connection of its own; ``StorageUnavailable`` when the file cannot be read)."""
    store = Store.connect(database)
    try:
        return bool(store.stale_stats(1))
    finally:
        store.close()


def refresh_stale_stats_in(database: str) -> None:
    """Bring every session's player statistics in the file ``database`` up to date, on a connection of its own."""
    store = Store.connect(database)
    try:
        refresh_stale_stats(store)
    finally:
        store.close()


# -- the API's answers: plain data, each reason in words by ``say`` -------------------------------

#: A reason as a sentence in the request's language (the web layer's ``reason_text``).
Say = Callable[[Reason], str]


def problems(reasons: Iterable[Reason], say: Say) -> list[dict]:
    """Reasons as the API lists them: their code and their sentence."""
    return [{"code": r.code, "message": say(r)} for r in reasons]


def report_answer(report: DealReport, say: Say) -> dict:
    """A scored deal's players, problems and warnings."""
    return {
        "problems": problems(report.problems, say),
        "warnings": problems(report.warnings, say),
        "players": [p.to_dict() for p in report.players],
    }


def deal_entry(scored: ScoredDeal, say: Say) -> dict:
    """A stored deal as the API shows it: as recorded, with its scores and problems."""
    row = scored.row
    entry = {"number": row.number, "record": row.record, "override": row.override, "note": row.note}
    report = scored.report
    if report is None:
        return {
            **entry,
            "players": [],
            "problems": problems([scored.error] if scored.error else [], say),
            "warnings": [],
        }
    return {
        **entry,
        "players": [p.to_dict() for p in report.players],
        "problems": problems(report.problems, say),
        "warnings": problems(report.warnings, say),
    }


def session_answer(board: Scoreboard, say: Say) -> dict:
    """A score sheet as ``GET /api/v1/sessions/<id>`` answers it."""
    session = board.session
    out = {s.name for s in board.status.standings if s.out}
    return {
        "id": session.id,
        "game": session.game,
        "rules": session.rules,
        "players": board.players,
        "deals": [deal_entry(d, say) for d in board.deals],
        "totals": board.totals,
        "version": board.version,
        "target": session.target,
        "target_reached": board.status.finished,
        "out": [name for name in board.players if name in out],
        "created_at": session.created_at,
        "ended_at": session.ended_at,
    }


def deal_answer(number: int | None, report: DealReport, totals: dict[str, int], version: int, say: Say) -> dict:
    """The answer to a recorded deal: its number and scores, the totals and version after it."""
    return {
        "number": number,
        "players": [p.to_dict() for p in report.players],
        "warnings": problems(report.warnings, say),
        "totals": totals,
        "version": version,
    }


def totals_through(board: Scoreboard, deal_id: int) -> dict[str, int]:
    """The running totals right after the deal ``deal_id`` (the deals recorded after it left out)."""
    scored = 0
    for entry in board.deals:
        if entry.deal is None or not entry.deal.redeal:  # as the running totals count them
            scored += 1
        if entry.row.id == deal_id:
            break
    return dict(board.running[scored - 1]) if scored else {name: 0 for name in board.players}


def part_answer(draft: Draft, seat: int, say: Say) -> dict:
    """One seat of the draft: who, whether taken, its part and state, its problems."""
    entry = draft.parts.get(seat)
    check = draft.check.seats[seat]
    return {
        "seat": seat,
        "player": draft.players[seat],
        "taken": seat in draft.taken,
        "state": check.state,
        "part": entry.part if entry else None,
        "revision": entry.revision if entry else 0,
        "written_by": entry.written_by if entry else None,
        "written_at": entry.written_at if entry else None,
        "problems": problems(check.problems, say),
        "waiting_for": list(check.waiting_for),
    }


def draft_answer(draft: Draft, say: Say) -> dict:
    """The draft of the next deal: every seat, the problems and the scores so far."""
    check = draft.check
    return {
        "deal": draft.deal,
        "draft": draft.generation,
        "version": draft.version,
        "complete": check.complete,
        "valid": check.ready,
        "went_out": check.went_out,
        "express": draft.end["express"],
        "redeal": draft.end["redeal"],
        "seats": [part_answer(draft, seat, say) for seat in range(len(draft.players))],
        "problems": problems(check.problems, say),
        "warnings": problems(check.report.warnings, say),
        "players": [p.to_dict() for p in check.report.players],
    }


def record_answered(
    store: Store,
    session_id: str,
    record: dict,
    report: DealReport,
    rules: RuleSet,
    key: str | None,
    say: Say,
    request: str | None = None,
    **options: Any,
) -> tuple[int, dict]:
    """Store a deal and answer (201, its scores, the totals and the version). The answer is kept for a retry
    with the same Idempotency-Key, in the deal's own transaction when the totals before it are known; a key
    already answered gets that answer again (``KeyReused`` when it came with another ``request`` digest)."""
    made: list[tuple[Tally, dict] | None] = []
    versions: list[int] = []
    place = place_of(store)

    def answer(deal: DealRow, version: int) -> dict[str, Any] | None:
        versions.append(version)
        tally = tally_after(place, session_id, record, report, version, rules)
        made.append(None if tally is None else (tally, deal_answer(deal.number, report, tally.points, version, say)))
        return made[-1][1] if made[-1] else None

    deal, created = store.add_deal(session_id, record, idempotency_key=key, answer=answer, request=request, **options)
    if created and made[-1] is not None:
        tally, body = made[-1]
        remember_tally(place, tally)  # the deal is committed: the next recording may start from its tally
        return 201, body
    if not created:  # the same key stored a deal in a request running alongside this one
        assert key is not None  # add_deal stores nothing only for a key it has seen
        replay = store.stored_response(session_id, key, request)
        if replay is not None:
            return replay
        report = evaluate_deal(Deal.from_dict(deal.record), rules)
    # worked out after the commit: the deals recorded since by other phones are left out of the totals
    board = scoreboard(store, session_id)
    _remember(place, tally_of(board))  # one moment's session and deals: the next recording adds to this tally
    version = versions[-1] if created else board.version
    body = deal_answer(deal.number, report, totals_through(board, deal.id), version, say)
    if key is not None:
        try:
            store.save_response(session_id, key, 201, body, request)
        except StorageUnavailable as err:  # the deal is stored: a retry rebuilds this answer from it
            _log.warning("answer to %s not kept for retries: %s", key, err)
    return 201, body
