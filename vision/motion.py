"""Still scene or hands and motion over the board: read only settled frames.

Both tests are pure functions of the frames passed in (the caller keeps the recent frames):

- ``moving``: between consecutive frames, more than ``max_changed_share`` of the board's pixels
  changed their grey level by more than ``changed_level``.
- ``hand_over_board``: in one frame, a hand or an arm reaching in from the frame's edge covers
  part of the board, as a small segmentation network sees it (``hand_map``; a still hand shows
  no motion). It replaced a
  skin-colour test that found 50 of 157 hands on the rendered evaluation frames.

A frame is *settled* when neither holds; otherwise the reading is ``occluded``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.config import MotionConfig
from vision.nets import Floats
from vision.shrink import shrink_to

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.uint8]

HAND_NET = "hands"
HAND_INPUT = (160, 96)  # the hand segmenter's input, width x height pixels
HAND_CELL = 4  # input pixels per output cell along each side


def _small_grey(image_bgr: Image, config: MotionConfig) -> npt.NDArray[np.float32]:
    height, width = image_bgr.shape[:2]
    size = (config.compare_width, max(1, round(height * config.compare_width / width)))
    small = shrink_to(image_bgr, (min(width, size[0]), min(height, size[1])))
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(grey, (3, 3), 0), np.float32)


def _small_mask(region: Mask | None, shape: tuple[int, int]) -> npt.NDArray[np.bool_]:
    if region is None:
        return np.ones(shape, bool)
    return cv2.resize(region, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST) > 0


def moving(frames: Sequence[Image], config: MotionConfig, region: Mask | None = None) -> bool:
    """Whether anything moved between consecutive frames (oldest first) inside ``region`` (255
    on the board, frame-sized; the whole frame if None). Fewer than two frames: not moving
    (and none is shrunk: a lone frame, as ``read_frame`` reads one, costs nothing here)."""
    if len(frames) < 2:
        return False
    greys = [_small_grey(frame, config) for frame in frames]
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


def hand_input(image_bgr: Image) -> Floats:
    """The hand segmenter's input: the frame shrunk by a whole factor (area average,
    ``vision.shrink``) to about ``HAND_INPUT`` wide, stretched to ``HAND_INPUT``, BGR scaled to
    0..1, as a 1 x 3 x H x W batch."""
    height, width = image_bgr.shape[:2]
    factor = max(1, width // HAND_INPUT[0])
    shrunk = shrink_to(image_bgr, (max(1, width // factor), max(1, height // factor)))
    small = cv2.resize(shrunk, HAND_INPUT, interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(small.transpose(2, 0, 1)[None], np.float32) / np.float32(255.0)


def hand_map(image_bgr: Image) -> Floats:
    """The probability that a hand or arm covers each ``HAND_CELL`` x ``HAND_CELL`` cell of the
    shrunk frame (the network ``hands``, trained by ``vision.training.train_hands``)."""
    (logits,) = nets.run(HAND_NET, hand_input(image_bgr))
    return nets.sigmoid(logits[0, 0])


def hand_over_board(image_bgr: Image, config: MotionConfig, region: Mask | None = None) -> bool:
    """Whether a hand or arm covers at least ``min_hand_share`` of ``region`` (255 on the board,
    frame-sized; the whole frame if None): a connected region of the segmenter's hand cells that
    reaches the frame's edge (an arm comes in from outside the picture; a skin-coloured patch of
    the board itself does not)."""
    probability = hand_map(image_bgr)
    inside = _small_mask(region, probability.shape)
    if not inside.any():
        return False
    hand = (probability > config.hand_probability).astype(np.uint8)
    count, labels = cv2.connectedComponents(hand, connectivity=8)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    over = np.bincount(labels[inside], minlength=count)
    needed = config.min_hand_share * np.count_nonzero(inside)
    return any(over[label] >= needed for label in edge if label != 0)


def occluded(frames: Sequence[Image], config: MotionConfig, region: Mask | None = None) -> bool:
    """Whether the newest of ``frames`` (oldest first) must not be read: a hand over the board in
    it, or motion over the board between the frames."""
    if not frames:
        return False
    return hand_over_board(frames[-1], config, region) or moving(frames, config, region)
