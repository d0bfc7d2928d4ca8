"""``calibrate --from`` on the Windows 7-look captures (``tests/vision/web_win7``: real
Chromium captures of ``benchmarks/webgames/win7.html``, boards from the page's mine
layout; see tests/vision/test_web_win7.py).

The "Game Lost" dialog hides the middle of the lost board, so no loss reading fits that
frame; it was taken for a game in play, and the wrong flag it shows beside the dialog
(also on the frame just before the dialog came) was named a question mark, read so on
both lost frames. A frame that shows a look named a shown mine is no game in play.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_calibrate_offline_marks import _read_back  # (pytest puts this folder on sys.path)

from solver.cells import COVERED, MINE, QUESTION, UNKNOWN, WRONG_FLAG

HERE = Path(__file__).resolve().parent / "web_win7"
CASES = ["fresh", "playing", "lost_shown", "lost", "won"]


def test_win7_captures_read_back_named_and_right() -> None:
    states, reads = _read_back([HERE / f"{name}.png" for name in CASES])
    assert {COVERED, 0, 1, 2, 3, MINE, WRONG_FLAG} <= states and QUESTION not in states
    for name, expected, read in reads:
        known = read != UNKNOWN
        wrong = np.argwhere(known & (read != expected)).tolist()
        assert wrong == [], name
        if name in ("fresh.png", "lost_shown.png"):
            assert known.mean() > 0.98, name
