"""The reader's shortcuts give the answers of the plain method.

- ``_settle`` decides a square from the template with the lowest bound when that
  decides; the codes must equal those of comparing every template in full.
- Given the board's pitch, a skin cut at many sizes is compared with its templates of
  about that pitch first (``_split_sq``); the codes must again equal the full comparison,
  at the board's pitch or any other, in the first look and in the shifted second look.
- Cells are sampled at places snapped to quarter pixels, so squares that are the same
  tile give the same samples even when their measured places differ by hundredths.
- A fixture pasted into a larger screen at an odd offset (other 2x2-halving and blur
  phases than the screenshot alone) is located and read exactly too.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.read
from solver.cells import COVERED, UNKNOWN
from solver.textboard import diff_boards, parse_board
from vision.geometry import BoardGeometry
from vision.locate import locate_board
from vision.read import (
    TemplateBank,
    _backgrounds,
    _decide,
    _distinct,
    _sq_distances,
    _unflat,
    bank_for,
    cell_samples,
    classify,
    forget_samples,
    read_board,
    reread_shifted,
)
from vision.skin import Image, Skin, available_skins, load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SHIFTS = ((0.0, 0.0), (3.0, 0.0), (0.0, -4.0), (7.0, 7.0), (0.5, 0.0))
"""Lattice offsets (pixels) that also give squares between cells: far from any template."""


def _load(png: Path) -> Image:
    return np.asarray(cv2.imread(str(png), cv2.IMREAD_COLOR), np.uint8)


@pytest.fixture(scope="module")
def skins() -> list[Skin]:
    return [load_skin(name) for name in available_skins()]


def _full_codes(samples: np.ndarray, bank: TemplateBank, strictness: float) -> np.ndarray:
    """Codes from the exact distance to every template (no bound, no shortcut)."""
    floats = samples.astype(np.float32)
    sq = _sq_distances(floats, bank)  # no limit: every pair compared in full
    codes, _ = _decide(sq, _backgrounds(samples), floats.shape[1], bank, strictness)
    return _unflat(floats, _backgrounds(samples), codes, bank)  # (after either path)


@pytest.mark.parametrize("case", ["gnome-mines/expert_1100x560_lost",
                                  "gnome-mines/medium_1000x900_lost",
                                  "gnome-mines/screen_won_dialog",
                                  "xdemineur/expert_lost"])
def test_shortcut_codes_equal_full_comparison(case: str, skins: list[Skin]) -> None:
    image = _load(FIXTURES / f"{case}.png")
    skin = next(s for s in skins if s.name == case.split("/")[0])
    g = locate_board(image, [skin])
    checked = 0
    for dx, dy in SHIFTS:
        samples = cell_samples(image, g.shifted(dx, dy))
        for strictness in (1.0, 1.5):
            forget_samples()
            codes, _ = classify(samples, bank_for(skin, g), strictness)
            full = _full_codes(samples, bank_for(skin, g), strictness)
            assert np.array_equal(codes, full), f"{case} shifted {dx},{dy} x{strictness}"
            for pitch in (g.pitch_x, 23.0, 34.0, 61.0):
                forget_samples()
                near_first, _ = classify(samples, bank_for(skin, g), strictness, pitch)
                assert np.array_equal(near_first, full), f"{case} {dx},{dy} pitch {pitch}"
            checked += len(samples)
    assert checked > 0


@pytest.mark.parametrize("case", ["gnome-mines/expert_1100x560_lost",
                                  "gnome-mines/medium_1000x900_lost"])
def test_shifted_second_look_near_first_equals_full(case: str, skins: list[Skin],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    image = _load(FIXTURES / f"{case}.png")
    skin = next(s for s in skins if s.name == "gnome-mines")
    g = locate_board(image, [skin])
    cells = [(r, c) for r in range(0, g.rows, 4) for c in range(1, g.cols, 4)][:40]
    bank = bank_for(skin, g)
    assert vision.read._near_bank(bank, (g.pitch_x + g.pitch_y) / 2) is not None
    near_first = reread_shifted(image, g, bank, cells)
    monkeypatch.setattr(vision.read, "NEAR_RATIO", 1e9)  # every template is near: no split
    monkeypatch.setattr(vision.read, "_NEAR", {})
    assert vision.read._near_bank(bank, (g.pitch_x + g.pitch_y) / 2) is None
    assert np.array_equal(near_first, reread_shifted(image, g, bank, cells))
    assert (near_first != UNKNOWN).sum() > len(cells) // 2


def test_same_tile_same_samples_despite_measured_jitter(skins: list[Skin]) -> None:
    skin = next(s for s in skins if s.name == "gnome-mines")
    tile = cv2.resize(skin.cells[COVERED][0], (41, 41), interpolation=cv2.INTER_AREA)
    image = np.asarray(np.tile(tile, (4, 6, 1)), np.uint8)
    jitter = (0.0, 0.02, -0.03, 0.01, 0.04, -0.02)
    lefts = tuple(41.0 * c + 0.05 + jitter[c] for c in range(6))
    tops = tuple(41.0 * r + 0.3 + jitter[r] for r in range(4))
    g = BoardGeometry("gnome-mines", 0.05, 0.3, 41.0, 41.0, 4, 6, lefts, tops)
    first, _ = _distinct(cell_samples(image, g))
    assert len(first) == 1
    forget_samples()
    assert (read_board(image, g, skin) == COVERED).all()


def test_a_templates_own_look_needs_no_comparison(skins: list[Skin],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """xdemineur's expert board is drawn at its templates' size and phase: every square
    but the lost game's two marked ones (exploded mine, wrong flag over a tile) is a
    template's own look, known from the bank without any comparison."""
    skin = next(s for s in skins if s.name == "xdemineur")
    image = _load(FIXTURES / "xdemineur/expert_lost.png")
    g = locate_board(image, [skin])
    compared: list[int] = []
    plain = vision.read._classify_floats

    def counting(samples: np.ndarray, *args: object) -> object:
        compared.append(len(samples))
        return plain(samples, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.read, "_classify_floats", counting)
    forget_samples()
    board = read_board(image, g, skin)
    expected = parse_board((FIXTURES / "xdemineur/expert_lost.board").read_text())
    assert not diff_boards(expected, board)
    assert 0 < sum(compared) <= 2
    forget_samples()
    empty = TemplateBank(**{**bank_for(skin, g).__dict__, "known": {}})
    compared.clear()
    codes, _ = classify(cell_samples(image, g), empty)
    assert sum(compared) == len(_distinct(cell_samples(image, g))[0])
    assert np.array_equal(codes.reshape(board.shape), board)


CASES = sorted(p for p in FIXTURES.glob("*/*.png") if p.with_suffix(".board").is_file())


@pytest.mark.parametrize("png", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_fixture_at_an_odd_offset_reads_exactly(png: Path, skins: list[Skin]) -> None:
    shot = _load(png)
    h, w = shot.shape[:2]
    screen = np.full((h + 300, w + 400, 3), 60, np.uint8)
    screen[197:197 + h, 311:311 + w] = shot
    here = [s for s in skins if s.name == png.parent.name] \
        if png.stem.startswith("screen_beside_") else skins
    g = locate_board(screen, here)
    forget_samples()
    board = read_board(screen, g, next(s for s in skins if s.name == g.skin))
    expected = parse_board(png.with_suffix(".board").read_text())
    assert not diff_boards(expected, board)
    assert not ((board != expected) & (board != UNKNOWN)).any()
