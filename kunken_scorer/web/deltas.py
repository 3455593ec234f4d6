"""Live updates as deltas: a screen that shows version N of a live part (the session page's scoreboard and deals, the
table screen, the room screen) asks for what changed since N and gets only the parts that changed (docs/decisions.md,
"Live updates").

A live template marks what may change on its own: ``<!--part-->`` before an element with an ``id`` and
``<!--/part-->`` after it; a run of parts whose number and order change (the deals) sits between
``<!--list:ID-->`` and ``<!--/list-->``, inside the element ``ID``, each of its parts marked ``data-item``. The rest
of the fragment is its skeleton. Between two renderings with the same skeleton the delta is the changed parts'
HTML, and for a list whose parts came, went or moved, the splices that turn its old ids into the new ones
(``[at, removed, *added]``, as JavaScript's ``Array.splice`` takes them, applied last first); a changed skeleton (the
first deal of a session, the earlier deals folding away) gets the whole fragment again. static/live.js applies
either.

>>> old = screen('<ul id="l"><!--list:l--><!--part--><li id="a" data-item>1</li><!--/part--><!--/list--></ul>'
...              '<!--part--><p id="t">1</p><!--/part-->')
>>> old.html
'<ul id="l"><li id="a" data-item>1</li></ul><p id="t">1</p>'
>>> new = screen('<ul id="l"><!--list:l--><!--part--><li id="a" data-item>1</li><!--/part-->'
...              '<!--part--><li id="b" data-item>2</li><!--/part--><!--/list--></ul>'
...              '<!--part--><p id="t">3</p><!--/part-->')
>>> delta(old, new)
{'parts': {'b': '<li id="b" data-item>2</li>', 't': '<p id="t">3</p>'}, 'lists': {'l': [[1, 0, 'b']]}}
>>> splice(['d-1', 'd-2', 'd-3', 'd-4'], ['d-2', 'd-4', 'd-5'])
[[0, 1], [2, 1], [4, 0, 'd-5']]
>>> delta(old, screen('<p>another skeleton</p>')) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

__all__ = ["Screen", "answer", "delta", "screen", "splice"]

_LIST = re.compile(r"<!--list:([\w-]+)-->(.*?)<!--/list-->", re.S)
_PART = re.compile(r"<!--part-->(.*?)<!--/part-->", re.S)
_ID = re.compile(r'^\s*<[a-z0-9]+[^>]*?\bid="([^"]+)"')
_MARK = re.compile(r"<!--(?:/?part|list:[\w-]+|/list)-->")


@dataclass(frozen=True, slots=True)
class Screen:
    """A live fragment taken apart: its HTML as a page shows it (no marks), each part's HTML by id, each list's
    part ids in order, and the skeleton (the fragment with every part and list replaced by a mark of its id)."""

    html: str
    parts: dict[str, str]
    lists: dict[str, tuple[str, ...]]
    skeleton: str


def screen(marked: str) -> Screen:
    """The ``Screen`` of a live template's rendering ``marked``."""
    parts: dict[str, str] = {}
    lists: dict[str, tuple[str, ...]] = {}

    def part(match: re.Match[str]) -> str:
        html = match.group(1)
        found = _ID.match(html)
        if found is None:
            raise ValueError(f"a live part without an id: {html[:80]!r}")
        parts[found.group(1)] = html.strip()
        return f"<!--part:{found.group(1)}-->"

    def run(match: re.Match[str]) -> str:
        before = len(parts)
        _PART.sub(part, match.group(2))
        lists[match.group(1)] = tuple(list(parts)[before:])
        return f"<!--list:{match.group(1)}-->"

    skeleton = _PART.sub(part, _LIST.sub(run, marked))
    return Screen(_MARK.sub("", marked), parts, lists, skeleton)


def delta(old: Screen, new: Screen) -> dict[str, Any] | None:
    """What turns ``old`` into ``new``: ``{parts: {id: html}, lists: {id: splices}}`` (the changed and new parts,
    the splices of the lists whose parts changed), or None when the skeleton changed (the screen needs the whole
    fragment)."""
    if old.skeleton != new.skeleton:
        return None
    parts = {key: html for key, html in new.parts.items() if old.parts.get(key) != html}
    lists = {key: splice(old.lists[key], ids) for key, ids in new.lists.items() if old.lists[key] != ids}
    return {"parts": parts, "lists": lists}


def splice(old: Sequence[str], new: Sequence[str]) -> list[list[Any]]:
    """The splices ``[at, removed, *added]`` (indexes into ``old``, applied last first) that turn ``old`` into
    ``new``: a deal added is one splice, not the list's every id again."""
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    return [[i, j - i, *new[k:m]] for tag, i, j, k, m in matcher.get_opcodes() if tag != "equal"]


def answer(facts: dict[str, Any], now: Screen, before: Screen | None) -> dict[str, Any]:
    """A live poll's JSON: ``facts`` (the version and what else the screen follows) with the delta from ``before``
    (the screen the phone shows, when the server still has it) to ``now``, else with the whole fragment as ``html``.
    """
    change = None if before is None else delta(before, now)
    return {**facts, **(change if change is not None else {"html": now.html})}
