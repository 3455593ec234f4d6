"""A deal as the table records it, its validation and its scores.

>>> from kunken_scorer.rules import RuleSet
>>> deal = Deal.from_dict({"players": [
...     {"name": "Anna", "melds": ["A♠ A♥ A♦"], "vists": [{"to": "Boris", "meld": 0, "cards": "5♥"}], "hand": ""},
...     {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "vists": [], "hand": "K♣ JK"}],
...     "went_out": "Anna", "express": False})
>>> [(p.name, p.plus, p.minus, p.score) for p in evaluate_deal(deal, RuleSet.preset()).players]
[('Anna', 35, 0, 35), ('Boris', 15, 20, -5)]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import chain, filterfalse
from math import gcd
from typing import Any, TypeGuard

from .cards import Card, CardError, Rank, format_cards, parse_cards
from .melds import MeldCheck, check_parsed, extend, opens_with_run, swap_into
from .messages import M_, KunkenError, Reason
from .records import record
from .rules import RuleSet

MAX_NAME = 40
MAX_PLAYERS = 12
MAX_MELDS = 40
MAX_VISTS = 40
MAX_SWAPS = 40
#: The longest note a recorded deal may carry (why the table recorded it anyway), everywhere.
MAX_NOTE = 1000
#: The most melds a list of melds (a table, an opening) may hold: two decks have 108 cards.
MAX_LISTED_MELDS = 108
#: The most cards a deal's record may hold in all (a short-form hand's counted cards and jokers too): twice
#: what four decks hold. More is no deal, mistakes and all, and its vists would be tried against every meld
#: pass after pass (a second of work or more).
MAX_DEAL_CARDS = 432
#: The field of a deal record each problem is about: a part of the record of the player it names (melds, vists,
#: swaps, hand), or a field of the deal's own (went_out, express). A form shows the problem beside that field.
PROBLEM_FIELD = {
    **dict.fromkeys(("illegal_meld", "no_run"), "melds"),
    **dict.fromkeys(("illegal_vist", "vist_fits_nothing", "vist_no_meld", "unknown_player"), "vists"),
    **dict.fromkeys(("went_out_with_cards", "went_out_with_hand"), "hand"),
    **dict.fromkeys(("illegal_swap", "swap_fits_nothing", "swap_no_meld"), "swaps"),
    "unknown_went_out": "went_out",
    **dict.fromkeys(("express_without_going_out", "express_not_in_game"), "express"),
}
#: Short forms of a hand: counts by kind of card (games where every small card scores alike), or points.
HAND_COUNTS = ("small", "faces", "aces", "jokers")
HAND_POINTS = ("points", "jokers")
#: How many cards of each kind one deck holds (small: 2..10 of four suits, faces: J Q K, aces).
_PER_DECK = {"small": 9 * 4, "faces": 3 * 4, "aces": 4}
#: The ways a table may enter the cards left in hand (counts only where small cards score alike).
HAND_ENTRIES = ("counts", "points", "cards")
#: The reason a rule-set-dependent check of a recorded deal reports as a warning, not a problem:
#: a record has no order, and a joker may have been laid before the second copy of its card.
ORDER_DEPENDENT = frozenset({"joker_copies_played", "set_joker_no_suit"})


class DealInputError(KunkenError):
    """A deal record that cannot be read (wrong shape, bad card, bad name)."""


@record
class Vist:
    """Cards a player adds to another player's meld (``meld`` is an index, or None: the first that fits)."""

    to: str
    cards: tuple[Card, ...]
    meld: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The vist as recorded, in API notation."""
        return {"to": self.to, "meld": self.meld, "cards": format_cards(self.cards)}


@record
class Swap:
    """A joker swap: ``by`` put the natural ``card`` into ``owner``'s meld in place of its joker.

    ``meld`` is an index into the owner's melds, or None: the first meld the swap fits.
    """

    by: str
    owner: str
    card: Card
    meld: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The swap as recorded, in API notation (``from`` is the meld's owner)."""
        return {"by": self.by, "from": self.owner, "meld": self.meld, "card": str(self.card)}


