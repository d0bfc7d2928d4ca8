"""A made-up Minesweeper look for calibration tests, unlike any shipped skin: blue tiles,
cream open squares, any (fractional) pitch, a round status face and a ticking timer.

:func:`render` draws a knowledge array; :class:`SynthGame` is a whole game (screen and
mouse in one) driven by :class:`solver.game.Game`, for testing the live calibrator
without a display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bot.screen import ScreenPoint
from solver.cells import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG, Board
from solver.game import BoardSize, Game
from vision.geometry import PixelRect

DIGIT_COLOURS = {1: (200, 60, 0), 2: (0, 140, 0), 3: (0, 0, 220), 4: (140, 0, 90),
                 5: (0, 60, 140), 6: (140, 140, 0), 7: (20, 20, 20), 8: (110, 110, 110)}
FACE = {"playing": (0, 220, 240), "won": (60, 200, 60), "lost": (160, 60, 200)}


@dataclass(frozen=True)
class Look:
    pitch_x: float = 24.0
    pitch_y: float = 24.0
    origin: tuple[int, int] = (40, 110)
    gap: int = 2
    covered: tuple[int, int, int] = (190, 120, 50)
    opened: tuple[int, int, int] = (210, 235, 245)
    background: tuple[int, int, int] = (60, 60, 60)
    size: tuple[int, int] = (640, 560)  # width, height of the whole screen

    def cell_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        x0, y0 = self.origin
        left, right = round(x0 + c * self.pitch_x), round(x0 + (c + 1) * self.pitch_x)
        top, bottom = round(y0 + r * self.pitch_y), round(y0 + (r + 1) * self.pitch_y)
        return left, top, right, bottom

    def face_rect(self, cols: int) -> PixelRect:
        side = 34
        cx = round(self.origin[0] + cols * self.pitch_x / 2)
        return PixelRect(cx - side // 2, self.origin[1] - side - 20, side, side)


def _text(img: np.ndarray, text: str, box: tuple[int, int, int, int],
          colour: tuple[int, int, int]) -> None:
    """``text`` centred in ``box``, clipped to it (a real game never draws past its
    square: a digit sized to a tall square's height would reach into its neighbours)."""
    left, top, right, bottom = box
    scale = (bottom - top) / 34
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    org = ((right - left - tw) // 2, (bottom - top + th) // 2)
    tile = np.ascontiguousarray(img[top:bottom, left:right])
    cv2.putText(tile, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2, cv2.LINE_8)
    img[top:bottom, left:right] = tile


def _flag(img: np.ndarray, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    pts = np.array([[left + w // 3, top + h // 5], [left + 4 * w // 5, top + 2 * h // 5],
                    [left + w // 3, top + 3 * h // 5]], np.int32)
    cv2.fillPoly(img, [pts], (0, 0, 230))
    cv2.line(img, (left + w // 3, top + h // 5), (left + w // 3, top + 4 * h // 5), (0, 0, 0), 2)


def _mine(img: np.ndarray, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    centre = ((left + right) // 2, (top + bottom) // 2)
    cv2.circle(img, centre, max(2, (right - left) // 4), (20, 20, 20), -1)


def draw_cell(img: np.ndarray, look: Look, r: int, c: int, code: int) -> None:
    left, top, right, bottom = look.cell_box(r, c)
    g = look.gap
    tile = (left + g, top + g, right - g, bottom - g)
    if code in (COVERED, FLAG, QUESTION, WRONG_FLAG):
        img[tile[1]:tile[3], tile[0]:tile[2]] = look.covered
        img[tile[1]:tile[1] + 2, tile[0]:tile[2]] = (235, 200, 150)  # relief
        img[tile[1]:tile[3], tile[0]:tile[0] + 2] = (235, 200, 150)
    else:
        fill = (40, 40, 230) if code == EXPLODED else look.opened
        img[tile[1]:tile[3], tile[0]:tile[2]] = fill
    if code == FLAG:
        _flag(img, tile)
    elif code == QUESTION:
        _text(img, "?", tile, (255, 255, 255))
    elif code == WRONG_FLAG:
        _flag(img, tile)
        cv2.line(img, tile[:2], (tile[2] - 1, tile[3] - 1), (0, 0, 0), 2)
    elif code in (MINE, EXPLODED):
        _mine(img, tile)
    elif code > 0:
        _text(img, str(code), tile, DIGIT_COLOURS[code])


def cut(img: np.ndarray, region: PixelRect | None) -> np.ndarray:
    """``region`` of a whole-screen image (all of it if None), as a screen's grab gives it.

    >>> cut(np.zeros((4, 6, 3), np.uint8), PixelRect(1, 2, 3, 2)).shape
    (2, 3, 3)
    """
    if region is not None:
        img = img[region.top:region.top + region.height, region.left:region.left + region.width]
    return np.ascontiguousarray(img)


def render(board: Board, look: Look = Look(), status: str = "playing", tick: int = 0) -> np.ndarray:
    """The whole screen showing ``board``, a status face and a timer reading ``tick``."""
    w, h = look.size
    img = np.full((h, w, 3), look.background, np.uint8)
    rows, cols = board.shape
    left, top, _, _ = look.cell_box(0, 0)
    _, _, right, bottom = look.cell_box(rows - 1, cols - 1)
    img[top - 6:bottom + 6, left - 6:right + 6] = (150, 150, 150)  # frame
    for r in range(rows):
        for c in range(cols):
            draw_cell(img, look, r, c, int(board[r, c]))
    f = look.face_rect(cols)
    centre = (f.left + f.width // 2, f.top + f.height // 2)
    cv2.circle(img, centre, f.width // 2, FACE[status], -1)
    mouth = {"playing": 0, "won": 1, "lost": -1}[status]
    cv2.ellipse(img, (centre[0], centre[1] + 5), (9, 4 + 2 * abs(mouth)), 0,
                0 if mouth >= 0 else 180, 180 if mouth >= 0 else 360, (0, 0, 0), 2)
    cv2.putText(img, f"{tick % 1000:03d}", (left, top - 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                (0, 0, 255), 2)
    return img


@dataclass
class SynthGame:
    """A game on a fake screen, played through a fake mouse (both protocols in one).
    Clicking the face starts a new game; right-clicks cycle flag, question mark, none."""

    size: BoardSize
    look: Look = Look()
    rule: str = "safe"
    seed: int = 0
    win_needs_flags: bool = False
    frozen: bool = False  # a game that stops responding
    drop_left: int = 0  # this many left clicks on the board are dropped (a busy game)
    clicks: list[tuple[ScreenPoint, str]] = field(default_factory=list)
    games: int = 0
    ticks: int = 0

    def __post_init__(self) -> None:
        self.new_game()
        self._pos = ScreenPoint(self.look.size[0] / 2, self.look.size[1] / 2)

    def new_game(self) -> None:
        self.game = Game(self.size, self.rule, seed=self.seed + self.games)
        self.games += 1

    # ---- Screen
    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.ticks += 1
        img = render(self.game.board, self.look, self.status(), self.ticks // 7)
        return cut(img, region)

    def close(self) -> None:
        pass

    def status(self) -> str:
        status = self.game.status
        if status == "won" and self.win_needs_flags:
            assert self.game.mines is not None
            if not (self.game.board[self.game.mines] == FLAG).all():
                return "playing"
        return status

    # ---- Mouse
    def position(self) -> ScreenPoint:
        return self._pos

    def move(self, p: ScreenPoint) -> None:
        self._pos = p

    def key(self, keys: str) -> None:
        self.clicks.append((self._pos, f"key:{keys}"))

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self._pos = p
        self.clicks.append((p, button))
        if self.frozen:
            return
        f = self.look.face_rect(self.size.cols)
        if f.left <= p.x < f.left + f.width and f.top <= p.y < f.top + f.height:
            self.new_game()
            return
        cell = self.cell_at(p)
        if cell is None or self.status() != "playing":
            return
        board = self.game.board
        if button == "left" and self.drop_left > 0:
            self.drop_left -= 1
        elif button == "left":
            self.game.open(cell)
        elif board[cell] == COVERED:
            board[cell] = FLAG
        elif board[cell] == FLAG:
            board[cell] = QUESTION
        elif board[cell] == QUESTION:
            board[cell] = COVERED

    def cell_at(self, p: ScreenPoint) -> tuple[int, int] | None:
        for r in range(self.size.rows):
            for c in range(self.size.cols):
                left, top, right, bottom = self.look.cell_box(r, c)
                if left <= p.x < right and top <= p.y < bottom:
                    return (r, c)
        return None


class GoneOnQuit:
    """Mix in before a :class:`SynthGame` (``class G(GoneOnQuit, SynthGame)``): once
    ``quit`` is set, the game's window is gone, the desktop shows where it was, and
    clicks do nothing (many pygame and Kivy games quit at Escape)."""

    quit = False

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        if self.quit:
            self.clicks.append((p, button))  # type: ignore[attr-defined]
            return
        super().click(p, button)  # type: ignore[misc]

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.quit:
            w, h = self.look.size  # type: ignore[attr-defined]
            return cut(np.full((h, w, 3), self.look.background, np.uint8),  # type: ignore[attr-defined]
                       region)
        return super().grab(region)  # type: ignore[misc]


class RecordsOutcomes:
    """Mix in before a :class:`SynthGame`: :meth:`outcomes` tells how every game ended,
    as the game itself knows it (to compare with what calibration or play made of
    them)."""

    record: list[str]

    def new_game(self) -> None:
        game = getattr(self, "game", None)
        if not hasattr(self, "record"):
            self.record = []
        if game is not None and game.status in ("won", "lost"):
            self.record.append(game.status)
        super().new_game()  # type: ignore[misc]

    def outcomes(self) -> list[str]:
        """Every ended game's outcome, the one on the screen too."""
        status = self.game.status  # type: ignore[attr-defined]
        return self.record + ([status] if status in ("won", "lost") else [])


class SynthScreen:
    """The Screen side of a :class:`SynthGame`."""

    def __init__(self, game: SynthGame) -> None:
        self.game = game

    def size(self) -> tuple[int, int]:
        return self.game.look.size

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        return self.game.grab(region)

    def close(self) -> None:
        pass


class SynthMouse:
    """The Mouse side of a :class:`SynthGame`."""

    def __init__(self, game: SynthGame) -> None:
        self.game = game

    def size(self) -> tuple[int, int]:
        return self.game.look.size

    def position(self) -> ScreenPoint:
        return self.game.position()

    def move(self, p: ScreenPoint) -> None:
        self.game.move(p)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.game.click(p, button)

    def key(self, keys: str) -> None:
        self.game.key(keys)


def lost_board(seed: int, mines: int = 40) -> Board:
    """The board of a lost 16x16 game with ``mines`` mines: 12 safe squares opened
    after the first click, then a mine."""
    game = Game(BoardSize(16, 16, mines), "safe", seed=seed)
    game.open((8, 8))
    assert game.mines is not None
    for cell in np.argwhere(~game.mines & (game.board == COVERED))[:12]:
        game.open((int(cell[0]), int(cell[1])))
    mine = np.argwhere(game.mines & (game.board == COVERED))[0]
    game.open((int(mine[0]), int(mine[1])))
    return game.board


def lost_screen(tmp: Path, seed: int, mines: int = 40) -> str:
    """:func:`lost_board` rendered and saved under ``tmp``; its path."""
    path = tmp / f"lost{seed}_{mines}.png"
    cv2.imwrite(str(path), render(lost_board(seed, mines), Look(size=(640, 560)), "lost"))
    return str(path)
