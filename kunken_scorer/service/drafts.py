"""The draft of the next deal, entered from the players' phones: read from the store and checked by the core."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..core.deal import PlayerDetail, PlayerScore
from ..core.draft import DraftCheck, SeatCheck, check_draft, part_of, read_part
from ..core.messages import KunkenError
from ..core.notation import hand_entry, part_hand_way, part_texts
from ..core.rules import RuleSet
from ..store import (
    PartRow,
    RefusalRow,
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
    #: each seat's last save the server refused since its last stored one (its part is then older than the phone's)
    refusals: dict[int, RefusalRow] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        """The players in seat order."""
        return self.session.players

    @property
    def ready(self) -> bool:
        """The deal can be recorded as it is: every part in with its hand, nothing wrong (``DraftCheck.ready``), and
        no phone's last save refused (its part stored is older than what it shows)."""
        return self.check.ready and not self.refusals

    @property
    def refused_names(self) -> tuple[str, ...]:
        """The players whose phone's last save of their part was refused, in seat order."""
        return tuple(self.players[seat] for seat in sorted(self.refusals))

    @property
    def lacking(self) -> tuple[str, ...]:
        """The players whose part is missing, whose hand is not entered, or whose phone's last save was refused."""
        return tuple(dict.fromkeys(self.check.missing + self.check.no_hand + self.refused_names))

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
    #: the last deal was recorded with another part for this seat than its phone had stored (None: it was not)
    replaced: Replaced | None = None
    #: the session's target is reached: the scorer ends the game (the page leads with that, the keypad stays down)
    finished: bool = False

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


def _same_part(part: dict[str, Any], recorded: dict[str, Any], went_out: bool) -> bool:
    """Whether a part a phone stored is the part a deal recorded (a hand left out is none for who went out)."""
    if went_out and part.get("hand") is None:
        part = {**part, "hand": ""}
    try:
        return read_part(part) == read_part(recorded)
    except KunkenError:
        return False


@dataclass(frozen=True)
class Replaced:
    """Deal ``number`` was recorded with another part for this seat than its phone had stored (``stored``): the part
    as recorded is ``recorded``."""

    number: int
    recorded: dict[str, Any]
    stored: dict[str, Any]


def replaced_part(store: Store, draft: Draft, seat: int) -> Replaced | None:
    """The last deal recorded holds another part for ``seat`` than the one its phone had stored in the draft (the
    scorer's form recorded the deal as it typed it): said on the seat's page until the phone starts its next part.
    None when the phone's part is what was recorded, or it has written the next deal's part already."""
    if draft.generation == 0 or seat in draft.parts:
        return None
    kept = store.recorded_parts(draft.session.id, draft.generation).get(seat)
    if kept is None or kept.written_by != "player":
        return None
    deal = store.deal_of_draft(draft.session.id, draft.generation - 1)
    if deal is None or deal.number is None:
        return None
    name = draft.players[seat]
    recorded = part_of(deal.record, name)
    if _same_part(kept.part, recorded, deal.record.get("went_out") == name):
        return None
    return Replaced(deal.number, recorded, kept.part)


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
        stored.refusals,
    )


def with_end(draft: Draft, end: dict[str, Any]) -> Draft:
    """The draft as it would be with this end (who went out, express, redeal), checked again."""
    end, check = _checked(draft.rules, draft.players, draft.parts, end)
    return replace(draft, end=end, check=check)
