"""The live calibrator against a made-up game (tests/vision/calib_synth.py: its own look,
a face, a ticking clock), driven through fake screen and mouse; and the command's
offline mode and its errors."""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, lost_screen, render  # noqa: E402
from simgame import Blank  # noqa: E402

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
from vision.calibrate import missing_states, read_cells  # noqa: E402
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


class QuestionMarkedMines(SynthGame):
    """A game that draws a question-marked mine its own way after a loss (as
    gnome-mines does: a dark tile with the flag and its "?")."""

    marked: frozenset[tuple[int, int]] = frozenset()

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        before = self.game.board.copy()
        games = self.games
        super().click(p, button)
        if self.games != games:
            self.marked = frozenset()
        elif self.game.status == "lost" and not self.marked:
            hit = (before == QUESTION) & (self.game.board == MINE)
            self.marked = frozenset((int(r), int(c)) for r, c in np.argwhere(hit))
            self.losses_with_marks = getattr(self, "losses_with_marks", 0) + bool(self.marked)

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        for r, c in self.marked if self.game.status == "lost" else ():
            draw_marked_mine(img, r, c)
        return cut(img, region)


def draw_marked_mine(img: np.ndarray, r: int, c: int) -> None:
    left, top, right, bottom = LOOK.cell_box(r, c)
    cv2.rectangle(img, (left + 4, top + 4), (left + 10, top + 10), (0, 230, 230), -1)


def test_a_loss_on_purpose_names_the_question_marked_mine() -> None:
    """The calibrator loses one game with marks on proven squares: the question-marked
    mine's own look is named a mine by that loss."""
    game = QuestionMarkedMines(BoardSize(9, 9, 10), LOOK, rule="safe", seed=3)
    result = calibrate(game)
    assert getattr(game, "losses_with_marks", 0) >= 1
    board = np.full((9, 9), COVERED, np.int8)
    board[4, 4], board[0, 0], board[8, 8] = MINE, EXPLODED, 1
    image = render(board, LOOK, "lost")
    draw_marked_mine(image, 4, 4)
    g = find_lattice(render(np.full((9, 9), COVERED, np.int8), LOOK))
    assert read_cells(image, g, result.cells)[4, 4] == MINE  # type: ignore[attr-defined]


def test_a_frozen_game_stops_calibration_after_one_click() -> None:
    game = SynthGame(BoardSize(9, 9, 10), LOOK, seed=1, frozen=True)
    with pytest.raises(CalibrationError, match="changed nothing"):
        calibrate(game, redraw_timeout=0.3)
    # one right-click, then the same right-click held on the square (a game that looks
    # where the pointer is once a frame): both on one square, nothing else
    assert len(game.clicks) == 2 and game.clicks[0] == game.clicks[1]
    assert game.clicks[0][1] == "right"


def test_a_dropped_click_is_clicked_again() -> None:
    """A game that drops the first click on the board (the board stays as it was) gets
    the same click again, and calibration goes on."""
    game = SynthGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=3, drop_left=1)
    calibrate(game, redraw_timeout=0.3)
    lefts = [p for p, button in game.clicks if button == "left"]
    assert len(lefts) >= 3 and lefts[0] == lefts[1]


@pytest.mark.parametrize("rows, ones, message, clicks", [
    (0, False, "no Minesweeper board.*no edge between its squares", 0),  # (flat: a pygame board)
    (2, True, "not at the start of a game", 0),  # no look covers 40 % of the board
    (2, False, "at the start of a game", 4),  # a right-click on each common look, then
    # each again held on its square
])
def test_bad_screens_stop_at_once(rows: int, ones: bool, message: str, clicks: int) -> None:
    """A blank screen, a game well under way, a game that answers nothing: a clear
    error, and no click but a right-click on the board."""
    if rows == 0:
        image = np.full((480, 640, 3), 70, np.uint8)
    else:
        board = np.zeros((9, 9), np.int8)
        board[:rows] = COVERED
        board[rows:, ::5] = COVERED  # a few covered squares all over
        if ones:
            board[rows:, 1:5:2] = 1
            board[rows:, 7] = 1
        image = render(board, LOOK)
    fake = Blank(image)
    with pytest.raises(CalibrationError, match=message):
        LiveCalibrator(fake, fake, LiveOptions(redraw_timeout=0.3)).run()
    assert len(fake.clicks) == clicks


