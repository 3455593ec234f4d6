"""The draft of the next deal, entered from the players' phones: read from the store and checked by the core."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.deal import PlayerDetail, PlayerScore
from ..core.draft import DraftCheck, SeatCheck, check_draft
from ..core.notation import hand_entry, part_hand_way, part_texts
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

    @property
    def went_out_choice(self) -> str:
        """Who went out as the scorer's form keeps it: "auto" (the core's choice), "none" or a seat."""
        if not self.end["went_out_set"]:
            return "auto"
        return str(self.players.index(self.end["went_out"])) if self.end["went_out"] in self.players else "none"

    def end_fields(self) -> dict[str, Any]:
        """The scorer's draft form's data: the end as stored, for this draft's deal."""
        return {
            "went_out": self.went_out_choice,
            "express": self.end["express"],
            "redeal": self.end["redeal"],
            "version": str(self.version),
            "deal": str(self.deal),
            "draft": str(self.generation),
        }

    def part_fields(self, seat: int, hand_mode: str | None, russian: bool) -> dict[str, Any]:
        """The part form's data: the stored part of ``seat`` (or none) as texts, for this draft's deal, the hands
        entered by ``hand_mode`` (None: the table's way, as far as it can show the stored hand: ``part_hand_way``)."""
        entry = self.parts.get(seat)
        table_way = hand_entry(self.session.hand_entry, self.rules)
        return {
            "player": part_texts(entry.part if entry else None, seat, self.players, self.rules, russian=russian),
            "deal": str(self.deal),
            "draft": str(self.generation),
            "revision": str(entry.revision if entry else 0),
            "hand_mode": hand_mode or part_hand_way(entry.part if entry else None, table_way),
        }


@dataclass(frozen=True)
class PartPage:
    """What a seat's part page shows: the draft, the seat, who the request writes the part as (None: nobody), and
    ``lost``, when the request's phone held the seat and no longer does: "taken" by another phone or "freed"."""

    draft: Draft
    seat: int
    writer: str | None
    lost: str | None

    @property
    def name(self) -> str:
        """The seat's player."""
        return self.draft.players[self.seat]

    @property
    def entry(self) -> PartRow | None:
        """The seat's stored part (None: none yet)."""
        return self.draft.parts.get(self.seat)

    @property
    def seat_check(self) -> SeatCheck:
        """The core's check of the seat."""
        return self.draft.check.seats[self.seat]

    @property
    def detail(self) -> PlayerDetail | None:
        """The seat's melds, vists and swaps as the core checked them (None: no details)."""
        details = self.draft.check.report.details
        return details[self.seat] if details else None

    @property
    def score(self) -> PlayerScore:
        """The seat's score for the deal so far."""
        return self.draft.check.report.players[self.seat]


#: The keys of a draft's end, with their defaults.
DRAFT_END = {"went_out": None, "went_out_set": False, "express": False, "redeal": False}


def draft_end(names: list[str], choice: str | None, express: bool, redeal: bool) -> dict[str, Any]:
    """The draft's end as ``DRAFT_END`` keeps it, as the scorer's draft form chose it: ``choice`` of who went out is
    "auto" (or blank: the core's choice), "none" or a seat among ``names`` (``Draft.went_out_choice`` the other way).

    >>> draft_end(["Anna", "Boris"], "1", False, True)
    {'went_out': 'Boris', 'went_out_set': True, 'express': False, 'redeal': True}
    >>> draft_end(["Anna", "Boris"], "", False, False)["went_out_set"], draft_end(["Anna"], "none", False, False)
    (False, {'went_out': None, 'went_out_set': True, 'express': False, 'redeal': False})
    """
    choice = choice or "auto"
    went_out = names[int(choice)] if choice.isascii() and choice.isdigit() and int(choice) < len(names) else None
    return {"went_out": went_out, "went_out_set": choice != "auto", "express": express, "redeal": redeal}


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
