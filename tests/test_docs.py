"""The project's own documentation stays honest: docs/api.md and docs/rules.md against the code.

- every endpoint documented in docs/api.md is routed by the app, and every /api/v1 route is
  documented;
- every example request of docs/api.md is sent, in document order, to a fresh app, and the
  answer must be the one documented (the placeholders are explained in the doc itself);
- every switch of the rule engine is in the switch tables of docs/rules.md with each game's
  default and its allowed values, and the worked examples there are what the core computes;
- the README and docs/ link the project's own docs, never a file outside the clone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest

from kunken_scorer import Deal, RuleSet, check_meld, check_opening, check_swap, evaluate_deal
from kunken_scorer.core.messages import MESSAGES, Reason
from kunken_scorer.core.rules import HOUSE_RULES, PRESETS, SWITCHES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API_MD = DOCS / "api.md"
RULES_MD = DOCS / "rules.md"
README = ROOT / "README.md"
OUTSIDE = "../" + "shared"  # the specification's folder next to the clone, which users do not have

# -- docs/api.md: parsing ---------------------------------------------------------------------

ENDPOINT_HEADING = re.compile(r"^#{2,4} `(GET|POST|PUT|PATCH|DELETE) (/api/v1/[^`\s]*)`\s*$")
REQUEST_LINE = re.compile(r"^\*\*Request\*\* `(GET|POST|PUT|PATCH|DELETE) (\S+)`(.*)$")
RESPONSE_LINE = re.compile(r"^\*\*Response\*\* `(\d{3})`\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")
HEADER = re.compile(r"`([A-Za-z][A-Za-z-]*): ([^`]+)`")


def _api_text() -> str:
    return API_MD.read_text(encoding="utf-8")


def _shape(path: str) -> str:
    """A path with every variable part written ``<>``: ``/api/v1/sessions/<>``."""
    return re.sub(r"<[^>]+>", "<>", path)


def documented_endpoints() -> list[tuple[str, str]]:
    """(method, path) of every endpoint heading in docs/api.md, in order."""
    out = []
    for line in _api_text().splitlines():
        match = ENDPOINT_HEADING.match(line)
        if match:
            out.append((match.group(1), match.group(2)))
    return out


def routed_endpoints(app) -> set[tuple[str, str]]:
    """(method, shape) of every /api/v1 route of the app."""
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1"):
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                out.add((method, _shape(rule.rule)))
    return out


@dataclass(frozen=True)
class Example:
    """One example of docs/api.md: a request and the answer documented for it."""

    line: int
    heading: tuple[str, str]
    method: str
    path: str
    headers: dict
    body: str | None
    body_lang: str | None
    status: int
    answer: Any
    #: the ``##`` section the example is in
    section: str = ""

    @property
    def name(self) -> str:
        return f"api.md:{self.line} {self.method} {self.path} -> {self.status}"

    @property
    def stateful(self) -> bool:
        """True for the session examples: each builds on the ones before it."""
        return "/sessions" in self.path

    def builds_on(self, earlier: Example) -> bool:
        """True when ``earlier`` is replayed before this one: a session example, or an earlier one of a section
        whose examples run in order on what its first ones made (``SCENES``)."""
        return earlier.stateful or (earlier.section == self.section and self.section in SCENES)


#: The sections whose examples run in order, each on what the ones before it made (a night and its rounds, the
#: players merged and their merges undone), as ``Example.builds_on`` replays them.
SCENES = frozenset({"Club nights", "Players and ratings"})


def _block(lines: list[str], start: int) -> tuple[str | None, str | None, int]:
    """The fenced block starting at or after ``start`` (skipping blank lines): (lang, text, next line)."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines):
        return None, None, i
    match = FENCE.match(lines[i])
    if not match:
        return None, None, i
    body = []
    i += 1
    while i < len(lines) and lines[i].strip() != "```":
        body.append(lines[i])
        i += 1
    assert i < len(lines), f"api.md:{start + 1}: a code block is never closed"
    return match.group(1), "\n".join(body), i + 1


