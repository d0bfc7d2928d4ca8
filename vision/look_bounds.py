"""Cheap lower bounds of :func:`vision.calibrate.look_distance`, to skip looks that
cannot match a new cell image.

A :class:`vision.calibrate.CellBank` compares every new cell image with every look
it has. Over a board, few looks exist and the comparisons are cheap. Over anything
else in the board's place (minesweeper-mvc's menu, a dialog, a picture), each square
adds a look of its own; a few hundred looks later, reading one such screen took a
minute. Most of those comparisons can be settled from colour ranges alone.

``look_distance(a, b)`` is at least a third of the mean, over ``b``'s pixels one in from
its edge, of how far each lies (worst channel) outside the range of ``a``'s pixels
within one pixel of it. That range lies within the range of ``a``'s pixels in a block
of the image grown by a pixel, so the distance to that block's range gives a lower
bound. The whole image's range gives one for the two images with edge strips erased
(:func:`vision.edges.find_band`): erasing copies pixels of the image itself, and leaves
the pixels at least a band's width in from every side as they were.

>>> flat = np.full((12, 12, 3), 100, np.uint8)
>>> bounds = LookBounds()
>>> bounds.add(flat)
>>> bright = np.full((12, 12, 3), 160, np.uint8)
>>> whole, inner = bounds.lower(bright, 3)
>>> float(whole[0]), round(float(inner[0]), 2)
(20.0, 7.2)
>>> from vision.calibrate import look_distance
>>> bool(whole[0] <= look_distance(flat, bright))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from vision.channels import worst_channel

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]


BLOCKS = 4
"""Each image is cut into ``BLOCKS`` x ``BLOCKS`` blocks; a pixel's neighbours lie in
its block grown by one pixel, whose range is a tighter bound than the whole image's."""


def _blocks(h: int, w: int) -> list[tuple[int, int, int, int]]:
    """The blocks of an ``h`` x ``w`` image, row by row, as (top, bottom, left, right).

    >>> _blocks(8, 4)[:2]
    [(0, 2, 0, 1), (0, 2, 1, 2)]
    """
    ys = [round(k * h / BLOCKS) for k in range(BLOCKS + 1)]
    xs = [round(k * w / BLOCKS) for k in range(BLOCKS + 1)]
    return [(y0, y1, x0, x1) for y0, y1 in pairwise(ys) for x0, x1 in pairwise(xs)]


def _block_ranges(look: Image) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The lowest and highest value per channel of the whole of ``look`` (row 0), then
    of each block grown by one pixel (rows 1 to ``BLOCKS ** 2``)."""
    h, w = look.shape[:2]
    img = look.astype(np.int16)
    parts = [img, *(img[max(0, y0 - 1):y1 + 1, max(0, x0 - 1):x1 + 1]
                    for y0, y1, x0, x1 in _blocks(h, w))]
    lo = np.stack([p.reshape(-1, img.shape[-1]).min(axis=0) for p in parts])
    hi = np.stack([p.reshape(-1, img.shape[-1]).max(axis=0) for p in parts])
    return lo, hi


@dataclass
class LookBounds:
    """The colour ranges of every look (whole, and by block), in the order the looks
    were added."""

    shapes: list[tuple[int, ...]] = field(default_factory=list)
    lo: npt.NDArray[np.int16] = field(
        default_factory=lambda: np.zeros((0, BLOCKS ** 2 + 1, 3), np.int16))
    hi: npt.NDArray[np.int16] = field(
        default_factory=lambda: np.zeros((0, BLOCKS ** 2 + 1, 3), np.int16))

    def add(self, look: Image) -> None:
        lo, hi = _block_ranges(look)
        self.shapes.append(look.shape)
        self.lo = np.concatenate([self.lo, lo[None]])
        self.hi = np.concatenate([self.hi, hi[None]])

    def replace(self, looks: list[Image]) -> None:
        """Start again from ``looks`` (they were drawn anew)."""
        self.shapes, self.lo, self.hi = [], self.lo[:0], self.hi[:0]
        for look in looks:
            self.add(look)

    def lower(self, img: Image, width: int) -> tuple[Floats, Floats]:
        """Per look, lower bounds of ``look_distance(look, img)`` and of the same with
        edge strips up to ``width`` wide erased from both; infinite for a look of
        another shape (never compared)."""
        h, w = img.shape[:2]
        over = 3.0 * max(1, (h - 2) * (w - 2))  # (look_distance: a third of a mean)
        whole = np.zeros(len(self.shapes))
        for block, (y0, y1, x0, x1) in enumerate(_blocks(h, w), start=1):
            pixels = img[max(1, y0):min(h - 1, y1), max(1, x0):min(w - 1, x1)]
            whole += _gap(self.lo[:, block], self.hi[:, block], pixels)
        inner = _gap(self.lo[:, 0], self.hi[:, 0], img[width:h - width, width:w - width])
        other = np.array([s != img.shape for s in self.shapes], bool)
        whole[other] = inner[other] = np.inf
        return whole / over, inner / over


def _gap(lo: npt.NDArray[np.int16], hi: npt.NDArray[np.int16], pixels: Image) -> Floats:
    """Per range (rows of ``lo``/``hi``), the sum over ``pixels`` of how far each lies
    outside it, worst channel (each distinct colour worked out once).

    >>> _gap(np.array([[0, 0, 0]]), np.array([[9, 9, 9]]), np.full((2, 2, 3), 12, np.uint8))
    array([12.])
    """
    if not pixels.size or not len(lo):
        return np.zeros(len(lo))
    flat = pixels.reshape(-1, pixels.shape[-1]).astype(np.int32)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    keys, counts = np.unique(packed, return_counts=True)
    colours = np.stack([keys >> 16, (keys >> 8) & 255, keys & 255], axis=1).astype(np.int16)
    below = lo[:, None, :] - colours[None]
    above = colours[None] - hi[:, None, :]
    gap = np.maximum(worst_channel(np.maximum(below, above)), 0)
    return np.asarray(gap @ counts, np.float64)
