"""Live tests of the real-game launcher: a private Xvfb, both games, screenshots."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from bot.realgames import (
    GNOME_MINES,
    XDEMINEUR,
    XDEMINEUR_ORIGIN,
    XDEMINEUR_PITCH,
    LaunchError,
    VirtualDisplay,
    click,
    launch_gnome_mines,
    launch_xdemineur,
    missing_programs,
    move_pointer,
)

pytestmark = pytest.mark.live

BASE = ("Xvfb", "dbus-daemon", "xdotool")


def need(*programs: str) -> None:
    if missing := missing_programs(*programs):
        pytest.skip(f"not installed: {', '.join(missing)} (apt: xvfb dbus xdotool "
                    "xdemineur gnome-mines)")
    pytest.importorskip("Xlib", reason="python-xlib (dev extra) is needed for input")


def distinct_colours(image: np.ndarray) -> int:
    return len(np.unique(image.reshape(-1, 3), axis=0))


def test_display_starts_blank_and_stops() -> None:
    need(*BASE)
    with VirtualDisplay() as vd:
        assert vd.display.startswith(":")
        shot = vd.screenshot()
        assert shot.shape == (1080, 1920, 3) and shot.dtype == np.uint8
        assert distinct_colours(shot) == 1
        procs = list(vd._procs)
    assert all(p.poll() is not None for p in procs)


def test_two_displays_get_different_numbers() -> None:
    need(*BASE)
    with VirtualDisplay() as a, VirtualDisplay() as b:
        assert a.display != b.display


def test_xdemineur_window_opens_moves_and_takes_clicks() -> None:
    need(*BASE, XDEMINEUR)
    with VirtualDisplay() as vd:
        game = launch_xdemineur(vd, 12, 9, 10)
        left, top, width, height = game.rect()
        assert (width, height) == (283, 285)  # inside its 1 px X border
        game.move(300, 200)
        assert game.rect()[:2] == (301, 201)  # no window manager: border at (300, 200)
        window = game.screenshot()
        assert window.shape == (285, 283, 3) and distinct_colours(window) > 5
        ox, oy = XDEMINEUR_ORIGIN
        p = XDEMINEUR_PITCH
        for r in range(9):  # right-click every square: a flag appears on covered ones
            for c in range(12):
                click(vd, 301 + ox + p * c + p // 2, 201 + oy + p * r + p // 2, 3)
        move_pointer(vd, 5, 5)
        flagged = game.screenshot()
        red = np.all(flagged == (0, 0, 255), axis=2)[oy:, ox:]
        assert red.sum() > 50
        game.close()
        assert game.proc.poll() is not None


def test_gnome_mines_custom_size_shows_the_board() -> None:
    need(*BASE, GNOME_MINES)
    with VirtualDisplay() as vd:
        game = launch_gnome_mines(vd, 9, 9, 10, width=600, height=420)
        move_pointer(vd, game.rect()[0] + 8, game.rect()[1] + 300)
        window = game.screenshot()
        covered = np.all(window == (182, 189, 186), axis=2)
        columns = np.nonzero(covered.sum(axis=0) > 100)[0]
        runs = 1 + int((np.diff(columns) > 1).sum())
        assert runs == 9, "nine columns of covered tiles"


def test_two_gnome_mines_at_once_each_get_a_window() -> None:
    """GTK games are single-instance per D-Bus session; each launch gets its own bus."""
    need(*BASE, GNOME_MINES)
    with VirtualDisplay() as vd:
        small = launch_gnome_mines(vd, 8, 8, 10)
        medium = launch_gnome_mines(vd, 16, 16, 40, width=700, height=700)
        assert small.wid != medium.wid
        medium.move(800, 100)
        assert small.rect()[:2] == (0, 0) and medium.rect()[:2] == (800, 100)
        assert small.proc.poll() is None and medium.proc.poll() is None


def test_a_program_that_ends_before_its_window_says_why() -> None:
    """A game that cannot start (minegauler's Qt lacking libxcb-icccm4 on a fresh
    machine: "exited with code -6") is reported with what it wrote to stderr."""
    need(*BASE)
    from bot.othergames import wait_for_pid_window

    script = "import sys; print('noise'); sys.stderr.write('one\\ntwo: no xcb\\n'); sys.exit(3)"
    with VirtualDisplay() as vd:
        proc = vd.spawn([sys.executable, "-c", script])
        with pytest.raises(LaunchError, match=r"exited with code 3 before mapping a "
                                              r"window: one \| two: no xcb$"):
            wait_for_pid_window(vd, proc, timeout=10.0)
