"""A session as a portable document: the JSON export and import, and the CSV score sheet.

The JSON document (format ``kunken-scorer/v1``) is what ``GET /api/v1/sessions/<id>/export``
returns and what both ``POST /api/v1/sessions/import`` and the import page accept::

    {"format": "kunken-scorer/v1", "id", "game", "rules", "players", "target",
     "created_at", "ended_at", "deals": [{"number", "record", "override", "note"}]}

Import reads and scores every deal before anything is stored, then stores the session and
all its deals in one transaction: a bad document stores nothing. Like recording a deal, a
deal with problems is accepted only when it is marked ``override`` (the table's "record
anyway").

No Flask here: the web layer and the API both call these functions.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from ..core.messages import M_, N_, KunkenError, Reason
from ..core.reading import MAX_NOTE, Deal, hand_entries, has_control
from ..core.rules import RuleSet
from ..core.session import Target
from ..store import SessionRow, Store
from .board import Scoreboard, deal_scores
from .reading import check_record, record_anyway, session_players

__all__ = [
    "CSV_COLUMNS",
    "CSV_HEADINGS",
    "FORMAT",
    "DocumentError",
    "csv_rows",
    "csv_text",
    "deal_scores",
    "download_name",
    "export_document",
    "import_document",
    "read_document",
    "read_json",
]


class _NotANumber(ValueError):
    """NaN, Infinity or -Infinity in JSON text: Python reads them, JSON has no such number."""


def _reject_constant(name: str) -> None:
    raise _NotANumber(name)


#: JSON as the API and the import read it: NaN and Infinity refused. One decoder for every body
#: (``json.loads`` with an option builds a new one each call).
_STRICT_JSON = json.JSONDecoder(parse_constant=_reject_constant)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def read_json(text: str) -> Any:
    """The JSON value ``text`` holds, as the API and the import read it; a ``KunkenError`` saying what is wrong:
    not JSON, NaN or Infinity, nested too deeply, or a lone surrogate (a "\\ud800" escape: text no page, file or
    database can write; decoded UTF-8 holds none, so only such an escape makes one).

    >>> read_json('{"a": [1]}')
    {'a': [1]}
    >>> read_json("[NaN]")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.messages.KunkenError: This is not valid JSON: NaN is not a JSON number.
    """
    if text.startswith("\ufeff"):  # a second byte-order mark (json.loads's own check, which the decoder lacks)
        raise KunkenError(Reason("json_bom"))
    try:
        value = _STRICT_JSON.decode(text)
        if _SURROGATE_ESCAPE.search(text) is not None:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as err:
        raise KunkenError(Reason("json_invalid", {"line": err.lineno, "column": err.colno})) from None
    except UnicodeEncodeError:
        raise KunkenError(Reason("json_not_unicode")) from None
    except RecursionError:
        raise KunkenError(Reason("json_too_deep")) from None
    except _NotANumber as err:
        raise KunkenError(Reason("json_number", {"value": str(err)})) from None
    except ValueError:  # a number of more than 4,300 digits
        raise KunkenError(Reason("json_long_number")) from None
    return value


FORMAT = "kunken-scorer/v1"
MAX_DEALS = 2000
#: The years an imported date may fall in (any other date is replaced by the import's own).
MIN_YEAR, MAX_YEAR = 1900, 9000
#: The CSV's columns (the keys of ``csv_rows``), each with its heading (translated by the caller).
CSV_HEADINGS = {
    "deal": N_("Deal"),
    "player": N_("Player"),
    "plus": N_("Plus"),
    "minus": N_("Minus"),
    "score": N_("Score"),
    "total": N_("Total"),
    "went_out": N_("Went out"),
    "express": N_("Express"),
    "redeal": N_("Redeal"),
    "swaps": N_("Joker swaps"),
    "override": N_("Recorded anyway"),
    "note": N_("Note"),
}
CSV_COLUMNS = tuple(CSV_HEADINGS)


class DocumentError(KunkenError):
    """An import document that cannot be read or holds a deal that cannot be stored."""


def export_document(store: Store, session_id: str) -> dict[str, Any]:
    """The whole session as the ``kunken-scorer/v1`` JSON document (raises the store's ``NotFound``)."""
    session = store.get_session(session_id)
    deals = store.list_deals(session_id)
    return {
        "format": FORMAT,
        "id": session.id,
        "game": session.game,
        "rules": session.rules,
        "players": session.players,
        "target": session.target,
        "created_at": session.created_at,
        "ended_at": session.ended_at,
        "hand_entry": session.hand_entry,
        "deals": [{"number": d.number, "record": d.record, "override": d.override, "note": d.note} for d in deals],
    }


def _field(name: str, expected: str | Reason) -> DocumentError:
    return DocumentError(Reason("import_field", {"field": name, "expected": expected}))


def read_document(doc: Any) -> tuple[RuleSet, list[str], Target | None, list[dict[str, Any]]]:
    """Check an import document; return (rules, players, target, deals ready for the store).

    Raises ``DocumentError`` (or another ``KunkenError`` naming the bad value) and reads every
    deal with ``service.check_record``, so nothing reaches the store unless all of it is good.
    """
    if not isinstance(doc, Mapping):
        raise DocumentError(Reason("import_not_document", {}))
    if doc.get("format") != FORMAT:
        raise DocumentError(Reason("import_format", {"format": FORMAT}))
    switches = doc.get("rules") or {}
    if not isinstance(switches, Mapping):
        raise _field("rules", M_("an object of house-rule switches"))
    game = doc.get("game") or switches.get("game") or "kunken"
    if not isinstance(game, str):
        raise _field("game", M_("a game name"))
    rules = RuleSet.for_game(game, switches)
    players = session_players(rules, doc.get("players"))
    target = Target.from_dict(doc.get("target"))
    raw_deals = doc.get("deals", [])
    if not isinstance(raw_deals, list):
        raise _field("deals", M_("a list of deals"))
    if len(raw_deals) > MAX_DEALS:
        raise _field("deals", Reason("expected_at_most", {"limit": MAX_DEALS}))
    numbers: set[int] = set()
    deals = [_read_document_deal(raw, i, rules, players, numbers) for i, raw in enumerate(raw_deals, start=1)]
    return rules, players, target, deals


def _read_document_deal(raw: Any, i: int, rules: RuleSet, players: list[str], numbers: set[int]) -> dict[str, Any]:
    """Deal ``i`` (from 1) of an import document, read for the store under the session's rules (``switches``)
    and ``players``; ``numbers`` holds the deal numbers seen so far (this one is added)."""
    if not isinstance(raw, Mapping):
        raise _field(f"deals[{i - 1}]", M_("an object with record, override and note"))
    number = raw.get("number")  # the export numbers its deals 1, 2, …: one listed twice is a damaged file
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int):
            raise _field(f"deals[{i - 1}].number", M_("a whole number, 0 or more"))
        if number in numbers:
            raise DocumentError(Reason("import_deal_twice", {"field": f"deals[{i - 1}].number", "number": number}))
        numbers.add(number)
    override = raw.get("override", False)
    if override is None:
        override = False
    if not isinstance(override, bool):
        raise _field(f"deals[{i - 1}].override", M_("true or false"))
    note = raw.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
        raise _field(f"deals[{i - 1}].note", Reason("expected_text_at_most", {"limit": MAX_NOTE}))
    if note is not None and has_control(note):  # the one rule for notes, as when recording
        raise DocumentError(Reason("note_control", {"field": f"deals[{i - 1}].note"}))
    try:
        checked = check_record(rules, players, raw.get("record"), recorded_anyway=override)
        record, report = checked.record, checked.report
    except KunkenError as err:
        raise DocumentError(Reason("import_deal", {"number": i, "why": err.reason})) from None
    note = (note or "").strip() or None
    anyway = record_anyway(report, override, note)  # the one rule, as when recording: a valid deal is never marked
    if "override" in anyway.missing:
        raise DocumentError(Reason("import_deal_problems", {"number": i, "why": list(report.problems)}))
    # past that, a deal with problems is marked (one recorded anyway before a note was asked for, as an older export
    # has it, keeps its mark without one) and a valid deal is not
    return {"record": record, "override": bool(report.problems), "note": note, "scores": deal_scores(players, report)}


