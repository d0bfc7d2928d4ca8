"""``calibrate --from`` leaves unnamed a look only templates of another cell size named
when a template of another name lies near it.

gnome-mines draws its question mark as a flag with a tiny "?". In captures scaled by
0.8 (``cv2.INTER_AREA``), ``expert_900x480`` has 18 px squares where some flags and the
question marks make one look; nothing in those frames names it, and the question marks
learned at 24 px (``expert_1100x560``) named it a question mark: its flags read as
question marks (5 squares). The flags learned at a third size (``medium_700x700``) lie
within :data:`vision.calibrate.AMBIGUOUS_NEAR` of it, so it stays unnamed
(:func:`vision.calibrate.unsettle_seeded`), and so do the copies of its images the
sizes learned after it were seeded with.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells

GNOME = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"


def test_flags_and_question_marks_of_one_look_at_18_px_are_not_named() -> None:
    globs = ["expert_1100x560_*.png", "expert_900x480_*.png", "medium_700x700_*.png"]
    paths = sorted(p for g in globs for p in GNOME.glob(g))
    assert len(paths) == 6
    images = [np.asarray(cv2.resize(np.asarray(cv2.imread(str(p)), np.uint8), None,
                                    fx=0.8, fy=0.8, interpolation=cv2.INTER_AREA),
                         np.uint8) for p in paths]
    learned = learn_from_images(images, seconds=None)
    wrong = unknown = total = 0
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        expected = parse_board(path.with_suffix(".board").read_text())
        assert g is not None and (g.rows, g.cols) == expected.shape, path.name
        read = read_cells(image, g, learned.cells)
        wrong += int(((read != expected) & (read != UNKNOWN)).sum())  # before: 5 flags
        unknown += int((read == UNKNOWN).sum())
        total += read.size
    assert wrong == 0
    assert unknown <= 0.1 * total  # (123 of 2432)