def api_examples() -> list[Example]:
    """Every **Request** of docs/api.md with its **Response**, in document order."""
    lines = _api_text().splitlines()
    examples = []
    heading = None
    section = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
        head = ENDPOINT_HEADING.match(line)
        if head:
            heading = (head.group(1), head.group(2))
        request = REQUEST_LINE.match(line)
        if not request:
            i += 1
            continue
        number = i + 1
        method, path, rest = request.groups()
        headers = dict(HEADER.findall(rest))
        lang, body, i = _block(lines, i + 1)
        while i < len(lines) and not lines[i].strip():
            i += 1
        response = RESPONSE_LINE.match(lines[i]) if i < len(lines) else None
        assert response, f"api.md:{number}: a **Request** must be followed by a **Response** `<status>` line"
        answer_lang, answer, i = _block(lines, i + 1)
        assert answer_lang == "json", f"api.md:{number}: the answer must be a ```json block"
        assert heading is not None, f"api.md:{number}: an example outside an endpoint section"
        examples.append(
            Example(
                number, heading, method, path, headers, body, lang, int(response.group(1)), json.loads(answer), section
            )
        )
    return examples


# -- docs/api.md: comparing a documented answer with a real one --------------------------------

ANY = "..."


def mismatches(expected: Any, actual: Any, where: str = "answer") -> list[str]:
    """How ``actual`` differs from the documented ``expected`` (the rules are in docs/api.md).

    ``"..."`` matches anything; ``"... words ..."`` matches a text containing ``words``; an
    object with the key ``"..."`` may hold more keys; a list ending in ``"..."`` may be longer.
    """
    if expected == ANY:
        return []
    if isinstance(expected, str) and expected.startswith("... ") and expected.endswith(" ..."):
        words = expected[4:-4]
        if isinstance(actual, str) and words in actual:
            return []
        return [f"{where}: expected a text containing {words!r}, got {actual!r}"]
    if isinstance(expected, dict):
        return _object_mismatches(expected, actual, where)
    if isinstance(expected, list):
        return _list_mismatches(expected, actual, where)
    if type(expected) is not type(actual) or expected != actual:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def _object_mismatches(expected: dict, actual: Any, where: str) -> list[str]:
    """``mismatches`` of a documented object: its fields (all of them, unless it has the key ``"..."``)."""
    if not isinstance(actual, dict):
        return [f"{where}: expected an object, got {actual!r}"]
    out = []
    for key, value in expected.items():
        if key == ANY:
            continue
        if key not in actual:
            out.append(f"{where}: the field {key!r} is missing")
        else:
            out.extend(mismatches(value, actual[key], f"{where}.{key}"))
    if ANY not in expected:
        extra = sorted(set(actual) - set(expected))
        if extra:
            out.append(f"{where}: fields not documented: {extra}")
    return out


def _list_mismatches(expected: list, actual: Any, where: str) -> list[str]:
    """``mismatches`` of a documented list: item by item (longer when it ends in ``"..."``)."""
    if not isinstance(actual, list):
        return [f"{where}: expected a list, got {actual!r}"]
    open_ended = bool(expected) and expected[-1] == ANY
    items = expected[:-1] if open_ended else expected
    if len(actual) < len(items) or (not open_ended and len(actual) != len(items)):
        return [f"{where}: expected {len(items)} item(s), got {len(actual)}: {actual!r}"]
    out = []
    for n, (e, a) in enumerate(zip(items, actual, strict=False)):
        out.extend(mismatches(e, a, f"{where}[{n}]"))
    return out


