"""A part a player's phone kept after its deal was recorded, before the scorer: the two versions side by side, the
scores before and after, and one tap to apply it as an edit of the deal (kept in the history) or to dismiss it."""

from __future__ import annotations

from flask import Blueprint, render_template
from werkzeug.wrappers import Response as BaseResponse

from .. import service
from ..service.kept import AlreadyResolved, CorrectionPage, apply_correction, correction_page, dismiss_correction
from ..store import SessionRow
from .auth import change_required, scorer_required
from .database import get_store
from .forms import CorrectionForm
from .languages import gettext
from .wording import deal_changed, go_to

bp = Blueprint("corrections", __name__)


def _render(
    sid: str, page: CorrectionPage, form: CorrectionForm, *, status: int = 200, message: str | None = None
) -> tuple[str, int]:
    return render_template("correction.html", sid=sid, page=page, form=form, message=message), status


def _form(page: CorrectionPage, posted: bool = False) -> CorrectionForm:
    """The form as posted, or new for the deal's revision the page shows."""
    form = CorrectionForm() if posted else CorrectionForm(formdata=None)
    if not posted and page.deal is not None:
        form.expected.data = str(page.deal.revision)
    return form


def _resolved(sid: str, done: AlreadyResolved) -> BaseResponse:
    words = (
        gettext("That correction was applied already.")
        if done.outcome == "applied"
        else gettext("That correction was dismissed already.")
    )
    return go_to("views.session", words, sid=sid)


@bp.get("/s/<sid>/corrections/<int:cid>")
@scorer_required
def correction(sid: str, cid: int, session: SessionRow) -> tuple[str, int]:
    """A proposed correction beside the deal as recorded."""
    page = correction_page(get_store(), session, cid)
    return _render(sid, page, _form(page))


@bp.post("/s/<sid>/corrections/<int:cid>")
@change_required
def decide(sid: str, cid: int, session: SessionRow) -> tuple[str, int] | BaseResponse:
    """Apply the correction as an edit of its deal, or dismiss it."""
    store = get_store()
    page = correction_page(store, session, cid)
    form = _form(page, posted=True)
    if not form.validate():
        return _render(sid, page, form, status=422, message=gettext("The form is damaged; reload it."))
    if form.dismiss.data:
        done = dismiss_correction(store, session, cid)
        if done is not None:
            return _resolved(sid, done)
        return go_to("views.session", gettext("The correction was dismissed: deal stays as recorded."), sid=sid)
    ask = service.Ask(bool(form.override.data), form.note_text(), None, None, int(form.expected.data))
    outcome = apply_correction(store, session, cid, ask)
    if isinstance(outcome, AlreadyResolved):
        return _resolved(sid, outcome)
    if isinstance(outcome, service.Edited):
        return go_to("views.session", deal_changed(outcome.deal.number), sid=sid)
    fresh = correction_page(store, session, cid)
    if isinstance(outcome, service.Refused):
        message = gettext(
            "With this correction the deal has problems (listed above). Tick “Record anyway” and write a note, or "
            "dismiss it."
        )
        return _render(sid, fresh, form, status=422, message=message)
    message = gettext("The deal was changed or deleted on another phone meanwhile; nothing was changed. Look again.")
    return _render(sid, fresh, _form(fresh), status=409, message=message)
