"""The templates' filters: cards in the page's notation, stored times in the table's time zone and the
page's language (read by ``core.times``), numbers as the page's language writes them, true minus signs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel import dates as babel_dates
from babel import numbers
from flask_babel import get_locale
from markupsafe import Markup, escape

from ..core.cards import Card, CardError, Suit, parse_cards
from ..core.notation import hand_text
from ..core.times import local_time
from .languages import current_language


def minus_sign(value: Any) -> str:
    """A number as a page prints it: negative with a true minus sign (−20), as "+35 −20" beside it."""
    return str(value).replace("-", "\u2212")


def cards_filter(cards: Any) -> Markup:
    """Cards in the page's notation (Russian ranks on Russian pages), red suits marked."""
    if isinstance(cards, Card):
        cards = (cards,)
    elif isinstance(cards, str):
        try:
            cards = parse_cards(cards)
        except CardError:
            return escape(cards)
    russian = current_language() == "ru"
    shown = []
    for card in cards:
        text = card.russian() if russian else str(card)
        natural = card.natural_card
        if natural is not None and natural.suit in (Suit.HEARTS, Suit.DIAMONDS):
            shown.append(Markup('<span class="red">%s</span>') % text)
        else:
            shown.append(escape(text))
    return Markup(" ").join(shown)


def hand_filter(hand: Any) -> str:
    """A stored hand given by rank (or in points) as its field shows it, in the page's notation (``9 9 К Д Дж``)."""
    return hand_text(hand, russian=current_language() == "ru")


def day_text(when: datetime, width: str = "medium") -> str:
    """A date as the page's language writes it ("Nov 30, 2026", «30 нояб. 2026 г.»): every date of the app."""
    return babel_dates.format_date(when, width, locale=get_locale())


def day_filter(stamp: str | None, width: str = "medium") -> str:
    """A stored UTC time's day in the table's time zone ("" when missing); ``width`` "long": "November 30, 2026"."""
    when = local_time(stamp)
    return day_text(when, width) if when else ""


def clock_filter(stamp: str | None) -> str:
    """A stored UTC time as the table's local time of day ("7:05 PM", «19:05»)."""
    when = local_time(stamp)
    return babel_dates.format_time(when, "short", tzinfo=when.tzinfo, locale=get_locale()) if when else stamp or ""


def when_filter(stamp: str | None) -> str:
    """A stored UTC time as the table's local date and time ("Nov 30, 2026, 7:05 PM", «30 нояб. 2026 г., 19:05»)."""
    when = local_time(stamp)
    return f"{day_text(when)}, {clock_filter(stamp)}" if when else stamp or ""


#: Place points (one decimal when there is one) and an average (always one decimal), grouped: each pattern read
#: once, not per number.
_POINTS, _AVERAGE = numbers.parse_pattern("#,##0.#"), numbers.parse_pattern("#,##0.0")


def points_filter(points: float) -> str:
    """Place points as the page's language writes them, with one decimal when there is one ("66,7", "100")."""
    return str(_POINTS.apply(points, get_locale()))  # Babel's apply() declares no return type


def average_filter(value: float) -> str:
    """An average as the page's language writes it, always with one decimal ("12.0", «−3,5»)."""
    return str(_AVERAGE.apply(value, get_locale()))  # Babel's apply() declares no return type
