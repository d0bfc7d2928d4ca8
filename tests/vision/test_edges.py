"""Google's edges (issue #5): on ``checkered.html?edges=1`` an opened square has a dark
green edge on each side it shares with a covered square, so one number showed in up
to 16 looks by which sides border covered squares (39 looks on the lost capture, 20
without edges), live calibrate left numbers unnamed and exited 2. Now the cell bank
finds the band (:func:`vision.edges.find_band`) and looks at cells without its strips.

Captures: ``tests/vision/web_checkered/`` (see ``test_locate_checkered.py``; each
``.board`` worked out from the page's mine layout, not by vision code).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import Learner, learn_from_images, look_distance
from vision.edges import EdgeBand, edged_sides, erase_strips, find_band
from vision.lattice import cut, find_lattice
from vision.read import read_board
from vision.shade import background, shaded_variants, zero_shifts
from vision.skin import Skin, load_skin

HERE = Path(__file__).resolve().parent / "web_checkered"
GOOGLE_EDGE = (0x3A, 0xAF, 0x87)  # BGR of the page's #87af3a


def _looks(name: str, learner: Learner | None = None) -> tuple[np.ndarray, np.ndarray, Learner]:
    image = load_image(HERE / f"{name}.png")
    g = find_lattice(image)
    learner = learner or Learner((30, 30))
    expected = parse_board((HERE / f"{name}.board").read_text())
    return learner.ids(image, g), expected, learner


@pytest.mark.parametrize("case", ["lost", "won", "playing"])
def test_edged_squares_make_as_many_looks_as_plain_ones(case: str) -> None:
    """Fails before: 39 looks on the edged lost capture (30 playing, 39 won) against
    20 (11, 12) plain."""
    edged, expected, learner = _looks(f"edges_{case}")
    plain, _, _ = _looks(f"plain_{case}")
    assert len(np.unique(edged)) == len(np.unique(plain))
    assert learner.bank.edge is not None
    assert np.abs(np.subtract(learner.bank.edge.colour, GOOGLE_EDGE)).max() <= 2
    for look in np.unique(edged).tolist():  # one state to a look
        assert len(np.unique(expected[edged == look])) == 1, look


def test_a_number_edged_on_any_side_is_one_look_with_the_plain_one() -> None:
    """Every opened square of the edged lost capture is the look of a plain square of
    its state and shade from the plain capture (same game, same seed)."""
    learner = Learner((30, 30))
    plain, expected, _ = _looks("plain_lost", learner)
    edged, expected_e, _ = _looks("edges_lost", learner)
    assert (expected == expected_e).all()
    assert (edged == plain).all()


def test_strips_are_found_and_erased_on_real_squares() -> None:
    """A real edged 1 (top and left edges, covered squares above and to the left)
    erased is the plain 1 of that square."""
    image, plain = load_image(HERE / "edges_lost.png"), load_image(HERE / "plain_lost.png")
    g = find_lattice(image)
    expected = parse_board((HERE / "edges_lost.board").read_text())
    band = EdgeBand(GOOGLE_EDGE, 4)
    seen = 0
    for r, c in np.argwhere(expected == 1).tolist():
        a, b = cut(image, g, (r, c)), cut(plain, g, (r, c))
        sides = edged_sides(a, band)
        assert edged_sides(b, band) == frozenset()
        assert look_distance(erase_strips(a, band), b) <= 1.0
        seen += bool(sides)
    assert seen >= 5


def test_no_band_between_different_states() -> None:
    """Two plain looks of different states are never one look without strips."""
    image = load_image(HERE / "plain_lost.png")
    g = find_lattice(image)
    expected = parse_board((HERE / "plain_lost.board").read_text())
    firsts: dict[int, np.ndarray] = {}
    for r, c in np.ndindex(*expected.shape):
        firsts.setdefault(int(expected[r, c]) * 2 + (r + c) % 2, cut(image, g, (r, c)))
    imgs = list(firsts.values())
    assert len(imgs) >= 10
    for i, a in enumerate(imgs):
        for b in imgs[i + 1:]:
            assert find_band(a, b) is None


def test_a_number_seen_on_one_beige_is_made_on_the_other() -> None:
    """Fails before (grey shifts only): the two beiges are #e5c29f and #d7b899, a
    tint apart. The skin learned live on the plain look has its 4 on both; made from
    one, the 4 on the other shade is that template."""
    skin = load_skin(HERE / "skin")
    fours = skin.cells[4]
    assert len(fours) >= 2
    assert len(zero_shifts(skin.cells)) == 2
    one = {**skin.cells, 4: (fours[0],)}
    made = shaded_variants(one, [background(fours[1])], [4])[4]
    assert len(made) == 1
    assert look_distance(made[0], fours[1]) <= 1.0


def test_edged_captures_learned_offline_read_right_in_play() -> None:
    """``calibrate --from`` on the four edged captures, its skin read by play's reader:
    nothing misread, nearly every square named (before: 38 looks, the mines never
    named)."""
    paths = sorted(HERE.glob("edges_*.png"))
    images = [load_image(p) for p in paths]
    learned = learn_from_images(images)
    skin = Skin("edged", "test", (30.0, 30.0), learned.cells, {}, {})
    named = 0
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        assert g is not None
        expected = parse_board(path.with_suffix(".board").read_text())
        read = read_board(image, g, skin)
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), path.name
        named += int(known.sum())
    assert named >= 1000  # of 4 x 252


def _depth_line_by_line(img: np.ndarray, side: str, band: EdgeBand) -> int:
    """strip_depth as first written: each line from the side inwards tested alone."""
    def near(k: int) -> bool:
        h, w, s = img.shape[0], img.shape[1], band.width
        line = {"top": img[k, s:w - s], "bottom": img[h - 1 - k, s:w - s],
                "left": img[s:h - s, k], "right": img[s:h - s, w - 1 - k]}[side]
        gap = np.abs(line.astype(np.int16) - np.array(band.colour, np.int16))
        return bool((gap <= 20).all(axis=1).mean() >= 0.9)
    depth = 0
    for k in range(band.width + 1):
        if near(k):
            depth = k + 1
        elif k > 0 or depth:
            break
    return 0 if depth > band.width or depth == 1 and not near(0) else depth


def test_strip_depth_tests_all_lines_at_once_as_it_did_one_by_one() -> None:
    # (strip_depth takes every line of a side in one array: a bank learning a skin
    # calls it hundreds of thousands of times)
    from vision.edges import band_width, strip_depth

    rng = np.random.default_rng(5)
    depths = set()
    for _ in range(400):
        h = int(rng.integers(12, 48))
        img = (rng.integers(0, 3, (h, h + int(rng.integers(-1, 2)), 3)) * 100).astype(np.uint8)
        img[:int(rng.integers(0, 8))] = 200
        img[:, img.shape[1] - int(rng.integers(0, 8)):] = 200
        if rng.random() < 0.3:
            img[0] = 0
        for _ in range(3):  # (lines partly of the band's colour, near the share wanted)
            k, frac = int(rng.integers(0, 6)), rng.uniform(0.6, 1.0)
            line = img[k] if rng.random() < 0.5 else img[:, k]
            line[rng.random(len(line)) < frac] = 200
        band = EdgeBand((200, 200, 200), band_width(img.shape))
        for side in ("top", "bottom", "left", "right"):
            want = _depth_line_by_line(img, side, band)
            assert strip_depth(img, side, band) == want, (side, img.shape)
            depths.add(want)
    assert len(depths) >= 4  # (strips of several depths were met, and none)
