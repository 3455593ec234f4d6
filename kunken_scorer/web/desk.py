"""The rules desk (settling a dispute at the table) and the rules reference pages.

The desk asks the core the five questions a table argues about and answers in words, each
reason linking to the paragraph of the rules reference it comes from. Opened from a session
(``?session=<sid>``) it uses that session's stored rule set and the melds recorded in its
last deal; opened alone, the preset of the game chosen on the page.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, ValidationError

from .. import service
from ..cards import format_cards, parse_cards
from ..melds import MeldCheck, check_discard, check_meld, check_opening, check_swap, check_vist
from ..messages import KunkenError, Reason
from ..notation import split_lines
from ..rules import GAMES, HOUSE_RULES, RuleSet
from ..store import NotFound
from . import GAME_NAMES, current_language, get_store, reason_text, rule_lines

bp = Blueprint("desk", __name__)

#: The most lines a "melds, one per line" field takes (a deal's table rarely holds 30).
MAX_LINES = 60
MAX_LINE_FIELD = 6000
MAX_CARD_FIELD = 400

KIND_NAMES = {"set": _l("set (cards of one rank)"), "run": _l("run (cards of one suit in order)")}

#: rules-reference anchor -> the paragraph's title (the link text next to every reason)
RULE_TITLES = {
    "games": _l("Games"),
    "players": _l("Players"),
    "cards": _l("Cards and notation"),
    "melds": _l("Melds"),
    "sets": _l("Sets"),
    "runs": _l("Runs"),
    "joker-limits": _l("How many jokers a meld may hold"),
    "joker-copies": _l("Jokers and cards already on the table"),
    "joker-position": _l("Which card a joker stands for"),
    "points": _l("Card points"),
    "opening": _l("Taking the bank"),
    "vists": _l("Vists"),
    "swap": _l("Swapping a joker"),
    "end-of-deal": _l("End of a deal"),
    "scoring": _l("Scoring a deal"),
    "express": _l("Express"),
    "redeal": _l("Redeal"),
    "deal-record": _l("Recording a deal"),
    "session-end": _l("End of a session"),
    "ordered-rummy": _l("Ordered rummy: the first meld is a run"),
    "rummy-call": _l("Rummy!"),
    "wild-card": _l("Wild card"),
    "house-rules": _l("House rules"),
}


def rules_in_force(rules: RuleSet) -> list:
    """The house rules, and every other switch that differs from the preset, in words."""
    return rule_lines(rules, [*HOUSE_RULES, *(n for n in rules.differences() if n not in HOUSE_RULES)])


# -- forms ---------------------------------------------------------------------------------

CARD_INPUT = {"data-keypad": True, "autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


def _card_error(err: KunkenError) -> ValidationError:
    return ValidationError(reason_text(err.reason))


class Cards:
    """Validator: the field holds cards in English or Russian notation (``single``: exactly one)."""

    def __init__(self, single: bool = False):
        self.single = single

    def __call__(self, form, field) -> None:
        try:
            cards = parse_cards(field.data or "")
        except KunkenError as err:
            raise _card_error(err) from None
        if self.single and len(cards) != 1:
            raise ValidationError(gettext("Enter exactly one card."))


class MeldLines:
    """Validator: one meld per line, every line's cards readable; errors name the line."""

    def __call__(self, form, field) -> None:
        lines = split_lines(field.data)
        if len(lines) > MAX_LINES:
            raise ValidationError(gettext("At most %(limit)s lines.", limit=MAX_LINES))
        for number, line in lines:
            try:
                parse_cards(line)
            except KunkenError as err:
                raise ValidationError(gettext("Line %(n)s: %(why)s", n=number, why=reason_text(err.reason))) from None


def meld_lines(text: str | None) -> list[str]:
    """The melds typed one per line."""
    return [line for _, line in split_lines(text)]


