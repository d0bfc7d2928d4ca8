"""The five classic strategies: hand-made positions, guess rules, win rates, soundness.

Expected deductions are read off the boards by hand (reasoning given next to each) and
cross-checked with a brute-force enumeration written here, independent of the code under
test.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from solver.cells import Board, Cell, neighbours
from solver.game import BoardSize, Game
from solver.strategies import get_strategy
from solver.strategies.pairwise import local_ratios
from solver.strategies.sampling import SamplingStrategy
from solver.strategy import Decision
from solver.textboard import parse_board

CLASSIC = ("single", "pairwise", "tank", "csp", "sampling")


def decide(name: str, text: str, mines: int, seed: int = 0) -> Decision:
    return get_strategy(name, "safe").decide(parse_board(text), mines, np.random.default_rng(seed))


def brute_force(board: Board, mines: int) -> tuple[set[Cell], set[Cell]]:
    """(squares safe in every layout, squares mined in every layout), by enumeration."""
    rows, cols = board.shape
    cells = [(r, c) for r in range(rows) for c in range(cols) if board[r, c] in (-1, -3)]
    flags = {(r, c) for r in range(rows) for c in range(cols) if board[r, c] == -2}
    layouts = []
    for chosen in combinations(cells, mines - len(flags)):
        mined = flags | set(chosen)
        if all(
            sum(nb in mined for nb in neighbours((r, c), rows, cols)) == board[r, c]
            for r in range(rows) for c in range(cols) if board[r, c] >= 0
        ):
            layouts.append(mined)
    assert layouts, "hand-made position has no layout"
    return (
        {c for c in cells if all(c not in m for m in layouts)},
        {c for c in cells if all(c in m for m in layouts)},
    )


def assert_sound(d: Decision, text: str, mines: int) -> None:
    safe, mined = brute_force(parse_board(text), mines)
    if not d.is_guess:
        assert set(d.open) <= safe
    assert set(d.mines) <= mined


# Edge "1-2-1" under three covered squares: the outer 1s each see two of them and the
# 2 sees all three, so the corners are mines and the middle is safe (two-number logic).
ONE_TWO_ONE = "...\n121\n000\n"
# Two 1s, each alone on a disjoint pair inside the 2's five squares: together they
# account for both of its mines, so (2, 2) is safe. Needs three numbers at once.
THREE_NUMBERS = "01....\n12....\n......\n......\n......\n"
# One mine hides in {(0,1), (1,1)} (the 1s and the 3s beside two flags); the right
# column touches only flags and covered squares. With 3 mines in all it is safe.
COUNT_ONLY = "1.3F.\n1.3F.\n"


def test_brute_force_agrees_with_the_hand_reasoning() -> None:
    assert brute_force(parse_board(ONE_TWO_ONE), 2) == ({(0, 1)}, {(0, 0), (0, 2)})
    assert (2, 2) in brute_force(parse_board(THREE_NUMBERS), 6)[0]
    assert brute_force(parse_board(COUNT_ONLY), 3)[0] == {(0, 4), (1, 4)}
    assert brute_force(parse_board(COUNT_ONLY), 4)[0] == set()


@pytest.mark.parametrize("name", CLASSIC)
def test_single_cell_rules(name: str) -> None:
    # (1,0)=1 and (1,1)=1 already touch the flag: every other covered square is safe.
    flagged = "F1.\n11.\n...\n"
    d = decide(name, flagged, 1)
    assert_sound(d, flagged, 1)
    assert not d.is_guess
    assert set(d.open) == {(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    # (0,0)=1 has one covered neighbour, a mine; so (0,3) is safe and then (0,4) a mine.
    counted = "1.1..\n11111\n00000\n"
    d = decide(name, counted, 2)
    assert_sound(d, counted, 2)
    assert (0, 1) in d.mines and (0, 3) in d.open and not d.is_guess


def test_single_does_not_compare_numbers() -> None:
    d = decide("single", ONE_TWO_ONE, 2)
    assert d.is_guess and d.mines == ()
    assert 0 < d.risk < 1


@pytest.mark.parametrize("name", ["pairwise", "tank", "csp"])
def test_two_number_pattern(name: str) -> None:
    d = decide(name, ONE_TWO_ONE, 2)
    assert d.open == ((0, 1),) and not d.is_guess
    assert set(d.mines) == {(0, 0), (0, 2)}


def test_pairwise_subset_rule() -> None:
    # (1,0)=1 sees {(0,0),(0,1)}; (1,1)=1 sees those plus (0,2),(1,2): both safe.
    text = "...\n11.\n"
    d = decide("pairwise", text, 1)
    assert set(d.open) == {(0, 2), (1, 2)} and not d.is_guess
    assert_sound(d, text, 1)


@pytest.mark.parametrize("name", ["tank", "csp"])
def test_enumeration_uses_three_numbers(name: str) -> None:
    assert decide("pairwise", THREE_NUMBERS, 6).is_guess
    d = decide(name, THREE_NUMBERS, 6)
    assert d.open == ((2, 2),) and not d.is_guess


@pytest.mark.parametrize("name", ["tank", "csp"])
def test_endgame_uses_the_mine_count(name: str) -> None:
    d = decide(name, COUNT_ONLY, 3)
    assert set(d.open) == {(0, 4), (1, 4)} and not d.is_guess
    assert decide(name, COUNT_ONLY, 4).is_guess


def test_pairwise_guess_breaks_ties_by_zero_chance_then_bottom_right() -> None:
    # No numbers: every square has ratio 1/11. Squares beside the flag cannot show a
    # zero; the three free corners tie on zero chance; the bottom-right-most is (2, 0).
    d = decide("pairwise", "....\n....\n...F\n", 2)
    assert d.open == ((2, 0),) and d.risk == pytest.approx(1 / 11)
    # On an empty board the rule picks the bottom-right corner (first click).
    assert decide("pairwise", ".........\n" * 9, 10).open == ((8, 8),)


def test_pairwise_ratio_is_the_highest_around_a_square() -> None:
    # The 1 spreads 1 mine over (0,1),(1,0),(1,1); the 2 spreads 2 over (0,1),(1,1),(1,2).
    board = parse_board("1.2\n...\n")
    known = board == -2
    ratio = local_ratios(board, 2, known)
    assert ratio[0, 1] == ratio[1, 1] == ratio[1, 2] == pytest.approx(2 / 3)
    assert ratio[1, 0] == pytest.approx(1 / 3)


def test_tank_guess_takes_the_lowest_index_on_ties() -> None:
    # Border (0,1),(1,0),(1,1) holds 2 of 3 mines (2/3 each); the 12 squares away from it
    # share 1 mine; the lowest-index one is (0, 2).
    d = decide("tank", "2...\n....\n....\n....\n", 3)
    assert d.open == ((0, 2),) and d.risk == pytest.approx(1 / 12)


def test_csp_guess_prefers_unconstrained_corners() -> None:
    d = decide("csp", "2...\n....\n....\n....\n", 3)
    assert d.open == ((0, 3),) and d.risk == pytest.approx(1 / 12)


def test_first_clicks() -> None:
    empty = ".........\n" * 9
    assert decide("tank", empty, 10).open == ((4, 4),)
    assert decide("csp", empty, 10).open == ((0, 0),)
    for name in ("single", "sampling"):
        seen = {decide(name, empty, 10, seed).open for seed in range(8)}
        assert len(seen) > 1  # random squares


def test_sampling_never_claims_what_it_only_sampled() -> None:
    # Every fitting layout leaves (0,1) empty and mines both corners, but only the
    # two-number rule proves it: sampling must still call it a guess and flag nothing.
    d = decide("sampling", ONE_TWO_ONE, 2)
    assert d.open == ((0, 1),) and d.is_guess and d.mines == ()
    assert d.risk == pytest.approx(1 / 32)


def test_sampling_repair_is_bounded() -> None:
    strategy = SamplingStrategy("safe", samples=5, max_steps=0)
    d = strategy.decide(parse_board(THREE_NUMBERS), 6, np.random.default_rng(3))
    assert d.is_guess  # no step allowed: (almost) no layout fits, it still answers


def play(name: str, size: str, seed: int) -> bool:
    """Play one simulated game, checking every decision against the real layout."""
    strategy = get_strategy(name, "safe")
    game = Game(BoardSize.parse(size), "safe", seed=seed)
    rng = np.random.default_rng(seed)
    while game.status == "playing":
        d = strategy.decide(game.board.copy(), game.size.mines, rng)
        assert d.open and (not d.is_guess or len(d.open) == 1)
        if game.mines is not None:
            assert all(game.mines[c] for c in d.mines), (name, seed, d)
            assert d.is_guess or not any(game.mines[c] for c in d.open), (name, seed, d)
        for cell in d.open:
            game.open(cell)
    return game.status == "won"


WIN_FLOOR = {"single": 0.45, "pairwise": 0.65, "tank": 0.65, "csp": 0.65, "sampling": 0.6}
"""Loose lower bounds for 40 beginner games (measured about 0.70 / 0.9 / 0.85 / 0.93 / 0.8)."""


@pytest.mark.parametrize("name", CLASSIC)
def test_wins_beginner_games_soundly(name: str) -> None:
    wins = sum(play(name, "beginner", seed) for seed in range(40))
    assert wins >= WIN_FLOOR[name] * 40


@pytest.mark.parametrize("name", CLASSIC)
def test_sound_on_intermediate_and_expert_positions(name: str) -> None:
    for seed in range(6):
        play(name, "intermediate", 100 + seed)
    for seed in range(3):
        play(name, "expert", 200 + seed)
