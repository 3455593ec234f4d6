"""The pages' data: each page's dataclass and the function that works it out from the store (the web layer only
presents it, adding what needs the request: addresses, the language, the forms)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.charts import ChartWords, running_chart, running_chart_size
from ..core.deal import DealReport, PlayerDetail, PlayerScore
from ..core.messages import N_, KunkenError, Reason
from ..core.notation import deal_texts, entered_as, hand_entry, part_hand_way, part_texts, shown_cards
from ..core.reading import Deal, hand_entries
from ..core.rules import GAMES, HOUSE_RULES, KEY_SWITCHES, SWITCHES, RuleSet, switch_values
from ..core.session import TARGET_KINDS, Target
from ..store import CorrectionRow, DealRow, DraftRow, HistoryRow, PartRow, SessionNight, SessionRow, Store
from .board import DealLine, Scoreboard, desk_session, scoreboard
from .kept import open_corrections
from .outcomes import Checked
from .ratings import PROVISIONAL_UNTIL, HeadToHead, RatedPlayers, SamePlayer, UnknownPlayer, head_to_head, rated_players
from .stats import PlayerHistory, player_history

#: The players the page shows until "Show all" is tapped: a club with years of play has hundreds of names,
#: and its page stays as quick to read, to serve and to print as a family's (1,000 players in full: 75 ms and
#: 626 KB; benchmarks/bench_club.py, the "crowd" part).
PLAYERS_SHOWN = 50


def start_form_data(
    game: str | None, players: list[str] | None = None, target_kind: Any = None, target_value: Any = None
) -> dict[str, Any]:
    """The start form's data: ``game``'s default switches (Kunken's for a game not known), and, when the table asked
    for them with the form filled in, what it had typed: its ``players`` and target (a kind not known: none)."""
    game = game if game in GAMES else "kunken"
    data: dict[str, Any] = {"game": game, "defaults_for": game, "rules": switch_values(game)}
    if players is not None:
        data.update(
            players=players,
            target_kind=target_kind if target_kind in TARGET_KINDS else "",
            target_value=target_value,
        )
    return data


@dataclass(frozen=True)
class SessionPage:
    """The session page as one phone sees it: the scorer's (``editor``), a seated player's (``seat``), or a
    viewer's; ``undone``: the deal an undo just took back (offered to bring back)."""

    session: SessionRow
    rules: RuleSet
    target: Target | None
    taken: list[int]
    next_deal: int
    hand_entry: str
    hand_entries: tuple[str, ...]
    editor: bool
    seat: int | None
    undone: int | None
    #: the open proposed corrections (the scorer's page only): each with its player and its deal's number
    corrections: list[tuple[CorrectionRow, str, int | None]] = field(default_factory=list)
    #: the club night this session is a table of (its round and table), or None
    night: SessionNight | None = None


def session_page(
    store: Store, record: SessionRow, *, editor: bool, seat: int | None, undone: int | None
) -> SessionPage:
    """The session page's data (the live part, scores and deals, is rendered apart)."""
    rules = RuleSet.from_dict(record.rules)
    return SessionPage(
        session=record,
        rules=rules,
        target=Target.from_dict(record.target),
        taken=store.taken_seats(record.id),
        next_deal=store.next_number(record.id),
        hand_entry=hand_entry(record.hand_entry, rules),
        hand_entries=tuple(hand_entries(rules)),
        editor=editor,
        seat=seat,
        undone=undone if editor else None,
        corrections=open_corrections(store, record) if editor else [],
        night=store.night_of(record.id),
    )


@dataclass(frozen=True)
class DealPage:
    """The deal form's page beyond the form: the scoreboard; the core's ``report`` on the deal typed (None before a
    check) and each checked player's score and details (``preview``); the player who went out when exactly one
    hand is empty; for a new deal, the parts the players' phones have stored in the draft, by seat (the form starts
    from them, marked as from the phone)."""

    board: Scoreboard
    report: DealReport | None
    preview: list[tuple[PlayerScore, PlayerDetail | None]] | None
    went_out_suggestion: str
    from_phones: dict[int, PartRow]

    @property
    def phone_names(self) -> list[str]:
        """The players whose parts the draft holds, in seat order."""
        return [self.board.players[seat] for seat in sorted(self.from_phones)]


def parts_seen_text(parts: Mapping[int, PartRow]) -> str:
    """The revisions of the draft's parts a deal form was filled in from, as its hidden field keeps them.

    >>> parts_seen_text({2: PartRow({}, 1, "player", ""), 0: PartRow({}, 3, "player", "")})
    '0:3,2:1'
    """
    return ",".join(f"{seat}:{parts[seat].revision}" for seat in sorted(parts))


def deal_form_data(store: Store, session: SessionRow, deal: DealRow | None, russian: bool) -> dict[str, Any]:
    """What the deal form shows first: for a new deal, the parts the players' phones stored in the draft (and how
    the scorer said the deal ended there), hands the way they were entered, else the table's way, at the session's
    version; for ``deal``, the deal as typed text (in Russian notation if ``russian``) at its revision, hands as
    entered."""
    rules = RuleSet.from_dict(session.rules)
    mode = hand_entry(session.hand_entry, rules)
    if deal is None:
        draft = store.draft(session.id)
        data: dict[str, Any] = {"expected": str(session.version), "hand_mode": mode}
        data["parts_seen"] = parts_seen_text(draft.parts)
        if not draft.parts:
            return data
        return {**data, **draft_texts(draft, session.players, rules, russian, mode)}
    texts = deal_texts(deal.record, session.players, deal.override, deal.note, rules, russian=russian)
    return {**texts, "expected": str(deal.revision), "hand_mode": entered_as(deal.record, mode)}


def parts_since(store: Store, session: SessionRow, seen: Mapping[int, int], russian: bool) -> dict[int, dict[str, Any]]:
    """The seats whose part in the draft was written, changed or removed since a deal form showed the parts
    ``seen`` (seat: revision), each with its part's texts now (a removed part's are empty)."""
    draft = store.draft(session.id)
    rules = RuleSet.from_dict(session.rules)
    seats = {
        seat
        for seat in set(seen) | set(draft.parts)
        if seen.get(seat) != (draft.parts[seat].revision if seat in draft.parts else None)
    }
    return {
        seat: part_texts(draft.parts[seat].part if seat in draft.parts else None, seat, session.players, rules, russian)
        for seat in sorted(seats)
        if 0 <= seat < len(session.players)
    }


def draft_texts(draft: DraftRow, names: list[str], rules: RuleSet, russian: bool, mode: str) -> dict[str, Any]:
    """The deal form's fields filled in from the draft's parts (a seat without one empty), how the deal ended as the
    scorer said on the draft's page, and the way its hands were entered (the table's, when it can show them)."""
    parts = {seat: row.part for seat, row in draft.parts.items()}
    players = [part_texts(parts.get(seat), seat, names, rules, russian) for seat in range(len(names))]
    out: dict[str, Any] = {"players": players, "express": bool(draft.end.get("express"))}
    if draft.end.get("went_out_set") and draft.end.get("went_out") in names:
        out["went_out"] = draft.end["went_out"]
    out["hand_mode"] = part_hand_way(
        {"hand": next((p.get("hand") for p in parts.values() if p.get("hand")), None)}, mode
    )
    return out


def deal_page(store: Store, session: SessionRow, checked: Checked | None, body: Any, new: bool) -> DealPage:
    """The deal form's page data: ``checked``, the deal read from the form's ``body``, as the core checked it."""
    report = checked.report if checked is not None else None
    preview = None
    if report is not None:
        details = report.details or (None,) * len(report.players)
        preview = list(zip(report.checked_players, details, strict=False))
    empty = [] if report is None or body is None else Deal.from_dict(body).empty_hands
    return DealPage(
        board=scoreboard(store, session.id),
        report=report,
        preview=preview,
        went_out_suggestion=empty[0] if len(empty) == 1 else "",
        from_phones=store.draft(session.id).parts if new else {},
    )


@dataclass(frozen=True)
class TablePage:
    """The table screen: the scoreboard, the last deal (each player's change and melds)."""

    board: Scoreboard
    last: DealLine | None
    changes: dict[str, Any]
    melds: dict[str, Any]


def table_page(store: Store, sid: str) -> TablePage:
    """The table screen's data."""
    board = scoreboard(store, sid)
    last = board.lines[-1] if board.lines else None
    deal = board.deals[-1].deal if board.deals else None
    return TablePage(
        board=board,
        last=last,
        changes=dict(zip(board.players, last.results, strict=False)) if last else {},
        melds={p.name: p.melds for p in deal.players} if deal else {},
    )


@dataclass(frozen=True)
class HistoryPage:
    """Every change to a session, newest first, and the number each deal has now (by its id; a deal deleted since
    has none)."""

    board: Scoreboard
    entries: list[HistoryRow]
    numbers: dict[int, int]


def history_page(store: Store, sid: str) -> HistoryPage:
    """The history page's data."""
    board = scoreboard(store, sid)
    numbers = {scored.row.id: scored.number for scored in board.deals}
    return HistoryPage(board, store.history(sid), numbers)


#: The running-totals chart's words: its title, the y axis and the x axis (translated by the caller).
CHART_WORDS = (N_("Running totals"), N_("Total"), N_("Deal"))


def scoreboard_chart(board: Scoreboard, say: Callable[[str], str], phone: bool = False) -> str:
    """The running-totals chart of a scoreboard, its words (``CHART_WORDS``) translated by ``say`` (x axis: deal
    numbers, redeals left out); ``phone``: the narrower chart a phone shows."""
    numbers = [d.number for d in board.deals if d.deal is None or not d.deal.redeal]
    words = ChartWords(*(say(word) for word in CHART_WORDS))
    return running_chart(board.players, board.running, deal_numbers=numbers, words=words, phone=phone)


def chart_size(board: Scoreboard, phone: bool = False) -> tuple[int, int]:
    """The chart's width and height in whole pixels, for an ``<img>`` of ``chart.svg`` that keeps its place."""
    width, height = running_chart_size(board.players, board.running, phone)
    return round(width), round(height)


@dataclass(frozen=True)
class SummaryPage:
    """The evening's summary: the scoreboard, the deals with an override or a note, the redeals' count, and the
    switches ``changed`` from the preset and the preset's ``kept`` key switches (their names)."""

    board: Scoreboard
    overrides: list[DealLine]
    redeals: int
    changed: list[str]
    kept: list[str]


def summary_page(store: Store, sid: str) -> SummaryPage:
    """The summary page's data."""
    board = scoreboard(store, sid)
    rules, rows = board.rules, board.lines
    changed = rules.house_rules_changed()
    return SummaryPage(
        board=board,
        overrides=[row for row in rows if row.override or row.note],
        redeals=sum(1 for row in rows if row.redeal),
        changed=list(changed),
        # a default that means nothing here (the express's multiplier where no express is played) is left out
        kept=[n for n in KEY_SWITCHES if n not in changed and SWITCHES[n].applies(rules)],
    )


@dataclass(frozen=True)
class PlayersPage:
    """Player history: the players shown (all, or the first ``PLAYERS_SHOWN``) with their ratings, how many there
    are in ``total``, and the ``game`` chosen (None: every game)."""

    rated: RatedPlayers
    total: int
    game: str | None
    show_all: bool
    shown_first: int = PLAYERS_SHOWN
    provisional_until: int = PROVISIONAL_UNTIL

    @property
    def history(self) -> list[PlayerHistory]:
        """The players shown, the most wins first."""
        return self.rated.history

    @property
    def names(self) -> list[str]:
        """The names of the players shown (the head-to-head form suggests them)."""
        return [p.name for p in self.rated.history]

    @property
    def bars(self) -> list[tuple[str, float]]:
        """The bars of the chart of average deal scores: each player shown, their average to one decimal."""
        return [(p.name, round(p.average, 1)) for p in self.history]


def players_page(store: Store, game: str | None, show_all: bool) -> PlayersPage:
    """The players page's data for ``game`` (an unknown game: every game)."""
    game = game if game in GAMES else None
    rated = rated_players(store, game, None if show_all else PLAYERS_SHOWN)
    history = rated.history
    total = len(history) if show_all or len(history) < PLAYERS_SHOWN else store.player_count(game)
    return PlayersPage(rated=rated, total=total, game=game, show_all=show_all)


@dataclass(frozen=True)
class HeadToHeadPage:
    """Head to head: the two names asked (cut to 40 characters, as the form takes them), what was found (a reason:
    the names could not be read; None: none asked yet), and the names the form suggests."""

    first: str
    second: str
    outcome: HeadToHead | UnknownPlayer | SamePlayer | Reason | None
    names: list[str]

    @property
    def found(self) -> HeadToHead | None:
        """The sessions the two played together, when both were found."""
        return self.outcome if isinstance(self.outcome, HeadToHead) else None


def head_to_head_page(store: Store, first: str | None, second: str | None) -> HeadToHeadPage:
    """The head-to-head page's data for the names ``first`` and ``second`` (None: not given)."""
    outcome: HeadToHead | UnknownPlayer | SamePlayer | Reason | None = None
    if first is not None or second is not None:
        try:
            outcome = head_to_head(store, first, second)
        except KunkenError as err:
            outcome = err.reason
    names = [p.name for p in player_history(store, None, PLAYERS_SHOWN)]
    return HeadToHeadPage((first or "")[:40], (second or "")[:40], outcome, names)


@dataclass(frozen=True)
class RulesPage:
    """The rules the desk answers under and the rules reference shows: a session's (``session``, as
    ``desk_session`` gives it, with its last deal's melds, one per line as stored, in ``table``) or a preset."""

    rules: RuleSet
    session: dict[str, Any] | None
    table: list[str]

    def table_text(self, russian: bool) -> str:
        """The melds of ``table`` as the desk's forms start with them: one a line, in the page's notation (Russian
        ranks if ``russian``)."""
        return "\n".join(shown_cards(line, russian) for line in self.table)

    @property
    def shown_switches(self) -> list[str]:
        """The switches the rules reference lists: the house rules that mean something under these rules (no
        express's multiplier in a game without express), then every other one these rules change."""
        house = [name for name in HOUSE_RULES if SWITCHES[name].applies(self.rules)]
        return [*house, *(n for n in self.rules.house_rules_changed() if n not in HOUSE_RULES)]

    @property
    def house_switches(self) -> list[str]:
        """The house rules a table of this game may set, those that mean something in it."""
        preset = RuleSet.preset(self.rules.game)
        return [name for name in HOUSE_RULES if SWITCHES[name].applies(preset)]


def rules_page(store: Store, sid: str | None, game: str) -> RulesPage | None:
    """The rules of session ``sid``, else the preset of ``game``; None for an unknown game."""
    if sid:
        session = desk_session(store, sid)
        return RulesPage(session["rules"], session, session["table"])
    return RulesPage(RuleSet.preset(game), None, []) if game in GAMES else None
