"""Cards and card notation, in English and Russian.

>>> parse_cards("K♠, 10h Тп jk=k♦")
(Card.parse('K♠'), Card.parse('10♥'), Card.parse('A♠'), Card.parse('JK=K♦'))
>>> format_cards(parse_cards("дж вч 2т"))
'JK J♥ 2♣'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import lru_cache

from .messages import KunkenError, Reason

#: Upper bound on the cards one text may hold (two decks and their jokers).
MAX_CARDS_PER_ENTRY = 108


class CardError(KunkenError):
    """A card token that cannot be read; the message names the token and why."""


class Suit(StrEnum):
    """The four suits, valued by their symbol."""

    SPADES = "♠"
    HEARTS = "♥"
    DIAMONDS = "♦"
    CLUBS = "♣"


class Rank(IntEnum):
    """Ranks low to high; the value is the rank's place (ace 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    def __str__(self) -> str:
        return _RANK_TEXT[self]

    @property
    def russian(self) -> str:
        """The rank as a Russian player writes it (В Д К Т for the court cards and ace)."""
        return _RANK_RU.get(self, str(self))


_RANK_TEXT = {r: str(r.value) for r in Rank if r <= Rank.TEN}
_RANK_TEXT.update({Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"})
_RANK_RU = {Rank.JACK: "В", Rank.QUEEN: "Д", Rank.KING: "К", Rank.ACE: "Т"}

_RANKS_IN = {str(r.value): r for r in Rank if r <= Rank.TEN}
_RANKS_IN.update(
    {
        "J": Rank.JACK,
        "Q": Rank.QUEEN,
        "K": Rank.KING,
        "A": Rank.ACE,
        "В": Rank.JACK,
        "Д": Rank.QUEEN,
        "К": Rank.KING,
        "Т": Rank.ACE,
    }
)
_SUITS_IN = {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "S": Suit.SPADES,
    "П": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "H": Suit.HEARTS,
    "Ч": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "D": Suit.DIAMONDS,
    "Б": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "C": Suit.CLUBS,
    "Т": Suit.CLUBS,
}
_JOKERS_IN = {"JK", "JO", "*", "ДЖ", "JOKER", "ДЖОКЕР"}
_SPLIT = re.compile(r"[\s,;]+")
_VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f"), None)


@dataclass(frozen=True, slots=True)
class Card:
    """A natural card (rank and suit) or a joker, which may be pinned to the card it stands for.

    >>> Card.parse("Дп")
    Card.parse('Q♠')
    >>> str(Card.joker(Card.parse("K♦")))
    'JK=K♦'
    """

    rank: Rank | None
    suit: Suit | None
    pin: Card | None = None

    def __post_init__(self) -> None:
        """Plain values become the enums: ``Card(10, "♥")`` is the ``10♥`` that ``Card.parse`` reads."""
        if self.rank is not None and type(self.rank) is not Rank:
            object.__setattr__(self, "rank", Rank(self.rank))
        if self.suit is not None and type(self.suit) is not Suit:
            object.__setattr__(self, "suit", Suit(self.suit))

    @classmethod
    def natural(cls, rank: Rank, suit: Suit) -> Card:
        """A natural card.

        >>> str(Card.natural(Rank.TEN, Suit.HEARTS))
        '10♥'
        """
        return cls(Rank(rank), Suit(suit))

    @classmethod
    def joker(cls, pin: Card | None = None) -> Card:
        """A joker, optionally pinned to the natural card it stands for.

        >>> Card.joker().is_joker
        True
        """
        if pin is not None and pin.is_joker:
            raise CardError(Reason("bad_pin", {"token": f"JK={pin}"}))
        return cls(None, None, pin)

    @property
    def is_joker(self) -> bool:
        """True for a joker (pinned or not).

        >>> Card.parse("*").is_joker
        True
        """
        return self.rank is None

    @property
    def natural_card(self) -> Card | None:
        """The card itself for a natural card, the pinned card for a pinned joker (None for an unpinned one).

        >>> str(Card.parse("JK=5♥").natural_card)
        '5♥'
        """
        if self.is_joker:
            return self.pin
        return self

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card in English or Russian notation.

        >>> Card.parse("10h"), Card.parse("тт"), Card.parse("Jo=Кч")
        (Card.parse('10♥'), Card.parse('A♣'), Card.parse('JK=K♥'))
        >>> Card.parse("11♥")
        Traceback (most recent call last):
        ...
        kunken_scorer.core.cards.CardError: "11♥": no such rank
        """
        if not isinstance(token, str):
            raise CardError(Reason("empty_token", {}))
        return _parse_token(token)

    @classmethod
    def _parse_uncached(cls, token: str) -> Card:
        text = token.strip().translate(_VARIATION_SELECTORS)
        if not text:
            raise CardError(Reason("empty_token", {}))
        upper = text.upper()
        if "=" in upper:
            head, _, tail = upper.partition("=")
            if head not in _JOKERS_IN:
                raise CardError(Reason("bad_pin", {"token": text}))
            try:
                pinned = cls._parse_natural(tail, text)
            except CardError:
                raise CardError(Reason("bad_pin", {"token": text})) from None
            return cls.joker(pinned)
        if upper in _JOKERS_IN:
            return cls.joker()
        return cls._parse_natural(upper, text)

    @classmethod
    def _parse_natural(cls, upper: str, token: str) -> Card:
        if len(upper) < 2:
            if upper in _RANKS_IN:
                raise CardError(Reason("missing_suit", {"token": token}))
            raise CardError(Reason("no_such_rank", {"token": token}))
        rank_text, suit_text = upper[:-1], upper[-1]
        rank = _RANKS_IN.get(rank_text)
        if rank is None:
            if rank_text + suit_text in _RANKS_IN:
                raise CardError(Reason("missing_suit", {"token": token}))
            raise CardError(Reason("no_such_rank", {"token": token}))
        suit = _SUITS_IN.get(suit_text)
        if suit is None:
            raise CardError(Reason("no_such_suit", {"token": token}))
        return cls(rank, suit)

    def __str__(self) -> str:
        if self.is_joker:
            return "JK" if self.pin is None else f"JK={self.pin}"
        assert self.suit is not None  # a natural card has a rank and a suit
        return f"{self.rank}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def russian(self) -> str:
        """The card in Russian notation (for display only; parsing accepts both).

        >>> Card.parse("Q♠").russian()
        'Д♠'
        """
        if self.is_joker:
            return "Дж" if self.pin is None else f"Дж={self.pin.russian()}"
        assert self.rank is not None and self.suit is not None  # a natural card has a rank and a suit
        return f"{self.rank.russian}{self.suit.value}"


# these three pay: scoring 400 deals 2.26× and POST deals/score 1.83× slower without them
# (benchmarks/README.md, "Speed tricks kept"; an in-process A/B: 1.7×)
@lru_cache(maxsize=4096)
def _parse_token(token: str) -> Card:
    return Card._parse_uncached(token)


CardsLike = str | Iterable[str | Card]


def parse_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Read cards separated by any whitespace or commas, or a sequence of tokens or Cards.

    >>> parse_cards("")
    ()
    >>> parse_cards(["K♠", Card.parse("2♥")])
    (Card.parse('K♠'), Card.parse('2♥'))
    >>> parse_cards(7)
    Traceback (most recent call last):
    ...
    kunken_scorer.core.cards.CardError: Cards are written as text, like "K♠ 10♥ JK", not as int.
    """
    if cards is None:
        return ()
    if isinstance(cards, str):
        known = _TEXTS.get(cards)
        if known is not None:
            return known
        if len(cards) > 512:
            return _parse_tokens([t for t in _SPLIT.split(cards) if t])
        known = _parse_text(cards)
        if len(_TEXTS) >= 8192:
            _TEXTS.clear()
        _TEXTS[cards] = known
        return known
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, (bytes, bytearray, dict)) or not hasattr(cards, "__iter__"):
        raise CardError(Reason("not_card_text", {"value": type(cards).__name__}))
    else:
        tokens: list[str | Card] = []
        for item in cards:
            if isinstance(item, Card):
                tokens.append(item)
            elif isinstance(item, str):
                tokens.extend(t for t in _SPLIT.split(item) if t)
            else:
                raise CardError(Reason("not_card_text", {"value": type(item).__name__}))
    return _parse_tokens(tokens)


def parse_ranks(text: str) -> tuple[tuple[Rank, ...], int] | None:
    """Cards named by their rank alone, and jokers (a hand entered by rank: suits change no points); None when
    some word is neither a rank nor a joker.

    >>> parse_ranks("9 9 K Д 3 Дж")
    ((<Rank.NINE: 9>, <Rank.NINE: 9>, <Rank.KING: 13>, <Rank.QUEEN: 12>, <Rank.THREE: 3>), 1)
    >>> parse_ranks("9 K♠") is None, parse_ranks("")
    (True, ((), 0))
    """
    ranks: list[Rank] = []
    jokers = 0
    for word in _SPLIT.split(text.translate(_VARIATION_SELECTORS).upper()):
        if word in _JOKERS_IN:
            jokers += 1
        elif word in _RANKS_IN:
            ranks.append(_RANKS_IN[word])
        elif word:
            return None
    return tuple(ranks), jokers


#: Card texts already read (up to 8,192, then forgotten at once): the same melds and hands are typed again and
#: again (every preview of a deal re-sends them). A plain dict, not an ``lru_cache``: a hit is one lookup, where
#: an LRU also moves its entry to the front of a list (more memory touched on every card field read).
_TEXTS: dict[str, tuple[Card, ...]] = {}


def _parse_text(text: str) -> tuple[Card, ...]:
    if "…" in text or ".." in text:
        text = _RANGE_GAP.sub("…", text)  # "6♥ … 10♥" is one range, like "6♥…10♥"
    if "," in text or ";" in text:
        return _parse_tokens([t for t in _SPLIT.split(text) if t])
    return _parse_tokens(text.split())


_RANGE_GAP = re.compile(r"\s*(?:…|\.\.+)\s*")


def _parse_tokens(tokens: Sequence[str | Card]) -> tuple[Card, ...]:
    if len(tokens) > MAX_CARDS_PER_ENTRY:
        raise CardError(Reason("too_many_cards_typed", {"limit": MAX_CARDS_PER_ENTRY}))
    out: list[Card] = []
    for t in tokens:
        if isinstance(t, Card):
            out.append(t)
        elif "…" in t or ".." in t:
            out.extend(_parse_range(t))
        else:
            out.append(_parse_token(t))
    if len(out) > MAX_CARDS_PER_ENTRY:
        raise CardError(Reason("too_many_cards_typed", {"limit": MAX_CARDS_PER_ENTRY}))
    return tuple(out)


@lru_cache(maxsize=1024)
def _parse_range(token: str) -> tuple[Card, ...]:
    """``6♥…10♥`` (or ``6♥..10♥``): every card of one suit from the first to the last, as written.

    Of the two ways round, the shorter is meant: ``A♥…3♥`` is A 2 3 (the ace low), ``3♥…A♥``
    is 3 2 A, ``Q♥…A♥`` is Q K A, ``10♥…6♥`` runs downwards.
    """
    first, last = (t for t in _RANGE_GAP.split(token, maxsplit=1))
    if not first or not last:
        raise CardError(Reason("range_open", {"token": token}))
    low, high = _parse_token(first), _parse_token(last)
    if low.rank is None or high.rank is None or low.suit != high.suit:  # a joker has no rank
        raise CardError(Reason("range_one_suit", {"token": token}))
    # positions in the rank order with the ace high (2..14) or low (1..13); take the shorter way
    ways = []
    for ace in (14, 1):
        a, b = (ace if rank == Rank.ACE else int(rank) for rank in (low.rank, high.rank))
        ways.append((abs(b - a), a, b))
    _, a, b = min(ways)
    step = 1 if b >= a else -1
    return tuple(Card(Rank.ACE if v in (1, 14) else Rank(v), low.suit) for v in range(a, b + step, step))


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in canonical notation, separated by spaces.

    >>> format_cards(parse_cards("ks,qs  js"))
    'K♠ Q♠ J♠'
    >>> format_cards(None)
    Traceback (most recent call last):
    ...
    kunken_scorer.core.cards.CardError: Cards are written as text, like "K♠ 10♥ JK", not as NoneType.
    """
    try:
        return " ".join(str(c) for c in cards)
    except TypeError:  # not an iterable of cards (``str`` of each card cannot fail)
        raise CardError(Reason("not_card_text", {"value": type(cards).__name__})) from None


ALL_NATURALS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
