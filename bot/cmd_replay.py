"""``sweepbot replay``: read saved screenshots and print their boards.

Example: ``sweepbot replay tests/fixtures/xdemineur/*.png`` prints every board; where a
``.board`` file sits beside a screenshot, the differences are printed and the exit code
is 1 if there are any. ``--json`` prints one object per file (``file, skin, status,
rows, cols, board, mismatches, read_ms``). ``--heatmap OUT.png`` writes the screenshot
with the solver's mine probability on every covered square (several files: one
``OUT-<name>.png`` each). Bad input (unreadable image, no board, unknown skin): one
line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from bot.consistency import over_mined, zero_beside_covered
from solver.cells import COVERED, FLAG, QUESTION, UNKNOWN, Board
from solver.textboard import (
    BoardFormatError,
    diff_boards,
    format_board,
    parse_board,
    parse_comments,
)
from vision.geometry import BoardGeometry
from vision.jpeg import JpegCoding
from vision.margin import MARGIN, with_margin
from vision.skin import Image, Skin

HELP = "read saved screenshots and print their boards"
PREFIX = "sweepbot replay: "

SIZE_MINES = {(9, 9): 10, (16, 16): 40, (16, 30): 99, (8, 8): 10}
"""Mine count of the usual presets by (rows, cols): the classic three and gnome-mines'
8x8."""


class BadInput(ValueError):
    """Input the command cannot use; the message is the one line printed."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="screenshot files (PNG)")
    parser.add_argument("--skin", help="read with this skin only (default: every skin)")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    parser.add_argument("--heatmap", metavar="OUT.png",
                        help="write the screenshot with mine probabilities drawn on it")
    parser.add_argument("--mines", type=str, default=None,
                        help="total mines, for --heatmap (default: the .board's '# mines', "
                             "else the preset of that size)")


def load_image(path: Path) -> Image:
    """A BGR image from a file, or BadInput (missing, not an image, truncated)."""
    from PIL import Image as PILImage

    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    try:
        with PILImage.open(path) as img:
            img.load()
            rgb = np.asarray(img.convert("RGB"))
    except (OSError, ValueError, SyntaxError) as exc:
        raise BadInput(f"{path}: not a readable image ({exc})") from None
    return np.ascontiguousarray(rgb[:, :, ::-1])


def is_lossy_file(path: Path) -> bool:
    """Whether the screenshot file is lossy (a JPEG, whatever its name)."""
    from vision.lossy import is_jpeg

    with open(path, "rb") as f:
        return is_jpeg(f.read(3))


def load_skins(name: str | None) -> list[Skin]:
    from vision.skin import SkinError, available_skins, load_skin

    try:
        names = [name] if name else available_skins()
        if not names:
            raise BadInput("no skins found (templates folder missing?)")
        return [load_skin(n) for n in names]
    except SkinError as exc:
        raise BadInput(str(exc)) from None


def expected_board(path: Path) -> tuple[Board | None, dict[str, str]]:
    """The ``.board`` beside the screenshot (None if absent) and its comments."""
    board_path = path.with_suffix(".board")
    if not board_path.is_file():
        return None, {}
    text = board_path.read_text(encoding="utf-8", errors="replace")
    try:
        return parse_board(text), parse_comments(text)
    except BoardFormatError as exc:
        raise BadInput(f"{board_path}: {exc}") from None


@dataclass(frozen=True)
class Reading:
    file: str
    skin: str
    status: str
    geometry: BoardGeometry
    board: Board
    mismatches: list[str] | None
    locate_ms: float
    read_ms: float
    margin: int = 0  # pixels of margin added round the screenshot to find its board

    def as_json(self) -> dict[str, object]:
        return {"file": self.file, "skin": self.skin, "status": self.status,
                "rows": self.geometry.rows, "cols": self.geometry.cols,
                "board": format_board(self.board).splitlines(),
                "mismatches": self.mismatches, "locate_ms": round(self.locate_ms, 3),
                "read_ms": round(self.read_ms, 3)}


