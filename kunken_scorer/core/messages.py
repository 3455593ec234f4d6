"""Rule messages: every reason or problem the core reports, as a code with parameters.

The core never builds sentences in a language of its own choosing: it reports a
``Reason`` (a code and parameters).  The English template below is the message id that
the web layer translates; ``rule`` names the paragraph of the rules reference the reason
comes from.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from types import TracebackType
from typing import Any, Self


def N_(text: str) -> str:
    """Mark a message template for extraction into the translation catalogs.

    >>> N_("a meld")
    'a meld'
    """
    return text


class Text(str):
    """A translatable phrase passed as a parameter (rendered through the same translation)."""


class Plural(tuple[str, str]):
    """A message template with a singular and a plural form, chosen by the ``count`` parameter."""

    @property
    def singular(self) -> str:
        """The singular form (the catalogs' message id)."""
        return str(self[0])


def P_(singular: str, plural: str) -> Plural:
    """Mark a template whose wording follows its ``{count}`` (translated with the language's plural forms).

    >>> render(Reason("count_cards", {"count": 1})), render(Reason("count_cards", {"count": 3}))
    ('1 card', '3 cards')
    """
    return Plural((singular, plural))


def M_(text: str) -> Text:
    """Mark a phrase used as a message parameter, for extraction and translation.

    >>> shout = {"{field}: expected {expected}.": "{field}: ожидалось {expected}.", "cards as text": "карты"}
    >>> render(Reason("bad_field", {"field": "hand", "expected": M_("cards as text")}), lambda s: shout.get(s, s))
    'hand: ожидалось карты.'
    """
    return Text(text)


#: code -> (rules-reference anchor, English template with ``{param}`` fields)
MESSAGES: dict[str, tuple[str, str | Plural]] = {
    # card input
    "empty_token": ("cards", N_("An empty card was given.")),
    "no_such_rank": ("cards", N_('"{token}": no such rank')),
    "no_such_suit": ("cards", N_('"{token}": no such suit')),
    "missing_suit": ("cards", N_('"{token}": the suit is missing')),
    "bad_pin": ("cards", N_('"{token}": a joker can only be pinned to a natural card, like JK=K♦')),
    "not_card_text": ("cards", N_('Cards are written as text, like "K♠ 10♥ JK", not as {value}.')),
    "range_open": ("cards", N_('"{token}": a run of cards is written from one card to another, like 6♥…10♥')),
    "range_one_suit": (
        "cards",
        N_('"{token}": a run of cards goes from one natural card to another of the same suit, like 6♥…10♥'),
    ),
    "too_many_cards_typed": ("cards", N_("Too many cards: at most {limit} in one entry.")),
    # melds
    "no_cards": ("melds", N_("No cards were given.")),
    "too_few_cards": ("melds", N_("A meld needs at least 3 cards; this one has {count}.")),
    "set_too_many_cards": ("sets", N_("A set has at most 4 cards (one of each suit); this one has {count}.")),
    "run_too_many_cards": ("runs", N_("A run has at most 13 cards; this one has {count}.")),
    "mixed_cards": ("melds", N_("The cards are neither all of one rank (a set) nor all of one suit (a run).")),
    "set_duplicate_card": ("sets", N_("A set may not hold two copies of the same card: {card} appears twice.")),
    "run_duplicate_card": ("runs", N_("A run may not hold the same card twice: {card} appears twice.")),
    "run_not_consecutive": (
        "runs",
        N_("The cards are not in consecutive order: {missing_cards} missing, and {joker_count} to fill the gaps."),
    ),
    "ace_high_and_low": (
        "runs",
        N_("The ace is high (Q K A) or low (A 2 3), never both in one run (wrap-around K A 2 is off)."),
    ),
    "ace_low_off": (
        "runs",
        N_("The ace may not be played low (A 2 3): this table plays without the house rule “{switch}”."),
    ),
    "joker_limit": (
        "joker-limits",
        N_("Too many jokers: {jokers} in a {cards}-card meld, at most {limit} allowed (jokers in one meld: {rule})."),
    ),
    "adjacent_jokers": ("joker-limits", N_("Two jokers may not lie side by side in a run (house rule “{switch}”).")),
    "joker_copies_played": (
        "joker-copies",
        N_("A joker may not stand for {card}: every natural copy the decks hold is already on the table."),
    ),
    "set_joker_no_suit": (
        "joker-copies",
        N_(
            "A joker in this set has no card to stand for: every {rank} the set lacks is already on the table in "
            "every copy, or is taken by another joker of the set."
        ),
    ),
    "pin_mismatch": ("joker-position", N_("{joker} does not fit this meld: the joker would have to be {needed}.")),
    "vist_fills_joker": (
        "swap",
        N_(
            "{card} is the card the meld's joker stands for: putting it in is a joker swap (record it as one), "
            "not a vist."
        ),
    ),
    "pin_wrong_rank": (
        "joker-position",
        N_("{joker} does not fit this set: the joker would have to be a {rank} of a suit the set lacks."),
    ),
    "pin_wrong_suit": (
        "joker-position",
        N_("{joker} does not fit this run: the joker would have to be a card of {suit}."),
    ),
    # disputes
    "swap_no_joker": ("swap", N_("There is no joker in this meld to replace.")),
    "swap_not_natural": ("swap", N_("Only a natural card can replace a joker, not {card}.")),
    "swap_wrong_card": ("swap", N_("{card} cannot replace a joker here: the joker stands for {stands_for}.")),
    "swap_set_suit_taken": ("swap", N_("{card} cannot replace the joker: the set already holds {card}.")),
    "swap_set_wrong_rank": ("swap", N_("{card} cannot replace the joker: this is a set of {rank}s.")),
    "swap_no_layout": ("swap", N_("Only a player who has laid a meld of their own may swap a joker.")),
    "swap_own_meld": (
        "swap",
        N_(
            "A joker may be swapped out of the other players' melds only, not out of one's own: "
            "this table plays without the house rule “{switch}”."
        ),
    ),
    "swap_illegal_meld": ("swap", N_("The meld is not legal as written, so its joker cannot be swapped.")),
    "opening_illegal_meld": ("opening", N_("Meld {meld} is not legal: {why}")),
    "opening_bank_card_missing": ("opening", N_("The card taken, {card}, is not in any of the melds.")),
    "opening_bank_card_alone": (
        "opening",
        N_("The card taken, {card}, must join at least two cards from the hand in one meld."),
    ),
    "opening_too_few_points": (
        "opening",
        N_("The melds are worth {points} points; taking the bank needs at least {needed}."),
    ),
    "opening_first_meld_run": ("ordered-rummy", N_("A player's first meld must be a run.")),
    "discard_illegal_meld": ("rummy-call", N_("Meld {meld} is not legal, so nothing can be added to it: {why}")),
    "discard_no_fit": ("rummy-call", N_("{card} does not fit any of these melds.")),
    "vist_illegal_meld": ("vists", N_("The meld is not legal as it lies, so nothing can be added to it: {why}")),
    # deals
    "illegal_meld": ("melds", N_("{player}: meld {meld} ({cards}) is not legal: {why}")),
    "illegal_vist": ("vists", N_("{player}: the vist {cards} to {to}'s meld {meld} is not legal: {why}")),
    "vist_fits_nothing": ("vists", N_("{player}: the vist {cards} fits none of {to}'s melds.")),
    "vist_no_meld": ("vists", N_("{player}: {to} has no meld {meld} to add {cards} to.")),
    "unknown_player": ("vists", N_("{player}: there is no player called {to}.")),
    "illegal_swap": ("swap", N_("{player}: the swap of {card} into {to}'s meld {meld} is not legal: {why}")),
    "swap_fits_nothing": ("swap", N_("{player}: {card} can replace the joker of none of {to}'s melds.")),
    "swap_no_meld": ("swap", N_("{player}: {to} has no meld {meld} to swap {card} into.")),
    "swap_breaks_meld": ("swap", N_("With the joker taken out, the meld is no longer legal.")),
    "joker_laid_early": (
        "joker-copies",
        N_(
            "{player}: {cards} — {why} The record does not say which came first: "
            "this is legal only if the joker was laid before the second copy."
        ),
    ),
    "went_out_with_hand": ("end-of-deal", N_("{player} went out but still has cards in hand.")),
    "went_out_empty": (
        "end-of-deal",
        N_(
            "{player} went out, but no melds or vists of theirs are recorded: "
            "a player goes out by laying their cards. Check that none were left out."
        ),
    ),
    "hand_unknown_key": ("hand-short", N_("{field}: no such count; use {keys}.")),
    "hand_count_too_big": ("hand-short", N_("{field}: at most {limit}; the decks hold no more.")),
    "hand_rank_too_many": ("hand-short", N_("{field}: at most {limit} cards of rank {rank}; the decks hold no more.")),
    "hand_count_wild": (
        "hand-short",
        N_("{field}: at most {limit}; every {wild} plays as a joker, so count it with the jokers."),
    ),
    "hand_small_not_alike": (
        "hand-short",
        N_(
            "{field}: small cards score their face value in this game, "
            "so they cannot be counted together; give the points instead."
        ),
    ),
    "hand_points_impossible": (
        "hand-short",
        N_("{field}: no hand of this game is worth that: the points are a multiple of {step}, at most {most}."),
    ),
    "hand_points_no_cards": ("hand-short", N_("{field}: no cards of this game add up to that many points ({points}).")),
    "too_many_copies": ("cards", N_("{card} is recorded {count} times; the decks hold only {decks}.")),
    "too_many_jokers": ("cards", N_("{count} jokers are recorded; the deck has only {deck}.")),
    "went_out_with_cards": ("end-of-deal", N_("{player} went out but still has cards in hand: {cards}.")),
    "hand_not_entered": (
        "end-of-deal",
        N_("{player}: cards left in hand not entered — type them, or mark who went out."),
    ),
    "joker_not_in_deck": (
        "wild-card",
        P_(
            "{count} printed joker recorded, but this table plays without printed jokers: {wild} is wild.",
            "{count} printed jokers recorded, but this table plays without printed jokers: {wild} is wild.",
        ),
    ),
    "unknown_went_out": ("end-of-deal", N_("Nobody called {player} plays in this deal.")),
    "express_without_going_out": ("express", N_("Express needs a player who went out.")),
    "express_not_in_game": ("express", N_("This game has no express.")),
    "additions_without_run": (
        "ordered-rummy",
        N_(
            "{player} added cards to melds without laying a meld; "
            "a player's first meld must be a run, and additions come after it."
        ),
    ),
    "no_run": (
        "ordered-rummy",
        N_("{player} has melds but none of them is a run; a player's first meld must be a run."),
    ),
    "player_count": ("players", N_("This game is for {min} to {max} players; the deal has {count}.")),
    "duplicate_player": ("players", N_("The name {player} is used twice.")),
}


@dataclass(frozen=True)
class Reason:
    """A rule violation or remark: a message code with its parameters, and where in a deal it belongs.

    >>> Reason("too_few_cards", {"count": 2}).message
    'A meld needs at least 3 cards; this one has 2.'
    >>> Reason("too_few_cards", {"count": 2}).rule
    'melds'

    The location is set wherever the core knows it (reading a deal or a player's part, a deal's problems):
    ``seat``, the player's index in the deal's players (None: a field of the deal's own, or a part read
    on its own), and ``field``, the key of the field: of a player's record or part (``name``, ``melds``,
    ``vists``, ``swaps``, ``hand``, or the count of a short-form hand ``small``, ``faces``, ``aces``,
    ``jokers``: what the deal form's fields are called; a hand's ``points`` are the ``hand``'s), or of the
    deal (``went_out``, ``express``, ``redeal``, ``note``). Both are None where the core does not know.
    Neither takes part in equality: a reason is its code and parameters.

    >>> located = Reason("illegal_meld", {"player": "Boris"}, seat=1, field="melds")
    >>> located, located == Reason("illegal_meld", {"player": "Boris"})
    (Reason(code='illegal_meld', params={'player': 'Boris'}, seat=1, field='melds'), True)
    """

    code: str
    params: Mapping[str, Any] = dataclass_field(default_factory=dict)
    seat: int | None = dataclass_field(default=None, compare=False)
    field: str | None = dataclass_field(default=None, compare=False)

    def __repr__(self) -> str:
        """The dataclass's repr; the location only when there is one.

        >>> Reason("no_cards")
        Reason(code='no_cards', params={})
        """
        where = "" if self.seat is None and self.field is None else f", seat={self.seat!r}, field={self.field!r}"
        return f"Reason(code={self.code!r}, params={self.params!r}{where})"

    def at(self, seat: int | None = None, field: str | None = None) -> Reason:
        """This reason located at ``seat`` and ``field``; what it already says of its place is kept (the
        field a hand's reader names, ``small``, stays when the player's part adds the seat and ``hand``).

        >>> reason = Reason("hand_count_too_big", {"field": "players[1].hand.small", "limit": 72})
        >>> reason.at(field="small").at(1, "hand")
        Reason(code='hand_count_too_big', params={'field': 'players[1].hand.small', 'limit': 72}, seat=1, field='small')
        """
        seat = self.seat if self.seat is not None else seat
        field = self.field if self.field is not None else field
        if seat == self.seat and field == self.field:
            return self
        return replace(self, seat=seat, field=field)

    @property
    def template(self) -> str | Plural:
        """The English template (the translation catalogs' message id), or its two forms."""
        return MESSAGES[self.code][1]

    @property
    def rule(self) -> str:
        """The anchor of the rules-reference paragraph this reason comes from."""
        return MESSAGES[self.code][0]

    @property
    def anchors(self) -> tuple[str, ...]:
        """The rules paragraphs the reason points at: its own first, then those of the reasons it quotes.

        >>> Reason("field_error", {"field": "hand", "why": Reason("no_such_rank", {"token": "11♥"})}).anchors
        ('deal-record', 'cards')
        """
        anchors = [self.rule]
        for value in self.params.values():
            for inner in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(inner, Reason) and inner.rule not in anchors:
                    anchors.append(inner.rule)
        return tuple(anchors)

    @property
    def message(self) -> str:
        """The reason as an English sentence."""
        return render(self)

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """The reason as plain data: code, English message, rule anchor and parameters."""
        return {
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "params": {k: _echoed(v) if k in ECHOED else _plain(v) for k, v in self.params.items()},
        }


def _plain(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, Reason):
        return value.message
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


#: Parameters that repeat what someone typed or sent: shown shortened, so that a 5,000-character
#: value does not come back whole in its own error message.
ECHOED = frozenset({"token", "value", "who", "switch", "game"})


def _shown(value: Any) -> str:
    """A value that is not text, as a message repeats it: spelled as JSON, the way it was sent (``null``,
    ``true``, ``{"a": 1}``, not Python's ``None``); an int past 4,300 digits has no spelling at all."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return str(value)
    except (ValueError, RecursionError):  # an int past 4,300 digits; a list nested a thousand deep
        return type(value).__name__


def _echoed(value: Any) -> Any:
    """A value someone typed or sent, as a message or a reason's data repeats it: text shortened, a number
    kept while it is short (an int of 5,000 digits could not be written as JSON), a ``Text`` as it is."""
    if isinstance(value, Text) or value is None or isinstance(value, bool):
        return value
    shown = value if isinstance(value, str) else _shown(value)
    if isinstance(value, (int, float)) and len(shown) <= 40 and shown != type(value).__name__:
        return value
    return shortened(shown)


def shortened(text: str, limit: int = 40) -> str:
    """``text`` as a message repeats it: at most ``limit`` characters, an ellipsis marking a cut.

    >>> shortened("K♠"), shortened("1" * 50)
    ('K♠', '111111111111111111111111111111111111111…')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render(
    reason: Reason,
    translate: Callable[[str], str] = lambda s: s,
    translate_plural: Callable[[str, str, int], str] = _english_plural,
    nested: bool = False,
) -> str:
    """Render a reason with ``translate`` applied to its template and nested reasons
    (``translate_plural(singular, plural, count)`` for a template with two forms).

    A nested reason goes on mid-sentence (after a colon or a dash), so its first word is not capitalised,
    unless the reason starts with a value (a player's name, a card):

    >>> render(Reason("no_such_rank", {"token": "11♥"}))
    '"11♥": no such rank'
    >>> render(Reason("opening_illegal_meld", {"meld": 2, "why": [Reason("too_few_cards", {"count": 2})]}))
    'Meld 2 is not legal: a meld needs at least 3 cards; this one has 2.'
    """
    params = {}
    for key, value in reason.params.items():
        if key in ECHOED:
            value = _echoed(value)
            if value is None or isinstance(value, bool):
                value = _shown(value)
        if isinstance(value, Text):
            value = translate(value)
        elif isinstance(value, Reason):
            value = render(value, translate, translate_plural, nested=True)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Reason) for v in value):
            first, *rest = value
            value = " ".join(
                [render(first, translate, translate_plural, nested=True)]
                + [render(v, translate, translate_plural) for v in rest]
            )
        params[key] = value
    template = reason.template
    if isinstance(template, Plural):
        words = translate_plural(template[0], template[1], int(params.get("count", 0)))
    else:
        words = translate(template)
    text = words.format(**params)
    first = text.split(" ", 1)[0]
    if (
        nested
        and not words.startswith("{")
        and first.isalpha()
        and first[0].isupper()
        and first[1:] == first[1:].lower()
    ):
        return text[0].lower() + text[1:]  # a word ("A", "Джокер"), not a card or an abbreviation
    return text