# ------------------------------------------------------------------ the command, offline

def lost_screens(tmp: Path) -> list[str]:
    return [lost_screen(tmp, seed) for seed in (31, 32)]


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


def test_extending_a_skin_leaves_out_screenshots_of_another_cell_size(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Cells of another size would blur the skin's templates (gnome-mines draws its
    glyphs out of proportion to its tiles): only screenshots at the skin's size
    extend it."""
    out = tmp_path / "skin"
    paths = lost_screens(tmp_path)
    assert main(["calibrate", "--name", "synth", "--from", *paths, "--out", str(out)]) == 0
    game = Game(BoardSize(16, 16, 40), "safe", seed=33)
    game.open((8, 8))
    game.open(tuple(int(v) for v in np.argwhere(game.mines & (game.board == COVERED))[0]))  # type: ignore[arg-type]
    big = tmp_path / "big.png"
    cv2.imwrite(str(big), render(game.board, Look(pitch_x=40.0, pitch_y=40.0,
                                                  size=(800, 800)), "lost"))
    capsys.readouterr()
    assert main(["calibrate", "--name", "synth", "--from", str(big), paths[0],
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "learned from 1 screenshots" in said and "left out" in said and "big.png" in said


@pytest.mark.parametrize("args, message", [
    (["--name", "../x", "--from", "a.png"], "bad skin name"),
    (["--name", "x", "--from", "missing.png"], "cannot read image"),
    (["--name", "x", "--games", "0"], "--games"),
    (["--name", "x", "--games", "3", "--max-games", "2"], "--max-games"),
    (["--name", "x", "--want", "0-9"], "unknown state"),
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


# ------------------------------------------------------------------ real games, end to end
#
# Each game is calibrated from scratch (no shipped skin in sight), by live runs only:
# an intermediate board (timed; the benchmark is docs/benchmarks.md "Calibrate"), then
# a dense board at the same cell size, where 6, 7 and 8 show (the calibrator opens the
# squares most likely to show a missing number there). No fixture screenshot is fed in.
# Then every recorded fixture of the game must read exactly with the new skin, with
# the right status, and games played with it lose none on a square called safe.

LIVE = [
    pytest.mark.live,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("dbus-daemon") is None,
                       reason="Xvfb and dbus-daemon are needed (apt: xvfb dbus)"),
]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class Plan:
    """How one game is calibrated and played in the end-to-end test: ``runs`` are
    (cols, rows, mines, window or None, extra calibrate arguments); play happens on
    the first run's board."""

    game: str
    runs: tuple[tuple[int, int, int, tuple[int, int] | None, tuple[str, ...]], ...]
    play: int = 5


# An 8 shows in about 1 dense xdemineur game in 25 (7-37 games in 8 runs of 23 Nov), a
# game takes ~1 s: 120 s let one CI run (a38826c, 127 games) end with no 8 at all
DENSE = ("--want", "0-8", "--max-games", "400", "--time-limit", "400")
PLANS = {
    "xdemineur": Plan("xdemineur", (
        (16, 16, 40, None, ()),
        (12, 10, 96, None, (*DENSE, "--mines", "96")),
    )),
    # gnome-mines scales its tiles to the window: the dense 10x10 board gets a
    # 704x560 window, which gives it the intermediate board's cell size (49.4 px)
    "gnome-mines": Plan("gnome-mines", (
        (16, 16, 40, (1000, 900), ()),
        (10, 10, 70, (704, 560), (*DENSE, "--mines", "70")),
    )),
}


@dataclass
class Calibrated:
    skin_dir: Path
    seconds: list[float]
    results: list[object]


