"""The doubling cube's value: which of 2, 4, 8, 16, 32 and 64 its top face shows.

A small trained network (``vision/models/cube_value.onnx``, trained by
``vision.training.train_cube`` on rendered frames whose cubes show every value alike) reads the
cube ``vision.dice`` found from a ``CUBE_PX`` square crop ``DiceConfig.cube_share`` times its
side wide, at each quarter turn (the probabilities averaged: the number may face any way;
unturned only where that reading is ``DiceConfig.cube_sure`` of a value). The value is given
when it has at least ``DiceConfig.min_cube_probability``, else None (abstain, never a guess).
It replaced the dice reader's own cube classes, which leaned towards 64 (the face of every
centred cube, more than half the cubes they were trained on).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision import nets
from vision.config import DiceConfig
from vision.crops import crop_inputs
from vision.labels import CUBE_VALUES

Image = npt.NDArray[np.uint8]

CUBE_NET = "cube_value"
# The reader's crops are this many pixels square (a cube's face is 15 to 40 pixels wide in a
# 1280 x 720 frame: a 48 pixel crop keeps every pixel of it).
CUBE_PX = 48
TURNS = 4


def cube_probabilities(
    image_bgr: Image, center: tuple[float, float], side: float, config: DiceConfig
) -> nets.Floats:
    """The probability of each of ``CUBE_VALUES`` for the cube centred at ``center`` with a
    face ``side`` pixels wide: read unturned, and where no value has ``cube_sure`` so, read
    at the other quarter turns too and averaged."""
    crop = crop_inputs(image_bgr, [center], [side], config.cube_share, CUBE_PX)
    (logits,) = nets.run(CUBE_NET, crop)
    unturned = nets.softmax(logits)[0]
    if float(unturned.max()) >= config.cube_sure:
        return np.asarray(unturned, np.float32)
    turned = np.concatenate([np.rot90(crop, k, axes=(2, 3)) for k in range(1, TURNS)])
    (logits,) = nets.run(CUBE_NET, np.ascontiguousarray(turned))
    read = np.concatenate([unturned[None], nets.softmax(logits)])
    return np.asarray(read.mean(axis=0), np.float32)


def cube_value(
    image_bgr: Image, center: tuple[float, float], side: float, config: DiceConfig
) -> int | None:
    """The value the cube shows, or None where no value has ``min_cube_probability``."""
    probabilities = cube_probabilities(image_bgr, center, side, config)
    best = int(np.argmax(probabilities))
    return CUBE_VALUES[best] if probabilities[best] >= config.min_cube_probability else None
