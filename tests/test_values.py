"""The core's values are plain frozen dataclasses (issue 34: no generated ``__init__``, no ``exec``)."""

from __future__ import annotations

import ast
import copy
import dataclasses
import pathlib
import pickle

import pytest

from kunken_scorer.core.deal import PlayerScore
from kunken_scorer.core.messages import Reason

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "kunken_scorer"


@dataclasses.dataclass(frozen=True)
class Sample:
    name: str
    count: int = 0
    tags: list = dataclasses.field(default_factory=list)


def test_a_record_is_the_frozen_dataclass():
    assert dataclasses.is_dataclass(Sample) and Sample.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert Sample("a") == Sample("a", 0, []) == Sample(name="a", tags=[], count=0)
    assert Sample("a").tags is not Sample("a").tags
    assert dataclasses.replace(Sample("a", 1), count=5) == Sample("a", 5)
    assert pickle.loads(pickle.dumps(Sample("a", 3, ["t"]))) == Sample("a", 3, ["t"])
    assert copy.deepcopy(Sample("a", 3)) == Sample("a", 3)
    with pytest.raises(TypeError):
        Sample("a", name="b")


def test_the_core_values_stay_frozen_and_hashable():
    score = PlayerScore("Anna", 35, 0, 35)
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.plus = 100  # type: ignore[misc]
    assert hash(score) == hash(PlayerScore("Anna", 35, 0, 35)) and {score, PlayerScore("Anna", 35, 0, 35)} == {score}
    assert Reason("no_cards").params == {} and Reason("no_cards").params is not Reason("no_cards").params


def test_no_module_of_the_package_runs_exec_or_eval():
    for path in PACKAGE.rglob("*.py"):
        calls = {
            node.func.id
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & {"exec", "eval"}, path
