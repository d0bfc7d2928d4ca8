"""``sweepbot play`` and ``sweepbot demo``: bad input and unusable sessions give one
clear line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bot.cli import main
from bot.tkgame import Layout, read_layout

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("argv, message", [
    (["play", "--games", "0"], "--games must be at least 1"),
    (["play", "--mines", "-3"], "--mines must be at least 1"),
    (["play", "--mine-chance", "1.5"], "--mine-chance must lie strictly between 0 and 1"),
    (["play", "--mine-chance", "0"], "--mine-chance must lie strictly between 0 and 1"),
    (["play", "--heatmap", "x.png"], "--heatmap works only with --dry-run"),
    (["play", "--strategy", "magic"], "unknown strategy 'magic'"),
    (["demo", "--size", "huge"], "unknown size 'huge'"),
    (["demo", "--games", "0"], "--games must be at least 1"),
    (["demo", "--record", "out.txt"], "--record must end in .gif or .mp4"),
])
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def run_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PYTHONPATH=str(ROOT), **extra)
    return env


@pytest.mark.skipif(sys.platform != "linux", reason="X11/Wayland checks are Linux only")
def test_play_on_wayland_without_x11_says_so() -> None:
    out = run_cli(["play"], clean_env(WAYLAND_DISPLAY="wayland-0"))
    assert out.returncode == 2
    assert "Wayland" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(sys.platform != "linux", reason="X11 checks are Linux only")
def test_play_without_any_display_says_so() -> None:
    out = run_cli(["play", "--dry-run"], clean_env())
    assert out.returncode == 2
    assert "no display" in out.stderr and "sweepbot demo" in out.stderr
    assert "Traceback" not in out.stderr


def test_layout_geometry_of_the_demo_window() -> None:
    lay = Layout(9, 9)
    assert lay.cell_at(lay.board_x, lay.board_y) == (0, 0)
    assert lay.cell_at(lay.board_x + 9 * 20 - 1, lay.board_y + 9 * 20 - 1) == (8, 8)
    assert lay.cell_at(lay.board_x - 1, lay.board_y) is None
    fx, fy = lay.face
    assert fy + 26 < lay.board_y and 0 < fx < lay.width


def test_read_layout(tmp_path: Path) -> None:
    f = tmp_path / "l.txt"
    f.write_text("*..\n.*.\n")
    assert read_layout(f).tolist() == [[True, False, False], [False, True, False]]
    f.write_text("*..\n.x.\n")
    with pytest.raises(ValueError):
        read_layout(f)
    assert np.array_equal(read_layout(ROOT / "templates/classic/capture-layout.txt").shape, (9, 9))
