"""A simulator-backed fake screen, reader and mouse for offline tests of the play loop.

The fake screen paints a :class:`solver.game.Game` as a synthetic screenshot: each
square a PITCH x PITCH block whose grey level encodes its cell code, a marker pixel at
the board's top-left corner (red = 255, green = rows, blue = cols), and a "face" block
above the board whose level encodes the status; clicking the face starts a new game.
:class:`SimReader` decodes exactly that, so the loop's own logic (batches, waits,
flags, restarts, guards, stopping) runs for real with no display.
"""

from __future__ import annotations

import numpy as np

from bot.mouse import Button, RecordingMouse
from bot.reader import NotFound, Restart
from bot.screen import Image, ScreenPoint
from solver.cells import COVERED, FLAG, UNKNOWN, Board
from solver.game import BoardSize, Game
from vision.geometry import BoardGeometry, PixelPoint, PixelRect

PITCH = 10
STATUS_LEVEL = {"playing": 10, "won": 20, "lost": 30}


def level(code: int) -> int:
    return (code + 20) * 5


class SideFloodGame(Game):
    """A game whose opened 0s open only the four squares beside them (react-minesweeper
    from npm floods so)."""

    def _opened_by_zero(self, cell: tuple[int, int], rows: int,
                        cols: int) -> list[tuple[int, int]]:
        r, c = cell
        return [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols]


class SimScreen:
    """A 800x600 screen showing one simulated game at (left, top)."""

    def __init__(self, size: BoardSize, rule: str = "opening", seed: int = 0,
                 needs_flags: bool = False, left: int = 60, top: int = 120,
                 win_dialog: bool = False) -> None:
        self.board_size, self.rule, self.needs_flags = size, rule, needs_flags
        self.seeds = np.random.default_rng(seed)
        self.left, self.top = left, top
        self.visible = True
        self.win_dialog = win_dialog  # like gnome-mines: a win covers the board until Escape
        self.win_dialog_closed = False
        self.garble: set[tuple[int, int]] = set()
        self.finished: list[Game] = []
        self.grabs = 0
        self.new_game()

    def new_game(self) -> None:
        self.game = Game(self.board_size, self.rule, seed=int(self.seeds.integers(2**31)))
        self.dialog_open = False
        self.dialog_shown = False

    def status(self) -> str:
        g = self.game
        if g.status == "won" and self.needs_flags and g.mines_left != 0:
            return "playing"
        return g.status

    def render(self) -> Image:
        image = np.zeros((600, 800, 3), np.uint8)
        if not self.visible:
            return image
        if self.win_dialog and self.game.status == "won" and not self.dialog_shown:
            self.dialog_open = True  # shown once, until Escape closes it
            self.dialog_shown = True
        if self.dialog_open:
            image[self.top - 40:self.top + 200, self.left - 10:self.left + 200] = 77
            return image
        rows, cols = self.board_size.rows, self.board_size.cols
        board = self.game.board.astype(np.int16)
        levels = ((board + 20) * 5).astype(np.uint8)
        for cell in self.garble:
            levels[cell] = 1
        block = np.kron(levels, np.ones((PITCH, PITCH), np.uint8))
        x, y = self.left, self.top
        image[y:y + rows * PITCH, x:x + cols * PITCH] = block[..., None]
        image[y - 1, x - 1] = (cols, rows, 255)
        image[y - 30:y - 20, x:x + 10] = STATUS_LEVEL[self.status()]
        return image

    # Screen protocol
    def size(self) -> tuple[int, int]:
        return 800, 600

    def grab(self, region: PixelRect | None = None) -> Image:
        self.grabs += 1
        image = self.render()
        if region is None:
            return image
        r = region
        return image[max(0, r.top):r.top + r.height, max(0, r.left):r.left + r.width].copy()

    def close(self) -> None:
        pass

    restart_key: str | None = None
    """A key that starts a new game (set it to play by key)."""
    unfocused_after_end = False
    """Like kmines under openbox after a dialog: once a game ended, keys go nowhere
    until a click on the window gives it the focus back."""
    focused = True

    def key(self, keys: str) -> None:
        if keys == "Escape" and self.dialog_open:
            self.dialog_open = False
            self.win_dialog_closed = True
        if keys == self.restart_key and self.focused:
            if self.game.status != "playing":
                self.finished.append(self.game)
            self.new_game()

    flag_click: Button = "right"
    """How the game takes a flag ("ctrl+left": like minesweeper-for-web, where a
    right-click opens the browser's menu)."""
    wrong_flag_clicks = 0
    """Clicks of the other flag gesture (ignored)."""

    # what the mouse does to the game
    def click(self, p: ScreenPoint, button: Button) -> None:
        x, y = int(p.x), int(p.y)
        if self.left <= x < self.left + 10 and self.top - 30 <= y < self.top - 20:
            if self.game.status != "playing":
                self.finished.append(self.game)
            self.new_game()
            return
        c, r = (x - self.left) // PITCH, (y - self.top) // PITCH
        if not (0 <= r < self.board_size.rows and 0 <= c < self.board_size.cols):
            return
        self.focused = True
        g = self.game
        if self.unfocused_after_end and g.status != "playing":
            return  # the click only gave the window the focus back
        if button in ("right", "ctrl+left") and button != self.flag_click:
            self.wrong_flag_clicks += 1  # a browser's menu, or a square opened
            return
        if button == "middle":
            g.chord((r, c))
        elif button == "left":
            g.open((r, c))
        elif button == self.flag_click:
            if g.status == "won" and g.board[r, c] == COVERED:
                g.board[r, c] = FLAG  # the game is only declared won once flagged
            else:
                g.toggle_flag((r, c))
        if self.unfocused_after_end and g.status != "playing":
            self.focused = False  # a dialog came and went, and took the focus with it


