"""Name the squares of a JPEG capture the reader left unknown by encoding each candidate
look the way the capture was encoded (analysis by synthesis).

A JPEG keeps brightness per pixel but colour per 2x2 pixels (4:2:0), and rounds both
per 8x8 block: a thin yellow stroke on black comes out pale, nearer white than yellow,
and no template of a lossless skin is near it. But the damage is deterministic: paste
a template into the capture's neighbourhood of the square, encode that patch with the
capture's own quality and chroma subsampling (read from the file: :func:`jpeg_coding`)
on the capture's own 16-pixel block grid, decode it, and the right template comes back
as the capture shows it (within a few levels), every other one far off
(:func:`name_by_recoding`). WineMine's fixtures at quality 90-60 left 61-137 squares
unknown with the shipped skin; every one is named so, none wrongly.

>>> flat = np.zeros((32, 32, 3), np.uint8)
>>> ok, data = cv2.imencode(".jpg", flat, [cv2.IMWRITE_JPEG_QUALITY, 75])
>>> jpeg_coding(data.tobytes())
JpegCoding(quality=75, chroma=(2, 2))
>>> jpeg_coding(b"\\x89PNG\\r\\n") is None
True
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import UNKNOWN, Board
from vision.geometry import BoardGeometry, PixelRect
from vision.lossy import is_jpeg
from vision.skin import Image, Skin

RECODE_MAX = 16.0
"""A square is named only when its best candidate, encoded like the capture, lies within
this root mean squared difference (0-255 scale) of the capture: right templates of
WineMine, xdemineur and minegauler fixtures at quality 90-60 came back within 4.9
(median) to 8.1 (90th percentile), WineMine's red exploded mine and question mark at
quality 60 within 12.2-12.7; a square under a dialog lay 20 or more from all."""

RECODE_MARGIN = 0.5
"""...and at most this fraction of the next state's (the next was 4-10 times further)."""

SIZE_SLACK = 0.2
"""Templates more than this share of the square's side off its size are not tried."""

MCU = 16
"""The side of a JPEG's largest block (a 4:2:0 minimum coded unit): patches are cut on
this grid, so their blocks are the capture's."""

_SAMPLING = {(2, 2): "SAMPLING_FACTOR_420", (2, 1): "SAMPLING_FACTOR_422",
             (1, 1): "SAMPLING_FACTOR_444"}


@dataclass(frozen=True)
class JpegCoding:
    """How a JPEG was encoded: its IJG quality (1-100, the nearest to its luminance
    table) and its luminance sampling factors (h, v) against chroma: (2, 2) is 4:2:0."""

    quality: int
    chroma: tuple[int, int]

    def params(self) -> list[int]:
        """``cv2.imencode`` parameters that encode the same way."""
        factor = getattr(cv2, "IMWRITE_JPEG_" + _SAMPLING.get(self.chroma, "SAMPLING_FACTOR_420"))
        return [cv2.IMWRITE_JPEG_QUALITY, self.quality, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                int(factor)]


