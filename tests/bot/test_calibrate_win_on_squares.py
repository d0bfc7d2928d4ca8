"""A game that shows its win on its own squares and on a face that changes at a win
alone, like ItzAleksG's Minesweeper-Python-Tkinter (a Tk game a helper tried as a new
user would): at a win every opened square is redrawn light blue, its number gone, the
mines left covered; its face shows sunglasses at a win, and at play and at a loss the
same blank box (its emoji missing from the font).

Before, calibrate took the blue board for a window over it and kept a patch of one won
layout as the win's display, which matched no other win; play then waited out its
restart timeout after every win (10 games took 92 s, the games 0.3 s each), stopped
when a win came at a batch that opened a region ("the board disappeared"), and found
no board when started on a won game. Now the face is the win's display, play starts
the next game once the face to click shows and nothing lies over the squares, believes
the win when only the mines are left covered, and finds the won board by the face.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import VirtualClock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, RecordsOutcomes, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402,I001

from bot.calibrate_live import Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, MINE  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=30.0, pitch_y=24.0, origin=(40, 110))
SIZE = BoardSize(8, 10, 10)
WATER = (230, 216, 173)  # Tk's "lightblue", BGR


class WaterGame(RecordsOutcomes, SynthGame):
    """See the module's text: a loss shows its mines, a win turns every opened square
    light blue; the face tells a win only."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.ticks += 1
        status = self.game.status
        img = render(self.game.board, self.look, "won" if status == "won" else "playing")
        if status == "won":
            for r, c in np.argwhere(self.game.board >= 0).tolist():
                left, top, right, bottom = self.look.cell_box(r, c)
                g = self.look.gap
                img[top + g:bottom - g, left + g:right - g] = WATER
        return cut(img, region)


def face_point() -> ScreenPoint:
    f = LOOK.face_rect(SIZE.cols)
    return ScreenPoint(f.left + f.width / 2, f.top + f.height / 2)


def calibrate(game: WaterGame) -> tuple[Learned, list[str]]:
    notes: list[str] = []
    opts = LiveOptions(games=4, max_games=30, time_limit=150.0, mines=SIZE.mines,
                       restart_point=face_point(), log=notes.append)
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run(), notes


class Quiet:
    notes: list[str]

    def __init__(self) -> None:
        self.notes = []

    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...

    def on_note(self, player: object, message: str) -> None:
        self.notes.append(message)


def play(game: WaterGame, learned: Learned, games: int, seed: int = 1) -> tuple[
        list[str], list[str]]:
    skin = Skin("water", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    config = PlayConfig(games=games, mines=SIZE.mines, seed=seed, restart_timeout=6.0)
    quiet = Quiet()
    played = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                    config, observer=quiet).play()  # type: ignore[arg-type]
    return [r.outcome + (f" ({r.reason})" if r.reason else "") for r in played], quiet.notes


@pytest.mark.slow
def test_a_win_shown_on_the_squares_and_the_face(virtual_time: VirtualClock) -> None:
    game = WaterGame(SIZE, LOOK, rule="safe", seed=4)
    learned, notes = calibrate(game)
    assert {"won", "lost"} <= set(learned.games), notes
    won = learned.status.get("templates", {}).get("won")
    assert won and won[0].shape[0] < 4 * LOOK.pitch_y, (learned.status, notes)  # the face
    assert any("changes at a win alone" in n for n in notes), notes
    assert {COVERED, MINE, 0, 1, 2} <= set(learned.cells), sorted(learned.cells)
    before, start = len(game.outcomes()), virtual_time.ahead
    outcomes, said = play(game, learned, 8)
    assert outcomes == game.outcomes()[before:], (outcomes, game.outcomes()[before:], said)
    assert "won" in outcomes and not any("aborted" in o for o in outcomes)
    assert virtual_time.ahead - start < 8 * 3.0, said  # (before: 6 s waited at every win)
    assert not any("did not close" in n for n in said), said
    for seed in range(2, 8):  # until a run ends on a win
        if game.game.status == "won":
            break
        play(game, learned, 1, seed=seed)
    assert game.game.status == "won"
    again, said = play(game, learned, 1, seed=9)  # a run started on the won board
    assert len(again) == 1 and "aborted" not in again[0], (again, said)
    assert any("already won" in n for n in said), said
