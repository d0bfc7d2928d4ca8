"""Skins: the look of one Minesweeper game, loaded from ``templates/<skin>/skin.json``.

A skin is pure data: one or more template images per cell state, plus a description
of how the game shows its status and how to start a new game. Everything game-specific
in ``vision`` is driven by this data, so a skin written by ``save_skin`` (e.g. by the
calibration tool) works with ``locate_board``, ``read_board`` and ``read_status``.

``skin.json`` keys (see also templates/README.md):

- ``name``, ``source``: identification.
- ``cell_size``: ``[pitch_x, pitch_y]`` of the lattice the cell templates were cut from.
- ``cells``: state name (``solver.cells.STATE_NAMES``) -> list of PNG files, each one
  cell's pitch square.
- ``status``: how the game shows playing / won / lost. ``method`` is one of

  * ``"face"``: a face button; ``templates`` maps ``playing``/``won``/``lost`` to PNG
    lists, searched inside ``region`` (see below). The best match under
    ``threshold`` (root mean squared difference, 0-255 scale, default 10) gives the
    status.
  * ``"board"``: from the cells: won when ``templates`` (``{"won": [...]}``,
    optional: a dialog) are found in ``region``, lost when ``templates["lost"]``
    (optional: a message that fills the board at a loss showing no mine) are;
    else lost when a ``mine``/``exploded``/``wrong_flag`` square is visible, won when
    no square is left covered, question-marked or unknown; otherwise playing.

- ``unnamed`` (optional): PNG files of looks calibrate saw on boards but could not
  name (gnome-mines' question mark, a flag with a tiny "?", when no game showed what
  it is): a square nearest one of them reads as ``unknown``, not as the named look it
  is next nearest to.
- ``mine_counts`` (optional): the game's mine count by board size, as calibrate saw
  it at the ends of games: a list of ``{"rows": R, "cols": C, "mines": N}``;
  ``"mines": null`` says games of that size had different counts (none is fixed);
  such an entry may add ``"share": P``, the mean share of squares that were mines,
  for play to take each square a mine with that chance.
- ``restart``: how to start the next game. ``kind`` is ``"click"`` (click the best
  match of ``templates`` (a PNG list) inside ``region``) or ``"key"`` (press ``keys``,
  e.g. ``["ctrl+n"]``; nothing to click). ``"alone"``: the control shows with no
  board on the screen (a menu the game returns to after each game, as
  minesweeper-mvc does): a list of the indices of the ``templates`` it shows there
  (``true``: all of them); play clicks it when it finds no board. ``"told"``: the
  control the user named with ``calibrate --restart-at``, as ``{"offset": [dx, dy],
  "size": [rows, cols], "pitch": [px, py]}`` (its centre from the board's top-left
  corner, image pixels); play clicks it on a board of that size and pitch when no
  template shows (a face that looks its own way at a win calibration never saw).

``region`` is ``[[fx0, dx0, fy0, dy0], [fx1, dx1, fy1, dy1]]``: the rectangle with
corners ``(left + fx * width + dx, top + fy * height + dy)`` relative to the board's
bounds, in image pixels; absent means the whole image.
Status and restart templates are matched at their stored size (window furniture
does not scale with the board) unless ``"scale_with_board": true``.

In a loaded :class:`Skin`, every ``templates`` value holds images instead of file
names: a tuple of BGR arrays, or a mapping of label to such tuples.

>>> skin = load_skin("xdemineur")
>>> skin.name, skin.cell_size
('xdemineur', (21.0, 21.0))
>>> from solver.cells import COVERED
>>> skin.cells[COVERED][0].shape
(21, 21, 3)
>>> "xdemineur" in available_skins()
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import CODE_BY_NAME, STATE_NAMES, UNKNOWN

Image = npt.NDArray[np.uint8]

SKIN_FILE = "skin.json"


class SkinError(ValueError):
    """A skin that is missing or malformed; the message names the file and the problem."""


@dataclass(frozen=True, eq=False)
class Skin:
    """One game's look. ``cells`` maps a cell code to its template images (BGR)."""

    name: str
    source: str
    cell_size: tuple[float, float]
    cells: Mapping[int, tuple[Image, ...]]
    status: Mapping[str, Any]
    restart: Mapping[str, Any]
    path: Path | None = None
    mine_counts: Mapping[tuple[int, int], int | None] = field(
        default_factory=lambda: MappingProxyType({}))
    """The mine count by board size ``(rows, cols)`` (None: not fixed), see
    :func:`skin_mines`."""
    mine_shares: Mapping[tuple[int, int], float] = field(
        default_factory=lambda: MappingProxyType({}))
    """For sizes of no fixed count: the share of squares that were mines."""
    unnamed: tuple[Image, ...] = ()
    """Looks seen on boards that have no name: a square nearest one reads as unknown."""


