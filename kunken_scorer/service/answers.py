"""The API's answers as plain data, each reason in words by ``say`` (the web layer's ``reason_text``): the rule
checks (a request's JSON read and checked by the core), score sheets, deals, the draft and club nights."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..core.deal import DealReport, evaluate_deal
from ..core.fields import bad_field, read_cards, read_flag, read_melds
from ..core.melds import check_discard, check_meld, check_opening, check_swap
from ..core.messages import M_, Reason
from ..core.reading import Deal, check_short_hands
from ..core.rules import read_rules
from .board import Scoreboard, ScoredDeal
from .drafts import Draft
from .nights import NightBoard, NightMade
from .rounds import RoundPlan, TablesEnded

# -- the API's answers: plain data, each reason in words by ``say`` -------------------------------

#: A reason as a sentence in the request's language (the web layer's ``reason_text``).
Say = Callable[[Reason], str]


def problems(reasons: Iterable[Reason], say: Say) -> list[dict[str, Any]]:
    """Reasons as the API lists them: their code and their sentence."""
    return [{"code": r.code, "message": say(r)} for r in reasons]


def report_answer(report: DealReport, say: Say) -> dict[str, Any]:
    """A scored deal's players, problems and warnings."""
    return {
        "problems": problems(report.problems, say),
        "warnings": problems(report.warnings, say),
        "players": [p.to_dict() for p in report.players],
    }


# -- the rule checks: each reads its JSON body (the rules first), asks the core and answers; stores nothing ------

#: A rule check: a request's JSON body and ``say`` in, the answer out.
Check = Callable[[dict[str, Any], Say], dict[str, Any]]


def meld_check(body: dict[str, Any], say: Say) -> dict[str, Any]:
    """``POST /melds/check``: is this meld legal, what kind is it, and what does it score?"""
    rules = read_rules(body)
    result = check_meld(read_cards(body.get("cards"), "cards", required=True), rules, read_melds(body, "table"))
    return {
        "legal": result.legal,
        "kind": result.kind,
        "points": result.points,
        "cards": [str(c) for c in result.cards],
        "reasons": [say(r) for r in result.reasons],
    }


def swap_check(body: dict[str, Any], say: Say) -> dict[str, Any]:
    """``POST /swaps/check``: may this natural card replace a joker in this meld?"""
    rules = read_rules(body)
    meld = read_cards(body.get("meld"), "meld", required=True)
    card = read_cards(body.get("card"), "card", required=True)
    if len(card) != 1:  # as the bank card and the discard: one card, or the request is not read
        raise bad_field("card", M_("exactly one card"))
    has_layout = body.get("has_layout", True)  # left out: true (null is no true or false)
    if not isinstance(has_layout, bool):
        raise bad_field("has_layout", M_("true or false"))
    own_meld = body.get("own_meld", False)  # left out: another player's meld (null is no true or false)
    if not isinstance(own_meld, bool):
        raise bad_field("own_meld", M_("true or false"))
    table = read_melds(body, "table")
    result = check_swap(meld, card, rules, table, has_layout=has_layout, own_meld=own_meld)
    return {"legal": result.legal, "reasons": [say(r) for r in result.reasons]}


def opening_check(body: dict[str, Any], say: Say) -> dict[str, Any]:
    """``POST /openings/check``: may a player take the bank with this card and these melds?"""
    rules = read_rules(body)
    melds = read_melds(body, "melds", required=True)
    bank_card = read_cards(body.get("bank_card"), "bank_card", required=True)
    has_layout, table = read_flag(body, "has_layout"), read_melds(body, "table")
    result = check_opening(melds, bank_card, rules, has_layout=has_layout, table=table)
    return {"legal": result.legal, "points": result.points, "reasons": [say(r) for r in result.reasons]}


def discard_check(body: dict[str, Any], say: Say) -> dict[str, Any]:
    """``POST /discards/check``: the "Rummy!" check, does this discard fit a meld on the table?"""
    rules = read_rules(body)
    card = read_cards(body.get("card"), "card", required=True)
    if len(card) != 1:
        raise bad_field("card", M_("exactly one card"))
    result = check_discard(card, read_melds(body, "melds", required=True), rules)
    return {"fits": result.fits, "meld": result.meld, "reasons": [say(r) for r in result.reasons]}


def deal_score(body: dict[str, Any], say: Say) -> dict[str, Any]:
    """``POST /deals/score``: one deal validated and scored."""
    rules = read_rules(body)
    deal = Deal.from_dict(body)
    check_short_hands(deal, rules)
    report = evaluate_deal(deal, rules)
    return {"valid": report.valid, **report_answer(report, say)}


# -- score sheets, deals and the draft ---------------------------------------------------------------------------


