"""Play goes on past a number the skin never saw (a calibration that met no 6).

The simulated screen draws every number from ``UNSEEN`` up in a look the reader cannot
name. A square the last batch opened (or opened with a 0 beside it) that keeps such a
look is an opened square whose number is unknown: the solver takes it as safe with no
constraint, so play loses information, never soundness.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simgame import SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player, unseen_as_open
from bot.screen import Image
from solver.cells import COVERED, UNKNOWN, WRONG_FLAG
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

UNSEEN = 3


class UnseenNumbers(SimScreen):
    """Numbers from UNSEEN up are drawn in a look no template matches."""

    def render(self) -> Image:
        self.garble = {(int(r), int(c)) for r, c in np.argwhere(self.game.board >= UNSEEN)}
        return super().render()


def test_games_with_unseen_numbers_are_played_to_their_end(tmp_path: Path) -> None:
    screen = UnseenNumbers(BoardSize.parse("intermediate"), seed=5)
    config = PlayConfig(games=8, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    reader = SimReader(unnamed=tuple(range(UNSEEN, 9)))
    results = Player(screen, sim_mouse(screen), reader, "csp", config).play()
    assert [r.outcome for r in results if r.outcome == "aborted"] == []
    shown = [g for g in screen.finished + [screen.game] if (g.board >= UNSEEN).any()]
    assert len(shown) >= 4  # the unseen numbers were met, and were opened past
    assert len(results) == 8
    for r in results:  # (with every 3 and more unknown, intermediate needs many guesses)
        assert r.outcome == "won" or (r.death_p is not None and r.death_p >= 0.001), r


def test_a_covered_square_that_was_not_opened_stays_unreadable() -> None:
    known = np.full((3, 3), COVERED, np.int8)
    known[0, 0] = 1
    board = known.copy()
    board[2, 2] = UNKNOWN  # not opened by the batch, no 0 beside it: a misread
    assert (unseen_as_open(board, known, {(0, 1)}, True) == board).all()
    board[0, 1] = UNKNOWN  # the batch opened it
    out = unseen_as_open(board, known, {(0, 1)}, True)
    assert out[2, 2] == UNKNOWN and (out == board).all()  # one misread spoils the turn
    board[2, 2] = COVERED
    out = unseen_as_open(board, known, {(0, 1)}, True)
    assert out[0, 1] == WRONG_FLAG
    assert (unseen_as_open(board, out, set(), False) == out).all()  # taken so from now on


def test_a_reader_with_every_number_stops_at_an_unreadable_square(tmp_path: Path) -> None:
    """With a look for every number, a square no template names is a misread, not an
    unseen number: play stops rather than go on over it (and clicks nothing more)."""
    screen = UnseenNumbers(BoardSize.parse("intermediate"), seed=5)
    config = PlayConfig(games=8, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), SimReader(), "csp", config).play()
    assert results[-1].outcome == "aborted"
    assert "could not read the board" in results[-1].reason
    assert "screen's" not in results[-1].reason  # (a board not at the screen's edge)
    assert list((tmp_path / "bugs").glob("*.png"))
