"""Play on a game whose squares are a page's buttons, like nicegui-minesweeper (PyPI):
a click ripples over the button at once, the game takes it when its server answers
(60 ms after the ripple, measured live), and the squares it changes fade to their
new look over a quarter of a second. Before, play took the ripple for the move's
redraw: the board read as before, three such turns stopped play with "the clicks
have no effect on the board"; and a board read mid-fade left squares unknown, which
a skin lacking numbers takes for numbers to learn.

The game is :mod:`skinsim`'s, painted with xdemineur's templates and read by the
real template reader; the skin lacks 3-8, as calibration on nicegui-minesweeper
left it (its 10x10 board with 10 mines hardly shows them)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from skinsim import SkinScreen, SkinSimReader, skin_without
from test_learn_unseen import Notes, check_names

from bot.loop import PlayConfig, Player
from bot.mouse import Button
from bot.screen import Image, ScreenPoint
from solver.game import BoardSize
from vision.skin import load_skin

RIPPLE = 0.2  # seconds the ripple lasts
ANSWER = 0.26  # seconds from the click to the game's move
FADE = 0.25  # seconds a changed square takes to reach its new look
PAINT = 0.016  # the page's paints: a look in passing changes this often


class PageScreen(SkinScreen):
    """:class:`skinsim.SkinScreen` with a page's buttons (see the module's text)."""

    def __init__(self, size: BoardSize, **kw: object) -> None:
        super().__init__(size, **kw)
        self.pending: list[tuple[float, ScreenPoint, Button]] = []
        self.ripples: dict[tuple[int, int], float] = {}
        self.fading: dict[tuple[int, int], tuple[Image, float]] = {}

    def _cell(self, p: ScreenPoint) -> tuple[int, int] | None:
        r, c = (int(p.y) - self.top) // self.pitch, (int(p.x) - self.left) // self.pitch
        inside = 0 <= r < self.board_size.rows and 0 <= c < self.board_size.cols
        return (r, c) if inside else None

    def click(self, p: ScreenPoint, button: Button) -> None:
        cell = self._cell(p)
        if cell is None:
            super().click(p, button)  # the face: a new game at once
            self.pending.clear()
            return
        now = time.monotonic()
        self.ripples[cell] = now
        self.pending.append((now + ANSWER, p, button))

    def _answer(self) -> None:
        """The server's answers due by now, each a move of the game."""
        now = time.monotonic()
        while self.pending and self.pending[0][0] <= now:
            _, p, button = self.pending.pop(0)
            before = self.render_plain()
            board = self.game.board.copy()
            super().click(p, button)
            for r, c in np.argwhere(board != self.game.board).tolist():
                self.fading[(r, c)] = (self._tile(before, (r, c)), now)

    def _tile(self, image: Image, cell: tuple[int, int]) -> Image:
        y, x = self.top + cell[0] * self.pitch, self.left + cell[1] * self.pitch
        return image[y:y + self.pitch, x:x + self.pitch]

    def render_plain(self) -> Image:
        return super().render()

    def render(self) -> Image:
        self._answer()
        image = self.render_plain()
        now = time.monotonic()
        for cell, t0 in list(self.ripples.items()):
            step = int((now - t0) / PAINT)
            if now - t0 >= RIPPLE:
                del self.ripples[cell]
                continue
            tile = self._tile(image, cell)
            tile[:] = (tile * 0.5 + 120 + 4 * step).clip(0, 255).astype(np.uint8)
        for cell, (old, t0) in list(self.fading.items()):
            if now - t0 >= FADE:
                del self.fading[cell]
                continue
            share = int((now - t0) / PAINT) * PAINT / FADE
            tile = self._tile(image, cell)
            tile[:] = (old * (1 - share) + tile * share).astype(np.uint8)
        return image


def test_a_page_game_is_played_past_its_ripples_and_fades(tmp_path: Path) -> None:
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (3, 4, 5, 6, 7, 8))
    screen = PageScreen(BoardSize(9, 9, 10), seed=5)
    notes = Notes(screen)
    config = PlayConfig(games=3, restart_timeout=1.0, bug_dir=tmp_path / "bugs", seed=0,
                        mines=10)  # (the default redraw timeout, 2 s)
    reader = SkinSimReader(load_skin(skin_dir), screen.pitch)
    results = Player(screen, notes.mouse, reader, "exact", config, notes).play()
    truth = [g.status for g in [*screen.finished, screen.game]][:len(results)]
    assert [r.outcome for r in results] == truth, [r.reason for r in results]
    assert "won" in truth
    for r in results:  # never lost on a square rated safe
        assert r.death_p is None or r.death_p > 0.0, r
    check_names(notes, skin_dir)  # every look learned is the square's true number