def read_file(path: Path, image: Image, skins: list[Skin], lossy: bool = False) -> Reading:
    """The board in the screenshot, read with the skin that explains it best. A lossy
    capture (``lossy``: a JPEG) is read in the views :func:`vision.lossy.lossy_views`
    gives; the reading with the most known squares wins; a board that is part of the
    capture's template-free lattice is widened to it, or refused; where no view shows
    a board to the locator, the lattice is read with a skin of its size. A board too
    small to be a game (a few squares of a larger board, found in a capture the
    templates do not match) is BadInput, never a board."""
    from vision.locate import BoardNotFound

    views = [(image, skins)]
    lattice = None
    if lossy:
        from vision.lossy import lattice_board, lossy_views

        views = lossy_views(image, skins)
        lattice = lattice_board(image)
    readings: list[Reading] = []
    first: Exception | None = None
    for view, some in views:
        try:
            readings.append(_read_view(path, view, some, lattice))
        except (BoardNotFound, BadInput) as exc:
            first = first or exc
    if not readings and lattice is not None:
        readings = _read_lattice(path, image, views, lattice)
    if not readings:
        raise BadInput(f"{path}: {first}") from None
    best = max(readings, key=_known)
    if lattice is not None:
        _refuse_split(path, image, best, lattice)
    return _recoded(path, image, best, skins) if lossy else best


def _recoded(path: Path, image: Image, reading: Reading, skins: list[Skin]) -> Reading:
    """``reading`` with the squares it left unknown named by encoding each look the way
    the JPEG ``image`` was (:func:`vision.jpeg.name_by_recoding`), when the board so
    named still shows nothing a game cannot (:func:`check_whole`)."""
    from vision.jpeg import name_by_recoding
    from vision.status import board_status

    coding = _coding(path) if (reading.board == UNKNOWN).any() else None
    if coding is None:
        return reading
    t0 = time.perf_counter()
    skin = next(s for s in skins if s.name == reading.skin)
    g = reading.geometry
    board = name_by_recoding(image, g.shifted(-reading.margin, -reading.margin), skin,
                             reading.board, coding)
    try:
        check_whole(board, g, skin)
    except BadInput:
        return reading
    expected, _ = expected_board(path)
    status = reading.status
    if status == "unknown" and skin.status.get("method", "board") == "board":
        status = board_status(board)
    return replace(reading, board=board, status=status,
                   mismatches=None if expected is None else diff_boards(expected, board),
                   read_ms=reading.read_ms + (time.perf_counter() - t0) * 1000)


def _refuse_split(path: Path, image: Image, reading: Reading, lattice: BoardGeometry) -> None:
    """BadInput when the board read lies in the capture's ``lattice`` and that is one
    side of a board a window over it splits (:func:`vision.lossy.split_board`): the rest
    lies beyond the window, and what is under the window reads as nothing a game shows
    (with the skin learned from gnome-mines' JPEGs, the left 9 of its won 24x10 under a
    dialog were printed as the board, and widened, the dialog read as 0s)."""
    from vision.lossy import offset_in, split_board

    g = reading.geometry.shifted(-reading.margin, -reading.margin)
    if offset_in(g, lattice) is None:
        return  # (a board beyond the lattice: the skin found more than the lattice)
    whole = split_board(image, lattice)
    if whole is None or offset_in(g, whole) is None:
        return
    raise BadInput(f"{path}: no board read with confidence (the {g.cols}x{g.rows} squares "
                   f"read are one side of a board of {whole.cols}x{whole.rows} squares with "
                   "a window over it: close the window, or capture the board whole)")


