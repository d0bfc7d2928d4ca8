"""``sweepbot replay``: boards printed, differences from a .board reported, bad input
answered with one line and exit code 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
XD = FIXTURES / "xdemineur" / "intermediate_playing.png"
GM = FIXTURES / "gnome-mines" / "expert_900x480_playing.png"


def test_matching_fixtures_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(XD), str(GM)]) == 0
    out = capsys.readouterr().out
    assert out.count("matches the .board") == 2
    assert XD.with_suffix(".board").read_text().splitlines()[-1] in out


def test_a_difference_is_printed_and_exits_1(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "case.png"
    shutil.copy(XD, png)
    lines = XD.with_suffix(".board").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    first = lines[row][0]
    lines[row] = ("1" if first != "1" else "2") + lines[row][1:]
    png.with_suffix(".board").write_text("\n".join(lines) + "\n")
    assert main(["replay", str(png)]) == 1
    out = capsys.readouterr().out
    assert "1 differences from the .board" in out and "(0, 0): expected" in out


def test_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(GM)]) == 0
    record = json.loads(capsys.readouterr().out.strip())
    assert {"file", "skin", "rows", "cols", "board", "mismatches", "read_ms"} <= set(record)
    assert (record["skin"], record["rows"], record["cols"]) == ("gnome-mines", 16, 30)
    assert record["mismatches"] == [] and len(record["board"]) == 16


def test_heatmaps_are_written_one_per_file(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "heat.png"
    assert main(["replay", "--heatmap", str(out), str(XD), str(GM)]) == 0
    for source in (XD, GM):
        image = cv2.imread(str(tmp_path / f"heat-{source.stem}.png"))
        assert image is not None and image.shape == cv2.imread(str(source)).shape
    assert main(["replay", "--heatmap", str(out), str(XD)]) == 0
    assert cv2.imread(str(out)) is not None


def _bad_inputs(tmp: Path) -> dict[str, list[str]]:
    (tmp / "text.png").write_text("not a picture")
    (tmp / "short.png").write_bytes(XD.read_bytes()[:2000])
    cv2.imwrite(str(tmp / "black.png"), np.zeros((200, 300, 3), np.uint8))
    return {
        "not an image": [str(tmp / "text.png")],
        "truncated": [str(tmp / "short.png")],
        "no board": [str(tmp / "black.png")],
        "missing": [str(tmp / "nope.png")],
        "unknown skin": ["--skin", "nosuch", str(XD)],
        "bad mines": ["--heatmap", str(tmp / "h.png"), "--mines", "many", str(XD)],
    }


@pytest.mark.parametrize("case", ["not an image", "truncated", "no board", "missing",
                                  "unknown skin", "bad mines"])
def test_bad_input_is_one_line_and_exit_2(case: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", *_bad_inputs(tmp_path)[case]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sweepbot replay: ")
    assert "Traceback" not in err
