"""Reading at another cell size (vision.glyph, the fallback of vision.read.read_board).

gnome-mines draws its glyphs not in proportion to its tiles, so a skin whose templates
come from ONE window size must still read every other window size: here such skins are
built from the shipped gnome-mines templates of one template size (each a window size),
or cut from the recorded screenshots of one window (as a calibration at that window
would), and every recorded gnome-mines fixture is read with them through ``read_board``.
Expected boards are the hand-checked ``.board`` files.

What such a skin cannot read, and must leave ``unknown`` (never misread):

- states it has no template of at all (e.g. no 4 among the 30 px templates);
- looks it has no template of: a hovered flag or tile (another background), a
  question-marked mine after a loss (a flag with "?" on the dark mine tile) when the
  skin only knows the plain mine.

Flags and question marks are read at every size, also by a skin whose are 8 px tall
(23 px window), where gnome-mines draws the "?" as two or three pixels
(``vision.glyph._mark_by_spot``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import cv2
import numpy as np
import pytest

from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    NUMBERS,
    QUESTION,
    STATE_NAMES,
    UNKNOWN,
    WRONG_FLAG,
    Board,
)
from solver.textboard import parse_board
from vision import glyph
from vision.geometry import BoardGeometry
from vision.glyph import (
    BG_TOL,
    MARKS,
    classify_cells,
    cut_cell,
    fill_unknown,
    glyph_bank,
    look_of,
    read_cells,
)
from vision.lattice import cut
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import Image, Skin, load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"
Case = tuple[str, Image, Board, BoardGeometry]


@pytest.fixture(scope="module")
def shipped() -> Skin:
    return load_skin("gnome-mines")


@pytest.fixture(scope="module")
def cases(shipped: Skin) -> list[Case]:
    """Every gnome-mines fixture, located with the full shipped skin."""
    out = []
    for png in sorted(FIXTURES.glob("*.png")):
        image = np.asarray(cv2.imread(str(png), cv2.IMREAD_COLOR), np.uint8)
        truth = parse_board(png.with_suffix(".board").read_text())
        out.append((png.stem, image, truth, locate_board(image, [shipped])))
    return out


def _skin(name: str, cells: Mapping[int, list[Image]], like: Skin) -> Skin:
    kept = MappingProxyType({k: tuple(v) for k, v in cells.items() if v})
    return Skin(name, "test", like.cell_size, kept, like.status, like.restart)


def one_size(shipped: Skin, px: int) -> Skin:
    """The shipped templates cut at ``px`` px, plus the flat covered and open-0 tiles
    (cut at 41 px only; a flat tile looks the same at any size)."""
    cells = {k: [i for i in v if i.shape[0] == px] for k, v in shipped.cells.items()}
    for flat in (COVERED, 0):
        cells[flat] = list(shipped.cells[flat])
    return _skin(f"{px}px", cells, shipped)


def one_window(cases: list[Case], window: str, shipped: Skin, per_state: int = 3) -> Skin:
    """Up to ``per_state`` squares of every state seen in the screenshots of one window
    (named in the fixture), cut at that window's pitch."""
    cells: dict[int, list[Image]] = {}
    for name, image, truth, g in cases:
        if f"# window {window}" not in (FIXTURES / f"{name}.board").read_text():
            continue
        for code in np.unique(truth).tolist():
            where = np.argwhere(truth == code)[::7]
            have = cells.setdefault(code, [])
            have.extend(cut(image, g, (int(r), int(c))) for r, c in where[:per_state - len(have)])
    cells.pop(UNKNOWN, None)
    return _skin(window, cells, shipped)


Tally = Counter[tuple[str, str]]


