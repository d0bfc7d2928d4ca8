"""Play a game with no shipped skin using a copy of a skin calibrated earlier (no new
calibration), as ``benchmarks/unseen_games.py`` does after calibrating: a private Xvfb
display, the shipped skins out of sight, ``sweepbot play`` in its own process. The skin
is copied, so what play learns (bot/learn.py) lands in the copy; ``--keep`` keeps it.

    python benchmarks/play_with_skin.py --game sgt-mines --size 16x16/40 --wm \\
        --skin /tmp/F/skinb6/sgt-mines --mines 40 --play 20

Prints play's output, the lines it learned, then one JSON line (as unseen_games.py),
with the states the copy holds before and after.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from unseen_games import GAMES, launch, summarise, sweepbot  # noqa: E402

from solver.game import BoardSize  # noqa: E402


def states(folder: Path) -> list[str]:
    return sorted(json.loads((folder / "skin.json").read_text())["cells"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=GAMES, required=True)
    p.add_argument("--size", default="intermediate")
    p.add_argument("--skin", type=Path, required=True, help="a skin folder (with skin.json)")
    p.add_argument("--mines", type=int)
    p.add_argument("--theme", help="kmines' theme (bot.othergames.KMINES_THEMES)")
    p.add_argument("--wm", action="store_true", help="run openbox on the display")
    p.add_argument("--play", type=int, default=10)
    p.add_argument("--at", default="120,90", help="window position X,Y")
    p.add_argument("--keep", metavar="DIR", help="keep the templates folder here")
    p.add_argument("--bug-dir", metavar="DIR", help="keep play's unreadable boards here")
    p.add_argument("--desktop", metavar="R,G,B",
                   help="paint the desktop this colour (Xvfb's is black)")
    args = p.parse_args(argv)
    if not (args.skin / "skin.json").is_file():
        p.error(f"{args.skin} holds no skin.json")

    from bot.realgames import VirtualDisplay

    size = BoardSize.parse(args.size)
    with tempfile.TemporaryDirectory() as tmp:
        templates = Path(args.keep) if args.keep else Path(tmp) / "templates"
        copy = templates / args.game
        shutil.copytree(args.skin, copy, dirs_exist_ok=True)
        before = states(copy)
        log = Path(tmp) / "play.jsonl"
        with VirtualDisplay(window_manager=args.wm) as vd:
            if args.desktop:
                from bot.winegames import set_desktop_colour

                r, g, b = (int(v) for v in args.desktop.split(","))
                set_desktop_colour(vd, (r, g, b))
            win = launch(vd, args.game, size, None, Path(tmp) / "truth.jsonl", args.theme)
            x, y = (int(v) for v in args.at.split(","))
            win.move(x, y)
            time.sleep(0.5)
            mines = ["--mines", str(args.mines)] if args.mines else []
            play = ["play", "--skin", args.game, "--log", str(log), "--bug-dir",
                    args.bug_dir or str(Path(tmp) / "bugs"), *mines, "--games", str(args.play)]
            step = sweepbot(vd, templates, play, 60 + 30 * args.play)
        print(json.dumps({"step": "play", "skin": str(args.skin), **step, **summarise(log),
                          "states_before": before, "states_after": states(copy)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
