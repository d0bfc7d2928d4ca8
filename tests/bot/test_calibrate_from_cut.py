"""``calibrate --from`` leaves out a screenshot whose board is cut by its window's edge
or the screen's (:func:`vision.cut.cut_sides`), and says which: the numbers along the
cut count mines that do not show, so no loss reading of it is sound.

The cut captures are the WineMine fixtures (16x16 squares of 16 px at x 5-261, y 52-308,
found by eye) with the screenshot ending half-way through a line of squares, as when
the window is moved partly off the screen.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.cli import main

WINMINE = Path(__file__).resolve().parent.parent / "fixtures" / "winmine"
LEFT, TOP, PITCH = 5, 52, 16


def capture(stem: str, tmp: Path, cut: str | None = None, suffix: str = ".png") -> Path:
    """The fixture ``stem``, or the part of it left of column 10's middle (``cut``
    "right") or above row 12's middle ("bottom"), written to ``tmp`` as ``suffix``
    (".jpg": JPEG at OpenCV's default quality, 95)."""
    image = cv2.imread(str(WINMINE / f"{stem}.png"))
    assert image is not None and image.shape[:2] == (TOP + 256 + 5, LEFT + 256 + 5)
    if cut == "right":
        image = image[:, :LEFT + 10 * PITCH + PITCH // 2]
    elif cut == "bottom":
        image = image[:TOP + 12 * PITCH + PITCH // 2]
    path = tmp / f"{stem}{'_cut_' + cut if cut else ''}{suffix}"
    cv2.imwrite(str(path), image)
    return path


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_a_cut_screenshot_is_left_out_by_name(
        suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = capture("intermediate_lost", tmp_path, suffix=suffix)
    cut = capture("intermediate_playing", tmp_path, "right", suffix)
    assert main(["calibrate", "--name", "w", "--from", str(whole), str(cut),
                 "--out", str(tmp_path / "skin")]) == 0
    out = capsys.readouterr().out
    assert "the board is cut by its window's edge or the screen's: " in out
    line = next(line for line in out.splitlines() if line.startswith("left out (the board"))
    assert line.endswith(str(cut))
    assert "no board found" not in out
    assert "learned from 1 screenshots" in out


def test_only_cut_screenshots_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cuts = [capture("intermediate_lost", tmp_path, "bottom"),
            capture("intermediate_playing", tmp_path, "right")]
    out = tmp_path / "skin"
    assert main(["calibrate", "--name", "w", "--from", *map(str, cuts),
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "the board is cut by its window's edge or the screen's in every image" in err
    assert not out.exists()