def deal_entry(scored: ScoredDeal, say: Say) -> dict[str, Any]:
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


def session_answer(board: Scoreboard, say: Say) -> dict[str, Any]:
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


def deal_answer(
    number: int | None, report: DealReport, totals: dict[str, int], version: int, say: Say
) -> dict[str, Any]:
    """The answer to a recorded deal: its number and scores, the totals and version after it."""
    return {
        "number": number,
        "players": [p.to_dict() for p in report.players],
        "warnings": problems(report.warnings, say),
        "totals": totals,
        "version": version,
    }


def part_answer(draft: Draft, seat: int, say: Say) -> dict[str, Any]:
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
        "refused": _refusal_answer(draft.refusals.get(seat)),
    }


def _refusal_answer(refusal: Any) -> dict[str, Any] | None:
    """The seat's last save the server refused (None: none since its part was stored)."""
    if refusal is None:
        return None
    return {"message": refusal.message, "typed": refusal.typed, "at": refusal.at}


def draft_answer(draft: Draft, say: Say) -> dict[str, Any]:
    """The draft of the next deal: every seat, the problems and the scores so far."""
    check = draft.check
    return {
        "deal": draft.deal,
        "draft": draft.generation,
        "version": draft.version,
        "complete": check.complete,
        "valid": draft.ready,
        "went_out": check.went_out,
        "express": draft.end["express"],
        "redeal": draft.end["redeal"],
        "seats": [part_answer(draft, seat, say) for seat in range(len(draft.players))],
        "problems": problems(check.problems, say),
        "warnings": problems(check.report.warnings, say),
        "players": [p.to_dict() for p in check.report.players],
    }


def ended_answer(board: Scoreboard) -> dict[str, Any]:
    """``POST /sessions/<id>/end``: the session ended, its version and totals."""
    session = board.session
    return {"id": session.id, "ended_at": session.ended_at, "version": board.version, "totals": board.totals}


# -- club nights -------------------------------------------------------------------------------------------------

#: A table's links as the web layer writes them: ``links(session_id, edit_token)`` (the token None: not shown).
Links = Callable[[str, str | None], dict[str, str]]


def night_made_answer(made: NightMade, view_url: str, edit_url: str, links: Links) -> dict[str, Any]:
    """``POST /api/v1/nights``: the night's token and addresses, and each table's links with its edit token."""
    assert made.token is not None  # a night just started: its token
    return {
        "id": made.night.id,
        "edit_token": made.token,
        "view_url": view_url,
        "edit_url": edit_url,
        "tables": [links(sid, token) for sid, token in made.tables],
    }


def night_answer(board: NightBoard, tokens: dict[str, str], links: Links) -> dict[str, Any]:
    """``GET /api/v1/nights/<id>``: the night's settings, the current round's tables (with the edit ``tokens``
    known) and the standings across every table, in the night's ranking."""
    night = board.night
    return {
        "id": night.id,
        "game": night.game,
        "name": night.name,
        "ranking": night.ranking,
        "ended": night.ended_at is not None,
        "round": len(board.rounds),
        "tables": [
            {
                **links(t.session_id, tokens.get(t.session_id)),
                "table": t.number,
                "players": t.players,
                "ended": t.board.session.ended_at is not None,
            }
            for t in board.tables
        ],
        "standings": [
            {
                "place": board.place(s),
                "name": s.name,
                "total": s.total,
                "points": s.points,
                "table": s.table,
                "deals": s.deals,
                "total_place": s.place,
                "points_place": s.points_place,
            }
            for s in board.ranked
        ],
    }


def plan_answer(plan: RoundPlan) -> dict[str, Any]:
    """A round's seating as planned (the preview, nothing started) or started: who sits where, who arrived and
    left, how many times players at one table have met tonight already, and the earlier tables still playing."""
    return {
        "round": plan.round,
        "mode": plan.mode,
        "tables": [{"table": n, "players": players} for n, players in enumerate(plan.tables, start=1)],
        "arrivals": list(plan.arrivals),
        "leaving": list(plan.leaving),
        "repeats": plan.repeats,
        "still_playing": [{"round": r, "table": t} for r, t in plan.open_tables],
    }


def round_answer(board: NightBoard, round_no: int, tokens: dict[str, str], links: Links) -> dict[str, Any]:
    """A round of the night: each table's number, players and links (the edit token for the night's owner)."""
    return {
        "night": board.night.id,
        "round": round_no,
        "tables": [
            {**links(t.session_id, tokens.get(t.session_id)), "table": t.number, "players": t.players}
            for t in board.rounds[round_no - 1]
        ],
    }


def ended_tables_answer(ended: TablesEnded) -> dict[str, Any]:
    """``…/end``: how many tables ended now, of how many."""
    return {"ended": ended.ended, "tables": ended.tables}