def _launch(vd: object, game: str, cols: int, rows: int, mines: int,
            window: tuple[int, int] | None) -> object:
    from bot.realgames import launch_gnome_mines, launch_xdemineur

    if game == "xdemineur":
        return launch_xdemineur(vd, cols, rows, mines)  # type: ignore[arg-type]
    assert window is not None
    return launch_gnome_mines(vd, cols, rows, mines, *window)  # type: ignore[arg-type]


def play_with(vd: object, skin: Skin, games: int, mines: int) -> list[object]:
    from bot.loop import PlayConfig, Player
    from bot.mouse import XTestMouse
    from bot.reader import SkinReader
    from bot.screen import MssScreen

    screen, mouse = MssScreen(vd.display), XTestMouse(vd.display)  # type: ignore[attr-defined]
    try:
        return Player(screen, mouse, SkinReader([skin]), "exact",
                      PlayConfig(games=games, mines=mines, seed=1)).play()  # type: ignore[return-value]
    finally:
        screen.close()
        mouse.close()


def calibrate_from_scratch(plan: Plan, tmp: Path) -> Calibrated:
    """Every live run of ``plan`` with the shipped skins out of sight, then the games."""
    import time

    from bot.realgames import VirtualDisplay
    from vision.skin import load_skin

    out = tmp / plan.game
    seconds = []
    with pytest.MonkeyPatch.context() as mp, VirtualDisplay() as vd:
        mp.setenv("SWEEPBOT_TEMPLATES", str(tmp / "none"))
        for i, (cols, rows, mines, window, extra) in enumerate(plan.runs):
            window_ = _launch(vd, plan.game, cols, rows, mines, window)
            t0 = time.perf_counter()
            rc = main(["calibrate", "--name", plan.game, "--out", str(out), "--games", "3",
                       "--display", vd.display, "--seed", str(i), *extra])
            seconds.append(time.perf_counter() - t0)
            assert rc == 0, f"calibrate run {i} failed"
            window_.close()  # type: ignore[attr-defined]
        cols, rows, mines, window, _ = plan.runs[0]
        _launch(vd, plan.game, cols, rows, mines, window)
        results = play_with(vd, load_skin(out), plan.play, mines)
    print(f"{plan.game}: calibration runs took {[round(s, 1) for s in seconds]} s")
    return Calibrated(out, seconds, results)


_DONE: dict[str, Calibrated] = {}


