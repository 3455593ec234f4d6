"""Reading one field of untrusted JSON: cards, a list of melds, a player's name, a flag, a note, a whole
number. A field that cannot be read raises ``DealInputError`` naming it (its path, like
``players[0].hand``). The deal's record and its parts are read in ``reading``, where these names are
importable as before.

>>> len(read_cards("K♠ 10h", "hand")), clean_name("  Анна "), read_whole({"deal": 3}, "deal")
(2, 'Анна', 3)
>>> read_cards("K♠ 11♥", "players[0].hand")
Traceback (most recent call last):
...
kunken_scorer.core.fields.DealInputError: players[0].hand: "11♥": no such rank
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from .cards import Card, CardError, parse_cards
from .messages import M_, KunkenError, Reason
from .rules import RuleSet, RuleSetError

MAX_NAME = 40
MAX_MELDS = 40
#: The longest note a recorded deal may carry (why the table recorded it anyway), everywhere.
MAX_NOTE = 1000
#: The most melds a list of melds (a table, an opening) may hold: two decks have 108 cards.
MAX_LISTED_MELDS = 108


class DealInputError(KunkenError):
    """A deal record that cannot be read (wrong shape, bad card, bad name)."""


def bad_field(name: str, expected: str | Reason) -> DealInputError:
    """The error for the field ``name`` holding a value of the wrong kind: it says what was ``expected``."""
    return DealInputError(Reason("bad_field", {"field": name, "expected": expected}))


def read_flag(data: Mapping[str, Any], key: str) -> bool:
    """A true-or-false field of a record (missing or null: false); ``DealInputError`` naming it otherwise.

    >>> read_flag({"express": True}, "express"), read_flag({}, "redeal")
    (True, False)
    """
    value = data.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise bad_field(key, M_("true or false"))
    return value


def read_note(data: Mapping[str, Any], key: str = "note") -> str | None:
    """A note: text of at most ``MAX_NOTE`` characters (blank or left out: None); ``DealInputError`` naming it.

    >>> read_note({"note": " misdeal "}), read_note({})
    ('misdeal', None)
    """
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NOTE:
        raise bad_field(key, Reason("expected_text_at_most", {"limit": MAX_NOTE})).at(field=key)
    if has_control(value):
        raise DealInputError(Reason("note_control", {"field": key}, field=key))
    return value.strip() or None


#: Characters no typed text holds: control characters other than tabs and line breaks.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


#: The invisible joiners some names are written with (Persian, emoji): allowed in a name, unlike the
#: other formatting characters (a right-to-left override would disguise a name).
_JOINERS = str.maketrans("", "", "\u200c\u200d")


def has_control(text: str) -> bool:
    r"""True when ``text`` holds a control character other than a tab or a line break.

    >>> has_control("two\nlines"), has_control("bell\x07")
    (False, True)
    """
    return _CONTROL.search(text) is not None


def read_cards(value: Any, where: str, required: bool = False) -> tuple[Card, ...]:
    """The cards of one field (text, or a list of card tokens); ``DealInputError`` naming the field.

    >>> from kunken_scorer.core.cards import format_cards
    >>> format_cards(read_cards(["K♠", "10h"], "hand")), read_cards(None, "hand")
    ('K♠ 10♥', ())
    """
    if type(value) is not str or not value:  # the usual field is text: straight to parse_cards
        if value is None or value == "" or value == []:
            if required:
                raise DealInputError(Reason("missing_field", {"field": where}))
            return ()
        if not isinstance(value, (str, list)) or (
            isinstance(value, list) and not all(isinstance(t, str) for t in value)
        ):
            raise bad_field(where, M_('cards as text, like "K♠ 10♥ JK"'))
    try:
        cards = parse_cards(value)
    except CardError as err:
        raise DealInputError(Reason("field_error", {"field": where, "why": err.reason})) from None
    if required and not cards:
        raise DealInputError(Reason("missing_field", {"field": where}))
    return cards


def read_melds(data: Mapping[str, Any], key: str, required: bool = False) -> list[tuple[Card, ...]]:
    """A list of melds (each as text or a list of tokens), every meld holding cards; ``DealInputError`` naming it.

    >>> from kunken_scorer.core.cards import format_cards
    >>> [format_cards(m) for m in read_melds({"table": ["6♥ 7♥ 8♥", ["K♠", "K♥", "JK"]]}, "table")]
    ['6♥ 7♥ 8♥', 'K♠ K♥ JK']
    """
    value = data.get(key)
    if value is None or value == []:
        if required:
            raise DealInputError(Reason("missing_field", {"field": key}))
        return []
    if not isinstance(value, list):
        raise bad_field(key, M_('a list of melds, like ["6♥ 7♥ 8♥"]'))
    if len(value) > MAX_LISTED_MELDS:
        raise DealInputError(Reason("too_many_items", {"field": key, "limit": MAX_LISTED_MELDS}))
    return [read_cards(meld, f"{key}[{i}]", required=True) for i, meld in enumerate(value)]


def read_whole(data: Mapping[str, Any], key: str, required: bool = False) -> int | None:
    """A whole-number field, 0 or more (left out: None, unless ``required``); ``DealInputError`` naming it.

    >>> read_whole({"revision": 3}, "revision"), read_whole({}, "deal")
    (3, None)
    """
    value = data.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**9:
        if value is None:
            raise DealInputError(Reason("missing_field", {"field": key}))
        raise bad_field(key, M_("a whole number, 0 or more"))
    return value


def meld_index(meld: Any, where: str) -> int | None:
    """A meld's number counted from 0, or None (the first meld that fits); ``where`` names the field."""
    if meld is not None and (isinstance(meld, bool) or not isinstance(meld, int) or not 0 <= meld < MAX_MELDS):
        raise bad_field(where, M_("a meld number counted from 0 (at most 39), or null"))
    return meld


