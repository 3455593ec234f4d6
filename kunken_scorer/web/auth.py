"""Who may do what: the scorer's edit token (a cookie on the scorer's phone, or a Bearer header), the seat a
player's phone holds and the token of whoever started a club night; the decorators that let only the scorer
change a session."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from flask import abort, request
from werkzeug.wrappers import Response as BaseResponse

from ..service import resent
from ..store import SessionEnded, SessionRow
from .database import get_store
from .languages import gettext

#: How long a scorer's phone keeps its edit token (browsers cap cookies at 400 days).
SCORER_COOKIE_AGE = 365 * 24 * 3600

#: A response a cookie is set on (handed back as it came); what a view decorated here answers (kept as it was).
_Response = TypeVar("_Response", bound=BaseResponse)
_Answer = TypeVar("_Answer")


def scorer_cookie(session_id: str) -> str:
    """The cookie that keeps a scorer's edit token on their device."""
    return f"kunken_edit_{session_id}"


def set_scorer_cookie(response: _Response, session_id: str, token: str) -> _Response:
    """Make this device the session's scorer: keep the edit token in an httponly cookie; the response."""
    return _token_cookie(response, scorer_cookie(session_id), token, "/")


def _token_cookie(response: _Response, name: str, value: str, path: str) -> _Response:
    response.set_cookie(
        name, value, max_age=SCORER_COOKIE_AGE, httponly=True, samesite="Lax", secure=request.is_secure, path=path
    )
    return response


def edit_token(session_id: str) -> str | None:
    """The edit token this request carries: a Bearer header or the scorer cookie."""
    if request.headers.get("Authorization", "").strip().partition(" ")[0].lower() == "bearer":
        return bearer_token()
    return request.cookies.get(scorer_cookie(session_id))


def can_edit(session_id: str) -> bool:
    """True when this request carries the session's edit token."""
    return get_store().check_token(session_id, edit_token(session_id))


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def scorer_session(sid: str, open_only: bool = False) -> SessionRow:
    """The session, read once, for its scorer only (and, with ``open_only``, only while it has not ended).

    An unknown session is a 404. A page wants the scorer's cookie (or a Bearer token) and answers
    403 without it; the API takes only a Bearer token (a cross-site form cannot send one): 401
    without any, 403 with another session's.
    """
    api = request.blueprint == "api"
    token = bearer_token() if api else edit_token(sid)
    session, scorer = get_store().session_for(sid, token)  # NotFound: the 404 of the page or the API
    if not scorer:
        if api and token is None:
            abort(
                401,
                description=gettext(
                    "Changing a score sheet needs its edit token: send the header “Authorization: Bearer <edit_token>”."
                ),
            )
        abort(
            403,
            description=gettext("This edit token does not belong to this score sheet.")
            if api
            else gettext("Only the scorer's phone can change this session. Ask the scorer for the scorer link."),
        )
    if open_only and session.ended_at and not _recording_resent(sid):
        raise SessionEnded()  # said before the store is asked to write (a read-only file would answer first)
    return session


#: The pages' buttons that record a deal, by endpoint: such a form sent again after the session ended, whose key
#: recorded its deal, goes on to be told so (as the API replays a key); the store writes nothing on an ended session.
RECORDING = {"views.record_deal": "save", "seats.draft": "record"}


def _recording_resent(sid: str) -> bool:
    button = RECORDING.get(request.endpoint or "")
    return bool(button and request.form.get(button)) and resent(get_store(), sid, request.form.get("form_key"))


def scorer_required(view: Callable[..., _Answer], open_only: bool = False) -> Callable[..., _Answer]:
    """Run ``view`` only for the session's scorer (``scorer_session``), passing the session as ``session``."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> _Answer:
        return view(*args, session=scorer_session(kwargs["sid"], open_only), **kwargs)

    return wrapper


def change_required(view: Callable[..., _Answer]) -> Callable[..., _Answer]:
    """``scorer_required`` for a view that changes the session: once the scorer is known, an ended session
    is turned away before the view runs."""
    return scorer_required(view, open_only=True)


def seat_cookie(session_id: str) -> str:
    """The cookie that says which seat of the session this phone holds: ``<seat>.<seat token>``."""
    return f"kunken_seat_{session_id}"


def set_seat_cookie(response: _Response, session_id: str, seat: int, token: str) -> _Response:
    """Let this phone hold ``seat``: an httponly cookie sent only to the session's own pages; the response."""
    return _token_cookie(response, seat_cookie(session_id), f"{seat}.{token}", f"/s/{session_id}")


def seat_claim(session_id: str) -> tuple[int | None, str | None]:
    """(seat, token) this phone's seat cookie names, held or not; (None, None) without one."""
    seat, _, token = request.cookies.get(seat_cookie(session_id), "").partition(".")
    if not (seat.isascii() and seat.isdigit()) or len(seat) > 3 or not token:  # "²" is a digit int() refuses
        return None, None
    return int(seat), token


def held_seat(session_id: str) -> int | None:
    """The seat this phone holds in the session (its cookie still the seat's), or None."""
    seat, token = seat_claim(session_id)
    if seat is None or get_store().seat_of(session_id, token) != seat:
        return None
    return seat


def night_cookie(night_id: str) -> str:
    """The cookie that keeps a club night's token on the phone that started it."""
    return f"kunken_night_{night_id}"


def set_night_cookie(response: _Response, night_id: str, token: str) -> _Response:
    """Let this phone hold the night's scorer links: an httponly cookie sent only to the night's pages."""
    return _token_cookie(response, night_cookie(night_id), token, f"/nights/{night_id}")


def night_token(night_id: str) -> str | None:
    """The night's token this request carries: a Bearer header (the API) or the night's cookie (the pages)."""
    return bearer_token() if request.path.startswith("/api/") else request.cookies.get(night_cookie(night_id))
