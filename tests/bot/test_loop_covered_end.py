"""A game that ends under a dialog and then a message is seen to end, not stopped as a
board that "changed size" (issue #5).

Real frames of kmines 9x9/10 (``tests/bot/kmines_end/``, crops of a live capture of
``sweepbot play`` on 22 Nov, the board 40 px in from the crop's corner; the skin is the
one calibrated in that session): a first click that flooded the board and won, kmines'
"new high score" dialog drawn first as an empty frame, then painted (its text cursor
blinking), then, once closed, "Congratulations! You have won!" over rows 3-5 for about
2.9 s, fading out in 0.3 s over the won board. Here they are shown on a fake clock as
in the session that stopped (``game 39: aborted ... the board changed size to 9x10``):
the dialog stayed over 3 s, so the message was still there 6 s after the loop began to
wait, its restart timeout. The old loop then located the board on the full screen,
found a 9x10 board (the window's grey above the board read as a row of 0s) and
stopped.
"""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from bot import loop
from bot.loop import PlayConfig, Player
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from bot.screen import Image, clip_rect, load_image
from solver.cells import FLAG, neighbour_sum
from solver.textboard import parse_board
from vision.geometry import PixelRect
from vision.skin import load_skin

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

HERE = Path(__file__).parent / "kmines_end"

TIMELINE = (  # (seconds after the click, frame shown from then on)
    (0.0, "dialog0"),   # the dialog's empty frame over the board, kmines busy
    (0.4, "dialog1"),   # the dialog painted
    (0.9, "dialog2"),   # its text cursor blinks
    (1.4, "dialog1"),
    (1.9, "dialog2"),
    (2.4, "dialog1"),
    (2.9, "dialog2"),
    (3.3, "message"),   # dialog closed: the message over rows 3-5, standing still
    (6.2, "fade"),      # fading out
    (6.5, "won"),       # the won board, nothing over it
)


class Clock:
    """A fake time for the loop: sleeping moves it on, nothing else does."""

    def __init__(self) -> None:
        self.now = 1000.0

    def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)

    def monotonic(self) -> float:
        return self.now

    def namespace(self) -> SimpleNamespace:
        return SimpleNamespace(monotonic=self.monotonic, perf_counter=self.monotonic,
                               sleep=self.sleep, thread_time=time.thread_time,
                               strftime=time.strftime)


class EndScreen:
    """The fresh board until the first click, then the frames of TIMELINE."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.frames = {p.stem: load_image(p) for p in HERE.glob("*.png")}
        self.clicked: float | None = None

    def click(self, *_: object) -> None:
        if self.clicked is None:
            self.clicked = self.clock.now

    def frame(self) -> Image:
        if self.clicked is None:
            return self.frames["fresh"]
        name = [n for t, n in TIMELINE if self.clock.now - self.clicked >= t][-1]
        return self.frames[name]

    def size(self) -> tuple[int, int]:
        h, w = self.frames["fresh"].shape[:2]
        return w, h

    def grab(self, region: PixelRect | None = None) -> Image:
        frame = self.frame()
        if region is None:
            return frame.copy()
        r = clip_rect(region, *self.size())
        return frame[r.top:r.top + r.height, r.left:r.left + r.width].copy()

    def close(self) -> None:
        pass


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(loop, "time", c.namespace())
    return c


def test_the_won_board_reads_as_drawn() -> None:
    """The fixture's won board (checked by eye) is a finished game: every number counts
    its flagged neighbours, 10 flags, no covered square."""
    board = parse_board((HERE / "won.board").read_text())
    flags = board == FLAG
    assert int(flags.sum()) == 10 and (board >= -2).all()
    numbers = board >= 0
    assert (board[numbers] == neighbour_sum(flags)[numbers]).all()
    reader = SkinReader([load_skin(HERE / "skin")])
    image = load_image(HERE / "won.png")
    geometry = reader.locate(load_image(HERE / "fresh.png"))
    assert np.array_equal(reader.read(image, geometry), board)


def test_a_win_under_a_dialog_then_a_message_is_a_win(clock: Clock, tmp_path: Path) -> None:
    screen = EndScreen(clock)
    mouse = RecordingMouse(size=screen.size(), on_click=screen.click)
    reader = SkinReader([load_skin(HERE / "skin")])
    config = PlayConfig(games=1, mines=10, bug_dir=tmp_path / "bugs", seed=0)
    player = Player(screen, mouse, reader, "exact", config)
    results = player.play()
    assert [r.outcome for r in results] == ["won"], results[0].reason
    assert player.geometry is not None and (player.geometry.rows, player.geometry.cols) == (
        9, 9)
    b = player.geometry.bounds()
    clicks = mouse.clicks
    assert len(clicks) == 1  # the first click won; nothing clicked on the covers
    assert all(b.left <= a.point.x < b.left + b.width and b.top <= a.point.y < b.top + b.height
               for a in clicks)
    keys = [a.keys for a in mouse.actions if a.kind == "key"]
    assert set(keys) <= {"Escape"}  # the skin's dismiss key, for the dialog
    assert screen.clicked is not None and clock.now - screen.clicked >= 6.5
