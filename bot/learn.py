"""Learn the looks of numbers the skin has not seen yet, while playing (issue #5).

A calibrated skin often lacks the rare numbers (6, 7, 8), and the reader leaves a square
it cannot name ``UNKNOWN``. When a read leaves squares unknown only where an opened
square can be (covered before, and opened by the last batch, next to a 0, or already
waiting for a name), their pixels are the same in two captures, and the skin lacks some
number, each such look (squares of identical or near-identical pixels) is an unseen
number:

* every missing number is tried for every look with the exact engine
  (:func:`solver.probability.analyse` with the mine count, or for a game of no fixed
  count :func:`solver.density.analyse_density` with its :class:`Share`: the numbers
  alone; ``InconsistentBoard`` means the name does not fit); a look is named at once
  when one number alone fits it;
* while several still fit, play opens only squares that are safe under every fitting
  hypothesis (:func:`safe_under_all`); when none is, it guesses the square least
  likely a mine over all of them, each weighted by its number of mine layouts
  (:func:`least_risky`: the exact probability given the read), or stops when
  :attr:`NumberLearner.guess` is off; a look no missing number fits stops play;
* at the game's end every mine is known (a loss shows them; at a win the squares left
  hidden are mines): each waiting look is named by its count of adjacent mines.

A named look is cut like calibrate cuts templates, written into the skin's folder with
its manifest replaced atomically (:func:`add_templates`), and the reader uses the
reloaded skin at once; later sessions load it with the skin.

>>> from solver.textboard import parse_board
>>> board = parse_board("U...")   # an unseen look at (0, 0); 0 to 2 are missing
>>> look = Look(((0, 0),), np.zeros((2, 2, 3), np.uint8))
>>> fitting(board, [look], [(0, 1, 2)], mines=1)   # a 0 would have opened (0, 1)
[(1,)]
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from bot.consistency import contradiction
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
    Cell,
    neighbour_sum,
)
from solver.density import analyse_density
from solver.probability import Analysis, InconsistentBoard, analyse
from solver.strategy import Decision
from vision.geometry import BoardGeometry

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]

MAX_HYPOTHESES = 256
"""Joint names tried at most (looks x missing numbers); beyond that no look is named."""
SAME_LOOK = 1.0
"""Two squares with a :func:`vision.calibrate.look_distance` up to this are one look."""
MISMATCH = 3
"""On a board at whole pixels, two cuts with this many pixels or more apart by
:func:`vision.calibrate.shifted_mismatch` are different glyphs (calibrate's strict
:class:`vision.calibrate.CellBank` splits looks so)."""
TEMPLATES_PER_LOOK = 2
"""Distinct cuts of one look written as templates."""


@dataclass(frozen=True)
class Share:
    """A game of no fixed mine count: each square a mine with chance ``chance``
    (:mod:`solver.density`), where a name is tried against the numbers alone."""

    chance: float


Mines = int | Share
"""What the learner weighs names by: the game's mine count, or its :class:`Share`."""


def analyse_mines(board: Board, mines: Mines) -> Analysis:
    """The exact analysis of ``board`` under the game's count, or under its share (then
    ``log_layouts`` is the log of the chance of the numbers shown, which weighs boards
    that differ in their numbers as the count's layouts do).

    >>> from solver.textboard import parse_board
    >>> board = parse_board("1.\\n..")   # one mine among three squares
    >>> round(float(np.exp(analyse_mines(board, 1).log_layouts)), 6)   # layouts of 1 mine
    3.0
    >>> round(float(np.exp(analyse_mines(board, Share(0.5)).log_layouts)), 6)   # 3 / 2**3
    0.375
    """
    if isinstance(mines, Share):
        return analyse_density(board, mines.chance)
    return analyse(board, mines)


class UnseenStop(RuntimeError):
    """Play cannot go on safely on a board with an unseen look (reason in the message)."""


@dataclass(frozen=True, eq=False)
class Look:
    """Squares that show one unseen look, and the pixels of each (template cuts)."""

    cells: tuple[Cell, ...]
    image: Image
    images: tuple[Image, ...] = ()


