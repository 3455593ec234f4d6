"""The JSON API (v1) documented in docs/api.md: rule checks, deal scoring, sessions, export and import.

A view here only translates: it reads the request, calls the service (the answers as plain data are
``service.answers``'s: the rule checks read and ask the core there), and writes the answer as JSON.
Every failure is ``{"error": "<message a person can act on>"}`` with a 4xx status; the
message names the field and, for a card, the token. Messages are English unless the
client asks for another language (the ``lang`` cookie or ``Accept-Language``).

Changing a session needs ``Authorization: Bearer <edit_token>`` (a header only: the API never
accepts the scorer cookie, so a cross-site form cannot write through it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, request, url_for
from werkzeug.exceptions import MethodNotAllowed

from .. import RuleSet, Target, service
from ..core.reading import IF_MATCH_EXPECTED, read_flag, read_if_match, read_note, read_version, read_whole
from ..core.rules import read_rules
from ..service import answers, ratings, seats
from ..service.exports import export_document
from ..store import Conflict, KeyReused, SessionEnded
from .auth import bearer_token, scorer_session
from .bodies import json_body as _body
from .bodies import session_links
from .database import get_store
from .errors import Refusal
from .languages import gettext
from .limits import creation_allowed
from .links import move_url
from .security import no_store
from .startup import catch_up_ratings
from .wording import h2h_refusal, reason_text, seat_held_message

bp = Blueprint("api", __name__, url_prefix="/api/v1")

#: The longest Idempotency-Key accepted.
MAX_IDEMPOTENCY_KEY = 200

_HEALTH = b'{"ok":true}\n'

#: An answer with its status (and headers), as a route returns it to Flask.
Answer = tuple[dict[str, Any], int] | tuple[dict[str, Any], int, dict[str, str]]


def _created(created: service.Created, **extra: Any) -> Answer:
    """201 for a session just started or imported: its id, edit token and addresses (and ``extra``)."""
    assert created.token is not None  # no idempotency key: always a new session, with its token
    location = url_for("api.get_session", session_id=created.session.id)
    return {**session_links(created.session.id, created.token), **extra}, 201, {"Location": location}


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > MAX_IDEMPOTENCY_KEY:
        raise Refusal(400, gettext("Idempotency-Key: at most %(limit)s characters.", limit=MAX_IDEMPOTENCY_KEY))
    return key or None


def _expected_version(body: dict[str, Any]) -> int | None:
    """The session version the client saw: header ``If-Match`` or body field ``version``."""
    try:
        seen = read_if_match(request.headers.get("If-Match"))
    except ValueError:
        raise Refusal(400, gettext(IF_MATCH_EXPECTED)) from None
    return read_version(body) if seen is None else seen


# -- health and the rule checks ------------------------------------------------------------


@bp.get("/health")
def health() -> Response:
    """Liveness probe: does no work at all."""
    return current_app.response_class(_HEALTH, mimetype="application/json")


#: The rule checks: each address reads its JSON body, asks the core and answers (``service.answers``); stores nothing.
CHECKS: dict[str, answers.Check] = {
    "/melds/check": answers.meld_check,
    "/swaps/check": answers.swap_check,
    "/openings/check": answers.opening_check,
    "/discards/check": answers.discard_check,
    "/deals/score": answers.deal_score,
}


def _check_view(check: answers.Check) -> Callable[[], dict[str, Any]]:
    """A rule check's route: the request's JSON body checked, each reason said in the request's language."""
    return lambda: check(_body(), reason_text)


for _path, _check in CHECKS.items():
    bp.add_url_rule(_path, _check.__name__, _check_view(_check), methods=["POST"])


# -- sessions ------------------------------------------------------------------------------


@bp.post("/sessions")
def create_session() -> Answer:
    """Start a score sheet; answers its id, edit token and the addresses to share."""
    body = _body()
    rules = read_rules(body)
    players = service.session_players(rules, body.get("players"))
    target = Target.from_dict(body.get("target"))
    return _created(service.create_session(get_store(), rules, players, target, allow=creation_allowed))


