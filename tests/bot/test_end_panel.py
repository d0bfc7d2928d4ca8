"""Google's end of a game (issue #5): on ``checkered.html?edges=1&anim=1`` a loss shows
the mines one by one, then a panel ("Game over", "Try again") over the middle of the
board, casting a faint shadow on the squares around it; a win a panel ("Play again").

Captures: ``tests/vision/web_checkered/anim_*.png``, recorded by
``python benchmarks/webgames/record_checkered.py DIR --looks anim`` (Chromium, 18x14/40
at 30 px, board at (24, 140)); ``anim_lost`` once the panel shows. Where the panel lies
follows from the page's CSS (left 20 %, top 22 %, 60 % x 56 % of the board), not from
the code under test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.calibrate_live import window_over
from bot.end_panel import panel_box, panel_controls, panel_over
from bot.screen import load_image
from vision.calibrate import CellBank, Learner
from vision.geometry import PixelRect
from vision.lattice import cut, find_lattice

HERE = Path(__file__).resolve().parent.parent / "vision" / "web_checkered"
BOARD = PixelRect(24, 140, 540, 420)
PANEL = PixelRect(24 + 108, 140 + 92, 324, 235)  # (CSS: 20 %, 22 %, 60 %, 56 %)
ROWS, COLS = range(92 // 30, 327 // 30 + 1), range(108 // 30, 431 // 30 + 1)


def _frames(*names: str) -> tuple[Learner, list[np.ndarray]]:
    images = [load_image(HERE / f"anim_{n}.png") for n in names]
    g = find_lattice(images[0])
    learner = Learner((30, 30), CellBank(strict=True))
    return learner, [learner.ids(img, g) for img in images]


def test_a_window_over_the_board_covers_the_panel() -> None:
    """Fails before: the panel's flat inside repeats one look, so it was no window
    and a loss reading named it a mine."""
    learner, (before, after) = _frames("playing", "lost")
    panel = np.zeros(after.shape, bool)
    panel[ROWS.start:ROWS.stop, COLS.start:COLS.stop] = True
    assert window_over(after, learner.known(), before)[panel].all()
    over = panel_over(after, learner.known(), before)
    grown = np.zeros(over.shape, bool)
    # (one square more all round; in a first loss the mines shown next to it are
    # looks not seen before too, so up to one more)
    grown[ROWS.start - 2:ROWS.stop + 2, COLS.start - 2:COLS.stop + 2] = True
    assert over[panel].all() and not over[~grown].any()


def test_the_try_again_button_is_found_on_the_panel() -> None:
    before, after = load_image(HERE / "anim_playing.png"), load_image(HERE / "anim_lost.png")
    box = panel_box(before, after, BOARD, 30.0)
    assert box is not None
    # (with the shadow, and the mines shown next to it)
    assert box.left <= PANEL.left + 3 and box.top <= PANEL.top + 3
    assert box.left + box.width >= PANEL.left + PANEL.width - 3
    assert box.top + box.height >= PANEL.top + PANEL.height - 3
    first = panel_controls(before, after, BOARD, 30.0)[0]
    x, y = first.left + first.width // 2, first.top + first.height // 2
    assert PANEL.left < x < PANEL.left + PANEL.width
    assert PANEL.top + PANEL.height // 2 < y < PANEL.top + PANEL.height  # (under the text)
    assert after[y, first.left + 5].tolist() == [255, 255, 255]  # (the white button)


def test_the_covered_template_has_no_shadow() -> None:
    """Fails before: each shadowed square round the panel is an image of its own, so
    the mean of the covered look's images was darker at the bottom, and play found the
    board 7 px off."""
    learner, (fresh, _playing, _lost) = _frames("fresh", "playing", "lost")
    image = load_image(HERE / "anim_fresh.png")
    g = find_lattice(image)
    for cell in ((0, 0), (0, 1)):
        plain = cut(image, g, cell)
        assert (learner.bank.mean_image(int(fresh[cell])) == plain).all()


def test_a_hit_mine_shown_alone_first_waits_for_the_board_to_settle() -> None:
    """On the real lost capture every mine is shown; a frame with only the hit square
    changed (how Google's loss starts) must not be taken as one square opened: the
    clicked square shows a look no other square shows and has no name."""
    from bot.calibrate_live import LiveCalibrator
    from solver.cells import COVERED, MINE

    learner, (before, lost) = _frames("playing", "lost")
    calibrator = object.__new__(LiveCalibrator)
    calibrator.learner = learner
    hit = (13, 15)  # the page's last mine in row order (record_checkered: max(mines))
    first = before.copy()
    first[hit] = lost[hit]
    learner.name(int(before[hit]), COVERED)
    assert calibrator._lone_new_look(first, [hit])
    assert not calibrator._lone_new_look(before, [(2, 7)])  # an opened square's look
    learner.name(int(lost[hit]), MINE)
    assert calibrator._lone_new_look(first, [hit])
