"""The frame contract shared by every camera source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


class CameraError(Exception):
    """A camera could not be opened or read; the message names the camera and the cause."""


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One camera frame.

    ``image`` is BGR, uint8, shape (height, width, 3), C-contiguous: the vision input as is.
    ``t_ns`` is the capture time in ns (monotonic clock for live cameras, recorded time for a
    replay); ``seq`` counts frames from 0 over the source's lifetime (reopening continues it).
    ``lores`` is an optional small greyscale image of the same moment for motion detection
    (the Pi camera's low-resolution stream), None when the source has none.
    """

    image: Image
    t_ns: int
    seq: int
    lores: Image | None = None


class FrameSource(Protocol):
    """A source of frames. Not thread-safe: use it from one thread.

    ``open`` (again after ``close`` or a failure) raises :class:`CameraError` when the camera is
    not there; ``read`` returns the next frame, None when a finite source (file, folder) has no
    more, and raises :class:`CameraError` when reading fails or the source is not open;
    ``close`` is idempotent.
    """

    @property
    def name(self) -> str:
        """A short human-readable name for messages, e.g. ``replay:/path`` or ``opencv:0``."""
        ...

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def as_bgr(image: NDArray[Any], origin: str) -> Image:
    """``image`` as a BGR uint8 (h, w, 3) C-contiguous array; grey and BGRA are converted.

    Raises :class:`CameraError` naming ``origin`` for any other dtype or shape.
    """
    if image.dtype != np.uint8:
        raise CameraError(f"{origin}: frame dtype is {image.dtype}, expected uint8")
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 3 and min(image.shape[:2]) > 0:
        return np.ascontiguousarray(image, dtype=np.uint8)
    raise CameraError(f"{origin}: frame shape is {image.shape}, expected (h, w, 3) BGR")