def import_document(
    store: Store, doc: Any, idempotency_key: str | None = None, allow: Callable[[], None] | None = None
) -> tuple[SessionRow, str | None]:
    """Store an exported session as a new session; return (session, edit token).

    Every deal is checked before anything is written, and the store writes the session with
    all its deals atomically, so a refused document leaves the database as it was. A repeated
    ``idempotency_key`` stores nothing and returns the session imported with it, token ``None``;
    ``allow`` (the address's count of sessions started) is called only when a session is made now.
    """
    rules, players, target, deals = read_document(doc)
    hand_entry = doc.get("hand_entry")
    if hand_entry is not None and hand_entry not in hand_entries(rules):
        raise _field("hand_entry", Reason("expected_one_of", {"options": ", ".join(hand_entries(rules))}))
    ended = doc.get("ended_at")
    return store.import_session(
        rules.game,
        rules.to_dict(),
        players,
        target.to_dict() if target else None,
        deals,
        created_at=_timestamp(doc.get("created_at")),
        # an ended session stays ended: one whose end cannot be read is ended as it is imported
        ended_at=_timestamp(ended) or (datetime.now(UTC).isoformat(timespec="seconds") if ended else None),
        idempotency_key=idempotency_key,
        hand_entry=hand_entry,
        allow=allow,
    )


