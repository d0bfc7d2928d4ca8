"""vision.reveal: naming the looks of a frame in which every square is shown."""

from __future__ import annotations

import numpy as np

from solver.cells import EXPLODED, MINE
from solver.game import BoardSize, Game
from vision.calibrate import adjacent_count
from vision.reveal import label_revealed_frame


def revealed_ids(mines: np.ndarray, shift: int = 20) -> np.ndarray:
    """Look ids: number n is look n + shift (ids are arbitrary), mines look 99."""
    return np.where(mines, 99, adjacent_count(mines) + shift)


def test_real_layouts_are_named_by_counting() -> None:
    for seed in range(5):
        game = Game(BoardSize(16, 16, 40), "safe", seed=seed)
        game.open((8, 8))
        assert game.mines is not None
        mines = np.asarray(game.mines, bool)
        names = label_revealed_frame(revealed_ids(mines))
        assert names is not None
        assert names[99] == MINE
        for look, code in names.items():
            if look != 99:
                assert code == look - 20


def test_the_hit_mine_with_its_own_look_is_exploded() -> None:
    game = Game(BoardSize(9, 9, 10), "safe", seed=3)
    game.open((0, 0))
    assert game.mines is not None
    mines = np.asarray(game.mines, bool)
    ids = revealed_ids(mines)
    hit = tuple(int(v) for v in np.argwhere(mines)[0])
    ids[hit] = 77
    names = label_revealed_frame(ids, [hit])
    assert names is not None and names[77] == EXPLODED and names[99] == MINE


def test_known_looks_are_not_renamed_and_flags_before_are_ignored() -> None:
    game = Game(BoardSize(9, 9, 10), "safe", seed=4)
    game.open((4, 4))
    assert game.mines is not None
    mines = np.asarray(game.mines, bool)
    ids = revealed_ids(mines)
    safe = tuple(int(v) for v in np.argwhere(~mines & (adjacent_count(mines) > 0))[0])
    ids[safe] = 20  # a wrongly flagged square drawn like an empty one
    flagged = np.zeros(ids.shape, bool)
    flagged[safe] = True
    names = label_revealed_frame(ids, known={99: MINE}, ignore=flagged)
    assert names is not None and 99 not in names and names[20] == 0


def test_a_board_with_covered_squares_is_no_reading_of_everything() -> None:
    rng = np.random.default_rng(1)
    assert label_revealed_frame(rng.integers(0, 30, (16, 16))) is None
