"""Kunken scorer: the pure rules core (``kunken_scorer.core``, standard library only) and, beside it, the store,
the service layer and the web layer.

>>> from kunken_scorer import RuleSet, check_meld
>>> check_meld("Тп Тч Тб", RuleSet.preset("kunken")).points
30
"""

from .core import *  # noqa: F403  (the core's public names, listed once in its __all__)
from .core import __all__  # noqa: F401
