"""A deal's parts as a person types them: card lines, vist and swap lines (``Anna 2: 5♥``), a hand.

Reading typed text gives the record's plain data (what ``Deal.from_dict`` reads) and a ``Reason``
for each line that does not read; writing a stored record gives back the same texts, for editing.

>>> read_vist_lines("Boris 2: 5ч\\nnobody: 7♠", ["Anna", "Boris"])[0]
[{'to': 'Boris', 'meld': 1, 'cards': '5♥'}]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, TypeVar

from .cards import CardError, Rank, format_cards, parse_cards, parse_ranks
from .messages import N_, KunkenError, Reason, shortened
from .reading import HAND_COUNTS, MAX_MELDS, MAX_VISTS, HandSummary, hand_entries
from .rules import RuleSet

# numbers of at most 9 digits (a longer one is not a meld number or a hand's points; int() refuses past 4,300)
_AFTER_NAME = re.compile(r"^\s*(?:[#№]\s*)?(?P<meld>\d{1,9})?\s*:(?P<cards>.*)$", re.S)
_NUMBER = re.compile(r"[+\-−]?\d{1,9}(?:[.,]\d*)?")


T = TypeVar("T")

#: The fields of a player's part a reason can be shown at.
PART_FIELDS = frozenset({"melds", "vists", "swaps", "hand", *HAND_COUNTS})
#: The fields of how a deal ended (and its note) a reason can be shown at.
END_FIELDS = frozenset({"went_out", "express", "redeal", "note"})
#: The ways of entering hands (``reading.HAND_ENTRIES``) in words, as the start form, the session's setting and the
#: deal form name them (translated where they are shown).
HAND_ENTRY_WORDS = {
    "ranks": N_("by rank, no suits"),
    "points": N_("points and jokers"),
    "counts": N_("counts by kind"),
    "cards": N_("card by card, with suits"),
}


class NotationError(KunkenError):
    """A typed line that does not read: a vist line that is not ``name: cards``, say."""


def split_lines(text: str | None) -> list[tuple[int, str]]:
    """The non-blank lines of a textarea, with their 1-based line numbers."""
    return [(n, line.strip()) for n, line in enumerate((text or "").splitlines(), start=1) if line.strip()]


def line_error(number: int, line: str, why: Reason) -> Reason:
    """A reason that names the line it is about (a long line shortened)."""
    return Reason("line_error", {"n": number, "line": shortened(line), "why": why})


def _name_end(line: str, name: str) -> int | None:
    """Where ``name`` ends at the start of ``line``, matched without regard to case; None when it is not there.

    Case folding may lengthen a name ("Straße" folds to "strasse"), so the end is found in ``line`` itself.

    >>> _name_end("STRASSE: 5♥", "Straße"), _name_end("Boris 2: 5♥", "Anna")
    (7, None)
    """
    folded = name.casefold()
    for end in range(len(line) + 1):
        typed = line[:end].casefold()
        if typed == folded:
            return end
        if len(typed) > len(folded) or not folded.startswith(typed):
            return None
    return None


def parse_vist_line(line: str, names: Sequence[str]) -> dict[str, Any]:
    """Read ``Boris: 5♥ 6♥`` or ``Boris 2: 5♥`` (meld 2 of Boris) into the API's vist dict.

    >>> parse_vist_line("boris 2: 5ч", ["Anna", "Boris"])
    {'to': 'Boris', 'meld': 1, 'cards': '5♥'}
    >>> parse_vist_line("Anna: K♠", ["Anna", "Boris"])
    {'to': 'Anna', 'meld': None, 'cards': 'K♠'}
    """
    for name in sorted(names, key=len, reverse=True):
        end = _name_end(line, name)
        if end is None:
            continue
        match = _AFTER_NAME.match(line[end:])
        if not match:
            continue
        meld = match["meld"]
        if meld is not None and not 1 <= int(meld) <= MAX_MELDS:
            raise NotationError(Reason("vist_meld_from_one", {"limit": MAX_MELDS}))
        cards_text = match["cards"].strip()
        if not cards_text:
            raise NotationError(Reason("vist_no_cards"))
        try:
            cards = parse_cards(cards_text)
        except CardError as err:
            raise NotationError(err.reason) from None
        return {"to": name, "meld": None if meld is None else int(meld) - 1, "cards": format_cards(cards)}
    if ":" not in line:
        raise NotationError(Reason("vist_syntax", {"example": (names[0] if names else "Anna") + ": 5♥"}))
    raise NotationError(
        Reason("vist_unknown_player", {"who": line.split(":", 1)[0].strip(), "players": ", ".join(names)})
    )


def vist_line(vist: Mapping[str, Any], names: Sequence[str] = ()) -> str:
    """A stored vist written back as a line of the vists field, one that reads back as the same player and
    meld among ``names`` (``#`` where a name would be ambiguous).

    >>> vist_line({"to": "Boris", "meld": 1, "cards": "5♥"})
    'Boris 2: 5♥'
    >>> vist_line({"to": "Boris", "meld": 1, "cards": "5♥"}, ["Boris", "Boris 2"])
    'Boris #2: 5♥'
    >>> vist_line({"to": "Boris", "meld": 1, "cards": "5♥"}, ["Boris", "Boris 2", "Boris #2"])
    'Boris  #2: 5♥'
    """
    to, meld, cards = vist["to"], vist.get("meld"), vist.get("cards", "")
    if meld is None:
        return f"{to}: {cards}"
    # "Boris 2" or "Boris #2" may be players of their own; a name never holds two spaces in a row
    # (``reading.clean_name``), so the last spelling reads back as Boris's meld 2 whatever the names
    for where in (f"{to} {meld + 1}", f"{to} #{meld + 1}", f"{to}  #{meld + 1}"):
        if _reads_back(f"{where}: 5♥", names, to, meld):
            break
    return f"{where}: {cards}"


def _reads_back(line: str, names: Sequence[str], to: str, meld: int) -> bool:
    if not names:
        return True
    try:
        read = parse_vist_line(line, names)
    except NotationError:
        return False
    return (read["to"], read["meld"]) == (to, meld)


def _read_lines(text: str | None, limit: int, read: Callable[[str], T]) -> tuple[list[T], list[Reason]]:
    """Each non-blank line read by ``read``, and a reason naming each line that does not read."""
    lines = split_lines(text)
    if len(lines) > limit:
        return [], [Reason("too_many_lines", {"limit": limit})]
    out: list[T] = []
    errors: list[Reason] = []
    for number, line in lines:
        try:
            out.append(read(line))
        except KunkenError as err:
            errors.append(line_error(number, line, err.reason))
    return out, errors


def read_card_lines(text: str | None, limit: int) -> tuple[list[str], list[Reason]]:
    r"""Each non-blank line as canonical cards, and a reason naming each line that does not read (a line of
    commas alone holds no cards: a meld of none would shift the numbers of the melds after it).

    >>> read_card_lines("5♥ 6♥ 7♥\n\n,\n", 10)
    (['5♥ 6♥ 7♥'], [Reason(code='line_error', params={'n': 3, 'line': ',', 'why': Reason(code='no_cards', params={})})])
    """
    return _read_lines(text, limit, _card_line)


def _card_line(line: str) -> str:
    """One line's cards in canonical notation; ``KunkenError`` when it holds none."""
    cards = parse_cards(line)
    if not cards:
        raise KunkenError(Reason("no_cards", {}))
    return format_cards(cards)


def read_vist_lines(
    text: str | None, names: Sequence[str], one_card: bool = False, limit: int = MAX_VISTS
) -> tuple[list[dict[str, Any]], list[Reason]]:
    """Vist lines (``Anna 2: 5♥``), or swap lines when ``one_card``: one natural card put in a joker's place."""

    def read(line: str) -> dict[str, Any]:
        vist = parse_vist_line(line, names)
        if one_card and len(vist["cards"].split()) != 1:
            raise NotationError(Reason("swap_one_card"))
        return vist

    return _read_lines(text, limit, read)


def read_hand(text: str | None, rules: RuleSet, entry: str = "cards") -> tuple[Any, list[Reason]]:
    """The hand as cards, or in short as points then jokers (``35 JK JK``), or each card's rank: the API's hand value;
    None for a blank text (the hand is not entered: no cards is what only the one who went out has).

    Cards named by rank alone (``9 9 K Дж``: suits change no points) are kept as their ranks and jokers, as typed.
    ``entry`` is how the table enters hands: by ``ranks`` a lone number is a rank (``10``), elsewhere it is points;
    a text that does not read is told how to write that way. Jokers alone, typed by rank or in points, are the
    hand's jokers (at a wild-card table, its wild cards), never printed jokers the decks may not hold.

    >>> read_hand("35 JK JK", RuleSet.preset()), read_hand("K♠ jk", RuleSet.preset())
    (({'points': 35, 'jokers': 2}, []), ('K♠ JK', []))
    >>> read_hand("9 9 K Д 3 8 Дж", RuleSet.preset()), read_hand("10", RuleSet.preset(), entry="ranks")
    (({'ranks': '9 9 K Q 3 8', 'jokers': 1}, []), ({'ranks': '10', 'jokers': 0}, []))
    >>> read_hand("abc", RuleSet.preset(), entry="points"), read_hand("35 abc", RuleSet.preset())
    ((None, [Reason(code='hand_points_whole', params={})]), (None, [Reason(code='hand_points_jokers', params={})]))
    >>> read_hand(" ", RuleSet.preset()), read_hand("Дж", RuleSet.preset(), entry="ranks")
    ((None, []), ({'ranks': '', 'jokers': 1}, []))
    """
    text = (text or "").strip()
    if not text:
        return None, []
    words = text.split(None, 1)  # any white space between the points and the jokers
    first, rest = (words + ["", ""])[:2]
    number = bool(_NUMBER.fullmatch(first))
    if number and entry != "ranks":
        value, reasons = _points_hand(first, rest, rules)
        if not reasons:
            return value, []
    try:
        cards = parse_cards(text)
    except CardError as err:
        error = err.reason
    else:
        if entry in ("ranks", "points") and cards and all(c.is_joker and c.pin is None for c in cards):
            return (
                {"ranks": "", "jokers": len(cards)} if entry == "ranks" else {"points": 0, "jokers": len(cards)}
            ), []
        return format_cards(cards), []
    ranked = parse_ranks(text)
    if ranked is not None:
        return {"ranks": " ".join(str(r) for r in ranked[0]), "jokers": ranked[1]}, []
    if entry == "ranks":  # 40 JK: the points, where the table counted them; else how to name cards by rank
        value, reasons = _points_hand(first, rest, rules) if number else ("", [error])
        if not reasons or (number and parse_ranks(first) is None) or error.code != "missing_suit":
            return value, reasons
        return None, [Reason("hand_by_rank")]
    if number:
        return None, reasons
    return None, [Reason("hand_points_whole") if entry == "points" else error]


def read_part_texts(
    texts: Mapping[str, Any], names: Sequence[str], rules: RuleSet, hand_entry: str
) -> tuple[dict[str, Any], dict[str, list[Reason]]]:
    """A seat's part as typed (the texts of ``melds``, ``vists``, ``swaps`` and ``hand``, or the hand's counts when
    ``hand_entry`` is "counts") read into ``draft.read_part``'s shape, with the reasons each field did not read for.
    A field missing from ``texts`` (its text failed its own check) is not read: None.

    >>> read_part_texts({"melds": "тп тч тб", "swaps": "Boris 1: 5ч", "hand": "abc"}, ["Anna", "Boris"],
    ...                 RuleSet.preset(), "points")  # doctest: +NORMALIZE_WHITESPACE
    ({'melds': ['A♠ A♥ A♦'], 'vists': None, 'swaps': [{'from': 'Boris', 'meld': 0, 'card': '5♥'}], 'hand': None},
     {'melds': [], 'swaps': [], 'hand': [Reason(code='hand_points_whole', params={})]})
    """
    reasons: dict[str, list[Reason]] = {}

    def read(field: str, reader: Callable[..., tuple[Any, list[Reason]]], *args: Any, **kwargs: Any) -> Any:
        if field not in texts:
            return None
        value, reasons[field] = reader(texts[field], *args, **kwargs)
        return value

    part = {"melds": read("melds", read_card_lines, MAX_MELDS), "vists": read("vists", read_vist_lines, names)}
    swapped = read("swaps", read_vist_lines, names, one_card=True) or []
    part["swaps"] = [{"from": s["to"], "meld": s["meld"], "card": s["cards"]} for s in swapped]
    if hand_entry == "counts":  # every count 0 or blank: the hand is not entered
        counts = {key: texts.get(key) or 0 for key in HAND_COUNTS}
        part["hand"] = counts if any(counts.values()) else None
    else:
        part["hand"] = read("hand", read_hand, rules, entry=hand_entry)
    return part, reasons


def one_line(texts: Iterable[str | None]) -> str:
    r"""Typed texts as one line (what a form held, kept in a message when it could not be saved).

    >>> one_line(["5♥ 6♥ 7♥\n K♠ K♥ K♦", None, " ", "35 JK"])
    '5♥ 6♥ 7♥ / K♠ K♥ K♦ · 35 JK'
    """
    return " · ".join(" / ".join(line for _, line in split_lines(text)) for text in texts if (text or "").strip())


def typed_part(texts: Mapping[str, Any], hand_entry: str, labels: Mapping[str, Any]) -> str:
    r"""What a part form holds (its fields' ``texts``), as one line (kept in a message when it could not be saved): a
    hand entered by counts (``hand_entry``) as each count's label (``labels``) and number.

    >>> typed_part({"melds": "A♠ A♥ A♦\n2♦ 3♦ 4♦", "hand": "35 JK"}, "points", {})
    'A♠ A♥ A♦ / 2♦ 3♦ 4♦ · 35 JK'
    >>> typed_part({"vists": "Anna: 5♥", "small": 2, "aces": 0, "jokers": 1}, "counts", {"small": "S", "jokers": "J"})
    'Anna: 5♥ · S: 2, J: 1'
    """
    hand = texts.get("hand")
    if hand_entry == "counts":
        hand = ", ".join(f"{labels[k]}: {texts[k]}" for k in HAND_COUNTS if texts.get(k))
    return one_line([texts.get("melds"), texts.get("vists"), texts.get("swaps"), hand])


@dataclass
class Placed:
    """A deal's problems placed on a form: by field id, and those that name no field."""

    at: dict[str, list[Reason]] = dataclass_field(default_factory=dict)
    general: list[Reason] = dataclass_field(default_factory=list)


def place(reasons: Iterable[Reason], field_id: Callable[[Reason], str | None]) -> Placed:
    """The core's ``reasons``, each at the field ``field_id`` finds for its location (None: at no field).

    >>> placed = place([Reason("no_cards", field="melds"), Reason("no_cards")], lambda r: r.field)
    >>> placed.at, placed.general
    ({'melds': [Reason(code='no_cards', params={}, seat=None, field='melds')]}, [Reason(code='no_cards', params={})])
    """
    placed = Placed()
    for reason in reasons:
        at = field_id(reason)
        if at is None:
            placed.general.append(reason)
        else:
            placed.at.setdefault(at, []).append(reason)
    return placed


def part_field(name: str | None, hand_entry: str) -> str | None:
    """The field of a player's part that the core's field ``name`` is shown at (None: none), the hands entered by
    ``hand_entry``: a hand entered by counts shows its problems at the small cards, one typed as text shows its
    counts' problems.

    >>> part_field("hand", "counts"), part_field("aces", "ranks"), part_field("melds", "cards"), part_field(None, "")
    ('small', 'hand', 'melds', None)
    """
    if name == "hand" and hand_entry == "counts":
        name = "small"
    elif name in HAND_COUNTS and hand_entry != "counts":
        name = "hand"
    return name if name in PART_FIELDS else None


def deal_field(reason: Reason, seats: int, hand_entry: str) -> tuple[int | None, str] | None:
    """Where on a deal form of ``seats`` players a reason is shown: (None, a field of how the deal ended), (a seat,
    a field of that player's part: ``part_field``), or None: at no field.

    >>> deal_field(Reason("no_cards", field="went_out"), 2, "ranks"), deal_field(Reason("no_cards", seat=1), 2, "ranks")
    ((None, 'went_out'), None)
    >>> deal_field(Reason("no_cards", seat=1, field="aces"), 2, "points"), deal_field(Reason("no_cards", seat=2), 2, "")
    ((1, 'hand'), None)
    """
    if reason.field is not None and reason.field in END_FIELDS:
        return None, reason.field
    if reason.seat is None or not 0 <= reason.seat < seats:
        return None
    name = part_field(reason.field, hand_entry)
    return None if name is None else (reason.seat, name)


def _points_hand(first: str, rest: str, rules: RuleSet) -> tuple[Any, list[Reason]]:
    """A hand in short: points (``first``) then only jokers (``rest``)."""
    if not first.isdigit():
        return None, [Reason("hand_points_whole")]
    try:
        jokers = parse_cards(rest)
    except CardError:
        return None, [Reason("hand_points_jokers")]
    if not all(rules.is_joker(c) and c.pin is None for c in jokers):
        return None, [Reason("hand_points_jokers")]
    return {"points": int(first), "jokers": len(jokers)}, []


def hand_text(hand: Any, rules: RuleSet | None = None, russian: bool = False) -> str:
    """A stored hand as the hand field shows it: cards, each card's rank as typed, or points then jokers (counts
    become points); in Russian notation if ``russian``; "" for a hand not entered.

    >>> hand_text({"points": 35, "jokers": 2}), hand_text("K♠ JK")
    ('35 JK JK', 'K♠ JK')
    >>> hand_text({"ranks": "9 9 K Q", "jokers": 1}, None, True)
    '9 9 К Д Дж'
    >>> hand_text({"small": 1, "aces": 1, "jokers": 0}, RuleSet.preset()), hand_text(None)
    ('15', '')
    """
    if not isinstance(hand, dict):
        return shown_cards(str(hand or ""), russian)
    summary = HandSummary.from_value(hand, "hand")
    joker = "Дж" if russian else "JK"
    if summary.ranks is not None:
        return " ".join([r.russian if russian else str(r) for r in summary.ranks] + [joker] * summary.jokers)
    return " ".join([str(summary.points_under(rules or RuleSet.preset()))] + [joker] * summary.jokers)


def shown_cards(text: str, russian: bool) -> str:
    """Canonical card text in the page's notation (Russian ranks on Russian pages).

    >>> shown_cards("K♠ JK 10♥", True), shown_cards("K♠ JK", False), shown_cards("6♥, 7♥", True)
    ('К♠ Дж 10♥', 'K♠ JK', '6♥, 7♥')
    """
    if not russian or not text:
        return text
    try:
        return ", ".join(" ".join(c.russian() for c in parse_cards(part)) for part in text.split(", "))
    except CardError:
        return text


#: Parameters of the core's reasons that hold cards (or a rank) in canonical notation.
_CARD_PARAMS = frozenset({"card", "cards", "joker", "needed", "stands_for", "wild"})
_RANK_WORDS = {str(r): r.russian for r in Rank}


def in_russian_notation(reason: Reason) -> Reason:
    """The reason with every card it names in Russian notation (nested reasons too).

    >>> in_russian_notation(Reason("set_duplicate_card", {"card": "K♠"})).message
    'A set may not hold two copies of the same card: К♠ appears twice.'
    """
    params: dict[str, Any] = {}
    for key, value in reason.params.items():
        if isinstance(value, Reason):
            value = in_russian_notation(value)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Reason) for v in value):
            value = [in_russian_notation(v) for v in value]
        elif key in _CARD_PARAMS and isinstance(value, str):
            value = shown_cards(value, True)
        elif key == "rank" and isinstance(value, str):
            value = _RANK_WORDS.get(value, value)
        params[key] = value
    return Reason(reason.code, params)