class SimReader:
    """Decodes :class:`SimScreen` images."""

    def __init__(self, needs_flags: bool = False, rule: str = "opening",
                 dismiss: tuple[str, ...] = (), chord: Button | None = None,
                 unnamed: tuple[int, ...] = ()) -> None:
        self._needs_flags, self._rule, self._dismiss = needs_flags, rule, dismiss
        self._chord, self._unnamed = chord, unnamed

    def unnamed_numbers(self, geometry: BoardGeometry) -> tuple[int, ...]:
        """The numbers this reader has no look for (none, unless told)."""
        return self._unnamed

    def locate(self, image: Image) -> BoardGeometry:
        hits = np.argwhere(image[..., 2] == 255)
        if not len(hits):
            raise NotFound("no sim board")
        y, x = (int(v) for v in hits[0])
        cols, rows = int(image[y, x, 0]), int(image[y, x, 1])
        return BoardGeometry("sim", x + 1.0, y + 1.0, PITCH, PITCH, rows, cols)

    def read(self, image: Image, geometry: BoardGeometry) -> Board:
        board = np.empty((geometry.rows, geometry.cols), np.int8)
        for r in range(geometry.rows):
            for c in range(geometry.cols):
                p = geometry.cell_center((r, c))
                v = int(image[int(p.y), int(p.x), 0])
                board[r, c] = v // 5 - 20 if v % 5 == 0 and v >= 60 else UNKNOWN
        return board

    def status(self, image: Image, geometry: BoardGeometry) -> str:
        y, x = round(geometry.y0) - 25, round(geometry.x0) + 5
        if not (0 <= y < image.shape[0] and 0 <= x < image.shape[1]):
            return "unknown"
        v = int(image[y, x, 0])
        return {lv: st for st, lv in STATUS_LEVEL.items()}.get(v, "unknown")

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        if self.restart_keys:
            return Restart(keys=self.restart_keys)
        if self.status(image, geometry) == "unknown":
            return None  # hidden (e.g. by a dialog)
        return Restart(point=PixelPoint(geometry.x0 + 5, geometry.y0 - 25))

    restart_keys: tuple[str, ...] = ()
    """Keys that start a new game (instead of the face)."""

    def restart_idle(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        return None  # the simulated face always shows the game's end

    def starts_alone(self) -> bool:
        return False  # (the simulated game has no menu)

    def restart_alone(self, image: Image) -> PixelPoint | None:
        return None

    def needs_flags(self, geometry: BoardGeometry) -> bool:
        return self._needs_flags

    def dismiss_keys(self, geometry: BoardGeometry) -> tuple[str, ...]:
        return self._dismiss

    def end_display(self, image: Image, geometry: BoardGeometry) -> str | None:
        return None  # (no learned end display: every cover gets the fallback Escape)

    side_flood_game = False
    """Set to read a game whose 0s open only the squares beside them."""

    def side_flood(self, geometry: BoardGeometry) -> bool:
        return self.side_flood_game

    def click_hold(self, geometry: BoardGeometry) -> float:
        return 0.0

    def chord_button(self, geometry: BoardGeometry) -> Button | None:
        return self._chord

    flag_click: Button = "right"
    """Set to "ctrl+left" to read a game that flags by ctrl+click."""

    def flag_button(self, geometry: BoardGeometry) -> Button:
        return self.flag_click

    def mine_count(self, image: Image, geometry: BoardGeometry) -> int | None:
        return None

    def first_click_rule(self, geometry: BoardGeometry) -> str | None:
        return self._rule


def sim_mouse(screen: SimScreen) -> RecordingMouse:
    """A recording mouse whose clicks and keys act on the simulated game."""
    return RecordingMouse(size=(800, 600), on_click=screen.click, on_key=screen.key)


class Blank:
    """A screen that shows one image whatever is clicked (a blank screen, a game that
    answers nothing), and a mouse that records its clicks."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.clicks: list[ScreenPoint] = []
        self.pos = ScreenPoint(100, 100)

    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        return self.image

    def close(self) -> None:
        pass

    def position(self) -> ScreenPoint:
        return self.pos

    def move(self, p: ScreenPoint) -> None:
        self.pos = p

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.pos = p
        self.clicks.append(p)

    def key(self, keys: str) -> None:
        pass
