"""A skin that has no covered square's look (``calibrate --from`` on captures where it
could not name one) reads a covered square as whatever it is nearest: ``replay`` must
refuse such a board rather than print covered squares as 0 (minegauler's skin learned
from its fixtures at JPEG quality 60 has no covered look, and ``replay`` printed 82
wrong squares with it). The expected boards
are the fixtures' hand-checked .board files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from jpegfixtures import as_jpegs

from bot.cmd_replay import BadInput, load_image, read_file
from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.skin import load_skin

MINEGAULER = Path(__file__).resolve().parent.parent / "fixtures" / "minegauler" / "standard"


def test_minegauler_jpegs_at_60_read_back_with_the_skin_learned_from_them(
        tmp_path: Path) -> None:
    from bot.cli import main

    jpegs = as_jpegs(tmp_path, 60, sorted(MINEGAULER.glob("*.png")))
    out = tmp_path / "skin"
    assert main(["calibrate", "--name", "q60", "--from", *map(str, jpegs),
                 "--out", str(out)]) == 0
    skin = load_skin(out)
    for path in jpegs:
        expected = parse_board(path.with_suffix(".board").read_text())
        try:
            reading = read_file(path, load_image(path), [skin], True)
        except BadInput:
            continue
        wrong = (reading.board != expected) & (reading.board != UNKNOWN)
        assert reading.board.shape == expected.shape
        assert not wrong.any(), (path.stem, np.argwhere(wrong).tolist())
