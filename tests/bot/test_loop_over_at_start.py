"""A game already over when play begins is not counted as one of play's games.

A board left won or lost by an earlier run (or by the user) used to count as a game
won or lost with no click: PyMines shows nothing at a win, so a second ``sweepbot
play`` began with a "won" game it never played. Play now says the game is over,
starts a new one with the game's own control, and plays the games asked for.

kmines leaves its "Reset the Game?" dialog over a lost board: the next run found only
the three columns beside it as the board, and its restart key went to the dialog ("no
new game appeared after restarting"). Play now presses the game's dismiss keys once
when the first restart of a game left over brings no new game, and takes the whole
board once the new game shows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simgame import PITCH, STATUS_LEVEL, SimReader, SimScreen, sim_mouse

from bot.loop import Observer, PlayConfig, Player
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class Notes(Observer):
    def __init__(self) -> None:
        self.notes: list[str] = []

    def on_note(self, player: Player, message: str) -> None:
        self.notes.append(message)


def end_by_hand(screen: SimScreen, how: str) -> None:
    """Play the screen's game to its end outside the bot: open every safe square
    ("won") or a mine ("lost") after a first click in the corner."""
    game = screen.game
    game.open((0, 0))
    assert game.mines is not None
    if how == "won":
        for r, c in np.argwhere(~game.mines).tolist():
            game.open((r, c))
    else:
        r, c = np.argwhere(game.mines)[0].tolist()
        game.open((r, c))
    assert game.status == how


@pytest.mark.parametrize("how", ["won", "lost"])
def test_a_game_over_on_the_screen_is_restarted_not_counted(how: str, tmp_path: Path) -> None:
    screen = SimScreen(BoardSize.parse("beginner"), seed=11)
    end_by_hand(screen, how)
    left_over = screen.game
    notes = Notes()
    config = PlayConfig(games=3, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), SimReader(), "csp", config, notes).play()
    assert notes.notes[0] == f"the game on the screen is already {how}: starting a new one"
    assert screen.finished[0] is left_over  # the first restart ended the game left over
    truth = [g.status for g in screen.finished[1:]] + [screen.game.status]
    assert [r.outcome for r in results] == truth and len(results) == 3
    assert all(r.moves > 0 and r.clicks > 0 for r in results), results


def test_a_fresh_game_is_played_as_found(tmp_path: Path) -> None:
    screen = SimScreen(BoardSize.parse("beginner"), seed=11)
    first = screen.game
    notes = Notes()
    config = PlayConfig(games=1, redraw_timeout=0.2, bug_dir=tmp_path / "bugs", seed=0)
    [result] = Player(screen, sim_mouse(screen), SimReader(), "csp", config, notes).play()
    assert not screen.finished and screen.game is first  # no restart before the game
    assert result.outcome == first.status and result.moves > 0
    assert not any("already" in n for n in notes.notes)


class DialogLeftScreen(SimScreen):
    """A lost game left with a dialog over its left columns (kmines' "Reset the
    Game?"): only the columns beside it show, so they are found as the board. The
    restart key goes to the dialog until Escape closes it."""

    dialog_cols = 0

    def render(self) -> np.ndarray:
        image = super().render()
        k = self.dialog_cols
        if not k:
            return image
        rows, cols = self.board_size.rows, self.board_size.cols
        x, y = self.left, self.top
        image[y - 40:y + rows * PITCH + 10, x - 10:x + k * PITCH] = 77
        image[y - 1, x + k * PITCH - 1] = (cols - k, rows, 255)  # (the part beside it)
        image[y - 30:y - 20, x + k * PITCH:x + k * PITCH + 10] = STATUS_LEVEL[self.status()]
        return image

    def key(self, keys: str) -> None:
        if not self.dialog_cols:
            super().key(keys)
        elif keys == "Escape":
            self.dialog_cols = 0


def test_a_dialog_beside_the_board_found_is_dismissed(tmp_path: Path) -> None:
    size = BoardSize.parse("intermediate")
    screen = DialogLeftScreen(size, seed=11)
    screen.restart_key = "F2"
    end_by_hand(screen, "lost")
    screen.dialog_cols = size.cols - 3
    reader = SimReader(dismiss=("Escape",))
    reader.restart_keys = ("F2",)
    notes = Notes()
    config = PlayConfig(games=2, mines=size.mines, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), reader, "csp", config, notes).play()
    assert notes.notes[:1] == ["the game on the screen is already lost: starting a new one"], (
        results, notes.notes)
    assert any("pressing Escape" in n for n in notes.notes), notes.notes
    truth = [g.status for g in screen.finished[1:]] + [screen.game.status]
    assert [r.outcome for r in results] == truth and len(results) == 2, (results, notes.notes)
    assert all((r.rows, r.cols) == (size.rows, size.cols) for r in results), results