class KunkenError(ValueError):
    """Bad input to the rules core: carries a ``Reason`` a person can act on.

    >>> str(KunkenError(Reason("no_such_rank", {"token": "11♥"})))
    '"11♥": no such rank'
    """

    def __init__(self, reason: Reason):
        super().__init__(reason.message)
        self.reason = reason

    @property
    def code(self) -> str:
        """The reason's message code."""
        return self.reason.code

    def at(self, seat: int | None = None, field: str | None = None) -> Self:
        """The same error, its reason located (``Reason.at``).

        >>> err = KunkenError(Reason("missing_field", {"field": "players[0].hand"})).at(0, "hand")
        >>> type(err).__name__, err.reason.seat, err.reason.field, str(err)
        ('KunkenError', 0, 'hand', 'players[0].hand is missing.')
        """
        reason = self.reason.at(seat, field)
        return self if reason is self.reason else type(self)(reason)


class Located:
    """``with Located(seat, field):`` locates a ``KunkenError`` raised inside (``KunkenError.at``), as the
    same kind of error: the place a reader is reading, for errors raised deeper that do not know it.

    >>> try:
    ...     with Located(2, "vists"):
    ...         raise KunkenError(Reason("missing_field", {"field": "players[2].vists[0].to"}))
    ... except KunkenError as err:
    ...     err.reason.seat, err.reason.field
    (2, 'vists')
    """

    __slots__ = ("seat", "field")

    def __init__(self, seat: int | None = None, field: str | None = None) -> None:
        self.seat = seat
        self.field = field

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if isinstance(error, KunkenError):
            raise error.at(self.seat, self.field) from None


