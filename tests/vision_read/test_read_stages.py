"""Stages of the reader on rendered frames (``vision.render``) with their exact labels.

Figures asserted are the ones measured on these seeds (tuning seeds, never evaluation seeds);
thresholds sit at the measured figure, so a regression fails.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision_read.rendered import rendered
from vision.board import (
    board_from_corners,
    order_corners,
)
from vision.config import MotionConfig, ReadConfig
from vision.labels import Reading
from vision.motion import moving
from vision.read import read_frame, zone_of

SEEDS = range(12)
Image = np.ndarray


def test_order_corners_from_any_order() -> None:
    shuffled = [(10.0, 90.0), (100.0, 5.0), (0.0, 0.0), (110.0, 95.0)]
    assert order_corners(shuffled) == ((0.0, 0.0), (100.0, 5.0), (110.0, 95.0), (10.0, 90.0))


def test_dice_zones_right_with_known_corners() -> None:
    config = ReadConfig().board
    total = 0
    for seed in SEEDS:
        image, label = rendered(seed)
        assert label.board.corners is not None
        view = board_from_corners(image, label.board.corners, config)
        for die in label.dice:
            total += 1
            assert zone_of(view, die.center) == die.zone
    assert total >= 20


def test_motion_still_and_moving() -> None:
    config = MotionConfig()
    image, _ = rendered(0)
    assert not moving([image, image.copy()], config)
    moved = image.copy()
    moved[200:400, 300:600] = 255 - moved[200:400, 300:600]
    assert moving([image, moved], config)
    assert not moving([image], config)


@pytest.mark.parametrize("seed", [0, 1])
def test_reading_round_trips_through_json(seed: int) -> None:
    image, label = rendered(seed)
    reading = read_frame(image, ReadConfig(), label.board.corners)
    assert Reading.from_json(reading.to_json()) == reading
