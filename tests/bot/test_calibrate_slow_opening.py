"""Live calibration of a game that draws each move's squares one by one, slowly and in
no order, a frame catching the next square half drawn (a loaded machine: ace-minesweeper
draws square by square, Chromium paints in tiles). Calibrations on a busy machine took
game 1 for lost and then found no way to start a new game: a frame caught half-way
through drawing an opened region showed squares changed far from the click, as a loss
shows its mines, and was taken for a loss shown before a window came over the board.
Every game the calibrator calls won or lost must have ended that way in the game."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

SQUARE_SECONDS = 0.02
"""How long the slow game takes to draw a square (each frame is drawn in 20 ms, as a
busy X server might)..."""
MOVE_SECONDS = 0.6
"""... and the squares a move changed, at most (ace-minesweeper takes 30 ms for a whole
32x32 board on an idle machine)."""
CLICKED_AT = 2
"""Where in the order of drawing the square clicked comes (when the move changed it)."""


class SlowDrawing(SynthGame):
    """Each click's changed squares are drawn in a random order (the square clicked
    :data:`CLICKED_AT`), one every :data:`SQUARE_SECONDS`, all within
    :data:`MOVE_SECONDS` (a frame shows the next one's top half), the face last;
    ``outcomes`` keeps how each game ended in the game itself, when the face starts
    the next."""

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.pending: list[tuple[int, int]] = []
        self.since, self.step = 0.0, MOVE_SECONDS
        self.outcomes: list[str] = []
        super().__post_init__()

    def new_game(self) -> None:
        if self.games:
            self.outcomes.append(self.game.status)
        super().new_game()
        self.shown = self.game.board.copy()
        self.pending = []

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self._settle(everything=True)  # (a click waits for the drawing before it)
        super().click(p, button)
        changed = np.argwhere(self.game.board != self.shown)
        order = [(int(r), int(c)) for r, c in self.rng.permutation(changed)]
        cell = self.cell_at(p)
        if cell in order:  # the square clicked third
            order.remove(cell)
            order.insert(CLICKED_AT, cell)
        self.pending = order
        self.since = time.monotonic()
        self.step = min(SQUARE_SECONDS, MOVE_SECONDS / max(1, len(order)))

    def _settle(self, everything: bool = False) -> None:
        due = len(self.pending) if everything else \
            int((time.monotonic() - self.since) / self.step)
        for cell in self.pending[:due]:
            self.shown[cell] = self.game.board[cell]
        self.pending = self.pending[due:]
        self.since += due * self.step

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self._settle()
        self.ticks += 1
        status = "playing" if self.pending else self.status()
        img = render(self.shown, self.look, status, self.ticks // 7)
        if self.pending:  # the next square, half drawn
            cell = self.pending[0]
            drawn = self.shown.copy()
            drawn[cell] = self.game.board[cell]
            left, top, right, bottom = self.look.cell_box(*cell)
            half = slice(top, (top + bottom) // 2), slice(left, right)
            img[half] = render(drawn, self.look, status, self.ticks // 7)[half]
        return cut(img, region)


@pytest.mark.parametrize("seed", [3, 4, 7])
def test_a_move_drawn_slowly_is_not_taken_for_an_end(seed: int) -> None:
    game = SlowDrawing(BoardSize(16, 16, 30), Look(), rule="none", seed=seed)
    opts = LiveOptions(games=2, max_games=5, time_limit=90.0, seed=seed)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.games[:len(game.outcomes)] == game.outcomes


@pytest.mark.parametrize("seed", [0])
def test_a_move_drawn_for_seconds_is_waited_for(seed: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """60 ms a square, a move within 8 s: a big opening takes 6 s to draw, past the
    redraw timeout and 2 s more. Taken as it stood then, half drawn, game 2 read as a
    loss of 124 mines while it went on (and later games were called won or lost
    wrongly); it must be waited for while it still changes squares it had not."""
    monkeypatch.setitem(globals(), "SQUARE_SECONDS", 0.06)
    monkeypatch.setitem(globals(), "MOVE_SECONDS", 8.0)
    game = SlowDrawing(BoardSize(16, 16, 30), Look(), rule="none", seed=seed)
    opts = LiveOptions(games=2, max_games=5, time_limit=90.0, seed=seed)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.games[:len(game.outcomes)] == game.outcomes
