"""``calibrate --from`` with ``--grid``: screenshots of a board of plain squares, no edge
between them (a pygame game's way), lost games of a made-up look; the boards are found
by the size given (:func:`vision.flat_board.plain_board`), mid-game as much as fresh."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calib_synth import DIGIT_COLOURS, lost_board  # noqa: E402

from bot.cli import main  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from solver.cells import COVERED, EXPLODED, MINE  # noqa: E402
from vision.calibrate import learn_from_images  # noqa: E402
from vision.flat_board import plain_board  # noqa: E402
from vision.lattice import NoBoardError  # noqa: E402
from vision.skin import load_skin  # noqa: E402

PITCH, LEFT, TOP = 24, 100, 80


def plain_screen(board: np.ndarray) -> np.ndarray:
    """``board`` drawn as plain squares: grey covered, light open, a red hit mine."""
    img = np.full((560, 640, 3), 200, np.uint8)
    for (r, c), code in np.ndenumerate(board):
        x, y = LEFT + PITCH * c, TOP + PITCH * r
        fill = (120, 120, 120) if code == COVERED else (40, 40, 230) if code == EXPLODED \
            else (230, 230, 230)
        img[y:y + PITCH, x:x + PITCH] = fill
        if code in (MINE, EXPLODED):
            cv2.circle(img, (x + 12, y + 12), 7, (0, 0, 0), -1)
        elif code > 0:
            cv2.putText(img, str(int(code)), (x + 6, y + 19), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        DIGIT_COLOURS[int(code)], 2)
    return img


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    tmp = tmp_path_factory.mktemp("plain")
    paths = []
    for seed in (31, 32, 33):
        path = tmp / f"lost{seed}.png"
        cv2.imwrite(str(path), plain_screen(lost_board(seed)))
        paths.append(str(path))
    return paths


def test_a_lost_plain_board_is_found_by_its_size() -> None:
    g = plain_board(plain_screen(lost_board(31)), 16, 16)
    assert g is not None and (g.x0, g.y0, g.pitch_x, g.pitch_y) == (LEFT, TOP, PITCH, PITCH)
    assert plain_board(plain_screen(lost_board(31)), 16, 8) is None  # (not square)


def test_with_the_size_every_board_is_found_whole(shots: list[str]) -> None:
    images = [cv2.imread(p) for p in shots]
    learned = learn_from_images(images, grid=(16, 16))
    assert [(g.x0, g.y0, g.pitch_x, g.rows, g.cols) for g in learned.boards if g] == \
        [(LEFT, TOP, PITCH, 16, 16)] * 3
    assert {COVERED, MINE, EXPLODED, 0, 1, 2} <= set(learned.cells)


def test_a_fresh_plain_board_has_no_lattice() -> None:
    with pytest.raises(NoBoardError):
        learn_from_images([plain_screen(np.full((16, 16), COVERED, np.int8))])


def test_the_skin_learned_offline_reads_a_new_loss(shots: list[str], tmp_path: Path) -> None:
    out = tmp_path / "plain"
    assert main(["calibrate", "--name", "plain", "--from", *shots, "--grid", "16x16",
                 "--out", str(out)]) == 0
    board = lost_board(34)
    reader = SkinReader([load_skin(out)])
    image = plain_screen(board)
    g = reader.locate(image)
    assert (g.x0, g.y0, g.rows, g.cols) == (LEFT, TOP, 16, 16)
    assert np.array_equal(reader.read(image, g), board)
