"""Per-pixel reductions over the three colour channels of a BGR image.

numpy's ``x.max(axis=-1)`` over a last axis of 3 runs ~10x slower than taking the
channels two at a time (40 µs against 3.5 µs for a 40x40 cell); a cell bank makes
such reductions hundreds of thousands of times while it learns a skin.

>>> x = np.array([[[1, 5, 2], [7, 0, 3]]])
>>> worst_channel(x).tolist(), any_channel(x > 6).tolist(), all_channel(x >= 1).tolist()
([[5, 7]], [[False, True]], [[True, False]])
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T", bound=np.generic)


def worst_channel(x: npt.NDArray[T]) -> npt.NDArray[T]:
    """The largest of the three channels of each pixel (``x.max(axis=-1)``)."""
    return np.maximum(np.maximum(x[..., 0], x[..., 1]), x[..., 2])


def any_channel(x: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Is any of the three channels of each pixel true (``x.any(axis=-1)``)?"""
    return x[..., 0] | x[..., 1] | x[..., 2]


def all_channel(x: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Are all three channels of each pixel true (``x.all(axis=-1)``)?"""
    return x[..., 0] & x[..., 1] & x[..., 2]
