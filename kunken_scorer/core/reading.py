"""A deal as the table records it, and reading it from untrusted JSON.

The record's values (``Deal``, ``PlayerRecord``, ``Vist``, ``Swap``, ``HandSummary``) and the readers of
its fields (``read_player``, ``read_swaps``, ``read_cards``, ``read_note``, ``clean_name`` …): a field
that cannot be read raises ``DealInputError`` naming it. Scoring a deal read here is ``deal``'s
(``evaluate_deal``), which imports this module and never the other way round.

>>> deal = Deal.from_dict({"players": [{"name": " Anna ", "melds": ["тп тч тб"], "hand": ""},
...                                    {"name": "Boris", "hand": {"points": 15, "jokers": 1}}]})
>>> deal.names, format_cards(deal.players[0].melds[0]), deal.players[1].hand_summary.to_dict()
(['Anna', 'Boris'], 'A♠ A♥ A♦', {'points': 15, 'jokers': 1})
>>> Deal.from_dict({"players": [{"name": "Anna", "vists": [{"to": "Boris", "cards": "5♥ 6"}]}]})
Traceback (most recent call last):
...
kunken_scorer.core.reading.DealInputError: players[0].vists[0].cards: "6": the suit is missing
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd
from typing import Any, TypeGuard

from .cards import Card, CardError, Rank, format_cards, parse_cards
from .messages import M_, KunkenError, Reason
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
#: Short forms of a hand: counts by kind of card (games where every small card scores alike), or points.
HAND_COUNTS = ("small", "faces", "aces", "jokers")
HAND_POINTS = ("points", "jokers")
#: How many cards of each kind one deck holds (small: 2..10 of four suits, faces: J Q K, aces).
_PER_DECK = {"small": 9 * 4, "faces": 3 * 4, "aces": 4}
#: The ways a table may enter the cards left in hand (counts only where small cards score alike).
HAND_ENTRIES = ("counts", "points", "cards")


class DealInputError(KunkenError):
    """A deal record that cannot be read (wrong shape, bad card, bad name)."""


@dataclass(frozen=True)
class Vist:
    """Cards a player adds to another player's meld (``meld`` is an index, or None: the first that fits)."""

    to: str
    cards: tuple[Card, ...]
    meld: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The vist as recorded, in API notation."""
        return {"to": self.to, "meld": self.meld, "cards": format_cards(self.cards)}


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class HandSummary:
    """Cards left in hand in short form: counts by kind (``small`` 2–10, ``faces`` J Q K, ``aces``),
    or the natural cards' ``points``; and the ``jokers``. Scores as the same cards typed would.

    >>> hand = HandSummary.from_value({"small": 2, "faces": 1, "jokers": 1}, "hand")
    >>> hand.points_under(RuleSet.preset()), hand.jokers, hand.to_dict()
    (20, 1, {'small': 2, 'faces': 1, 'aces': 0, 'jokers': 1})
    >>> HandSummary.from_value({"points": -5}, "hand")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.reading.DealInputError: hand.points: expected a whole number, 0 or more.
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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
        kunken_scorer.core.reading.DealInputError: players[0].hand: "11♥": no such rank
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
        players = tuple(read_player(p, f"players[{i}]", redeal) for i, p in enumerate(raw_players))
        went_out = data.get("went_out")
        if went_out is not None and not isinstance(went_out, str):
            raise _bad("went_out", M_("a player's name or null"))
        went_out = clean_name(went_out, "went_out") if went_out and went_out.strip() else None
        swaps = () if redeal else read_swaps(data.get("swaps"))
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


