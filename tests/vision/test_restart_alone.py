"""A new-game control that shows with no board: minesweeper-mvc's menu.

``mvc_menu/menu.png`` is real: minesweeper-mvc 1.1.0 (PyPI, pygame) on Xvfb with
openbox, its menu as it shows at start and after every game, cropped round its five
buttons. The ``restart_*.png`` are the control's looks as ``sweepbot calibrate``
learned them: ``restart_0`` what the end's "YOU LOSE!" showed where the control is,
``restart_1`` and ``restart_2`` the MEDIUM button as clicked (no board showed, so the
skin says they show alone). The MEDIUM button, measured on the capture by its flat
colour (157, 123, 69): x 86..235, y 92..141, the four others at the same x, 60 px
apart.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.screen import load_image
from vision.skin import Skin
from vision.status import locate_restart_alone

HERE = Path(__file__).resolve().parent / "mvc_menu"
MEDIUM = (86, 92, 150, 50)  # left, top, width, height: measured, see above


def skin(alone: object) -> Skin:
    looks = tuple(load_image(HERE / f"restart_{i}.png") for i in range(3))
    return Skin("mvc", "test", (40.0, 40.0), {}, {},
                {"kind": "click", "templates": looks, "alone": alone})


def test_the_medium_button_is_found_alone_on_the_menu() -> None:
    point = locate_restart_alone(load_image(HERE / "menu.png"), skin([1, 2]))
    assert point is not None
    left, top, width, height = MEDIUM
    assert left + 0.4 * width <= point.x <= left + 0.6 * width
    assert top + 0.4 * height <= point.y <= top + 0.6 * height


def test_nothing_is_clicked_without_a_look_that_shows_alone() -> None:
    menu = load_image(HERE / "menu.png")
    assert locate_restart_alone(menu, skin([])) is None  # (no look shows alone)
    assert locate_restart_alone(menu, skin([0])) is None  # (the message's look)


def test_two_buttons_alike_are_not_guessed_between() -> None:
    menu = load_image(HERE / "menu.png")
    left, top, width, height = MEDIUM
    twice = np.concatenate([menu, menu], axis=1)  # two menus side by side
    assert locate_restart_alone(twice, skin([1, 2])) is None
    assert locate_restart_alone(menu[:, :left + width + 10], skin([1, 2])) is not None
