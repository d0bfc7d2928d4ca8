"""A skin's unnamed looks (``skin.json`` ``"unnamed"``): looks calibrate saw on boards
but could not name. A square nearest one reads as unknown, not as the named look it is
next nearest to: gnome-mines' question mark is a flag with a tiny "?", and a skin with
no question-mark template read every one as a flag. The templates are the shipped
gnome-mines skin's own cuts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bot.learn import add_templates
from solver.cells import COVERED, FLAG, QUESTION, UNKNOWN
from vision.geometry import BoardGeometry
from vision.read import read_board
from vision.skin import Skin, SkinError, load_skin, save_skin

SHIPPED = load_skin("gnome-mines")


def _cut(px: int, code: int) -> np.ndarray:
    return next(img for img in SHIPPED.cells[code] if img.shape[0] == px)


def _skin_without_question(unnamed: bool) -> Skin:
    """The 41 px covered square and flag; the 41 px question mark as an unnamed look
    (``unnamed``) or not at all."""
    cells = {COVERED: (_cut(41, COVERED),), FLAG: (_cut(41, FLAG),)}
    return Skin("gnome41", "test", (41.0, 41.0), cells, {}, {},
                unnamed=(_cut(41, QUESTION),) if unnamed else ())


@pytest.mark.parametrize("px", [35, 41, 46])
def test_a_question_mark_kept_as_an_unnamed_look_reads_unknown(px: int) -> None:
    image = np.hstack([_cut(px, FLAG), _cut(px, QUESTION)])
    g = BoardGeometry("gnome41", 0, 0, px, px, 1, 2)
    without = read_board(image, g, _skin_without_question(unnamed=False))
    assert without.tolist() == [[FLAG, FLAG]]  # (the misreading the unnamed look stops)
    assert read_board(image, g, _skin_without_question(unnamed=True)).tolist() \
        == [[FLAG, UNKNOWN]]


def test_unnamed_looks_are_saved_and_loaded(tmp_path: Path) -> None:
    skin = _skin_without_question(unnamed=True)
    path = save_skin(skin, tmp_path)
    assert json.loads(path.read_text())["unnamed"] == ["unnamed.png"]
    again = load_skin(tmp_path)
    assert len(again.unnamed) == 1
    assert np.array_equal(again.unnamed[0], skin.unnamed[0])
    assert not load_skin("gnome-mines").unnamed  # (a skin without the key has none)


def test_a_malformed_unnamed_list_is_refused(tmp_path: Path) -> None:
    path = save_skin(_skin_without_question(unnamed=True), tmp_path)
    data = json.loads(path.read_text())
    data["unnamed"] = "unnamed.png"
    path.write_text(json.dumps(data))
    with pytest.raises(SkinError, match="'unnamed' must be a list of PNG names"):
        load_skin(tmp_path)
    data["unnamed"] = ["missing.png"]
    path.write_text(json.dumps(data))
    with pytest.raises(SkinError, match="missing.png"):
        load_skin(tmp_path)


def test_a_look_named_later_leaves_the_unnamed_looks(tmp_path: Path) -> None:
    """Play names a look (``bot.learn.add_templates``): the unnamed look that is the
    same look goes, in memory and in the skin's folder; another stays."""
    other = np.full((41, 41, 3), 40, np.uint8)
    skin = replace(_skin_without_question(unnamed=True),
                   unnamed=(_cut(41, QUESTION), other))
    added = {QUESTION: [_cut(41, QUESTION)]}
    in_memory = add_templates(skin, added)
    assert len(in_memory.unnamed) == 1 and np.array_equal(in_memory.unnamed[0], other)
    save_skin(skin, tmp_path)
    on_disk = add_templates(load_skin(tmp_path), added)
    assert len(on_disk.unnamed) == 1 and np.array_equal(on_disk.unnamed[0], other)
    assert len(load_skin(tmp_path).unnamed) == 1
