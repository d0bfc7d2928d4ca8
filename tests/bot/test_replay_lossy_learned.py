"""``sweepbot replay`` of JPEG captures with the skin ``calibrate --from`` learned from
those same JPEGs, and of JPEGs whose skin's templates read only part of the board.

A user with JPEG captures of a game they have no skin for runs ``calibrate --from`` on
them, then ``replay``. Before, the skin learned from WineMine's fixtures at quality 75
read back none of the 7 ("no Minesweeper board found"), and minegauler's won 16x16 at
quality 90 was printed as its top-left 6 rows x 10 columns. The JPEGs are made here
from the PNG fixtures (cv2.imencode); the expected boards are the fixtures' hand-checked
.board files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from jpegfixtures import as_jpegs

from bot.cli import main
from bot.cmd_replay import BadInput, load_image, load_skins, read_file
from solver.cells import UNKNOWN
from solver.textboard import parse_board

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MINEGAULER = FIXTURES / "minegauler" / "standard"


def read_back(jpegs: list[Path], skin: str) -> tuple[int, int, list[str]]:
    """(boards read whole, boards refused, what was read wrong or at another size)."""
    whole = refused = 0
    bad = []
    skins = load_skins(skin)
    for path in jpegs:
        expected = parse_board(path.with_suffix(".board").read_text())
        try:
            reading = read_file(path, load_image(path), skins, True)
        except BadInput:
            refused += 1
            continue
        if reading.board.shape != expected.shape:
            bad.append(f"{path.stem}: read {reading.board.shape}, is {expected.shape}")
            continue
        wrong = np.argwhere((reading.board != expected) & (reading.board != UNKNOWN))
        if len(wrong):
            bad.append(f"{path.stem}: wrong at {wrong.tolist()}")
        whole += 1
    return whole, refused, bad


@pytest.mark.parametrize(("quality", "least"), [(90, 7), (75, 6)])
def test_winmine_jpegs_read_back_with_the_skin_learned_from_them(
        quality: int, least: int, tmp_path: Path) -> None:
    jpegs = as_jpegs(tmp_path, quality, sorted((FIXTURES / "winmine").glob("*.png")))
    skin = tmp_path / "skin"
    assert main(["calibrate", "--name", "jpeg", "--from", *map(str, jpegs),
                 "--out", str(skin)]) == 0
    whole, _, bad = read_back(jpegs, str(skin))
    assert not bad
    assert whole >= least  # (before: 0 of 7 at quality 75)


@pytest.mark.parametrize("quality", [90, 75])
def test_minegauler_jpegs_are_never_printed_in_part(quality: int, tmp_path: Path) -> None:
    jpegs = as_jpegs(tmp_path, quality, sorted(MINEGAULER.glob("*.png")))
    whole, _, bad = read_back(jpegs, str(MINEGAULER / "skin"))
    assert not bad  # (before: won_16x16 printed as 10x6 at 90, 5x4 at 75)
    assert whole >= 2


def test_a_part_of_the_lattice_is_widened_or_refused_never_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (path,) = as_jpegs(tmp_path, 90, [MINEGAULER / "won_16x16.png"])
    code = main(["replay", "--skin", str(MINEGAULER / "skin"), str(path)])
    out = capsys.readouterr()
    assert code in (0, 1, 2)
    if code == 2:
        assert "no board read with confidence" in out.err
    else:
        assert ", 16x16, " in out.out
