"""Strategies selectable by name. Each lives in its own module ``solver.strategies.<name>``
and defines a class ``<Name>Strategy(rule: str)`` following :class:`solver.strategy.Strategy`.

>>> sorted(STRATEGY_NAMES)
['csp', 'exact', 'pairwise', 'sampling', 'single', 'tank']
"""

from __future__ import annotations

import importlib

from solver.strategy import FIRST_CLICK_RULES, Strategy

STRATEGY_NAMES = ("exact", "single", "pairwise", "tank", "csp", "sampling")


def get_strategy(name: str, rule: str = "safe") -> Strategy:
    """A fresh strategy instance by name, for a game with first-click ``rule``."""
    if name not in STRATEGY_NAMES:
        raise ValueError(f"unknown strategy {name!r}: use one of {', '.join(STRATEGY_NAMES)}")
    if rule not in FIRST_CLICK_RULES:
        raise ValueError(f"unknown first-click rule {rule!r}: use one of {FIRST_CLICK_RULES}")
    module = importlib.import_module(f"solver.strategies.{name}")
    cls = getattr(module, f"{name.capitalize()}Strategy")
    strategy: Strategy = cls(rule)
    return strategy