def _read_lattice(path: Path, capture: Image, views: list[tuple[Image, list[Skin]]],
                  lattice: BoardGeometry) -> list[Reading]:
    """The template-free ``lattice`` named after a skin of its cell size in each view
    (:func:`vision.lattice.name_lattice`) and read, where no skin's locator finds a
    board; where no view reads enough of it, a JPEG's lattice is named in the last view
    (the capture restored to its own colours) with the squares each phase leaves
    unknown named by recoding (:func:`_recoded_share`): a won WineMine 9x9 in a JPEG
    shows too little of its flat colours for the locator at any quality, and read in
    place its numbers and flags are pale (31 % of its squares read). There the lattice
    is also tried at the skin's cell size (minegauler's lost 9x9 at quality 60: found
    at 16.19 px a square for 16)."""
    from vision.lattice import NEAR_PHASES, name_lattice

    readings = []
    for view, skins in views:
        g = name_lattice(view, lattice, skins)
        if g is None:
            continue
        skin = next(s for s in skins if s.name == g.skin)
        try:
            readings.append(_read_at(path, view, g, skin, 0, time.perf_counter()))
        except BadInput:
            continue
    coding = None if readings else _coding(path)
    if coding is None:
        return readings
    view, skins = views[-1]
    g = name_lattice(view, lattice, skins, phases=NEAR_PHASES, resize=True,
                     share=lambda named, skin: _recoded_share(view, capture, named, skin,
                                                              coding))
    if g is None:
        return []
    try:
        return [_read_at(path, view, g, next(s for s in skins if s.name == g.skin), 0,
                         time.perf_counter())]
    except BadInput:
        return []


def _coding(path: Path) -> JpegCoding | None:
    """The JPEG coding of the file (:func:`vision.jpeg.jpeg_coding`), None if not a JPEG."""
    from vision.jpeg import jpeg_coding

    return jpeg_coding(path.read_bytes())


def _recoded_share(view: Image, capture: Image, g: BoardGeometry, skin: Skin,
                   coding: JpegCoding) -> float:
    """The share of ``g``'s squares known once those the reader leaves unknown in
    ``view`` are named by recoding them in ``capture`` (the JPEG decoded;
    :func:`vision.jpeg.name_by_recoding`), in place only (squares named a pixel off
    would make every phase near the right one read alike); 0 when ``g`` leaves the
    image."""
    from vision.jpeg import name_by_recoding
    from vision.read import read_board

    b = g.bounds()
    if b.left < 0 or b.top < 0 or b.left + b.width > view.shape[1] \
            or b.top + b.height > view.shape[0]:
        return 0.0
    board = name_by_recoding(capture, g, skin, read_board(view, g, skin), coding, shifts=())
    return float((board != UNKNOWN).mean())


MIN_SIDE = 4
"""A board of fewer rows or columns is taken for a misreading, not a game (the smallest
preset of any game is 8x8; a lossy capture's stray lattice of a few squares read 3x2)."""


def _read_view(path: Path, image: Image, skins: list[Skin],
               lattice: BoardGeometry | None = None) -> Reading:
    """The board the skins' locator finds in ``image``, read. Given the capture's
    template-free ``lattice`` (:func:`vision.lossy.lattice_board`, a lossy capture's),
    a board that is a part of it is widened to it (:func:`vision.lossy.widened`): a
    board with squares missing is never printed as the board (minegauler's won 16x16
    at quality 90 was printed as its top-left 10x6, a won WineMine 9x9 was refused as
    9x8)."""
    from vision.lossy import widened

    t0 = time.perf_counter()
    margin, geometry = locate_in(image, skins)
    image = with_margin(image, margin) if margin else image
    skin = next(s for s in skins if s.name == geometry.skin)
    lattice = None if lattice is None else lattice.shifted(margin, margin)
    wide = None if lattice is None else widened(geometry, lattice)
    if wide is not None and (wide.rows, wide.cols) != (geometry.rows, geometry.cols):
        return _read_wide(path, image, geometry, wide, skin, margin, t0)
    if min(geometry.rows, geometry.cols) < MIN_SIDE:
        raise BadInput(f"no board read with confidence (only {geometry.cols}x"
                       f"{geometry.rows} squares found: a lossy or resized capture?)")
    reading = _read_at(path, image, geometry, skin, margin, t0)
    return reading if lattice is None else _trim_blank(path, image, reading, lattice, skin)


BLANK_READS = (0, UNKNOWN)
"""What a window's plain margin reads as, when a skin's 0 is one flat colour near it."""


