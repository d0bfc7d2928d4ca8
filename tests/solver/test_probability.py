"""Exact probabilities against brute-force enumeration of every layout."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.cells import COVERED, FLAG, QUESTION, Board, neighbours
from solver.probability import (
    InconsistentBoard,
    analyse,
    analyse_reveal,
    mine_probabilities,
    reveal_outcomes,
)
from solver.textboard import parse_board


def random_position(rng: np.random.Generator) -> tuple[Board, int, np.ndarray]:
    """A small board with some safe squares revealed, some mines flagged."""
    rows, cols = int(rng.integers(2, 6)), int(rng.integers(2, 6))
    n = rows * cols
    mines = int(rng.integers(1, max(2, n // 2)))
    layout = np.zeros(n, dtype=bool)
    layout[rng.choice(n, mines, replace=False)] = True
    layout = layout.reshape(rows, cols)
    board = np.full((rows, cols), COVERED, dtype=np.int8)
    safe_cells = np.argwhere(~layout)
    reveal = rng.random(len(safe_cells)) < rng.uniform(0.2, 0.8)
    for (r, c), show in zip(safe_cells, reveal, strict=True):
        if show:
            board[r, c] = sum(layout[nb] for nb in neighbours((r, c), rows, cols))
    for r, c in np.argwhere(layout):
        if rng.random() < 0.15:
            board[r, c] = FLAG
        elif rng.random() < 0.1:
            board[r, c] = QUESTION
    return board, mines, layout


def brute_force(board: Board, mines: int) -> np.ndarray | None:
    """Mine probabilities by trying every layout; None when no layout fits."""
    rows, cols = board.shape
    unknown = [tuple(x) for x in np.argwhere(np.isin(board, (COVERED, QUESTION)))]
    flags = {tuple(x) for x in np.argwhere(board == FLAG)}
    left = mines - len(flags)
    counts = np.zeros(board.shape)
    total = 0
    numbers = [(tuple(x), int(board[tuple(x)])) for x in np.argwhere(board >= 0)]
    for chosen in itertools.combinations(range(len(unknown)), left):
        mine_set = flags | {unknown[i] for i in chosen}
        if all(sum(nb in mine_set for nb in neighbours(cell, rows, cols)) == v
               for cell, v in numbers):
            total += 1
            for cell in mine_set:
                counts[cell] += 1
    if total == 0:
        return None
    probs = counts / total
    probs[board >= 0] = np.nan
    return probs


def positions(count: int, seed: int) -> list[tuple[Board, int, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        board, mines, layout = random_position(rng)
        if np.isin(board, (COVERED, QUESTION)).sum() <= 16:
            out.append((board, mines, layout))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_matches_brute_force(seed: int) -> None:
    for board, mines, _ in positions(60, seed):
        expected = brute_force(board, mines)
        assert expected is not None
        got = mine_probabilities(board, mines)
        np.testing.assert_allclose(got, expected, atol=1e-9, equal_nan=True)


def test_without_cheap_deductions_same_answer() -> None:
    for board, mines, _ in positions(120, 42):
        full = analyse(board, mines)
        bare = analyse(board, mines, cheap_first=False)
        np.testing.assert_allclose(bare.probabilities, full.probabilities, atol=1e-9,
                                   equal_nan=True)
        assert (bare.safe, bare.mines) == (full.safe, full.mines)
        assert bare.log_layouts == pytest.approx(full.log_layouts)


def test_certain_squares_match_brute_force() -> None:
    for board, mines, _ in positions(150, 99):
        expected = brute_force(board, mines)
        assert expected is not None
        a = analyse(board, mines)
        unflagged = np.isin(board, (COVERED, QUESTION))
        safe = np.argwhere(unflagged & (expected == 0))
        mines_found = np.argwhere(unflagged & (expected == 1))
        assert set(a.safe) == {tuple(map(int, x)) for x in safe}
        assert set(a.mines) == {tuple(map(int, x)) for x in mines_found}
        assert a.mines_left == mines - int((board == FLAG).sum()) - len(mines_found)


def test_log_layouts_counts_layouts() -> None:
    board = parse_board("1..\n...\n")
    # 1 mine among the 3 neighbours of the 1, 2 more among the 2 far squares -> 3 * 1
    a = analyse(board, mines=3)
    assert round(np.exp(a.log_layouts)) == 3
    assert a.off_frontier == 2 and a.off_probability == 1.0
    assert set(a.mines) == {(0, 2), (1, 2)}


def test_wrong_mine_count_is_inconsistent() -> None:
    for board, mines, _ in positions(80, 5):
        for wrong in (mines + 1, mines - 1):
            expected = brute_force(board, wrong) if wrong >= (board == FLAG).sum() else None
            if expected is None:
                with pytest.raises(InconsistentBoard):
                    analyse(board, wrong)
                with pytest.raises(InconsistentBoard):
                    analyse(board, wrong, cheap_first=False)
            else:
                np.testing.assert_allclose(mine_probabilities(board, wrong), expected,
                                           atol=1e-9, equal_nan=True)


@pytest.mark.parametrize("text", ["1.\n.3\n", "11\n..\n", "F1F\n...\n"])
def test_misread_numbers_raise(text: str) -> None:
    with pytest.raises(InconsistentBoard):
        analyse(parse_board(text), mines=2)


def test_flags_and_revealed_squares() -> None:
    board = parse_board("F1..\n11..\n....\n")
    probs = mine_probabilities(board, mines=2)
    assert probs[0, 0] == 1.0 and np.isnan(probs[0, 1])
    assert probs[0, 2] == 0.0 and probs[2, 2] == 0.0
    assert probs[2, 3] == pytest.approx(1 / 3)


def test_cache_gives_same_answer() -> None:
    cache: dict = {}
    for board, mines, _ in positions(50, 3):
        np.testing.assert_allclose(analyse(board, mines, cache).probabilities,
                                   analyse(board, mines).probabilities, equal_nan=True)
    assert cache


def test_reveal_equals_analysing_each_value() -> None:
    rng = np.random.default_rng(11)
    checked = 0
    for board, mines, _ in positions(80, 21):
        covered = [tuple(map(int, x)) for x in np.argwhere(np.isin(board, (COVERED, QUESTION)))]
        if not covered:
            continue
        cell = covered[int(rng.integers(len(covered)))]
        base = analyse(board, mines)
        after = analyse_reveal(board, mines, cell)
        total = 0.0
        for value in range(9):
            trial = board.copy()
            trial[cell] = value
            try:
                expected = analyse(trial, mines, cheap_first=False)
            except InconsistentBoard:
                assert value not in after
                continue
            got = after[value]
            np.testing.assert_allclose(got.probabilities, expected.probabilities, atol=1e-9,
                                       equal_nan=True)
            assert (got.safe, got.mines) == (expected.safe, expected.mines)
            total += np.exp(got.log_layouts - base.log_layouts)
            checked += 1
        assert total == pytest.approx(1 - base.probabilities[cell], abs=1e-9)
    assert checked > 50


def test_reveal_outcomes_summarise_analyse_reveal() -> None:
    rng = np.random.default_rng(12)
    checked = 0
    for board, mines, _ in positions(120, 31):
        covered = [tuple(map(int, x)) for x in np.argwhere(np.isin(board, (COVERED, QUESTION)))]
        if not covered:
            continue
        cell = covered[int(rng.integers(len(covered)))]
        full = analyse_reveal(board, mines, cell)
        short = reveal_outcomes(board, mines, cell)
        assert sorted(full) == sorted(short)
        for value, a in full.items():
            live = a.probabilities[a.probabilities < 1.0]
            o = short[value]
            assert o.safe == len(a.safe)
            assert o.log_layouts == pytest.approx(a.log_layouts, abs=1e-9)
            if live.size:
                assert o.lowest == pytest.approx(float(live.min()), abs=1e-9)
            else:
                assert np.isnan(o.lowest)
            checked += 1
    assert checked > 100
