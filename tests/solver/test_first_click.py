"""solver.first_click against the simulator's games: first clicks as calibration takes
them (a random square with 8 neighbours while "opening" may still be proved, else the
corner), each on a new game of the rule under test.

A rule claimed wrongly makes play call a first click safe that is a mine as often, so
a game that protects nothing must almost never be credited with a protection (the
claim's doubt is 1e-4 a run); a game that opens a region at every first click must be
credited within a few games.
"""

from __future__ import annotations

import numpy as np

from solver.cells import COVERED
from solver.first_click import first_click_rule, opening_unproved
from solver.game import BoardSize, Game

SIZE = BoardSize(9, 9, 10)
DENSITY = SIZE.mines / (SIZE.rows * SIZE.cols)


def first_clicks(rule: str, games: int, seed: int) -> tuple[list[str], list[int]]:
    """The kinds and neighbour counts of ``games`` first clicks, one game each."""
    rng = np.random.default_rng(seed)
    kinds: list[str] = []
    sides: list[int] = []
    for g in range(games):
        if opening_unproved(kinds, sides, DENSITY):
            cell = (1 + int(rng.integers(SIZE.rows - 2)), 1 + int(rng.integers(SIZE.cols - 2)))
        else:
            cell = (0, 0)
        game = Game(SIZE, rule, seed=seed * 1000 + g)
        if game.open(cell) == "lost":
            kinds.append("unprotected")
            continue
        opened = int((game.board != COVERED).sum())
        kinds.append("opening" if opened > 1 else "safe")
        sides.append(8 if cell != (0, 0) else 3)
    return kinds, sides


def test_a_game_that_protects_nothing_is_not_credited_with_a_protection() -> None:
    claimed = [first_click_rule(*first_clicks("none", 30, seed), DENSITY)
               for seed in range(400)]
    assert claimed.count("none") == len(claimed), claimed


def test_a_game_that_opens_every_first_click_is_credited_within_a_dozen_games() -> None:
    for seed in range(20):
        kinds, sides = first_clicks("opening", 12, seed)
        assert first_click_rule(kinds, sides, DENSITY) == "opening", (seed, kinds)
        assert not opening_unproved(kinds, sides, DENSITY)


def test_corners_alone_would_need_twice_as_many_games() -> None:
    """The reason for the probe: 12 openings at the corner prove nothing yet."""
    assert first_click_rule(["opening"] * 12, [3] * 12, DENSITY) == "none"
    assert first_click_rule(["opening"] * 24, [3] * 24, DENSITY) == "opening"


def test_a_game_that_keeps_only_the_first_square_free_is_never_credited_with_openings() -> None:
    claimed = {first_click_rule(*first_clicks("safe", 80, seed), DENSITY) for seed in range(40)}
    assert "opening" not in claimed and "safe" in claimed, claimed
