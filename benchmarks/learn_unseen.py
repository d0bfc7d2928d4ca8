"""Play with a skin that lacks some numbers and learns them in play (bot/learn.py),
offline: the simulator painted in xdemineur's templates, read by the real template
reader (tests/bot/skinsim.py). Each session starts from a fresh copy of the skin
without ``--missing``; every name learned is checked against the truth skin.

    python benchmarks/learn_unseen.py --missing 6,7,8 --size expert --sessions 10 --games 10
    python benchmarks/learn_unseen.py --missing 6,7,8 --size expert --no-guess

Prints one JSON line: games, outcomes (stops with their first words), names learned,
names wrong (must be 0), seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bot")]

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from simgame import sim_mouse  # noqa: E402
from skinsim import SkinScreen, SkinSimReader, skin_without, truth_skin  # noqa: E402

from bot.loop import PlayConfig, Player  # noqa: E402
from solver.game import BoardSize  # noqa: E402


def session(seed: int, missing: tuple[int, ...], size: BoardSize, games: int, guess: bool,
            folder: Path) -> tuple[Counter[str], list[int], int]:
    """One play session; its outcomes, the numbers it learned, the wrong names."""
    skin = skin_without(folder, missing)
    screen = SkinScreen(size, seed=1000 + seed)
    config = PlayConfig(games=games, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=folder / "bugs", seed=0, mines=size.mines)
    player = Player(screen, sim_mouse(screen), SkinSimReader(skin, screen.pitch), "exact",
                    config)
    assert player.learner is not None
    player.learner.guess = guess
    outcomes: Counter[str] = Counter()
    for r in player.play():
        outcomes[r.outcome if r.outcome != "aborted" else "stopped: " + r.reason[:40]] += 1
    truth = truth_skin()
    wrong = 0
    for path in folder.glob("*_learned*.png"):
        image = cv2.imread(str(path))
        code = int(path.name.split("_")[0])
        wrong += image is None or not np.array_equal(image, truth.cells[code][0])
    return outcomes, [code for code, _ in player.learner.learned], wrong


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--missing", default="6,7,8", help="numbers the skin lacks (6,7,8)")
    p.add_argument("--size", default="expert", help="board (expert, or RxC/M style)")
    p.add_argument("--sessions", type=int, default=10)
    p.add_argument("--games", type=int, default=10, help="games per session")
    p.add_argument("--no-guess", action="store_true",
                   help="stop where no square is safe under every fitting name")
    args = p.parse_args()
    missing = tuple(int(x) for x in args.missing.split(",") if x)
    size = BoardSize.parse(args.size)
    t0 = time.perf_counter()
    outcomes: Counter[str] = Counter()
    learned: Counter[int] = Counter()
    wrong = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.sessions):
            o, names, bad = session(seed, missing, size, args.games, not args.no_guess,
                                    Path(tmp) / str(seed))
            outcomes.update(o)
            learned.update(names)
            wrong += bad
    print(json.dumps({"size": str(size), "missing": missing, "games": sum(outcomes.values()),
                      "outcomes": dict(outcomes), "learned": dict(sorted(learned.items())),
                      "wrong": wrong, "seconds": round(time.perf_counter() - t0, 1)}))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
