"""A USB camera (or a video file played as if live) through OpenCV's VideoCapture."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from hardware.camera.frame import CameraError, Frame, as_bgr


class OpenCVSource:
    """Frames from ``cv2.VideoCapture(target)``.

    ``target`` is a camera index (0 = first USB camera), a device path such as ``/dev/video0``,
    or a video file. Each frame is stamped with ``clock_ns()`` right after it is grabbed (before
    decoding). For a video file, the end of the file ends the source (``read`` returns None); for
    a camera, a failed grab is a :class:`CameraError` (unplugged, or the driver gave up).
    ``size`` asks the camera for a (width, height); the camera may pick another.
    """

    def __init__(
        self,
        target: int | str,
        *,
        size: tuple[int, int] | None = None,
        clock_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._target = target
        self._size = size
        self._clock_ns = clock_ns
        self._is_file = isinstance(target, str) and Path(target).is_file()
        self._capture: Any = None
        self._seq = 0

    @property
    def name(self) -> str:
        return f"opencv:{self._target}"

    def open(self) -> None:
        self.close()
        capture = cv2.VideoCapture(self._target)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"{self.name}: cannot open (no such camera, or busy)")
        if self._size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self._size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self._size[1])
        self._capture = capture

    def read(self) -> Frame | None:
        if self._capture is None:
            raise CameraError(f"{self.name}: read before open")
        if not self._capture.grab():
            if self._is_file:
                return None
            raise CameraError(f"{self.name}: no frame (camera unplugged or stopped)")
        t_ns = self._clock_ns()
        ok, image = self._capture.retrieve()
        if not ok or image is None:
            raise CameraError(f"{self.name}: frame could not be decoded")
        frame = Frame(as_bgr(image, self.name), t_ns, self._seq)
        self._seq += 1
        return frame

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
