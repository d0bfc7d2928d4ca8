"""A picture of the solver's mine probabilities over the board (for ``--dry-run``).

>>> import numpy as np
>>> from vision.geometry import BoardGeometry
>>> g = BoardGeometry("x", 0.0, 0.0, 20.0, 20.0, 1, 2)
>>> probs = np.array([[0.0, 1.0]])
>>> board = np.array([[-1, -1]], dtype=np.int8)
>>> out = heatmap(np.full((20, 40, 3), 128, np.uint8), g, board, probs)
>>> out.shape, tuple(int(v) for v in out[10, 6]), tuple(int(v) for v in out[10, 46])
((40, 80, 3), (0, 192, 0), (0, 0, 224))
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from bot.screen import Image
from solver.cells import COVERED, QUESTION, Board
from vision.geometry import BoardGeometry


def heatmap(image: Image, geometry: BoardGeometry, board: Board,
            probs: npt.NDArray[np.float64], scale: int = 2) -> Image:
    """``image`` (which contains the board at ``geometry``) with every covered square
    tinted from green (safe) to red (mine) and labelled with its mine percentage,
    enlarged ``scale`` times for legibility."""
    out = image.copy()
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            if board[r, c] not in (COVERED, QUESTION):
                continue
            p = float(probs[r, c])
            rect = geometry.cell_rect((r, c))
            colour = (0, int(192 * (1 - p)), int(224 * p))
            cv2.rectangle(out, (rect.left + 1, rect.top + 1),
                          (rect.left + rect.width - 2, rect.top + rect.height - 2), colour, -1)
    out = cv2.resize(out, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            if board[r, c] in (COVERED, QUESTION):
                rect = geometry.cell_rect((r, c))
                text = f"{round(100 * float(probs[r, c]))}"
                origin = (scale * rect.left + 2, scale * (rect.top + rect.height) - 6)
                cv2.putText(out, text, origin, cv2.FONT_HERSHEY_PLAIN, 0.4 * scale,
                            (255, 255, 255), 1, cv2.LINE_AA)
    return out
