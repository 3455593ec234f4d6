"""The words of the pages that come from code: reasons and problems as sentences, the games' names,
the messages after a form (``go_to``, ``deal_saved``, ``seat_held_message``) and the house rules in words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import flash, redirect, url_for
from flask_babel import get_translations, lazy_gettext
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ..core.messages import Reason, render
from ..core.notation import in_russian_notation
from ..core.rules import SWITCHES, RuleLine, RuleSet
from ..core.rules import rule_lines as core_rule_lines
from ..service import Changed, DraftMoved, KeyClash, PartStale
from ..service.ratings import SamePlayer, UnknownPlayer
from .languages import current_language, gettext

#: The games' names in the page language (one place for every page and form).
GAME_NAMES = {"kunken": lazy_gettext("Kunken"), "ordered-rummy": lazy_gettext("Ordered rummy")}


def game_name(game: str) -> str:
    """A game's name in the page's language."""
    return str(GAME_NAMES.get(game, game))


def reason_text(reason: Reason) -> str:
    """A reason or problem as a sentence in the page's language and card notation (its words from the
    request's catalog, looked up once a reason)."""
    if current_language() == "ru":
        reason = in_russian_notation(reason)
    catalog = get_translations()
    return render(reason, catalog.ugettext, catalog.ungettext)


def switch_ref(name: str) -> Markup:
    """A switch named in running text: its label in quotes, linked to its row of the rules in force."""
    quotes = "«»" if current_language() == "ru" else "“”"
    return Markup('<a class="switch-ref" href="#switch-{}">{}{}{}</a>').format(
        name, quotes[0], gettext(SWITCHES[name].label), quotes[1]
    )


def switch_word(name: str, value: str) -> str:
    """The words for one named value of a switch (``switch_word("joker_limit", "two")``)."""
    return gettext(SWITCHES[name].words[value])


def rule_lines(rules: RuleSet, names: Iterable[str]) -> list[RuleLine]:
    """The switches ``names`` of ``rules`` in the page's language (every page reads ``rules.SWITCHES`` here)."""
    return core_rule_lines(rules, names, gettext, reason_text)


def go_to(endpoint: str, message: str | None = None, category: str = "ok", **values: Any) -> BaseResponse:
    """A 303 to ``endpoint``, the page after a form; ``message`` is shown there once."""
    if message:
        flash(message, category)
    return redirect(url_for(endpoint, **values), 303)


def deal_saved(number: int | None, created: bool) -> str:
    """What a phone is told after saving deal ``number`` (``created`` False: a repeated form stored nothing;
    ``number`` None: the deal it stored has since been undone or deleted)."""
    if created:
        return gettext("Deal %(n)s saved.", n=number)
    if number is None:
        return gettext(
            "This form's deal was saved before and has since been undone or deleted; it was not saved again."
        )
    return gettext("Deal %(n)s was already saved; it was not recorded twice.", n=number)


def deal_changed(number: int | None) -> str:
    """What a phone is told after changing deal ``number``."""
    return gettext("Deal %(n)s changed.", n=number)


def deal_conflict(outcome: KeyClash | Changed, new: bool) -> str:
    """What a phone is told when its deal form's Save stored nothing (``service.KeyClash`` or ``service.Changed``):
    ``new`` for a new deal, else an edit."""
    if isinstance(outcome, KeyClash):
        return gettext(
            "This form had already recorded a deal, and this deal is a different one: nothing was recorded. "
            "Check the deals on the session page, then press Save again to record it."
        )
    if new:
        return gettext(
            "Another phone changed this session while you were filling in this form. Nothing was saved. "
            "Check the deals on the session page: if your deal is not there, press Save again."
        )
    if outcome.deleted:
        return gettext("This deal was deleted on another phone. Nothing was saved.")
    return gettext(
        "This deal was changed on another phone while you were editing it. Nothing was saved and nothing was "
        "overwritten. Your entries are kept below; open the deal again to see the other change."
    )


def part_not_saved(outcome: DraftMoved | PartStale, deal: str, typed: str) -> str:
    """What a phone is told when its part was not saved: the deal it was for is recorded, or the part was written
    since; ``typed`` is what the phone sent, in one line."""
    if isinstance(outcome, DraftMoved):
        return gettext(
            "Deal %(old)s has already been recorded (or the deals changed) on the scorer's phone: "
            "this entry was not saved. The form is now for deal %(new)s. What you typed: %(typed)s",
            old=deal,
            new=outcome.deal,
            typed=typed,
        )
    return gettext(
        "This part was changed by %(who)s since you saw it. Nothing was saved; the part as "
        "it is now is shown. What you typed: %(typed)s",
        who=gettext("the scorer") if outcome.written_by == "scorer" else gettext("another phone"),
        typed=typed,
    )


def seat_held_message(name: str, code: str | None) -> str:
    """What a phone is told when another phone holds the seat it asked for (the pages and the API alike); ``code``:
    what became of the move code it sent (``store.SeatHeld``)."""
    if code == "locked":
        return gettext(
            "The move code of %(name)s’s seat is locked: too many wrong codes were typed for it. The seat stays with "
            "its phone. Ask the scorer, or %(name)s’s phone, for a new code.",
            name=name,
        )
    if code:
        return gettext(
            "That move code is wrong, used or expired: the seat of %(name)s stays with its phone. Ask the scorer, "
            "or %(name)s’s phone, for a new code.",
            name=name,
        )
    return gettext(
        "The seat of %(name)s is held by another phone. Ask the scorer to move it to this phone, or ask "
        "%(name)s’s phone for its move code.",
        name=name,
    )


def h2h_refusal(outcome: UnknownPlayer | SamePlayer) -> tuple[int, str]:
    """The status and words of a head-to-head asked of an unknown player, or of one player twice (page and API)."""
    if isinstance(outcome, UnknownPlayer):
        return 404, gettext("No player named %(name)s has a scored session on this device.", name=outcome.name)
    return 400, gettext("Choose two different players (%(name)s was named twice).", name=outcome.name)
