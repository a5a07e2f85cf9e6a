"""Shrinking a frame by area averaging, fast: the small copies the networks and motion read.

OpenCV's area resize has a fast path for halving a side (a 2x2 average) and a slow general
one: on one x86_64 core a 1280x720 frame takes 0.36 ms to halve, 1.3 ms to shrink to a quarter
in one step and 4.5 ms to shrink by 0.35. ``shrink_to`` halves while the target is at most half
the current size, then averages the rest in one step on the smaller image. Reached by halvings
alone, the result is the one-step resize to rounding (within 2 grey levels at a quarter or an
eighth); a last step of another factor averages other footprints, so sharp edges can differ
more (under one level on average on rendered frames; ``train_dice`` too shrinks frames it
keeps at half size).

Within ``halvings_kept(frame)`` the halvings of that frame are made once and reused: reading
a frame, the dice detector and the hand segmenter both shrink it (a 1280 x 720 frame to about
226 x 127 and to 160 x 90), and share its halvings to 320 x 180, about 0.4 ms a frame of one
core sooner (the frame fresh from memory, as a camera's is), the results unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

# Per frame kept (``halvings_kept``), the frame and its halvings made so far, largest first.
_KEPT: ContextVar[tuple[list[Image], ...]] = ContextVar("halvings_kept", default=())


@contextmanager
def halvings_kept(*frames: Image) -> Iterator[None]:
    """Within the block, ``shrink_to`` halves each of ``frames`` at most once a size."""
    token = _KEPT.set(tuple([frame] for frame in frames))
    try:
        yield
    finally:
        _KEPT.reset(token)


def _halvings(image: Image) -> list[Image]:
    """The halvings of ``image`` kept (``halvings_kept``; itself first), or a fresh list."""
    return next((kept for kept in _KEPT.get() if kept[0] is image), [image])


def shrink_to(image: Image, size: tuple[int, int]) -> Image:
    """``image`` (H x W or H x W x C, uint8) area-averaged to ``size`` (width, height, each at
    least 1 and at most the image's own). The result may be ``image`` itself or a halving
    kept (``halvings_kept``): callers read it, never write to it."""
    width, height = size
    if not (1 <= width <= image.shape[1] and 1 <= height <= image.shape[0]):
        raise ValueError(f"shrink_to: cannot shrink {image.shape[1]}x{image.shape[0]} to {size}")
    halvings = _halvings(image)
    current, made = image, 0
    while 2 * width <= current.shape[1] and 2 * height <= current.shape[0]:
        made += 1
        if made == len(halvings):
            half = (current.shape[1] // 2, current.shape[0] // 2)
            halvings.append(
                np.asarray(cv2.resize(current, half, interpolation=cv2.INTER_AREA), np.uint8)
            )
        current = halvings[made]
    if (current.shape[1], current.shape[0]) == (width, height):
        return np.asarray(current, np.uint8)
    return np.asarray(cv2.resize(current, size, interpolation=cv2.INTER_AREA), np.uint8)
