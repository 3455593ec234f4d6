"""The table app's pages: start a session, watch it, record and edit deals, undo, end.

A view reads a form, calls the core (through ``service``), calls the store, then redirects
or renders; it never computes a score. Every page works without JavaScript. Only the
scorer's phone (the edit token in its cookie) may change a session; a viewer gets 403.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, render_template, request, url_for
from flask import session as flask_session
from flask_babel import lazy_gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import service
from ..cache import Cache
from ..core.reading import hand_entries
from ..core.rules import GAMES, RuleSet
from ..service import pages
from ..store import DealRow, NotFound, RecentNight, SessionRow
from . import deltas
from .auth import can_edit, change_required, edit_token, held_seat, scorer_required, scorer_session, set_scorer_cookie
from .bodies import polled
from .database import get_store
from .forms import FORM_KEY, HAND_ENTRY_NAMES, DealForm, Placed, SessionForm, deal_form, new_form_key, switch_values
from .forms.base import hidden_number
from .languages import current_language, gettext
from .limits import creation_allowed
from .links import public_base_url, qr_code
from .members import club_recent, club_recent_nights, club_view
from .security import no_store
from .wording import deal_changed, deal_conflict, deal_saved, game_name, go_to, reason_text

bp = Blueprint("views", __name__)

# -- template helpers -------------------------------------------------------------------------


def _view_url(sid: str) -> str:
    """The address a phone opens to watch session ``sid``."""
    return public_base_url() + url_for("views.session", sid=sid)


# -- home: start a session ---------------------------------------------------------------------


def _presets() -> dict[str, dict[str, Any]]:
    """Each game's switches as the start form shows them, and the note naming the game: the page swaps
    them in when the table picks another game (static/start.js)."""
    return {
        game: {
            "rules": switch_values(game),
            "note": gettext("These are the defaults of %(game)s.", game=game_name(game)),
        }
        for game in GAMES
    }


def _render_home(
    form: SessionForm, recent: list[SessionRow] | None = None, nights: list[RecentNight] | None = None
) -> str:
    """The start page with ``form`` (a new one-time key if it holds none), the ``recent`` sessions and the recent
    ``nights`` (each read if None)."""
    if not FORM_KEY.match(form.form_key.data or ""):
        form.form_key.data = new_form_key()
    recent = club_recent() if recent is None else recent
    nights = club_recent_nights() if nights is None else nights
    return render_template("home.html", presets=_presets(), form=form, recent=recent, nights=nights)


#: Pages every phone sees alike, rendered once: by (page, what it shows, language), with their
#: one-time values (the CSRF token, a form's key) taken out and put back for each phone. The start
#: form's fifty fields, or a session page's hundred deals, cost most of a request to render.
#: pays: the home page 14.7× and a watched session page 2.2× slower without it
#: (benchmarks/README.md, "Speed tricks kept")
#: Kept per database file (``cache.Cache``): two apps on two files in one process never share a page.
_SHARED_PAGES = Cache(64)
_SLOTS = ("\x00csrf\x00", "\x00form-key\x00")


def _shared_page(key: tuple[Hashable, ...], render: Callable[[], str], form_key: str | None = None) -> str:
    """The page ``render()`` makes, rendered once per ``key`` (a page with a message to show once is not)."""
    if "_flashes" in flask_session:
        return render()
    csrf = generate_csrf()

    def make() -> str:
        page = render().replace(csrf, _SLOTS[0])
        return page.replace(form_key, _SLOTS[1]) if form_key else page

    page = _SHARED_PAGES.get(current_app.config["DATABASE"], key, make)
    page = page.replace(_SLOTS[0], csrf)
    return page.replace(_SLOTS[1], form_key) if form_key else page


@bp.get("/")
def home() -> str:
    """Start a session; the sessions played recently."""
    form_key = new_form_key()
    form_data = {**pages.start_form_data(request.args.get("game")), "form_key": form_key}
    recent = club_recent()  # read once: the page's key, and the page when it is rendered (none for a club's stranger)
    nights = club_recent_nights()
    shown = (
        tuple((r.id, r.ended_at) for r in recent),
        tuple((n.night.id, n.night.name, n.night.ended_at, n.rounds) for n in nights),
    )
    key = ("home", form_data["game"], shown, current_language(), club_view())
    return _shared_page(key, lambda: _render_home(SessionForm(formdata=None, data=form_data), recent, nights), form_key)


@bp.post("/sessions")
def create_session() -> tuple[str, int] | BaseResponse:
    """Create a session from the start form, make this phone its scorer, open its page."""
    form = SessionForm()
    if form.show_defaults.data:
        typed = [e.data or "" for e in form.players.entries]
        data = pages.start_form_data(form.game.data, typed, form.target_kind.data, form.target_value.data)
        return _render_home(SessionForm(formdata=None, data=data)), 200
    if not form.validate_on_submit():
        return _render_home(form), 422
    key = form.form_key.data if FORM_KEY.match(form.form_key.data or "") else None
    rules, players, target = form.chosen
    created = service.create_session(
        get_store(), rules, players, target, key=key, hand_entry=form.hand_entry.data, allow=creation_allowed
    )
    session, token = created.session, created.token
    if token is None:  # a double tap or a resent form: the first answer made this phone the scorer
        return go_to("views.session", sid=session.id)
    message = gettext("The session has started. Let the others scan the QR code to watch.")
    return set_scorer_cookie(go_to("views.session", message, sid=session.id), session.id, token)


# -- the session page and its live update --------------------------------------------------------


#: A session's version changes with every write, so an entry never goes stale; phones polling or reloading
#: reuse it. It pays: a changed live poll is 13.5× slower without it (benchmarks/README.md, "Speed tricks kept").
#: Kept per database file (``cache.Cache``), as the shared pages are. A phone's earlier version is looked up here
#: for the delta to the new one (``deltas``): a club night's tables, each with a few versions in two languages.
_LIVE_HTML = Cache(512)
_LIVE_VARY = ("Cookie", "Accept-Language")  # the live part is in the phone's language, and the scorer's has links


def _rendered_live(sid: str, version: int, language: str, editor: bool) -> dict[str, Any]:
    """The live part of the session in ``language``: ``{version, ended, next_deal, screen}`` (the scoreboard, chart
    and deals table as a ``deltas.Screen``)."""
    return _LIVE_HTML.get(
        current_app.config["DATABASE"], (sid, version, language, editor), lambda: _render_live(sid, editor)
    )


def _render_live(sid: str, editor: bool) -> dict[str, Any]:
    board = service.scoreboard(get_store(), sid)
    context = {"board": board, "sid": sid, "editor": editor, "rows": board.lines, "chart_image": True}
    context["edit_base"] = url_for("views.edit_deal", sid=sid, deal_id=0)[: -len("0/edit")]
    marked = (
        render_template("_scoreboard.html", live_marks=True, **context)
        + render_template("_chart.html", live_marks=True, **context)
        + render_template("_deals_card.html", live_marks=True, **context)
    )
    facts = {"version": board.version, "ended": board.ended, "next_deal": get_store().next_number(sid)}
    facts["finished"] = board.status.finished  # the target is reached: the scorer's page leads with ending it
    return {**facts, "screen": deltas.screen(marked)}


def _rendered_table(sid: str, version: int, language: str) -> dict[str, Any]:
    """The table screen's live part in ``language``: ``{version, page, screen}``."""
    base = public_base_url()

    def render() -> dict[str, Any]:
        page = pages.table_page(get_store(), sid)
        marked = render_template("_table_live.html", page=page, view_url=_view_url(sid), live_marks=True)
        return {"version": page.board.version, "page": page, "screen": deltas.screen(marked)}

    return _LIVE_HTML.get(current_app.config["DATABASE"], ("table", sid, version, language, base), render)


