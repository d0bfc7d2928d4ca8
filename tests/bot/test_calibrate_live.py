"""The live calibrator against a made-up game (tests/vision/calib_synth.py: its own look,
a face, a ticking clock), driven through fake screen and mouse; and the command's
offline mode and its errors."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, render  # noqa: E402

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.cli import main  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import (  # noqa: E402
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    UNKNOWN,
    WRONG_FLAG,
)
from solver.game import BoardSize, Game  # noqa: E402
from vision.calibrate import read_cells  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.lattice import find_lattice  # noqa: E402
from vision.read import read_board  # noqa: E402
from vision.skin import Skin  # noqa: E402
from vision.status import read_status  # noqa: E402

LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2)


def calibrate(game: SynthGame, **kw: object) -> object:
    opts = LiveOptions(**{"games": 2, "max_games": 10, "time_limit": 60.0, **kw})  # type: ignore[arg-type]
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()


def inside(p: ScreenPoint, r: PixelRect) -> bool:
    return r.left <= p.x < r.left + r.width and r.top <= p.y < r.top + r.height


def board_rect(look: Look, size: BoardSize) -> PixelRect:
    left, top, _, _ = look.cell_box(0, 0)
    _, _, right, bottom = look.cell_box(size.rows - 1, size.cols - 1)
    return PixelRect(left, top, right - left, bottom - top)


@pytest.fixture(scope="module")
def learned() -> tuple[SynthGame, object]:
    game = SynthGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=3)
    return game, calibrate(game)


def test_live_calibration_names_every_common_state(learned: tuple[SynthGame, object]) -> None:
    _, result = learned
    cells = result.cells  # type: ignore[attr-defined]
    assert {COVERED, FLAG, QUESTION, MINE, EXPLODED, WRONG_FLAG, 0, 1, 2} <= set(cells)
    assert {"won", "lost"} <= set(result.games)  # type: ignore[attr-defined]


def test_the_learned_templates_read_new_boards(learned: tuple[SynthGame, object]) -> None:
    """Read with the lattice the calibrator saw (a fresh board's), both by the
    calibrator's own matcher and by vision.read.read_board."""
    _, result = learned
    cells = result.cells  # type: ignore[attr-defined]
    skin = Skin("synth", "test", result.cell_size, cells, {}, {})  # type: ignore[attr-defined]
    g = find_lattice(render(np.full((9, 9), COVERED, np.int8), LOOK))
    for seed in (21, 22, 23):
        game = Game(BoardSize(9, 9, 10), "safe", seed=seed)
        game.open((4, 4))
        assert game.mines is not None
        safe = np.argwhere(~game.mines & (game.board == COVERED))
        game.open(tuple(int(v) for v in safe[0]))  # type: ignore[arg-type]
        game.open(tuple(int(v) for v in np.argwhere(game.mines)[0]))  # type: ignore[arg-type]
        image = render(game.board, LOOK, "lost")
        known = np.isin(game.board, list(cells))
        read = read_cells(image, g, cells)
        wrong = np.argwhere(known & (read != game.board))
        assert not len(wrong), [(tuple(w), int(game.board[tuple(w)]), int(read[tuple(w)]))
                                for w in wrong]
        # vision's own reader may leave a square unknown, but never misreads one
        theirs = read_board(image, g, skin)
        assert ((theirs == game.board) | (theirs == UNKNOWN))[known].all()
        assert (theirs == game.board)[known].mean() >= 0.9


def test_status_and_restart_are_learned(learned: tuple[SynthGame, object]) -> None:
    _, result = learned
    status, restart = result.status, result.restart  # type: ignore[attr-defined]
    assert status["method"] == "face"
    assert restart["kind"] == "click"
    skin = Skin("synth", "test", result.cell_size, result.cells, status, restart)  # type: ignore[attr-defined]
    board = np.full((9, 9), COVERED, np.int8)
    for shown in ("playing", "won", "lost"):
        image = render(board, LOOK, shown)
        assert read_status(image, find_lattice(image), skin) == shown


def test_every_click_is_on_the_board_or_the_face(learned: tuple[SynthGame, object]) -> None:
    game, _ = learned
    size = BoardSize(9, 9, 10)
    face, board = LOOK.face_rect(size.cols), board_rect(LOOK, size)
    assert game.clicks
    assert all(inside(p, board) or inside(p, face) for p, _ in game.clicks)


def test_a_game_that_wants_every_mine_flagged() -> None:
    game = SynthGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=8, win_needs_flags=True)
    result = calibrate(game)
    assert result.status["win_needs_flags"] is True  # type: ignore[attr-defined]


