"""Frame readers: a camera frame in, a ``vision.labels.Reading`` out.

``VisionReader`` runs ``vision.read.read_frame`` with the previous frame, so motion between them
marks the reading occluded (``vision.motion``). ``LabelReader`` is the embedded demo's perfect
camera: the renderer's exact label of each replayed frame, looked up by the frame's position in
the recording. It never reads pixels: use it to show the kiosk's flow, not to judge vision.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Protocol

from hardware.camera.frame import Frame, Image
from vision.config import ReadConfig
from vision.labels import Reading
from vision.read import read_frame


class FrameReader(Protocol):
    """Reads one frame."""

    def __call__(self, frame: Frame) -> Reading: ...


class VisionReader:
    """``vision.read.read_frame`` with the ``history`` previous frames for motion."""

    def __init__(self, config: ReadConfig | None = None, history: int = 1) -> None:
        self._config = config or ReadConfig()
        self._previous: deque[Image] = deque(maxlen=history)

    def __call__(self, frame: Frame) -> Reading:
        reading = read_frame(frame.image, self._config, previous=tuple(self._previous))
        self._previous.append(frame.image)
        return reading


class LabelReader:
    """The exact labels of a recording's frames, by ``frame.seq`` modulo the recording's length
    (a looping ``ReplaySource`` numbers frames on across passes)."""

    def __init__(self, labels: Sequence[Reading]) -> None:
        if not labels:
            raise ValueError("labels: a recording has at least one frame")
        self._labels = tuple(labels)

    def __call__(self, frame: Frame) -> Reading:
        return self._labels[frame.seq % len(self._labels)]
