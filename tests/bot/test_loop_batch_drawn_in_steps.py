"""A batch the game draws over several redraws is waited for before the next one.

gamelibgames' canvas takes one click per tick of its own. After a batch, the first
redraw showed part of it; play read that, clicked the rest again, and a second
right-click took a flag off ("flagged square (0, 2) shows no flag", play stopped), and
won games took 500-1500 clicks (a square clicked up to 16 times). The frames are a real
capture (``tests/vision/gamelib/playing.png``) with the skin's own flag drawn on the
squares the batch flags: one of three, then all three.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from checked_image import LaterScreen, read_checked

from bot.loop import PlayConfig, Player, _Frame
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from solver.cells import COVERED, FLAG
from vision.skin import load_skin

pytestmark = pytest.mark.usefixtures("virtual_time")  # recorded screens: no wait

HERE = Path(__file__).parent.parent / "vision" / "gamelib"
PLAYING = "91e4b478e98930fc233e5f51cf7742f6fa47e02485ad3e1c38c3af9f7e9a7755"
FLAGGED = [(0, 14), (1, 15), (2, 15)]  # covered in the capture, by eye


def test_the_rest_of_a_batch_drawn_late_is_waited_for(tmp_path: Path) -> None:
    skin = load_skin(HERE / "skin")
    playing = read_checked(HERE / "playing.png", PLAYING)
    screen = LaterScreen([playing, playing], every=1000)
    player = Player(screen, RecordingMouse(size=screen.size()), SkinReader([skin]), "exact",
                    PlayConfig(games=1, mines=40, bug_dir=tmp_path / "bugs", seed=0))
    player.find_board()
    assert player.geometry is not None
    flag = skin.cells[FLAG][0]
    frames = []
    for n in (1, 3):  # one flag drawn, then all three
        frame = playing.copy()
        for cell in FLAGGED[:n]:
            r = player.geometry.cell_rect(cell)
            frame[r.top:r.top + r.height, r.left:r.left + r.width] = flag[:r.height, :r.width]
        frames.append(frame)
    before = player.read(*player.capture_board())
    assert all(before[c] == COVERED for c in FLAGGED)
    screen._frames, screen.index, screen.grabs, screen.every = frames, 0, 0, 3  # (its redraw)
    first = _Frame(player.capture_board()[0], time.perf_counter(), time.thread_time())
    assert [player.read(*player.capture_board_from(first.image))[c] for c in FLAGGED] == \
        [FLAG, COVERED, COVERED]
    _, last = player._wait_batch(first, before, [(c, "right") for c in FLAGGED])
    assert last is not None
    board = player.read(*player.capture_board_from(last.image))
    assert [board[c] for c in FLAGGED] == [FLAG] * 3