def test_mismatches_reads_the_placeholders_as_documented():
    assert mismatches({"id": "...", "a": 1}, {"id": "x7", "a": 1}) == []
    assert mismatches({"a": 1}, {"a": 1, "b": 2}) != []
    assert mismatches({"a": 1, "...": "..."}, {"a": 1, "b": 2}) == []
    assert mismatches(["... layout ..."], ["You need a layout first."]) == []
    assert mismatches(["... layout ..."], ["no"]) != []
    assert mismatches([1, "..."], [1, 2, 3]) == [] and mismatches([1], [1, 2]) != []
    assert mismatches(True, 1) != [] and mismatches(None, None) == []


class Sender:
    """Sends docs/api.md examples to a test client, filling in the last session's id and token."""

    def __init__(self, client):
        self.client = client
        self.values = {"<id>": None, "<edit_token>": None, "<seat_token>": None, "<move_code>": None}

    def _fill(self, text: str) -> str:
        for placeholder, value in self.values.items():
            if placeholder in text:
                assert value is not None, f"{placeholder} is used before any session was created"
                text = text.replace(placeholder, value)
        return text

    def send(self, example: Example):
        path = self._fill(example.path)
        headers = {name: self._fill(value) for name, value in example.headers.items()}
        content_type = headers.pop("Content-Type", "application/json")
        if example.method == "GET":
            assert example.body is None, f"{example.name}: a GET example has no body"
            response = self.client.get(path, headers=headers)
        else:
            body = self._fill(example.body or "")
            if example.body_lang == "json":
                json.loads(body)  # the documented body is valid JSON
            response = self.client.open(
                path,
                method=example.method,
                headers=headers,
                data=body.encode("utf-8"),
                content_type=content_type,
            )
        answer = response.get_json(silent=True)
        if response.status_code == 201 and isinstance(answer, dict) and "edit_token" in answer:
            self.values = {"<id>": answer["id"], "<edit_token>": answer["edit_token"], "<seat_token>": None}
            self.values["<move_code>"] = None
        if response.status_code == 200 and isinstance(answer, dict) and "edit_token" in answer:
            self.values["<edit_token>"] = answer["edit_token"]  # a new scorer link
        if response.status_code == 200 and isinstance(answer, dict) and "seat_token" in answer:
            self.values["<seat_token>"] = answer["seat_token"]
        if response.status_code == 201 and isinstance(answer, dict) and "move_code" in answer:
            self.values["<move_code>"] = answer["move_code"]  # a seat's move code, sent in a later body
        return response, answer


EXAMPLES = api_examples()


def _endpoint_of(app, method: str, path: str) -> str:
    """The app's endpoint for a documented path (``<id>`` and the like filled in)."""
    adapter = app.url_map.bind("localhost")
    path = path.partition("?")[0]  # a query string is no part of the route
    endpoint, _ = adapter.match(
        re.sub(r"<[^>]+>", "some-session-id", path.replace("<seat>", "0").replace("<n>", "1")), method=method
    )
    return endpoint


def test_api_md_has_examples_for_every_endpoint(app):
    assert len(EXAMPLES) >= 30
    shown = {_endpoint_of(app, e.method, e.path) for e in EXAMPLES}
    documented = {_endpoint_of(app, m, p) for m, p in documented_endpoints()}
    assert documented - shown == set(), "an endpoint without a runnable example"
    assert shown - documented == set(), "an example for an endpoint that has no section"


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_api_example_answers_as_documented(client, example):
    """Replay the session examples before this one (they build on each other), then check it."""
    sender = Sender(client)
    for earlier in EXAMPLES[: EXAMPLES.index(example)]:
        if example.builds_on(earlier):
            sender.send(earlier)
    response, answer = sender.send(example)
    assert response.status_code == example.status, (example.name, answer)
    assert answer is not None, f"{example.name}: the answer is not JSON"
    problems = mismatches(example.answer, answer)
    assert not problems, f"{example.name}:\n  " + "\n  ".join(problems) + f"\n  full answer: {answer!r}"