def _render_session(record: SessionRow, *, editor: bool, seat: int | None, undone: int | None) -> str:
    """The session page as this phone sees it: the scorer's (``editor``), a seated player's, or a viewer's."""
    sid = record.id
    page = pages.session_page(get_store(), record, editor=editor, seat=seat, undone=undone)
    rendered = _rendered_live(sid, record.version, current_language(), editor)
    live = {key: rendered[key] for key in ("version", "ended", "finished")} | {"html": Markup(rendered["screen"].html)}
    view_url = _view_url(sid)
    scorer_url = public_base_url() + url_for("views.scorer", sid=sid, token=edit_token(sid)) if editor else None
    return render_template(
        "session.html",
        page=page,
        sid=sid,
        live=live,
        view_url=view_url,
        scorer_url=scorer_url,
        token_key=new_form_key() if editor else None,
        hand_names=HAND_ENTRY_NAMES,
    )


@bp.get("/s/<sid>")
def session(sid: str) -> Response:
    """The scoreboard, the deals, the Join panel; scorers also get the write buttons."""
    store = get_store()
    record, editor = store.session_for(sid, edit_token(sid))  # the row read once, the token checked once
    my_seat = held_seat(sid)
    undone = request.args.get("undone", type=int)
    # the page's data is worked out only when it is rendered: a watching phone's is most often rendered already
    render = functools.partial(_render_session, record, editor=editor, seat=my_seat, undone=undone)
    if editor or my_seat is not None:
        page = render()
        if editor:
            no_store()  # the page shows the scorer link, token and all
    else:  # every watching phone sees the same page: rendered once per version of the session and its seats
        key = ("session", sid, record.version, store.draft_tag(sid), current_language(), public_base_url())
        page = _shared_page(key, render)
    response = Response(page)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/s/<sid>/live")
