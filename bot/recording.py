"""An animated recording of play: frames with durations, saved as GIF (Pillow) or MP4.

>>> import numpy as np, tempfile, pathlib
>>> rec = Recording()
>>> rec.add(np.zeros((10, 12, 3), np.uint8), 100)
>>> rec.add(np.zeros((10, 12, 3), np.uint8), 100)  # the same picture: merged
>>> rec.add(np.full((10, 12, 3), 255, np.uint8), 500)
>>> len(rec.frames), rec.frames[0].ms
(2, 200)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.gif"
>>> rec.save(path).exists()
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bot.screen import Image


@dataclass
class Frame:
    image: Image
    ms: int


@dataclass
class Recording:
    """Frames in order; a frame equal to the previous one extends it instead."""

    frames: list[Frame] = field(default_factory=list)

    def add(self, image: Image, ms: int) -> None:
        if self.frames and self.frames[-1].image.shape == image.shape \
                and np.array_equal(self.frames[-1].image, image):
            self.frames[-1].ms += ms
            return
        self.frames.append(Frame(image.copy(), ms))

    def save(self, path: Path) -> Path:
        """Write ``path`` (.gif, or .mp4 / .avi through OpenCV)."""
        if not self.frames:
            raise ValueError("nothing was recorded")
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".gif":
            self._save_gif(path)
        elif path.suffix.lower() in (".mp4", ".avi"):
            self._save_video(path)
        else:
            raise ValueError(f"unknown recording format {path.suffix!r}: use .gif or .mp4")
        return path

    def _save_gif(self, path: Path) -> None:
        from PIL import Image as PILImage

        h = max(f.image.shape[0] for f in self.frames)
        w = max(f.image.shape[1] for f in self.frames)
        pics = [PILImage.fromarray(cv2.cvtColor(_pad(f.image, h, w), cv2.COLOR_BGR2RGB))
                .quantize(colors=64, method=PILImage.Quantize.MEDIANCUT) for f in self.frames]
        pics[0].save(path, save_all=True, append_images=pics[1:], loop=0, optimize=True,
                     duration=[max(20, f.ms) for f in self.frames], disposal=1)

    def _save_video(self, path: Path, fps: int = 10) -> None:
        h = max(f.image.shape[0] for f in self.frames)
        w = max(f.image.shape[1] for f in self.frames)
        h, w = h + h % 2, w + w % 2
        fourcc = cv2.VideoWriter.fourcc(*("mp4v" if path.suffix.lower() == ".mp4" else "MJPG"))
        out = cv2.VideoWriter(str(path), fourcc, fps, (w, h))
        try:
            for f in self.frames:
                for _ in range(max(1, round(f.ms * fps / 1000))):
                    out.write(_pad(f.image, h, w))
        finally:
            out.release()


def _pad(image: Image, h: int, w: int) -> Image:
    """``image`` padded with grey to h x w (frames of one recording may differ in size)."""
    ih, iw = image.shape[:2]
    if (ih, iw) == (h, w):
        return image
    out = cv2.copyMakeBorder(image, 0, h - ih, 0, w - iw, cv2.BORDER_CONSTANT,
                             value=(192, 192, 192))
    return np.asarray(out, dtype=np.uint8)
