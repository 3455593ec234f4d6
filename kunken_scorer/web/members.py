"""A club's data is its members' (issue 46): the one gate that keeps the pages and answers showing the club's data
across sessions for its members, the invite link a phone opens to become one, and the page a member shows to
invite another. Adapters over ``service.members``.

With ``KUNKEN_MEMBERS`` on (by default behind an ``https://`` public address), ``MEMBERS_ONLY`` lists every
endpoint that shows who played whom across sessions; everyone else gets the members-only page (403, or a JSON
``error`` in the API). A session's own links (view, scorer, seats, its summary and exports) are not listed: a guest
at the table needs no membership. A night's pages let in, besides members, whoever holds the night's token or the
scorer cookie of one of its tables. The home page keeps its start form and join-by-code for everyone and lists
its recent sessions only to members (``club_recent``). With it off, nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, current_app, g, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..service import members
from ..service.background import StartupError
from ..store import RecentNight, SessionRow
from .auth import SCORER_COOKIE_AGE, night_token, scorer_cookie
from .database import get_store
from .errors import error_response
from .languages import gettext, wants_json
from .links import public_base_url
from .security import no_store
from .wording import go_to

bp = Blueprint("members", __name__)

#: The cookie that makes a phone one of the club's members (its pass, signed with the club key).
MEMBER_COOKIE = "kunken_member"

#: How many recent sessions the home page lists (to members, when members are on).
RECENT = 12


def members_on() -> bool:
    """True when the club's data is for its members only on this server (``init_app`` read the setting)."""
    return bool(current_app.config.get("MEMBERS"))


def club_view() -> str:
    """How this request sees the club's data: ``"off"`` (no members on this server: everyone sees everything),
    ``"member"`` (a phone that opened an invite link) or ``"stranger"``; looked up once a request."""
    if not members_on():
        return "off"
    if "club_view" not in g:
        member = members.is_member(get_store(), request.cookies.get(MEMBER_COOKIE))
        g.club_view = "member" if member else "stranger"
    return str(g.club_view)


def club_recent() -> list[SessionRow]:
    """The home page's recent sessions: for whoever may see the club's data, else none."""
    return [] if club_view() == "stranger" else get_store().recent_sessions(RECENT)


#: How many recent club nights the home page lists.
RECENT_NIGHTS = 6


def club_recent_nights() -> list[RecentNight]:
    """The home page's recent club nights: for whoever may see the club's data, else none."""
    return [] if club_view() == "stranger" else get_store().recent_nights(RECENT_NIGHTS)


def _holds_night() -> bool:
    """True when the request holds the night's token (its owner link) or the scorer cookie of one of its tables."""
    nid, prefix = str((request.view_args or {}).get("nid", "")), scorer_cookie("")
    scorers = {name.removeprefix(prefix): value for name, value in request.cookies.items() if name.startswith(prefix)}
    return members.runs_night(get_store(), nid, night_token(nid), scorers)


#: Every endpoint that shows the club's data across sessions (players, ratings, head to head, a night's tables and
#: standings), in this one place, with what else lets a request in (None: members only). A page or answer added
#: later that lists several sessions, or exports them, belongs here.
MEMBERS_ONLY: dict[str, Callable[[], bool] | None] = {
    "summary.players": None,
    "summary.players_h2h": None,
    "api.players": None,
    "api.players_h2h": None,
    "nights.night": _holds_night,
    "nights.room": _holds_night,
    "nights.live": _holds_night,
    "nights.summary": _holds_night,
    "api.nights.get_night": _holds_night,
    "members.invite": None,
}


def members_only_text() -> str:
    """What a stranger is told at a members-only page or answer."""
    return gettext("This is for the club's members; ask a member for an invite link.")


def members_gate() -> BaseResponse | tuple[str, int] | None:
    """Before every request: a members-only endpoint (``MEMBERS_ONLY``) asked by a stranger is answered 403, the
    members-only page or the API's ``{"error": ...}``; anything else goes on (None)."""
    endpoint = request.endpoint or ""
    if endpoint not in MEMBERS_ONLY or club_view() != "stranger":
        return None
    holder = MEMBERS_ONLY[endpoint]
    if holder is not None and holder():
        return None
    if wants_json():
        return error_response(403, members_only_text())
    return render_template("members_only.html", message=members_only_text()), 403


def club_headers(response: Any) -> Any:
    """After every request, with members on: an answer that depends on the member cookie says so (``Vary:
    Cookie``), and a members-only one is never kept by a shared cache (``private``)."""
    if members_on() and (request.endpoint in MEMBERS_ONLY or request.endpoint == "views.home"):
        response.vary.add("Cookie")
        if request.endpoint in MEMBERS_ONLY and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "private"
    return response


def init_app(app: Flask) -> None:
    """Read ``KUNKEN_MEMBERS`` once (a ``StartupError`` saying what it takes), and put the gate, the invite pages
    and ``club_view`` for the templates in place."""
    try:
        app.config["MEMBERS"] = members.members_required(app.config.get("MEMBERS"), app.config.get("PUBLIC_URL"))
    except members.MembersSettingError as err:
        raise StartupError(str(err)) from None
    app.register_blueprint(bp)
    app.before_request(members_gate)
    app.after_request(club_headers)
    app.jinja_env.globals["club_view"] = club_view


# -- the pages ---------------------------------------------------------------------------------------


def invite_url(token: str) -> str:
    """The invite link another phone opens (or scans) to become a member."""
    return public_base_url() + url_for("members.join", token=token)


@bp.get(f"{members.INVITE_PATH}<token>")
def join(token: str) -> BaseResponse | tuple[str, int]:
    """An invite link: the phone opening it becomes one of the club's members (a long-lived cookie), then home."""
    no_store()
    try:
        member_pass = members.join(get_store(), token)
    except members.InviteRefused as err:
        return render_template("members_only.html", message=gettext(err.message), refused=True), 403
    message = gettext("This phone is now one of the club's members: it sees the players, the nights and the sessions.")
    response = go_to("views.home", message)
    response.set_cookie(
        MEMBER_COOKIE,
        member_pass,
        max_age=SCORER_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
        path="/",
    )
    return response


@bp.get("/members/invite")
def invite() -> str:
    """A member's phone shows an invite link and its QR code, for another phone to join (members only)."""
    no_store()  # the page carries a link that makes a member
    if not members_on():
        return render_template("members_invite.html", url=None, expires=None)
    made = members.make_invite(get_store())
    expires = datetime.fromtimestamp(made.expires, UTC).isoformat()  # a stored time, as the filters read one
    return render_template("members_invite.html", url=invite_url(made.token), expires=expires, days=members.INVITE_DAYS)