def tally(skin: Skin, cases: list[Case]) -> Tally:
    """(state, verdict) counts over every known square of every fixture; verdict is
    right, unknown, misread, or absent (state or background the skin has not)."""
    out: Tally = Counter()
    for _, image, truth, g in cases:
        board = read_board(image, g, skin)
        for (r, c), want in np.ndenumerate(truth):
            if want == UNKNOWN:
                out[("unknown", "right" if board[r, c] == UNKNOWN else "misread")] += 1
                continue
            got = board[r, c]
            name = STATE_NAMES[int(want)]
            if got not in (want, UNKNOWN):
                out[(name, "misread")] += 1
            elif got == want:
                out[(name, "right")] += 1
            elif not _has_look(skin, image, g, (r, c), int(want)):
                out[(name, "absent")] += 1
            else:
                out[(name, "unknown")] += 1
    return out


def _has_look(skin: Skin, image: Image, g: BoardGeometry, cell: tuple[int, int],
              want: int) -> bool:
    """Whether the skin has a template of state ``want`` on this square's background."""
    if want not in skin.cells:
        return False
    bg = look_of(cut_cell(image, g, cell)).backgrounds[0]
    templates = [look_of(t).backgrounds[0] for t in skin.cells[want]]
    return any(float(np.abs(bg - t).max()) <= BG_TOL for t in templates)


def share(t: Tally, state: str) -> float:
    right, unknown = t[(state, "right")], t[(state, "unknown")]
    return right / (right + unknown) if right + unknown else 1.0


SIZES = (23, 30, 34, 35, 37, 41, 43, 46, 60, 61, 62, 69)
"""Template sizes of the shipped skin with more than hovered marks (26, 31 and 49 px hold
only an 8 or hovered flags and question marks; they are read too, never misread)."""
WINDOWS = ("1000x900", "600x420", "900x480", "1100x560", "700x620")
EXACT = tuple(STATE_NAMES[n] for n in NUMBERS) + ("covered", "exploded", "wrong_flag")
"""States every single-size skin reads on every fixture (where it has their look)."""
MIN_SHARE = {"flag": 1.0, "question": 1.0, "mine": 0.985}
"""Marks and mines: least share read right (of the squares whose look the skin has).
Before ``vision.glyph._mark_by_spot``, the skins of 23 px (8 px tall marks) read 0.95 of
the flags and 0.84 of the question marks, leaving the rest unknown."""


_TALLIES: dict[int, Tally] = {}


def size_tally(px: int, shipped: Skin, cases: list[Case]) -> Tally:
    """tally() of the one-size skin of ``px``, once per test session."""
    if px not in _TALLIES:
        _TALLIES[px] = tally(one_size(shipped, px), cases)
    return _TALLIES[px]


@pytest.mark.parametrize("px", SIZES + (26, 31, 49))
def test_one_size_skin_never_misreads(px: int, shipped: Skin, cases: list[Case]) -> None:
    t = size_tally(px, shipped, cases)
    bad = {k: v for k, v in t.items() if k[1] == "misread"}
    assert not bad, f"{px} px skin misreads {bad}"


def _check_reads(name: str, t: Tally) -> None:
    assert not {k: v for k, v in t.items() if k[1] == "misread"}, f"{name} misreads"
    for state in EXACT:
        assert t[(state, "unknown")] == 0, f"{name}: {state} unknown {t[(state, 'unknown')]}"
    for state, least in MIN_SHARE.items():
        assert share(t, state) >= least, f"{name}: {state} {share(t, state):.2f} < {least}"


@pytest.mark.parametrize("px", SIZES)
def test_one_size_skin_reads_every_size(px: int, shipped: Skin, cases: list[Case]) -> None:
    _check_reads(f"{px}px", size_tally(px, shipped, cases))


@pytest.mark.parametrize("window", WINDOWS)
def test_one_window_skin_reads_every_size(window: str, shipped: Skin,
                                          cases: list[Case]) -> None:
    skin = one_window(cases, window, shipped)
    assert {FLAG, COVERED, 0, 1}.issubset(skin.cells)
    _check_reads(window, tally(skin, cases))


def test_shipped_skin_leaves_only_the_dialog_unknown(shipped: Skin,
                                                     cases: list[Case]) -> None:
    """The full skin reads every fixture exactly; the squares under the won dialog stay
    unknown through the fallback."""
    t = tally(shipped, cases)
    assert {k: v for k, v in t.items() if k[1] != "right"} == {}
    assert t[("unknown", "right")] > 0


