"""How often a true board's first opening lies on the lines of k x k blocks of its
squares, by the number of edges between opened and unopened squares: the evidence
:data:`vision.flat_board.BLOCK_EDGES` asks for before calibrate says a ``--grid``
splits each square in k x k.

    python benchmarks/block_edges.py --games 100000 --seed 3

Each game: a first click at a random square of a true board (the square and its
neighbours free of mines, the "opening" rule), opened by the solver's simulator. For
each k of 2-5 dividing the board's rows and columns, an opening whose every edge lies
on the k-blocks' lines is counted by its number of edges.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from solver.cells import NUMBERS
from solver.game import BoardSize, Game

SIZES = ("16x16/40", "8x8/10", "16x30/99", "24x24/99", "16x16/10", "30x30/60")


def opened_edges(opened: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lines (column and row index) of the edges between opened and unopened squares."""
    across = np.nonzero(opened[:, 1:] != opened[:, :-1])[1] + 1
    down = np.nonzero(opened[1:] != opened[:-1])[0] + 1
    return across, down


def tally(games: int, seed: int) -> tuple[int, Counter[tuple[int, int]]]:
    rng = np.random.default_rng(seed)
    aligned: Counter[tuple[int, int]] = Counter()
    played = 0
    for _ in range(games):
        for text in SIZES:
            size = BoardSize.parse(text)
            game = Game(size, rule="opening", seed=int(rng.integers(2**31)))
            game.open((int(rng.integers(size.rows)), int(rng.integers(size.cols))))
            across, down = opened_edges(np.isin(game.board, NUMBERS))
            played += 1
            for k in (2, 3, 4, 5):
                if size.rows % k or size.cols % k or len(across) + len(down) == 0:
                    continue
                if not (across % k).any() and not (down % k).any():
                    aligned[(k, len(across) + len(down))] += 1
    return played, aligned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000, help="games of each size")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    played, aligned = tally(args.games, args.seed)
    print(f"{played} first clicks; openings on the lines of k x k blocks, by edges:")
    for k in sorted({k for k, _ in aligned}):
        counts = {n: c for (kk, n), c in aligned.items() if kk == k}
        print(f"  k={k}: {sum(counts.values())} openings, most edges {max(counts)};"
              f" with 28+ edges: {sum(c for n, c in counts.items() if n >= 28)}")


if __name__ == "__main__":
    main()