@record
class HandSummary:
    """Cards left in hand in short form: counts by kind (``small`` 2–10, ``faces`` J Q K, ``aces``),
    or the natural cards' ``points``; and the ``jokers``. Scores as the same cards typed would.

    >>> hand = HandSummary.from_value({"small": 2, "faces": 1, "jokers": 1}, "hand")
    >>> hand.points_under(RuleSet.preset()), hand.jokers, hand.to_dict()
    (20, 1, {'small': 2, 'faces': 1, 'aces': 0, 'jokers': 1})
    >>> HandSummary.from_value({"points": -5}, "hand")
    Traceback (most recent call last):
    ...
    kunken_scorer.deal.DealInputError: hand.points: expected a whole number, 0 or more.
    """

    jokers: int = 0
    points: int | None = None
    small: int = 0
    faces: int = 0
    aces: int = 0

    @classmethod
    def from_value(cls, value: Mapping[str, Any], where: str) -> HandSummary:
        """Read ``{"small", "faces", "aces", "jokers"}`` or ``{"points", "jokers"}``; bad values name the field."""
        keys = HAND_POINTS if "points" in value else HAND_COUNTS
        for key in value:
            if key not in keys:
                raise DealInputError(Reason("hand_unknown_key", {"field": f"{where}.{key}", "keys": ", ".join(keys)}))
        counts = {}
        for key in keys:
            n = value.get(key, 0)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise _bad(f"{where}.{key}", M_("a whole number, 0 or more"))
            if n > 100_000:  # more than any decks hold, whatever the game: not worth reading
                raise DealInputError(Reason("hand_count_too_big", {"field": f"{where}.{key}", "limit": 100_000}))
            counts[key] = n
        return cls(**counts)

    def check_for(self, rules: RuleSet, where: str, recorded_anyway: bool = False) -> None:
        """Raise ``DealInputError`` (naming the field) when no hand of this game could be so.

        ``recorded_anyway``: a deal an import brings back as the table recorded it anyway, which an older
        release let through before jokers were limited to the decks' (5 jokers of 4). Its jokers may go up
        to the decks' plus a hand's cards (17 in Kunken): each doubles the minus, and more would make
        scores no statistics can keep (108 made a minus of 34 digits). Every other limit is today's.
        """
        # more jokers than the decks hold (14,300 of them, each doubling the minus, made a score with no str())
        most_jokers = rules.deck_jokers + (rules.hand_size if recorded_anyway else 0)
        if self.jokers > most_jokers:
            raise DealInputError(Reason("hand_count_too_big", {"field": f"{where}.jokers", "limit": most_jokers}))
        if self.points is None:
            if self.small and rules.number_points is None:
                raise DealInputError(Reason("hand_small_not_alike", {"field": f"{where}.small"}))
            for key, per_deck in _PER_DECK.items():
                if getattr(self, key) > per_deck * rules.decks:
                    raise DealInputError(
                        Reason("hand_count_too_big", {"field": f"{where}.{key}", "limit": per_deck * rules.decks})
                    )
            return
        values = set(rules.points_by_rank.values())
        step = gcd(*values)  # 0 when no card is worth anything
        most = rules.decks * 4 * sum(rules.points_by_rank.values())
        if (step and self.points % step) or self.points > most:
            raise DealInputError(
                Reason("hand_points_impossible", {"field": f"{where}.points", "step": step, "most": most})
            )
        if not rules.hand_points >> self.points & 1:  # 1 point, or all the cards' 792 less 1 (ordered rummy)
            raise DealInputError(Reason("hand_points_no_cards", {"field": f"{where}.points", "points": self.points}))

    def points_under(self, rules: RuleSet) -> int:
        """The natural cards' points under ``rules``."""
        if self.points is not None:
            return self.points
        by_rank = rules.points_by_rank
        return self.small * (rules.number_points or 0) + self.faces * by_rank[Rank.KING] + self.aces * by_rank[Rank.ACE]

    @property
    def empty(self) -> bool:
        """True when the hand holds no card at all."""
        return not (self.jokers or self.points or self.small or self.faces or self.aces)

    def to_dict(self) -> dict[str, Any]:
        """The short form in the API's shape."""
        if self.points is not None:
            return {"points": self.points, "jokers": self.jokers}
        return {"small": self.small, "faces": self.faces, "aces": self.aces, "jokers": self.jokers}


@record
class PlayerRecord:
    """One player's part of a deal: melds laid, vists made, cards left in hand (or their short form)."""

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    vists: tuple[Vist, ...] = ()
    hand: tuple[Card, ...] = ()
    hand_summary: HandSummary | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record in API notation."""
        hand = self.hand_summary.to_dict() if self.hand_summary else format_cards(self.hand)
        return {
            "name": self.name,
            "melds": [format_cards(m) for m in self.melds],
            "vists": [v.to_dict() for v in self.vists],
            "hand": hand,
        }

    @property
    def short_hand_cards(self) -> int:
        """How many cards a short-form hand counts (its jokers, and its cards when counted by kind); 0 for a
        hand typed as cards."""
        short = self.hand_summary
        return 0 if short is None else short.small + short.faces + short.aces + short.jokers

    @property
    def holds_cards(self) -> bool:
        """True when any card is left in hand."""
        return bool(self.hand) or (self.hand_summary is not None and not self.hand_summary.empty)


@record
class Deal:
    """A whole deal as recorded: every player's cards, who went out, express, or a redeal."""

    players: tuple[PlayerRecord, ...]
    went_out: str | None = None
    express: bool = False
    redeal: bool = False
    swaps: tuple[Swap, ...] = ()

    @classmethod
    def from_dict(cls, data: Any) -> Deal:
        """Read a deal from the API's JSON shape; bad input raises ``DealInputError``.

        >>> Deal.from_dict({"players": [{"name": "Anna", "hand": "11♥"}]})
        Traceback (most recent call last):
        ...
        kunken_scorer.deal.DealInputError: players[0].hand: "11♥": no such rank
        """
        if not isinstance(data, Mapping):
            raise _bad("deal", M_("an object"))
        raw_players = data.get("players")
        if raw_players is None:
            raise DealInputError(Reason("missing_field", {"field": "players"}))
        if not isinstance(raw_players, list):
            raise _bad("players", M_("a list of players"))
        if len(raw_players) > MAX_PLAYERS:
            raise DealInputError(Reason("too_many_items", {"field": "players", "limit": MAX_PLAYERS}))
        redeal = read_flag(data, "redeal")
        players = tuple(_player(p, f"players[{i}]", redeal) for i, p in enumerate(raw_players))
        went_out = data.get("went_out")
        if went_out is not None and not isinstance(went_out, str):
            raise _bad("went_out", M_("a player's name or null"))
        went_out = clean_name(went_out, "went_out") if went_out and went_out.strip() else None
        swaps = () if redeal else _swaps(data.get("swaps"))
        count = len(swaps)
        for p in players:
            count += len(p.hand) + sum(map(len, p.melds))
            if p.hand_summary is not None:
                count += p.short_hand_cards
            if p.vists:
                count += sum(len(v.cards) for v in p.vists)
        if count > MAX_DEAL_CARDS:
            raise DealInputError(Reason("deal_too_many_cards", {"count": count, "limit": MAX_DEAL_CARDS}))
        return cls(players, went_out, read_flag(data, "express"), redeal, swaps)

    def to_dict(self) -> dict[str, Any]:
        """The deal in the API's JSON shape (canonical card notation).

        >>> Deal.from_dict({"players": [{"name": "Vera", "hand": "тп"}]}).to_dict()["players"][0]["hand"]
        'A♠'
        """
        out = {
            "players": [p.to_dict() for p in self.players],
            "went_out": self.went_out,
            "express": self.express,
            "redeal": self.redeal,
        }
        if self.swaps:
            out["swaps"] = [s.to_dict() for s in self.swaps]
        return out

    @property
    def names(self) -> list[str]:
        """The players' names in seat order."""
        return [p.name for p in self.players]

    @property
    def empty_hands(self) -> list[str]:
        """The players who hold no card at the end of the deal (the one who went out, usually).

        >>> Deal.from_dict({"players": [{"name": "A", "hand": ""}, {"name": "B", "hand": {"points": 5}}]}).empty_hands
        ['A']
        """
        return [p.name for p in self.players if not p.holds_cards]