def _trim_blank(path: Path, image: Image, reading: Reading, lattice: BoardGeometry,
                skin: Skin) -> Reading:
    """``reading`` cut to the squares it shares with the template-free ``lattice`` when
    every other square reads 0 or unknown (:data:`BLANK_READS`), and widened to the
    lattice when that leaves a part of it (:func:`_read_wide`): a lossy capture restored
    to its own colours snaps a window's plain margin to the colour of gnome-mines' flat
    0 (a won 8x8 was read 9x10, a row of 0s above it and a column at its right; another
    as its top 6 rows and two columns of the margin)."""
    from vision.lossy import grid_offset, trimmed, widened

    g = reading.geometry
    at = grid_offset(lattice, g)
    if at is None or (lattice.rows, lattice.cols) == (g.rows, g.cols):
        return reading
    r0, c0 = max(at[0], 0), max(at[1], 0)
    r1, c1 = min(at[0] + lattice.rows, g.rows), min(at[1] + lattice.cols, g.cols)
    if r0 >= r1 or c0 >= c1 or (r1 - r0, c1 - c0) == (g.rows, g.cols):
        return reading  # (no square shared, or the board is a part: see _read_view)
    outside = np.ones(reading.board.shape, bool)
    outside[r0:r1, c0:c1] = False
    if not np.isin(reading.board[outside], BLANK_READS).all():
        return reading
    inner = trimmed(g, r0, c0, r1 - r0, c1 - c0)
    wide = widened(inner, lattice)
    t0 = time.perf_counter()
    if wide is None or (wide.rows, wide.cols) == (inner.rows, inner.cols):
        return _read_at(path, image, inner, skin, reading.margin, t0)
    return _read_wide(path, image, inner, wide, skin, reading.margin, t0)


def _read_at(path: Path, image: Image, geometry: BoardGeometry, skin: Skin, margin: int,
             t0: float) -> Reading:
    """The board at ``geometry`` read with ``skin`` (``image`` with the ``margin``
    added), or BadInput when it shows what no game shows."""
    from vision.read import read_board
    from vision.status import read_status

    t1 = time.perf_counter()
    board = read_board(image, geometry, skin)
    t2 = time.perf_counter()
    check_whole(board, geometry, skin)
    expected, _ = expected_board(path)
    mismatches = None if expected is None else diff_boards(expected, board)
    return Reading(str(path), skin.name, read_status(image, geometry, skin), geometry, board,
                   mismatches, (t1 - t0) * 1000, (t2 - t1) * 1000, margin)


def check_whole(board: Board, geometry: BoardGeometry, skin: Skin) -> None:
    """BadInput when ``board`` (read at ``geometry`` with ``skin``) shows what no game
    shows: a number cut at the board's edge, a 0 beside a covered square, a number with
    more mines shown round it."""
    short = cut_numbers(board)
    if short:
        r, c = short[0]
        raise BadInput(f"no board read with confidence (the {geometry.rows}x{geometry.cols} "
                       f"squares found are not a whole board: the number at (row, col) = "
                       f"({r}, {c}) has fewer squares around it that could hold a mine; "
                       "a resized capture?)")
    # a skin with no covered square's look reads a covered square as whatever it is
    # nearest (minegauler's skin learned from JPEGs at quality 60: as 0, its numbers
    # unknown); an unknown square beside a 0 may then be one
    seen = board if COVERED in skin.cells else np.where(board == UNKNOWN, COVERED, board)
    zero = np.argwhere(zero_beside_covered(seen))
    if len(zero):
        r, c = (int(v) for v in zero[0])
        raise BadInput(f"no board read with confidence (the square at (row, col) = ({r}, "
                       f"{c}) reads 0 next to a covered square, which no game shows: a "
                       "misread square, or the board found a line off; a lossy capture?)")
    over = np.argwhere(over_mined(board))
    if len(over):
        r, c = (int(v) for v in over[0])
        raise BadInput(f"no board read with confidence (the square at (row, col) = ({r}, "
                       f"{c}) reads {board[r, c]} with more mines shown around it, which no "
                       "game shows: a misread square; a lossy capture?)")


WIDE_KNOWN = 0.4
"""A board widened to its lattice (:func:`_read_wide`) is kept only when at least this
share of the squares it gained reads as known (the locator's own bar for a board)."""


