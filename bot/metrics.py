"""Game metrics: 3BV (the minimum number of clicks to clear a board without flags).

>>> import numpy as np
>>> mines = np.zeros((3, 3), dtype=bool)
>>> mines[0, 0] = True
>>> three_bv(mines)  # one opening clears the rest
1
>>> mines = np.array([[False, True, False]])
>>> three_bv(mines)  # two isolated numbers
2
"""

from __future__ import annotations

from collections import deque

import numpy as np
import numpy.typing as npt

from solver.cells import neighbour_sum, neighbours


def mine_counts(mines: npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
    """For every square, how many of its neighbours are mines."""
    return neighbour_sum(mines).astype(np.int8)


def three_bv(mines: npt.NDArray[np.bool_]) -> int:
    """Bechtel's Board Benchmark Value: openings plus numbers not next to an opening."""
    rows, cols = mines.shape
    counts = mine_counts(mines)
    cleared = np.zeros((rows, cols), dtype=bool)
    bv = 0
    for r in range(rows):
        for c in range(cols):
            if mines[r, c] or counts[r, c] or cleared[r, c]:
                continue
            bv += 1
            queue = deque([(r, c)])
            cleared[r, c] = True
            while queue:
                cell = queue.popleft()
                if counts[cell]:
                    continue
                for nb in neighbours(cell, rows, cols):
                    if not cleared[nb] and not mines[nb]:
                        cleared[nb] = True
                        queue.append(nb)
    bv += int((~mines & ~cleared).sum())
    return bv
