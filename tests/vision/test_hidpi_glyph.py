"""Captures drawn stretched by a HiDPI display scale, read with a skin cut at 1x.

Windows draws classic Minesweeper stretched at 125-200 % display scaling: every pixel of
the game's bitmap becomes 1.25-2 screen pixels (nearest neighbour: crisp; bilinear:
blurred). The recorded WineMine and xdemineur captures are stretched here (in memory)
and read with their shipped skins (16 and 21 px): the template reader leaves most glyph
squares unknown at such sizes, and :mod:`vision.glyph` reads them.

- Their digits, flags and mines fill the tile, so at another size they reach the frame
  of the square's central part, as their templates do: they were all left unknown (not
  framed, RING_SHARE); now a square so cut is read when a template of its state touches
  the frame the same way (``frame_profile``, RIM_TOL).
- A square's part is cut at its own rounded inset, up to a template pixel off the
  template's: the frame profiles are compared one pixel out, at and in (xdemineur at
  1.5x nearest: its mines, flags and 2s were unknown, and 3 dense boards not located).
- A glyph filling half the tile, blurred, put the per-channel median on its blurred
  edge, off the tile's colour: the background is the commonest colour when 20 % of the
  part has it (WineMine mines at 1.5x bilinear were unknown).
- A WineMine 2 (1 px strokes) stretched 1.25-1.75x and shrunk back to the template's
  height blurs into something nearer the 8 (wider strokes) than the 2: it was misread
  8; compared as it is too (``AS_THEY_ARE``), the two comparisons must agree.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import FLAG, MINE, UNKNOWN, Board
from solver.textboard import parse_board
from vision import glyph
from vision.geometry import BoardGeometry
from vision.glyph import classify_cells, glyph_bank
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import Image, Skin, load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _stretched(game: str, case: str, scale: float, interpolation: int) -> tuple[
        Image, Board]:
    image = np.asarray(cv2.imread(str(FIXTURES / game / f"{case}.png")), np.uint8)
    h, w = image.shape[:2]
    big = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=interpolation)
    return (np.ascontiguousarray(big, np.uint8),
            parse_board((FIXTURES / game / f"{case}.board").read_text()))


def _read(skin: Skin, image: Image) -> Board:
    return read_board(image, locate_board(image, [skin]), skin)


@pytest.mark.parametrize(("game", "case"), [("winmine", "expert_lost"),
                                            ("winmine", "intermediate_lost"),
                                            ("xdemineur", "beginner_lost"),
                                            ("xdemineur", "expert_lost")])
def test_twice_as_large_reads_exactly(game: str, case: str) -> None:
    """200 %, nearest neighbour: every square, mines, flags and digits included (before:
    every mine, flag and most digits unknown)."""
    image, truth = _stretched(game, case, 2.0, cv2.INTER_NEAREST)
    read = _read(load_skin(game), image)
    assert read.shape == truth.shape
    assert not (read != truth).any(), f"{int((read == UNKNOWN).sum())} unknown, " \
        f"{int(((read != truth) & (read != UNKNOWN)).sum())} misread"


@pytest.mark.parametrize("scale", [1.25, 1.5, 1.75, 2.0])
@pytest.mark.parametrize("interpolation", [cv2.INTER_NEAREST, cv2.INTER_LINEAR])
def test_stretched_winmine_never_misread(scale: float, interpolation: int) -> None:
    """No square of WineMine's expert loss is misread at any of these scales (before:
    13-36 twos read as 8 at 1.25-1.75, nearest or bilinear)."""
    image, truth = _stretched("winmine", "expert_lost", scale, interpolation)
    read = _read(load_skin("winmine"), image)
    assert read.shape == truth.shape
    bad = [(int(r), int(c)) for r, c in np.argwhere((read != truth) & (read != UNKNOWN))]
    assert not bad, f"misread {bad[:5]}"


def test_glyph_reaching_the_frame_needs_a_template_that_does() -> None:
    """A WineMine flag and mine at 2x are read though their glyph reaches the frame; the
    same squares cut half a tile off (a tile's edge along a side) stay unknown."""
    skin = load_skin("winmine")
    bank = glyph_bank(skin)
    crops = []
    for code in (FLAG, MINE):
        tile = skin.cells[code][0]
        crops.append(np.asarray(cv2.resize(tile, None, fx=2, fy=2,
                                           interpolation=cv2.INTER_NEAREST), np.uint8))
    assert not any(glyph._source(c).framed for c in crops)  # noqa: SLF001 (the premise)
    assert classify_cells(crops, bank).tolist() == [FLAG, MINE]
    board = np.hstack(crops + crops)  # flag, mine, flag, mine, 32 px each
    half = BoardGeometry("winmine", 16.0, 0.0, 32.0, 32.0, 1, 3)
    cut = [np.ascontiguousarray(board[:, 16 + 32 * c:48 + 32 * c]) for c in range(half.cols)]
    assert set(classify_cells(cut, bank).tolist()) == {UNKNOWN}


@pytest.mark.parametrize(("game", "case", "interpolation", "states"), [
    ("xdemineur", "dense_lost_1", cv2.INTER_NEAREST, (MINE, FLAG, 2)),
    ("xdemineur", "expert_lost", cv2.INTER_NEAREST, (MINE, FLAG, 2)),
    ("winmine", "expert_lost", cv2.INTER_LINEAR, (MINE,)),
])
def test_one_and_a_half_times_reads_these_states(game: str, case: str, interpolation: int,
                                                 states: tuple[int, ...]) -> None:
    """At 150 % the board is located at its size, nothing is misread, and every square
    of ``states`` is read (before: xdemineur's dense board not located, its mines, flags
    and 2s unknown; WineMine's mines unknown when blurred)."""
    image, truth = _stretched(game, case, 1.5, interpolation)
    read = _read(load_skin(game), image)
    assert read.shape == truth.shape
    assert not ((read != truth) & (read != UNKNOWN)).any()
    for state in states:
        assert (read[truth == state] == state).all(), f"state {state} not all read"


def test_a_stretched_two_is_read_as_it_is() -> None:
    """WineMine at 150 %, nearest neighbour: every square of the expert loss is read (its
    2s, shrunk back to the template's height, are nearer an 8; as they are, clearly 2s:
    the two comparisons disagreed and they were unknown)."""
    image, truth = _stretched("winmine", "expert_lost", 1.5, cv2.INTER_NEAREST)
    read = _read(load_skin("winmine"), image)
    assert read.shape == truth.shape
    assert not (read != truth).any(), f"{int((read == UNKNOWN).sum())} unknown"


def test_twice_as_large_blurred_reads_flags_and_mines() -> None:
    """WineMine at 200 %, bilinear: every flag and mine of the expert loss is read (a
    flag on its covered tile has under 30 % of its part at the tile's exact colour: the
    median, 32 off the tile's green, was taken for its background and the flag left
    unknown)."""
    image, truth = _stretched("winmine", "expert_lost", 2.0, cv2.INTER_LINEAR)
    read = _read(load_skin("winmine"), image)
    assert read.shape == truth.shape
    assert not ((read != truth) & (read != UNKNOWN)).any()
    for state in (FLAG, MINE):
        assert (read[truth == state] == state).all(), f"state {state} not all read"