def _read_wide(path: Path, image: Image, part: BoardGeometry, wide: BoardGeometry,
               skin: Skin, margin: int, t0: float) -> Reading:
    """The board at ``wide``, a lattice ``part`` lies in, read with ``skin``; BadInput
    when the squares ``part`` lacks do not read (:data:`WIDE_KNOWN`)."""
    from vision.lossy import offset_in

    reading = _read_at(path, image, wide, skin, margin, t0)
    r0, c0 = offset_in(part, wide) or (0, 0)
    gained = np.ones(reading.board.shape, bool)
    gained[r0:r0 + part.rows, c0:c0 + part.cols] = False
    if int((reading.board[gained] != UNKNOWN).sum()) < WIDE_KNOWN * int(gained.sum()):
        raise BadInput(f"no board read with confidence (the {part.cols}x{part.rows} "
                       f"squares read are part of a lattice of {wide.cols}x{wide.rows} "
                       "squares whose other squares do not read: a lossy capture?)")
    return reading


def _known(reading: Reading) -> int:
    return int((reading.board != UNKNOWN).sum())


def cut_numbers(board: Board) -> list[tuple[int, int]]:
    """The squares read as a number n with fewer than n neighbours that could hold a
    mine (any square not read as an opened number: covered, flagged, shown mines,
    unknown): no game draws one, but a board found a column short does, where that
    column's mines are missing (a resized WineMine ``beginner_won``, 0.8x or
    1.25x, was printed 9x8). A wrongly placed flag is no contradiction here.

    >>> cut_numbers(np.array([[2, -1], [1, 1]], np.int8))
    [(0, 0)]
    >>> cut_numbers(np.array([[1, -1], [1, 1]], np.int8))
    []
    """
    from vision.calibrate import adjacent_count

    room = adjacent_count(board < 0)
    return [(int(r), int(c)) for r, c in np.argwhere((board >= 0) & (room < board))]


def locate_in(image: Image, skins: list[Skin]) -> tuple[int, BoardGeometry]:
    """The board in ``image``, or else in ``image`` with a margin around it (a
    screenshot cropped to the board's very edge: :mod:`vision.margin`): the margin
    added (0: none) and the board's geometry in the pixels of the image it was found in.
    Raises the BoardNotFound of the image as given when neither finds a board."""
    from vision.locate import BoardNotFound, locate_board

    try:
        return 0, locate_board(image, skins)
    except BoardNotFound as first:
        try:
            return MARGIN, locate_board(with_margin(image), skins)
        except BoardNotFound:
            raise first from None


def mine_count(reading: Reading, path: Path, given: str | None) -> int:
    if given is not None:
        try:
            return int(given)
        except ValueError:
            raise BadInput(f"--mines must be a whole number, got {given!r}") from None
    _, comments = expected_board(path)
    if "mines" in comments:
        try:
            return int(comments["mines"])
        except ValueError:
            raise BadInput(f"{path.with_suffix('.board')}: bad '# mines' comment") from None
    size = (reading.geometry.rows, reading.geometry.cols)
    if size in SIZE_MINES:
        return SIZE_MINES[size]
    raise BadInput(f"{path}: cannot tell the mine count of a {size[1]}x{size[0]} board; "
                   "pass --mines N")


def draw_heatmap(image: Image, g: BoardGeometry, board: Board,
                 probs: npt.NDArray[np.float64]) -> Image:
    """The screenshot with every covered square tinted green (safe) to red (mine) and
    labelled with its percentage; certain squares get a white 'S' or 'M'."""
    out = image.copy()
    for r, c in np.argwhere(np.isin(board, (COVERED, QUESTION))).tolist():
        p = float(probs[r, c])
        rect = g.cell_rect((r, c))
        x0, y0 = rect.left + 1, rect.top + 1
        x1, y1 = rect.left + rect.width - 2, rect.top + rect.height - 2
        colour = np.array([40.0, 200 * (1 - p) + 20, 220 * p + 20])
        patch = out[y0:y1 + 1, x0:x1 + 1].astype(np.float64)
        out[y0:y1 + 1, x0:x1 + 1] = (0.35 * patch + 0.65 * colour).astype(np.uint8)
        text = "S" if p == 0.0 else "M" if p == 1.0 else f"{round(100 * p)}"
        scale = max(0.25, min(rect.width, rect.height) / 60)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        org = (rect.left + (rect.width - tw) // 2, rect.top + (rect.height + th) // 2)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1,
                    cv2.LINE_AA)
        if text in ("S", "M"):
            cv2.rectangle(out, (x0, y0), (x1, y1), (255, 255, 255), 1)
    return out


