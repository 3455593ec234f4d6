"""The rules core of the Kunken scorer: standard library only; no web, storage or I/O.

>>> from kunken_scorer.core import RuleSet, check_meld
>>> check_meld("Тп Тч Тб", RuleSet.preset("kunken")).points
30
"""

from .cards import Card, CardError, Rank, Suit, format_cards, parse_cards
from .deal import DealReport, PlayerScore, evaluate_deal
from .melds import (
    DiscardCheck,
    MeldCheck,
    OpeningCheck,
    SwapCheck,
    check_discard,
    check_meld,
    check_opening,
    check_swap,
    check_vist,
)
from .messages import MESSAGES, KunkenError, Reason
from .reading import Deal, DealInputError, PlayerRecord, Vist
from .rules import GAMES, HOUSE_RULES, RuleSet, RuleSetError
from .session import SessionStatus, Target, TargetError, dealer, running_totals, session_status, totals

__all__ = [
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
    "Deal",
    "DealInputError",
    "DealReport",
    "PlayerRecord",
    "PlayerScore",
    "Vist",
    "evaluate_deal",
    "DiscardCheck",
    "MeldCheck",
    "OpeningCheck",
    "SwapCheck",
    "check_discard",
    "check_meld",
    "check_opening",
    "check_swap",
    "check_vist",
    "MESSAGES",
    "KunkenError",
    "Reason",
    "GAMES",
    "HOUSE_RULES",
    "RuleSet",
    "RuleSetError",
    "SessionStatus",
    "Target",
    "TargetError",
    "dealer",
    "running_totals",
    "session_status",
    "totals",
]