def _segments(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(marker, payload) of each header segment of a JPEG, up to its scan."""
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF and data[i + 1] != 0xDA:
        (n,) = struct.unpack(">H", data[i + 2:i + 4])
        yield data[i + 1], data[i + 4:i + 2 + n]
        i += 2 + n


def _luma_table(data: bytes) -> npt.NDArray[np.int64] | None:
    """The quantization table 0 (luminance) of a JPEG, in file order."""
    for marker, seg in _segments(data):
        j = 0
        while marker == 0xDB and j < len(seg):
            wide, table = seg[j] >> 4, seg[j] & 15
            size = 128 if wide else 64
            if table == 0:
                raw = np.frombuffer(seg[j + 1:j + 1 + size], ">u2" if wide else np.uint8)
                return raw.astype(np.int64) if len(raw) == 64 else None
            j += 1 + size
    return None


def _sampling(data: bytes) -> tuple[int, int]:
    """How many luminance samples (h, v) the frame header sets per chroma sample."""
    for marker, seg in _segments(data):
        if marker in (0xC0, 0xC1, 0xC2) and len(seg) >= 12 and seg[5] >= 3:
            luma, chroma = seg[7], seg[10]
            return (max(1, (luma >> 4) // max(1, chroma >> 4)),
                    max(1, (luma & 15) // max(1, chroma & 15)))
    return (2, 2)


@lru_cache(maxsize=1)
def _ijg_tables() -> tuple[npt.NDArray[np.int64], ...]:
    """The luminance table of every IJG quality 1-100, as this OpenCV writes them."""
    tables = []
    for q in range(1, 101):
        _, enc = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8),
                              [cv2.IMWRITE_JPEG_QUALITY, q])
        table = _luma_table(enc.tobytes())
        assert table is not None
        tables.append(table)
    return tuple(tables)


def jpeg_coding(data: bytes) -> JpegCoding | None:
    """The coding of a JPEG file's bytes (None: not a JPEG, or no luminance table)."""
    if not is_jpeg(data):
        return None
    table = _luma_table(data)
    if table is None:
        return None
    gaps = [int(np.abs(t - table).sum()) for t in _ijg_tables()]
    return JpegCoding(int(np.argmin(gaps)) + 1, _sampling(data))


def recoded(image: Image, coding: JpegCoding) -> Image:
    """``image`` encoded as ``coding`` says and decoded again."""
    ok, enc = cv2.imencode(".jpg", image, coding.params())
    assert ok
    return np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR), np.uint8)


Candidate = tuple[int, Image]
"""A cell code (UNKNOWN for a look the skin keeps unnamed) and its template."""


def candidates(skin: Skin, width: int, height: int) -> list[Candidate]:
    """Each state's templates of the size nearest ``width`` x ``height`` (resized to it),
    and the skin's unnamed looks as UNKNOWN; none of a state whose nearest is more than
    :data:`SIZE_SLACK` off.

    >>> from vision.skin import load_skin
    >>> looks = candidates(load_skin("xdemineur"), 21, 21)
    >>> len({code for code, _ in looks}) >= 12, looks[0][1].shape
    (True, (21, 21, 3))
    """
    out: list[Candidate] = []
    m = centre_margin(width, height)
    seen: set[tuple[int, bytes]] = set()
    for code, imgs in [*skin.cells.items(), (UNKNOWN, skin.unnamed)]:
        gaps = [abs(img.shape[0] - height) + abs(img.shape[1] - width) for img in imgs]
        if not gaps or min(gaps) > SIZE_SLACK * (width + height):
            continue
        for img, gap in zip(imgs, gaps, strict=True):
            if gap != min(gaps):
                continue
            if img.shape[:2] != (height, width):
                img = np.asarray(cv2.resize(img, (width, height),
                                            interpolation=cv2.INTER_AREA), np.uint8)
            key = (code, img[m:height - m, m:width - m].tobytes())
            if key not in seen:  # (cuts of one look: the same centre, the same answer)
                seen.add(key)
                out.append((code, img))
    return out


def centre_margin(width: int, height: int) -> int:
    """The border of a square left out of the comparison: the reader's (3/22 a side),
    as grid lines at a square's edge depend on its neighbours."""
    return max(1, round(min(width, height) * 3 / 22))


