"""Every recorded screenshot of a real game is located and read exactly.

For each ``tests/fixtures/<skin>/<case>.png`` the board is located with *all* shipped
skins (no hint of which game it is), read, and compared square by square with the
hand-checked ``<case>.board``; a failure prints a readable diff. Where the ``.board``
has a ``# status`` comment, the status read from the screenshot must match too.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from solver.textboard import diff_boards, format_board, parse_board, parse_comments
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import Skin, available_skins, load_skin
from vision.status import read_status

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEVERAL_GAMES = "screen_beside_"
"""Captures of a screen that shows both games side by side."""
CASES = sorted(p for p in FIXTURES.glob("*/*.png") if p.with_suffix(".board").is_file())


@pytest.fixture(scope="module")
def skins() -> list[Skin]:
    return [load_skin(name) for name in available_skins()]


def test_there_are_fixtures() -> None:
    assert len(CASES) >= 10, f"only {len(CASES)} fixtures under {FIXTURES}"


KNOWN_GAPS: dict[str, str] = {}
"""Fixtures the reader does not read exactly yet; strict: fixing one fails the test until
it is removed from here."""


def _case(png: Path) -> object:
    name = f"{png.parent.name}/{png.stem}"
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[name])] if name in KNOWN_GAPS \
        else []
    return pytest.param(png, id=name, marks=marks)


@pytest.mark.parametrize("png", [_case(p) for p in CASES])
def test_fixture_reads_exactly(png: Path, skins: list[Skin]) -> None:
    image = cv2.imread(str(png), cv2.IMREAD_COLOR)
    assert image is not None, f"{png} is not readable"
    text = png.with_suffix(".board").read_text()
    expected, comments = parse_board(text), parse_comments(text)
    geometry = locate_board(image, skins)
    if png.stem.startswith(SEVERAL_GAMES):
        # two games on one screen: the fixture's folder says which board it is about
        geometry = locate_board(image, [s for s in skins if s.name == png.parent.name])
    assert geometry.skin == png.parent.name, f"located as {geometry.skin}"
    skin = next(s for s in skins if s.name == geometry.skin)
    board = read_board(image, geometry, skin)
    problems = diff_boards(expected, board)
    assert not problems, (f"{png.name}: {len(problems)} wrong squares\n" + "\n".join(problems)
                          + "\nread:\n" + format_board(board))
    if "status" in comments:
        assert read_status(image, geometry, skin) == comments["status"]