@dataclass(frozen=True)
class Reading:
    """What :meth:`NumberLearner.unseen` made of a read: ``board`` with the looks named
    so far filled in, one complete board per fitting hypothesis while looks wait for a
    name (else empty), whether a template was added (the reader changed), and why
    unknown squares were left alone."""

    board: Board
    boards: tuple[Board, ...] = ()
    learned: bool = False
    why: str = ""  # why the unknown squares were left as read ("" when they were not)


def missing_numbers(cells: Mapping[int, Any]) -> tuple[int, ...]:
    """The numbers a skin's cell templates lack.

    >>> missing_numbers({n: () for n in range(6)})
    (6, 7, 8)
    """
    return tuple(n for n in NUMBERS if n not in cells)


def openable(board: Board, known: Board | None, opening: set[Cell], waiting: set[Cell]) -> Mask:
    """Squares where an opened square can be now: covered before (every square before
    the first move) and opened by the last batch, next to a 0 (a flood opened it) or
    already waiting for a name.

    >>> board = np.array([[0, -7, -7, -1]], np.int8)
    >>> known = np.array([[-1, -1, -1, -1]], np.int8)
    >>> openable(board, known, set(), set()).tolist()
    [[False, True, False, False]]
    >>> openable(board, known, {(0, 2)}, set()).tolist()
    [[False, True, True, False]]
    """
    before = np.ones(board.shape, bool) if known is None else np.isin(known, (COVERED, QUESTION))
    fresh = neighbour_sum(board == 0) > 0
    for cell in opening:
        fresh[cell] = True
    wait = np.zeros(board.shape, bool)
    for cell in waiting:
        wait[cell] = True
    return np.asarray((before & fresh) | wait)


def same_look(a: Image, b: Image) -> bool:
    """Identical pixels, or the same look up to a pixel's shift (calibrate's test)."""
    if a.shape == b.shape and np.array_equal(a, b):
        return True
    from vision.calibrate import look_distance

    return look_distance(a, b) <= SAME_LOOK


def same_glyph(img: Image, templates: Sequence[Image]) -> bool:
    """Can ``img`` show the glyph of one of ``templates``, on whatever background?
    Fewer than :data:`MISMATCH` pixels of it are more than 64 levels from the
    template's, given a pixel's shift (:func:`vision.calibrate.shifted_mismatch`): for a
    board at whole pixels at the templates' pitch, where a game draws a look the same
    way on every square. The distances that forgive every pixel a match within a pixel
    (:func:`vision.shade.resembles`) cannot tell small digits on a large textured tile
    apart (kmines' graveyard-mayhem: a 5 within 0.4 of a 3 at 32 px, a 4 within 0.7 of
    a 2 at 19 px, and both within 0.3 of the question mark by ink; 16, 10 and 7
    pixels apart here, the same look 0).

    >>> three = np.zeros((8, 8, 3), np.uint8); three[2:6, 5] = 200
    >>> five = three.copy(); five[2:4, 2] = 200; five[2:4, 5] = 0
    >>> same_glyph(three + 20, [three]), same_glyph(five, [three])
    (True, False)
    """
    from vision.calibrate import shifted_mismatch

    return any(t.shape == img.shape and shifted_mismatch(t, img) < MISMATCH for t in templates)


def group_looks(cuts: Mapping[Cell, Image]) -> list[Look]:
    """Squares grouped by look (the first square of a group stands for it).

    >>> a, b = np.zeros((8, 8, 3), np.uint8), np.full((8, 8, 3), 200, np.uint8)
    >>> [look.cells for look in group_looks({(0, 0): a, (0, 1): b, (2, 2): a.copy()})]
    [((0, 0), (2, 2)), ((0, 1),)]
    """
    groups: list[tuple[Image, list[Cell], list[Image]]] = []
    for cell, img in cuts.items():
        for rep, cells, imgs in groups:
            if same_look(rep, img):
                cells.append(cell)
                if len(imgs) < TEMPLATES_PER_LOOK and not any(
                        i.shape == img.shape and np.array_equal(i, img) for i in imgs):
                    imgs.append(img)
                break
        else:
            groups.append((img, [cell], [img]))
    return [Look(tuple(cells), rep, tuple(imgs)) for rep, cells, imgs in groups]


