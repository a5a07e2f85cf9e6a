"""Board snapshots for incidents: JPEG bytes encoded from the camera's BGR frames."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.store.errors import EntryError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DEFAULT_QUALITY = 85
"""JPEG quality (0-100): a 1280x720 board is about 100 KB, every checker still readable."""


def encode_snapshot(image: npt.NDArray[np.uint8], quality: int = DEFAULT_QUALITY) -> bytes:
    """JPEG bytes of a BGR (height x width x 3) or grey (height x width) uint8 image."""
    import cv2
    import numpy as np

    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise EntryError(f"snapshot: expected a uint8 image array, got {_describe(image)}")
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 3)) or 0 in image.shape:
        raise EntryError(f"snapshot: expected H x W x 3 (BGR) or H x W, got shape {image.shape}")
    if not 0 <= quality <= 100:
        raise EntryError(f"snapshot: JPEG quality must be 0..100, got {quality}")
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise EntryError(f"snapshot: OpenCV could not encode a {image.shape} image as JPEG")
    return bytes(buffer.tobytes())


def decode_snapshot(jpeg: bytes) -> npt.NDArray[np.uint8]:
    """The BGR image of a snapshot's JPEG bytes."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(jpeg, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise EntryError(f"snapshot: {len(jpeg)} bytes are not a readable JPEG image")
    return np.asarray(image, dtype=np.uint8)


def _describe(value: object) -> str:
    dtype = getattr(value, "dtype", None)
    return f"{type(value).__name__} of {dtype}" if dtype is not None else type(value).__name__
