"""Read a recorded capture whose checksum a test asserts (a changed file fails loudly
rather than testing something else)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bot.screen import FileScreen


def read_checked(path: Path, sha256: str) -> np.ndarray:
    """The BGR image in ``path``, after asserting its bytes' SHA-256 is ``sha256``."""
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == sha256, f"{path} changed"
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None, f"{path} is no image"
    return image


class StillScreen:
    """A screen that shows one capture (``image``, which a test may swap) and nothing
    else: the recorded frames of a live game drive the calibrator with no display."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def grab(self, region: object = None) -> np.ndarray:
        return self.image

    def close(self) -> None:
        pass


class LaterScreen(FileScreen):
    """Shows its next frame after every ``every`` grabs (time passing: the game draws
    on)."""

    def __init__(self, frames: list[np.ndarray], every: int) -> None:
        super().__init__(frames)
        self.every = every

    def grab(self, region: object = None) -> np.ndarray:
        if self.grabs and self.grabs % self.every == 0:
            self.advance()
        return super().grab(region)  # type: ignore[arg-type]


def play_frames(frames: list[np.ndarray], skin_dir: Path, bug_dir: Path) -> tuple[Any, Any]:
    """One game played (strategy "exact", seed 0) on recorded ``frames``, the next
    shown at each click, read with the skin in ``skin_dir``: the player and its
    recording mouse."""
    from bot.loop import PlayConfig, Player
    from bot.mouse import RecordingMouse
    from bot.reader import SkinReader
    from vision.skin import load_skin

    screen = FileScreen(frames)
    mouse = RecordingMouse(size=screen.size(), on_click=lambda *_: screen.advance())
    player = Player(screen, mouse, SkinReader([load_skin(skin_dir)]), "exact",
                    PlayConfig(games=1, bug_dir=bug_dir, seed=0))
    return player, mouse
