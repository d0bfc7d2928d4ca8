"""``sweepbot calibrate --from`` on JPEG copies of the WineMine fixtures at quality 75
(made here with cv2.imencode): it ends soon and says what it could not learn. Before,
it ran for minutes with no end in sight."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_calibrate_from_jpegs_it_cannot_learn_ends_soon_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jpegs = []
    for png in sorted((FIXTURES / "winmine").glob("*.png")):
        image = np.asarray(cv2.imread(str(png)), np.uint8)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])
        assert ok
        path = tmp_path / f"{png.stem}.jpg"
        path.write_bytes(data.tobytes())
        jpegs.append(str(path))
    out = tmp_path / "skin"
    t0 = time.perf_counter()
    code = main(["calibrate", "--name", "jpeg75", "--from", *jpegs, "--out", str(out)])
    assert time.perf_counter() - t0 < 60.0
    assert code == 2
    err = capsys.readouterr().err
    assert "no look of a square could be named" in err
    assert "more different looks than a loss reading can explain" in err
    assert not out.exists()  # no skin of no templates (it could not be loaded again)