def _bad(name: str, expected: str | Reason) -> DealInputError:
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
        raise _bad(key, M_("true or false"))
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
        raise _bad(key, Reason("expected_text_at_most", {"limit": MAX_NOTE}))
    if has_control(value):
        raise DealInputError(Reason("note_control", {"field": key}))
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
            raise _bad(where, M_('cards as text, like "K♠ 10♥ JK"'))
    try:
        cards = parse_cards(value)
    except CardError as err:
        raise DealInputError(Reason("field_error", {"field": where, "why": err.reason})) from None
    if required and not cards:
        raise DealInputError(Reason("missing_field", {"field": where}))
    return cards


def read_melds(data: Mapping[str, Any], key: str, required: bool = False) -> list[tuple[Card, ...]]:
    """A list of melds (each as text or a list of tokens), every meld holding cards; ``DealInputError`` naming it.

    >>> [format_cards(m) for m in read_melds({"table": ["6♥ 7♥ 8♥", ["K♠", "K♥", "JK"]]}, "table")]
    ['6♥ 7♥ 8♥', 'K♠ K♥ JK']
    """
    value = data.get(key)
    if value is None or value == []:
        if required:
            raise DealInputError(Reason("missing_field", {"field": key}))
        return []
    if not isinstance(value, list):
        raise _bad(key, M_('a list of melds, like ["6♥ 7♥ 8♥"]'))
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
        raise _bad(key, M_("a whole number, 0 or more"))
    return value


