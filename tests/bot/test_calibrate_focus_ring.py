"""A game that draws the last square clicked its own way (Tk's focus ring) is read as
it plays, and its face that changes at presses still tells its win.

Real captures (Xvfb, openbox, 700x790 window) of DangerUXB 1.0 (PyPI, Tk/ttk buttons,
16x16/40): the fresh board; the board after a first click on (10, 12), a 2 drawn with
a dotted focus ring; the board after a click on (0, 12) opened a region, the 0 clicked
drawn with the ring and the 2 without it now; a won board (every mine flagged, the
face grinning); a lost board, every mine's image drawn; and a game with a flag on a
mine (12, 14) before and after its loss at (8, 6), the flag kept. Before, the lone look of
the 0 clicked made the opened 0s read as a panel over the board, and the ring leaving
the 2 was a change far from the click: the move was judged a loss ("the game has 98
mines", the 0s named mines), and a skin with no number learned was written.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import StillScreen, read_checked

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions
from bot.mouse import RecordingMouse
from solver.cells import COVERED, FLAG, UNKNOWN
from solver.textboard import parse_board
from vision.geometry import PixelRect
from vision.moved_squares import board_again, squares_moved

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up waits: none

HERE = Path(__file__).parent / "dux_focus"
SHA256 = {"fresh.png": "8f6f9bf0d3ff0cfd3a7b5201da68b975aa5044b9a729249a9ef902a2f81dbe42",
          "number.png": "0960d5d99cceb0faa1c751d7bb2cd6baf23044bc2e4ab1af55b2b000d9c61491",
          "opened.png": "5a44b21fa94426442b158c97b0c9da3edd9bad1480919b851763096df809f6ee",
          "won.png": "16a1b05f690077a4b00e46f78edcbdcbcf40238c7641c9f1399c5e0ff16a50b8",
          "lost.png": "4ffd4910f94be0dce21ca0ffaff8067bbaba909b233d0207d025107c2710d633",
          "flagged_playing.png": "6092a4b42cebb409e9fde9f1b5c6a9b786fcabc86c9369bc9a724a4a5837a24b",
          "flagged_lost.png": "ffedbdb90761e468c6eb3006e0ee4de441565a9e704e4d6da9595f4ac00de92c",
          "ring_left_before.png":
              "f148fcb41e802c1d058b11d71c11a798027ff875384f577664e6df30ebc0d298",
          "ring_left_after.png": "4784d1b69c98d855e541d56dc1dbc98839c49c607f7b9a2b6d7103fad4859ad1"}
ROW_2 = [2, 2, 1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 3, 3, 2]  # lost.png's row 2, read by eye
FACE = PixelRect(2, 20, 60, 62)  # DangerUXB's Start button, its face


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / name, SHA256[name])


def calibrator(image: np.ndarray, log: list[str]) -> LiveCalibrator:
    screen = StillScreen(image)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()),
                         LiveOptions(log=log.append))
    start = cal.find_board()
    assert start.shape == (16, 16)
    cal.L.name(int(start[0, 0]), COVERED, weight=1000)  # as learn_marks names it
    cal.game_start, cal.opened = start, np.zeros(start.shape, bool)
    return cal


def test_a_region_opened_with_the_ring_on_its_zero_is_no_loss() -> None:
    fresh, number, opened = (capture(n) for n in ("fresh.png", "number.png", "opened.png"))
    log: list[str] = []
    cal = calibrator(fresh, log)
    first = cal.ids(number)
    assert not cal.judge(cal.ids(fresh), first, fresh, number, [(10, 12)])
    cal.opened[10, 12] = True  # as the first move left it
    cal.focus_cells = [(10, 12)]
    after = cal.ids(opened)
    assert after[10, 12] != first[10, 12]  # the ring left the 2
    assert int((after == after[0, 12]).sum()) == 1  # the 0 clicked: a look of its own
    assert not cal.judge(first, after, number, opened, [(0, 12)])
    assert cal.results == [] and cal.mines is None, log


def test_choose_solves_past_an_opened_square_not_read() -> None:
    """The square clicked last, opened, reads as no look named (its ring): the solver
    takes it as an opened square with no number, and finds (2, 2) safe. Before: a
    random pick, at every move of DangerUXB, as if some look were not learned."""
    log: list[str] = []
    cal = calibrator(capture("fresh.png"), log)
    cal.mines = 40
    board = np.full((16, 16), COVERED, np.int8)
    board[:2, :2] = parse_board("01\n12")
    board[0, 0] = UNKNOWN
    cal.opened[:2, :2] = True
    assert cal.choose(board)[1] == 1.0  # (a random pick, while (0, 0) was not clicked last)
    cal.focus_cells = [(0, 0)]
    cells, risk = cal.choose(board)
    assert (cells, risk) == ([(2, 2)], 0.0)


def test_the_face_tells_the_win_though_it_changed_at_presses() -> None:
    """The face showed "Click" at presses left on opened squares and "Start" again
    after others: it changed at two moves (:attr:`LiveCalibrator.volatile`). It is the
    control that starts a new game, so no clock: its grin at the last flag tells that
    the game wanted its mines flagged."""
    fresh, won = capture("fresh.png"), capture("won.png")
    log: list[str] = []
    cal = calibrator(fresh, log)
    cal.screen.image = won  # type: ignore[attr-defined]  # (what the clock watch sees)
    face = (slice(FACE.top, FACE.top + FACE.height), slice(FACE.left, FACE.left + FACE.width))
    cal._volatile[face] = True
    cal.restart_rects.append(FACE)
    before_last = won.copy()
    before_last[face] = fresh[face]  # the smile before the last flag
    assert cal._flags_won((fresh, fresh), (before_last, won), alone=False)
    cal.restart_rects.clear()  # a face not known for the control: taken for a clock
    assert not cal._flags_won((fresh, fresh), (before_last, won), alone=False)


def test_a_loss_with_mines_over_the_edges_is_no_move() -> None:
    """At a loss DangerUXB draws every mine; the lattice found again takes other row
    edges (row 3's top 6 px up, the next ones 4-6 px), as if the squares moved. The
    squares the game opened still read as the numbers they showed: no move. Before,
    calibrate stopped there ("the board's squares moved"), one run in three, and wrote
    nothing of its 17 games."""
    fresh, lost = capture("fresh.png"), capture("lost.png")
    log: list[str] = []
    cal = calibrator(fresh, log)
    found = board_again(lost, cal.g)
    assert found is not None and squares_moved(found, cal.g)  # (the edges taken)
    cal.opened[2] = True
    with pytest.raises(CalibrationError, match="squares moved"):
        cal._check_squares(lost)  # (row 2's looks not named: cut in halves, maybe)
    ids = cal.ids(lost)
    for c, n in enumerate(ROW_2):
        cal.L.name(int(ids[2, c]), n, weight=100)
    cal._check_squares(lost)


def test_a_loss_counts_the_flag_kept_on_a_mine() -> None:
    """At a loss DangerUXB presses every square but a flagged mine: 39 mines drawn
    and the flag ("1 / 40" flags). Before, the count was the mines drawn: "the game
    has 39 mines", doubted at every later end ("the whole board shows another
    count"), and games lost on squares the count made look safe."""
    fresh, playing, lost = (capture(n) for n in ("fresh.png", "flagged_playing.png",
                                                  "flagged_lost.png"))
    log: list[str] = []
    cal = calibrator(fresh, log)
    before, after = cal.ids(playing), cal.ids(lost)
    cal.L.name(int(before[12, 14]), FLAG, weight=100)  # (as calibrate's marks name it)
    cal.opened = cal.knowledge(before) != COVERED
    assert cal.judge(before, after, playing, lost, [(8, 6)])
    assert cal.results == ["lost"] and cal.mines == 40, log


def test_a_region_opened_as_the_ring_leaves_a_number_is_no_loss() -> None:
    """Two frames of a live calibration (700x780 window, cropped to 720x800): five
    numbers opened one by one, the last clicked, (5, 1), ringed, and a flag at (5, 3);
    then a click on (10, 4) opened a region of 23 0s, the ring moved to the 0 clicked
    and left the 1. The 1 changed far from the click, so the frame was taken for a loss
    shown before a window came (the check of a frame before a dialog did not keep the
    last square clicked as it was): "the game has 23 mines", the 0s named mines, and the
    calibration ran out of time with exit 2 (one run in six)."""
    before, after = capture("ring_left_before.png"), capture("ring_left_after.png")
    log: list[str] = []
    cal = calibrator(before, log)
    ids_before, ids_after = cal.ids(before), cal.ids(after)
    cal.L.name(int(ids_before[5, 3]), FLAG, weight=100)  # (as calibrate's marks name it)
    cal.opened[5, 1] = True  # the move before opened the 1 ...
    cal.focus_cells = [(5, 1)]  # ... and left it ringed
    assert ids_after[5, 1] != ids_before[5, 1]  # (the ring left the 1)
    assert not cal.judge(ids_before, ids_after, before, after, [(10, 4)])
    assert cal.results == [] and cal.mines is None, log
