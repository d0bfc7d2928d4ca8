"""Status and restart point from real screenshots, and the data-driven rules behind them."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import cv2
import pytest

from solver.textboard import parse_board
from vision.locate import locate_board
from vision.skin import Skin, load_skin
from vision.status import board_status, locate_restart, read_status, region_rect

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def located(case: str) -> tuple[object, object, Skin]:
    skin = load_skin(case.split("/")[0])
    image = cv2.imread(str(FIXTURES / f"{case}.png"))
    return image, locate_board(image, [skin]), skin


@pytest.mark.parametrize("case", ["xdemineur/expert_playing", "xdemineur/expert_lost",
                                  "xdemineur/beginner_start"])
def test_xdemineur_restart_is_the_face_above_the_board(case: str) -> None:
    image, g, skin = located(case)
    point = locate_restart(image, g, skin)  # type: ignore[arg-type]
    b = g.bounds()  # type: ignore[attr-defined]
    assert point is not None
    assert abs(point.x - (b.left + b.width / 2)) < 3 and b.top - 60 < point.y < b.top


def test_gnome_mines_play_again_after_a_loss_only() -> None:
    image, g, skin = located("gnome-mines/expert_900x480_lost")
    point = locate_restart(image, g, skin)  # type: ignore[arg-type]
    b = g.bounds()  # type: ignore[attr-defined]
    assert point is not None and point.x > b.left + b.width and b.top < point.y < b.top + b.height
    image, g, skin = located("gnome-mines/expert_900x480_playing")
    assert locate_restart(image, g, skin) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "status"), [
    ("1F\n11\n", "won"), ("1.\n11\n", "playing"), ("1*\n11\n", "lost"), ("1X\n11\n", "lost"),
    ("1U\n11\n", "unknown"), ("1?\n11\n", "playing"), ("W1\n11\n", "lost"),
])
def test_board_status(text: str, status: str) -> None:
    assert board_status(parse_board(text)) == status


def test_a_key_restart_has_no_point() -> None:
    image, g, skin = located("xdemineur/expert_lost")
    keyed = Skin(skin.name, skin.source, skin.cell_size, skin.cells, skin.status,
                 MappingProxyType({"kind": "key", "keys": ["F2"]}), skin.path)
    assert locate_restart(image, g, keyed) is None  # type: ignore[arg-type]


def test_face_status_reads_the_face_not_the_board() -> None:
    image, g, skin = located("xdemineur/expert_lost")
    assert read_status(image, g, skin) == "lost"  # type: ignore[arg-type]
    blank = image.copy()  # type: ignore[attr-defined]
    rect = region_rect(blank, g, skin.status["region"])  # type: ignore[arg-type]
    blank[rect.top:rect.top + rect.height, rect.left:rect.left + rect.width] = 179
    assert read_status(blank, g, skin) == "unknown"  # type: ignore[arg-type]