def deal_texts(
    record: Mapping[str, Any],
    names: Sequence[str],
    override: bool = False,
    note: str | None = None,
    rules: RuleSet | None = None,
    russian: bool = False,
) -> dict[str, Any]:
    """A stored deal record as the texts of the deal form, players in seat order (swaps under the swapper)."""
    by_name = {p.get("name"): p for p in record.get("players", []) if isinstance(p, dict)}
    swaps = [s for s in record.get("swaps") or [] if isinstance(s, dict)]
    players = []
    for name in names:
        p = by_name.get(name, {})
        hand = p.get("hand")
        counts = hand if isinstance(hand, dict) and "points" not in hand and "ranks" not in hand else {}
        players.append(
            {
                **{key: counts.get(key, 0) for key in HAND_COUNTS},
                "melds": "\n".join(shown_cards(m, russian) for m in p.get("melds") or []),
                "vists": "\n".join(
                    vist_line({**v, "cards": shown_cards(v.get("cards", ""), russian)}, names)
                    for v in p.get("vists") or []
                ),
                "swaps": "\n".join(
                    vist_line({"to": s["from"], "meld": s.get("meld"), "cards": shown_cards(s["card"], russian)}, names)
                    for s in swaps
                    if s.get("by") == name
                ),
                "hand": hand_text(p.get("hand"), rules, russian),
            }
        )
    return {
        "players": players,
        "went_out": record.get("went_out") or "",
        "express": bool(record.get("express")),
        "redeal": bool(record.get("redeal")),
        "override": override,
        "note": note or "",
    }