def test_every_documented_endpoint_exists(app):
    for method, path in documented_endpoints():
        assert _endpoint_of(app, method, path).startswith("api."), (method, path)
    routed = routed_endpoints(app)
    missing = {(m, _shape(p)) for m, p in documented_endpoints()} - routed
    assert not missing, f"documented in docs/api.md but not routed: {sorted(missing)}"


def test_every_api_route_is_documented(app):
    documented = {(m, _shape(p)) for m, p in documented_endpoints()}
    undocumented = routed_endpoints(app) - documented
    assert not undocumented, f"routed but not documented in docs/api.md: {sorted(undocumented)}"
    assert len(documented) == len(documented_endpoints()), "an endpoint is documented twice"


def test_documented_problem_and_warning_codes_exist():
    text = " ".join(_api_text().split())
    listed = re.search(r"Problem codes: (.*?) Warning codes: (.*?) The `message`", text)
    assert listed, "docs/api.md lists the problem and warning codes of a deal"
    problems = re.findall(r"`([a-z]+_[a-z_]+)`", listed.group(1))  # codes, not field names like `meld`
    warnings = re.findall(r"`([a-z]+_[a-z_]+)`", listed.group(2))
    assert len(problems) >= 15 and warnings
    unknown = [c for c in problems + warnings if c not in MESSAGES]
    assert not unknown, f"codes in docs/api.md that the core does not have: {unknown}"