def _timestamp(value: Any) -> str | None:
    """An exported ISO timestamp, normalised; anything else is dropped (the import is dated now)."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        parsed = datetime.fromisoformat(value)
        # A date near year 1 or 9999 overflows when a page shows it in local time: drop it.
        utc = parsed.astimezone(UTC) if parsed.tzinfo else parsed
    except (ValueError, OverflowError):
        return None
    if not MIN_YEAR <= utc.year <= MAX_YEAR:
        return None
    return parsed.isoformat()


# -- CSV ------------------------------------------------------------------------------------

#: What a spreadsheet may read as the start of a formula: = + - @, a tab or a carriage return, and the fullwidth
#: ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20), which some spreadsheets (set for East Asian input) take for them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _text_cell(value: str | None) -> str:
    """A text cell a spreadsheet will not run as a formula (a leading quote defuses it).

    >>> _text_cell("=HYPERLINK(1)"), _text_cell("-Anna"), _text_cell("Anna"), _text_cell(None)
    ("'=HYPERLINK(1)", "'-Anna", 'Anna', '')
    >>> _text_cell("＝HYPERLINK(1)"), _text_cell("＠Vera")
    ("'＝HYPERLINK(1)", "'＠Vera")
    """
    if not value:
        return ""
    return "'" + value if value.startswith(_FORMULA_START) else value


def csv_rows(board: Scoreboard) -> list[dict[str, Any]]:
    """One row per player per deal: the deal's scores, the running total and the deal's flags.

    Numbers stay numbers; names and notes are defused against spreadsheet formulas.
    """
    rows = []
    running = {name: 0 for name in board.players}
    for line, scored in zip(board.lines, board.deals, strict=True):
        for name, result in zip(board.players, line.results, strict=True):
            if result is not None and not line.redeal:
                running[name] += result.score
            rows.append(
                {
                    "deal": line.number,
                    "player": _text_cell(name),
                    "plus": result.plus if result else "",
                    "minus": result.minus if result else "",
                    "score": result.score if result else "",
                    "total": running[name],
                    "went_out": _text_cell(line.went_out),
                    "express": int(line.express),
                    "redeal": int(line.redeal),
                    "swaps": _text_cell(swaps_text(scored.deal, name) if scored.deal else None),
                    "override": int(line.override),
                    "note": _text_cell(line.note),
                }
            )
    return rows


def swaps_text(deal: Deal, name: str) -> str:
    """The joker swaps ``name`` made in ``deal``, as "K♦ → Anna 1" (card, the meld's owner and number).

    >>> from kunken_scorer import Deal
    >>> swaps_text(Deal.from_dict({"players": [{"name": "A"}], "swaps": [
    ...     {"by": "B", "from": "A", "meld": 0, "card": "kd"}]}), "B")
    'K♦ → A 1'
    """
    return "; ".join(
        f"{s.card} → {s.owner}" + ("" if s.meld is None else f" {s.meld + 1}") for s in deal.swaps if s.by == name
    )


def csv_text(board: Scoreboard, translate: Callable[[str], str] = str) -> str:
    """The CSV score sheet as text with a byte-order mark, so spreadsheet apps read it as UTF-8; the headings
    in the reader's language (``translate``: the page's gettext)."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writerow({column: translate(heading) for column, heading in CSV_HEADINGS.items()})
    writer.writerows(csv_rows(board))
    return buffer.getvalue()


def download_name(session: Mapping[str, Any], extension: str) -> str:
    """A download name made only of safe characters: game, date and the start of the id.

    >>> download_name({"id": "ab12cd34ef", "game": "kunken", "created_at": "2026-11-30T12:00:00+00:00"}, "csv")
    'kunken-2026-11-30-ab12cd34.csv'
    """
    try:  # the day in the table's time zone (the server's), as the pages show it
        day = datetime.fromisoformat(session.get("created_at") or "").astimezone().strftime("%Y-%m-%d")
    except (ValueError, OverflowError):
        day = "session"
    stem = re.sub(r"[^A-Za-z0-9_-]", "", f"{session['game']}-{day}-{session['id'][:8]}")
    return f"{stem or 'session'}.{extension}"
