"""A session's stored deals scored with the core: the scoreboard every page and answer is made from.

Scores are always derived from the stored deal records under the session's stored rule set; a stored deal's
report is kept in ``CACHE`` by (database, session, deal, revision) — a record changes only with its revision and a
session's rules never change — so a page that shows a hundred deals does not re-score them on every poll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..cache import Cache, Place, identity
from ..core.cards import format_cards
from ..core.deal import DealReport, PlayerScore, evaluate_deal
from ..core.melds import on_table
from ..core.messages import KunkenError, Reason
from ..core.reading import Deal, Swap
from ..core.rules import GAMES, RuleSet
from ..core.session import SessionStatus, Target, running_totals, session_status
from ..store import (
    DealRow,
    DealScore,
    LiveDealRow,
    NotFound,
    SessionRow,
    Store,
)


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
    swaps: tuple[Swap, ...]
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
    running: tuple[dict[str, int], ...] = field(default=())

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
#:   Pays: the summary and GET api/v1/sessions/<id> several times slower without it (benchmarks/README.md).
#: - ``("known", session id)``: deal id -> the revision kept above (which records need not be read again;
#:   an entry forgotten meanwhile makes ``scoreboard`` read every record once).
#: - ``("tally", session id, version)``: the session's tally at that version (a recording adds its deal to
#:   the tally of the version just before its own). Pays: recording a deal slower without it (benchmarks/README.md).
CACHE = Cache(size=20000)


def place_of(store: Store) -> Place | None:
    """The identity of the file ``store`` reads (None for a database in memory: nothing of it is cached)."""
    row = store.db.execute("PRAGMA database_list").fetchone()
    return identity(row[2]) if row and row[2] else None


def _score_record(
    record: dict[str, Any] | None, rules: RuleSet, key: tuple[object, ...]
) -> tuple[Deal | None, DealReport | None, Reason | None, dict[str, Any]]:
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


def desk_session(store: Store, session_id: str) -> dict[str, Any]:
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


def totals_through(board: Scoreboard, deal_id: int) -> dict[str, int]:
    """The running totals right after the deal ``deal_id`` (the deals recorded after it left out)."""
    scored = 0
    for entry in board.deals:
        if entry.deal is None or not entry.deal.redeal:  # as the running totals count them
            scored += 1
        if entry.row.id == deal_id:
            break
    return dict(board.running[scored - 1]) if scored else {name: 0 for name in board.players}


def deal_scores(players: Sequence[str], report: DealReport | None) -> list[DealScore]:
    """A deal's results as the store keeps them for reading the file with SQL (``deal_results``, the view
    ``deal_scores``): one row per player of the session the core's report scores, in seat order (a redeal's are
    zeros). What the app adds to the totals, exactly: the same rows the scoreboard shows. None: an unreadable
    record, no rows.

    >>> from kunken_scorer import Deal, RuleSet, evaluate_deal
    >>> deal = Deal.from_dict({"players": [{"name": "A", "melds": ["2♣ 3♣ 4♣"]}, {"name": "B", "hand": "5♦"}]})
    >>> deal_scores(["A", "B"], evaluate_deal(deal, RuleSet.preset()))
    [DealScore(player='A', plus=15, minus=0, score=15), DealScore(player='B', plus=0, minus=5, score=-5)]
    """
    if report is None:
        return []
    by_name = {p.name: p for p in report.players}  # a name written twice: its last seat, as the scoreboard reads it
    return [DealScore(name, r.plus, r.minus, r.score) for name in players if (r := by_name.get(name)) is not None]
