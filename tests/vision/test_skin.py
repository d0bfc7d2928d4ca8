"""Skins load from templates/, save and load back unchanged, and fail with clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG
from solver.textboard import parse_board
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import SkinError, available_skins, load_skin, save_skin, templates_root

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.mark.parametrize("name", ["xdemineur", "gnome-mines"])
def test_shipped_skins_have_every_state_they_show(name: str) -> None:
    skin = load_skin(name)
    assert skin.name == name and skin.path == templates_root() / name
    for code in (COVERED, FLAG, QUESTION, MINE, EXPLODED, WRONG_FLAG, 0, 1, 2, 3, 4, 5):
        assert skin.cells.get(code), f"{name} has no template for {code}"
    assert skin.status["method"] in ("face", "board")
    assert skin.restart["kind"] == "click" and skin.restart["templates"]


def test_available_skins_lists_the_shipped_ones() -> None:
    assert {"xdemineur", "gnome-mines"} <= set(available_skins())


def test_save_then_load_gives_the_same_skin_and_the_same_reading(tmp_path: Path) -> None:
    skin = load_skin("xdemineur")
    again = load_skin(save_skin(skin, tmp_path / "copy").parent)
    assert again.cell_size == skin.cell_size and again.status["method"] == "face"
    for code, images in skin.cells.items():
        assert len(again.cells[code]) == len(images)
        assert all((a == b).all() for a, b in zip(again.cells[code], images, strict=True))
    faces = again.status["templates"]
    assert set(faces) == {"playing", "won", "lost"}
    png = FIXTURES / "xdemineur" / "expert_lost.png"
    image = cv2.imread(str(png))
    g = locate_board(image, [again])
    expected = parse_board(png.with_suffix(".board").read_text())
    assert (read_board(image, g, again) == expected).all()


def test_env_overrides_the_templates_folder(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    save_skin(load_skin("xdemineur"), tmp_path / "mine")
    monkeypatch.setenv("SWEEPBOT_TEMPLATES", str(tmp_path))
    assert available_skins() == ["mine"]
    assert load_skin("mine").name == "xdemineur"


def _write(folder: Path, data: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "skin.json").write_text(json.dumps(data))
    cv2.imwrite(str(folder / "c.png"), np.zeros((20, 20, 3), np.uint8))
    return folder


@pytest.mark.parametrize(("data", "message"), [
    ({"cell_size": [20, 20], "cells": {"covered": ["nope.png"]}}, "does not exist"),
    ({"cell_size": [20, 20], "cells": {"sparkly": ["c.png"]}}, "unknown cell state"),
    ({"cells": {"covered": ["c.png"]}}, "cell_size"),
    ({"cell_size": [20, 20], "cells": {}}, "non-empty"),
    ({"cell_size": [20, 20], "cells": {"covered": ["c.png"]}, "status": {"templates": 3}},
     "status.templates"),
    ([1, 2], "JSON object"),
])
def test_bad_skins_raise_skin_error(tmp_path: Path, data: object, message: str) -> None:
    folder = _write(tmp_path / "bad", data)
    with pytest.raises(SkinError, match=message):
        load_skin(folder)


def test_unknown_skin_names_the_available_ones() -> None:
    with pytest.raises(SkinError, match="unknown skin 'nosuch'.*xdemineur"):
        load_skin("nosuch")


def test_unreadable_json(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "skin.json").write_text("{not json")
    with pytest.raises(SkinError, match="cannot read"):
        load_skin(folder)
