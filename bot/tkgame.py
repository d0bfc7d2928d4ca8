"""The built-in Minesweeper window for ``sweepbot demo``: tkinter, the classic look.

The rules are :class:`solver.game.Game`'s; this module only draws the board and turns
mouse input into moves. Everything is drawn pixel-exact (rectangles, polygons and
bitmap digits, no anti-aliased text), so the window looks the same on every X server
and the ``classic`` skin's templates, captured from this window, fit everywhere.

Run it by hand with ``python -m bot.tkgame --size beginner``. Left click opens (or
chords on a number), right click flags, middle click chords, the face or F2 starts a
new game. ``--log FILE`` appends one JSON line per finished game (the true outcome,
used by the tests to check what the bot saw).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bot.metrics import three_bv
from solver.cells import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG, Cell
from solver.game import BoardSize, Game

PITCH = 20
"""Cell pitch in pixels."""
MARGIN = 12
"""Grey margin around the panel and the board."""
PANEL_H = 40
"""Height of the counter/face panel."""
FACE = 26
TITLE = "sweepbot demo - Minesweeper"

GREY, LIGHT, DARK, BLACK = "#c0c0c0", "#ffffff", "#808080", "#000000"
OPEN = "#b8b8b8"
"""Open squares are a shade darker than covered tiles, so that a square's centre alone
tells covered from open (the reader compares cell centres)."""
NUMBER_COLOURS = ("", "#0000ff", "#008000", "#ff0000", "#000080", "#800000", "#008080",
                  "#000000", "#808080")

GLYPHS = {
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ..##. .#... #.... #####",
    "3": ".###. #...# ....# ..##. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": ".###. #.... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "?": ".###. #...# ....# ..##. ..#.. ..... ..#..",
}
"""5x7 bitmap glyphs, drawn at 2x."""

SEGMENTS = dict(zip("0123456789-", (
    "abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg",
    "g"), strict=True))
"""Seven-segment digits for the LED counters."""


@dataclass(frozen=True)
class Layout:
    """Where things are inside the window (pixels, window-relative)."""

    rows: int
    cols: int

    @property
    def board_x(self) -> int:
        return MARGIN + 3

    @property
    def board_y(self) -> int:
        return MARGIN + PANEL_H + MARGIN + 3

    @property
    def width(self) -> int:
        return self.cols * PITCH + 2 * (MARGIN + 3)

    @property
    def height(self) -> int:
        return self.board_y + self.rows * PITCH + 3 + MARGIN

    @property
    def face(self) -> tuple[int, int]:
        """Top-left corner of the face button."""
        return (self.width - FACE) // 2, MARGIN + (PANEL_H - FACE) // 2

    def cell_at(self, x: int, y: int) -> Cell | None:
        c, r = (x - self.board_x) // PITCH, (y - self.board_y) // PITCH
        return (r, c) if 0 <= r < self.rows and 0 <= c < self.cols else None


class Painter:
    """Draws on a tk Canvas with pixel-exact primitives."""

    def __init__(self, canvas: Any) -> None:
        self.cv = canvas

    def rect(self, x: int, y: int, w: int, h: int, colour: str, tag: str) -> None:
        self.cv.create_rectangle(x, y, x + w, y + h, fill=colour, width=0, tags=tag)

    def bevel(self, x: int, y: int, w: int, h: int, depth: int, raised: bool, tag: str) -> None:
        """A 3-D frame: light top-left and dark bottom-right (the other way when sunken)."""
        hi, lo = (LIGHT, DARK) if raised else (DARK, LIGHT)
        for i in range(depth):
            self.rect(x + i, y + i, w - 2 * i, 1, hi, tag)
            self.rect(x + i, y + i, 1, h - 2 * i, hi, tag)
            self.rect(x + i, y + h - 1 - i, w - 2 * i, 1, lo, tag)
            self.rect(x + w - 1 - i, y + i, 1, h - 2 * i, lo, tag)

    def glyph(self, x: int, y: int, text: str, colour: str, tag: str) -> None:
        for gy, row in enumerate(GLYPHS[text].split()):
            for gx, ch in enumerate(row):
                if ch == "#":
                    self.rect(x + 2 * gx, y + 2 * gy, 2, 2, colour, tag)

    def led(self, x: int, y: int, value: int, tag: str) -> None:
        """A three-digit red LED counter (13x23 px digits)."""
        self.rect(x, y, 41, 25, BLACK, tag)
        text = f"{max(-99, min(999, value)):03d}" if value >= 0 else f"-{min(99, -value):02d}"
        for i, ch in enumerate(text):
            self.segments(x + 1 + 13 * i, y + 1, SEGMENTS[ch], tag)

    def segments(self, x: int, y: int, on: str, tag: str) -> None:
        boxes = {"a": (2, 0, 9, 2), "b": (10, 2, 2, 9), "c": (10, 12, 2, 9), "d": (2, 21, 9, 2),
                 "e": (0, 12, 2, 9), "f": (0, 2, 2, 9), "g": (2, 10, 9, 2)}
        for seg, (dx, dy, w, h) in boxes.items():
            self.rect(x + dx, y + dy, w, h, "#ff0000" if seg in on else "#280000", tag)

    def mine(self, x: int, y: int, tag: str) -> None:
        cx, cy = x + PITCH // 2, y + PITCH // 2
        self.cv.create_oval(cx - 5, cy - 5, cx + 5, cy + 5, fill=BLACK, outline=BLACK, tags=tag)
        self.rect(cx - 8, cy, 17, 1, BLACK, tag)
        self.rect(cx, cy - 8, 1, 17, BLACK, tag)
        self.rect(cx - 3, cy - 3, 2, 2, LIGHT, tag)

    def flag(self, x: int, y: int, tag: str) -> None:
        self.cv.create_polygon(x + 11, y + 4, x + 11, y + 11, x + 5, y + 8, fill="#ff0000",
                               outline="#ff0000", tags=tag)
        self.rect(x + 11, y + 4, 1, 11, BLACK, tag)
        self.rect(x + 8, y + 13, 6, 1, BLACK, tag)
        self.rect(x + 6, y + 14, 10, 2, BLACK, tag)

    def face(self, x: int, y: int, mood: str, tag: str) -> None:
        self.rect(x, y, FACE, FACE, GREY, tag)
        self.bevel(x, y, FACE, FACE, 2, True, tag)
        cx, cy = x + FACE // 2, y + FACE // 2
        self.cv.create_oval(cx - 8, cy - 8, cx + 8, cy + 8, fill="#ffff00", outline=BLACK, tags=tag)
        if mood == "won":
            self.rect(cx - 6, cy - 4, 13, 3, BLACK, tag)
        elif mood == "lost":
            for ex in (cx - 4, cx + 3):
                self.cv.create_line(ex - 1, cy - 5, ex + 2, cy - 2, fill=BLACK, tags=tag)
                self.cv.create_line(ex + 1, cy - 5, ex - 2, cy - 2, fill=BLACK, tags=tag)
        else:
            self.rect(cx - 4, cy - 4, 2, 2, BLACK, tag)
            self.rect(cx + 3, cy - 4, 2, 2, BLACK, tag)
        if mood == "lost":
            self.rect(cx - 3, cy + 3, 7, 1, BLACK, tag)
            self.rect(cx - 4, cy + 4, 1, 1, BLACK, tag)
            self.rect(cx + 4, cy + 4, 1, 1, BLACK, tag)
        else:
            self.rect(cx - 3, cy + 4, 7, 1, BLACK, tag)
            self.rect(cx - 4, cy + 3, 1, 1, BLACK, tag)
            self.rect(cx + 4, cy + 3, 1, 1, BLACK, tag)


def draw_cell(p: Painter, x: int, y: int, code: int, tag: str) -> None:
    """One square in state ``code`` with its top-left corner at (x, y)."""
    if code in (COVERED, FLAG, QUESTION):
        p.rect(x, y, PITCH, PITCH, GREY, tag)
        p.bevel(x, y, PITCH, PITCH, 2, True, tag)
        if code == FLAG:
            p.flag(x, y, tag)
        elif code == QUESTION:
            p.glyph(x + 5, y + 3, "?", BLACK, tag)
        return
    p.rect(x, y, PITCH, PITCH, "#ff0000" if code == EXPLODED else OPEN, tag)
    p.rect(x, y, PITCH, 1, DARK, tag)
    p.rect(x, y, 1, PITCH, DARK, tag)
    if code in (MINE, EXPLODED, WRONG_FLAG):
        p.mine(x, y, tag)
        if code == WRONG_FLAG:
            p.cv.create_line(x + 3, y + 3, x + 17, y + 17, fill="#ff0000", width=2, tags=tag)
            p.cv.create_line(x + 17, y + 3, x + 3, y + 17, fill="#ff0000", width=2, tags=tag)
    elif code > 0:
        p.glyph(x + 5, y + 3, str(code), NUMBER_COLOURS[code], tag)


class TkMinesweeper:
    """The window and its game. ``seed`` makes the sequence of games reproducible."""

    def __init__(self, size: BoardSize, rule: str = "safe", seed: int | None = None,
                 log: Path | None = None, layout: np.ndarray | None = None,
                 topmost: bool = False) -> None:
        import tkinter

        self.size, self.rule, self.log, self.fixed = size, rule, log, layout
        self.seeds = np.random.default_rng(seed)
        self.layout = Layout(size.rows, size.cols)
        self.tally: dict[str, int] = {}
        self.root = tkinter.Tk(className="sweepbot-demo")
        self.root.title(TITLE)
        self.root.resizable(False, False)
        self.canvas = tkinter.Canvas(self.root, width=self.layout.width,
                                     height=self.layout.height, bg=GREY,
                                     highlightthickness=0, bd=0)
        self.canvas.pack()
        self.paint = Painter(self.canvas)
        self.canvas.bind("<ButtonRelease-1>", self.on_left)
        self.canvas.bind("<ButtonPress-3>", self.on_right)
        self.canvas.bind("<ButtonRelease-2>", self.on_middle)
        self.root.bind("<F2>", lambda _e: self.new_game())
        if topmost:
            self.root.attributes("-topmost", True)
        self.new_game()

    def new_game(self) -> None:
        self.game = Game(self.size, rule=self.rule, seed=int(self.seeds.integers(2**31)))
        if self.fixed is not None:
            self.game.set_mines(self.fixed)
        self.started = 0.0
        self.shown = np.full((self.size.rows, self.size.cols), 99, dtype=np.int8)
        self.canvas.delete("all")
        lay = self.layout
        self.paint.bevel(0, 0, lay.width, lay.height, 3, True, "frame")
        self.paint.bevel(MARGIN - 3, MARGIN - 3, lay.width - 2 * MARGIN + 6, PANEL_H + 6, 2,
                         False, "frame")
        self.paint.bevel(lay.board_x - 3, lay.board_y - 3, lay.cols * PITCH + 6,
                         lay.rows * PITCH + 6, 3, False, "frame")
        self.redraw()

    def redraw(self) -> None:
        """Redraw the squares that changed, the counters and the face."""
        lay, board = self.layout, self.game.board
        for r, c in np.argwhere(board != self.shown):
            tag = f"c{r}_{c}"
            self.canvas.delete(tag)
            draw_cell(self.paint, lay.board_x + c * PITCH, lay.board_y + r * PITCH,
                      int(board[r, c]), tag)
        self.shown = board.copy()
        self.canvas.delete("panel")
        self.paint.led(MARGIN + 6, MARGIN + (PANEL_H - 25) // 2, self.game.mines_left, "panel")
        seconds = int(time.monotonic() - self.started) if self.started else 0
        self.paint.led(lay.width - MARGIN - 6 - 41, MARGIN + (PANEL_H - 25) // 2,
                       min(999, seconds), "panel")
        fx, fy = lay.face
        mood = self.game.status if self.game.status != "playing" else "smile"
        self.paint.face(fx, fy, mood, "panel")

    def on_left(self, event: Any) -> None:
        fx, fy = self.layout.face
        if fx <= event.x < fx + FACE and fy <= event.y < fy + FACE:
            self.new_game()
            return
        cell = self.layout.cell_at(event.x, event.y)
        if cell is None or self.game.status != "playing":
            return
        if self.game.board[cell] > 0:
            self.act(self.game.chord, cell)
        else:
            self.act(self.game.open, cell)

    def on_right(self, event: Any) -> None:
        cell = self.layout.cell_at(event.x, event.y)
        if cell is not None and self.game.status == "playing":
            self.act(self.game.toggle_flag, cell)

    def on_middle(self, event: Any) -> None:
        cell = self.layout.cell_at(event.x, event.y)
        if cell is not None and self.game.status == "playing":
            self.act(self.game.chord, cell)

    def act(self, move: Any, cell: Cell) -> None:
        if not self.started:
            self.started = time.monotonic()
        move(cell)
        if self.game.status == "won" and self.game.mines is not None:
            self.game.board[self.game.mines] = FLAG  # like the classic game: flag the rest
        self.redraw()
        if self.game.status != "playing":
            self.finished()

    def finished(self) -> None:
        self.tally[self.game.status] = self.tally.get(self.game.status, 0) + 1
        self.root.title(f"{TITLE} ({self.tally.get('won', 0)} won, "
                        f"{self.tally.get('lost', 0)} lost)")
        if self.log is None or self.game.mines is None:
            return
        record = {"outcome": self.game.status, "rows": self.size.rows, "cols": self.size.cols,
                  "mines": self.size.mines, "3bv": three_bv(self.game.mines),
                  "exploded": [int(v) for v in np.argwhere(self.game.board == EXPLODED).ravel()]}
        with self.log.open("a") as fh:
            fh.write(json.dumps(record) + "\n")

    def tick(self) -> None:
        if self.started and self.game.status == "playing":
            self.redraw()
        self.root.after(1000, self.tick)

    def run(self) -> None:
        self.root.after(1000, self.tick)
        self.root.mainloop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tkgame",
                                     description="The built-in Minesweeper window.")
    parser.add_argument("--size", default="beginner", help="beginner, intermediate, expert "
                        "or COLSxROWS/MINES")
    parser.add_argument("--rule", default="safe", help="first-click rule (default: safe)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--log", type=Path, default=None, help="append finished games (JSONL)")
    parser.add_argument("--layout", type=Path, default=None,
                        help="a fixed mine layout: rows of '*' (mine) and '.' (every game)")
    parser.add_argument("--topmost", action="store_true", help="keep the window above others")
    args = parser.parse_args(argv)
    try:
        size = BoardSize.parse(args.size)
        layout = read_layout(args.layout) if args.layout else None
        if layout is not None:
            size = BoardSize(layout.shape[0], layout.shape[1], int(layout.sum()))
    except (ValueError, OSError) as exc:
        print(f"tkgame: {exc}", file=sys.stderr)
        return 2
    TkMinesweeper(size, args.rule, args.seed, args.log, layout, args.topmost).run()
    return 0


def read_layout(path: Path) -> np.ndarray:
    """A mine layout from a text file: one row per line, '*' a mine, '.' no mine."""
    rows = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    if not rows or len({len(r) for r in rows}) != 1 or set("".join(rows)) - set("*."):
        raise ValueError(f"{path}: a layout is equal-length rows of '*' and '.'")
    return np.array([[ch == "*" for ch in r] for r in rows], dtype=bool)


if __name__ == "__main__":
    sys.exit(main())
