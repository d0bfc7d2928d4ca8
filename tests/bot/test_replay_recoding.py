"""``replay`` of a JPEG names the squares its reader leaves unknown by encoding each
look the way the JPEG was (``vision.jpeg``): WineMine's captures as JPEGs at quality 75
read with the shipped skin left 93 squares unknown in 6 boards (yellow 4s, blue 3s and
green 1s on black come out pale). The expected boards are the fixtures' hand-checked
.board files."""

from __future__ import annotations

from pathlib import Path

from jpegfixtures import as_jpegs

from bot.cmd_replay import load_image, read_file
from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.skin import load_skin

WINMINE = Path(__file__).resolve().parent.parent / "fixtures" / "winmine"
MINEGAULER = WINMINE.parent / "minegauler" / "standard"
CAPTURES = ("expert_lost", "expert_playing", "intermediate_lost", "dense_lost")


def test_jpeg_boards_read_whole_with_the_shipped_skin(tmp_path: Path) -> None:
    skin = load_skin("winmine")
    for path in as_jpegs(tmp_path, 75, [WINMINE / f"{stem}.png" for stem in CAPTURES]):
        expected = parse_board(path.with_suffix(".board").read_text())
        reading = read_file(path, load_image(path), [skin], True)
        assert reading.board.shape == expected.shape, path.name
        assert int((reading.board == UNKNOWN).sum()) == 0, path.name
        assert reading.mismatches == [], (path.name, reading.mismatches)
        assert reading.status == ("lost" if "lost" in path.stem else "playing")


def test_a_lattice_found_off_is_read_at_its_phase(tmp_path: Path) -> None:
    """WineMine's won 9x9 as a JPEG: no view shows the locator its board, and its
    template-free lattice lies 1 px right and 2 px low, where read in place only its 0s
    were known (31 %): it was refused at every quality."""
    skin = load_skin("winmine")
    for quality in (90, 60):
        (path,) = as_jpegs(tmp_path, quality, [WINMINE / "beginner_won.png"])
        reading = read_file(path, load_image(path), [skin], True)
        assert reading.mismatches == [], (quality, reading.mismatches)
        assert reading.status == "won"


def test_a_lattice_found_at_a_pitch_off_is_read_at_the_skins(tmp_path: Path) -> None:
    """minegauler's 9x9s as JPEGs of quality 60: no view shows the locator a board, and
    the template-free lattice comes out at 16.1-16.2 px a square for 16, its columns
    14 to 17 px wide: the lost 9x9 was refused (no phase read 80 % of its squares), the
    playing one read with its column 7 unknown. Tried at the skin's 16 px about the same
    centre, both read whole; the 16x16 and the won 9x9 still do."""
    skin = load_skin(str(MINEGAULER / "skin"))
    pngs = sorted(MINEGAULER.glob("*.png"))
    assert len(pngs) == 4
    for path in as_jpegs(tmp_path, 60, pngs):
        reading = read_file(path, load_image(path), [skin], True)
        assert reading.mismatches == [], (path.name, reading.mismatches)
        assert reading.status == path.stem.split("_")[0], path.name