def live(sid: str) -> BaseResponse:
    """What changed in the session since the version ``since`` the phone shows (``deltas.answer``): the scoreboard
    and deals, or with ``screen=table`` the table screen; 304 while the version is unchanged."""
    version, language, since = get_store().version(sid), current_language(), request.args.get("since", type=int)
    database = current_app.config["DATABASE"]
    if request.args.get("screen") == "table":
        base = public_base_url()

        def table() -> dict[str, Any]:
            now = _rendered_table(sid, version, language)
            before = _LIVE_HTML.find(database, ("table", sid, since, language, base))
            return deltas.answer({"version": version}, now["screen"], before and before["screen"])

        return polled(str(version), table, ("Accept-Language",))
    editor = can_edit(sid)

    def session() -> dict[str, Any]:
        now = _rendered_live(sid, version, language, editor)
        before = _LIVE_HTML.find(database, (sid, since, language, editor))
        facts = {key: now[key] for key in ("version", "ended", "next_deal")}
        return deltas.answer(facts, now["screen"], before and before["screen"])

    return polled(str(version), session, _LIVE_VARY)


@bp.get("/s/<sid>/table")
def table_screen(sid: str) -> str:
    """The table screen: a laptop or TV in the middle of the table shows the totals big, who deals next,
    the last deal (its scores and melds; just after it arrives, highlighted for a few seconds) and the QR
    code to join. Read-only; when the session changes it takes the parts that changed (static/live.js) and
    highlights the new scores (static/table.js)."""
    rendered = _rendered_table(sid, get_store().version(sid), current_language())
    page, live_html = rendered["page"], Markup(rendered["screen"].html)
    return render_template("table.html", page=page, sid=sid, live_html=live_html)


@bp.get("/s/<sid>/qr.svg")
def qr(sid: str) -> Response:
    """The viewer link as an SVG QR code."""
    get_store().get_session(sid)
    svg = qr_code(_view_url(sid), gettext("QR code to join"))
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


