"""The board is found anywhere on a full screen, with no hint of where or which game."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, UNKNOWN
from solver.textboard import diff_boards, parse_board
from vision.geometry import BoardGeometry
from vision.locate import ACCEPT_KNOWN, BoardNotFound, _known_share, glyph_share, locate_board
from vision.read import read_board
from vision.skin import Image, Skin, available_skins, load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = ["xdemineur/expert_playing", "xdemineur/beginner_lost", "gnome-mines/expert_900x480_lost",
         "gnome-mines/small_playing", "gnome-mines/custom9x9_600x420_playing"]


@pytest.fixture(scope="module")
def skins() -> list[Skin]:
    return [load_skin(n) for n in available_skins()]


def load(png: Path) -> Image:
    return np.asarray(cv2.imread(str(png), cv2.IMREAD_COLOR), np.uint8)


def on_desktop(shot: Image, x: int, y: int) -> Image:
    """A 1920x1080 desktop (grey gradient, another window) with ``shot`` at (x, y)."""
    ramp = np.linspace(20, 120, 1920, dtype=np.float32)[None, :, None]
    desk = np.broadcast_to(ramp, (1080, 1920, 3)).astype(np.uint8).copy()
    cv2.rectangle(desk, (40, 700), (500, 1000), (240, 240, 240), -1)
    h, w = shot.shape[:2]
    desk[y:y + h, x:x + w] = shot
    return desk


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("offset", [(0, 0), (333, 171), (1920 - 960, 1080 - 560)])
def test_found_anywhere_on_the_screen(case: str, offset: tuple[int, int],
                                      skins: list[Skin]) -> None:
    png = FIXTURES / f"{case}.png"
    shot = load(png)
    x = min(offset[0], 1920 - shot.shape[1])
    y = min(offset[1], 1080 - shot.shape[0])
    alone = locate_board(shot, skins)
    g = locate_board(on_desktop(shot, x, y), skins)
    assert (g.skin, g.rows, g.cols) == (alone.skin, alone.rows, alone.cols)
    assert abs(g.x0 - alone.x0 - x) < 0.5 and abs(g.y0 - alone.y0 - y) < 0.5
    assert abs(g.pitch_x - alone.pitch_x) < 0.05 and abs(g.pitch_y - alone.pitch_y) < 0.05
    skin = next(s for s in skins if s.name == g.skin)
    expected = parse_board(png.with_suffix(".board").read_text())
    assert diff_boards(expected, read_board(on_desktop(shot, x, y), g, skin)) == []


def test_fractional_uneven_pitch_is_measured(skins: list[Skin]) -> None:
    png = FIXTURES / "gnome-mines" / "expert_900x480_lost.png"
    g = locate_board(load(png), skins)
    comments = dict(line[2:].split(" ", 1) for line in png.with_suffix(".board").read_text()
                    .splitlines() if line.startswith("# "))
    px, py = (float(v) for v in comments["pitch"].split("x"))
    assert abs(g.pitch_x - px) < 0.05 and abs(g.pitch_y - py) < 0.05
    cells = comments["cells"]  # "x=A..B y=C..D": first to last tile, image pixels
    x_first = float(cells.split()[0][2:].split("..")[0])
    y_last = float(cells.split()[1][2:].split("..")[1])
    first = g.cell_rect((0, 0))
    last = g.cell_rect((g.rows - 1, 0))
    assert first.left <= x_first <= first.left + first.width
    assert last.top <= y_last <= last.top + last.height


@pytest.mark.parametrize("image", [
    np.zeros((1080, 1920, 3), np.uint8),
    np.random.default_rng(1).integers(0, 256, (600, 800, 3), dtype=np.uint8),
    np.full((50, 50, 3), 179, np.uint8),
])
def test_no_board_raises_board_not_found(image: np.ndarray, skins: list[Skin]) -> None:
    with pytest.raises(BoardNotFound, match="no Minesweeper board"):
        locate_board(image, skins)


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((9, 9, 3), np.float32),
                                 "not an image"])
def test_wrong_input_raises_board_not_found(bad: object, skins: list[Skin]) -> None:
    with pytest.raises(BoardNotFound, match="expected"):
        locate_board(bad, skins)  # type: ignore[arg-type]


# ------------------------------------------ a skin of one cell size on another size's board
#
# A skin learned live at one window size has templates of that size only. On the dense
# gnome-mines boards (43 px squares, mostly numbers) its template reader knows too few
# squares to accept the lattice; the glyph fallback reads the rest (issue #5).

DENSE = ["gnome-mines/dense_lost_1", "gnome-mines/dense_lost_2", "gnome-mines/dense_lost_3"]


def one_size(shipped: Skin, px: int) -> Skin:
    """The shipped gnome-mines templates cut at ``px`` px, plus every flat covered and
    open-0 tile (a flat tile looks the same at any size)."""
    cells = {k: tuple(i for i in v if i.shape[0] == px) for k, v in shipped.cells.items()}
    for flat in (COVERED, 0):
        cells[flat] = shipped.cells[flat]
    kept = MappingProxyType({k: v for k, v in cells.items() if v})
    return Skin(f"{px}px", "test", shipped.cell_size, kept, shipped.status, shipped.restart)


@pytest.mark.parametrize("px", [23, 46, 60])
@pytest.mark.parametrize("case", DENSE)
def test_a_one_size_skin_locates_another_size_by_glyph(case: str, px: int,
                                                      skins: list[Skin]) -> None:
    shipped = next(s for s in skins if s.name == "gnome-mines")
    skin = one_size(shipped, px)
    png = FIXTURES / f"{case}.png"
    shot = load(png)
    want = locate_board(shot, [shipped])
    assert _known_share(shot, want, skin) < ACCEPT_KNOWN  # the template reader alone: no
    expected = parse_board(png.with_suffix(".board").read_text())
    for x, y in ((0, 0), (333, 171)):
        image = shot if (x, y) == (0, 0) else on_desktop(shot, x, y)
        g = locate_board(image, [skin])
        assert (g.skin, g.rows, g.cols) == (skin.name, want.rows, want.cols)
        assert abs(g.x0 - want.x0 - x) < 1 and abs(g.y0 - want.y0 - y) < 1
        assert abs(g.pitch_x - want.pitch_x) < 0.1 and abs(g.pitch_y - want.pitch_y) < 0.1
        board = read_board(image, g, skin)
        assert not ((board != expected) & (board != UNKNOWN)).any()
        assert (board == expected).mean() >= 0.9


@pytest.mark.parametrize("shift", [(21.5, 0.0, 1.0), (0.0, 21.5, 1.0), (7.0, 7.0, 1.0),
                                   (0.0, 0.0, 1.5), (0.0, 0.0, 2.0), (0.0, 0.0, 2 / 3),
                                   (0.0, 0.0, 0.5)])
def test_glyphs_do_not_accept_a_wrong_lattice(shift: tuple[float, float, float],
                                              skins: list[Skin]) -> None:
    """A lattice off the squares (half a pitch, 7 px) or of another pitch cuts squares
    across tiles: the glyph reader leaves them unknown."""
    shipped = next(s for s in skins if s.name == "gnome-mines")
    skin = one_size(shipped, 60)
    shot = load(FIXTURES / f"{DENSE[0]}.png")
    right = locate_board(shot, [shipped])
    dx, dy, k = shift
    n = 14 if k < 1 else int(10 / k)  # inside the 10x10 board's picture
    g = BoardGeometry(skin.name, right.x0 + dx, right.y0 + dy, right.pitch_x * k,
                      right.pitch_y * k, n, n)
    assert glyph_share(shot, g, skin) < ACCEPT_KNOWN / 2
    assert glyph_share(shot, BoardGeometry(skin.name, right.x0, right.y0, right.pitch_x,
                                           right.pitch_y, 10, 10), skin) > 0.9
