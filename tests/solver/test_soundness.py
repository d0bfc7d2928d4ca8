"""Soundness of every strategy: what it calls certain is true.

Over thousands of positions from simulated games, every square a strategy opens
without risk is safe and every square it reports as a mine is one. Strategies whose
module does not exist yet are skipped.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.cells import UNREVEALED
from solver.game import BoardSize, Game
from solver.probability import analyse
from solver.strategies import STRATEGY_NAMES, get_strategy

SIZES = (("9x9/10", 60), ("8x8/14", 80), ("16x16/40", 8))


def play_and_check(name: str, size: BoardSize, seed: int) -> int:
    """Play one game with strategy ``name``, checking every decision; positions seen."""
    game = Game(size, rule="safe", seed=seed)
    strategy = get_strategy(name, "safe")
    rng = np.random.default_rng(seed)
    seen = 0
    while game.status == "playing":
        decision = strategy.decide(game.board.copy(), size.mines, rng)
        assert decision.open, f"{name} returned nothing to open"
        assert all(game.board[c] in UNREVEALED for c in decision.open)
        if game.mines is not None:
            seen += 1
            for cell in decision.mines:
                assert game.mines[cell], f"{name} called {cell} a mine (seed {seed})"
            if not decision.is_guess:
                for cell in decision.open:
                    assert not game.mines[cell], f"{name} called {cell} safe (seed {seed})"
            else:
                assert len(decision.open) == 1
        for cell in decision.open:
            if game.open(cell) != "playing":
                break
    return seen


@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_certain_moves_are_right(name: str) -> None:
    seen = 0
    for spec, games in SIZES:
        size = BoardSize.parse(spec)
        for seed in range(games):
            seen += play_and_check(name, size, seed)
    assert seen > 300


def test_probability_engine_is_sound_on_game_positions() -> None:
    """Every square analyse() calls certain is right, over thousands of positions."""
    checked = 0
    for seed in range(150):
        game = Game(BoardSize.parse("9x9/12"), rule="safe", seed=seed)
        rng = np.random.default_rng(seed)
        game.open((4, 4))
        while game.status == "playing":
            a = analyse(game.board, 12)
            assert game.mines is not None
            assert not any(game.mines[c] for c in a.safe)
            assert all(game.mines[c] for c in a.mines)
            covered = np.argwhere(np.isin(game.board, UNREVEALED))
            cell = a.safe[0] if a.safe else tuple(covered[rng.integers(len(covered))])
            game.open((int(cell[0]), int(cell[1])))
            checked += 1
    assert checked > 1000