def read_swaps(raw: Any, where: str = "swaps") -> tuple[Swap, ...]:
    """A deal's joker swaps (a list, or None for none); ``DealInputError`` naming the field (``where``).

    >>> read_swaps([{"by": "Boris", "from": "Anna", "meld": 0, "card": "kб"}])[0].to_dict()
    {'by': 'Boris', 'from': 'Anna', 'meld': 0, 'card': 'K♦'}
    >>> read_swaps([{"by": "Boris", "from": "Anna", "card": "K♦ K♥"}], "part.swaps")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.reading.DealInputError: part.swaps[0].card: expected exactly one card.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _bad(where, M_("a list of swaps"))
    if len(raw) > MAX_SWAPS:
        raise DealInputError(Reason("too_many_items", {"field": where, "limit": MAX_SWAPS}))
    out = []
    for j, s in enumerate(raw):
        at = f"{where}[{j}]"
        if not isinstance(s, Mapping):
            raise _bad(at, M_("an object with by, from, meld and card"))
        meld = _meld_index(s.get("meld"), f"{at}.meld")
        card = read_cards(s.get("card"), f"{at}.card")
        if len(card) != 1:
            raise _bad(f"{at}.card", M_("exactly one card"))
        out.append(Swap(clean_name(s.get("by"), f"{at}.by"), clean_name(s.get("from"), f"{at}.from"), card[0], meld))
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


def read_player(raw: Any, where: str = "player", redeal: bool = False) -> PlayerRecord:
    """One player's record from ``{"name", "melds", "vists", "hand"}``; ``DealInputError`` naming the field.

    ``where`` names the record in errors; in a ``redeal``, the player's name alone may stand for the record.

    >>> read_player({"name": "Anna", "melds": "тп тч тб", "hand": {"points": 5}}).to_dict()
    {'name': 'Anna', 'melds': ['A♠ A♥ A♦'], 'vists': [], 'hand': {'points': 5, 'jokers': 0}}
    >>> read_player({"name": "Anna", "melds": ["5♥ 6♥ 7♥", "K♠ 11♦"]}, "players[1]")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.reading.DealInputError: players[1].melds[1]: "11♦": no such rank
    """
    if isinstance(raw, str) and redeal:
        return PlayerRecord(clean_name(raw, where))
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise _bad(where, M_("an object with name, melds, vists and hand"))
    given = raw.get("name")
    name = given if _tidy(given) else clean_name(given, f"{where}.name")
    parsed_melds = _read_player_melds(raw.get("melds") or [], f"{where}.melds")
    parsed_vists = _read_player_vists(raw.get("vists") or [], f"{where}.vists")
    hand = raw.get("hand")
    summary = None
    cards = _text_cards(hand)
    if cards is None:
        cards, summary = _hand(hand, f"{where}.hand")
    return PlayerRecord(name, tuple(parsed_melds), tuple(parsed_vists), cards, summary)


def _read_player_melds(melds: Any, where: str) -> list[tuple[Card, ...]]:
    """A player's melds (a list, or text with one meld a line), empty ones left out; ``where`` names the field."""
    if isinstance(melds, str):
        melds = [line for line in melds.splitlines() if line.strip()]
    if not isinstance(melds, list):
        raise _bad(where, M_("a list of melds"))
    if len(melds) > MAX_MELDS:
        raise DealInputError(Reason("too_many_items", {"field": where, "limit": MAX_MELDS}))
    parsed_melds = []
    for j, meld in enumerate(melds):
        cards = _text_cards(meld)
        if cards is None:  # not plain card text: read_cards says what is wrong, naming the field
            cards = read_cards(meld, f"{where}[{j}]")
        if cards:
            parsed_melds.append(cards)
    return parsed_melds


def _read_player_vists(vists: Any, where: str) -> list[Vist]:
    """A player's vists (``{to, meld, cards}`` each), those without cards left out; ``where`` names the field."""
    if not isinstance(vists, list):
        raise _bad(where, M_("a list of vists"))
    if len(vists) > MAX_VISTS:
        raise DealInputError(Reason("too_many_items", {"field": where, "limit": MAX_VISTS}))
    parsed_vists = []
    for j, v in enumerate(vists):
        vw = f"{where}[{j}]"
        if not isinstance(v, Mapping):
            raise _bad(vw, M_("an object with to, meld and cards"))
        meld = v.get("meld")
        if meld is not None:
            _meld_index(meld, f"{vw}.meld")
        cards = read_cards(v.get("cards"), f"{vw}.cards")
        if cards:
            parsed_vists.append(Vist(clean_name(v.get("to"), f"{vw}.to"), cards, meld))
    return parsed_vists


def _text_cards(value: Any) -> tuple[Card, ...] | None:
    """The cards of a field written as card text (the usual field); None for anything else, or text that does
    not read as cards: ``read_cards`` then says what is wrong, naming the field (built only then)."""
    if type(value) is not str:
        return () if value is None else None
    try:
        return parse_cards(value)
    except CardError:
        return None


def hand_entries(rules: RuleSet) -> tuple[str, ...]:
    """The ways a table of this game may enter cards left in hand: counts need small cards alike.

    >>> hand_entries(RuleSet.preset()), hand_entries(RuleSet.preset("ordered-rummy"))
    (('counts', 'points', 'cards'), ('points', 'cards'))
    """
    return HAND_ENTRIES if rules.number_points is not None else HAND_ENTRIES[1:]


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
    kunken_scorer.core.reading.DealInputError: players[0].hand.jokers: at most 4; the decks hold no more.
    """
    for i, p in enumerate(deal.players):
        if p.hand_summary is not None:
            p.hand_summary.check_for(rules, f"players[{i}].hand", recorded_anyway)