def substitute(board: Board, looks: Sequence[Look], names: Sequence[int]) -> Board:
    """``board`` with every square of ``looks[i]`` set to ``names[i]``."""
    out = board.copy()
    for look, name in zip(looks, names, strict=True):
        for cell in look.cells:
            out[cell] = name
    return out


def solver_board(board: Board) -> Board:
    """Flags as covered squares, as the play loop solves (a player's wrong flag must not
    make the board unsolvable)."""
    return np.where(board == FLAG, COVERED, board).astype(np.int8)


def fits(board: Board, mines: Mines) -> bool:
    """Can ``board`` (no unknown square) be a settled view of a game of ``mines`` mines
    (or, under a :class:`Share`, of any count: the numbers alone)?"""
    if contradiction(board, None):
        return False
    try:
        analyse_mines(solver_board(board), mines)
    except InconsistentBoard:
        return False
    return True


def fits_as(board: Board, look: Look, code: int, mines: Mines) -> bool:
    """Does ``board`` fit (:func:`fits`) with ``look`` named ``code`` and its other
    unknown squares taken as opened squares without a number (no constraint)? A look
    of an unseen number may lie as near a number the skin knows, by every distance
    that forgives a pixel's shift, as that number drawn on another shade (kmines'
    graveyard-mayhem: a small digit on a large textured tile; a 4 within 0.7 of a 2 at
    19 px, named 2: "numbers no layout of 40 mines satisfies"); the count tells them
    apart where the distances cannot.

    >>> from solver.textboard import parse_board
    >>> board = parse_board("U.")   # an unknown look with one covered neighbour
    >>> a = Look(((0, 0),), np.zeros((2, 2, 3), np.uint8))
    >>> fits_as(board, a, 1, 1), fits_as(board, a, 2, 1)
    (True, False)
    """
    base = np.where(board == UNKNOWN, WRONG_FLAG, board).astype(np.int8)
    return fits(substitute(base, [look], [code]), mines)


def narrow(board: Board, looks: Sequence[Look], candidates: Sequence[Sequence[int]],
           mines: Mines) -> list[tuple[int, ...]]:
    """Each look's names that fit with the other looks taken as opened squares without
    a number (``WRONG_FLAG``: no constraint). That drops constraints only, so every
    name that fits jointly is kept; one name left is the look's name.

    >>> from solver.textboard import parse_board
    >>> board = parse_board("UU..")   # two looks side by side, 1 mine in all
    >>> a, b = (Look(((0, c),), np.full((2, 2, 3), c, np.uint8)) for c in (0, 1))
    >>> narrow(board, [a, b], [(1, 2), (1, 2)], 1)
    [(), (1,)]
    """
    out = []
    for i, look in enumerate(looks):
        others = [other for j, other in enumerate(looks) if j != i]
        base = substitute(board, others, [WRONG_FLAG] * len(others))
        out.append(tuple(n for n in candidates[i] if fits(substitute(base, [look], [n]), mines)))
    return out


def fitting(board: Board, looks: Sequence[Look], candidates: Sequence[Sequence[int]],
            mines: Mines) -> list[tuple[int, ...]]:
    """Every joint name of ``looks`` (one of ``candidates[i]`` each) under which the
    board fits (see :func:`fits`); empty when none does or there are more than
    :data:`MAX_HYPOTHESES` to try."""
    total = int(np.prod([len(c) for c in candidates])) if candidates else 0
    if total == 0 or total > MAX_HYPOTHESES:
        return []
    return [names for names in itertools.product(*candidates)
            if fits(substitute(board, looks, names), mines)]


