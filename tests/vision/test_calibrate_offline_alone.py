"""``calibrate --from`` given one lost screenshot and nothing else (a user's single
capture of a game): a look no count explains is a question mark when a game in play
shows it and a wrong flag when only ended games do. With one lost frame there is no
game in play to tell: a question mark left on the board was named a wrong flag (and
read so). Now such a look stays unnamed, read unknown: never a wrong name."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# each shows a question mark, or a look read as one, beside its lost board
ALONE = ["winmine/intermediate_lost", "xdemineur/custom20x12_lost",
         "gnome-mines/small_700x620_lost", "gnome-mines/medium_1000x900_lost"]


def learned_alone(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The fixture ``name`` read with what it alone teaches; (expected, read)."""
    path = FIXTURES / f"{name}.png"
    image = np.asarray(cv2.imread(str(path)), np.uint8)
    learned = learn_from_images([image])
    g = learned.boards[0]
    assert g is not None
    expected = parse_board(path.with_suffix(".board").read_text())
    return expected, read_cells(image, g, learned.cells)


@pytest.mark.parametrize("name", ALONE)
def test_one_lost_capture_alone_names_nothing_wrong(name: str) -> None:
    expected, read = learned_alone(name)
    known = read != UNKNOWN
    assert np.argwhere(known & (read != expected)).tolist() == []
    assert known.mean() > 0.9  # the numbers, the covered look and the mines are named


# a game in play fitted a loss with its covered squares as the shown mines (76 and 60
# squares misread), and a dense loss with its covered and mine looks swapped (74): a
# plain square (no glyph: vision.ink.inkless) is never a mine
@pytest.mark.parametrize("name", ["winmine/dense_playing", "gnome-mines/small_playing",
                                  "winmine/dense_lost"])
def test_a_plain_look_is_never_read_as_a_mine(name: str) -> None:
    expected, read = learned_alone(name)
    assert np.argwhere((read != UNKNOWN) & (read != expected)).tolist() == []
