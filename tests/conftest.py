"""Shared pytest set-up.

``virtual_time``: for tests whose screen and mouse are made up (no real display, game
or other process): ``time.sleep`` returns at once, and ``time.monotonic``,
``time.perf_counter`` and ``time.time`` run ahead by every sleep skipped. Code under
test sees time pass as if it had slept (a redraw awaited, a game drawn late, a time
limit), but no test waits: most of the made-up games' run time was sleeping. A test
module takes it with ``pytestmark = pytest.mark.usefixtures("virtual_time")``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest


@dataclass
class VirtualClock:
    """The real clocks, plus every sleep skipped so far."""

    ahead: float = 0.0

    def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        self.ahead += seconds

    def shifted(self, clock: Callable[[], float]) -> Callable[[], float]:
        return lambda: clock() + self.ahead


@pytest.fixture(scope="module")
def virtual_time() -> Iterator[VirtualClock]:
    """(Module-wide: a module's own fixtures that play games run on it too.)"""
    clock = VirtualClock()
    with pytest.MonkeyPatch.context() as patch:
        for name in ("monotonic", "perf_counter", "time"):
            patch.setattr(time, name, clock.shifted(getattr(time, name)))
        patch.setattr(time, "sleep", clock.sleep)
        yield clock
