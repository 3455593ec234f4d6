"""A club night on paper and in files: each round's printable table cards, and the whole night as one document
(JSON) and one score sheet (CSV). The pages and the API both call these.

- ``night_document``: the night as the ``kunken-night`` JSON document (``GET /nights/<id>/export.json`` and
  ``GET /api/v1/nights/<id>/export`` send the same one): its settings, every round's tables with their totals and
  place points, and the standings in the night's ranking. Never a token: anyone who may see the night may
  download it;
- ``night_csv_rows`` and ``night_csv_text``: the CSV, one rectangle (a row per player per table, the night's
  standing repeated on each of the player's rows), so that a spreadsheet sorts and filters it and any CSV reader
  reads it; names defused against spreadsheet formulas as the session's CSV does;
- ``night_download_name``: a download's file name, the night's date in it;
- ``round_cards``: the cards of one round's tables, with each table's edit token for the holder of the night's
  token only (``table_tokens``).

No Flask here: the web layer makes the links and puts the words.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.messages import N_
from ..core.nights import table_results
from ..store import NightRow, Store
from .exports import _text_cell, download_name
from .nights import NightBoard, NightTable, is_night_owner, table_tokens

__all__ = [
    "CSV_COLUMNS",
    "CSV_HEADINGS",
    "FORMAT",
    "VERSION",
    "NoSuchRound",
    "RoundCards",
    "night_csv_rows",
    "night_csv_text",
    "night_document",
    "night_download_name",
    "round_cards",
]

#: The JSON document's ``format`` and ``version``: a reader checks both (a later version may add fields).
FORMAT, VERSION = "kunken-night", 1

#: The CSV's columns (the keys of ``night_csv_rows``), each with its heading (translated by the caller). The first
#: seven are the player's result at one table; the last three the player's standing over the whole night, the
#: same on each of that player's rows.
CSV_HEADINGS = {
    "round": N_("Round"),
    "table": N_("Table"),
    "seat": N_("Seat"),
    "player": N_("Player"),
    "total": N_("Total"),
    "place_points": N_("Place points"),
    "deals": N_("Deals"),
    "night_place": N_("Place in the night"),
    "night_total": N_("Total in the night"),
    "night_points": N_("Place points in the night"),
}
CSV_COLUMNS = tuple(CSV_HEADINGS)


def _place_points(table: NightTable) -> dict[str, float | None]:
    """The table's place points by player in seat order, to one decimal as every page shows them; None for each
    player before the table's first deal (a table that has not played has no places)."""
    deals = table.board.status.deals_played
    results = table_results(table.round, table.number, table.board.totals, deals)
    return {r.name: None if r.points is None else round(r.points, 1) for r in results}


def _table(table: NightTable) -> dict[str, Any]:
    return {
        "table": table.number,
        "session_id": table.session_id,
        "players": list(table.players),
        "deals": table.board.status.deals_played,
        "ended": table.board.ended,
        "totals": table.board.totals,
        "place_points": _place_points(table),
    }


def night_document(board: NightBoard) -> dict[str, Any]:
    """The night ``board`` as the ``kunken-night`` document: its settings (``night``), every round's tables in
    order (each table's session id, players in seat order, deals played, whether it ended, totals and place points
    by player), and the ``standings`` in the night's ranking (``NightBoard.ranked``; ``place`` in that ranking).
    Only what the night's page shows anyone: no token of the night or of a table."""
    night = board.night
    return {
        "format": FORMAT,
        "version": VERSION,
        "night": {
            "id": night.id,
            "name": night.name,
            "game": night.game,
            "rules": night.rules,
            "ranking": night.ranking,
            "created_at": night.created_at,
            "ended_at": night.ended_at,
        },
        "rounds": [
            {"round": number, "tables": [_table(t) for t in tables]}
            for number, tables in enumerate(board.rounds, start=1)
        ],
        "standings": [
            {"place": board.place(s), "name": s.name, "total": s.total, "points": s.points, "deals": s.deals}
            for s in board.ranked
        ],
    }


def night_csv_rows(board: NightBoard) -> list[dict[str, Any]]:
    """One row per player per table, rounds and tables in order, players in seat order: the player's total, place
    points (blank before the table's first deal) and the table's deals, then the player's standing over the night.
    Numbers stay numbers; names are defused against spreadsheet formulas."""
    standing = {s.name: (board.place(s), s.total, s.points) for s in board.ranked}
    rows = []
    for tables in board.rounds:
        for table in tables:
            points = _place_points(table)
            for seat, (name, total) in enumerate(table.board.totals.items(), start=1):
                place, night_total, night_points = standing[name]
                rows.append(
                    {
                        "round": table.round,
                        "table": table.number,
                        "seat": seat,
                        "player": _text_cell(name),
                        "total": total,
                        "place_points": "" if points[name] is None else points[name],
                        "deals": table.board.status.deals_played,
                        "night_place": place,
                        "night_total": night_total,
                        "night_points": night_points,
                    }
                )
    return rows


def night_csv_text(board: NightBoard, translate: Callable[[str], str] = str) -> str:
    """The night's CSV as text with a byte-order mark (spreadsheet apps then read it as UTF-8), the headings in the
    reader's language (``translate``: the page's gettext)."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writerow({column: translate(heading) for column, heading in CSV_HEADINGS.items()})
    writer.writerows(night_csv_rows(board))
    return buffer.getvalue()


def night_download_name(night: NightRow, extension: str) -> str:
    """A download's name, of safe characters only: the game, "night", the day it started and the start of its id
    (``kunken-night-2026-11-30-ab12cd34.csv``), as a session's download is named."""
    return download_name({"id": night.id, "game": f"{night.game}-night", "created_at": night.created_at}, extension)


class NoSuchRound(LookupError):
    """A round the night does not have (yet): ``rounds`` is how many it has."""

    def __init__(self, round_no: int, rounds: int) -> None:
        super().__init__(round_no)
        self.round_no, self.rounds = round_no, rounds


@dataclass(frozen=True)
class RoundCards:
    """The cards of round ``round`` of a night: its tables in order, ``owner`` when the request holds the night's
    token, and then each table's edit token by session id (a table whose scorer link was made anew since is left
    out: its old token no longer works)."""

    board: NightBoard
    round: int
    tables: tuple[NightTable, ...]
    owner: bool
    tokens: dict[str, str]


def round_cards(store: Store, board: NightBoard, round_no: int, token: str | None) -> RoundCards:
    """The cards of round ``round_no`` of the night ``board`` for a request carrying ``token`` (the night's, another
    or none); a ``NoSuchRound`` for a round the night does not have."""
    if not 1 <= round_no <= len(board.rounds):
        raise NoSuchRound(round_no, len(board.rounds))
    tables = board.rounds[round_no - 1]
    owner = is_night_owner(store, board.night.id, token)
    ours = {t.session_id for t in tables}
    tokens = {sid: edit for sid, edit in table_tokens(store, board, token).items() if sid in ours} if owner else {}
    return RoundCards(board, round_no, tables, owner, tokens)