@bp.get("/s/<sid>/scorer/<token>")
def scorer(sid: str, token: str) -> BaseResponse:
    """Open the scorer link: this phone keeps the edit token and may record deals."""
    get_store().get_session(sid)
    if not get_store().check_token(sid, token):
        abort(403, description=gettext("This scorer link is not valid for this session."))
    # the token leaves the address bar at once
    return set_scorer_cookie(go_to("views.session", gettext("This phone can now record deals."), sid=sid), sid, token)


@bp.post("/s/<sid>/token")
def new_token(sid: str) -> BaseResponse:
    """A new scorer link: the old token, and every phone holding it, stop at once; this phone keeps on.

    The store replaces the token only while this phone's is still the one (another phone's link made at
    the same moment wins, and this phone is told it no longer records); the form's one-time key makes a
    double tap, whose second tap still carries the old token, one change: both taps get the same new token."""
    key = request.form.get("form_key", "")
    made = service.new_token(get_store(), sid, edit_token(sid) or "", key if FORM_KEY.match(key) else None)
    if isinstance(made, service.TokenStale):
        scorer_session(sid)  # not (or no longer) the scorer's token: the 403 that says so
        abort(403)
    message = gettext(
        "A new scorer link was made. The old link no longer works, and phones that opened it can no longer record."
    )
    return set_scorer_cookie(go_to("views.session", message, sid=sid), sid, made.token)


# -- recording and editing a deal ------------------------------------------------------------------


def _render_deal(
    form: DealForm,
    session: SessionRow,
    deal: DealRow | None,
    *,
    status: int = 200,
    conflict: str | None = None,
    action: str | None = None,
) -> tuple[str, int]:
    page = pages.deal_page(get_store(), session, form.checked, form.body, new=deal is None)
    placed = form.place(page.report.problems) if page.report is not None else Placed()
    return render_template(
        "deal_form.html",
        form=form,
        sid=session.id,
        deal=deal,
        page=page,
        placed=placed.at,
        general=placed.general,
        conflict=conflict,
        rules_game=session.game,
        action=action or request.path,
        refused=status != 200 and bool(form.save.data),
    ), status


def _post_deal(form: DealForm, session: SessionRow, deal: DealRow | None) -> tuple[str, int] | BaseResponse:
    """Check or save a submitted deal form (new when ``deal`` is None): the form reads it and the core checks
    it (``DealForm.validate``); the table's way of entering hands is kept; Save records it or says why not."""
    if not form.validate():
        return _render_deal(form, session, deal, status=422)
    assert form.checked is not None  # validate() passed: the deal as the core read and checked it
    if not form.save.data:
        return _render_deal(form, session, deal)
    parts_seen = form.seen_parts() if deal is None else None
    ask = service.Ask(
        bool(form.override.data), form.note_text(), form.form_key.data, None, int(form.expected.data), parts_seen
    )
    outcome: service.Recorded | service.Edited | service.Refused | service.Changed | service.KeyClash
    if deal is None:
        outcome = service.record_deal(get_store(), session, form.checked, ask, reason_text)
    else:
        outcome = service.edit_deal(get_store(), session, deal.id, form.checked, ask)
    if isinstance(outcome, service.Recorded | service.Edited):
        number = outcome.number if isinstance(outcome, service.Recorded) else outcome.deal.number
        flash(deal_saved(number, outcome.created) if deal is None else deal_changed(number), "ok")
        return go_to("views.session", sid=session.id)
    if isinstance(outcome, service.Refused):
        form.mark_missing(outcome.missing)
        return _render_deal(form, session, deal, status=422)
    if isinstance(outcome, service.Changed) and outcome.parts_changed:
        return _parts_changed(session, parts_seen or {})
    if isinstance(outcome, service.KeyClash):  # a form (kept offline, a copy brought back) that recorded another deal
        form.form_key.data = new_form_key()
    elif deal is None:
        form.expected.data = str(outcome.version)
    return _render_deal(form, session, deal, status=409, conflict=deal_conflict(outcome, deal is None))