def _cards_field(label, single=False, required=True, example="5♥ JK 7♥"):
    validators = [Length(max=MAX_CARD_FIELD), Cards(single=single)]
    if required:
        validators.insert(0, DataRequired(message=_l("Enter the cards.") if not single else _l("Enter a card.")))
    return StringField(label, validators=validators, render_kw={**CARD_INPUT, "placeholder": example})


def _lines_field(label, required=False):
    validators = [Length(max=MAX_LINE_FIELD), MeldLines()]
    if required:
        validators.insert(0, DataRequired(message=_l("Enter at least one meld.")))
    return TextAreaField(label, validators=validators, render_kw={**CARD_INPUT, "rows": 3})


class MeldForm(FlaskForm):
    """Is this meld legal, what does each joker stand for, what does it score?"""

    cards = _cards_field(_l("Meld"))
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check the meld"))


class SwapForm(FlaskForm):
    """May this card replace that joker?"""

    meld = _cards_field(_l("Meld with a joker"), example="JK K♠ K♣")
    card = _cards_field(_l("Natural card offered for the joker"), single=True, example="K♦")
    has_layout = BooleanField(_l("The player swapping already has a layout on the table"), default=True)
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check the swap"))


class OpeningForm(FlaskForm):
    """May I take the bank with this card and these melds?"""

    melds = _lines_field(_l("Melds laid this turn, one per line"), required=True)
    bank_card = _cards_field(_l("Bank card taken"), single=True, example="7♥")
    has_layout = BooleanField(_l("I already have a layout on the table"))
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check taking the bank"))


class DiscardForm(FlaskForm):
    """Does this discard fit a meld on the table ("Rummy!")?"""

    card = _cards_field(_l("Discarded card"), single=True, example="Q♦")
    melds = _lines_field(_l("Melds on the table, one per line"), required=True)
    submit = SubmitField(_l("Check the discard"))


class VistForm(FlaskForm):
    """Does this vist fit that meld?"""

    meld = _cards_field(_l("Meld on the table"), example="2♥ 3♥ 4♥")
    cards = _cards_field(_l("Cards added (the vist)"), example="5♥")
    table = _lines_field(_l("Other melds on the table, one per line (optional)"))
    submit = SubmitField(_l("Check the vist"))


QUESTIONS = {"meld": MeldForm, "swap": SwapForm, "opening": OpeningForm, "discard": DiscardForm, "vist": VistForm}


# -- answers -------------------------------------------------------------------------------


def meld_summary(check: MeldCheck) -> dict:
    """What the answer says about one meld: each joker's written position (1-based), the card it stands
    for and, in a set whose joker may take more than one suit, every card it could be."""
    options = [str(card) for card in check.joker_options]
    jokers = [
        {"position": i + 1, "card": str(card), "options": options if i in check.open_jokers else []}
        for i, card in check.jokers
    ]
    # a joker with a choice of suits is shown as written, not pinned to the first suit
    shown = check.written if check.joker_options else (check.assigned or check.written)
    return {
        "legal": check.legal,
        "kind": check.kind,
        "kind_text": KIND_NAMES.get(check.kind) if check.kind is not None else None,
        "points": check.points,
        "cards": format_cards(shown),
        "written": format_cards(check.written),
        "jokers": jokers,
    }


def answer_meld(form: MeldForm, rules: RuleSet) -> dict:
    """The answer to "is this meld legal?"."""
    table = meld_lines(form.table.data)
    check = check_meld(form.cards.data, rules, table)
    return {"legal": check.legal, "meld": meld_summary(check), "reasons": list(check.reasons)}