def _mark_skin(shipped: Skin, px: int, states: tuple[int, ...]) -> Skin:
    cells = {k: [i for i in shipped.cells[k] if i.shape[0] == px] for k in states}
    return _skin("marks", cells, shipped)


def test_marks_need_both_flag_and_question(shipped: Skin) -> None:
    """With no question-mark template a question mark would pass for a flag: the
    fallback then reads no mark at all."""
    flags = [i for i in shipped.cells[FLAG] if i.shape[0] == 35]
    questions = [i for i in shipped.cells[QUESTION] if i.shape[0] == 35]
    both = glyph_bank(_mark_skin(shipped, 60, (FLAG, QUESTION, COVERED)))
    got = classify_cells(flags + questions, both).tolist()
    assert got == [FLAG] * len(flags) + [QUESTION] * len(questions)
    only_flags = glyph_bank(_mark_skin(shipped, 60, (FLAG, MINE)))
    assert set(classify_cells(flags + questions, only_flags).tolist()) == {UNKNOWN}


LIVE_MARKS = Path(__file__).resolve().parent / "live_marks"
"""Covered tiles, flags and question marks of a live gnome-mines calibration at 49 px
(1000x900 window), as it saved them: its plain question mark is the mean of the few
sub-pixel variants it saw (a little blurred)."""


