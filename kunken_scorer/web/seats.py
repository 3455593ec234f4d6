"""Every player enters their own part: seats, the draft of the next deal, and recording it.

A phone that joined by the viewer link takes a seat ("this is me") and gets a seat cookie; it
then writes that seat's part of the draft. The scorer's phone sees every seat's state, can
write any part, free a seat, discard the draft, and records the deal with one tap. The rules
live in the core (``draft.check_draft``); the store keeps the draft; this module only reads
forms and renders.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import service
from ..service.kept import CorrectionSent, open_corrections, send_correction
from ..service.seats import (
    MAX_MOVE_CODE,
    AskedPart,
    NotRead,
    move_link_page,
    name_at,
    part_page,
    record_shown_draft,
    refuse_part,
    seat_name,
    waiting_reason,
    write_asked_part,
)
from ..store import NotFound, SessionRow
from .auth import (
    can_edit,
    edit_token,
    held_seat,
    scorer_required,
    scorer_session,
    seat_claim,
    seat_cookie,
    set_seat_cookie,
)
from .bodies import polled
from .database import get_store
from .errors import refuse_ended
from .forms import DraftForm, PartForm, new_form_key, part_form
from .languages import current_language, gettext
from .links import move_url
from .security import no_store
from .wording import deal_saved, go_to, part_not_saved, reason_text, seat_held_message

bp = Blueprint("seats", __name__)


def _generation(form: PartForm | DraftForm) -> int | None:
    """Which draft the form was filled in for (a deal deleted meanwhile renumbers the deal, not the draft);
    None from a page made before forms said so (the deal's number is checked then)."""
    return int(form.draft.data) if form.draft.data else None


# -- seats -------------------------------------------------------------------------------------


@bp.post("/s/<sid>/seat")
def take_seat(sid: str) -> BaseResponse:
    """ "This is me": this phone takes a seat. A seat another phone holds moves only for the scorer or with
    the seat's move code (``store.take_seat`` keeps the rule); anyone else is told whom to ask."""
    seat = request.form.get("seat", type=int)
    store = get_store()
    names = store.get_session(sid).players
    if seat is None or not 0 <= seat < len(names):
        return go_to("views.session", gettext("Choose one of the players."), "error", sid=sid)
    claimed, mine = seat_claim(sid)
    own, other = (mine, None) if claimed == seat else (None, mine)  # a phone has one seat: it leaves the other
    move = "".join((request.form.get("move_code") or "").split())[:MAX_MOVE_CODE] or None
    name = names[seat]
    taken = service.take_seat(store, sid, seat, token=own, scorer=can_edit(sid), move=move, leave=other)
    if isinstance(taken, service.SeatHeldBy):
        return go_to("views.session", seat_held_message(name, taken.code), "error", sid=sid, held=seat)
    if taken.took_over:
        message = gettext("This phone is now %(name)s. Another phone held this seat: it has been told.", name=name)
    elif taken.again:
        message = gettext("This phone already holds the seat of %(name)s.", name=name)
    else:
        message = gettext("This phone is now %(name)s: enter your part of each deal here.", name=name)
    return set_seat_cookie(go_to("seats.part", message, sid=sid, seat=seat), sid, seat, taken.token)


@bp.route("/s/<sid>/seats/<int:seat>/move", methods=["GET", "POST"])
def move_seat(sid: str, seat: int) -> str | BaseResponse:
    """A one-time move code and link for a held seat: made by the phone holding it, or by the scorer. Its page
    is the answer to the POST; a GET (the language switched on it, a reload) makes no code and goes back."""
    store = get_store()
    name, scorer = seat_name(store, sid, seat), can_edit(sid)
    back = url_for("seats.draft", sid=sid) if scorer else url_for("seats.part", sid=sid, seat=seat)
    if request.method == "GET":
        return redirect(back, 303)
    claimed, token = seat_claim(sid)
    if not scorer and claimed != seat:
        abort(
            403,
            description=gettext("Only the phone holding the seat of %(name)s, or the scorer, can move it.", name=name),
        )
    made = service.move_seat(store, sid, seat, None if scorer else token)
    if made is None:
        if scorer:
            message = gettext("Nobody holds the seat of %(name)s: any phone can take it, no code needed.", name=name)
            return go_to("seats.draft", message, "error", sid=sid)
        return redirect(back, 303)  # this phone lost the seat meanwhile: its page says so
    no_store()  # the page shows the code and the link
    url = move_url(sid, made.link)
    return render_template("seat_move.html", sid=sid, name=name, made=made, url=url, back=back)


@bp.get("/s/<sid>/seat/move/<link>")
def move_link(sid: str, link: str) -> tuple[str, int]:
    """The one-time link's page: it changes nothing; its one button takes the seat (``take_seat``)."""
    page = move_link_page(get_store(), sid, link, claimed=seat_claim(sid))
    no_store()  # the page holds the link's secret in its form
    return render_template(
        "seat_take.html", sid=sid, seat=page.seat, name=page.name, link=link, mine=page.mine
    ), 200 if page.seat is not None else 404


@bp.post("/s/<sid>/seat/leave")
def leave_seat(sid: str) -> BaseResponse:
    """This phone gives up its seat."""
    seat, token = seat_claim(sid)
    try:
        if seat is not None and service.free_seat(get_store(), sid, seat, token):
            flash(gettext("This phone no longer holds a seat."), "ok")
    except NotFound:
        pass
    response = go_to("views.session", sid=sid)
    response.delete_cookie(seat_cookie(sid), path=f"/s/{sid}")
    return response


@bp.post("/s/<sid>/seats/<int:seat>/free")
@scorer_required
def free_seat(sid: str, seat: int, session: SessionRow) -> BaseResponse:
    """The scorer frees a seat (a lost phone, a player who left)."""
    name, freed = name_at(session.players, seat), service.free_seat(get_store(), sid, seat)
    message = gettext("The seat of %(name)s is free: another phone can take it.", name=name) if freed else None
    return go_to("seats.draft", message, sid=sid)


@bp.get("/s/<sid>/me")
def me(sid: str) -> BaseResponse:
    """This phone's part of the current deal (or the session page, for a phone without a seat)."""
    seat = held_seat(sid)
    return go_to("views.session", sid=sid) if seat is None else go_to("seats.part", sid=sid, seat=seat)


# -- one seat's part -------------------------------------------------------------------------------


def _render_part(
    draft: service.Draft, seat: int, form: PartForm, *, status: int = 200, conflict: str | None = None
) -> tuple[str, int]:
    sid = draft.session.id
    page = part_page(get_store(), draft, seat, claimed=seat_claim(sid), edit_token=edit_token(sid))
    placed = form.place(page.seat_check.problems).at
    return render_template(
        "part.html",
        sid=sid,
        page=page,
        draft=draft,
        form=form,
        placed=placed,
        conflict=conflict,
        rules_game=draft.session.game,
        scorer=can_edit(sid),
    ), status


def _stored_form(draft: service.Draft, seat: int, mode: str | None = None) -> PartForm:
    """The part form filled with the stored part (or empty), for the draft's deal."""
    data = draft.part_fields(seat, mode, russian=current_language() == "ru")
    return part_form(draft.players, draft.rules, formdata=None, data=data)


@bp.route("/s/<sid>/draft/<int:seat>", methods=["GET", "POST"])
def part(sid: str, seat: int) -> tuple[str, int] | BaseResponse:
    """A seat's part of the current deal: written by the phone holding the seat, or by the scorer."""
    store = get_store()
    draft = service.load_draft(store, sid)
    name = name_at(draft.players, seat)
    if request.method == "GET":
        return _render_part(draft, seat, _stored_form(draft, seat))
    writer = service.part_writer(store, sid, seat, seat_token=seat_claim(sid)[1], edit_token=edit_token(sid))
    if writer is None:
        abort(
            403,
            description=gettext(
                "Only the phone holding the seat of %(name)s, or the scorer, can write this part. "
                "Take the seat on the session page (“This is me”).",
                name=name,
            ),
        )
    if draft.session.ended_at:
        return refuse_ended()
    form = part_form(draft.players, draft.rules)
    if not form.validate():
        if writer == "player" and not form.damaged():  # the scorer's page says this phone's save was refused
            generation = int(form.draft.data) if form.draft.data else None
            refuse_part(store, sid, seat, form.error_text(), form.typed() or "—", generation=generation)
            draft = service.load_draft(store, sid)
        return _render_part(draft, seat, form, status=422)
    asked = AskedPart(form.part, int(form.revision.data), int(form.deal.data), _generation(form))
    saved, fresh = write_asked_part(store, draft, seat, asked, by=writer)
    if not isinstance(saved, service.PartSaved):
        message = part_not_saved(saved, form.deal.data, form.typed() or "—")
        if writer == "player" and isinstance(saved, service.PartStale):  # this phone holds another version
            refuse_part(store, sid, seat, message, form.typed() or "—", generation=_generation(form))
            fresh = service.load_draft(store, sid)
        return _render_part(fresh, seat, _stored_form(fresh, seat, form.hand_mode.data), status=409, conflict=message)
    if not request.form.get("autosave"):
        return go_to("seats.part", gettext("The part of %(name)s is saved.", name=name), sid=sid, seat=seat)
    return _render_part(fresh, seat, _stored_form(fresh, seat, form.hand_mode.data))


@bp.post("/s/<sid>/draft/<int:seat>/correction")
def correction(sid: str, seat: int) -> tuple[str, int] | BaseResponse:
    """A part a phone kept after its deal was recorded, sent to the scorer as a proposed correction of that deal (the
    draft it was typed on, in the form): the next deal's draft is left alone."""
    store = get_store()
    draft = service.load_draft(store, sid)
    name = name_at(draft.players, seat)
    writer = service.part_writer(store, sid, seat, seat_token=seat_claim(sid)[1], edit_token=edit_token(sid))
    if writer is None:
        abort(
            403,
            description=gettext(
                "Only the phone holding the seat of %(name)s, or the scorer, can write this part.", name=name
            ),
        )
    if draft.session.ended_at:
        return refuse_ended()
    form = part_form(draft.players, draft.rules)
    if not form.validate() or _generation(form) is None:  # a correction names the draft it was typed on
        if not form.draft.errors and not form.draft.data:
            form.draft.errors = [gettext("The form is damaged; reload it.")]
        return _render_part(draft, seat, form, status=422)
    generation = _generation(form)
    assert form.part is not None and generation is not None  # validate() passed
    sent = send_correction(store, draft.session, seat, form.part, form.typed() or "—", generation)
    if isinstance(sent, CorrectionSent):
        message = gettext(
            "Your part for deal %(n)s went to the scorer as a proposed correction: the scorer sees both versions and "
            "decides. Deal %(next)s here is untouched.",
            n=sent.number,
            next=draft.deal,
        )
        return go_to("seats.part", message, sid=sid, seat=seat)
    if sent.open:
        message = gettext("This deal is still being entered: type your part here.")
        return go_to("seats.part", message, "error", sid=sid, seat=seat)
    message = gettext("The deal this part was typed for has been deleted since: there is nothing to correct.")
    return go_to("seats.part", message, "error", sid=sid, seat=seat)


# -- the scorer's view of the draft ---------------------------------------------------------------


def _draft_form(draft: service.Draft, posted: bool = False) -> DraftForm:
    """The scorer's form of the draft: as posted, or filled with the draft's end as stored."""
    form = DraftForm() if posted else DraftForm(formdata=None, data={**draft.end_fields(), "form_key": new_form_key()})
    form.record.label.text = gettext("Record deal %(n)s", n=draft.deal)
    if draft.lacking:  # says whose part, hand or save is missing, on the button itself
        names = ", ".join(draft.lacking)
        form.record.label.text = gettext("Record deal %(n)s · missing: %(names)s", n=draft.deal, names=names)
    suggested = draft.went_out_shown  # named only once every part is in
    auto = gettext("No cards left: %(name)s", name=suggested) if suggested else gettext("No cards left: nobody yet")
    auto = gettext("No cards left: unknown yet") if draft.check.missing else auto
    form.went_out.choices = [("auto", auto), ("none", gettext("Nobody (the stock ran out)"))] + [
        (str(i), n) for i, n in enumerate(draft.players)
    ]
    return form


def _render_draft(
    draft: service.Draft, form: DraftForm, *, status: int = 200, message: str | None = None
) -> tuple[str, int]:
    sid = draft.session.id
    editor = can_edit(sid)
    return render_template(
        "draft.html",
        sid=sid,
        draft=draft,
        form=form,
        editor=editor,
        corrections=open_corrections(get_store(), draft.session) if editor else [],
        message=message,
        rules_game=draft.session.game,
        mine=held_seat(sid),
    ), status


@bp.route("/s/<sid>/draft", methods=["GET", "POST"])
def draft(sid: str) -> tuple[str, int] | BaseResponse:
    """Every seat's part as it arrives, the scores so far; the scorer checks and records the deal."""
    current = service.load_draft(get_store(), sid)
    if request.method == "GET":
        return _render_draft(current, _draft_form(current))
    scorer_session(sid, open_only=True)
    form = _draft_form(current, posted=True)
    if not form.validate():
        return _render_draft(
            current, _draft_form(current), status=422, message=gettext("The form is damaged; reload it.")
        )
    end = form.end(current.players)
    if form.record.data:
        return _record(current, form, end)
    # "Check": keep how the deal ended, show the scores with it
    if service.save_draft_end(get_store(), sid, end, deal=int(form.deal.data), generation=_generation(form)):
        return go_to("seats.draft", gettext("That deal has been recorded; this is the next one."), "error", sid=sid)
    return go_to("seats.draft", sid=sid)


def _record(current: service.Draft, form: DraftForm, end: dict[str, Any]) -> tuple[str, int] | BaseResponse:
    """Record the draft as the scorer's page showed it (its version and draft), ended as the form says."""
    sid, store = current.session.id, get_store()
    ask = service.Ask(bool(form.override.data), form.note_text(), form.form_key.data, None, int(form.version.data))
    outcome = record_shown_draft(
        store, current, end, ask, reason_text, deal=int(form.deal.data), generation=_generation(form)
    )
    if isinstance(outcome, service.Recorded):
        return go_to("views.session", deal_saved(outcome.number, outcome.created), sid=sid)
    if isinstance(outcome, service.Changed | service.KeyClash):  # 409: the draft as it is now
        message = gettext(
            "A part or a seat of this deal changed since your page showed it. Nothing was recorded: look at the "
            "parts again, then record."
        )
        fresh = service.load_draft(store, sid)
        return _render_draft(fresh, _draft_form(fresh), status=409, message=message)
    if isinstance(outcome, NotRead):
        message = reason_text(outcome.reason)
    elif isinstance(outcome, service.Waiting):
        message = reason_text(waiting_reason(outcome))
    else:
        message = gettext(
            "The deal has problems (shown with each part). Correct the parts, or tick “Record anyway” and write a note."
        )
    return _render_draft(service.with_end(current, end), form, status=422, message=message)


@bp.post("/s/<sid>/draft/discard")
@scorer_required
def discard(sid: str, session: SessionRow) -> BaseResponse:  # noqa: ARG001 -- session passed by name by scorer_required (its check is what counts here)
    """Throw the draft away: every part and the end (the seats stay taken)."""
    service.discard_draft(get_store(), sid)
    return go_to("seats.draft", gettext("The draft was discarded: every part is empty again."), sid=sid)


@bp.get("/s/<sid>/draft/live")
def live(sid: str) -> BaseResponse:
    """``{tag, deal}`` of the draft; 304 while nothing changed (parts, seats, the session's deals)."""
    tag = get_store().draft_tag(sid)
    return polled(tag, lambda: {"tag": tag, "deal": get_store().next_number(sid)})