def _parts_changed(session: SessionRow, seen: dict[int, int]) -> tuple[str, int]:
    """A new deal's form met parts the players' phones wrote after it was filled in: nothing was recorded; the form
    comes back with those players' fields as their phones wrote them now (what the scorer had typed there is said),
    and the next Save records it."""
    posted = request.form.copy()
    changed = pages.parts_since(get_store(), session, seen, russian=current_language() == "ru")
    said = []
    for seat, texts in changed.items():
        field = f"players-{seat}-"
        typed = " · ".join(v for k in ("melds", "vists", "swaps", "hand") if (v := posted.get(field + k, "").strip()))
        said.append(gettext("%(name)s (you had typed: %(typed)s)", name=session.players[seat], typed=typed or "—"))
        for key, value in texts.items():
            if key != "out":  # a part's own "I went out": the deal form says who went out once
                posted[field + key] = str(value)
    posted["parts_seen"] = pages.parts_seen_text(get_store().draft(session.id).parts)
    posted.pop("save", None)
    fresh = deal_form(session.players, RuleSet.from_dict(session.rules), formdata=posted)
    fresh.validate()
    conflict = gettext(
        "Nothing was recorded: a player’s phone saved a part of this deal after this form was opened. The form now "
        "shows it, for %(names)s. Look at it, then Save.",
        names="; ".join(said),
    )
    return _render_deal(fresh, session, None, status=409, conflict=conflict)


def _deal_page(session: SessionRow, deal: DealRow | None) -> tuple[str, int] | BaseResponse:
    """The deal form, for a new deal or for ``deal``: shown (GET), or checked or saved (POST)."""
    rules = RuleSet.from_dict(session.rules)
    if request.method == "POST":
        return _post_deal(deal_form(session.players, rules), session, deal)
    data = pages.deal_form_data(get_store(), session, deal, russian=current_language() == "ru")
    return _render_deal(deal_form(session.players, rules, data=data), session, deal)


@bp.route("/s/<sid>/deals/new", methods=["GET", "POST"])
@change_required
def record_deal(sid: str, session: SessionRow) -> tuple[str, int] | BaseResponse:  # noqa: ARG001 -- sid: the URL variable, passed by name by Flask
    """Record a deal: check it (preview with every problem in words), then save it."""
    return _deal_page(session, None)


@bp.route("/s/<sid>/deals/<int:deal_id>/edit", methods=["GET", "POST"])
@change_required
def edit_deal(sid: str, deal_id: int, session: SessionRow) -> tuple[str, int] | BaseResponse:
    """Change a recorded deal (a second phone's change in between is reported, never overwritten)."""
    try:
        deal = get_store().get_deal(sid, deal_id)
    except NotFound:
        if request.method == "POST" and get_store().was_deleted(sid, deal_id):
            return _edit_of_deleted(session)
        abort(404)
    return _deal_page(session, deal)


def _edit_of_deleted(session: SessionRow) -> tuple[str, int]:
    """An edit sent for a deal deleted meanwhile: nothing saved, the typed deal kept as a new one to save."""
    form = deal_form(session.players, RuleSet.from_dict(session.rules))
    form.validate()
    form.expected.data = str(session.version)
    form.save.data = False
    conflict = gettext(
        "This deal was deleted on another phone, so your change was not saved. "
        "What you typed is kept below: Save records it as a new deal."
    )
    return _render_deal(
        form, session, None, status=409, action=url_for("views.record_deal", sid=session.id), conflict=conflict
    )


@bp.post("/s/<sid>/deals/<int:deal_id>/delete")
@change_required
def delete_deal(sid: str, deal_id: int, session: SessionRow) -> BaseResponse:  # noqa: ARG001 -- session passed by name by change_required (its check is what counts here)
    """Delete a deal (kept in the history)."""
    done = service.delete_deal(get_store(), sid, deal_id, hidden_number("revision"))
    if isinstance(done, service.Unseen):
        abort(
            400,
            description=gettext(
                "The delete form did not say which version of the deal it showed, so "
                "nothing was deleted. Open the deal again and delete it from there."
            ),
        )
    if isinstance(done, service.Changed):
        message = gettext("This deal was changed on another phone; nothing was deleted. Look at it again first.")
        return go_to("views.edit_deal", message, "error", sid=sid, deal_id=deal_id)
    if done.deal is None:
        return go_to("views.session", gettext("That deal was already deleted."), sid=sid)
    return go_to("views.session", gettext("Deal %(n)s deleted.", n=done.deal.number), sid=sid)


