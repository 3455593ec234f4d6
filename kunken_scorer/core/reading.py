"""A deal as the table records it, and reading it from untrusted JSON.

The record's values (``Deal``, ``PlayerRecord``, ``Vist``, ``Swap``, ``HandSummary``) and their readers
(``Deal.from_dict``, ``read_player``, ``read_swaps``): a field that cannot be read raises ``DealInputError``
naming it, located at the seat and the field of the player's part it is in (``Reason.seat``,
``Reason.field``). Reading one field (``read_cards``, ``clean_name``, ``read_note`` …) is ``fields``'s, whose
names are importable from here as before. Scoring a deal read here is ``deal``'s (``evaluate_deal``),
which imports this module and never the other way round.

>>> deal = Deal.from_dict({"players": [{"name": " Anna ", "melds": ["тп тч тб"], "hand": ""},
...                                    {"name": "Boris", "hand": {"points": 15, "jokers": 1}}]})
>>> deal.names, format_cards(deal.players[0].melds[0]), deal.players[1].hand_summary.to_dict()
(['Anna', 'Boris'], 'A♠ A♥ A♦', {'points': 15, 'jokers': 1})
>>> Deal.from_dict({"players": [{"name": "Anna", "vists": [{"to": "Boris", "cards": "5♥ 6"}]}]})
Traceback (most recent call last):
...
kunken_scorer.core.fields.DealInputError: players[0].vists[0].cards: "6": the suit is missing
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card, format_cards
from .fields import (
    MAX_LISTED_MELDS,
    MAX_MELDS,
    MAX_NAME,
    MAX_NOTE,
    DealInputError,
    bad_field,
    clean_name,
    flag_arg,
    has_control,
    meld_index,
    read_cards,
    read_flag,
    read_melds,
    read_note,
    read_whole,
    rules_arg,
    text_cards,
)
from .fields import is_tidy_name as _tidy
from .hands import HAND_COUNTS, HAND_ENTRIES, HAND_POINTS, HandSummary, hand_entries
from .messages import M_, N_, KunkenError, Located, Reason
from .rules import RuleSet

__all__ = [
    # the record and its reading, this module's own
    "HAND_COUNTS",
    "HAND_ENTRIES",
    "HAND_POINTS",
    "IF_MATCH_EXPECTED",
    "MAX_DEAL_CARDS",
    "MAX_PLAYERS",
    "MAX_SWAPS",
    "MAX_VISTS",
    "Deal",
    "HandSummary",
    "PlayerRecord",
    "Swap",
    "Vist",
    "check_short_hands",
    "deal_arg",
    "hand_entries",
    "read_player",
    "read_if_match",
    "read_swaps",
    "read_version",
    # the readers of one field (``fields``): importable from here as before
    "MAX_LISTED_MELDS",
    "MAX_MELDS",
    "MAX_NAME",
    "MAX_NOTE",
    "DealInputError",
    "clean_name",
    "has_control",
    "read_cards",
    "read_flag",
    "read_melds",
    "read_note",
    "read_whole",
]

MAX_PLAYERS = 12
MAX_VISTS = 40
MAX_SWAPS = 40
#: The most cards a deal's record may hold in all (a short-form hand's counted cards and jokers too): twice
#: what four decks hold. More is no deal, mistakes and all, and its vists would be tried against every meld
#: pass after pass (a second of work or more).
MAX_DEAL_CARDS = 432


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
class PlayerRecord:
    """One player's part of a deal: melds laid, vists made, cards left in hand (or their short form).

    ``hand_entered`` is False when nobody entered the hand (the API's ``hand`` left out or null): not the same as
    a hand of no cards (``""``), which only the one who went out may have (``evaluate_deal``'s ``hand_not_entered``).
    """

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    vists: tuple[Vist, ...] = ()
    hand: tuple[Card, ...] = ()
    hand_summary: HandSummary | None = None
    hand_entered: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The record in API notation (a hand nobody entered is null)."""
        hand: Any = self.hand_summary.to_dict() if self.hand_summary else format_cards(self.hand)
        if not self.hand_entered:
            hand = None
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
        kunken_scorer.core.fields.DealInputError: players[0].hand: "11♥": no such rank
        """
        if not isinstance(data, Mapping):
            raise bad_field("deal", M_("an object"))
        raw_players = data.get("players")
        if raw_players is None:
            raise DealInputError(Reason("missing_field", {"field": "players"}))
        if not isinstance(raw_players, list):
            raise bad_field("players", M_("a list of players"))
        if len(raw_players) > MAX_PLAYERS:
            raise DealInputError(Reason("too_many_items", {"field": "players", "limit": MAX_PLAYERS}))
        redeal = _deal_flag(data, "redeal")
        players = tuple(read_player(p, f"players[{i}]", redeal, i) for i, p in enumerate(raw_players))
        went_out = _went_out(data.get("went_out"))
        if went_out is not None:  # who went out holds no cards: a hand not entered is theirs, none
            players = tuple(replace(p, hand_entered=True) if p.name == went_out else p for p in players)
        raw_swaps = None if redeal else data.get("swaps")
        swaps = () if raw_swaps is None else read_swaps(raw_swaps, names=[p.name for p in players])
        count = len(swaps)
        for p in players:
            count += len(p.hand) + sum(map(len, p.melds))
            if p.hand_summary is not None:
                count += p.short_hand_cards
            if p.vists:
                count += sum(len(v.cards) for v in p.vists)
        if count > MAX_DEAL_CARDS:
            raise DealInputError(Reason("deal_too_many_cards", {"count": count, "limit": MAX_DEAL_CARDS}))
        return cls(players, went_out, _deal_flag(data, "express"), redeal, swaps)

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
        """The players who hold no card at the end of the deal, or whose hand nobody entered (the one who went
        out, usually).

        >>> Deal.from_dict({"players": [{"name": "A", "hand": ""}, {"name": "B", "hand": {"points": 5}}]}).empty_hands
        ['A']
        """
        return [p.name for p in self.players if not p.holds_cards]


def _deal_flag(data: Mapping[str, Any], key: str) -> bool:
    """A true-or-false field of the deal's own (``redeal``, ``express``), an error located at it."""
    try:
        return read_flag(data, key)
    except DealInputError as err:
        raise err.at(field=key) from None


def _went_out(value: Any) -> str | None:
    """Who went out: a name, or None (left out, null or blank); an error located at ``went_out``."""
    if value is not None and not isinstance(value, str):
        raise bad_field("went_out", M_("a player's name or null")).at(field="went_out")
    try:
        return clean_name(value, "went_out") if value and value.strip() else None
    except DealInputError as err:
        raise err.at(field="went_out") from None


def read_swaps(raw: Any, where: str = "swaps", names: list[str] | None = None) -> tuple[Swap, ...]:
    """A deal's joker swaps (a list, or None for none); ``DealInputError`` naming the field (``where``),
    located at ``swaps`` and, when its ``by`` is one of the players' ``names``, at that player's seat.

    >>> read_swaps([{"by": "Boris", "from": "Anna", "meld": 0, "card": "kб"}])[0].to_dict()
    {'by': 'Boris', 'from': 'Anna', 'meld': 0, 'card': 'K♦'}
    >>> read_swaps([{"by": "Boris", "from": "Anna", "card": "K♦ K♥"}], "part.swaps")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: part.swaps[0].card: expected exactly one card.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad_field(where, M_("a list of swaps")).at(field="swaps")
    if len(raw) > MAX_SWAPS:
        raise DealInputError(Reason("too_many_items", {"field": where, "limit": MAX_SWAPS}, field="swaps"))
    out = []
    for j, s in enumerate(raw):
        try:
            out.append(_read_swap(s, f"{where}[{j}]"))
        except DealInputError as err:
            by = s.get("by") if isinstance(s, Mapping) else None
            raise err.at(names.index(by) if names and by in names else None, "swaps") from None
    return tuple(out)


def _read_swap(s: Any, at: str) -> Swap:
    """One swap of a list, ``at`` naming it in errors."""
    if not isinstance(s, Mapping):
        raise bad_field(at, M_("an object with by, from, meld and card"))
    meld = meld_index(s.get("meld"), f"{at}.meld")
    card = read_cards(s.get("card"), f"{at}.card")
    if len(card) != 1:
        raise bad_field(f"{at}.card", M_("exactly one card"))
    return Swap(clean_name(s.get("by"), f"{at}.by"), clean_name(s.get("from"), f"{at}.from"), card[0], meld)


def _hand(raw: Any, where: str) -> tuple[tuple[Card, ...], HandSummary | None]:
    if raw is not None and not isinstance(raw, (str, list)) and isinstance(raw, Mapping):
        return (), HandSummary.from_value(raw, where)
    return read_cards(raw, where), None


def read_player(raw: Any, where: str = "player", redeal: bool = False, seat: int | None = None) -> PlayerRecord:
    """One player's record from ``{"name", "melds", "vists", "hand"}``; ``DealInputError`` naming the field.

    ``where`` names the record in errors, which are located at ``seat`` (the player's index in the deal)
    and the field; in a ``redeal``, the player's name alone may stand for the record.

    >>> read_player({"name": "Anna", "melds": "тп тч тб", "hand": {"points": 5}}).to_dict()
    {'name': 'Anna', 'melds': ['A♠ A♥ A♦'], 'vists': [], 'hand': {'points': 5, 'jokers': 0}}
    >>> read_player({"name": "Anna", "melds": ["5♥ 6♥ 7♥", "K♠ 11♦"]}, "players[1]")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: players[1].melds[1]: "11♦": no such rank
    """
    if isinstance(raw, str) and redeal:
        with Located(seat, "name"):
            return PlayerRecord(clean_name(raw, where))
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise bad_field(where, M_("an object with name, melds, vists and hand")).at(seat)
    field = "name"  # the field being read: an error is located there (``Reason.at``)
    try:
        name = raw.get("name")
        if not _tidy(name):
            name = clean_name(name, f"{where}.name")
        field = "melds"
        parsed_melds = _read_player_melds(raw.get("melds") or [], f"{where}.melds")
        field = "vists"
        parsed_vists = _read_player_vists(raw.get("vists") or [], f"{where}.vists")
        field = "hand"
        hand = raw.get("hand")
        summary = None
        cards = text_cards(hand)
        if cards is None:
            cards, summary = _hand(hand, f"{where}.hand")
    except KunkenError as err:
        raise err.at(seat, field) from None
    return PlayerRecord(name, tuple(parsed_melds), tuple(parsed_vists), cards, summary, hand is not None)


def _read_player_melds(melds: Any, where: str) -> list[tuple[Card, ...]]:
    """A player's melds (a list, or text with one meld a line, blank lines left out); ``where`` names the field.

    An entry of the list with no cards is refused, naming it: left out, it would shift the numbers of the melds
    after it, and a vist or swap to meld 2 would go to another meld, or to none.

    >>> _read_player_melds(["", "5♥ 6♥ 7♥"], "melds")
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: melds[0] holds no cards: enter the meld's cards, or leave the entry out.
    """
    if isinstance(melds, str):
        melds = [line for line in melds.splitlines() if line.strip()]
    if not isinstance(melds, list):
        raise bad_field(where, M_("a list of melds"))
    if len(melds) > MAX_MELDS:
        raise DealInputError(Reason("too_many_items", {"field": where, "limit": MAX_MELDS}))
    parsed_melds = []
    for j, meld in enumerate(melds):
        cards = text_cards(meld)
        if cards is None:  # not plain card text: read_cards says what is wrong, naming the field
            cards = read_cards(meld, f"{where}[{j}]")
        if not cards:
            raise DealInputError(Reason("empty_meld", {"field": f"{where}[{j}]"}))
        parsed_melds.append(cards)
    return parsed_melds


def _read_player_vists(vists: Any, where: str) -> list[Vist]:
    """A player's vists (``{to, meld, cards}`` each), those without cards left out; ``where`` names the field."""
    if not isinstance(vists, list):
        raise bad_field(where, M_("a list of vists"))
    if len(vists) > MAX_VISTS:
        raise DealInputError(Reason("too_many_items", {"field": where, "limit": MAX_VISTS}))
    parsed_vists = []
    for j, v in enumerate(vists):
        vw = f"{where}[{j}]"
        if not isinstance(v, Mapping):
            raise bad_field(vw, M_("an object with to, meld and cards"))
        meld = v.get("meld")
        if meld is not None:
            meld_index(meld, f"{vw}.meld")
        cards = read_cards(v.get("cards"), f"{vw}.cards")
        if cards:
            parsed_vists.append(Vist(clean_name(v.get("to"), f"{vw}.to"), cards, meld))
    return parsed_vists


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
    kunken_scorer.core.fields.DealInputError: players[0].hand.jokers: at most 4; the decks hold no more.
    """
    deal, rules = deal_arg(deal), rules_arg(rules)
    recorded_anyway = flag_arg(recorded_anyway, "recorded_anyway")
    for i, p in enumerate(deal.players):
        if p.hand_summary is not None:
            with Located(i, "hand"):
                p.hand_summary.check_for(rules, f"players[{i}].hand", recorded_anyway)


def read_version(data: Mapping[str, Any], key: str = "version") -> int | None:
    """The score sheet's version a request saw: a whole number from 1 (left out: None); ``DealInputError`` naming it.

    >>> read_version({"version": 3}), read_version({})
    (3, None)
    >>> read_version({"version": True})
    Traceback (most recent call last):
    ...
    kunken_scorer.core.fields.DealInputError: version: expected the score sheet's version, a whole number.
    """
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 10**12:
        raise bad_field(key, M_("the score sheet's version, a whole number"))
    return value


#: What a request is told when its ``If-Match`` header names no version (a message id, put in words by the web).
IF_MATCH_EXPECTED = N_("If-Match: expected the score sheet's version, a whole number.")


def read_if_match(header: str | None) -> int | None:
    """The score sheet's version an ``If-Match`` header's text names (``3``, ``"3"``, ``W/"3"``): None when it names
    none (left out, blank or ``*``); ``ValueError`` (``IF_MATCH_EXPECTED``) when it is no whole number of at most 12
    ASCII digits.

    >>> read_if_match('W/"7"'), read_if_match(" 12 "), read_if_match("*"), read_if_match(None)
    (7, 12, None, None)
    >>> read_if_match('"²"')
    Traceback (most recent call last):
    ...
    ValueError: If-Match: expected the score sheet's version, a whole number.
    """
    if header is None or header.strip() in ("", "*"):
        return None
    text = header.strip()
    text = text[2:] if text.startswith("W/") else text
    text = text.strip('"')
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        raise ValueError(IF_MATCH_EXPECTED)
    return int(text)


def deal_arg(deal: Any) -> Deal:
    """``deal`` when it is a ``Deal``; ``KunkenError`` naming the argument otherwise (a deal's JSON is read
    with ``Deal.from_dict`` first).

    >>> deal_arg({"players": []})
    Traceback (most recent call last):
    ...
    kunken_scorer.core.messages.KunkenError: deal: expected a deal read with Deal.from_dict.
    """
    if not isinstance(deal, Deal):
        raise KunkenError(Reason("bad_field", {"field": "deal", "expected": M_("a deal read with Deal.from_dict")}))
    return deal
