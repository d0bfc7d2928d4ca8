"""Record captures of ``online.html`` (the classic look, scaled by the page's zoom with
smoothing) in Chromium on a private Xvfb, with the board each shows worked out from
the page's own mine layout (no vision code involved).

    python benchmarks/webgames/record_online.py tests/vision/web_online/zoom1.5 --zoom 1.5

The page lays its mines from ``?seed=`` with the Lehmer generator of
:mod:`benchmarks.webgames.pagegame` when the first square is clicked, off that square
and its neighbours (the first click opens an opening), so the board after any clicks
follows by the game's rules. Saves, as ``CASE.png`` (the browser window's inside) and
``CASE.board``:

- ``fresh``: all covered;
- ``playing``: the first click, a few safe clicks, a flag on a mine;
- ``lost``: that game after a wrong flag and a click on a mine (every mine shown, the
  hit one on red, the wrong flag crossed);
- ``won``: another game with every safe square opened (the game flags every mine).
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

from benchmarks.unseen_games import online_window  # noqa: E402
from benchmarks.webgames.pagegame import Cell, PageRules  # noqa: E402
from bot.othergames import launch_chromium, webgame_url  # noqa: E402
from bot.realgames import GameWindow, VirtualDisplay, click, move_pointer  # noqa: E402
from solver.game import BoardSize  # noqa: E402

ROWS, COLS, MINES = 16, 16, 40
GAME = PageRules(ROWS, COLS, MINES, free_around_first=True, mark_end=True)
GREY = (192, 192, 192)  # #c0c0c0, the frame's face and the covered squares' middle
PAGE = (242, 237, 233)  # BGR of #e9edf2, the page's background
FRAME = (2 * 12 + 16 * COLS, 55 + 12 + 16 * ROWS)  # the page's canvas at zoom 1
BOARD_AT = (12, 55)  # the squares' top-left in it


def board_origin(image: npt.NDArray[np.uint8], zoom: float) -> tuple[float, float]:
    """Top-left of the board's squares: the canvas's edges are where the page's
    background ends beside the frame (the biggest patch of exactly grey pixels, its
    face), and the squares lie (12, 55) page pixels in, times the zoom."""
    grey = np.all(image == GREY, axis=2).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(grey)
    face = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == face)
    width, height = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    if abs(width - (FRAME[0] - 6) * zoom) > 3 or abs(height - (FRAME[1] - 6) * zoom) > 3:
        raise RuntimeError(f"the frame is {width}x{height}, not the page's at zoom {zoom}")
    row, col = image[(ys.min() + ys.max()) // 2], image[:, (xs.min() + xs.max()) // 2]
    left = max(x for x in range(int(xs.min())) if (row[x] == PAGE).all()) + 1
    top = max(y for y in range(int(ys.min())) if (col[y] == PAGE).all()) + 1
    return left + BOARD_AT[0] * zoom, top + BOARD_AT[1] * zoom


class Recorder:
    """Clicks squares of one page and saves captures with their boards."""

    def __init__(self, vd: VirtualDisplay, win: GameWindow, out: Path, zoom: float) -> None:
        self.vd, self.win, self.out, self.pitch = vd, win, out, 16 * zoom
        left, top, _, _ = win.rect()
        self.x, self.y = board_origin(win.screenshot(), zoom)
        self.x0, self.y0 = left + self.x, top + self.y

    def point(self, cell: Cell) -> tuple[int, int]:
        r, c = cell
        return (round(self.x0 + (c + 0.5) * self.pitch),
                round(self.y0 + (r + 0.5) * self.pitch))

    def press(self, cell: Cell, button: int = 1) -> None:
        click(self.vd, *self.point(cell), button)
        time.sleep(0.05)

    def park(self) -> None:
        left, top, width, height = self.win.rect()
        move_pointer(self.vd, left + width - 5, top + height - 5)

    def save(self, case: str, board: str, status: str, game: str) -> None:
        time.sleep(0.5)
        cv2.imwrite(str(self.out / f"{case}.png"), self.win.screenshot(),
                    [cv2.IMWRITE_PNG_COMPRESSION, 9])
        p = self.pitch
        head = (f"# mines {MINES}\n# status {status}\n# size {COLS}x{ROWS}\n# pitch {p:g}\n"
                f"# cells x={self.x:g}..{self.x + COLS * p:g} "
                f"y={self.y:g}..{self.y + ROWS * p:g}\n# game {game}\n")
        (self.out / f"{case}.board").write_text(head + board)


def open_page(vd: VirtualDisplay, out: Path, seed: int, zoom: float) -> Recorder:
    query = f"zoom={zoom:g}&seed={seed}"
    url = webgame_url("online.html", ROWS, COLS, MINES, None, query)
    win = launch_chromium(vd, url, "^Minesweeper Online",
                          size=online_window(BoardSize(ROWS, COLS, MINES), query))
    return Recorder(vd, win, out, zoom)


def record_loss(vd: VirtualDisplay, out: Path, seed: int, first: Cell, zoom: float) -> None:
    """fresh, playing and lost, from one game."""
    rec = open_page(vd, out, seed, zoom)
    mines = GAME.mine_layout(seed, first)
    game = f"seed{seed}"
    rec.park()
    rec.save("fresh", GAME.expected(mines, [], set(), "playing"), "playing", game)
    clicks, flag = GAME.opening_moves(mines, first)
    for cell in clicks:
        rec.press(cell)
    rec.press(flag, 3)
    safe = sorted(set(np.ndindex(ROWS, COLS)) - mines)
    rec.park()
    rec.save("playing", GAME.expected(mines, clicks, {flag}, "playing"), "playing", game)
    shut = [c for c in safe if c not in GAME.opened(mines, clicks)]
    wrong = shut[0]
    rec.press(wrong, 3)
    hit = max(mines - {flag})
    rec.press(hit)
    rec.park()
    rec.save("lost", GAME.expected(mines, clicks, {flag, wrong}, "lost", hit), "lost", game)
    rec.win.close()


def record_win(vd: VirtualDisplay, out: Path, seed: int, first: Cell, zoom: float) -> None:
    rec = open_page(vd, out, seed, zoom)
    mines = GAME.mine_layout(seed, first)
    clicks = GAME.winning_clicks(mines, first)
    for cell in clicks:
        rec.press(cell)
    rec.park()
    rec.save("won", GAME.expected(mines, clicks, set(), "won"), "won", f"seed{seed}")
    rec.win.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--zoom", type=float, default=1.5)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay() as vd:
        record_loss(vd, args.out, 11, (8, 8), args.zoom)
        record_win(vd, args.out, 12, (8, 8), args.zoom)
    return 0


if __name__ == "__main__":
    sys.exit(main())
