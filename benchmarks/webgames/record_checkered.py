"""Record captures of ``checkered.html`` in Chromium on a private Xvfb, with the board
each shows worked out from the page's own mine layout (no vision code involved).

    python benchmarks/webgames/record_checkered.py tests/vision/web_checkered

The page lays its mines from ``?seed=`` with a Lehmer generator (:func:`mine_layout`
does the same), so the board after any clicks follows by the game's rules
(:func:`expected`). Per look (``plain``, and ``edges``: Google's dark green edges on
opened squares next to covered ones) it saves, as ``LOOK_CASE.png`` (the browser
window's inside) and ``LOOK_CASE.board``: ``fresh`` (all covered), ``playing`` (the
first click, a few safe clicks, a flag on a mine), ``lost`` (that game, a wrong flag
added, then a mine clicked) and ``won`` (another game, every safe square opened).
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

ROWS, COLS, MINES, PITCH = 14, 18, 40, 30
GAME = PageRules(ROWS, COLS, MINES, free_around_first=True)
GREENS = ((0x51, 0xD7, 0xAA), (0x49, 0xD1, 0xA2))  # BGR of #aad751, #a2d149


def board_origin(image: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """Top-left pixel of the all-covered board: the box of its two greens."""
    mask = np.zeros(image.shape[:2], bool)
    for bgr in GREENS:
        mask |= np.all(image == bgr, axis=2)
    ys, xs = np.nonzero(mask)
    if xs.max() - xs.min() + 1 != COLS * PITCH or ys.max() - ys.min() + 1 != ROWS * PITCH:
        raise RuntimeError("the fresh board is not where it should be")
    return int(xs.min()), int(ys.min())


class Recorder:
    """Clicks squares of one page and saves captures with their boards."""

    def __init__(self, vd: VirtualDisplay, win: GameWindow, out: Path, look: str) -> None:
        self.vd, self.win, self.out, self.look = vd, win, out, look
        left, top, _, _ = win.rect()
        x, y = board_origin(win.screenshot())
        self.x0, self.y0 = left + x, top + y

    def press(self, cell: Cell, button: int = 1) -> None:
        r, c = cell
        click(self.vd, self.x0 + c * PITCH + PITCH // 2, self.y0 + r * PITCH + PITCH // 2,
              button)
        time.sleep(0.05)

    def save(self, case: str, board: str, status: str, game: str) -> None:
        left, top, width, height = self.win.rect()
        move_pointer(self.vd, left + width - 5, top + height - 5)  # no hover highlight
        time.sleep(0.6)
        name = f"{self.look}_{case}"
        cv2.imwrite(str(self.out / f"{name}.png"), self.win.screenshot(),
                    [cv2.IMWRITE_PNG_COMPRESSION, 9])
        head = GAME.header(status, PITCH, (self.x0 - left, self.y0 - top), game, self.look)
        (self.out / f"{name}.board").write_text(head + board)


QUERIES = {"plain": "", "edges": "edges=1", "anim": "edges=1&anim=1"}
"""Each look's query: ``anim`` is Google's end (mines one by one, then a panel over
the board); its ``lost`` and ``won`` captures are taken once the panel shows."""
PANEL_WAIT = {"lost": 3.5, "won": 1.5}


def record_look(vd: VirtualDisplay, out: Path, look: str) -> None:
    """The four cases of one look (two pages: seed 11 played to a loss, 12 won)."""
    more = QUERIES[look]
    first = (7, 9)
    for seed in (11, 12):
        url = webgame_url("checkered.html", ROWS, COLS, MINES, PITCH,
                          f"seed={seed}" + (f"&{more}" if more else ""))
        win = launch_chromium(vd, url, "^Checkered")
        rec = Recorder(vd, win, out, look)
        mines = GAME.mine_layout(seed, first)
        game = f"{look}-seed{seed}"
        if seed == 11:
            rec.save("fresh", GAME.expected(mines, [], set(), "playing"), "playing", game)
        safe = sorted(set(np.ndindex(ROWS, COLS)) - mines)
        clicks = [first]
        rec.press(first)
        if seed == 11:
            shown = GAME.opened(mines, clicks)
            more_clicks = [c for c in safe if c not in shown][:3]
            for cell in more_clicks:
                rec.press(cell)
            clicks += more_clicks
            flag = min(mines, key=lambda m: (m[0] - first[0]) ** 2 + (m[1] - first[1]) ** 2)
            rec.press(flag, 3)
            rec.save("playing", GAME.expected(mines, clicks, {flag}, "playing"), "playing", game)
            wrong = next(c for c in safe if c not in GAME.opened(mines, clicks))
            rec.press(wrong, 3)
            hit = max(mines)
            rec.press(hit)
            time.sleep(PANEL_WAIT["lost"] if look == "anim" else 0)
            rec.save("lost", GAME.expected(mines, clicks, {flag, wrong}, "lost"), "lost", game)
        else:
            for cell in safe:
                if cell not in GAME.opened(mines, clicks):
                    rec.press(cell)
                    clicks.append(cell)
            time.sleep(PANEL_WAIT["won"] if look == "anim" else 0)
            rec.save("won", GAME.expected(mines, clicks, set(), "won"), "won", game)
        win.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--looks", default="plain,edges")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay() as vd:
        for look in args.looks.split(","):
            record_look(vd, args.out, look)
    return 0


if __name__ == "__main__":
    sys.exit(main())
