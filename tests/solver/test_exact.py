"""The exact strategy: batches, first clicks, guesses, 50/50s, endgame."""

from __future__ import annotations

import numpy as np
import pytest

from solver.cells import FLAG, UNREVEALED
from solver.game import BoardSize, Game
from solver.probability import InconsistentBoard, analyse
from solver.strategies import get_strategy
from solver.strategies.exact import (
    NEAR_SAFEST,
    ExactStrategy,
    candidates,
    endgame,
    forced_fifty_fifty,
    outlook,
)
from solver.textboard import parse_board

RNG = np.random.default_rng(0)


@pytest.mark.parametrize(("rule", "size", "cell"), [
    ("safe", "expert", (0, 0)), ("none", "expert", (0, 0)), ("winxp", "beginner", (0, 0)),
    ("opening", "expert", (3, 3)), ("opening", "beginner", (3, 3)), ("opening", "3x3/1", (1, 1)),
])
def test_first_click(rule: str, size: str, cell: tuple[int, int]) -> None:
    s = BoardSize.parse(size)
    decision = get_strategy("exact", rule).decide(Game(s).board, s.mines, RNG)
    assert decision.open == (cell,)
    assert decision.is_guess == (rule == "none")


def test_every_certain_square_at_once() -> None:
    board = parse_board("F1..\n11..\n....\n")
    decision = ExactStrategy("safe").decide(board, 4, RNG)
    a = analyse(board, 4)
    assert decision.open == a.safe and decision.mines == a.mines and not decision.is_guess
    assert decision.open == ((0, 2), (1, 2), (2, 0), (2, 1), (2, 2))
    assert decision.mines == ((0, 3), (1, 3), (2, 3))  # the mine count leaves no room


def test_forced_fifty_fifty_is_taken_before_safer_guesses() -> None:
    board = parse_board(".3F.....\n.3F.....\n")
    a = analyse(board, 6)
    assert a.probabilities[0, 5] < 0.5
    decision = ExactStrategy("safe").decide(board, 6, RNG)
    assert decision.open in (((0, 0),), ((1, 0),))
    assert decision.risk == pytest.approx(0.5) and "50/50" in decision.note


def test_no_forced_fifty_fifty_when_information_can_come() -> None:
    board = parse_board(".1.\n.1.\n")
    assert forced_fifty_fifty(board, analyse(board, 1)) is None


def test_endgame_two_independent_pairs() -> None:
    board = parse_board(".3F3.\n.3F3.\n")
    result = endgame(board, analyse(board, 4))
    assert result is not None and result[1] == pytest.approx(0.25)


def test_misread_board_raises() -> None:
    with pytest.raises(InconsistentBoard):
        ExactStrategy("safe").decide(parse_board("1.\n.3\n"), 2, RNG)


def guesses(games: int, size: str = "9x9/10") -> list[tuple[np.ndarray, int]]:
    """Positions where the exact strategy had to guess, from simulated games."""
    s = BoardSize.parse(size)
    out = []
    for seed in range(games):
        game = Game(s, seed=seed)
        strategy = ExactStrategy("safe")
        rng = np.random.default_rng(seed)
        while game.status == "playing":
            board = game.board.copy()
            decision = strategy.decide(board, s.mines, rng)
            if decision.is_guess and game.mines is not None:
                out.append((board, s.mines))
            for cell in decision.open:
                if game.open(cell) != "playing":
                    break
    return out


def test_guesses_are_near_the_safest_and_not_dead() -> None:
    positions = guesses(40, "9x9/12")
    assert len(positions) > 20
    for board, mines in positions:
        strategy = ExactStrategy("safe")
        decision = strategy.decide(board, mines, RNG)
        a = analyse(board, mines)
        (cell,) = decision.open
        assert board[cell] in UNREVEALED
        assert decision.risk == pytest.approx(a.probabilities[cell])
        live = a.probabilities[np.isin(board, UNREVEALED) & (a.probabilities < 1)]
        assert decision.risk <= live.min() + NEAR_SAFEST + 1e-12
        known = board.copy()
        for m in a.mines:
            known[m] = FLAG
        if outlook(known, mines, a, cell, {}).values == 1 and "endgame" not in decision.note:
            others = [outlook(known, mines, a, c, {}) for c in candidates(board, a)]
            assert all(o.values == 1 for o in others), "picked a dead square"


def test_same_position_same_decision() -> None:
    for board, mines in guesses(10):
        a = ExactStrategy("safe").decide(board, mines, np.random.default_rng(1))
        b = ExactStrategy("safe").decide(board, mines, np.random.default_rng(2))
        assert a == b
