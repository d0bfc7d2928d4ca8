"""The strategy contract: what every solver strategy takes and returns.

A strategy looks at a knowledge array (what the player sees) plus the total mine
count and returns a :class:`Decision`. Flags (``FLAG``) on the board are treated as
known mines; question marks as covered squares. Strategies are chosen by name with
:func:`solver.strategies.get_strategy`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from solver.cells import Board, Cell

FIRST_CLICK_RULES = ("none", "safe", "opening", "winxp")
"""none: unprotected; safe: the first square is never a mine; opening: the first square
and its neighbours are mine-free; winxp: a mine under the first click moves to the
top-left-most free square."""


@dataclass(frozen=True)
class Decision:
    """What to do next.

    ``open``: squares to open now, all certainly safe, or exactly one guess.
    ``mines``: squares known to be mines (to flag where the game needs it).
    ``risk``: the mine probability of the riskiest square in ``open``
    (0.0 when every one is certainly safe).
    """

    open: tuple[Cell, ...]
    mines: tuple[Cell, ...] = ()
    risk: float = 0.0
    note: str = field(default="", compare=False)

    @property
    def is_guess(self) -> bool:
        return self.risk > 0.0


class Strategy(Protocol):
    """A solver strategy. ``rule`` is the game's first-click rule (FIRST_CLICK_RULES)."""

    name: str

    def decide(self, board: Board, mines: int, rng: np.random.Generator) -> Decision:
        """Choose the next move on ``board`` for a game with ``mines`` mines in all."""
        ...