def _patch_box(rect: PixelRect, shape: tuple[int, ...], context: int = 8) -> PixelRect:
    """The box on the :data:`MCU` grid holding ``rect`` and ``context`` pixels round it,
    within an image of ``shape``."""
    x0 = max(0, (rect.left - context) // MCU * MCU)
    y0 = max(0, (rect.top - context) // MCU * MCU)
    x1 = min(shape[1], -(-(rect.left + rect.width + context) // MCU) * MCU)
    y1 = min(shape[0], -(-(rect.top + rect.height + context) // MCU) * MCU)
    return PixelRect(x0, y0, x1 - x0, y1 - y0)


def recoding_errors(capture: Image, rect: PixelRect, looks: Sequence[Candidate],
                    coding: JpegCoding) -> dict[int, float]:
    """Per code, the least root mean squared difference between the centre of the square
    ``rect`` in ``capture`` and the centre of one of its ``looks`` pasted there and
    encoded as ``coding`` with the capture round it (the centre: :func:`centre_margin`)."""
    box = _patch_box(rect, capture.shape)
    patch = capture[box.top:box.top + box.height, box.left:box.left + box.width]
    m = centre_margin(rect.width, rect.height)
    top, left = rect.top - box.top + m, rect.left - box.left + m
    h, w = rect.height - 2 * m, rect.width - 2 * m
    seen = patch[top:top + h, left:left + w].astype(np.float32)
    errors: dict[int, float] = {}
    for code, look in looks:
        trial = patch.copy()
        trial[top:top + h, left:left + w] = look[m:m + h, m:m + w]
        back = recoded(trial, coding)[top:top + h, left:left + w].astype(np.float32)
        error = float(np.sqrt(np.mean((back - seen) ** 2)))
        errors[code] = min(error, errors.get(code, np.inf))
    return errors


def name_by_recoding(capture: Image, geometry: BoardGeometry, skin: Skin, board: Board,
                     coding: JpegCoding, most: int = 1000,
                     shifts: Sequence[tuple[int, int]] | None = None) -> Board:
    """``board`` with each UNKNOWN square (at most ``most``) of ``capture`` (the decoded
    JPEG, ``geometry`` in its pixels) named by :func:`recoded_name` (``shifts``: its
    offsets, default :data:`SHIFTS`); the others stay UNKNOWN."""
    out = board.copy()
    by_size: dict[tuple[int, int], list[Candidate]] = {}
    for r, c in np.argwhere(board == UNKNOWN)[:most]:
        rect = geometry.cell_rect((int(r), int(c)))
        size = (rect.width, rect.height)
        looks = by_size.setdefault(size, candidates(skin, *size))
        out[r, c] = recoded_name(capture, rect, looks, coding,
                                 SHIFTS if shifts is None else shifts)
    return out


SHIFTS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)
"""Offsets a square is tried at when it is not named in place: a lattice found in a
JPEG at a fractional pitch puts some squares a pixel off (xdemineur's 16x16 on a
1920x1080 screen at quality 60: 26 of its squares, best looks 29-60 from the capture in
place)."""


def recoded_name(capture: Image, rect: PixelRect, looks: Sequence[Candidate],
                 coding: JpegCoding, shifts: Sequence[tuple[int, int]] = SHIFTS) -> int:
    """The code of the look (:func:`recoding_errors`) that comes back within
    :data:`RECODE_MAX` of the square ``rect`` of ``capture`` and at most
    :data:`RECODE_MARGIN` of the next code's distance, in place or else at the best of
    ``shifts``; UNKNOWN when none does, or the square is not wholly in the capture,
    or it is nearest a look the skin keeps unnamed."""
    errors: dict[int, float] = {}
    for group in (((0, 0),), shifts):
        for dx, dy in group:
            at = PixelRect(rect.left + dx, rect.top + dy, rect.width, rect.height)
            if at.left < 0 or at.top < 0 or at.left + at.width > capture.shape[1] \
                    or at.top + at.height > capture.shape[0]:
                continue
            for code, error in recoding_errors(capture, at, looks, coding).items():
                errors[code] = min(error, errors.get(code, np.inf))
        ranked = sorted(errors.values())
        if len(ranked) >= 2 and ranked[0] <= RECODE_MAX \
                and ranked[0] <= RECODE_MARGIN * ranked[1]:
            return min(errors, key=lambda code: errors[code])
    return UNKNOWN