@bp.get("/sessions/<session_id>")
def get_session(session_id: str) -> dict[str, Any]:
    """A score sheet: rules, players, every deal with its scores, totals and version."""
    if session_id == "import":  # the import's own address, asked with GET: 405, as any other address would
        raise MethodNotAllowed(valid_methods=["POST"])
    return service.session_answer(service.scoreboard(get_store(), session_id), reason_text)


def _ask(body: dict[str, Any], expected: int | None) -> service.Ask:
    """How a recording asks to be stored: "record anyway", its note, its Idempotency-Key and the version seen.

    With a key goes what the request asks for: its JSON body, key order and spacing aside, without ``version``
    (a precondition, which a retry may bring up to date), and where it was sent (a deal or the draft). The same
    key asking for another deal, or sent to the other address, is ``KeyReused``."""
    key, digest = _idempotency_key(), None
    if key is not None:
        asked = {name: value for name, value in body.items() if name != "version"}
        # a deal keeps the body alone: keys stored before still match
        digest = service.request_digest(asked, None if request.endpoint == "api.record_deal" else request.endpoint)
    return service.Ask(read_flag(body, "override"), read_note(body), key, digest, expected)


def _recorded(outcome: service.Recording, problems_message: str) -> Answer:
    """A recording's outcome as the API answers it: 201 with the deal's scores, or the refusal."""
    if isinstance(outcome, service.Recorded):
        return outcome.answer, 201
    if isinstance(outcome, service.Refused):
        report = outcome.report
        problems = service.problems(report.problems, reason_text)
        raise Refusal(422, problems_message, problems=problems, warnings=service.problems(report.warnings, reason_text))
    if isinstance(outcome, service.Waiting):
        raise Refusal(422, reason_text(seats.waiting_reason(outcome)), waiting_for=list(outcome.players))
    if isinstance(outcome, service.KeyClash):
        raise KeyReused("")
    assert isinstance(outcome, service.Changed)
    raise Conflict("")


@bp.post("/sessions/<session_id>/deals")
def record_deal(session_id: str) -> Answer:
    """Record a deal (Bearer token; ``Idempotency-Key`` makes a retry store nothing twice)."""
    store, session, body = get_store(), scorer_session(session_id), _body()
    ask = _ask(body, _expected_version(body))
    outcome: service.Recording | None = service.replayed(store, session_id, ask, reason_text)
    if outcome is None:
        if session.ended_at:  # an ended session takes no more deals (said before the body's deal is read)
            raise SessionEnded()
        service.same_rules(body, RuleSet.from_dict(session.rules))
        outcome = service.record_deal(store, session, service.check_deal(session, body), ask, reason_text)
    return _recorded(
        outcome, gettext('The deal has problems; correct it, or send "override": true with a note to record it anyway.')
    )


@bp.post("/sessions/<session_id>/token")
def new_token(session_id: str) -> dict[str, str]:
    """A new edit token (Bearer: the current one): the old token and every scorer cookie made from it stop."""
    scorer_session(session_id)
    made = service.new_token(get_store(), session_id, bearer_token() or "")
    if isinstance(made, service.TokenStale):  # another request made a new token with this one at the same moment
        raise Refusal(403, gettext("This edit token does not belong to this score sheet."))
    links = session_links(session_id, made.token)
    return {"edit_token": links["edit_token"], "edit_url": links["edit_url"]}


# -- export and import (the document format lives in ``service.exports``, shared with the pages) --


@bp.get("/sessions/<session_id>/export")
def export_session(session_id: str) -> dict[str, Any]:
    """The whole session as JSON: rules, players, every deal as recorded, overrides and notes."""
    return export_document(get_store(), session_id)


@bp.post("/sessions/import")
def import_session() -> Answer:
    """Store an exported document as a new session (new id and token, the same scores)."""
    imported = service.import_session(get_store(), _body(), allow=creation_allowed)
    if isinstance(imported, service.NotImported):  # a deal with problems not recorded anyway: 422, as recording it
        reason = imported.reason
        raise Refusal(422, reason_text(reason), problems=service.problems(reason.params["why"], reason_text))
    return _created(imported, totals=service.scoreboard(get_store(), imported.session.id).totals)


