"""``calibrate --from`` on gnome-mines captures with no lost game among them: three
games in play and a won 24x10 game behind its scores dialog (``screen_won_dialog``).

The learner finds the won board as its left 10x9 part (the dialog cuts the rest). That
part shows no covered square, and it fits a lost game too: its opened 0s taken for the
covered look, its flags for the shown mines. But no square marks a hit mine there (two
squares the dialog cuts, each a look of its own, tie for it), while it also fits a won
game. It was learned as a loss: 82 squares misread over the set (0s read covered,
flags read as mines). A frame whose loss readings disagree on the hit mine and that
fits a win is now a win.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import MINE, UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells

GNOME = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"
NAMES = ["screen_hover", "screen_openbox", "screen_won_dialog"]


def test_a_won_board_behind_a_dialog_is_no_loss() -> None:
    paths = [GNOME / f"{n}.png" for n in NAMES]
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in paths]
    learned = learn_from_images(images)
    assert MINE not in learned.cells
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        assert g is not None, path.name
        expected = parse_board(path.with_suffix(".board").read_text())
        if path.stem == "screen_won_dialog":  # found from its first square: its left part
            assert (g.rows, g.cols) == (10, 9) and round(g.x0) == 175
            expected = expected[:, :9]
        assert expected.shape == (g.rows, g.cols), path.name
        read = read_cells(image, g, learned.cells)
        known = read != UNKNOWN
        wrong = np.argwhere(known & (read != expected))
        assert wrong.tolist() == [], path.name
        assert known.sum() > 0, path.name
