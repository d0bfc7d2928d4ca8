"""``solver.density.analyse_density`` against trying every layout, each weighed by the
chance that independent squares of one mine chance lay it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from test_probability import random_position

from solver.cells import COVERED, FLAG, QUESTION, Board, neighbours
from solver.density import analyse_density
from solver.probability import InconsistentBoard
from solver.textboard import parse_board


def brute_force(board: Board, density: float) -> np.ndarray:
    """Each covered square a mine or not; a layout weighs density**k (1-density)**(n-k)."""
    return brute_force_total(board, density)[0]


def brute_force_total(board: Board, density: float) -> tuple[np.ndarray, float]:
    """The probabilities and the summed weight of the layouts that fit (the chance that
    independent squares lay one of them)."""
    rows, cols = board.shape
    unknown = [tuple(x) for x in np.argwhere(np.isin(board, (COVERED, QUESTION)))]
    flags = {tuple(x) for x in np.argwhere(board == FLAG)}
    numbers = [(tuple(x), int(board[tuple(x)])) for x in np.argwhere(board >= 0)]
    counts, total = np.zeros(board.shape), 0.0
    for bits in itertools.product((False, True), repeat=len(unknown)):
        mine_set = flags | {cell for cell, b in zip(unknown, bits, strict=True) if b}
        if all(sum(nb in mine_set for nb in neighbours(cell, rows, cols)) == v
               for cell, v in numbers):
            k = sum(bits)
            weight = density ** k * (1 - density) ** (len(unknown) - k)
            total += weight
            for cell in mine_set:
                counts[cell] += weight
    probs = counts / total
    probs[board >= 0] = np.nan
    return probs, total


def small_positions(seed: int, count: int = 40) -> Iterator[Board]:
    """``count`` random positions with 12 hidden squares at most (every layout tried)."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        board, _, _ = random_position(rng)
        if np.isin(board, (COVERED, QUESTION)).sum() <= 12:
            found += 1
            yield board


@pytest.mark.parametrize("density", [0.1, 0.2, 0.45])
def test_matches_brute_force(density: float) -> None:
    for board in small_positions(int(density * 100)):
        a = analyse_density(board, density)
        expected = brute_force(board, density)
        np.testing.assert_allclose(a.probabilities, expected, atol=1e-9)
        hidden = np.isin(board, (COVERED, QUESTION))
        assert set(a.safe) == {tuple(x) for x in np.argwhere(hidden & (expected == 0))}
        assert set(a.mines) == {tuple(x) for x in np.argwhere(hidden & (expected == 1))}


@pytest.mark.parametrize("density", [0.15, 0.4])
def test_log_layouts_is_the_chance_of_the_numbers_shown(density: float) -> None:
    # the weight that compares boards which differ in their numbers (bot.learn mixes
    # the names an unseen look may have by it), so it must be the true chance
    for board in small_positions(7 + int(density * 100)):
        _, total = brute_force_total(board, density)
        assert analyse_density(board, density).log_layouts == pytest.approx(np.log(total))


def test_a_square_off_the_frontier_is_never_certain() -> None:
    # the count of mines is free: no total proves the squares the numbers leave open
    a = analyse_density(parse_board("1.\n.."), density=0.9)
    assert a.safe == () and a.mines == ()
    assert a.off_frontier == 0
    b = analyse_density(parse_board("01..\n01.."), density=0.3)
    assert b.off_frontier == 2 and b.off_probability == pytest.approx(0.3)
    assert b.mines == () and b.safe == ()


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="density"):
        analyse_density(parse_board("1.\n.."), density=1.0)
    with pytest.raises(InconsistentBoard):
        analyse_density(parse_board("4.\n.."), density=0.2)
