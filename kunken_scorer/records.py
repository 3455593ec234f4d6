"""``record``: a frozen dataclass that is quick to make, for the values a deal's scoring makes by the dozen.

A frozen dataclass sets each field in ``__init__`` through ``object.__setattr__`` (it must get past its
own ``__setattr__``, which refuses). A record's ``__init__`` writes its fields into the instance's
``__dict__`` at once instead, 2.3× quicker for a four-field value; everything else (immutability,
equality, hashing, ``repr``, ``dataclasses.replace``) is the dataclass's own.

It pays: scoring a deal makes some 25 such values (a record, a score and a detail per player, the
report, the reasons). Without it, scoring 400 deals is 1.05× slower and POST deals/score 1.18×
(benchmarks/bench_tricks.py quick_records, in-process, 2 rounds).

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), hash(Point(2)) == hash(Point(2))
(Point(x=1, y=0), True, True)
>>> Point(1).x = 5
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True)``, with an ``__init__`` that fills the instance's ``__dict__`` directly."""
    made: Any = dataclass(frozen=True)(cls)
    assert not hasattr(made, "__post_init__") and "__slots__" not in made.__dict__, made
    assert all(f.init and not f.kw_only for f in fields(made)), made
    namespace: dict[str, Any] = {"MISSING": MISSING}
    params, lines = [], []
    for f in fields(made):
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=MISSING")
            lines.append(f"    if {f.name} is MISSING: {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
        lines.append(f"    fields[{f.name!r}] = {f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n    fields = self.__dict__\n" + "\n".join(lines)
    exec(source, namespace)  # as dataclasses makes its own __init__: from the field names, which are identifiers
    init = namespace["__init__"]
    init.__qualname__ = f"{made.__qualname__}.__init__"
    init.__doc__ = made.__init__.__doc__
    made.__init__ = init
    return made