def safe_under_all(boards: Sequence[Board], mines: Mines) -> Decision | None:
    """The squares safe under every hypothesis (and the mines certain under every one),
    or None when no square is safe under all of them. When only mines are left hidden
    (under any hypothesis: they all hide the same squares), a decision with no square
    to open and every hidden square a mine.

    >>> from solver.textboard import parse_board
    >>> print(safe_under_all([parse_board("1..\\n...")], 2))
    None
    >>> one, two = parse_board("1.."), parse_board("0..")
    >>> safe_under_all([one], 1).open, safe_under_all([one, two], 1)
    (((0, 2),), None)
    >>> print(safe_under_all([one], Share(0.2)))   # with no count (0, 2) may be a mine
    None
    >>> safe_under_all([parse_board("1.\\n11")], Share(0.2)).note
    'only mines are left'
    """
    first = solver_board(boards[0])
    hidden = (first == COVERED) | (first == QUESTION)
    cells = tuple((int(r), int(c)) for r, c in np.argwhere(hidden))
    if isinstance(mines, int) and len(cells) == mines:
        return Decision(open=(), mines=cells, note="only mines are left")
    safe: set[Cell] | None = None
    sure: set[Cell] | None = None
    for board in boards:
        try:
            a = analyse_mines(solver_board(board), mines)
        except InconsistentBoard:
            return None
        safe = set(a.safe) if safe is None else safe & set(a.safe)
        sure = set(a.mines) if sure is None else sure & set(a.mines)
    if cells and sure is not None and sure >= set(cells):  # (no count: the numbers prove it)
        return Decision(open=(), mines=cells, note="only mines are left")
    if not safe:
        return None
    return Decision(open=tuple(sorted(safe)), mines=tuple(sorted(sure or ())), risk=0.0,
                    note="safe under every name the unseen looks may have")


def mixed_probabilities(boards: Sequence[Board], mines: Mines) -> npt.NDArray[np.float64]:
    """Exact mine probabilities when the board is one of ``boards`` (one per joint name
    the unseen looks may have): each board's probabilities weighted by its number of
    mine layouts. Every layout fits exactly one of them (a look's squares count their
    mines), so this is the probability over every layout that agrees with the read.

    >>> from solver.textboard import parse_board
    >>> one, two = parse_board("1..\\n..."), parse_board("2..\\n...")  # 6 and 3 layouts
    >>> [round(float(x), 3) for x in mixed_probabilities([one, two], 2)[0, 1:]]
    [0.444, 0.333]
    """
    analyses = [analyse_mines(solver_board(b), mines) for b in boards]
    logs = np.array([a.log_layouts for a in analyses])
    weights = np.exp(logs - logs.max())
    weights /= weights.sum()
    return np.asarray(sum(w * a.probabilities for w, a in zip(weights, analyses, strict=True)),
                      np.float64)


def least_risky(boards: Sequence[Board], mines: Mines) -> Decision:
    """One guess: the hidden square least likely a mine over every fitting name (see
    :func:`mixed_probabilities`), the first in row-major order on a tie.

    >>> from solver.textboard import parse_board
    >>> guess = least_risky([parse_board("1..\\n..."), parse_board("2..\\n...")], 2)
    >>> guess.open, round(guess.risk, 3)
    (((0, 2),), 0.333)
    """
    first = solver_board(boards[0])
    probs = mixed_probabilities(boards, mines)
    hidden = (first == COVERED) | (first == QUESTION)
    risk = np.where(hidden, np.nan_to_num(probs, nan=1.0), np.inf)
    cell = np.unravel_index(int(np.argmin(risk)), risk.shape)
    return Decision(open=((int(cell[0]), int(cell[1])),), risk=float(risk[cell]),
                    note="a guess over every name the unseen looks may have")


def names_by_count(looks: Sequence[Look], mines: Mask, allowed: Sequence[Sequence[int]],
                   unsure: Mask | None = None) -> dict[int, int]:
    """Looks named by their squares' counts of adjacent mines (index -> number), where
    every square of the look has the same count, that count is allowed for it, and no
    square next to it is ``unsure`` (unread: it may hide a mine).

    >>> mines = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 0]], bool)
    >>> look = Look(((1, 1),), np.zeros((2, 2, 3), np.uint8))
    >>> names_by_count([look], mines, [(6, 7, 8)]), names_by_count([look], mines, [(6, 8)])
    ({0: 7}, {})
    """
    counts = neighbour_sum(mines)
    near_unsure = neighbour_sum(unsure) > 0 if unsure is not None else None
    out: dict[int, int] = {}
    for i, look in enumerate(looks):
        values = {int(counts[c]) for c in look.cells}
        if near_unsure is not None and any(near_unsure[c] for c in look.cells):
            continue
        if len(values) == 1 and next(iter(values)) in allowed[i]:
            out[i] = next(iter(values))
    return out