@pytest.mark.parametrize("kind", ["small", "faces", "aces"])
def test_hand_count_limits_are_the_documented_ones(client, kind):
    """api.md (and rules.md) give what two decks hold; the API takes exactly that many, not one more."""
    text = " ".join(_api_text().split())
    limits = re.search(r"with two decks: (\d+) small, (\d+) faces, (\d+) aces", text)
    assert limits, "docs/api.md gives the count limits for two decks"
    limit = int(limits.group(("small", "faces", "aces").index(kind) + 1))
    assert limit == {"small": 9, "faces": 3, "aces": 1}[kind] * 4 * 2  # ranks x suits x two decks
    assert_in_rules("72 for two decks", "more than 24 J/Q/K, more than 8 aces")

    def hand(n):
        return {
            "players": [
                {"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
                {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": {kind: n}},
            ],
            "went_out": "Anna",
        }

    accepted = client.post("/api/v1/deals/score", json=hand(limit))
    assert accepted.status_code == 200, accepted.get_json()
    refused = client.post("/api/v1/deals/score", json=hand(limit + 1))
    assert refused.status_code == 400 and f"players[1].hand.{kind}" in refused.get_json()["error"]


# -- docs/rules.md: the switch tables ------------------------------------------------------------


def _rules_text() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """The text with every run of whitespace (line breaks too) written as one space."""
    return " ".join(text.split())


def _section(text: str, heading: str) -> str:
    """The lines under ``heading`` up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines()
    start = lines.index(heading) + 1
    end = next(
        (
            i
            for i in range(start, len(lines))
            if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= level
        ),
        len(lines),
    )
    return "\n".join(lines[start:end])


def switch_rows(text: str) -> dict[str, list[str]]:
    """switch -> [Kunken default, ordered rummy default, allowed values, meaning] from its table rows."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\| `([a-z_]+)` \|(.*)\|\s*$", line)
        if match:
            assert match.group(1) not in rows, f"{match.group(1)} has two rows"
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


def _as_documented(name: str, value: Any) -> str:
    """A switch value as the tables write it: on/off, none, face, or the value itself."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "face" if name == "number_points" else "none"
    return str(value)


def test_every_switch_is_in_the_rules_tables_with_each_games_default():
    table = switch_rows(_section(_rules_text(), "## Switches"))
    settable = {f.name for f in fields(RuleSet)} - {"game"}
    assert set(SWITCHES) == settable, "every field of RuleSet but game is a switch"
    assert set(table) == set(SWITCHES), (sorted(set(SWITCHES) - set(table)), sorted(set(table) - set(SWITCHES)))
    for name, (kunken, ordered, _allowed, meaning) in table.items():
        assert kunken.strip("`") == _as_documented(name, getattr(PRESETS["kunken"], name)), name
        assert ordered.strip("`") == _as_documented(name, getattr(PRESETS["ordered-rummy"], name)), name
        assert meaning, name


def test_house_rules_table_holds_exactly_the_house_rules():
    house = switch_rows(_section(_rules_text(), "### House rules"))
    assert list(house) == list(HOUSE_RULES)


def test_switch_tables_give_the_allowed_values_the_code_accepts():
    for name, (_k, _o, allowed, _m) in switch_rows(_section(_rules_text(), "## Switches")).items():
        expected = SWITCHES[name].expected
        if isinstance(expected, Reason):
            params = expected.params
            if "lo" in params:
                assert f"{params['lo']}–{params['hi']}" in allowed, (name, allowed)
            if "word" in params:
                assert f"`{params['word']}`" in allowed, (name, allowed)
            for option in params.get("options", "").split(", "):
                assert not option or f"`{option}`" in allowed, (name, option, allowed)
        elif name == "wild_card":
            assert "none" in allowed and "`7♠`" in allowed
        else:
            assert allowed == "on / off", (name, allowed)


def test_every_house_rule_is_explained_in_the_text_with_its_backticked_name():
    text = _rules_text()
    before_tables = text[: text.index("## Switches")]
    for name in HOUSE_RULES:
        assert f"`{name}`" in before_tables, f"{name} is only in the table, not explained in the rules"


# -- docs/rules.md: the worked examples, against the core ---------------------------------------


def kunken(**switches):
    return RuleSet.for_game("kunken", switches)


def ordered(**switches):
    return RuleSet.for_game("ordered-rummy", switches)


def results(body: dict, rules: RuleSet) -> dict[str, tuple[int, int, int]]:
    report = evaluate_deal(Deal.from_dict(body), rules)
    assert report.valid, [p.message for p in report.problems]
    return {p.name: (p.plus, p.minus, p.score) for p in report.players}


def assert_in_rules(*snippets: str) -> None:
    text = _flat(_rules_text())
    for snippet in snippets:
        assert snippet in text, f"docs/rules.md no longer says {snippet!r}"


def test_rules_example_kunken_opening():
    assert_in_rules(
        "bank card is 7♥",
        "`A♠ A♥ A♦` (30)",
        "`6♥ 7♥ 8♥ 9♥` (20)",
        "**50 points**",
        "With `opening_points` at 60 the same melds fall short",
    )
    opening = check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "7♥", kunken())
    assert (opening.legal, opening.points) == (True, 50)
    assert [m.points for m in opening.melds] == [30, 20]
    assert check_opening(["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"], "7♥", kunken(opening_points=60)).legal is False


def test_rules_example_kunken_joker_swap():
    assert_in_rules("`JK K♠ K♣`", "**K♦ or K♥** may replace the joker", "**K♠ may not**")
    assert check_swap("JK K♠ K♣", "K♦", kunken()).legal is True
    assert check_swap("JK K♠ K♣", "K♥", kunken()).legal is True
    assert check_swap("JK K♠ K♣", "K♠", kunken()).legal is False


def test_rules_example_swap_scoring():
    assert_in_rules(
        "Anna `K♠ K♣ JK`; Boris swaps in K♦ and lays `5♥ JK 7♥`, going out", "**Anna plus 20, Boris plus 25**"
    )
    scores = results(
        {
            "players": [
                {"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": "9♦"},  # cards she still holds: minus 5
                {"name": "Boris", "melds": ["5♥ JK 7♥"], "hand": ""},
            ],
            "swaps": [{"by": "Boris", "from": "Anna", "meld": 0, "card": "K♦"}],
            "went_out": "Boris",
        },
        kunken(),
    )
    assert scores == {"Anna": (20, 5, 15), "Boris": (25, 0, 25)}


def test_rules_example_swap_with_the_joker_kept_in_hand():
    assert_in_rules(
        "Had Boris laid `2♥ 3♥ 4♥` and kept the joker, he would score **plus 25, minus 10** (Anna going out instead)"
    )
    scores = results(
        {
            "players": [
                {"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": ""},
                {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": "JK"},
            ],
            "swaps": [{"by": "Boris", "from": "Anna", "card": "K♦"}],
            "went_out": "Anna",
        },
        kunken(),
    )
    assert scores == {"Anna": (20, 0, 20), "Boris": (25, 10, 15)}


def test_rules_example_kunken_express():
    assert_in_rules("Anna scores **60** (30 doubled)", "plus 15, minus 40 (20 doubled), so **−25**")
    scores = results(
        {
            "players": [
                {"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
                {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": "K♣ JK"},
            ],
            "went_out": "Anna",
            "express": True,
        },
        kunken(),
    )
    assert scores == {"Anna": (60, 0, 60), "Boris": (15, 40, -25)}


def test_rules_example_joker_in_hand_double():
    assert_in_rules("Boris holds `K♣ 5♦ JK`, which gives **minus 30**", "With `K♣ 5♦ JK JK` he has **minus 60**")
    for hand, minus in (("K♣ 5♦ JK", 30), ("K♣ 5♦ JK JK", 60)):
        scores = results(
            {
                "players": [
                    {"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
                    {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": hand},
                ],
                "went_out": "Anna",
            },
            kunken(joker_in_hand="double"),
        )
        assert scores["Boris"] == (15, minus, 15 - minus)


def test_rules_example_kunken_hand_counts():
    assert_in_rules("2 small cards, 1 face card and 1 joker in hand give **minus 30**, the same as `5♣ 7♦ Q♠ JK`")
    for hand in ({"small": 2, "faces": 1, "jokers": 1}, "5♣ 7♦ Q♠ JK"):
        scores = results(
            {
                "players": [
                    {"name": "Anna", "melds": ["A♠ A♥ A♦"], "hand": ""},
                    {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": hand},
                ],
                "went_out": "Anna",
            },
            kunken(),
        )
        assert scores["Boris"] == (15, 30, -15), hand


def test_rules_example_ordered_rummy_72():
    assert_in_rules("`8♥ 9♥ 10♥` = 27, `10♣ J♣ Q♣ K♣` = 40", "**72 plus points**")
    assert check_meld("8♥ 9♥ 10♥", ordered()).points == 27
    assert check_meld("10♣ J♣ Q♣ K♣", ordered()).points == 40
    scores = results(
        {
            "game": "ordered-rummy",
            "players": [
                {
                    "name": "Anna",
                    "melds": ["8♥ 9♥ 10♥", "10♣ J♣ Q♣ K♣"],
                    "vists": [{"to": "Boris", "cards": "5♣"}],
                    "hand": "",
                },
                {"name": "Boris", "melds": ["2♠ 3♠ 4♠", "5♠ 5♥ 5♦"], "hand": "K♦"},
            ],
            "went_out": "Anna",
        },
        ordered(),
    )
    assert scores["Anna"] == (72, 0, 72)


def test_rules_example_ordered_rummy_53():
    assert_in_rules("64 plus points with `3♠ 8♥` left in hand: 64 − 11 = **53**")
    scores = results(
        {
            "game": "ordered-rummy",
            "players": [
                {"name": "Anna", "melds": ["10♣ J♣ Q♣ K♣", "8♦ 8♠ 8♣"], "hand": "3♠ 8♥"},
                {"name": "Boris", "melds": ["2♥ 3♥ 4♥"], "hand": ""},
            ],
            "went_out": "Boris",
        },
        ordered(),
    )
    assert scores["Anna"] == (64, 11, 53)


def test_rules_example_ordered_rummy_45():
    assert_in_rules("78 plus points with `JK 2♣ 6♦` left in hand: 78 − 33 = **45** (the joker is 25)")
    scores = results(
        {
            "game": "ordered-rummy",
            "players": [
                {"name": "Anna", "melds": ["9♥ 10♥ J♥ Q♥", "10♠ J♠ Q♠", "2♦ 3♦ 4♦"], "hand": "JK 2♣ 6♦"},
                {"name": "Boris", "melds": ["5♣ 6♣ 7♣"], "hand": ""},
            ],
            "went_out": "Boris",
        },
        ordered(),
    )
    assert scores["Anna"] == (78, 33, 45)


def test_rules_example_ordered_rummy_hand_points():
    assert_in_rules('`{"points": 33, "jokers": 1}` in hand gives **minus 58** (33 + 25)')
    for hand in ({"points": 33, "jokers": 1}, "K♣ Q♦ 9♠ 4♥ JK"):
        scores = results(
            {
                "game": "ordered-rummy",
                "players": [
                    {"name": "Anna", "melds": ["8♥ 9♥ 10♥"], "hand": ""},
                    {"name": "Boris", "melds": ["2♣ 3♣ 4♣"], "hand": hand},
                ],
                "went_out": "Anna",
            },
            ordered(),
        )
        assert scores["Boris"] == (9, 58, -49), hand


def test_rules_example_ordered_rummy_short_ace():
    assert_in_rules("`A♥ 2♥ 3♥` scores **6** (1 + 2 + 3)", "With `short_ace` at `low`, `A♥ 2♥ 3♥ 4♥` scores **10**")
    assert check_meld("A♥ 2♥ 3♥", ordered()).points == 6
    assert check_meld("A♥ 2♥ 3♥ 4♥", ordered(short_ace="low")).points == 10
    assert check_meld("A♥ 2♥ 3♥ 4♥", ordered()).points == 24  # run_of_three: a 4-card run is not short


def test_rules_example_warning_not_problem(client):
    assert_in_rules(
        "Anna `9♣ JK J♣` (the joker is 10♣), Boris `10♣ 10♥ 10♠`, Vera `10♣ 10♦ 10♠`; Anna went out, Boris and Vera "
        "hold cards",
        "**valid, with one warning**",
    )
    body = {
        "players": [
            {"name": "Anna", "melds": ["9♣ JK J♣"], "hand": ""},
            {"name": "Boris", "melds": ["10♣ 10♥ 10♠"], "hand": "2♦"},
            {"name": "Vera", "melds": ["10♣ 10♦ 10♠"], "hand": "3♦ 4♦"},
        ],
        "went_out": "Anna",
    }
    answer = client.post("/api/v1/deals/score", json=body).get_json()
    assert answer["valid"] is True and answer["problems"] == [], answer
    assert len(answer["warnings"]) == 1 and "10♣" in answer["warnings"][0]["message"], answer
    # With the table given explicitly, the meld check enforces the same rule.
    assert check_meld("9♣ JK J♣", kunken(), table=["10♣ 10♥ 10♠", "10♣ 10♦ 10♠"]).legal is False


def test_rules_md_links_the_decisions_and_the_api():
    text = _rules_text()
    assert "](decisions.md)" in text and "](api.md)" in text
    assert (DOCS / "decisions.md").exists()


# -- links: the README and docs/ point inside the clone ------------------------------------------


def test_readme_links_the_projects_own_docs():
    text = README.read_text(encoding="utf-8")
    assert OUTSIDE not in text
    assert "](docs/rules.md)" in text and "](docs/api.md)" in text


@pytest.mark.parametrize("path", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_docs_stay_inside_the_clone(path):
    assert OUTSIDE not in path.read_text(encoding="utf-8")


def test_relative_links_in_the_docs_resolve():
    for path in [README, *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            assert (path.parent / target).exists(), f"{path.name} links {target}, which does not exist"