def _swaps(raw: Any) -> tuple[Swap, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _bad("swaps", M_("a list of swaps"))
    if len(raw) > MAX_SWAPS:
        raise DealInputError(Reason("too_many_items", {"field": "swaps", "limit": MAX_SWAPS}))
    out = []
    for j, s in enumerate(raw):
        where = f"swaps[{j}]"
        if not isinstance(s, Mapping):
            raise _bad(where, M_("an object with by, from, meld and card"))
        meld = _meld_index(s.get("meld"), f"{where}.meld")
        card = read_cards(s.get("card"), f"{where}.card")
        if len(card) != 1:
            raise _bad(f"{where}.card", M_("exactly one card"))
        out.append(
            Swap(clean_name(s.get("by"), f"{where}.by"), clean_name(s.get("from"), f"{where}.from"), card[0], meld)
        )
    return tuple(out)


def _meld_index(meld: Any, where: str) -> int | None:
    if meld is not None and (isinstance(meld, bool) or not isinstance(meld, int) or not 0 <= meld < MAX_MELDS):
        raise _bad(where, M_("a meld number counted from 0 (at most 39), or null"))
    return meld


def _hand(raw: Any, where: str) -> tuple[tuple[Card, ...], HandSummary | None]:
    if raw is not None and not isinstance(raw, (str, list)) and isinstance(raw, Mapping):
        return (), HandSummary.from_value(raw, where)
    return read_cards(raw, where), None


def clean_name(value: Any, where: str = "name") -> str:
    """A player's name, trimmed; 1 to 40 characters.

    >>> clean_name("  Анна ")
    'Анна'
    """
    if _tidy(value):
        return value
    if not isinstance(value, str):
        raise _bad(where, M_("a player's name"))
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME:
        raise DealInputError(Reason("bad_name", {"limit": MAX_NAME, "field": where}))
    if not name.isprintable() and not name.translate(_JOINERS).isprintable():  # the joiners looked for only then
        raise DealInputError(Reason("name_characters", {"field": where}))
    return name


def _tidy(value: Any) -> TypeGuard[str]:
    """True for a name as typed most of the time: text of 1 to 40 printable characters, spaced once, not at its
    ends (printable text holds no space but the ASCII one), which ``clean_name`` would give back as it is."""
    return (
        type(value) is str
        and 0 < len(value) <= MAX_NAME
        and value.isprintable()
        and value[0] != " " != value[-1]
        and "  " not in value
    )


def _player(raw: Any, where: str, redeal: bool) -> PlayerRecord:
    if isinstance(raw, str) and redeal:
        return PlayerRecord(clean_name(raw, where))
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise _bad(where, M_("an object with name, melds, vists and hand"))
    given = raw.get("name")
    name = given if _tidy(given) else clean_name(given, f"{where}.name")
    melds = raw.get("melds") or []
    if isinstance(melds, str):
        melds = [line for line in melds.splitlines() if line.strip()]
    if not isinstance(melds, list):
        raise _bad(f"{where}.melds", M_("a list of melds"))
    if len(melds) > MAX_MELDS:
        raise DealInputError(Reason("too_many_items", {"field": f"{where}.melds", "limit": MAX_MELDS}))
    parsed_melds = []
    for j, meld in enumerate(melds):
        cards = _text_cards(meld)
        if cards is None:  # not plain card text: read_cards says what is wrong, naming the field
            cards = read_cards(meld, f"{where}.melds[{j}]")
        if cards:
            parsed_melds.append(cards)
    vists = raw.get("vists") or []
    if not isinstance(vists, list):
        raise _bad(f"{where}.vists", M_("a list of vists"))
    if len(vists) > MAX_VISTS:
        raise DealInputError(Reason("too_many_items", {"field": f"{where}.vists", "limit": MAX_VISTS}))
    parsed_vists = []
    for j, v in enumerate(vists):
        vw = f"{where}.vists[{j}]"
        if not isinstance(v, Mapping):
            raise _bad(vw, M_("an object with to, meld and cards"))
        meld = v.get("meld")
        if meld is not None:
            _meld_index(meld, f"{vw}.meld")
        cards = read_cards(v.get("cards"), f"{vw}.cards")
        if cards:
            parsed_vists.append(Vist(clean_name(v.get("to"), f"{vw}.to"), cards, meld))
    hand = raw.get("hand")
    summary = None
    cards = _text_cards(hand)
    if cards is None:
        cards, summary = _hand(hand, f"{where}.hand")
    return PlayerRecord(name, tuple(parsed_melds), tuple(parsed_vists), cards, summary)


def _text_cards(value: Any) -> tuple[Card, ...] | None:
    """The cards of a field written as card text (the usual field); None for anything else, or text that does
    not read as cards: ``read_cards`` then says what is wrong, naming the field (built only then)."""
    if type(value) is not str:
        return () if value is None else None
    try:
        return parse_cards(value)
    except CardError:
        return None


# -- evaluation --------------------------------------------------------------------------


@record
class PlayerScore:
    """One player's result in a deal."""

    name: str
    plus: int
    minus: int
    score: int

    def to_dict(self) -> dict[str, Any]:
        """The result in the API's shape."""
        return {"name": self.name, "plus": self.plus, "minus": self.minus, "score": self.score}


@record
class VistResult:
    """Where a vist went and what it scored."""

    vist: Vist
    meld: int | None
    legal: bool
    points: int
    check: MeldCheck | None = None


@record
class SwapResult:
    """Where a joker swap went and what its natural card scored for the swapper."""

    swap: Swap
    meld: int | None
    legal: bool
    points: int


@record
class PlayerDetail:
    """Everything the scorer worked out for one player: meld verdicts, vists, swaps, hand points."""

    name: str
    melds: tuple[MeldCheck, ...]
    vists: tuple[VistResult, ...]
    hand_points: int
    hand_jokers: int
    #: the player's melds at the end of the deal, with every legal swap and vist applied
    final_melds: tuple[MeldCheck, ...] = ()
    #: the swaps this player made
    swaps: tuple[SwapResult, ...] = ()
    #: plus points of this player's illegal melds, vists and swaps (before express)
    unchecked: int = 0


@record
class DealReport:
    """Validation and scores of a deal. Problems never stop scoring: the table decides.

    ``warnings`` are what the record cannot settle (it has no order); they never block recording.
    """

    players: tuple[PlayerScore, ...]
    problems: tuple[Reason, ...] = ()
    details: tuple[PlayerDetail, ...] = ()
    warnings: tuple[Reason, ...] = ()
    #: the player whose express doubled the scores (None without an express), and by how much
    express_by: str | None = None
    express_multiplier: int = 1

    @property
    def checked_players(self) -> tuple[PlayerScore, ...]:
        """The scores with nothing counted for illegal melds, vists and swaps (the preview's view).

        >>> report = evaluate_deal(Deal.from_dict({"players": [
        ...     {"name": "A", "melds": ["K♠ K♠ K♥", "2♣ 3♣ 4♣"]}, {"name": "B", "hand": "5♦"}]}), RuleSet.preset())
        >>> report.players[0].plus, report.checked_players[0].plus
        (45, 15)
        """
        if not self.details:  # a redeal: nothing was scored
            return self.players
        out = []
        for score, detail in zip(self.players, self.details, strict=True):
            if not detail.unchecked:
                out.append(score)
                continue
            plus = score.plus - detail.unchecked * (self.express_multiplier if score.name == self.express_by else 1)
            out.append(PlayerScore(score.name, plus, score.minus, plus - score.minus))
        return tuple(out)

    @property
    def valid(self) -> bool:
        """True when nothing is wrong with the deal as recorded."""
        return not self.problems

    @cached_property
    def scores(self) -> dict[str, int]:
        """Deal score by player name (worked out once: a stored deal's report is asked many times)."""
        return {p.name: p.score for p in self.players}

    def to_dict(self) -> dict[str, Any]:
        """The report in the API's shape."""
        return {
            "valid": self.valid,
            "problems": [{"code": p.code, "message": p.message} for p in self.problems],
            "warnings": [{"code": w.code, "message": w.message} for w in self.warnings],
            "players": [p.to_dict() for p in self.players],
        }


def hand_entries(rules: RuleSet) -> tuple[str, ...]:
    """The ways a table of this game may enter cards left in hand: counts need small cards alike.

    >>> hand_entries(RuleSet.preset()), hand_entries(RuleSet.preset("ordered-rummy"))
    (('counts', 'points', 'cards'), ('points', 'cards'))
    """
    return HAND_ENTRIES if rules.number_points is not None else HAND_ENTRIES[1:]


def _lenient(check: MeldCheck) -> tuple[MeldCheck, list[Reason]]:
    """The verdict without the reasons that depend on the order of play, and those reasons."""
    if not check.reasons or not any(r.code in ORDER_DEPENDENT for r in check.reasons):
        return check, []
    kept = tuple(r for r in check.reasons if r.code not in ORDER_DEPENDENT)
    moved = [r for r in check.reasons if r.code in ORDER_DEPENDENT]
    return replace(check, legal=not kept, reasons=kept), moved


def check_short_hands(deal: Deal, rules: RuleSet, recorded_anyway: bool = False) -> None:
    """Refuse a deal as entered whose short-form hand no hand of this game could be (``DealInputError``
    naming the field): more cards of a kind or more jokers than the decks hold, points no cards add up to.

    Asked where a deal comes in (scoring, recording, importing, a player's part), not of a deal read back
    from the store: a limit added later never makes a recorded deal unreadable. A short hand of 5 jokers
    recorded anyway before jokers were limited to the decks' is scored, with the "too many jokers"
    problem it always had.

    >>> check_short_hands(Deal.from_dict({"players": [{"name": "A", "hand": {"jokers": 5}}]}), RuleSet.preset())
    Traceback (most recent call last):
    ...
    kunken_scorer.deal.DealInputError: players[0].hand.jokers: at most 4; the decks hold no more.
    """
    for i, p in enumerate(deal.players):
        if p.hand_summary is not None:
            p.hand_summary.check_for(rules, f"players[{i}].hand", recorded_anyway)


def evaluate_deal(deal: Deal, rules: RuleSet) -> DealReport:
    """Validate a deal, listing every problem and warning, and score it under ``rules``.

    A deal as entered is first asked ``check_short_hands``; a deal read back from the store is not.

    >>> from kunken_scorer.rules import RuleSet
    >>> report = evaluate_deal(Deal.from_dict({"players": [{"name": "A"}, {"name": "B"}], "redeal": True}),
    ...                        RuleSet.preset())
    >>> report.valid, report.scores
    (True, {'A': 0, 'B': 0})
    >>> swap = Deal.from_dict({"players": [{"name": "Anna", "melds": ["K♠ K♣ JK"]},
    ...                                    {"name": "Boris", "melds": ["5♥ JK 7♥"]}],
    ...                        "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}]})
    >>> evaluate_deal(swap, RuleSet.preset()).scores
    {'Anna': 20, 'Boris': 25}
    """
    problems = _roster_problems(deal.names, rules)
    if deal.redeal:
        return DealReport(tuple(PlayerScore(n, 0, 0, 0) for n in deal.names), tuple(problems))
    warnings: list[Reason] = []
    cards = _count_cards(deal, rules)
    laid = cards.laid
    seat_melds = _check_melds(deal, rules, laid, problems, warnings)
    # a name written twice (a duplicate_player problem) is one player to the others' vists, swaps and
    # going out: the first seat of that name; each seat still scores its own melds, vists and hand
    first: dict[str, int] = {}
    for i, p in enumerate(deal.players):
        first.setdefault(p.name, i)
    laid_as = {name: seat_melds[i] for name, i in first.items()}
    table = {name: list(checks) for name, checks in laid_as.items()}
    swaps = _apply_swaps(deal, table, laid_as, rules, laid, problems)
    vists = _apply_vists(deal, table, rules, laid, problems, warnings)
    problems += _copy_problems(cards, rules, swaps.swapped)
    went_out, express = _going_out(deal, rules, problems)
    if went_out is not None and _laid_nothing(deal.players[first[went_out]], swaps):
        warnings.append(Reason("went_out_empty", {"player": went_out}))
    multiplier = rules.express_multiplier if express else 1
    scores, details = [], []
    for i, (p, hand) in enumerate(zip(deal.players, cards.hands, strict=True)):
        own = first[p.name] == i
        score, detail = _score_player(
            p.name,
            hand,
            seat_melds[i],
            vists[i],
            swaps if own else _Swaps({}, {}, {}),
            table[p.name] if own else seat_melds[i],
            rules,
            multiplier,
            went_out if own else None,
            bool(problems),
        )
        scores.append(score)
        details.append(detail)
    return DealReport(
        tuple(scores),
        tuple(problems),
        tuple(details),
        tuple(warnings),
        went_out if express else None,
        rules.express_multiplier if express else 1,
    )


def _roster_problems(names: list[str], rules: RuleSet) -> list[Reason]:
    """Too few or too many players, and every name written twice."""
    if rules.min_players <= len(names) <= rules.max_players and len(set(names)) == len(names):
        return []  # the usual table
    problems = []
    if not rules.min_players <= len(names) <= rules.max_players:
        problems.append(
            Reason("player_count", {"min": rules.min_players, "max": rules.max_players, "count": len(names)})
        )
    seen: set[str] = set()
    for name in names:
        if name in seen:
            problems.append(Reason("duplicate_player", {"player": name}))
        seen.add(name)
    return _dedupe(problems)


def _dedupe(reasons: list[Reason]) -> list[Reason]:
    out: list[Reason] = []
    for reason in reasons:
        if reason not in out:
            out.append(reason)
    return out


@dataclass
class _Cards:
    """The deal's cards counted once: natural cards on the table (melds, vists, swapped-in cards) and
    in the whole deal, jokers (printed or wild) and printed jokers, and each hand's points and jokers."""

    laid: Counter[Card]
    copies: Counter[Card]
    jokers: int
    printed: int
    hands: list[tuple[int, int]]


def _count_cards(deal: Deal, rules: RuleSet) -> _Cards:
    jokers_of = rules.joker_cards
    laid = Counter(chain.from_iterable(chain.from_iterable(p.melds for p in deal.players)))
    for p in deal.players:
        for v in p.vists:
            laid.update(v.cards)
    if deal.swaps:
        laid.update([s.card for s in deal.swaps])
    jokers = printed = 0
    for card in jokers_of.intersection(laid):
        count = laid.pop(card)
        jokers += count
        printed += count if card.rank is None else 0
    hands = []
    in_hands: list[Card] = []
    natural_points = rules.natural_points
    for p in deal.players:
        naturals = [*filterfalse(jokers_of.__contains__, p.hand)]
        in_hands += naturals
        points = sum(map(natural_points.__getitem__, naturals))
        hand_jokers = len(p.hand) - len(naturals)
        if hand_jokers:
            printed += sum(1 for card in p.hand if card.rank is None)
        if p.hand_summary is not None:
            hand_jokers += p.hand_summary.jokers
            points += p.hand_summary.points_under(rules)
        jokers += hand_jokers
        hands.append((points, hand_jokers))
    copies = laid
    if in_hands:
        copies = laid.copy()
        copies.update(in_hands)
    return _Cards(laid, copies, jokers, printed, hands)


def _check_melds(
    deal: Deal, rules: RuleSet, laid: Counter[Card], problems: list[Reason], warnings: list[Reason]
) -> list[list[MeldCheck]]:
    """Every player's melds as laid, by seat: verdicts, and the problems and warnings they raise."""
    seat_melds: list[list[MeldCheck]] = []
    for p in deal.players:
        checks = [check_parsed(m, rules, laid) for m in p.melds]
        for j, check in enumerate(checks):
            if not check.reasons:
                continue
            check, early = _lenient(check)
            checks[j] = check
            if early:
                warnings.append(
                    Reason("joker_laid_early", {"player": p.name, "cards": format_cards(check.written), "why": early})
                )
            if not check.legal:
                problems.append(
                    Reason(
                        "illegal_meld",
                        {
                            "player": p.name,
                            "meld": j + 1,
                            "cards": format_cards(check.written),
                            "why": list(check.reasons),
                        },
                    )
                )
        seat_melds.append(checks)
        if rules.first_meld_run and checks and not opens_with_run(checks):
            problems.append(Reason("no_run", {"player": p.name}))
        elif rules.first_meld_run and not checks and p.vists:
            problems.append(Reason("additions_without_run", {"player": p.name}))
    return seat_melds


@dataclass
class _Swaps:
    """What the deal's joker swaps did: results and points by swapper, points lost by owner."""

    results: dict[str, list[SwapResult]]
    points: dict[str, int]
    lost: dict[str, int]
    swapped: int = 0

    def net(self, name: str) -> int:
        """Plus points a player gains by swapping, less the jokers swapped out of their melds."""
        return self.points.get(name, 0) - self.lost.get(name, 0)


def _apply_swaps(
    deal: Deal,
    table: dict[str, list[MeldCheck]],
    meld_checks: dict[str, list[MeldCheck]],
    rules: RuleSet,
    laid: Counter[Card],
    problems: list[Reason],
) -> _Swaps:
    """Swaps come first, in the recorded order, on the melds as laid; the owner stops scoring the joker."""
    swaps = _Swaps({}, {}, {})
    if not deal.swaps:
        return swaps
    has_layout = {name for name, checks in meld_checks.items() if checks}  # a name written twice: its first seat
    for swap in deal.swaps:
        result, problem, lost = _apply_swap(swap, table, meld_checks, has_layout, rules, laid)
        swaps.results.setdefault(swap.by, []).append(result)
        swaps.points[swap.by] = swaps.points.get(swap.by, 0) + result.points
        if problem:
            problems.append(problem)
        else:
            swaps.swapped += 1
            swaps.lost[swap.owner] = swaps.lost.get(swap.owner, 0) + lost
    return swaps


def _apply_vists(
    deal: Deal,
    table: dict[str, list[MeldCheck]],
    rules: RuleSet,
    laid: Counter[Card],
    problems: list[Reason],
    warnings: list[Reason],
) -> list[list[VistResult]]:
    """Every vist put on its meld in ``table``; the results by seat, in recorded order.

    The record does not say in which order the players made their vists: a vist that does not
    fit yet is tried again after the others (9♥ to 5♥ 6♥ 7♥ may follow someone's 8♥), and vists of
    natural cards are tried before those holding a joker, which may stand for any card and so fits
    beside them (a joker put in first as K♥ would keep a natural K♥ out).
    """
    pending = [(i, k, vist) for i, p in enumerate(deal.players) for k, vist in enumerate(p.vists)]
    if not pending:
        return [[] for _ in deal.players]
    pending.sort(key=lambda entry: any(card in rules.joker_cards for card in entry[2].cards))  # stable
    done: dict[tuple[int, int], tuple[VistResult, Reason | None, list[Reason]]] = {}
    progress = True
    while pending and progress:
        progress, waiting = False, []
        for i, k, vist in pending:
            outcome = _apply_vist(deal.players[i].name, vist, table, rules, laid)
            if outcome[1] is None:
                done[(i, k)] = outcome
                progress = True
            else:
                waiting.append((i, k, vist))
        pending = waiting
    for i, k, vist in pending:
        done[(i, k)] = _apply_vist(deal.players[i].name, vist, table, rules, laid)
    results: list[list[VistResult]] = []
    for i, p in enumerate(deal.players):
        results.append([])
        for k, vist in enumerate(p.vists):
            result, problem, early = done[(i, k)]
            results[-1].append(result)
            if problem:
                problems.append(problem)
            if early:
                warnings.append(
                    Reason("joker_laid_early", {"player": p.name, "cards": format_cards(vist.cards), "why": early})
                )
    return results


def _copy_problems(cards: _Cards, rules: RuleSet, swapped: int) -> list[Reason]:
    """More copies of a card, or more jokers, than the decks hold (a swapped joker counts once: it was
    recorded in the meld as laid and where it went)."""
    problems = []
    if cards.copies and max(cards.copies.values()) > rules.decks:
        for card, n in sorted((str(c), n) for c, n in cards.copies.items() if n > rules.decks):
            problems.append(Reason("too_many_copies", {"card": card, "count": n, "decks": rules.decks}))
    if rules.wild_card and cards.printed:
        problems.append(Reason("joker_not_in_deck", {"count": cards.printed, "wild": rules.wild_card}))
    jokers = cards.jokers - swapped
    if jokers > rules.deck_jokers:
        problems.append(Reason("too_many_jokers", {"count": jokers, "deck": rules.deck_jokers}))
    return problems


def _laid_nothing(player: PlayerRecord, swaps: _Swaps) -> bool:
    """No meld, vist or swap of this player is recorded: they cannot have gone out, or their cards were left out."""
    return not player.melds and not player.vists and player.name not in swaps.results


def _going_out(deal: Deal, rules: RuleSet, problems: list[Reason]) -> tuple[str | None, bool]:
    """Who went out (None when nobody or an unknown name) and whether the express doubles the deal."""
    went_out = deal.went_out
    if went_out is not None and went_out not in deal.names:
        problems.append(Reason("unknown_went_out", {"player": went_out}))
        went_out = None
    player = next((p for p in deal.players if p.name == went_out), None)  # a name written twice: its first seat
    if player is not None and player.holds_cards:
        if player.hand_summary is None:
            problems.append(Reason("went_out_with_cards", {"player": player.name, "cards": format_cards(player.hand)}))
        else:
            problems.append(Reason("went_out_with_hand", {"player": player.name}))
    express = deal.express
    if express and not rules.express:
        problems.append(Reason("express_not_in_game", {}))
        express = False
    elif express and went_out is None:
        problems.append(Reason("express_without_going_out", {}))
        express = False
    return went_out, express


def _score_player(
    name: str,
    hand: tuple[int, int],
    checks: list[MeldCheck],
    vists: list[VistResult],
    swaps: _Swaps,
    final: Any,
    rules: RuleSet,
    multiplier: int,
    went_out: str | None,
    any_problem: bool,
) -> tuple[PlayerScore, PlayerDetail]:
    """One player's plus (melds, vists, swaps) and minus (``hand``: its points and jokers), times the
    express ``multiplier`` (the plus of who went out, the minus of the others)."""
    plus = sum([c.points for c in checks]) + (sum([v.points for v in vists]) if vists else 0)
    if swaps.points or swaps.lost:
        plus += swaps.net(name)
    hand_points, hand_jokers = hand
    if rules.joker_in_hand == "double":
        minus = hand_points * 2**hand_jokers
    else:
        minus = hand_points + hand_jokers * rules.joker_in_hand
    if name == went_out:
        plus *= multiplier
    else:
        minus *= multiplier
    swapped = tuple(swaps.results.get(name, ()))
    unchecked = 0
    if any_problem:
        unchecked = (
            sum(c.points for c in checks if not c.legal)
            + sum(v.points for v in vists if not v.legal)
            + sum(s.points for s in swapped if not s.legal)
        )
    return (
        PlayerScore(name, plus, minus, plus - minus),
        PlayerDetail(name, tuple(checks), tuple(vists), hand_points, hand_jokers, tuple(final), swapped, unchecked),
    )


def _apply_swap(
    swap: Swap,
    table: dict[str, list[MeldCheck]],
    laid_as: dict[str, list[MeldCheck]],
    has_layout: set[str],
    rules: RuleSet,
    laid: Counter[Card],
) -> tuple[SwapResult, Reason | None, int]:
    """Put the swap's natural card into the owner's meld in ``table`` in place of its joker.

    Returns the swap's result, its problem (None when legal) and the points the owner stops
    scoring. Only a legal swap changes the meld.
    """
    card = str(swap.card)
    naive = SwapResult(swap, swap.meld, False, rules.face_points(swap.card))
    params = {"player": swap.by, "to": swap.owner, "card": card}
    if swap.card in rules.joker_cards:
        return (
            naive,
            Reason(
                "illegal_swap",
                {**params, "meld": (swap.meld or 0) + 1, "why": [Reason("swap_not_natural", {"card": card})]},
            ),
            0,
        )
    if swap.by not in table:
        return naive, Reason("unknown_player", {"player": swap.by, "to": swap.by}), 0
    if swap.owner not in table:
        return naive, Reason("unknown_player", {"player": swap.by, "to": swap.owner}), 0
    melds = table[swap.owner]
    if swap.meld is not None and swap.meld >= len(melds):
        return naive, Reason("swap_no_meld", {**params, "meld": swap.meld + 1}), 0
    candidates = [swap.meld] if swap.meld is not None else list(range(len(melds)))
    refused: list[tuple[int, list[Reason]]] = []  # (meld, why) for every meld with a joker that said no
    for j in candidates:
        current = melds[j]
        verdict = swap_into(current, swap.card, rules)
        if not verdict.legal:
            if swap.meld is not None or verdict.reasons[0].code != "swap_no_joker":
                refused.append((j, list(verdict.reasons)))
            continue
        joker = verdict.joker
        assert joker is not None  # a legal swap names the joker it replaces
        written = list(current.written)
        written[joker] = swap.card
        after, _ = _lenient(check_parsed(tuple(written), rules, laid))
        if not after.legal:
            refused.append((j, [Reason("swap_breaks_meld", {})] + list(after.reasons)))
            continue
        if swap.by not in has_layout:
            return (
                SwapResult(swap, j, False, rules.face_points(swap.card)),
                Reason("illegal_swap", {**params, "meld": j + 1, "why": [Reason("swap_no_layout", {})]}),
                0,
            )
        melds[j] = after
        # the owner's meld as laid scored the joker at this written position
        lost = laid_as[swap.owner][j].card_points[joker]
        return SwapResult(swap, j, True, after.card_points[joker]), None, lost
    if len(refused) != 1:  # no meld named, and none or several of the owner's melds hold a joker
        return naive, Reason("swap_fits_nothing", params), 0
    j, why = refused[0]
    return naive, Reason("illegal_swap", {**params, "meld": j + 1, "why": why}), 0


def _apply_vist(
    player: str, vist: Vist, table: dict[str, list[MeldCheck]], rules: RuleSet, laid: Counter[Card]
) -> tuple[VistResult, Reason | None, list[Reason]]:
    """Extend the target meld in ``table``; return the vist's result, its problem and its warnings.

    Only a legal vist changes the meld: an illegal one is reported, and later vists to the same
    meld are judged without its cards.
    """
    shown = format_cards(vist.cards)
    naive = sum(map(rules.face_points, vist.cards))
    if vist.to not in table:
        return VistResult(vist, None, False, naive), Reason("unknown_player", {"player": player, "to": vist.to}), []
    melds = table[vist.to]
    if vist.meld is not None:
        if vist.meld >= len(melds):
            return (
                VistResult(vist, None, False, naive),
                Reason("vist_no_meld", {"player": player, "to": vist.to, "meld": vist.meld + 1, "cards": shown}),
                [],
            )
        candidates = [vist.meld]
    else:
        candidates = list(range(len(melds)))
    for j in candidates:
        result, early = _lenient(extend(melds[j], vist.cards, rules, laid))
        if result.legal:
            melds[j] = result
            points = sum(result.card_points[len(result.card_points) - len(vist.cards) :])
            return VistResult(vist, j, True, points, result), None, early
    if vist.meld is None:  # no meld of the player takes it (or the player has none)
        return (
            VistResult(vist, None, False, naive),
            Reason("vist_fits_nothing", {"player": player, "to": vist.to, "cards": shown}),
            [],
        )
    # the named meld was tried alone: ``result`` is its verdict
    return (
        VistResult(vist, vist.meld, False, naive, result),
        Reason(
            "illegal_vist",
            {"player": player, "to": vist.to, "meld": vist.meld + 1, "cards": shown, "why": list(result.reasons)},
        ),
        [],
    )