def fit_to(img: Image, cell_size: tuple[float, float]) -> Image:
    """A cut resized to the skin's template size (as calibrate resizes cuts)."""
    size = (max(1, round(cell_size[0])), max(1, round(cell_size[1])))
    if (img.shape[1], img.shape[0]) == size:
        return np.ascontiguousarray(img)
    return np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA), np.uint8)


def add_templates(skin: Any, added: Mapping[int, Sequence[Image]]) -> Any:
    """``skin`` with more cell templates. A skin loaded from a folder gets them written
    there (new PNGs first, then skin.json replaced atomically: an interrupted write
    leaves the old manifest whole) and is loaded again; a skin from no folder only
    gains them in memory.

    >>> import tempfile
    >>> from vision.skin import load_skin, save_skin
    >>> skin = load_skin("xdemineur")
    >>> cells = {c: v for c, v in skin.cells.items() if c != 6}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     folder = save_skin(replace(skin, cells=cells), tmp).parent
    ...     again = add_templates(load_skin(folder), {6: [skin.cells[6][0]]})
    ...     sorted(p.name for p in folder.glob("6*")), 6 in load_skin(folder).cells
    (['6_learned.png'], True)
    """
    from vision.skin import SKIN_FILE, load_skin

    added = {code: [fit_to(img, skin.cell_size) for img in imgs]
             for code, imgs in added.items() if imgs}
    named = _now_named(skin.unnamed, added)
    if skin.path is None:
        cells = dict(skin.cells)
        for code, imgs in added.items():
            cells[code] = (*cells.get(code, ()), *imgs)
        return replace(skin, cells=cells, unnamed=tuple(
            img for i, img in enumerate(skin.unnamed) if i not in named))
    folder = Path(skin.path)
    manifest = folder / SKIN_FILE
    raw = json.loads(manifest.read_text(encoding="utf-8"))
    if named and isinstance(raw.get("unnamed"), list):
        raw["unnamed"] = [f for i, f in enumerate(raw["unnamed"]) if i not in named]
    for code, imgs in added.items():
        state = STATE_NAMES[code]
        names = raw["cells"].setdefault(state, [])
        for img in imgs:
            name = _free_name(folder, f"{state}_learned")
            if not cv2.imwrite(str(folder / name), img):
                raise OSError(f"cannot write {folder / name}")
            names.append(name)
    tmp = folder / f".{SKIN_FILE}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(json.dumps(raw, indent=2) + "\n")
        out.flush()
        os.fsync(out.fileno())
    try:
        os.replace(tmp, manifest)
    finally:
        tmp.unlink(missing_ok=True)
    return load_skin(folder)


def _now_named(unnamed: Sequence[Image], added: Mapping[int, Sequence[Image]]) -> set[int]:
    """Indices of the ``unnamed`` looks within
    :data:`vision.calibrate.UNNAMED_APART` of an ``added`` template: they have a name
    now (the one a calibration would have left them)."""
    from vision.calibrate import UNNAMED_APART, look_distance

    new = [img for imgs in added.values() for img in imgs]
    return {i for i, img in enumerate(unnamed)
            if any(look_distance(img, other) <= UNNAMED_APART for other in new)}


def _free_name(folder: Path, stem: str) -> str:
    """``stem.png``, or ``stem_K.png`` for the first K not taken."""
    if not (folder / f"{stem}.png").exists():
        return f"{stem}.png"
    k = 1
    while (folder / f"{stem}_{k}.png").exists():
        k += 1
    return f"{stem}_{k}.png"


@dataclass
class _Waiting:
    """A look seen in this game with several names still fitting."""

    look: Look
    names: tuple[int, ...]


