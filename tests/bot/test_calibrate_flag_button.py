"""Calibrating and playing a game that does not flag with a right-click, as the user
names its way with ``--flag-button``: the middle button (cave-sweeper, PyPI, tk: its
flag is bound to ``<Button-2>``), or no flag at all (kivy-mines-package: a right-click
opens the square as a left click does, and flags go through a "Flagging" mode button).

Before, calibrate stopped at its first right-click on both ("changed nothing", "opened
the square"), and a skin could not say that its game takes no flag.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, RecordsOutcomes, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import CalibrationError, Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.cli import main  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, FLAG, QUESTION, WRONG_FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

SIZE = BoardSize(9, 9, 10)


@dataclass
class ButtonGame(RecordsOutcomes, SynthGame):
    """Marks (flag, question mark, none) by ``marks_with`` only; ``right_opens``: a
    right-click opens the square as a left click does; every other button changes
    nothing. ``pressed`` keeps every button as pressed."""

    marks_with: str | None = "middle"
    right_opens: bool = False
    pressed: list[str] = field(default_factory=list)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.pressed.append(button)
        if button == "right" and self.right_opens:
            super().click(p, "left")
        elif button == "left" or button == self.marks_with:
            super().click(p, "left" if button == "left" else "right")  # (right: a mark)
        else:
            self.clicks.append((p, button))


class Quiet:
    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None: ...


def calibrate(game: ButtonGame, flag_button: str) -> Learned:
    opts = LiveOptions(games=2, max_games=12, time_limit=60.0, mines=SIZE.mines,
                       flag_button=flag_button, redraw_timeout=0.3)
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()


def play(game: ButtonGame, learned: Learned, games: int) -> list[tuple[str, float | None]]:
    """Play ``games`` games with the skin ``learned``: (outcome, death_p) of each."""
    skin = Skin("buttons", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    config = PlayConfig(games=games, mines=SIZE.mines, seed=1, restart_timeout=4.0)
    played = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                    config, observer=Quiet()).play()  # type: ignore[arg-type]
    return [(r.outcome, r.death_p) for r in played]


def check_play(game: ButtonGame, learned: Learned, games: int) -> None:
    """The games played with the learned skin end as the game's own record says, none
    lost on a square rated safe."""
    before = len(game.outcomes())
    played = play(game, learned, games)
    assert [o for o, _ in played] == game.outcomes()[before:], (played, game.outcomes())
    assert len(played) == games
    assert all(p is not None and p >= 0.001 for o, p in played if o == "lost"), played


@pytest.mark.parametrize("seed", [2, 5])
def test_flags_are_learned_and_placed_with_the_middle_button(seed: int) -> None:
    game = ButtonGame(SIZE, Look(), rule="safe", seed=seed, marks_with="middle",
                      win_needs_flags=True)
    learned = calibrate(game, "middle")
    assert learned.status.get("flag_button") == "middle", learned.status
    assert {COVERED, FLAG, QUESTION} <= set(learned.cells), sorted(learned.cells)
    assert "right" not in game.pressed
    assert game.outcomes()[:len(learned.games)] == list(learned.games)
    start = len(game.pressed)
    check_play(game, learned, 4)
    # a game that declares its win only once every mine is flagged: play flags them
    # with the middle button
    assert "won" in game.outcomes()[-4:]
    assert set(game.pressed[start:]) == {"left", "middle"}


def test_a_game_with_no_flag_is_calibrated_and_played_with_none() -> None:
    game = ButtonGame(SIZE, Look(), rule="safe", seed=3, marks_with=None)
    learned = calibrate(game, "none")
    assert learned.status.get("flag_button") == "none", learned.status
    assert not {FLAG, QUESTION, WRONG_FLAG} & set(learned.cells), sorted(learned.cells)
    assert {"won", "lost"} <= set(learned.games), learned.games
    assert game.outcomes()[:len(learned.games)] == list(learned.games)
    check_play(game, learned, 6)
    assert set(game.pressed) == {"left"}  # no flag, ever (the face: left clicks too)


def test_a_game_whose_right_click_opens_is_calibrated_with_no_flag() -> None:
    """kivy-mines-package's way: with ``--flag-button none`` no right-click is ever
    pressed, so none opens a square."""
    game = ButtonGame(SIZE, Look(), rule="safe", seed=2, marks_with=None, right_opens=True)
    learned = calibrate(game, "none")
    assert learned.status.get("flag_button") == "none"
    check_play(game, learned, 3)
    assert set(game.pressed) == {"left"}


def test_the_right_click_messages_name_the_flag_button_option() -> None:
    game = ButtonGame(SIZE, Look(), rule="safe", seed=2, marks_with="middle")
    with pytest.raises(CalibrationError, match="--flag-button middle"):
        calibrate(game, "auto")
    # (a right-click, then the same held on the square: a game that polls the pointer)
    assert game.pressed == ["right", "right"] and (game.game.board == COVERED).all()
    game = ButtonGame(SIZE, Look(), rule="safe", seed=2, marks_with=None, right_opens=True)
    with pytest.raises(CalibrationError, match="opened the square.*--flag-button none"):
        calibrate(game, "auto")


def test_no_flag_needs_a_fresh_board() -> None:
    """With no mark to tell the covered look, a board already half open is refused
    before any click."""
    game = ButtonGame(SIZE, Look(), rule="safe", seed=2, marks_with=None)
    game.game.open((4, 4))
    game.game.open((0, 0))
    assert (game.game.board == COVERED).mean() < 0.95
    with pytest.raises(CalibrationError, match="every square covered"):
        calibrate(game, "none")
    assert game.pressed == []


def test_a_bad_flag_button_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="flag_button"):
        LiveOptions(flag_button="wheel")
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", "--name", "x", "--flag-button", "wheel"])
    assert exc.value.code == 2
    assert "--flag-button" in capsys.readouterr().err
