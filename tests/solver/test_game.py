"""The simulator: first-click rules, flood fill and chording as in the real games."""

from __future__ import annotations

import numpy as np
import pytest

from solver.cells import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG, neighbours
from solver.game import BoardSize, Game
from solver.textboard import format_board, parse_board


def layout(text: str) -> np.ndarray:
    """Mines from a picture: ``*`` mine, anything else free."""
    return np.array([[ch == "*" for ch in line] for line in text.split()], dtype=bool)


def game_with(text: str) -> Game:
    mines = layout(text)
    game = Game(BoardSize(mines.shape[0], mines.shape[1], int(mines.sum())), seed=0)
    game.set_mines(mines)
    return game


@pytest.mark.parametrize("seed", range(40))
def test_safe_rule_never_loses_the_first_click(seed: int) -> None:
    rng = np.random.default_rng(seed)
    game = Game(BoardSize(9, 9, 70), rule="safe", seed=seed)
    first = (int(rng.integers(9)), int(rng.integers(9)))
    assert game.open(first) in ("playing", "won")
    assert game.mines is not None and not game.mines[first] and game.mines.sum() == 70


@pytest.mark.parametrize("seed", range(40))
def test_opening_rule_clears_the_first_square_and_neighbours(seed: int) -> None:
    rng = np.random.default_rng(seed)
    game = Game(BoardSize(16, 30, 99), rule="opening", seed=seed)
    first = (int(rng.integers(16)), int(rng.integers(30)))
    game.open(first)
    assert game.board[first] == 0
    assert game.mines is not None
    assert not any(game.mines[nb] for nb in [first, *neighbours(first, 16, 30)])
    assert game.mines.sum() == 99


def test_opening_rule_falls_back_to_safe_when_too_dense() -> None:
    for seed in range(20):
        game = Game(BoardSize(3, 3, 6), rule="opening", seed=seed)
        game.open((1, 1))
        assert game.mines is not None and not game.mines[1, 1] and game.mines.sum() == 6


def test_winxp_moves_a_mine_to_the_top_left_free_square() -> None:
    moved = 0
    for seed in range(300):
        size = BoardSize(9, 9, 30)
        first = (4, 4)
        # what the layout would be without the rule, from the same random stream
        raw = np.zeros(81, dtype=bool)
        raw[np.random.default_rng(seed).choice(81, size=30, replace=False)] = True
        raw = raw.reshape(9, 9)
        game = Game(size, rule="winxp", seed=seed)
        game.open(first)
        assert game.mines is not None and not game.mines[first] and game.mines.sum() == 30
        if raw[first]:
            moved += 1
            spot = next((r, c) for r in range(9) for c in range(9)
                        if not raw[r, c] and (r, c) != first)
            expected = raw.copy()
            expected[first] = False
            expected[spot] = True
            assert (game.mines == expected).all()
        else:
            assert (game.mines == raw).all()
    assert moved > 50


def test_none_rule_can_lose_on_the_first_click() -> None:
    results = {Game(BoardSize(4, 4, 12), rule="none", seed=s).open((0, 0)) for s in range(30)}
    assert "lost" in results and results - {"lost"}


def test_flood_fill_opens_the_zero_region_and_its_border() -> None:
    game = game_with("""
        .....
        .....
        ...*.
        .....
    """)
    assert game.open((0, 0)) == "playing"
    assert format_board(game.board) == "00000\n00111\n001..\n001..\n"


def test_flood_fill_opens_question_marks_but_not_flags() -> None:
    game = game_with("""
        ....
        ...*
    """)
    game.toggle_flag((0, 1))
    game.board[1, 0] = QUESTION
    game.open((0, 0))
    assert game.board[0, 1] == FLAG and game.board[1, 0] == 0 and game.board[1, 1] == 0


def test_chord_opens_neighbours_when_flags_match() -> None:
    game = game_with("""
        *..
        ...
        ...
    """)
    game.open((1, 1))
    assert game.chord((1, 1)) == "playing" and (game.board == COVERED).sum() == 8
    game.toggle_flag((0, 0))
    assert game.chord((1, 1)) == "won"
    assert format_board(game.board) == "F10\n110\n000\n"


def test_chord_with_a_wrong_flag_loses() -> None:
    game = game_with("""
        *..
        ...
        ...
    """)
    game.open((1, 1))
    game.toggle_flag((0, 1))
    assert game.chord((1, 1)) == "lost"
    assert game.board[0, 1] == WRONG_FLAG and game.board[0, 0] == EXPLODED


def test_chord_ignores_covered_squares_and_zeros() -> None:
    game = game_with("""
        *...
        ....
    """)
    before = game.board.copy()
    assert game.chord((0, 3)) == "playing" and (game.board == before).all()


def test_loss_shows_every_mine() -> None:
    game = game_with("""
        *.*
        ...
    """)
    game.open((1, 1))
    assert game.open((0, 0)) == "lost"
    assert game.board[0, 0] == EXPLODED and game.board[0, 2] == MINE
    assert game.open((1, 0)) == "lost"  # no moves after the end


def test_counter_and_flags() -> None:
    game = game_with("""
        *.
        ..
    """)
    game.toggle_flag((0, 0))
    game.toggle_flag((1, 1))
    assert game.mines_left == -1
    game.toggle_flag((1, 1))
    assert game.mines_left == 0 and game.board[1, 1] == COVERED


def test_same_seed_same_game() -> None:
    a = Game(BoardSize.parse("expert"), seed=5)
    b = Game(BoardSize.parse("expert"), seed=5)
    a.open((3, 3))
    b.open((3, 3))
    assert (a.mines == b.mines).all() and (a.board == b.board).all()


@pytest.mark.parametrize("bad", ["huge", "30x16", "3x3/9", "0x5/1"])
def test_bad_sizes_raise(bad: str) -> None:
    with pytest.raises(ValueError):
        BoardSize.parse(bad)


def test_text_board_of_a_fresh_game() -> None:
    game = Game(BoardSize.parse("4x2/1"))
    assert (game.board == parse_board("....\n....\n")).all()
