"""The draft of the next deal, entered from the players' phones: read from the store and checked by the core."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.draft import DraftCheck, check_draft
from ..core.rules import RuleSet
from ..store import (
    PartRow,
    SeatRow,
    SessionRow,
    Store,
)

# -- the draft of the next deal, entered from the players' phones ------------------------------


@dataclass(frozen=True)
class Draft:
    """The stored draft of a session's next deal, checked together by the core."""

    session: SessionRow
    rules: RuleSet
    deal: int
    version: int
    tag: str
    end: dict[str, Any]
    parts: dict[int, PartRow]
    taken: dict[int, SeatRow]
    check: DraftCheck
    #: which draft this is (``Store.draft``): moves on only when a deal is recorded
    generation: int = 0

    @property
    def players(self) -> list[str]:
        """The players in seat order."""
        return self.session.players

    @property
    def went_out_shown(self) -> str | None:
        """Who went out as the scorer's page offers it: the core's one empty hand (``DraftCheck.suggested``) only
        once every part is in; while a part is missing, another empty hand may still come (the scores so far
        still take the core's provisional choice)."""
        return None if self.check.missing else self.check.suggested


#: The keys of a draft's end, with their defaults.
DRAFT_END = {"went_out": None, "went_out_set": False, "express": False, "redeal": False}


def _checked(
    rules: RuleSet, names: list[str], entries: dict[int, PartRow], end: dict[str, Any]
) -> tuple[dict[str, Any], DraftCheck]:
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
        f"{stored.session_version}-{stored.version}-{session.hand_entry or ''}",  # as store.draft_tag
        end,
        stored.parts,
        stored.seats,
        check,
        stored.generation,
    )


def with_end(draft: Draft, end: dict[str, Any]) -> Draft:
    """The draft as it would be with this end (who went out, express, redeal), checked again."""
    end, check = _checked(draft.rules, draft.players, draft.parts, end)
    return replace(draft, end=end, check=check)