def answer_swap(form: SwapForm, rules: RuleSet) -> dict:
    """The answer to "may this card replace that joker?"."""
    table = meld_lines(form.table.data)
    result = check_swap(form.meld.data, form.card.data, rules, table, has_layout=bool(form.has_layout.data))
    card = format_cards(parse_cards(form.card.data))
    answer = {
        "legal": result.legal,
        "card": card,
        "reasons": list(result.reasons),
        "meld": meld_summary(result.meld) if result.meld is not None else None,
    }
    if result.legal and result.joker is not None and result.meld is not None:  # a joker is found in a meld
        answer["joker_position"] = result.joker + 1
        pin = result.meld.assigned[result.joker].pin
        # a set's joker has an open suit: it stands for whichever missing card replaces it
        answer["stands_for"] = card if result.meld.kind == "set" or not pin else str(pin)
    return answer


def answer_opening(form: OpeningForm, rules: RuleSet) -> dict:
    """The answer to "may I take the bank with this card and these melds?"."""
    table = meld_lines(form.table.data)
    result = check_opening(
        meld_lines(form.melds.data), form.bank_card.data, rules, has_layout=bool(form.has_layout.data), table=table
    )
    return {
        "legal": result.legal,
        "points": result.points,
        "needed": rules.opening_points,
        "has_layout": bool(form.has_layout.data),
        "reasons": list(result.reasons),
        "melds": [meld_summary(m) for m in result.melds],
    }


def answer_discard(form: DiscardForm, rules: RuleSet) -> dict:
    """The answer to "does this discard fit a meld on the table?"."""
    melds = meld_lines(form.melds.data)
    result = check_discard(form.card.data, melds, rules)
    answer = {
        "legal": result.fits,
        "fits": result.fits,
        "card": format_cards(parse_cards(form.card.data)),
        "reasons": list(result.reasons),
        "rummy_call": rules.rummy_call,
    }
    if result.fits and result.meld is not None:
        answer["meld_number"] = result.meld + 1
        answer["meld_cards"] = format_cards(parse_cards(melds[result.meld]))
    return answer


def answer_vist(form: VistForm, rules: RuleSet) -> dict:
    """The answer to "does this vist fit that meld?"."""
    added = parse_cards(form.cards.data)
    table = meld_lines(form.table.data)
    check = check_vist(form.meld.data, added, rules, table)
    added_points = sum(check.card_points[len(check.card_points) - len(added) :]) if check.legal else None
    return {
        "legal": check.legal,
        "meld": meld_summary(check),
        "reasons": list(check.reasons),
        "added": format_cards(added),
        "added_points": added_points,
    }


ANSWERS = {
    "meld": answer_meld,
    "swap": answer_swap,
    "opening": answer_opening,
    "discard": answer_discard,
    "vist": answer_vist,
}


def nested_reasons(reason: Reason) -> Iterable[Reason]:
    """The reasons quoted inside a reason (an opening's illegal meld says why)."""
    for value in reason.params.values():
        if isinstance(value, Reason):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, Reason))


def reason_links(reason: Reason) -> list[dict]:
    """The rules paragraphs a reason points at: its own first, then those of the reasons it quotes."""
    anchors = [reason.rule]
    for inner in nested_reasons(reason):
        if inner.rule not in anchors:
            anchors.append(inner.rule)
    return [{"anchor": a, "title": RULE_TITLES.get(a, a)} for a in anchors]


# -- session context -----------------------------------------------------------------------


def session_rules(session: dict) -> RuleSet:
    """The rule set a session was played under (the session's game when the record omits it)."""
    data = dict(session.get("rules") or {})
    data.setdefault("game", session.get("game") or "kunken")
    try:
        return RuleSet.from_dict(data)
    except KunkenError:
        game = data["game"] if data["game"] in GAMES else "kunken"
        return RuleSet.preset(game)


def last_deal_melds(board: service.Scoreboard) -> tuple[int | None, list[str]]:
    """The melds on the table at the end of the last recorded deal (vists added to their melds)."""
    if not board.deals:
        return None, []
    scored = board.deals[-1]
    if scored.deal is None or scored.report is None or scored.deal.redeal:
        return scored.number, []
    table = {d.name: [m.extension_base() for m in d.final_melds] for d in scored.report.details}
    # a vist that fitted no meld stays on the table as its own line
    loose = [v.vist.cards for d in scored.report.details for v in d.vists if not v.legal]
    lines = [format_cards(m) for name in board.players for m in table.get(name, [])]
    lines += [format_cards(m) for m in loose]
    return scored.number, [line for line in lines if line]


