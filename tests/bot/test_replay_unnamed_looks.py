"""``calibrate --from`` keeps the looks it could not name in the skin (``"unnamed"``),
and ``replay`` reads a square nearest one of them as unknown: gnome-mines' question mark
(a flag with a tiny "?"), which no saved game shows to be one, was read as a flag with
the skin learned from its captures as JPEGs (5 wrong squares in these three captures at
quality 90). The expected boards are the fixtures' hand-checked .board files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from jpegfixtures import as_jpegs

from bot.cmd_replay import load_image, read_file
from solver.cells import QUESTION, UNKNOWN
from solver.textboard import parse_board
from vision.skin import load_skin

GNOME = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"
CAPTURES = ("medium_700x700_lost", "medium_700x700_playing", "hover_flag_700x700")


def test_question_marks_calibrate_could_not_name_read_unknown(tmp_path: Path) -> None:
    from bot.cli import main

    jpegs = as_jpegs(tmp_path, 90, [GNOME / f"{stem}.png" for stem in CAPTURES])
    out = tmp_path / "skin"
    assert main(["calibrate", "--name", "gnome-jpeg", "--from", *map(str, jpegs),
                 "--out", str(out)]) == 0
    assert json.loads((out / "skin.json").read_text())["unnamed"]
    skin = load_skin(out)
    assert QUESTION not in skin.cells  # (no capture shows what the "?" is)
    questions = 0
    for path in jpegs:
        expected = parse_board(path.with_suffix(".board").read_text())
        board = read_file(path, load_image(path), [skin], True).board
        assert board.shape == expected.shape, path.name
        wrong = (board != expected) & (board != UNKNOWN)
        assert not wrong.any(), f"{path.name}: {np.argwhere(wrong).tolist()} read wrong"
        assert (board[expected == QUESTION] == UNKNOWN).all(), path.name
        questions += int((expected == QUESTION).sum())
    assert questions == 5
