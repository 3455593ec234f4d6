"""Seats: which phone holds which seat, and the one-time move codes (and links) that pass a seat on."""

from __future__ import annotations

import hmac
import secrets
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .db import Database, _hash_token, _now
from .errors import SeatHeld
from .rows import MoveCode

#: How long a seat's move code (and its one-time link) works, how many digits it has, and how many wrong
#: tries it takes before it stops working: one guess in 200,000 per code, and a new code needs the holder
#: or the scorer.
MOVE_CODE_LIFETIME = timedelta(minutes=10)
MOVE_CODE_DIGITS = 6
MOVE_CODE_TRIES = 5


def _move_code_hash(session_id: str, seat: int, code: str) -> str:
    """A move code as the store keeps it: hashed together with its session and seat."""
    return _hash_token(f"{session_id}:{seat}:{''.join(code.split())}")  # "123 456" as typed is 123456


class SeatsMixin(Database):
    """The seats and their move codes."""

    # Defined by another mixin of Store; declared here for the type checker only.
    if TYPE_CHECKING:

        def _seat_row(self, session_id: str, seat: int) -> dict[str, Any]: ...

        def _touch_draft(self, session_id: str, now: str, end: dict[str, Any] | None = None) -> int: ...

    def take_seat(
        self,
        session_id: str,
        seat: int,
        *,
        token: str | None = None,
        scorer: bool = False,
        move: str | None = None,
        leave: str | None = None,
    ) -> tuple[str, bool]:
        """Give ``seat`` to this phone; return (its seat token, True if another phone held the seat). With ``leave``,
        the token of another seat this phone holds, that seat is freed once this one is taken (a page's phone
        holds one seat: its cookie names one).

        The one rule of who may take a seat (the pages and the API both come here):

        - a free seat: anyone;
        - the seat this phone holds already (``token`` is its seat token): nothing changes, the same token back;
        - a seat another phone holds: the scorer (``scorer``: the caller checked the edit token), or a phone
          sending ``move``, the seat's move code or the secret of its one-time link, which it uses up. The old
          phone's token stops at once; the part already entered stays.

        Anyone else gets ``SeatHeld`` and nothing changes, except that a wrong ``move`` counts against the
        seat's move code: after ``MOVE_CODE_TRIES`` wrong ones it stops working (ask for a new one).
        """
        refused: SeatHeld | None = None
        with self._write():
            self._check_writable(self._seat_row(session_id, seat))
            now = _now()
            held = self._one("SELECT holder_hash FROM seats WHERE session_id = ? AND seat = ?", [session_id, seat])
            if held is not None:
                if token and hmac.compare_digest(_hash_token(token), held["holder_hash"]):
                    return token, False
                code = self._use_move(session_id, seat, move, now) if move and not scorer else None
                if not scorer and code != "used":
                    refused = SeatHeld(seat, code=code)
            if refused is None:
                if leave:
                    self._leave_seats(session_id, seat, leave)
                token = secrets.token_urlsafe(18)
                self.db.table("seats").upsert(
                    {"session_id": session_id, "seat": seat, "holder_hash": _hash_token(token), "taken_at": now},
                    pk=("session_id", "seat"),
                )
                self._drop_move(session_id, seat)  # a code belongs to one phone's holding of the seat
                self._touch_draft(session_id, now)
        if refused is not None:  # raised after the write: a wrong try is kept
            raise refused
        assert token is not None
        return token, held is not None

    def _leave_seats(self, session_id: str, seat: int, token: str) -> None:
        """Free every seat but ``seat`` that ``token`` holds, with its move code."""
        left = self.db.execute(
            "DELETE FROM seats WHERE session_id = ? AND seat != ? AND holder_hash = ? RETURNING seat",
            [session_id, seat, _hash_token(token)],
        ).fetchall()
        for (other,) in left:
            self._drop_move(session_id, other)

    def _use_move(self, session_id: str, seat: int, move: str, now: str) -> str:
        """``"used"`` when ``move`` is the seat's live move code (or its link's secret); else ``"wrong"`` (counted
        against the code), or ``"locked"`` once the code has taken ``MOVE_CODE_TRIES`` wrong tries (this one or
        earlier ones): it works no more, even typed right, and the phone is told so, not "wrong"."""
        row = self._one(
            "SELECT code_hash, link_hash, expires_at, wrong_tries FROM seat_moves WHERE session_id = ? AND seat = ?",
            [session_id, seat],
        )
        if row is None or row["expires_at"] <= now:
            return "wrong"
        if row["wrong_tries"] >= MOVE_CODE_TRIES:
            return "locked"
        # both compared, in constant time: neither answer says which one was close
        right_code = hmac.compare_digest(_move_code_hash(session_id, seat, move), row["code_hash"])
        right_link = hmac.compare_digest(_hash_token(move), row["link_hash"])
        if right_code or right_link:
            return "used"
        self.db.execute(
            "UPDATE seat_moves SET wrong_tries = wrong_tries + 1 WHERE session_id = ? AND seat = ?", [session_id, seat]
        )
        return "locked" if row["wrong_tries"] + 1 >= MOVE_CODE_TRIES else "wrong"

    def _drop_move(self, session_id: str, seat: int) -> None:
        self.db.execute("DELETE FROM seat_moves WHERE session_id = ? AND seat = ?", [session_id, seat])

    def new_move_code(self, session_id: str, seat: int, token: str | None = None) -> MoveCode | None:
        """A new one-time move code for ``seat``, replacing the seat's earlier one: ``code`` to type, ``link`` the
        secret of the one-time link (only their hashes are kept), and when they stop working.

        With ``token``, only for the phone holding the seat; without, the caller is the scorer (it checked the
        edit token). None when nobody holds the seat, or ``token`` does not hold it.
        """
        with self._write():
            self._check_writable(self._seat_row(session_id, seat))
            held = self._one("SELECT holder_hash FROM seats WHERE session_id = ? AND seat = ?", [session_id, seat])
            if held is None or (token is not None and not hmac.compare_digest(_hash_token(token), held["holder_hash"])):
                return None
            code = f"{secrets.randbelow(10**MOVE_CODE_DIGITS):0{MOVE_CODE_DIGITS}d}"
            link = secrets.token_urlsafe(16)  # 128 random bits: the link cannot be guessed, the code is counted
            now = datetime.now(UTC)
            expires_at = (now + MOVE_CODE_LIFETIME).isoformat(timespec="microseconds")
            self.db.execute(
                "INSERT INTO seat_moves (session_id, seat, code_hash, link_hash, created_at, expires_at, wrong_tries)"
                " VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT (session_id, seat) DO UPDATE SET"
                " code_hash = excluded.code_hash, link_hash = excluded.link_hash, created_at = excluded.created_at,"
                " expires_at = excluded.expires_at, wrong_tries = 0",
                [
                    session_id,
                    seat,
                    _move_code_hash(session_id, seat, code),
                    _hash_token(link),
                    now.isoformat(timespec="microseconds"),
                    expires_at,
                ],
            )
        return MoveCode(code=code, link=link, expires_at=expires_at)

    def move_of(self, session_id: str, link: str) -> int | None:
        """The seat a one-time link's secret moves, while it still works (unused, in time, not tried too often);
        None otherwise. Reads only: the link's page changes nothing."""
        row = self._one(
            "SELECT seat, expires_at, wrong_tries FROM seat_moves WHERE session_id = ? AND link_hash = ?",
            [session_id, _hash_token(link)],
        )
        if row is None or row["expires_at"] <= _now() or row["wrong_tries"] >= MOVE_CODE_TRIES:
            return None
        seat: int = row["seat"]
        return seat

    def free_seat(self, session_id: str, seat: int, token: str | None = None) -> bool:
        """Free ``seat`` (only if ``token`` holds it, when given); return True if it was held."""
        with self._write():
            self._seat_row(session_id, seat)
            if token is not None and self.seat_of(session_id, token) != seat:
                return False
            gone = self.db.execute("DELETE FROM seats WHERE session_id = ? AND seat = ?", [session_id, seat]).rowcount
            self._drop_move(session_id, seat)
            if gone:
                self._touch_draft(session_id, _now())
            return bool(gone)

    def written_seats(self, session_id: str) -> list[int]:
        """The seats whose part of the next deal is saved in the draft, in seat order."""
        return [
            r[0]
            for r in self.db.execute("SELECT seat FROM draft_parts WHERE session_id = ? ORDER BY seat", [session_id])
        ]

    def taken_seats(self, session_id: str) -> list[int]:
        """The seats a phone holds, in seat order."""
        return [
            r[0] for r in self.db.execute("SELECT seat FROM seats WHERE session_id = ? ORDER BY seat", [session_id])
        ]

    def seat_of(self, session_id: str, token: str | None) -> int | None:
        """The seat this seat token holds in the session, or None."""
        if not token:
            return None
        row = self.db.execute(
            "SELECT seat FROM seats WHERE session_id = ? AND holder_hash = ?", [session_id, _hash_token(token)]
        ).fetchone()
        return row[0] if row else None
