"""Play with a skin that lacks some numbers and learns them in play (bot/learn.py),
offline: the simulator painted in xdemineur's templates, read by the real template
reader (tests/bot/skinsim.py). Each session starts from a fresh copy of the skin
without ``--missing``; every name learned is checked against the truth skin.

    python benchmarks/learn_unseen.py --missing 6,7,8 --size expert --sessions 10 --games 10
    python benchmarks/learn_unseen.py --missing 6,7,8 --size expert --no-guess
    python benchmarks/learn_unseen.py --missing 3,4,5,6,7,8 --size 16x16/1 --mine-chance 0.2

With ``--mine-chance P`` each game lays a binomial count of mines (each square one with
chance P; the size's count is ignored), its win shows nothing, and play is given no
count, only the share P (a game of no fixed count, like react-minesweeper).

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
from skinsim import (  # noqa: E402
    ChanceSkinReader,
    ChanceSkinScreen,
    SkinScreen,
    SkinSimReader,
    skin_without,
    truth_skin,
)

from bot.loop import PlayConfig, Player  # noqa: E402
from solver.game import BoardSize  # noqa: E402


def session(seed: int, missing: tuple[int, ...], size: BoardSize, games: int, guess: bool,
            folder: Path, chance: float | None = None) -> tuple[Counter[str], list[int], int]:
    """One play session; its outcomes, the numbers it learned, the wrong names. With
    ``chance``, a game of no fixed count; an outcome the game disagrees with counts
    as "wrong outcome"."""
    skin = skin_without(folder, missing)
    screen: SkinScreen
    if chance is None:
        screen = SkinScreen(size, seed=1000 + seed)
        reader = SkinSimReader(skin, screen.pitch)
    else:
        screen = ChanceSkinScreen(size, chance, seed=1000 + seed)
        reader = ChanceSkinReader(skin, screen.pitch, chance)
    config = PlayConfig(games=games, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=folder / "bugs", seed=0,
                        mines=size.mines if chance is None else None)
    player = Player(screen, sim_mouse(screen), reader, "exact", config)
    assert player.learner is not None
    player.learner.guess = guess
    outcomes: Counter[str] = Counter()
    results = player.play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    for r, true in zip(results, truth, strict=False):
        outcomes[r.outcome if r.outcome != "aborted" else "stopped: " + r.reason[:40]] += 1
        if r.outcome != "aborted" and r.outcome != true:
            outcomes["wrong outcome"] += 1
        if r.death_p is not None and r.death_p < 0.001:
            outcomes["lost on a square rated safe"] += 1
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
    p.add_argument("--mine-chance", type=float, metavar="P",
                   help="a game of no fixed count: each square a mine with chance P")
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
                                    Path(tmp) / str(seed), args.mine_chance)
            outcomes.update(o)
            learned.update(names)
            wrong += bad
    games = sum(n for o, n in outcomes.items() if o in ("won", "lost") or o.startswith("stop"))
    print(json.dumps({"size": str(size), "mine_chance": args.mine_chance, "missing": missing,
                      "games": games,
                      "outcomes": dict(outcomes), "learned": dict(sorted(learned.items())),
                      "wrong": wrong, "seconds": round(time.perf_counter() - t0, 1)}))
    return 1 if wrong or outcomes["wrong outcome"] or outcomes["lost on a square rated safe"] \
        else 0


if __name__ == "__main__":
    sys.exit(main())