def heatmap_path(out: str, source: Path, several: bool) -> Path:
    target = Path(out)
    if not several:
        return target
    return target.with_name(f"{target.stem}-{source.stem}{target.suffix or '.png'}")


def write_heatmap(reading: Reading, image: Image, path: Path, args: argparse.Namespace,
                  several: bool) -> Path:
    from solver.probability import mine_probabilities

    mines = mine_count(reading, path, args.mines)
    try:
        probs = mine_probabilities(reading.board, mines)
    except ValueError as exc:
        # a player's flags may be wrong: drop them and try again
        unflagged = np.where(reading.board == FLAG, COVERED, reading.board).astype(np.int8)
        try:
            probs = mine_probabilities(unflagged, mines)
        except ValueError:
            raise BadInput(f"{path}: no mine probabilities for this board: {exc}") from None
        probs = np.where(reading.board == FLAG, np.nan, probs)
    target = heatmap_path(args.heatmap, path, several)
    m = reading.margin
    drawn = draw_heatmap(with_margin(image, m) if m else image, reading.geometry,
                         reading.board, probs)
    if not cv2.imwrite(str(target), drawn[m:drawn.shape[0] - m, m:drawn.shape[1] - m]):
        raise BadInput(f"{target}: cannot write the heat map")
    return target


def report(reading: Reading, as_json: bool) -> None:
    if as_json:
        print(json.dumps(reading.as_json()))
        return
    g = reading.geometry
    print(f"== {reading.file}: {reading.skin}, {g.cols}x{g.rows}, {reading.status}, "
          f"located in {reading.locate_ms:.1f} ms, read in {reading.read_ms:.2f} ms")
    print(format_board(reading.board), end="")
    if reading.mismatches is not None:
        if reading.mismatches:
            print(f"{len(reading.mismatches)} differences from the .board:")
            for line in reading.mismatches:
                print(f"  {line}")
        else:
            print("matches the .board")


def cut_warning(reading: Reading, image: Image) -> str | None:
    """What to tell a user whose capture shows a board cut by a window's edge or the
    screen's (:func:`vision.cut.cut_sides`): the board printed is the part that shows."""
    from vision.cut import cut_message, cut_sides

    m = reading.margin
    sides = cut_sides(with_margin(image, m) if m else image, reading.geometry)
    if not sides:
        return None
    return f"{cut_message(reading.geometry, sides)} (read: the part that shows)"


def run(args: argparse.Namespace) -> int:
    try:
        skins = load_skins(args.skin)
    except BadInput as exc:
        print(PREFIX + str(exc), file=sys.stderr)
        return 2
    try:
        return _run_all(args, skins)
    except BrokenPipeError:  # e.g. piped into head
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep Python quiet at exit
        return 0


def _run_all(args: argparse.Namespace, skins: list[Skin]) -> int:
    worst = 0
    paths = [Path(p) for p in args.paths]
    for path in paths:
        try:
            image = load_image(path)
            reading = read_file(path, image, skins, is_lossy_file(path))
            report(reading, args.json)
            warning = cut_warning(reading, image)
            if warning:
                print(f"{PREFIX}{path}: {warning}", file=sys.stderr)
            if args.heatmap:
                target = write_heatmap(reading, image, path, args, len(paths) > 1)
                if not args.json:
                    print(f"heat map: {target}")
        except BadInput as exc:
            print(PREFIX + str(exc), file=sys.stderr)
            worst = 2
            continue
        if reading.mismatches:
            worst = max(worst, 1)
    return worst
