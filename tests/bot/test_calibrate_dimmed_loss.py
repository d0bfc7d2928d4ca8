"""A game that dims its whole board at a loss, digits and all (kivy-mines-package
disables every button: tiles, digits and covered squares drawn at a third of their
brightness), with its mines shown undimmed. Calibration must still see that the loss
changed only the mines' squares: every other square is the one it was, dimmed
(:func:`vision.calibrate.dimmed_pairs`). Before, every dimmed square was new to the
board at the loss, and the mines were counted wrong (kivy-mines: 81 on a board of 10).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import (  # noqa: E402
    Look,
    RecordsOutcomes,
    SynthGame,
    SynthMouse,
    SynthScreen,
    cut,
)

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, EXPLODED, MINE  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.calibrate import Learned  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402

SIZE = BoardSize(9, 9, 10)
pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


@dataclass
class DimsAtLoss(RecordsOutcomes, SynthGame):
    """At a loss every square but the mines is drawn at DIM of its brightness."""

    dim: float = 0.33

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.game.status == "lost":
            board = self.game.board
            for r in range(self.size.rows):
                for c in range(self.size.cols):
                    if board[r, c] != MINE:
                        left, top, right, bottom = self.look.cell_box(r, c)
                        part = img[top:bottom, left:right].astype(np.float64)
                        img[top:bottom, left:right] = (part * self.dim - 2).clip(0, 255)
        return cut(img, region)


class Quiet:
    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None: ...


def check_play(game: RecordsOutcomes, learned: Learned) -> list[str]:
    """Six games played with the skin ``learned`` end as the game's own record says,
    none lost on a square rated safe; their outcomes."""
    skin = Skin("dims", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    before = len(game.outcomes())
    played = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                    PlayConfig(games=6, mines=SIZE.mines, seed=1, restart_timeout=4.0),
                    observer=Quiet()).play()  # type: ignore[arg-type]
    outcomes = [r.outcome for r in played]
    assert outcomes == game.outcomes()[before:] and len(outcomes) == 6, outcomes
    assert all(r.death_p is not None and r.death_p >= 0.001
               for r in played if r.outcome == "lost"), played
    return outcomes


@pytest.mark.parametrize("seed", [1, 4])
def test_a_board_dimmed_at_a_loss_shows_only_its_mines_changed(seed: int) -> None:
    game = DimsAtLoss(SIZE, Look(), rule="safe", seed=seed)
    log: list[str] = []
    opts = LiveOptions(games=3, max_games=20, time_limit=90.0, want=(0, 1, 2),
                       log=log.append, redraw_timeout=0.3)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert "the game has 10 mines" in log, log
    assert learned.mine_counts and {n for _, n in learned.mine_counts} == {10}, learned.mine_counts
    assert list(learned.games) == game.outcomes()[:len(learned.games)], log
    assert "lost" in learned.games
    assert {COVERED, MINE, 0, 1, 2} <= set(learned.cells), sorted(learned.cells)
    check_play(game, learned)


KIVY_COVERED, KIVY_OPENED = 41, 83


@dataclass
class KivyLike(RecordsOutcomes, SynthGame):
    """kivy-mines-package's board: plain grey buttons, a covered one darker than an
    opened one, white digits, no flags; at a loss every button is disabled: drawn at
    DIM of its brightness, its digit fainter still, the mines red with an X."""

    dim: float = 0.31

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.ticks += 1
        w, h = self.look.size
        img = np.zeros((h, w, 3), np.uint8)  # (Kivy's window: black)
        lost = self.game.status == "lost"
        board = self.game.board
        for r in range(self.size.rows):
            for c in range(self.size.cols):
                self._button(img, (r, c), int(board[r, c]), lost)
        f = self.look.face_rect(self.size.cols)  # the restart button
        img[f.top:f.top + f.height, f.left:f.left + f.width] = (90, 90, 90)
        return cut(img, region)

    def _button(self, img: np.ndarray, cell: tuple[int, int], code: int, lost: bool) -> None:
        left, top, right, bottom = self.look.cell_box(*cell)
        tile = img[top + 1:bottom - 1, left + 1:right - 1]
        mine = code in (MINE, EXPLODED)
        grey = KIVY_COVERED if code in (COVERED, MINE, EXPLODED) else KIVY_OPENED
        tile[:] = (0, 0, 200) if mine and lost else grey
        text = "X" if mine and lost else str(code) if code > 0 else ""
        ink = 255.0
        if lost and not mine:
            tile[:] = np.round(grey * self.dim - 1)
            ink = grey * self.dim + 0.3 * (255 - grey * self.dim)  # (text at 30 %)
        if text:
            scale = (bottom - top) / 40
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
            org = ((right - left - 2 - tw) // 2, (bottom - top - 2 + th) // 2)
            cv2.putText(tile, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (ink, ink, ink), 1,
                        cv2.LINE_AA)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_kivy_board_learns_its_0_and_reads_its_dimmed_numbers(seed: int) -> None:
    """Kivy's dimmed 0 is a plain grey a grey shade from its covered button: named
    covered by its shade, it made every 0 of a lost board a covered square drawn over,
    and no 0 was ever named (every game lost); and its dimmed 2 and 3, their digits
    faint, fall in one look, which did not fit the dimming: named mine."""
    game = KivyLike(SIZE, Look(pitch_x=48.0, pitch_y=24.0, size=(560, 400)), seed=seed)
    log: list[str] = []
    opts = LiveOptions(games=4, max_games=20, time_limit=90.0, want=(0, 1, 2),
                       log=log.append, redraw_timeout=0.3, flag_button="none",
                       restart_point=ScreenPoint(*game.look.face_rect(SIZE.cols).centre()))
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert {n for _, n in learned.mine_counts} == {10}, (learned.mine_counts, log)
    assert list(learned.games) == game.outcomes()[:len(learned.games)], log
    assert {COVERED, MINE, 0, 1, 2} <= set(learned.cells), sorted(learned.cells)
    assert "won" in check_play(game, learned)
