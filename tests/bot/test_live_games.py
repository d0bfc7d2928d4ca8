"""End to end on real windows: xdemineur, gnome-mines and the built-in demo, each on a
private Xvfb display, played by the real loop through mss and the XTEST pointer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image as PILImage

from bot.mouse import Button, Mouse
from bot.results import GameResult
from bot.screen import ScreenPoint
from solver.game import BoardSize

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.live,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("dbus-daemon") is None,
                       reason="Xvfb and dbus-daemon are needed (apt: xvfb dbus)"),
]


class ClickLog:
    """Passes everything to a real mouse and remembers every click."""

    def __init__(self, inner: Mouse) -> None:
        self.inner = inner
        self.clicks: list[tuple[ScreenPoint, Button]] = []

    def size(self) -> tuple[int, int]:
        return self.inner.size()

    def position(self) -> ScreenPoint:
        return self.inner.position()

    def move(self, p: ScreenPoint) -> None:
        self.inner.move(p)

    def click(self, p: ScreenPoint, button: Button = "left") -> None:
        self.clicks.append((p, button))
        self.inner.click(p, button)

    def key(self, keys: str) -> None:
        self.inner.key(keys)


def play(vd, skin: str, size: BoardSize, games: int, tmp_path: Path):
    from bot.loop import PlayConfig, Player
    from bot.mouse import XTestMouse
    from bot.reader import SkinReader
    from bot.screen import MssScreen

    screen, mouse = MssScreen(vd.display), XTestMouse(vd.display)
    log = ClickLog(mouse)
    config = PlayConfig(games=games, mines=size.mines, bug_dir=tmp_path, seed=1)
    player = Player(screen, log, SkinReader.from_names([skin]), "exact", config)
    try:
        results = player.play()
    finally:
        screen.close()
        mouse.close()
    return results, log.clicks, player


def check_results(results: list[GameResult], games: int) -> None:
    assert len(results) == games, results
    for r in results:
        assert r.outcome in ("won", "lost"), r
        if r.outcome == "lost":
            assert r.death_p is not None and r.death_p >= 0.001, r


def inside(p: ScreenPoint, rect: tuple[float, float, float, float]) -> bool:
    left, top, width, height = rect
    return left <= p.x < left + width and top <= p.y < top + height


def need_skin(name: str) -> None:
    from vision.skin import available_skins

    assert name in available_skins(), f"the shipped {name} skin is missing"


@pytest.fixture
def vd():
    from bot.realgames import VirtualDisplay

    with VirtualDisplay() as display:
        yield display


def test_xdemineur_intermediate_games(vd, tmp_path: Path) -> None:
    from bot.realgames import XDEMINEUR_ORIGIN, XDEMINEUR_PITCH, launch_xdemineur

    need_skin("xdemineur")
    size = BoardSize.parse("intermediate")
    window = launch_xdemineur(vd, size.cols, size.rows, size.mines)
    results, clicks, player = play(vd, "xdemineur", size, 5, tmp_path)
    check_results(results, 5)
    left, top, _, _ = window.rect()
    board = (left + XDEMINEUR_ORIGIN[0], top + XDEMINEUR_ORIGIN[1],
             size.cols * XDEMINEUR_PITCH, size.rows * XDEMINEUR_PITCH)
    face_row = (left, top, window.rect()[2], XDEMINEUR_ORIGIN[1])  # the face is above the board
    for p, button in clicks:
        assert inside(p, board) or (button == "left" and inside(p, face_row)), p


def test_xdemineur_expert_game(vd, tmp_path: Path) -> None:
    from bot.realgames import launch_xdemineur

    need_skin("xdemineur")
    size = BoardSize.parse("expert")
    launch_xdemineur(vd, size.cols, size.rows, size.mines)
    results, clicks, _ = play(vd, "xdemineur", size, 1, tmp_path)
    check_results(results, 1)
    assert results[0].clicks == len(clicks)


def test_gnome_mines_intermediate_games(vd, tmp_path: Path) -> None:
    from bot.realgames import launch_gnome_mines

    need_skin("gnome-mines")
    size = BoardSize.parse("intermediate")
    window = launch_gnome_mines(vd, size.cols, size.rows, size.mines, 800, 700)
    results, clicks, player = play(vd, "gnome-mines", size, 5, tmp_path)
    check_results(results, 5)
    left, top, width, height = window.rect()
    g = player.geometry
    b = g.bounds()
    assert (g.rows, g.cols) == (16, 16)
    for p, _button in clicks:
        assert inside(p, (left, top, width, height)), p
    board_clicks = [p for p, _ in clicks if inside(p, (b.left, b.top, b.width, b.height))]
    assert len(board_clicks) >= len(clicks) - 4  # the rest: at most one Play Again per game


def test_demo_headless_records_a_gif(tmp_path: Path) -> None:
    gif = tmp_path / "demo.gif"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-m", "bot.cli", "demo", "--games", "2", "--size",
                          "beginner", "--seed", "3", "--record", str(gif)],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 games:" in out.stdout and "recording saved" in out.stdout
    with PILImage.open(gif) as im:
        assert im.n_frames >= 3


def cli(args: list[str], display: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=display, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_play_command_with_pyautogui_logs_each_game(vd, tmp_path: Path) -> None:
    import json

    from bot.realgames import launch_xdemineur

    need_skin("xdemineur")
    launch_xdemineur(vd, 16, 16, 40)
    log = tmp_path / "games.jsonl"
    out = cli(["play", "--skin", "xdemineur", "--games", "2", "--mouse", "pyautogui",
               "--log", str(log), "--bug-dir", str(tmp_path)], vd.display)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        assert line["outcome"] in ("won", "lost")
        assert (line["rows"], line["cols"], line["mines"]) == (16, 16, 40)
        assert line["clicks"] >= line["moves"] >= 1
        assert 0 < line["bot_seconds"] <= line["seconds"]
        assert (line["death_p"] is None) == (line["outcome"] == "won")
    assert "2 games:" in out.stdout and "win rate" in out.stdout


def test_dry_run_prints_moves_and_never_moves_the_pointer(vd, tmp_path: Path) -> None:
    from bot.realgames import launch_xdemineur, move_pointer

    need_skin("xdemineur")
    window = launch_xdemineur(vd, 16, 16, 40)
    move_pointer(vd, 700, 600)
    heat = tmp_path / "heat.png"
    before = window.screenshot()[81:]  # the board (the clock above it may tick)
    out = cli(["play", "--dry-run", "--heatmap", str(heat)], vd.display)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "board 16x16, 40 mines, skin xdemineur" in out.stdout
    # xdemineur opens a zero region itself, so the first moves may all be chords
    assert ("open row" in out.stdout or "chord row" in out.stdout) and heat.exists()
    pointer = vd.xdotool("getmouselocation", "--shell")
    assert "X=700" in pointer and "Y=600" in pointer
    assert np.array_equal(before, window.screenshot()[81:])  # nothing was clicked


@pytest.mark.skipif(shutil.which("openbox") is None, reason="openbox (apt: openbox) is needed")
def test_under_a_window_manager_every_click_lands(tmp_path: Path) -> None:
    """A desktop has a window manager, which freezes input while it handles a click
    (focus, raise): the bot must still click every square where it means to."""
    import json

    from bot.realgames import VirtualDisplay, wait_for_window

    with VirtualDisplay(window_manager=True) as wm:
        truth = tmp_path / "truth.jsonl"
        proc = wm.spawn([sys.executable, "-m", "bot.tkgame", "--size", "beginner", "--seed",
                         "8", "--log", str(truth)], env={**wm.env, "PYTHONPATH": str(ROOT)})
        wait_for_window(wm, proc, "sweepbot demo", set())
        results, clicks, _ = play(wm, "classic", BoardSize.parse("beginner"), 3, tmp_path)
        check_results(results, 3)
        import time

        time.sleep(0.3)
        seen = [json.loads(line)["outcome"] for line in truth.read_text().splitlines()]
        assert seen == [r.outcome for r in results]


def start_long_cli_play(vd, tmp_path: Path) -> subprocess.Popen[str]:
    """``sweepbot play --games 500`` on a fresh expert xdemineur, in a child process."""
    from bot.realgames import launch_xdemineur

    need_skin("xdemineur")
    launch_xdemineur(vd, 30, 16, 99)
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=vd.display, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "--games", "500",
                             "--mines", "99", "--bug-dir", str(tmp_path)], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_ctrl_c_stops_play_cleanly_between_moves(vd, tmp_path: Path) -> None:
    import signal
    import time

    proc = start_long_cli_play(vd, tmp_path)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # "found a 30x16 xdemineur board ..."
    assert "found a 30x16 xdemineur board with 99 mines" in first, first
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, out + err
    assert "stopped by Ctrl+C" in out and "Traceback" not in err
    assert "games:" in out  # the summary is still printed


def test_pushing_the_pointer_into_a_corner_stops_play(vd, tmp_path: Path) -> None:
    import time

    proc = start_long_cli_play(vd, tmp_path)
    assert proc.stdout is not None
    assert "found a 30x16" in proc.stdout.readline()
    deadline = time.monotonic() + 20
    while proc.poll() is None and time.monotonic() < deadline:
        vd.xdotool("mousemove", "0", "0")  # a hand pushing the mouse into the corner
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, out + err
    assert "fail-safe" in out or "moved by someone else" in out, out
    assert "Traceback" not in err
