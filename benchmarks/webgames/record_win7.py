"""Record captures of ``win7.html`` (the Windows 7 look) in Chromium on a private Xvfb,
with the board each shows worked out from the page's own mine layout (no vision code
involved).

    python benchmarks/webgames/record_win7.py tests/vision/web_win7

The page lays its mines from ``?seed=`` with a Lehmer generator when the first square
is clicked, anywhere but on that square (:func:`mine_layout` does the same), so the
board after any clicks follows by the game's rules (:func:`expected`). Saves, as
``CASE.png`` (the browser window's inside) and ``CASE.board``:

- ``fresh``: all covered, the pointer off the board;
- ``playing``: the first click, a few safe clicks, a flag on a mine, the pointer
  resting on a covered square (Win7's light blue glow there);
- ``lost_shown``: that game after a wrong flag and a click on a mine, every mine
  shown, before the dialog comes;
- ``lost``: the same a moment later, the "Game Lost" dialog over the board;
- ``won``: another game with every safe square opened: the mines flagged by the game
  and the "Game Won" dialog over the board.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.webgames.pagegame import Cell, PageRules  # noqa: E402
from bot.othergames import launch_chromium, webgame_url  # noqa: E402
from bot.realgames import GameWindow, VirtualDisplay, click, move_pointer  # noqa: E402

ROWS, COLS, MINES, PITCH = 16, 16, 40, 24
GAME = PageRules(ROWS, COLS, MINES, free_around_first=False, mark_end=True)
GAP = (0x40, 0x27, 0x1B)  # BGR of #1b2740, the dark line between squares


def board_origin(image: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """Top-left pixel of the board's squares: the box of the dark lines between them."""
    ys, xs = np.nonzero(np.all(image == GAP, axis=2))
    if xs.max() - xs.min() != COLS * PITCH or ys.max() - ys.min() != ROWS * PITCH:
        raise RuntimeError("the board is not where it should be")
    return int(xs.min()), int(ys.min())


class Recorder:
    """Clicks squares of one page and saves captures with their boards."""

    def __init__(self, vd: VirtualDisplay, win: GameWindow, out: Path) -> None:
        self.vd, self.win, self.out = vd, win, out
        left, top, _, _ = win.rect()
        x, y = board_origin(win.screenshot())
        self.x0, self.y0 = left + x, top + y

    def point(self, cell: Cell) -> tuple[int, int]:
        r, c = cell
        return self.x0 + c * PITCH + PITCH // 2, self.y0 + r * PITCH + PITCH // 2

    def press(self, cell: Cell, button: int = 1) -> None:
        click(self.vd, *self.point(cell), button)
        time.sleep(0.05)

    def park(self, cell: Cell | None = None) -> None:
        """The pointer on ``cell`` (the page's hover glow), else off the board."""
        left, top, width, height = self.win.rect()
        move_pointer(self.vd, *(self.point(cell) if cell else (left + width - 5,
                                                              top + height - 5)))

    def save(self, case: str, board: str, status: str, game: str, wait: float) -> None:
        time.sleep(wait)
        left, top, _, _ = self.win.rect()
        cv2.imwrite(str(self.out / f"{case}.png"), self.win.screenshot(),
                    [cv2.IMWRITE_PNG_COMPRESSION, 9])
        head = GAME.header(status, PITCH, (self.x0 - left, self.y0 - top), game)
        (self.out / f"{case}.board").write_text(head + board)


def open_page(vd: VirtualDisplay, out: Path, seed: int) -> Recorder:
    url = webgame_url("win7.html", ROWS, COLS, MINES, PITCH, f"seed={seed}")
    win = launch_chromium(vd, url, "^Minesweeper")
    return Recorder(vd, win, out)


def record_loss(vd: VirtualDisplay, out: Path, seed: int, first: Cell) -> None:
    """fresh, playing, lost_shown and lost, from one game."""
    rec = open_page(vd, out, seed)
    mines = GAME.mine_layout(seed, first)
    game = f"seed{seed}"
    rec.park()
    rec.save("fresh", GAME.expected(mines, [], set(), "playing"), "playing", game, 0.5)
    clicks, flag = GAME.opening_moves(mines, first)
    for cell in clicks:
        rec.press(cell)
    rec.press(flag, 3)
    safe = sorted(set(np.ndindex(ROWS, COLS)) - mines)
    shut = [c for c in safe if c not in GAME.opened(mines, clicks)]
    rec.park(shut[-1])
    rec.save("playing", GAME.expected(mines, clicks, {flag}, "playing"), "playing", game, 0.5)
    wrong = shut[0]
    rec.press(wrong, 3)
    hit = max(mines - {flag})
    rec.park()
    rec.press(hit)
    rec.park()
    board = GAME.expected(mines, clicks, {flag, wrong}, "lost", hit)
    rec.save("lost_shown", board, "lost", game, 0.6)  # (the dialog comes at 1.04 s)
    rec.save("lost", board, "lost", game, 1.0)
    rec.win.close()


def record_win(vd: VirtualDisplay, out: Path, seed: int, first: Cell) -> None:
    rec = open_page(vd, out, seed)
    mines = GAME.mine_layout(seed, first)
    clicks = GAME.winning_clicks(mines, first)
    for cell in clicks:
        rec.press(cell)
    rec.park()
    rec.save("won", GAME.expected(mines, clicks, set(), "won"), "won", f"seed{seed}", 1.0)
    rec.win.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay() as vd:
        record_loss(vd, args.out, 11, (8, 8))
        record_win(vd, args.out, 12, (8, 8))
    return 0


if __name__ == "__main__":
    sys.exit(main())
