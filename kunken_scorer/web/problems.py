"""Where a deal's problems are shown: each next to the field of the form it names."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..core.deal import PROBLEM_FIELD
from ..core.messages import Reason


def place_problems(
    reasons: Iterable[Reason], field_of: Callable[[Reason], Any]
) -> tuple[dict[str, list[Reason]], list[Reason]]:
    """Each problem next to the field ``field_of(reason)`` names: {field id: [Reason]}, and the rest (None)."""
    placed: dict[str, list[Reason]] = {}
    general: list[Reason] = []
    for reason in reasons:
        field = field_of(reason)
        if field is None:
            general.append(reason)
        else:
            placed.setdefault(field.id, []).append(reason)
    return placed, general


def problem_field(code: str, entry: Any, counts: bool) -> Any:
    """The field of a player's part (``entry``) where a problem ``code`` is shown; None if it names none."""
    name = PROBLEM_FIELD.get(code)
    if name in ("went_out", "express"):
        return None  # a field of the deal's own, not of a player's part
    if name == "hand" and counts:
        name = "small"  # the hand is entered by counts: the text field is not shown
    return entry[name] if name else None
