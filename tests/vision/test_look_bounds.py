"""The colour-range bounds that let a cell bank skip looks a new image cannot match
(:mod:`vision.look_bounds`).

``mvc_bank/`` holds real captures of minesweeper-mvc 1.1.0 (PyPI, pygame, on Xvfb),
cropped to its 16x16 board of 40 px squares: ``board.png`` a game in play, ``lose.png``
its "YOU LOSE!" screen, ``menu.png`` the menu that comes next in the board's place.
Reading the menu, every square a look of its own, once took calibrate a minute on a
loaded machine: each new square was compared in full with every look before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import vision.calibrate as calibrate
from bot.screen import load_image
from vision.calibrate import CellBank, Learner, look_distance
from vision.edges import EdgeBand, band_width, erase_strips, strip_colours
from vision.geometry import BoardGeometry
from vision.lattice import cut
from vision.look_bounds import LookBounds

HERE = Path(__file__).resolve().parent / "mvc_bank"
BOARD = BoardGeometry("mvc", 0.0, 0.0, 40.0, 40.0, 16, 16)
FRAMES = ("board", "lose", "menu")


def cells(name: str) -> list[np.ndarray]:
    image = load_image(HERE / f"{name}.png")
    return [cut(image, BOARD, (r, c)) for r in range(16) for c in range(16)]


def pairs() -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every square of the board with a square of each frame, some near, most far."""
    board = cells("board")
    for name in FRAMES:
        for i, b in enumerate(cells(name)[::7]):
            yield board[(5 * i) % len(board)], b
    rng = np.random.default_rng(5)
    for _ in range(40):  # (shifted and noisy copies: near, not equal)
        a = board[int(rng.integers(len(board)))]
        b = np.roll(a, int(rng.integers(-1, 2)), axis=int(rng.integers(2)))
        noise = rng.integers(-3, 4, a.shape)
        yield a, np.clip(b.astype(int) + noise, 0, 255).astype(np.uint8)


def test_the_bounds_never_exceed_the_distance() -> None:
    for a, b in pairs():
        bounds = LookBounds()
        bounds.add(a)
        width = band_width(b.shape)
        whole, inner = bounds.lower(b, width)
        assert whole[0] <= look_distance(a, b) + 1e-9
        for colour in strip_colours(a) + strip_colours(b):
            band = EdgeBand(colour, width)
            erased = look_distance(erase_strips(a, band), erase_strips(b, band))
            assert inner[0] <= erased + 1e-9


def test_a_look_of_another_shape_is_never_compared() -> None:
    bounds = LookBounds()
    bounds.add(np.zeros((10, 10, 3), np.uint8))
    whole, inner = bounds.lower(np.zeros((12, 12, 3), np.uint8), 2)
    assert whole[0] == inner[0] == np.inf


def read_all(learner: Learner) -> list[np.ndarray]:
    return [learner.ids(load_image(HERE / f"{name}.png"), BOARD) for name in FRAMES]


@pytest.fixture
def comparisons(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the full comparisons a bank makes."""
    count = [0]
    real = calibrate.look_distance

    def counted(a: np.ndarray, b: np.ndarray) -> float:
        count[0] += 1
        return real(a, b)

    monkeypatch.setattr(calibrate, "look_distance", counted)
    return count


def test_the_bank_reads_the_same_with_fewer_comparisons(
        comparisons: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = read_all(Learner((40, 40), CellBank(strict=True)))
    with_bounds = comparisons[0]
    looks = int(max(ids.max() for ids in fast)) + 1

    def no_bounds(self: LookBounds, img: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
        return np.zeros(len(self.shapes)), np.zeros(len(self.shapes))

    monkeypatch.setattr(LookBounds, "lower", no_bounds)
    comparisons[0] = 0
    slow = read_all(Learner((40, 40), CellBank(strict=True)))
    assert all(np.array_equal(a, b) for a, b in zip(fast, slow, strict=True))
    assert looks > 150  # (the menu: nearly every square a look of its own)
    assert with_bounds * 10 < comparisons[0]
