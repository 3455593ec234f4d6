"""Reading what a request asks for, before any use case runs: a deal checked by the core for a session, a new
session's players, the draft's end as a client asks for it, a digest of a write for its idempotency key, and what
"record anyway" comes to for a deal (``record_anyway``).

Input that cannot be read raises ``KunkenError`` with a reason naming the field (and, on a player's part, its
``Reason.seat`` and ``Reason.field``); the pages place it next to the field, the API answers it with 400.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ..core.deal import evaluate_deal
from ..core.fields import player_key
from ..core.messages import M_, KunkenError, Reason
from ..core.reading import Deal, check_short_hands, clean_name, read_flag
from ..core.rules import RuleSet
from ..store import SessionRow
from .drafts import Draft
from .outcomes import Checked, Waiting


def session_players(rules: RuleSet, names: Any) -> list[str]:
    """Check a new session's player list: the game's range of distinct, well-formed names (a ``KunkenError`` whose
    reason names the seat otherwise)."""
    if not isinstance(names, list):
        raise KunkenError(Reason("bad_field", {"field": "players", "expected": M_("a list of names")}))
    cleaned = []
    for i, name in enumerate(names):
        try:
            cleaned.append(clean_name(name, f"players[{i}]"))
        except KunkenError as err:
            raise err.at(i, "name") from None  # located at its seat: the start form shows it there
    if not rules.min_players <= len(cleaned) <= rules.max_players or len({player_key(n) for n in cleaned}) != len(
        cleaned
    ):
        raise KunkenError(Reason("session_players", {"min": rules.min_players, "max": rules.max_players}))
    return cleaned


def player_named(reason: Reason) -> Reason:
    """A reason about one of a list's names (``Reason.seat``) naming it as a page does, "player 2", rather than by the
    API's path (``players[1]``); any other reason as it is."""
    if reason.seat is None or "field" not in reason.params:
        return reason
    named = {**reason.params, "field": Reason("player_number", {"n": reason.seat + 1})}
    return Reason(reason.code, named, seat=reason.seat, field=reason.field)


def check_deal(session: SessionRow, body: Any, recorded_anyway: bool = False) -> Checked:
    """Read a deal for ``session`` and check it with the core under the session's rules: its canonical record and
    report. Input that cannot be read raises ``KunkenError`` naming the field.

    ``recorded_anyway``: an imported deal the table recorded anyway (``HandSummary.check_for``)."""
    return check_record(RuleSet.from_dict(session.rules), session.players, body, recorded_anyway)


def check_record(rules: RuleSet, players: list[str], body: Any, recorded_anyway: bool = False) -> Checked:
    """``check_deal`` for a session not stored yet (an import, a form): its ``rules`` and ``players``."""
    deal = Deal.from_dict(body)
    if sorted(deal.names) != sorted(players):
        got = ", ".join(deal.names) or M_("nobody")
        raise KunkenError(Reason("deal_players", {"players": ", ".join(players), "got": got}))
    check_short_hands(deal, rules, recorded_anyway)
    return Checked(deal.to_dict(), evaluate_deal(deal, rules))


def check_draft_deal(draft: Draft) -> Checked | Waiting:
    """The deal a complete draft makes, checked; ``Waiting`` for the players whose part is missing."""
    if not draft.check.complete:
        return Waiting(tuple(draft.check.missing))
    return check_deal(draft.session, draft.check.body)


def same_rules(body: dict[str, Any], rules: RuleSet) -> None:
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


def request_digest(asked: Any, where: str | None = None) -> str:
    """A digest of what a write asks for (JSON, key order aside), and ``where`` it was sent when that tells two
    ways of writing apart: its idempotency key sent again with something else is then not taken for a retry
    (``store.KeyReused``)."""
    text = json.dumps(asked, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if where is not None:
        text = f"{where}\n{text}"
    return hashlib.sha256(text.encode()).hexdigest()


def asked_end(draft: Draft, body: dict[str, Any]) -> dict[str, Any]:
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


def record_anyway(report: Any, override: bool, note: str | None) -> Anyway:
    """The one rule for every way a deal is recorded (the deal form, the draft, the API, an import): a deal with
    problems is stored only with "record anyway" and a note, and is then marked so; a valid deal is never marked."""
    if not report.problems:
        return Anyway(override=False)
    missing = tuple(name for name, given in (("override", override), ("note", (note or "").strip())) if not given)
    return Anyway(override=not missing, missing=missing)