def part_texts(
    part: Mapping[str, Any] | None, seat: int, names: Sequence[str], rules: RuleSet, russian: bool
) -> dict[str, Any]:
    """A stored part of ``seat`` as the texts of the part form."""
    name = names[seat]
    part = part or {}
    record = {
        "players": [{"name": name, **{k: v for k, v in part.items() if k != "swaps"}}],
        "swaps": [{"by": name, **s} for s in part.get("swaps") or []],
    }
    players: list[dict[str, Any]] = deal_texts(record, names, rules=rules, russian=russian)["players"]
    return {**players[seat], "out": part.get("hand") == ""}  # a part saying "no cards": its player went out


def hand_entry(chosen: str | None, rules: RuleSet) -> str:
    """How this table enters the cards left in hand: its remembered choice (if the rules have it), else by rank
    (one tap a card, no suits and no sums)."""
    return chosen if isinstance(chosen, str) and chosen in hand_entries(rules) else "ranks"


def entered_as(record: Mapping[str, Any], default: str) -> str:
    """How a stored deal's hands were entered, so that its edit shows them the same way.

    Counts or points alone come back as such; typed cards, or a mix, come back as text (a counts
    hand then shows as its points); a deal whose hands say nothing takes the table's way.
    """
    hands = [p.get("hand") for p in record.get("players", []) if isinstance(p, dict)]
    kinds = {_hand_kind(h) for h in hands if h}
    return kinds.pop() if len(kinds) == 1 else ("cards" if kinds else default)


def _hand_kind(hand: Any) -> str:
    """The way a stored hand was entered: "points", "ranks", "counts" or "cards"."""
    if not isinstance(hand, dict):
        return "cards"
    return "points" if "points" in hand else "ranks" if "ranks" in hand else "counts"


def part_hand_way(part: Mapping[str, Any] | None, table_way: str) -> str:
    """How a stored part's hand is shown on its page: the table's way, unless that is counts and the hand was typed
    (cards, ranks or points), which counts cannot show: then as it was entered, so that a switch of the table's way
    in the middle of a deal never shows a typed hand as nothing (and the phone's next save keeps it).

    >>> part_hand_way({"hand": "K♠ 5♥"}, "counts"), part_hand_way({"hand": ""}, "counts")
    ('cards', 'counts')
    >>> part_hand_way({"hand": {"points": 35, "jokers": 1}}, "counts"), part_hand_way({"hand": "K♠"}, "ranks")
    ('points', 'ranks')
    """
    if table_way != "counts" or not part:
        return table_way
    return entered_as({"players": [part]}, table_way)
