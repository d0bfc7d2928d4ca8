"""The simulated game of :mod:`simgame` painted with a real skin's templates, read by the
real template reader (``bot.reader.SkinReader``), for offline tests of what play does
with looks a skin lacks.

:class:`SkinScreen` paints every square with the truth skin's first template of its
state (a garbled square: noise), keeps simgame's marker pixel and face block;
:class:`SkinSimReader` locates the board and reads the status as simgame does, and the
squares with ``vision.read`` and the (possibly incomplete) skin it is given.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from simgame import PITCH, STATUS_LEVEL, SimReader, SimScreen

from bot.mouse import Button
from bot.reader import Restart, SkinReader
from bot.screen import Image, ScreenPoint
from solver.game import BoardSize, Game
from vision.geometry import BoardGeometry
from vision.skin import Skin, load_skin, save_skin

SKIN = "xdemineur"


def truth_skin() -> Skin:
    return load_skin(SKIN)


def skin_without(folder: Path, codes: tuple[int, ...], name: str = "partial") -> Skin:
    """A copy of the truth skin without the templates of ``codes``, saved in ``folder``
    and loaded back from there (so learned templates are written into it)."""
    skin = truth_skin()
    cells = {c: v for c, v in skin.cells.items() if c not in codes}
    save_skin(replace(skin, name=name, cells=cells), folder)
    return load_skin(folder)


class SkinScreen(SimScreen):
    """A simgame screen whose squares look like the truth skin's templates."""

    def __init__(self, size: BoardSize, skin: Skin | None = None, **kw: object) -> None:
        self.skin = skin or truth_skin()
        self.pitch = self.skin.cells[-1][0].shape[0]
        self.noise = np.random.default_rng(99).integers(0, 256, (self.pitch, self.pitch, 3),
                                                        dtype=np.uint8)
        super().__init__(size, **kw)  # type: ignore[arg-type]

    def render(self) -> Image:
        image = np.zeros((600, 800, 3), np.uint8)
        if not self.visible:
            return image
        rows, cols, p = self.board_size.rows, self.board_size.cols, self.pitch
        x, y = self.left, self.top
        for r in range(rows):
            for c in range(cols):
                tile = self.noise if (r, c) in self.garble else \
                    self.skin.cells[int(self.game.board[r, c])][0]
                image[y + r * p:y + (r + 1) * p, x + c * p:x + (c + 1) * p] = tile
        image[y - 1, x - 1] = (cols, rows, 255)
        image[y - 30:y - 20, x:x + 10] = STATUS_LEVEL[self.status()]
        return image

    def click(self, p: ScreenPoint, button: Button) -> None:
        """As simgame's click, on squares of this screen's pitch."""
        x, y = int(p.x), int(p.y)
        c, r = (x - self.left) // self.pitch, (y - self.top) // self.pitch
        on_board = 0 <= r < self.board_size.rows and 0 <= c < self.board_size.cols
        if not on_board:
            super().click(p, button)  # the face (or nothing)
            return
        super().click(ScreenPoint(self.left + c * PITCH + 1, self.top + r * PITCH + 1), button)


class SkinSimReader(SkinReader):
    """The real template reader on a :class:`SkinScreen`; the rest as simgame's reader."""

    def __init__(self, skin: Skin, pitch: int, rule: str = "opening") -> None:
        super().__init__([skin])
        self.pitch = pitch
        self.sim = SimReader(rule=rule)

    def locate(self, image: Image) -> BoardGeometry:
        g = self.sim.locate(image)  # the sim's marker, at this skin's name and pitch
        return BoardGeometry(self.skins[0].name, g.x0, g.y0, float(self.pitch),
                             float(self.pitch), g.rows, g.cols)

    def status(self, image: Image, geometry: BoardGeometry) -> str:
        return self.sim.status(image, geometry)

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        return self.sim.restart(image, geometry)

    def needs_flags(self, geometry: BoardGeometry) -> bool:
        return False

    def dismiss_keys(self, geometry: BoardGeometry) -> tuple[str, ...]:
        return ()

    def chord_button(self, geometry: BoardGeometry) -> Button | None:
        return None

    def mine_count(self, image: Image, geometry: BoardGeometry) -> int | None:
        return None

    def first_click_rule(self, geometry: BoardGeometry) -> str | None:
        return self.sim.first_click_rule(geometry)



class ChanceSkinScreen(SkinScreen):
    """A game of no fixed mine count, like react-minesweeper: each game lays a binomial
    count of mines (each square one with ``chance``), and its face never shows a win."""

    def __init__(self, size: BoardSize, chance: float, **kw: object) -> None:
        self.chance = chance
        super().__init__(size, **kw)

    def new_game(self) -> None:
        super().new_game()
        rows, cols = self.board_size.rows, self.board_size.cols
        mines = int(self.seeds.binomial(rows * cols, self.chance))
        self.game = Game(BoardSize(rows, cols, mines), self.rule,
                         seed=int(self.seeds.integers(2**31)))

    def status(self) -> str:
        return "playing" if self.game.status == "won" else super().status()


class ChanceSkinReader(SkinSimReader):
    """A skin that saw this size with different counts, and ``share`` of its squares
    mines (what calibrate writes for such a game)."""

    def __init__(self, skin: Skin, pitch: int, share: float, rule: str = "opening") -> None:
        super().__init__(skin, pitch, rule)
        self.share = share

    def mines_vary(self, geometry: BoardGeometry) -> bool:
        return True

    def mine_share(self, geometry: BoardGeometry) -> float | None:
        return self.share
