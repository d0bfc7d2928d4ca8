"""Play learns the looks of numbers a skin lacks in a game of no fixed mine count (each
square a mine with one chance, like react-minesweeper from npm, whose win shows
nothing): a name is tried against the numbers alone (``bot.learn.Share``), and a loss
(which shows every mine) or a win (only mines left hidden) names a look that waited.
The simulated game is painted with xdemineur's templates and read by the real template
reader, as in ``test_learn_unseen``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from skinsim import ChanceSkinReader, ChanceSkinScreen, skin_without
from test_learn_unseen import Notes, check_names

from bot.learn import NumberLearner, Share, fitting, group_looks, safe_under_all
from bot.loop import PlayConfig, Player
from solver.cells import COVERED
from solver.game import BoardSize
from solver.textboard import parse_board
from vision.skin import load_skin

CHANCE = 0.2


def play(skin_dir: Path, games: int, seed: int, tmp_path: Path
         ) -> tuple[list[str], list[str], Player, Notes]:
    """Outcomes, the game's own truth, the player and its notes."""
    screen = ChanceSkinScreen(BoardSize(16, 16, 1), CHANCE, seed=seed)
    notes = Notes(screen)
    config = PlayConfig(games=games, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    reader = ChanceSkinReader(load_skin(skin_dir), screen.pitch, CHANCE)
    player = Player(screen, notes.mouse, reader, "exact", config, notes)
    results = player.play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    for r in results:  # never lost on a square rated safe, never stopped
        assert r.outcome != "aborted" and (r.death_p is None or r.death_p > 0.0), r
    return [r.outcome for r in results], truth[:len(results)], player, notes


def test_numbers_are_learned_with_no_fixed_count(tmp_path: Path) -> None:
    learned: list[int] = []
    for seed in range(4):
        skin_dir = tmp_path / f"skin{seed}"
        skin_without(skin_dir, (3, 4, 5, 6, 7, 8))
        outcomes, truth, player, notes = play(skin_dir, 3, 200 + seed, tmp_path)
        assert player.mines is None and outcomes == truth
        learned += check_names(notes, skin_dir)  # each name is the square's true number
    assert len(learned) >= 8 and {3, 4, 5} <= set(learned)


def test_a_learned_look_reads_in_a_later_session(tmp_path: Path) -> None:
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (3,))
    play(skin_dir, 2, 300, tmp_path)
    assert 3 in load_skin(skin_dir).cells
    _, _, player, notes = play(skin_dir, 2, 301, tmp_path)
    assert notes.notes == [] and player.learner is not None and player.learner.learned == []


def test_names_are_tried_against_the_numbers_alone() -> None:
    board = parse_board("....\n.U..\n....")  # (1, 1): 8 squares around, 3 far
    look = group_looks({(1, 1): np.zeros((4, 4, 3), np.uint8)})
    # a count of 7 leaves 6 or 7 (8 squares around); with no count 8 fits as well
    assert fitting(board, look, [(6, 7, 8)], 7) == [(6,), (7,)]
    assert fitting(board, look, [(6, 7, 8)], Share(0.2)) == [(6,), (7,), (8,)]
    b7 = np.where(board == -7, 7, board).astype(np.int8)
    # with no count no far square is ever safe: the numbers alone never prove one
    assert safe_under_all([b7], 7) is not None and safe_under_all([b7], Share(0.2)) is None
    # an 8 with nothing far: the numbers prove every hidden square a mine
    only = safe_under_all([parse_board("...\n.8.\n...")], Share(0.2))
    assert only is not None and only.open == () and len(only.mines) == 8


def test_the_mixed_guess_weighs_each_name_by_the_chance_of_its_numbers() -> None:
    # a 1 or a 2 at (0, 0) with (0, 1), (1, 0), (1, 1) around it: under the share p the
    # 1 is 3 p (1-p)^2 likely, the 2 is 3 p^2 (1-p); a square around it is a mine with
    # chance 1/3 under the 1 and 2/3 under the 2
    p = CHANCE
    one, two = parse_board("1.\n.."), parse_board("2.\n..")
    learner = NumberLearner(reader=None)
    guess = learner.decide([one, two], Share(p))
    w1, w2 = 3 * p * (1 - p) ** 2, 3 * p ** 2 * (1 - p)
    assert guess.is_guess and abs(guess.risk - (w1 / 3 + w2 * 2 / 3) / (w1 + w2)) < 1e-9
    assert one[guess.open[0]] == COVERED
