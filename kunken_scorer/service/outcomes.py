"""What a use case comes to: one small type per outcome, which the pages and the API each put in their own words.

A use case returns one of these instead of raising, for every outcome a person is told about in its own way (a
deal refused for its problems, a change another phone made meanwhile). Failures that every adapter answers the
same way stay exceptions, answered by the one table of ``web.errors``: an unknown session (``NotFound``, 404), an
ended one (``SessionEnded``, 409), a database that cannot be written (``StorageUnavailable``, 503).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.deal import DealReport
from ..core.messages import Reason
from ..store import DealRow, SessionRow


@dataclass(frozen=True)
class Checked:
    """A deal read and checked by the core: its canonical record and the core's report."""

    record: dict[str, Any]
    report: DealReport


@dataclass(frozen=True)
class Waiting:
    """The players' draft is not complete: the players whose part is missing."""

    players: tuple[str, ...]


@dataclass(frozen=True)
class Recorded:
    """A deal is stored: ``created`` False when the same key had stored it before (a double tap, a retry), or when
    another phone made exactly this change. ``answer`` is the API's answer (kept for a retry with the same key)."""

    #: the deal's number (None: a replayed deal deleted since)
    number: int | None
    created: bool
    answer: dict[str, Any]


@dataclass(frozen=True)
class Edited:
    """A recorded deal was changed (``created`` False: another phone had made exactly this change)."""

    deal: DealRow
    created: bool = True


@dataclass(frozen=True)
class Refused:
    """A deal with problems, sent without what recording it anyway needs (``missing``: "override", "note")."""

    report: DealReport
    missing: tuple[str, ...]


@dataclass(frozen=True)
class Changed:
    """Nothing was stored: another phone changed what this request was made from. ``version`` is the session's (or
    the draft's) version now; ``current`` the deal as it is now when an edit met another edit (None: deleted)."""

    version: int | None = None
    current: DealRow | None = None
    deleted: bool = False
    #: a deal form filled in from the players' parts met a part written since (its scorer has not seen it)
    parts_changed: bool = False


@dataclass(frozen=True)
class KeyClash:
    """The request's key (a form's, an Idempotency-Key) was used before for another deal: nothing was stored."""


@dataclass(frozen=True)
class Unseen:
    """Nothing was changed: the request did not say which version of the session (or revision of the deal) it was
    made from, so it could not be checked against the other phones' changes."""


@dataclass(frozen=True)
class Done:
    """A change to the deals (undo, redo, delete) was made: the deal it concerned (None: there was nothing to do)."""

    deal: DealRow | None


@dataclass(frozen=True)
class Created:
    """A session was started (or imported): its row, and its edit token (None: the same key started it before)."""

    session: SessionRow
    token: str | None


@dataclass(frozen=True)
class NotImported:
    """An import document holds a deal with problems the table did not record anyway: nothing was stored."""

    reason: Reason


@dataclass(frozen=True)
class TokenMade:
    """A new edit token; the old one, and every phone holding it, stopped at once."""

    token: str


@dataclass(frozen=True)
class TokenStale:
    """The token the request came with is no longer the session's (another phone made a new one): nothing changed."""


@dataclass(frozen=True)
class Ended:
    """The session is ended (``already``: it had ended before)."""

    already: bool


@dataclass(frozen=True)
class SeatTaken:
    """This phone now holds the seat: its seat token; ``took_over`` when another phone held it; ``again`` when this
    phone held it already."""

    token: str
    took_over: bool
    again: bool


@dataclass(frozen=True)
class SeatHeldBy:
    """Another phone holds the seat and the request may not move it (``code``: None, no move code was sent;
    ``"wrong"``, the one sent is wrong, used or expired; ``"locked"``, the seat's code took too many wrong tries)."""

    code: str | None


@dataclass(frozen=True)
class MoveCode:
    """A one-time code and link secret that move a held seat to another phone, until ``expires_at``."""

    code: str
    link: str
    expires_at: str


@dataclass(frozen=True)
class PartSaved:
    """A seat's part is stored (``revision``: its new revision)."""

    revision: int


@dataclass(frozen=True)
class PartStale:
    """Nothing was saved: the part was written by ``written_by`` since the revision the writer saw."""

    written_by: str | None


@dataclass(frozen=True)
class DraftMoved:
    """Nothing was saved: the deal the part was for has been recorded (or the deals changed); the draft is now for
    deal ``deal``."""

    deal: int


#: Every outcome of recording a deal (new, or from the players' draft).
Recording = Recorded | Refused | Changed | KeyClash | Waiting
