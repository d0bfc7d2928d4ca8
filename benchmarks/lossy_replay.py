"""``sweepbot replay`` on JPEG captures: the fixtures of one game saved as JPEGs, read
with a skin made from PNGs (shipped, or a fixture's) and with the skin ``calibrate
--from`` learns from those JPEGs themselves, each board counted against its ``.board``.

    python benchmarks/lossy_replay.py winmine --quality 90 75 60
    python benchmarks/lossy_replay.py minegauler/standard \
        --skin tests/fixtures/minegauler/standard/skin

A user with JPEG captures of a game runs ``calibrate --from`` on them and then
``replay``s them: both skins are tried here. Per set one JSON line: files, boards read
whole (``whole``), refused (``refused``), printed at another size than the game's
(``part``: squares missing, never acceptable), wrong and unknown squares in the whole
ones. ``--keep DIR`` keeps the JPEGs and the learned skins.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli import main as sweepbot  # noqa: E402
from bot.cmd_replay import BadInput, load_image, load_skins, read_file  # noqa: E402
from solver.cells import UNKNOWN  # noqa: E402
from solver.textboard import parse_board  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"


def write_jpegs(game: str, quality: int, folder: Path) -> list[Path]:
    """Every PNG fixture of ``game`` that has a ``.board``, saved as a JPEG in
    ``folder`` with its ``.board`` beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for png in sorted((FIXTURES / game).glob("*.png")):
        board = png.with_suffix(".board")
        if not board.exists():
            continue
        ok, data = cv2.imencode(".jpg", np.asarray(cv2.imread(str(png)), np.uint8),
                                [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        path = folder / f"{png.stem}.jpg"
        path.write_bytes(data.tobytes())
        path.with_suffix(".board").write_text(board.read_text())
        out.append(path)
    return out


def learn(jpegs: list[Path], out: Path) -> bool:
    """``sweepbot calibrate --from`` on the JPEGs, the skin written to ``out``."""
    with redirect_stdout(StringIO()), redirect_stderr(StringIO()):
        code = sweepbot(["calibrate", "--name", out.name, "--out", str(out), "--from",
                         *map(str, jpegs)])
    return code == 0


def count(jpegs: list[Path], skin: str) -> dict[str, object]:
    """Read every JPEG with the skin; counts against each ``.board``."""
    totals: dict[str, object] = {"files": len(jpegs), "whole": 0, "refused": 0, "part": 0,
                                 "wrong": 0, "unknown": 0}
    notes = []
    skins = load_skins(skin)
    for path in jpegs:
        expected = parse_board(path.with_suffix(".board").read_text())
        try:
            reading = read_file(path, load_image(path), skins, True)
        except BadInput:
            totals["refused"] = int(totals["refused"]) + 1  # type: ignore[call-overload]
            continue
        if reading.board.shape != expected.shape:
            totals["part"] = int(totals["part"]) + 1  # type: ignore[call-overload]
            notes.append(f"{path.stem} {reading.board.shape}")
            continue
        wrong = int(((reading.board != expected) & (reading.board != UNKNOWN)).sum())
        totals["whole"] = int(totals["whole"]) + 1  # type: ignore[call-overload]
        totals["wrong"] = int(totals["wrong"]) + wrong  # type: ignore[call-overload]
        totals["unknown"] = int(totals["unknown"]) + int(  # type: ignore[call-overload]
            (reading.board == UNKNOWN).sum())
        if wrong:
            notes.append(f"{path.stem} {wrong} wrong")
    totals["notes"] = notes
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="fixture folder under tests/fixtures (e.g. winmine)")
    parser.add_argument("--quality", type=int, nargs="+", default=[90, 75, 60])
    parser.add_argument("--skin", default=None,
                        help="skin made from PNGs (default: the shipped one of that name)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the files here")
    args = parser.parse_args(argv)
    base = args.skin or args.game.split("/")[0]
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        for quality in args.quality:
            jpegs = write_jpegs(args.game, quality, root / f"q{quality}")
            learned = root / f"learned_q{quality}"
            row = {"game": args.game, "quality": quality, "skin": base, **count(jpegs, base)}
            print(json.dumps(row), flush=True)
            if learn(jpegs, learned):
                row = {"game": args.game, "quality": quality, "skin": "learned from these",
                       **count(jpegs, str(learned))}
            else:
                row = {"game": args.game, "quality": quality, "skin": "learned from these",
                       "error": "calibrate --from failed"}
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