_UNSEEN = lazy_gettext(
    "The form did not say which version of the session it showed, so nothing was changed. "
    "Reload the page and try again."
)


@bp.post("/s/<sid>/undo")
@change_required
def undo(sid: str, session: SessionRow) -> BaseResponse:  # noqa: ARG001 -- session passed by name by change_required (its check is what counts here)
    """Take back the last deal (kept in the history)."""
    done = service.undo_deal(get_store(), sid, hidden_number("expected_version"))
    if isinstance(done, service.Unseen):
        abort(400, description=str(_UNSEEN))
    if isinstance(done, service.Changed):
        message = gettext(
            "The session changed since this page was loaded (a second tap, or another phone); nothing was undone. "
            "Look at the deals and try again."
        )
        return go_to("views.session", message, "error", sid=sid)
    if done.deal is None:
        return go_to("views.session", gettext("There is no deal to undo."), sid=sid)
    message = gettext("Deal %(n)s was undone.", n=done.deal.number)
    return go_to("views.session", message, sid=sid, undone=done.deal.id)


@bp.post("/s/<sid>/hand-entry")
@change_required
def set_hand_entry(sid: str, session: SessionRow) -> BaseResponse:
    """The table's way of entering the cards left in hand, for every deal form and seated phone from now on."""
    ways = hand_entries(RuleSet.from_dict(session.rules))
    chosen = request.form.get("hand_entry", "")
    if chosen not in ways:
        names = ", ".join(str(HAND_ENTRY_NAMES[way]) for way in ways)
        return go_to("views.session", gettext("Choose one of: %(ways)s.", ways=names), "error", sid=sid)
    service.set_hand_entry(get_store(), session, chosen)
    message = gettext("From now on, cards left in hand are entered: %(way)s.", way=HAND_ENTRY_NAMES[chosen])
    return go_to("views.session", message, sid=sid)


@bp.post("/s/<sid>/redo")
@change_required
def redo(sid: str, session: SessionRow) -> BaseResponse:  # noqa: ARG001 -- session passed by name by change_required (its check is what counts here)
    """Bring back the deal the last undo took back (offered on the session page right after the undo)."""
    done = service.redo_deal(get_store(), sid, hidden_number("deal_id") or 0, hidden_number("expected_version"))
    if isinstance(done, service.Unseen):
        abort(400, description=str(_UNSEEN))
    if isinstance(done, service.Changed):
        message = gettext(
            "The session changed on another phone since the undo; the deal was not brought back. "
            "Record it again if it is missing."
        )
        return go_to("views.session", message, "error", sid=sid)
    if done.deal is None:
        return go_to("views.session", gettext("There is no undone deal to bring back."), sid=sid)
    return go_to("views.session", gettext("Deal %(n)s is back.", n=done.deal.number), sid=sid)


@bp.post("/s/<sid>/end")
@scorer_required
def end_session(sid: str, session: SessionRow) -> BaseResponse:
    """End the session: it stays readable, nothing can be changed."""
    if service.end_session(get_store(), session).already:
        return go_to("views.session", gettext("This session has already ended."), sid=sid)
    return go_to("views.session", gettext("The session has ended. It stays readable here."), sid=sid)


@bp.get("/s/<sid>/history")
def history(sid: str) -> str:
    """Every change to the session: what, and when."""
    page = pages.history_page(get_store(), sid)
    return render_template("history.html", board=page.board, sid=sid, entries=page.entries, numbers=page.numbers)
