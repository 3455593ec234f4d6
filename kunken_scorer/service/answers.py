"""The API's answers as plain data, each reason in words by ``say`` (the web layer's ``reason_text``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..core.deal import DealReport
from ..core.messages import Reason
from .board import Scoreboard, ScoredDeal
from .drafts import Draft

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
    }


def draft_answer(draft: Draft, say: Say) -> dict[str, Any]:
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
