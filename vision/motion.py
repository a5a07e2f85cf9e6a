"""Still scene or hands and motion over the board: read only settled frames.

Both tests are pure functions of the frames passed in (the caller keeps the recent frames):

- ``moving``: between consecutive frames, more than ``max_changed_share`` of the board's pixels
  changed their grey level by more than ``changed_level``.
- ``hand_over_board``: in one frame, a skin-coloured region that enters from the frame's edge
  covers part of the board (a hand or an arm reaching in).

A frame is *settled* when neither holds; otherwise the reading is ``occluded``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import MotionConfig

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.uint8]


def _small_grey(image_bgr: Image, config: MotionConfig) -> npt.NDArray[np.float32]:
    height, width = image_bgr.shape[:2]
    size = (config.compare_width, max(1, round(height * config.compare_width / width)))
    small = cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(grey, (3, 3), 0), np.float32)


def _small_mask(region: Mask | None, shape: tuple[int, int]) -> npt.NDArray[np.bool_]:
    if region is None:
        return np.ones(shape, bool)
    return cv2.resize(region, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST) > 0


def moving(frames: Sequence[Image], config: MotionConfig, region: Mask | None = None) -> bool:
    """Whether anything moved between consecutive frames (oldest first) inside ``region`` (255
    on the board, frame-sized; the whole frame if None). Fewer than two frames: not moving."""
    greys = [_small_grey(frame, config) for frame in frames]
    if len(greys) < 2:
        return False
    inside = _small_mask(region, greys[0].shape)
    if not inside.any():
        return False
    for before, after in itertools.pairwise(greys):
        if before.shape != after.shape:
            return True
        changed = np.abs(after - before) > config.changed_level
        if changed[inside].mean() > config.max_changed_share:
            return True
    return False


def hand_over_board(image_bgr: Image, config: MotionConfig, region: Mask | None = None) -> bool:
    """Whether a skin-coloured region entering from the frame's edge covers part of ``region``
    (255 on the board; the whole frame if None)."""
    height, width = image_bgr.shape[:2]
    size = (config.compare_width, max(1, round(height * config.compare_width / width)))
    small = cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA)
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    low = np.array([0, config.skin_cr[0], config.skin_cb[0]], np.uint8)
    high = np.array([255, config.skin_cr[1], config.skin_cb[1]], np.uint8)
    skin = cv2.morphologyEx(
        cv2.inRange(ycrcb, low, high), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    inside = _small_mask(region, skin.shape)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(skin)
    rows, columns = skin.shape
    over = np.bincount(labels[inside], minlength=count)
    needed = config.min_hand_share * max(1, int(np.count_nonzero(inside)))
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        touches_edge = x == 0 or y == 0 or x + w == columns or y + h == rows
        if touches_edge and area <= config.max_hand_share * skin.size and over[label] >= needed:
            return True
    return False


def occluded(frames: Sequence[Image], config: MotionConfig, region: Mask | None = None) -> bool:
    """Whether the newest of ``frames`` (oldest first) must not be read: a hand over the board in
    it, or motion over the board between the frames."""
    if not frames:
        return False
    return hand_over_board(frames[-1], config, region) or moving(frames, config, region)