MESSAGES.update(
    {
        "unknown_game": ("games", N_('"{game}": no such game; choose one of {games}.')),
        "unknown_switch": ("house-rules", N_('"{switch}": no such house rule.')),
        "bad_switch_value": ("house-rules", N_('House rule “{label}”: "{value}" is not allowed; expected {expected}.')),
        "bad_switch_value_sent": (
            "house-rules",
            N_("House rule “{label}”: {value} is not allowed; expected {expected}."),
        ),
        "bad_field": ("deal-record", N_("{field}: expected {expected}.")),
        "field_error": ("deal-record", N_("{field}: {why}")),
        "missing_field": ("deal-record", N_("{field} is missing.")),
        "empty_meld": (
            "deal-record",
            N_("{field} holds no cards: enter the meld's cards, or leave the entry out."),
        ),
        "bad_name": ("players", N_("Player names must be 1 to {limit} characters: {field}.")),
        "name_characters": (
            "players",
            N_("{field}: a player's name may not hold control characters or invisible formatting marks."),
        ),
        "note_control": ("deal-record", N_("{field}: a note may not hold control characters.")),
        "too_many_items": ("deal-record", N_("{field}: at most {limit} allowed.")),
        "deal_too_many_cards": (
            "deal-record",
            N_("The deal holds {count} cards, more than any decks deal; a deal of at most {limit} cards is read."),
        ),
        "bad_target": ("session-end", N_("Target: {why}")),
        "other_game": ("games", N_("This score sheet plays {game}, not {value}; leave out game.")),
        "other_rules": (
            "house-rules",
            N_("This score sheet keeps the rules it was created with; these differ: {switches}. Leave out rules."),
        ),
        "expected_range": ("house-rules", N_("a whole number from {lo} to {hi}")),
        "expected_one_of": ("house-rules", N_("one of {options}")),
        "expected_range_or": ("house-rules", N_("a whole number from {lo} to {hi}, or {word}")),
        "expected_at_most": ("house-rules", N_("at most {limit}")),
        "expected_text_at_most": ("deal-record", N_("a text of at most {limit} characters, or nothing")),
        "unknown_field": ("deal-record", N_("{field}: no such field; a part has melds, vists, swaps and hand.")),
        "draft_waiting": ("deal-record", N_("Waiting for the part of {players}: enter it, or ask them to.")),
        # counts and a switch's value in words
        "count_cards": ("cards", P_("{count} card", "{count} cards")),
        "count_jokers": ("cards", P_("{count} joker", "{count} jokers")),
        "no_joker": ("cards", N_("no joker")),
        "count_points": ("points", P_("{count} point", "{count} points")),
        "count_minus_points": ("scoring", P_("{count} minus point", "{count} minus points")),
        "times": ("house-rules", N_("×{count}")),
        "words": ("house-rules", N_("{text}")),
        "number": ("house-rules", N_("{count}")),
        # stored sessions, imports and exports
        "json_invalid": ("deal-record", N_("This is not valid JSON (line {line}, column {column}).")),
        "json_number": ("deal-record", N_("This is not valid JSON: {value} is not a JSON number.")),
        "json_bom": ("deal-record", N_("This is not valid JSON: it starts with a second byte-order mark.")),
        "json_long_number": ("deal-record", N_("This is not valid JSON: a number has more digits than can be read.")),
        "json_too_deep": ("deal-record", N_("This JSON is nested too deeply to be read.")),
        "json_not_unicode": (
            "deal-record",
            N_("This JSON holds an escape such as “\\ud800” that is not valid Unicode text."),
        ),
        "import_not_document": ("deal-record", N_("This is not a score sheet export: expected a JSON object.")),
        "import_format": (
            "deal-record",
            N_('This is not a score sheet export this version can read: format must be "{format}".'),
        ),
        "import_field": ("deal-record", N_("The export's field {field} is wrong: expected {expected}.")),
        "import_deal": ("deal-record", N_("Deal {number} cannot be read: {why}")),
        "import_deal_twice": (
            "deal-record",
            N_("The export's field {field} is wrong: the deals are numbered once each, and {number} is not."),
        ),
        "import_deal_problems": (
            "deal-record",
            N_("Deal {number} has problems and was not recorded anyway (override): {why}"),
        ),
        "deal_players": ("deal-record", N_("The deal must list this session's players ({players}); got {got}.")),
        "stored_deal_unreadable": ("deal-record", N_("This stored deal could not be read: {why}")),
        "session_players": ("players", N_("Name {min} to {max} different players.")),
        "player_number": ("players", N_("Player {n}")),
        # typed lines of a deal's parts (notation.py)
        "line_error": ("deal-record", N_("Line {n} (“{line}”): {why}")),
        "too_many_lines": ("deal-record", N_("At most {limit} lines.")),
        "vist_meld_from_one": ("vists", N_("melds are numbered from 1 to {limit}.")),
        "vist_no_cards": ("vists", N_("no cards after the colon.")),
        "vist_syntax": ("vists", N_("write the player's name, a colon, then the cards, like “{example}”.")),
        "vist_unknown_player": ("vists", N_("“{who}” is not a player in this session ({players}).")),
        "swap_one_card": ("swap", N_("a swap puts exactly one card in the joker’s place.")),
        "hand_points_whole": ("deal-record", N_("The points of a hand are a whole number, 0 or more, like “35 JK”.")),
        "hand_points_jokers": ("deal-record", N_("After the points, write only the jokers, like “35 JK JK”.")),
        "hand_by_rank": (
            "deal-record",
            N_("Name each card left in hand by its rank, like “9 9 K JK”, or give the points, like “40 JK”."),
        ),
    }
)
