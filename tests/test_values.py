"""``records.record``: a frozen dataclass with a quicker ``__init__`` behaves as the dataclass would."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from kunken_scorer.deal import PlayerScore
from kunken_scorer.messages import Reason
from kunken_scorer.records import record


@record
class Sample:
    name: str
    count: int = 0
    tags: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class Plain:
    name: str
    count: int = 0
    tags: list = dataclasses.field(default_factory=list)


def test_a_record_is_made_like_the_frozen_dataclass():
    assert Sample("a") == Sample("a", 0, []) == Sample(name="a", tags=[], count=0)
    assert repr(Sample("a", 2)) == repr(Plain("a", 2)).replace("Plain", "Sample")
    assert dataclasses.astuple(Sample("a", 2, ["x"])) == dataclasses.astuple(Plain("a", 2, ["x"]))
    assert Sample("a").tags is not Sample("a").tags  # a factory's default is made for each record
    assert dataclasses.replace(Sample("a", 1), count=5) == Sample("a", 5)
    assert pickle.loads(pickle.dumps(Sample("a", 3, ["t"]))) == Sample("a", 3, ["t"])
    assert copy.deepcopy(Sample("a", 3)) == Sample("a", 3)


@pytest.mark.parametrize(
    "make",
    [lambda: Sample(), lambda: Sample("a", 1, [], 4), lambda: Sample("a", counts=1), lambda: Sample("a", name="b")],
)
def test_a_record_refuses_the_arguments_the_dataclass_refuses(make):
    with pytest.raises(TypeError):
        make()


def test_a_record_stays_frozen_and_hashable():
    score = PlayerScore("Anna", 35, 0, 35)
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.plus = 100  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del score.name  # type: ignore[misc]
    assert hash(score) == hash(PlayerScore("Anna", 35, 0, 35)) and {score, PlayerScore("Anna", 35, 0, 35)} == {score}
    assert Reason("no_cards").params == {} and Reason("no_cards").params is not Reason("no_cards").params


def test_only_plain_fields_are_taken():
    """A record writes its fields at once; a ``__post_init__`` or keyword-only field would be skipped, so none
    is allowed."""
    with pytest.raises(AssertionError):

        @record
        class Checked:
            name: str

            def __post_init__(self) -> None:
                pass

    with pytest.raises(AssertionError):

        @record
        class KeywordOnly:
            name: str = dataclasses.field(kw_only=True)