def clean_name(value: Any, where: str = "name") -> str:
    """A player's name, trimmed and in Unicode's composed form (NFC: "ё" typed as "е" and a combining diaeresis is
    the one letter "ё", so both spellings are one player); 1 to 40 characters. Every name read comes here.

    >>> clean_name("  Анна ")
    'Анна'
    >>> clean_name("Ле\u0308ня") == "Лёня"
    True
    """
    if is_tidy_name(value):
        return value
    if not isinstance(value, str):
        raise bad_field(where, M_("a player's name"))
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name or len(name) > MAX_NAME:
        raise DealInputError(Reason("bad_name", {"limit": MAX_NAME, "field": where}))
    if not name.isprintable() and not name.translate(_JOINERS).isprintable():  # the joiners looked for only then
        raise DealInputError(Reason("name_characters", {"field": where}))
    return name


def player_key(name: str) -> str:
    """The key a player is known by across sessions (statistics, ratings, merges): the name casefolded in
    Unicode's composed form, so capitals and the way a letter was typed do not matter. Casefolding can take a name
    out of NFC ("ΐ" folds to three code points), hence NFC again after it.

    >>> player_key("Лёня") == player_key("ЛЕ\u0308НЯ") == "лёня", player_key("Леня") == player_key("Лёня")
    (True, False)
    >>> player_key("\u0390") == "\u0390".casefold()
    False
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def is_tidy_name(value: Any) -> TypeGuard[str]:
    """True for a name as typed most of the time: text of 1 to 40 printable characters, spaced once, not at its
    ends (printable text holds no space but the ASCII one), in Unicode's composed form (NFC), which ``clean_name``
    would give back as it is."""
    return (
        type(value) is str
        and 0 < len(value) <= MAX_NAME
        and value.isprintable()
        and value[0] != " " != value[-1]
        and "  " not in value
        and unicodedata.is_normalized("NFC", value)
    )


def text_cards(value: Any) -> tuple[Card, ...] | None:
    """The cards of a field written as card text (the usual field); None for anything else, or text that does
    not read as cards: ``read_cards`` then says what is wrong, naming the field (built only then)."""
    if type(value) is not str:
        return () if value is None else None
    try:
        return parse_cards(value)
    except CardError:
        return None


# -- the arguments of the core's public functions, called from Python ----------------------------------------
# A function of the core given a value of the wrong kind raises ``KunkenError`` naming the argument, never a
# ``TypeError`` or an ``AttributeError`` from deep inside; the API and the pages read their fields first.


def rules_arg(rules: Any) -> RuleSet:
    """``rules`` when it is a rule set; ``RuleSetError`` naming the argument otherwise.

    >>> rules_arg(None)
    Traceback (most recent call last):
    ...
    kunken_scorer.core.switches.RuleSetError: rules: expected a rule set (RuleSet).
    """
    if not isinstance(rules, RuleSet):
        raise RuleSetError(Reason("bad_field", {"field": "rules", "expected": M_("a rule set (RuleSet)")}))
    return rules


def cards_arg(value: Any, name: str) -> tuple[Card, ...]:
    """The cards of the argument ``name`` (text, or a list of tokens or cards); ``CardError`` naming it.

    >>> cards_arg(7, "meld")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.cards.CardError: meld: cards are written as text, like "K♠ 10♥ JK", not as int.
    """
    try:
        return parse_cards(value)
    except CardError as err:
        raise CardError(Reason("field_error", {"field": name, "why": err.reason})) from None


def melds_arg(value: Any, name: str, optional: bool = False) -> list[tuple[Card, ...]]:
    """The melds of the argument ``name``: a list (any iterable but text or a mapping) of melds, each read by
    ``cards_arg`` as ``name[i]``; None is no melds when the argument is ``optional``. ``KunkenError`` naming it.

    >>> melds_arg("6♥ 7♥ 8♥", "table")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.messages.KunkenError: table: expected a list of melds, like ["6♥ 7♥ 8♥"].
    """
    if value is None and optional:
        return []
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise KunkenError(Reason("bad_field", {"field": name, "expected": M_('a list of melds, like ["6♥ 7♥ 8♥"]')}))
    return [cards_arg(meld, f"{name}[{i}]") for i, meld in enumerate(value)]


def flag_arg(value: Any, name: str) -> bool:
    """``value`` when it is true or false; ``KunkenError`` naming the argument ``name`` otherwise."""
    if not isinstance(value, bool):
        raise KunkenError(Reason("bad_field", {"field": name, "expected": M_("true or false")}))
    return value