# -- seats and the draft of the next deal (each player enters their own part) -------------------


def _part_writer(session_id: str, seat: int, unsigned: str | None = None) -> str:
    """Who writes a seat's part: the scorer (edit token) or the seat's own phone (its seat token).
    ``unsigned``: what a request without a token is told (by default, that writing a part needs one)."""
    token = bearer_token()
    if token is None:
        raise Refusal(
            401,
            unsigned
            or gettext(
                "Writing a part needs the seat's token (from taking the seat) or the edit "
                "token: send the header “Authorization: Bearer <token>”."
            ),
        )
    writer = service.part_writer(get_store(), session_id, seat, seat_token=token, edit_token=token)
    if writer is None:
        raise Refusal(403, gettext("This token does not hold this seat: take the seat first, or use the edit token."))
    return writer


@bp.get("/sessions/<session_id>/draft")
def get_draft(session_id: str) -> dict[str, Any]:
    """The draft of the next deal: every seat's part and state, the problems and scores so far."""
    return service.draft_answer(service.load_draft(get_store(), session_id), reason_text)


def _move_code() -> str | None:
    """The optional body's ``move_code`` (a request without a body sends none)."""
    environ = request.environ
    if environ.get("CONTENT_LENGTH", "") in ("", "0") and "HTTP_TRANSFER_ENCODING" not in environ:
        return None
    return seats.asked_move_code(_body().get("move_code"))


@bp.post("/sessions/<session_id>/seats/<int:seat>")
def take_seat(session_id: str, seat: int) -> dict[str, Any]:
    """Take a seat ("this is me"): answers the seat token that writes its part. A seat another phone holds
    moves only for the scorer (edit token) or with its ``move_code``; its own phone taking it again changes
    nothing (``store.take_seat`` keeps the rule)."""
    name, move, token = seats.seat_name(get_store(), session_id, seat), _move_code(), bearer_token()
    scorer = get_store().check_token(session_id, token)
    taken = service.take_seat(get_store(), session_id, seat, token=token, scorer=scorer, move=move)
    if isinstance(taken, service.SeatHeldBy):
        raise Refusal(409, seat_held_message(name, taken.code), code="seat_held")
    no_store()  # the answer carries the seat's token
    return {"seat": seat, "player": name, "seat_token": taken.token, "took_over": taken.took_over}


@bp.post("/sessions/<session_id>/seats/<int:seat>/move")
def move_seat(session_id: str, seat: int) -> Answer:
    """A one-time move code (and link) for a held seat: the phone holding it (seat token) or the scorer."""
    name = seats.seat_name(get_store(), session_id, seat)
    unsigned = gettext(
        "Moving a seat needs the token of the phone holding it, or the edit token: send the header "
        "“Authorization: Bearer <token>”."
    )
    writer = _part_writer(session_id, seat, unsigned)
    made = service.move_seat(get_store(), session_id, seat, None if writer == "scorer" else bearer_token())
    if made is None:
        raise Refusal(
            409, gettext("Nobody holds the seat of %(name)s: any phone can take it, no code needed.", name=name)
        )
    no_store()  # the answer carries the code
    url = move_url(session_id, made.link)
    return {"seat": seat, "player": name, "move_code": made.code, "move_url": url, "expires_at": made.expires_at}, 201


@bp.delete("/sessions/<session_id>/seats/<int:seat>")
def free_seat(session_id: str, seat: int) -> dict[str, Any]:
    """Free a seat: the scorer (edit token), or the phone holding it (its seat token)."""
    name = seats.seat_name(get_store(), session_id, seat)
    writer = _part_writer(session_id, seat)
    freed = service.free_seat(get_store(), session_id, seat, None if writer == "scorer" else bearer_token())
    return {"seat": seat, "player": name, "freed": freed}