def test_marks_told_apart_by_the_part_they_differ_in(shipped: Skin, cases: list[Case],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every flag and question mark of every fixture reads right with the live skin's
    marks, through either of two looks that each suffice here: the templates shrunk at
    sub-pixel offsets up to PHASED_TO (30) px, or, with offsets only up to 16 px as
    before, the part where the nearest flag and question mark differ (the "?")
    deciding where the whole glyph leaves a 23 px question mark between the two
    (MARGIN). With neither, it is unknown (never misread)."""
    cells = {code: [np.asarray(cv2.imread(str(f)), np.uint8)
                    for f in sorted(LIVE_MARKS.glob(f"{STATE_NAMES[code]}_*.png"))]
             for code in (COVERED, FLAG, QUESTION)}
    crops, want = [], []
    for _, image, truth, g in cases:
        for r, c in np.argwhere(np.isin(truth, MARKS)).tolist():
            crops.append(cut_cell(image, g, (r, c)))
            want.append(int(truth[r, c]))
    assert len(want) > 100
    pair_margin = glyph.PAIR_MARGIN

    def read(phased_to: int, pair_margin: float) -> list[int]:
        monkeypatch.setattr(glyph, "PHASED_TO", phased_to)
        monkeypatch.setattr(glyph, "PAIR_MARGIN", pair_margin)
        monkeypatch.setattr(glyph, "AS_THEY_ARE", False)  # the comparison at one height
        bank = glyph_bank(_skin(f"live marks {phased_to} {pair_margin}", cells, shipped))
        return [int(v) for v in classify_cells(crops, bank)]

    assert read(30, 0.0) == want
    assert read(16, pair_margin) == want
    alone = read(16, 0.0)
    assert UNKNOWN in alone
    assert all(got in (w, UNKNOWN) for got, w in zip(alone, want, strict=True))


def test_mine_exploded_wrong_flag_apart(shipped: Skin) -> None:
    """Same glyph on another tile (mine / wrong flag) or in another colour (exploded)."""
    states = (FLAG, QUESTION, MINE, EXPLODED, WRONG_FLAG, COVERED)
    bank = glyph_bank(_mark_skin(shipped, 60, states))
    for px in (30, 35, 43, 46):
        for state in (MINE, EXPLODED, WRONG_FLAG):
            imgs = [i for i in shipped.cells[state] if i.shape[0] == px]
            got = classify_cells(imgs, bank).tolist()
            assert set(got) <= {state, UNKNOWN} and state in got, (px, STATE_NAMES[state], got)


def test_flat_tiles_by_colour(shipped: Skin) -> None:
    """Covered, hovered covered and open 0 are flat: told apart by colour alone; a flat
    colour no template has (a dialog) is unknown."""
    plain, hover = shipped.cells[COVERED]
    zero = shipped.cells[0][0]
    bank = glyph_bank(_skin("flat", {COVERED: [plain], 0: [zero]}, shipped))
    small = [cv2.resize(i, (27, 27), interpolation=cv2.INTER_AREA) for i in (plain, zero)]
    dialog = np.full((27, 27, 3), 246, np.uint8)
    assert classify_cells(small + [hover, dialog], bank).tolist() == [COVERED, 0, UNKNOWN,
                                                                      UNKNOWN]


def test_read_cells_remembers_squares(shipped: Skin, cases: list[Case]) -> None:
    name, image, truth, g = next(c for c in cases if c[0] == "medium_700x700_playing")
    skin = one_size(shipped, 43)
    cells = [(int(r), int(c)) for r, c in np.argwhere(np.isin(truth, (1, 2, 3)))][:20]
    first = read_cells(image, g, skin, cells)
    assert first.tolist() == truth[tuple(np.array(cells).T)].tolist()
    assert len(glyph_bank(skin).memo) > 0
    assert read_cells(image, g, skin, cells).tolist() == first.tolist()


def test_fill_unknown_touches_only_unknown(shipped: Skin, cases: list[Case]) -> None:
    _, image, truth, g = next(c for c in cases if c[0] == "expert_1100x560_playing")
    board = np.full_like(truth, UNKNOWN)
    board[0, 0] = 5  # deliberately wrong, must stay as it is
    out = fill_unknown(image, g, one_size(shipped, 46), board)
    assert out is board and board[0, 0] == 5
    rest = np.ones(truth.shape, bool)
    rest[0, 0] = False
    assert ((board == truth) | (board == UNKNOWN))[rest].all()
    assert (board == truth)[rest & (truth > 0)].mean() > 0.9  # the numbers
    assert (board == UNKNOWN)[rest & (truth == COVERED)].all()  # flat: template reader's


@pytest.mark.parametrize("shift", [(0.3, 0.0), (0.0, 0.5), (0.15, 0.15)])
def test_misplaced_lattice_reads_nothing(shift: tuple[float, float], shipped: Skin,
                                         cases: list[Case]) -> None:
    """Squares cut across two tiles (the lattice off by a share of the pitch) are not
    framed by one background: the fallback leaves every one unknown."""
    skin = one_size(shipped, 60)
    for name in ("expert_1100x560_lost", "medium_1000x900_lost", "custom9x9_600x420_lost"):
        _, image, truth, g = next(c for c in cases if c[0] == name)
        moved = g.shifted(shift[0] * g.pitch_x, shift[1] * g.pitch_y)
        board = fill_unknown(image, moved, skin, np.full_like(truth, UNKNOWN))
        assert (board == UNKNOWN).all(), f"{name}: read {np.count_nonzero(board != UNKNOWN)}"


def test_window_over_the_board_misreads_nothing(shipped: Skin, cases: list[Case]) -> None:
    """A window drawn over part of the board (edges across squares, text): squares read
    by the fallback are right; the covered ones stay unknown."""
    skin = one_size(shipped, 43)
    rng = np.random.default_rng(7)
    read = 0
    for _, image, truth, g in cases:
        b = g.bounds()
        x0 = int(b.left + rng.uniform(0.2, 0.5) * b.width)
        y0 = int(b.top + rng.uniform(0.2, 0.5) * b.height)
        shot = image.copy()
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        cv2.rectangle(shot, (x0, y0), (x0 + b.width // 3, y0 + b.height // 3), colour, -1)
        cv2.putText(shot, "OK 123", (x0 + 5, y0 + 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (40, 40, 40), 2)
        board = fill_unknown(shot, g, skin, np.full_like(truth, UNKNOWN))
        assert ((board == truth) | (board == UNKNOWN)).all()
        read += int(np.count_nonzero(board != UNKNOWN))
    assert read > 500  # the uncovered squares of other sizes are still read