@dataclass
class NumberLearner:
    """Learns unseen number looks for a reader whose skins can be replaced (see
    :meth:`bot.reader.SkinReader.replace_skin`). ``log`` gets one line per name;
    ``learned`` lists (number, square) of every look named in the session. With
    ``guess`` off, play stops where no square is safe under every name that fits."""

    reader: Any
    log: Callable[[str], None] = lambda message: None
    guess: bool = True
    waiting: list[_Waiting] = field(default_factory=list)
    learned: list[tuple[int, Cell]] = field(default_factory=list)
    _named: list[tuple[Image, int]] = field(default_factory=list)
    _last: dict[Cell, Image] = field(default_factory=dict)

    @classmethod
    def for_reader(cls, reader: Any, log: Callable[[str], None] | None = None
                   ) -> NumberLearner | None:
        """A learner when ``reader`` can give and take skins, else None."""
        if not (callable(getattr(reader, "skin", None))
                and callable(getattr(reader, "replace_skin", None))):
            return None
        return cls(reader, log or (lambda message: None))

    def new_game(self) -> None:
        self.waiting = []
        self._last = {}

    def _missing(self, geometry: BoardGeometry) -> tuple[int, ...]:
        """The skin's missing numbers, if it can show a loss (a mine look: an unseen
        exploded mine must not pass for a number)."""
        cells = getattr(self.reader.skin(geometry), "cells", None)
        if not isinstance(cells, Mapping) or not (MINE in cells or EXPLODED in cells):
            return ()
        return missing_numbers(cells)

    def unseen(self, image: Image, geometry: BoardGeometry, board: Board, known: Board | None,
               opening: set[Cell], mines: Mines) -> Reading:
        """Name what can be named of ``board``'s unknown squares (see the module doc);
        the board unchanged when the unknown squares are not (yet) unseen numbers:
        squares seen for the first time wait for a second capture with the same pixels.
        Raises :class:`UnseenStop` when no missing number fits a look."""
        from vision.lattice import cut

        cells = [(int(r), int(c)) for r, c in np.argwhere(board == UNKNOWN)]
        if not cells:
            return Reading(board)
        cuts = {cell: cut(image, geometry, cell) for cell in cells}
        board = self._recall(board, cuts)
        board, shaded = self._by_shade(image, geometry, board, cuts, mines)
        cuts = {c: img for c, img in cuts.items() if board[c] == UNKNOWN}
        missing = self._missing(geometry)
        if not missing or not cuts:
            return Reading(board, learned=shaded, why="no number missing" if cuts else "")
        waiting = {c for w in self.waiting for c in w.look.cells}
        if known is not None:  # squares taken as opened without a number (loop fallback)
            waiting |= {(int(r), int(c)) for r, c in np.argwhere(known == WRONG_FLAG)}
        where = openable(board, known, opening, waiting)
        if not all(where[c] for c in cuts):
            return Reading(board, why=f"square {next(c for c in cuts if not where[c])} "
                                      "cannot be an opened square")
        previous, self._last = self._last, dict(cuts)
        if not all(c in previous and _same_pixels(previous[c], img) for c, img in cuts.items()):
            return Reading(board, why="not yet seen twice the same")
        return self._name(image, geometry, board, cuts, missing, mines)

    def _recall(self, board: Board, cuts: Mapping[Cell, Image]) -> Board:
        """Squares of looks named in this session (should their template not read)."""
        if not self._named:
            return board
        out = board.copy()
        for cell, img in cuts.items():
            for named, code in self._named:
                if same_look(named, img):
                    out[cell] = code
                    break
        return out

    def _cells(self, geometry: BoardGeometry) -> tuple[Mapping[int, Any], tuple[float, float]]:
        """The skin's templates by state and its template size (none: no templates)."""
        skin = self.reader.skin(geometry)
        cells = getattr(skin, "cells", None)
        if not isinstance(cells, Mapping):
            return {}, (0.0, 0.0)
        return cells, skin.cell_size

    def _by_shade(self, image: Image, geometry: BoardGeometry, board: Board,
                  cuts: Mapping[Cell, Image], mines: Mines) -> tuple[Board, bool]:
        """Squares that show a state the skin knows but on a background shade it has no
        template of (:func:`vision.shade.shaded_name`: a number learned in play on one
        shade of kmines' window and met on another), on a skin whose open squares show
        several shades: named so, and the look added to the skin (repainted onto every
        shade it knows, see :meth:`_learn`), so the reader reads it from now on. A look
        the board does not fit under that name is left unknown (:func:`fits_as`)."""
        from vision.shade import open_shades, shaded_name

        cells, size = self._cells(geometry)
        if len(open_shades(cells)) < 2:
            return board, False
        named = {cell: shaded_name(fit_to(img, size), cells) for cell, img in cuts.items()
                 if board[cell] == UNKNOWN}
        by_code: dict[int, dict[Cell, Image]] = {}
        for cell, code in named.items():
            if code is not None:
                by_code.setdefault(code, {})[cell] = cuts[cell]
        if not by_code:
            return board, False
        names = [(look, code) for code, some in by_code.items() for look in group_looks(some)]
        names = [(look, code) for look, code in names if fits_as(board, look, code, mines)]
        if not names:
            return board, False
        self._learn(geometry, names, image, how="the skin's look on another background shade")
        return substitute(board, [look for look, _ in names], [c for _, c in names]), True

    def _known_like(self, geometry: BoardGeometry, board: Board, looks: Sequence[Look],
                    mines: Mines) -> str:
        """Why no look of ``looks`` may be named a missing number: one is like a state
        the skin knows (:func:`vision.shade.resembles`: the same glyph on a background
        the skin has no template of) that the board fits it as (:func:`fits_as`), so it
        is that state or unreadable ("" if none). On a board at whole pixels at the
        skin's pitch it must also show that state's glyph (:func:`same_glyph`). (Only
        here: a look named by its shade, :meth:`_by_shade`, is held to the count alone,
        as kmines' default theme draws a 1 larger on a lighter shade.)"""
        from vision.shade import resembles

        cells, size = self._cells(geometry)
        exact = _exact(geometry, size)
        for look in looks:
            img = fit_to(look.image, size)
            like = {code: d for code, d in resembles(img, cells, tuple(cells)).items()
                    if fits_as(board, look, code, mines)
                    and (not exact or same_glyph(img, cells[code]))}
            if like:
                states = " or ".join(STATE_NAMES[c] for c in sorted(like))
                return (f"square {look.cells[0]} looks like the skin's {states} on another "
                        "background, not like a number it lacks: left unread")
        return ""

    def _allowed(self, look: Look, missing: tuple[int, ...]) -> tuple[int, ...]:
        """The names still open for ``look``: those its squares had when they waited."""
        for w in self.waiting:
            if set(look.cells) & set(w.look.cells):
                return tuple(n for n in missing if n in w.names)
        return missing

    def _name(self, image: Image, geometry: BoardGeometry, board: Board,
              cuts: Mapping[Cell, Image], missing: tuple[int, ...], mines: Mines) -> Reading:
        looks = group_looks(cuts)
        like = self._known_like(geometry, board, looks, mines)
        if like:
            return Reading(board, why=like)
        if not fits(substitute(board, looks, [WRONG_FLAG] * len(looks)), mines):
            return Reading(board, why="the board does not fit even with the unseen looks "
                                      "unconstrained (a redraw caught half-way, a misread "
                                      "or another mine count)")
        names = narrow(board, looks, [self._allowed(look, missing) for look in looks], mines)
        many = int(np.prod([len(n) for n in names])) > MAX_HYPOTHESES
        joint = [] if many else fitting(board, looks, names, mines)
        if not all(names) or (not joint and not many):
            cell = looks[next((i for i, n in enumerate(names) if not n), 0)].cells[0]
            raise UnseenStop(
                f"square {cell} shows a look the skin does not know, and no number it lacks "
                f"({', '.join(map(str, missing))}) fits the board there: stopping without "
                "clicking (nothing learned)")
        if joint:
            names = [tuple(sorted({j[i] for j in joint})) for i in range(len(looks))]
        sure = {i: ns[0] for i, ns in enumerate(names) if len(ns) == 1}
        learned = self._learn(geometry, [(looks[i], n) for i, n in sure.items()], image)
        board = substitute(board, [looks[i] for i in sure], list(sure.values()))
        rest = [i for i in range(len(looks)) if i not in sure]
        self.waiting = [_Waiting(looks[i], names[i]) for i in rest]
        if not rest:
            return Reading(board, (), learned)
        if many:  # the rest stay unknown (the loop takes them as opened, no number)
            return Reading(board, (), learned, why="too many names to try together")
        left = [looks[i] for i in rest]
        boards = {}
        for j in joint:
            b = substitute(board, left, [j[i] for i in rest])
            boards[b.tobytes()] = b
        return Reading(board, tuple(boards.values()), learned)

    def decide(self, boards: Sequence[Board], mines: Mines) -> Decision:
        """The squares safe under every hypothesis; when none is, the least risky guess
        over all of them (:func:`least_risky`, exact) or, with ``guess`` off,
        :class:`UnseenStop`."""
        decision = safe_under_all(boards, mines)
        if decision is not None:
            return decision
        if self.guess:
            return least_risky(boards, mines)
        what = "; ".join(f"square {w.look.cells[0]} may be {' or '.join(map(str, w.names))}"
                         for w in self.waiting)
        raise UnseenStop(f"a number the skin has not seen yet ({what}): no square is safe "
                         "under every name that fits, and play never guesses on a board it "
                         "cannot read (such a look is learned at a game's end)")

    def at_end(self, image: Image, geometry: BoardGeometry, status: str,
               hidden: Mask | None) -> None:
        """Name the waiting looks by their counts of adjacent mines, now that the game
        is over: a loss shows the mines (read from ``image``, the end's capture), a win
        leaves only mines hidden (``hidden``: the squares left hidden, for when a win
        message covers the board). A square next to a look that reads as nothing known
        (it may hide a mine) keeps the look unnamed."""
        waiting, self.waiting, self._last = self.waiting, [], {}
        if not waiting or status not in ("won", "lost"):
            return
        board = self.reader.read(image, geometry)
        if board.shape != (geometry.rows, geometry.cols):
            return
        other = board == UNKNOWN
        for w in waiting:
            for cell in w.look.cells:
                other[cell] = False
        if status == "lost":
            mines = np.isin(board, (MINE, EXPLODED, FLAG))
        elif other.any() and hidden is not None:
            mines, other = hidden, np.zeros_like(other)
        else:
            mines = np.isin(board, (COVERED, FLAG, QUESTION, MINE))
        looks = [w.look for w in waiting]
        named = names_by_count(looks, mines, [w.names for w in waiting], other)
        self._learn(geometry, [(looks[i], n) for i, n in named.items()])

    def _learn(self, geometry: BoardGeometry, names: Sequence[tuple[Look, int]],
               image: Image | None = None, how: str = "") -> bool:
        """Add each look as templates of its number, also repainted onto every open
        square's background shade the skin knows (:func:`vision.shade.shaded_variants`,
        as calibrate does: kmines draws its open squares translucent over a shaded
        window), and log one line each; with the capture the look was seen in, check
        the reloaded skin reads it."""
        from vision.shade import open_shades, shaded_variants, zero_shifts

        if not names:
            return False
        added: dict[int, list[Image]] = {}
        for look, code in names:
            added.setdefault(code, []).extend(look.images or (look.image,))
            self._named.append((look.image, code))
            self.learned.append((code, look.cells[0]))
        skin = self.reader.skin(geometry)
        cells, _ = self._cells(geometry)
        shades = open_shades({**cells, **added})
        moves = zero_shifts({**cells, **added})
        for code, imgs in shaded_variants(added, shades, tuple(added), shifts=moves).items():
            added[code].extend(imgs)
        new = add_templates(skin, added)
        self.reader.replace_skin(new)
        where = f" (template added to {new.path})" if getattr(new, "path", None) else ""
        how = f": {how}" if how else ""
        for look, code in names:
            r, c = look.cells[0]
            self.log(f"learned the look of {code} at ({r}, {c}){how}{where}")
        if image is not None:
            again = self.reader.read(image, geometry)
            for look, code in names:
                if any(again[c] != code for c in look.cells):
                    self.log(f"warning: the new template of {code} does not read back at "
                             f"{look.cells[0]}; it is named from memory in this session")
        return True


def _exact(geometry: BoardGeometry, size: tuple[float, float]) -> bool:
    """Is the board at whole pixels and at the pitch of the skin's templates (``size``),
    so a square's cut can be held to a template by :func:`same_glyph`?"""
    from vision.calibrate import whole_pixel

    return whole_pixel(geometry) and abs(geometry.pitch_x - size[0]) < 0.01 \
        and abs(geometry.pitch_y - size[1]) < 0.01


def _same_pixels(a: Image, b: Image) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))