def skin_mines(skin: Any, rows: int, cols: int) -> int | None:
    """The mine count ``skin`` learned for boards of ``rows`` x ``cols`` squares, if any.

    >>> skin = Skin("ace", "", (24.0, 24.0), {}, {}, {}, mine_counts={(16, 16): 45})
    >>> skin_mines(skin, 16, 16), skin_mines(skin, 9, 9)
    (45, None)
    """
    counts = getattr(skin, "mine_counts", None) or {}
    value = counts.get((rows, cols))
    return int(value) if value is not None else None


def templates_root() -> Path:
    """The folder holding one sub-folder per skin (env ``SWEEPBOT_TEMPLATES`` overrides)."""
    env = os.environ.get("SWEEPBOT_TEMPLATES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "templates"


def available_skins() -> list[str]:
    """Names of the skins under :func:`templates_root`, sorted."""
    root = templates_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / SKIN_FILE).is_file())


def _read_png(folder: Path, name: str) -> Image:
    path = folder / name
    if not path.is_file():
        raise SkinError(f"{folder / SKIN_FILE}: template {name!r} does not exist")
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise SkinError(f"{path}: not a readable image")
    return np.ascontiguousarray(img)


def _load_templates(value: Any, folder: Path, where: str) -> Any:
    """File-name lists (or label -> file-name lists) to image tuples."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(_read_png(folder, v) for v in value)
    if isinstance(value, dict):
        return MappingProxyType({str(k): _load_templates(v, folder, f"{where}.{k}")
                                 for k, v in value.items()})
    raise SkinError(f"{folder / SKIN_FILE}: {where} must be a list of PNG names "
                    "or a mapping of label to such lists")


def _load_section(raw: Any, folder: Path, key: str) -> Mapping[str, Any]:
    if raw is None:
        return MappingProxyType({})
    if not isinstance(raw, dict):
        raise SkinError(f"{folder / SKIN_FILE}: {key!r} must be an object")
    out = dict(raw)
    if "templates" in out:
        out["templates"] = _load_templates(out["templates"], folder, f"{key}.templates")
    return MappingProxyType(out)


def _load_cells(raw: Any, folder: Path) -> Mapping[int, tuple[Image, ...]]:
    if not isinstance(raw, dict) or not raw:
        raise SkinError(f"{folder / SKIN_FILE}: 'cells' must be a non-empty object")
    cells: dict[int, tuple[Image, ...]] = {}
    for state, files in raw.items():
        code = CODE_BY_NAME.get(str(state))
        if code is None or code == UNKNOWN:
            raise SkinError(f"{folder / SKIN_FILE}: unknown cell state {state!r} "
                            f"(allowed: {', '.join(n for n in CODE_BY_NAME if n != 'unknown')})")
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            raise SkinError(f"{folder / SKIN_FILE}: cells.{state} must be a list of PNG names")
        if files:
            cells[code] = tuple(_read_png(folder, f) for f in files)
    return MappingProxyType(cells)


def _load_unnamed(raw: Any, folder: Path) -> tuple[Image, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(f, str) for f in raw):
        raise SkinError(f"{folder / SKIN_FILE}: 'unnamed' must be a list of PNG names")
    return tuple(_read_png(folder, f) for f in raw)


_Counts = tuple[Mapping[tuple[int, int], int | None], Mapping[tuple[int, int], float]]


def _load_mine_counts(raw: Any, folder: Path) -> _Counts:
    """``mine_counts`` as (count by size, share by size)."""
    bad = SkinError(f"{folder / SKIN_FILE}: 'mine_counts' must be a list of "
                    '{"rows": R, "cols": C, "mines": N or null} (with null, an optional '
                    '"share" between 0 and 1)')
    if raw is None:
        return MappingProxyType({}), MappingProxyType({})
    if not isinstance(raw, list):
        raise bad
    counts: dict[tuple[int, int], int | None] = {}
    shares: dict[tuple[int, int], float] = {}
    for entry in raw:
        if not isinstance(entry, dict) or "mines" not in entry:
            raise bad
        rows, cols, mines = entry.get("rows"), entry.get("cols"), entry.get("mines")
        share = entry.get("share")
        if not (isinstance(rows, int) and isinstance(cols, int) and rows > 0 and cols > 0) \
                or not (mines is None or (isinstance(mines, int) and mines > 0)) \
                or not (share is None or (mines is None and isinstance(share, (int, float))
                                          and 0 < share < 1)):
            raise bad
        counts[(rows, cols)] = mines
        if share is not None:
            shares[(rows, cols)] = float(share)
    return MappingProxyType(counts), MappingProxyType(shares)


def _resolve(name_or_path: str | os.PathLike[str]) -> Path:
    text = os.fspath(name_or_path)
    candidate = Path(text)
    if candidate.is_file() and candidate.name == SKIN_FILE:
        return candidate.parent
    if candidate.is_dir() and (candidate / SKIN_FILE).is_file():
        return candidate
    folder = templates_root() / text
    if os.sep not in text and (folder / SKIN_FILE).is_file():
        return folder
    known = ", ".join(available_skins()) or "none"
    raise SkinError(f"unknown skin {text!r} (available: {known})")


def load_skin(name_or_path: str | os.PathLike[str]) -> Skin:
    """Load a skin by name (a folder of :func:`templates_root`) or by folder path."""
    folder = _resolve(name_or_path)
    try:
        raw = json.loads((folder / SKIN_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SkinError(f"{folder / SKIN_FILE}: cannot read: {exc}") from None
    if not isinstance(raw, dict):
        raise SkinError(f"{folder / SKIN_FILE}: must hold a JSON object")
    try:
        size = raw["cell_size"]
        cell_size = (float(size[0]), float(size[1]))
    except (KeyError, TypeError, ValueError, IndexError):
        raise SkinError(f"{folder / SKIN_FILE}: 'cell_size' must be [pitch_x, pitch_y]") from None
    if min(cell_size) <= 0:
        raise SkinError(f"{folder / SKIN_FILE}: 'cell_size' must be positive")
    counts, shares = _load_mine_counts(raw.get("mine_counts"), folder)
    return Skin(
        name=str(raw.get("name") or folder.name),
        source=str(raw.get("source", "")),
        cell_size=cell_size,
        cells=_load_cells(raw.get("cells"), folder),
        status=_load_section(raw.get("status"), folder, "status"),
        restart=_load_section(raw.get("restart"), folder, "restart"),
        path=folder,
        mine_counts=counts,
        mine_shares=shares,
        unnamed=_load_unnamed(raw.get("unnamed"), folder),
    )


def _save_templates(value: Any, folder: Path, prefix: str) -> Any:
    """Image tuples (or label -> tuples) to written PNG names."""
    if isinstance(value, Mapping):
        return {str(k): _save_templates(v, folder, f"{prefix}_{k}") for k, v in value.items()}
    names = []
    for i, img in enumerate(value):
        name = f"{prefix}.png" if len(value) == 1 else f"{prefix}_{i}.png"
        _write_png(folder / name, img)
        names.append(name)
    return names


def _write_png(path: Path, img: Image) -> None:
    if not cv2.imwrite(str(path), np.ascontiguousarray(img)):
        raise SkinError(f"{path}: cannot write image")


def _save_section(section: Mapping[str, Any], folder: Path, prefix: str) -> dict[str, Any]:
    out = {k: v for k, v in section.items() if k != "templates"}
    if "templates" in section:
        out["templates"] = _save_templates(section["templates"], folder, prefix)
    return out


def save_skin(skin: Skin, folder: str | os.PathLike[str]) -> Path:
    """Write ``skin`` as skin.json + PNGs into ``folder`` (created); returns the json path.

    >>> import tempfile
    >>> skin = load_skin("xdemineur")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     again = load_skin(save_skin(skin, tmp))
    ...     bool((again.cells[-1][0] == skin.cells[-1][0]).all())
    True
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    cells: dict[str, list[str]] = {}
    for code, images in skin.cells.items():
        state = STATE_NAMES[code]
        cells[state] = _save_templates(tuple(images), out, state)
    data = {
        "name": skin.name,
        "source": skin.source,
        "cell_size": [float(skin.cell_size[0]), float(skin.cell_size[1])],
        "cells": cells,
        "status": _save_section(skin.status, out, "status"),
        "restart": _save_section(skin.restart, out, "restart"),
    }
    if skin.unnamed:
        data["unnamed"] = _save_templates(tuple(skin.unnamed), out, "unnamed")
    if skin.mine_counts:
        data["mine_counts"] = [
            {"rows": r, "cols": c, "mines": n} | (
                {"share": round(skin.mine_shares[(r, c)], 4)}
                if n is None and (r, c) in skin.mine_shares else {})
            for (r, c), n in sorted(skin.mine_counts.items())]
    path = out / SKIN_FILE
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def load_skins(names: list[str] | None = None) -> list[Skin]:
    """Load the named skins, or every available one."""
    return [load_skin(n) for n in (names if names is not None else available_skins())]
