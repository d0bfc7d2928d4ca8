"""Capture the ``classic`` skin's templates from the real tk window (``bot.tkgame``).

Run ``python -m bot.capture_classic [OUT_DIR]`` (default ``templates/classic``). It
starts the demo window on a private virtual display with a fixed mine layout
(``templates/classic/capture-layout.txt``, chosen so every number 0-8 appears),
plays scripted clicks through the X server, screenshots the window, and cuts each
square out of the screenshots. Every square is labelled by replaying the same clicks
on a :class:`solver.game.Game` with the same layout: game logic, not the pixels,
names the images. The face button is cut from a playing, a lost and a won frame.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from bot.realgames import GameWindow, VirtualDisplay, click, wait_for_window
from bot.screen import Image
from bot.tkgame import FACE, PITCH, Layout, read_layout
from solver.cells import COVERED, FLAG, STATE_NAMES, Board, Cell
from solver.game import BoardSize, Game
from vision.skin import Skin, save_skin

ROOT = Path(__file__).resolve().parent.parent
LAYOUT_FILE = ROOT / "templates" / "classic" / "capture-layout.txt"


class Capture:
    """The tk window on a virtual display plus a replica game that labels its squares."""

    def __init__(self, vd: VirtualDisplay, mines: np.ndarray) -> None:
        self.vd, self.mines = vd, mines
        rows, cols = mines.shape
        self.layout = Layout(rows, cols)
        before: set[int] = set()
        proc = vd.spawn([sys.executable, "-m", "bot.tkgame", "--layout", str(LAYOUT_FILE)],
                        env={**vd.env, "PYTHONPATH": str(ROOT)})
        wid = wait_for_window(vd, proc, "sweepbot demo", before)
        self.window = GameWindow(vd, proc, wid, "classic")
        time.sleep(0.5)
        self.replica = self._new_replica()

    def _new_replica(self) -> Game:
        rows, cols = self.mines.shape
        game = Game(BoardSize(rows, cols, int(self.mines.sum())))
        game.set_mines(self.mines)
        return game

    def _point(self, cell: Cell) -> tuple[int, int]:
        left, top, _, _ = self.window.rect()
        r, c = cell
        return (left + self.layout.board_x + c * PITCH + PITCH // 2,
                top + self.layout.board_y + r * PITCH + PITCH // 2)

    def open(self, cell: Cell) -> None:
        click(self.vd, *self._point(cell), button=1)
        self.replica.open(cell)

    def flag(self, cell: Cell) -> None:
        click(self.vd, *self._point(cell), button=3)
        self.replica.toggle_flag(cell)

    def press_face(self) -> None:
        left, top, _, _ = self.window.rect()
        fx, fy = self.layout.face
        click(self.vd, left + fx + FACE // 2, top + fy + FACE // 2)
        self.replica = self._new_replica()

    def frame(self) -> tuple[Image, Board]:
        """A screenshot of the window and the true board it shows."""
        time.sleep(0.3)
        board = self.replica.board.copy()
        if self.replica.status == "won":
            board[self.mines] = FLAG  # the window flags the rest on a win
        return self.window.screenshot(), board

    def cells(self, image: Image, board: Board) -> dict[int, list[Image]]:
        out: dict[int, list[Image]] = {}
        for (r, c), code in np.ndenumerate(board):
            x, y = self.layout.board_x + c * PITCH, self.layout.board_y + r * PITCH
            out.setdefault(int(code), []).append(image[y:y + PITCH, x:x + PITCH])
        return out

    def face(self, image: Image) -> Image:
        fx, fy = self.layout.face
        return image[fy:fy + FACE, fx:fx + FACE]


def distinct(images: list[Image]) -> list[Image]:
    """The different images among ``images`` (pixel-exact)."""
    seen: list[Image] = []
    for im in images:
        if not any(np.array_equal(im, s) for s in seen):
            seen.append(im)
    return seen


def run_script(cap: Capture) -> tuple[list[tuple[Image, Board]], dict[str, Image]]:
    """Covered / flags and numbers / lost / won frames, and the three faces."""
    mines = cap.mines
    frames = [cap.frame()]
    faces = {"playing": cap.face(frames[0][0])}
    cap.flag((0, 0))  # a true flag
    cap.flag((8, 8))  # a wrong flag (no mine there)
    for cell in zip(*np.nonzero(~mines), strict=True):
        cell = (int(cell[0]), int(cell[1]))
        if cell != (8, 8) and cap.replica.board[cell] == COVERED:
            cap.open(cell)
    frames.append(cap.frame())
    cap.open((5, 1))  # a mine: lost
    lost = cap.frame()
    frames.append(lost)
    faces["lost"] = cap.face(lost[0])
    cap.press_face()
    for cell in zip(*np.nonzero(~mines), strict=True):
        cell = (int(cell[0]), int(cell[1]))
        if cap.replica.board[cell] == COVERED:
            cap.open(cell)
    won = cap.frame()
    frames.append(won)
    faces["won"] = cap.face(won[0])
    return frames, faces


def build_skin(frames: list[tuple[Image, Board]], faces: dict[str, Image], cap: Capture) -> Skin:
    """The classic skin: one image per distinct look of each state, the face button
    for the status (searched above the board) and as the restart control."""
    by_state: dict[int, list[Image]] = {}
    for image, board in frames:
        for code, ims in cap.cells(image, board).items():
            by_state.setdefault(code, []).extend(ims)
    lay = cap.layout
    # the face, centred above the board: [[fx, dx, fy, dy], [fx, dx, fy, dy]] (vision.status)
    top = lay.face[1] - lay.board_y
    region = [[0.5, -FACE, 0.0, top - 6], [0.5, FACE, 0.0, top + FACE + 6]]
    return Skin(
        name="classic",
        source="sweepbot's built-in tk window (bot/tkgame.py), captured by bot/capture_classic.py",
        cell_size=(float(PITCH), float(PITCH)),
        cells={code: tuple(distinct(ims)) for code, ims in sorted(by_state.items())},
        status={"method": "face", "region": region,
                "templates": {mood: (im,) for mood, im in faces.items()}},
        restart={"kind": "click", "region": region,
                 "templates": tuple(faces[m] for m in ("playing", "won", "lost"))},
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out_dir = Path(args[0]) if args else LAYOUT_FILE.parent
    mines = read_layout(LAYOUT_FILE)
    with VirtualDisplay() as vd:
        cap = Capture(vd, mines)
        frames, faces = run_script(cap)
    skin = build_skin(frames, faces, cap)
    path = save_skin(skin, out_dir)
    for code, images in skin.cells.items():
        print(f"{STATE_NAMES[code]}: {len(images)} image(s)")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