@bp.put("/sessions/<session_id>/draft/parts/<int:seat>")
def write_part(session_id: str, seat: int) -> dict[str, Any]:
    """Write a seat's part (``revision`` as last seen: 0 for none; a stale one is refused with the current part)."""
    store, body = get_store(), _body()
    draft = service.load_draft(store, session_id)
    seats.name_at(draft.players, seat)
    writer = _part_writer(session_id, seat)
    asked = seats.asked_part(body, draft.rules)
    saved, fresh = seats.write_asked_part(store, draft, seat, asked, by=writer)
    if isinstance(saved, service.DraftMoved):
        if asked.deal is None:  # the part named its draft only
            message = gettext(
                "The deal of this draft has already been recorded (or the deals changed): nothing was saved. "
                "The draft is now for deal %(new)s.",
                new=saved.deal,
            )
        else:
            message = gettext(
                "Deal %(old)s has already been recorded (or the deals changed): nothing was "
                "saved. The draft is now for deal %(new)s.",
                old=asked.deal,
                new=saved.deal,
            )
        raise Refusal(409, message, deal=saved.deal)
    if isinstance(saved, service.PartStale):
        message = gettext(
            "This part was changed since revision %(revision)s: nothing was saved. "
            "The part as it is now is in “current”.",
            revision=asked.revision,
        )
        raise Refusal(409, message, current=service.part_answer(fresh, seat, reason_text))
    return {**service.part_answer(fresh, seat, reason_text), "draft": service.draft_answer(fresh, reason_text)}


@bp.delete("/sessions/<session_id>/draft")
def discard_draft(session_id: str) -> dict[str, Any]:
    """Empty the draft: every part and how the deal ended (the seats stay taken)."""
    scorer_session(session_id)
    service.discard_draft(get_store(), session_id)
    return get_draft(session_id)


@bp.post("/sessions/<session_id>/draft/record")
def record_draft(session_id: str) -> Answer:
    """Record the draft as the next deal (edit token), like ``POST .../deals``; the draft is emptied."""
    session, body = scorer_session(session_id), _body()
    ask = _ask(body, read_whole(body, "version"))
    outcome = seats.record_asked_draft(get_store(), session, body, ask, reason_text)
    if isinstance(outcome, service.Changed):
        if ask.expected is None:  # no version sent: it changed while it was being recorded
            message = gettext("The draft changed while it was being recorded: nothing was recorded. Read it again.")
        else:
            message = gettext(
                "The draft changed since version %(version)s: nothing was recorded. Read it again.",
                version=ask.expected,
            )
        raise Refusal(409, message, version=outcome.version)
    return _recorded(
        outcome,
        gettext('The deal has problems; correct the parts, or send "override": true with a note to record it anyway.'),
    )


# -- ending a session, players, ratings and head to head (issue 37) -------------------------------------------


@bp.post("/sessions/<session_id>/end")
def end_session(session_id: str) -> dict[str, Any]:
    """End the session (Bearer token): it stays readable, takes no more changes, and counts for the ratings."""
    if service.end_session(get_store(), scorer_session(session_id)).already:
        raise SessionEnded()
    return answers.ended_answer(service.scoreboard(get_store(), session_id))


@bp.get("/players")
def players() -> dict[str, Any]:
    """Every player's statistics and rating (``?game=`` for one game's statistics)."""
    rated = ratings.rated_players(get_store(), ratings.asked_game(request.args.get("game")))
    if not rated.current:
        catch_up_ratings(current_app._get_current_object(), current_app.config["DATABASE"])  # type: ignore[attr-defined]
    return ratings.players_answer(rated)


@bp.get("/players/h2h")
def players_h2h() -> dict[str, Any]:
    """Head to head: the sessions players ``a`` and ``b`` played together and who finished ahead in each."""
    found = ratings.head_to_head(get_store(), request.args.get("a"), request.args.get("b"))
    if not isinstance(found, ratings.HeadToHead):
        raise Refusal(*h2h_refusal(found))
    return ratings.head_to_head_answer(found)