def load_session(sid: str) -> dict:
    """The session behind ``?session=<sid>``: its record, rule set and last deal's melds (404 if unknown)."""
    store = get_store()
    try:
        session = store.get_session(sid)
    except NotFound:
        abort(404)
    rules = session_rules(session)
    deal_number: int | None = None
    table: list[str] = []
    try:
        deal_number, table = last_deal_melds(service.scoreboard(store, sid))
    except (KunkenError, NotFound):
        pass  # an unreadable record: the desk still answers, just without the table prefilled
    return {
        "id": sid,
        "record": session,
        "rules": rules,
        "players": session.get("players", []),
        "deal_number": deal_number,
        "table": table,
    }


# -- views ---------------------------------------------------------------------------------


@bp.route("/rules/desk", methods=["GET", "POST"])
def desk():
    """One page, five questions; a POST answers the question whose form was sent."""
    sid = request.args.get("session")
    session = load_session(sid) if sid else None
    if session:
        rules = session["rules"]
        game = rules.game
    else:
        game = request.args.get("game", "kunken")
        if game not in GAMES:
            abort(404)
        rules = RuleSet.preset(game)

    posted = None
    if request.method == "POST":
        posted = next((q for q in QUESTIONS if any(k.startswith(q + "-") for k in request.form)), None)
        if posted is None:
            abort(400)

    prefill = "\n".join(session["table"]) if session else ""
    forms = {}
    for question, form_class in QUESTIONS.items():
        if question == posted:
            forms[question] = form_class(prefix=question)
        else:
            defaults = {"melds" if question == "discard" else "table": prefill}
            forms[question] = form_class(formdata=None, prefix=question, data=defaults)

    answers = {}
    status = 200
    if posted:
        form = forms[posted]
        if form.validate_on_submit():
            try:
                answers[posted] = ANSWERS[posted](form, rules)
            except KunkenError as err:
                form.form_errors.append(reason_text(err.reason))
                status = 422
        else:
            status = 422

    def rule_url(anchor: str) -> str:
        return url_for("desk.reference", game=rules.game, session=sid) + "#" + anchor

    action = url_for("desk.desk", session=sid) if session else url_for("desk.desk", game=game)
    return render_template(
        "desk.html",
        forms=forms,
        answers=answers,
        posted=posted,
        rules=rules,
        game=game,
        games=GAMES,
        game_names=GAME_NAMES,
        session=session,
        action=action,
        prefill=prefill,
        rule_url=rule_url,
        reason_links=reason_links,
        rule_titles=RULE_TITLES,
        differences=rule_lines(rules, rules.differences()),
    ), status


@bp.get("/rules/<game>")
def reference(game: str):
    """The rules of ``game`` in the page's language, with the rules in force (a session's, if given)."""
    if game not in GAMES:
        abort(404)
    sid = request.args.get("session")
    session = None
    rules = RuleSet.preset(game)
    if sid:
        session = load_session(sid)
        rules = session["rules"]
        if rules.game != game:
            return redirect(url_for("desk.reference", game=rules.game, session=sid))
    language = current_language()
    language = language if language in ("ru", "en") else "en"
    return render_template(
        "rules_reference.html",
        game=game,
        game_names=GAME_NAMES,
        games=GAMES,
        rules=rules,
        session=session,
        rows=rules_in_force(rules),
        content=f"rules/{game}_{language}.html",
        language=language,
        house_rules=rule_lines(RuleSet.preset(game), HOUSE_RULES),
        desk_url=url_for("desk.desk", session=sid) if session else url_for("desk.desk", game=game),
    )