@pytest.fixture(scope="module")
def calibrated(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Calibrated:
    game = request.param
    if game not in _DONE:
        _DONE[game] = calibrate_from_scratch(PLANS[game], tmp_path_factory.mktemp(game))
    return _DONE[game]


def read_fixture(skin: Skin, case: Path) -> tuple[np.ndarray, np.ndarray, str, str | None]:
    from solver.textboard import parse_board, parse_comments
    from vision.locate import locate_board

    text = case.with_suffix(".board").read_text()
    image = np.asarray(cv2.imread(str(case)), np.uint8)
    g = locate_board(image, [skin])
    return (parse_board(text), read_board(image, g, skin), read_status(image, g, skin),
            parse_comments(text).get("status"))


STILL_UNREAD: dict[str, tuple[str, bool]] = {}
"""Fixtures a skin calibrated from scratch does not read yet: the reason, and whether
it never reads (strict xfail: one that starts to read exactly fails the test until it
is taken off the list) or only in some runs. Before 22 Nov none: gnome-mines' question marks at
23-43 px (read by vision.glyph from a skin learned at 49 px) and its dense 10x10 boards
at 43 px (located through the glyph fallback) read in every run since the glyph
fallback shrinks templates at sub-pixel offsets up to 30 px and lets the part where a
flag and a question mark differ decide between them. Until 22 Nov (afternoon) some runs
left one 23 px question mark of gnome-mines/expert_1100x560_lost unknown: vision.glyph
read a square by the squares it was read with (tests/vision/test_live_skin_q1100.py)."""


def fixture_cases(game: str) -> list[Any]:
    out = []
    for case in sorted((FIXTURES / game).glob("*.png")):
        reason, strict = STILL_UNREAD.get(f"{game}/{case.stem}", ("", True))
        marks = [*LIVE, pytest.mark.xfail(reason=reason, strict=strict)] if reason else LIVE
        out.append(pytest.param(game, case, marks=marks, id=f"{game}-{case.stem}"))
    return out


@pytest.mark.parametrize("calibrated", [pytest.param(g, marks=LIVE) for g in PLANS],
                         indirect=True)
def test_calibrated_skin_has_every_state(calibrated: Calibrated) -> None:
    from vision.skin import load_skin

    assert not missing_states(load_skin(calibrated.skin_dir).cells)


@pytest.mark.parametrize("calibrated", [pytest.param(g, marks=LIVE) for g in PLANS],
                         indirect=True)
def test_calibrated_skin_wants_flags_at_a_win_as_the_game_does(calibrated: Calibrated) -> None:
    """xdemineur declares a win only once every mine is flagged (its face then gets
    sunglasses); gnome-mines at the last safe square (its dialog)."""
    import json

    skin = json.loads((calibrated.skin_dir / "skin.json").read_text())
    wants = {"xdemineur": True, "gnome-mines": False}[calibrated.skin_dir.name]
    assert skin["status"]["win_needs_flags"] is wants, skin["status"]


@pytest.mark.parametrize("calibrated, case",
                         [p for g in PLANS for p in fixture_cases(g)],
                         indirect=["calibrated"])
def test_calibrated_skin_reads_every_fixture(calibrated: Calibrated, case: Path) -> None:
    """Every square as recorded, and the status."""
    from solver.cells import STATE_NAMES
    from vision.skin import load_skin

    expected, board, status, want = read_fixture(load_skin(calibrated.skin_dir), case)
    assert board.shape == expected.shape
    wrong = [(tuple(int(v) for v in w), STATE_NAMES[int(expected[tuple(w)])],
              STATE_NAMES[int(board[tuple(w)])]) for w in np.argwhere(board != expected)]
    assert not wrong, wrong
    assert want is None or status == want


@pytest.mark.parametrize("calibrated", [pytest.param(g, marks=LIVE) for g in PLANS],
                         indirect=True)
def test_calibrated_skin_never_misreads(calibrated: Calibrated) -> None:
    """No xfail here: on every fixture, those of STILL_UNREAD included, a square the
    skin reads is read right (what it cannot read must be unknown, never a guess)."""
    from solver.cells import STATE_NAMES, UNKNOWN
    from vision.locate import BoardNotFound
    from vision.skin import load_skin

    skin = load_skin(calibrated.skin_dir)
    misread: list[tuple[object, ...]] = []
    for case in sorted((FIXTURES / calibrated.skin_dir.name).glob("*.png")):
        try:
            expected, board, _, _ = read_fixture(skin, case)
        except BoardNotFound:  # not found is not misread (STILL_UNREAD says which)
            continue
        if board.shape != expected.shape:
            misread.append((case.stem, "board", expected.shape, board.shape))
            continue
        for w in np.argwhere((board != expected) & (board != UNKNOWN)):
            misread.append((case.stem, tuple(int(v) for v in w),
                            STATE_NAMES[int(expected[tuple(w)])],
                            STATE_NAMES[int(board[tuple(w)])]))
    assert not misread, misread


@pytest.mark.parametrize("calibrated", [pytest.param(g, marks=LIVE) for g in PLANS],
                         indirect=True)
def test_calibrated_skin_plays_without_a_loss_on_a_safe_square(calibrated: Calibrated) -> None:
    results = calibrated.results
    assert len(results) >= 5
    assert not [r for r in results if r.outcome == "aborted"]  # type: ignore[attr-defined]
    assert not [r for r in results if r.outcome == "lost"  # type: ignore[attr-defined]
                and r.death_p is not None and r.death_p < 0.001]  # type: ignore[attr-defined]
