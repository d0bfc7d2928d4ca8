"""Calibrate a real game from scratch on a private Xvfb display, then check the skin.

    python benchmarks/calibrate_bench.py --game xdemineur --size intermediate --play 20
    python benchmarks/calibrate_bench.py --game xdemineur --dense 12x10/96 --play 10
    python benchmarks/calibrate_bench.py --game gnome-mines --windows 1000x900:16x16/40 \\
        --dense 704x560:10x10/70 --play 10
    python benchmarks/calibrate_bench.py --game gnome-mines --theme classic \\
        --windows 836x686:16x16/40 --dense 836x686:16x16/120 --no-fixtures --play 20

With the shipped skins out of sight (SWEEPBOT_TEMPLATES points to an empty folder), runs
``sweepbot calibrate --name GAME`` once per window (each run after the first extends the
skin: games that scale their board need templates at each size; ``--dense`` adds a run on
a dense board, ``--want 0-8``, where 6, 7 and 8 show), times every run, then
reads every recorded fixture of that game (tests/fixtures/GAME) with the new skin through
vision.locate / vision.read / vision.status and plays ``--play`` games with the real loop
and the new skin. Prints one JSON line per step.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.game import BoardSize  # noqa: E402


def launch(vd: Any, game: str, size: BoardSize, window: tuple[int, int] | None,
           theme: str | None = None) -> Any:
    from bot import realgames

    if game == "xdemineur":
        return realgames.launch_xdemineur(vd, max(size.cols, 12), size.rows, size.mines)
    width, height = window or (36 * size.cols + 260, 36 * size.rows + 110)
    return realgames.launch_gnome_mines(vd, size.cols, size.rows, size.mines, width, height,
                                        theme=theme)


def calibrate(vd: Any, out: Path, game: str, seed: int, games: int,
              extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """One ``sweepbot calibrate`` run on the display; its exit code and wall time."""
    from bot.cli import main

    t0 = time.perf_counter()
    rc = main(["calibrate", "--name", game, "--out", str(out), "--display", vd.display,
               "--seed", str(seed), "--games", str(games), *extra])
    return {"rc": rc, "seconds": round(time.perf_counter() - t0, 1)}


def check_fixtures(skin_dir: Path, game: str) -> dict[str, Any]:
    """Read every recorded fixture of ``game`` with the skin in ``skin_dir``."""
    import cv2
    import numpy as np

    from solver.textboard import parse_board, parse_comments
    from vision.locate import locate_board
    from vision.read import read_board
    from vision.skin import load_skin
    from vision.status import read_status

    skin = load_skin(skin_dir)
    cases = sorted((ROOT / "tests" / "fixtures" / game).glob("*.png"))
    exact, problems = 0, []
    for case in cases:
        text = case.with_suffix(".board").read_text()
        expected, want = parse_board(text), parse_comments(text).get("status")
        image = np.asarray(cv2.imread(str(case)), np.uint8)
        try:
            g = locate_board(image, [skin])
        except ValueError as exc:
            problems.append(f"{case.stem}: {exc}")
            continue
        board = read_board(image, g, skin)
        status = read_status(image, g, skin)
        same = board.shape == expected.shape and bool((board == expected).all())
        if same and (want is None or status == want):
            exact += 1
        else:
            wrong = int((board != expected).sum()) if board.shape == expected.shape else -1
            problems.append(f"{case.stem}: {wrong} squares wrong, status {status} (want {want})")
    return {"fixtures": len(cases), "exact": exact, "problems": problems}


def play(vd: Any, skin_dir: Path, game: str, size: BoardSize, games: int,
         seed: int) -> dict[str, Any]:
    """Play with the real loop and the calibrated skin; losses on 'safe' squares."""
    from bot.loop import PlayConfig, Player
    from bot.mouse import XTestMouse
    from bot.reader import SkinReader
    from bot.screen import MssScreen
    from vision.skin import load_skin

    screen, mouse = MssScreen(vd.display), XTestMouse(vd.display)
    player = Player(screen, mouse, SkinReader([load_skin(skin_dir)]), "exact",
                    PlayConfig(games=games, mines=size.mines, seed=seed))
    results = player.play()
    screen.close()
    mouse.close()
    return {
        "played": len(results),
        "won": sum(r.outcome == "won" for r in results),
        "lost": sum(r.outcome == "lost" for r in results),
        "aborted": [r.reason for r in results if r.outcome == "aborted"],
        "lost_on_safe": sum(r.outcome == "lost" and r.death_p is not None
                            and r.death_p < 0.001 for r in results),
    }


def parse_window(text: str) -> tuple[tuple[int, int], BoardSize]:
    """``WIDTHxHEIGHT:COLSxROWS/MINES``; ``COLSxROWS/MINES`` alone for xdemineur."""
    if ":" not in text:
        return (0, 0), BoardSize.parse(text)
    window, _, board = text.partition(":")
    w, h = (int(v) for v in window.split("x"))
    return (w, h), BoardSize.parse(board)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=("xdemineur", "gnome-mines"), required=True)
    p.add_argument("--size", default="intermediate")
    p.add_argument("--windows", nargs="*", default=[],
                   help="gnome-mines windows WIDTHxHEIGHT:COLSxROWS/MINES, one run each")
    p.add_argument("--dense", metavar="RUN",
                   help="then a run on this dense board ([WIDTHxHEIGHT:]COLSxROWS/MINES) "
                        "with --want 0-8")
    p.add_argument("--games", type=int, default=2, help="calibrate --games")
    p.add_argument("--play", type=int, default=0, help="games to play with the new skin")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--keep", metavar="DIR", help="also copy the learned skin here")
    p.add_argument("--theme", help="gnome-mines theme (default, classic, bgcolors; "
                                   "unset: its default, bgcolors)")
    p.add_argument("--no-fixtures", action="store_true",
                   help="skip reading tests/fixtures/GAME (another theme's captures)")
    args = p.parse_args(argv)

    from bot.realgames import VirtualDisplay

    size = BoardSize.parse(args.size)
    runs: list[tuple[tuple[int, int] | None, BoardSize, tuple[str, ...]]] = [
        (*parse_window(w), ()) for w in args.windows] or [(None, size, ())]
    if args.dense:
        dense_window, board = parse_window(args.dense)
        runs.append((dense_window if dense_window != (0, 0) else None, board,
                     ("--want", "0-8", "--max-games", "300", "--time-limit", "120",
                      "--mines", str(board.mines))))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SWEEPBOT_TEMPLATES"] = str(Path(tmp) / "empty")
        (Path(tmp) / "empty").mkdir()
        out = Path(tmp) / "skin"
        with VirtualDisplay() as vd:
            for i, (window, board, extra) in enumerate(runs):
                win = launch(vd, args.game, board, window, args.theme)
                time.sleep(0.5)
                step = calibrate(vd, out, args.game, args.seed + i, args.games, extra)
                print(json.dumps({"step": "calibrate", "window": window, "board": str(board),
                                  **step}), flush=True)
                if step["rc"] != 0:
                    return 1
                win.close()
            if args.keep:
                shutil.copytree(out, args.keep, dirs_exist_ok=True)
            if not args.no_fixtures:
                print(json.dumps({"step": "fixtures", **check_fixtures(out, args.game)}),
                      flush=True)
            if args.play:  # on the first run's board
                win = launch(vd, args.game, runs[0][1], runs[0][0], args.theme)
                time.sleep(0.5)
                print(json.dumps({"step": "play", **play(vd, out, args.game, runs[0][1],
                                                         args.play, args.seed)}), flush=True)
                win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