def test_a_frozen_game_stops_calibration_after_one_click() -> None:
    game = SynthGame(BoardSize(9, 9, 10), LOOK, seed=1, frozen=True)
    with pytest.raises(CalibrationError, match="changed nothing"):
        calibrate(game, redraw_timeout=0.3)
    assert len(game.clicks) == 1


class Blank:
    """A screen and mouse with nothing on the screen."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.clicks: list[ScreenPoint] = []
        self.pos = ScreenPoint(100, 100)

    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        return self.image

    def close(self) -> None:
        pass

    def position(self) -> ScreenPoint:
        return self.pos

    def move(self, p: ScreenPoint) -> None:
        self.pos = p

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.pos = p
        self.clicks.append(p)

    def key(self, keys: str) -> None:
        pass


@pytest.mark.parametrize("rows, message, clicks", [
    (0, "no Minesweeper board", 0),
    (3, "not at the start of a game", 0),  # no look covers half the board
    (2, "at the start of a game", 1),  # the 0s do: a right-click changes nothing
])
def test_bad_screens_stop_at_once(rows: int, message: str, clicks: int) -> None:
    """A blank screen, a game well under way: a clear error after at most one
    right-click on the board (a still screen answers none)."""
    if rows == 0:
        image = np.full((480, 640, 3), 70, np.uint8)
    else:
        board = np.zeros((9, 9), np.int8)
        board[:rows] = COVERED
        board[rows:, ::5] = COVERED  # a few covered squares all over
        if rows == 3:
            board[rows:, 1::2] = 1
        image = render(board, LOOK)
    fake = Blank(image)
    with pytest.raises(CalibrationError, match=message):
        LiveCalibrator(fake, fake, LiveOptions(redraw_timeout=0.3)).run()  # type: ignore[arg-type]
    assert len(fake.clicks) == clicks


# ------------------------------------------------------------------ the command, offline

def lost_screens(tmp: Path) -> list[str]:
    paths = []
    for seed in (31, 32):
        game = Game(BoardSize(16, 16, 40), "safe", seed=seed)
        game.open((8, 8))
        assert game.mines is not None
        for cell in np.argwhere(~game.mines & (game.board == COVERED))[:12]:
            game.open(tuple(int(v) for v in cell))  # type: ignore[arg-type]
        game.open(tuple(int(v) for v in np.argwhere(game.mines & (game.board == COVERED))[0]))  # type: ignore[arg-type]
        path = tmp / f"lost{seed}.png"
        cv2.imwrite(str(path), render(game.board, Look(size=(640, 560)), "lost"))
        paths.append(str(path))
    return paths


def test_calibrate_from_screenshots_writes_a_skin(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "skin"
    rc = main(["calibrate", "--name", "synth", "--from", *lost_screens(tmp_path),
               "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert (out / "skin.json").is_file() and (out / "contact_sheet.png").is_file()
    from vision.skin import load_skin

    skin = load_skin(out)
    assert {COVERED, MINE, EXPLODED, 1} <= set(skin.cells)
    assert "not seen yet" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--name", "../x", "--from", "a.png"], "bad skin name"),
    (["--name", "x", "--from", "missing.png"], "cannot read image"),
    (["--name", "x", "--games", "0"], "--games"),
])
def test_calibrate_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                                   message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["calibrate", *args, "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err and err.count("\n") == 1


def test_calibrate_from_an_image_with_no_board(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 300, 3), 90, np.uint8))
    rc = main(["calibrate", "--name", "x", "--from", str(blank), "--out", str(tmp_path / "o")])
    assert rc == 2
    assert "no Minesweeper board" in capsys.readouterr().err
