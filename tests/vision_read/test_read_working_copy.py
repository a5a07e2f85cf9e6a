"""Frames larger than the networks' 1280x720: read from a working copy, dice from the frame.

``vision.read.read_frame`` (and the kiosk's ``VisionReader``) read a frame whose longer side is
longer than ``ReadConfig.max_side_px`` from a copy shrunk to it (``working_copy``), find its dice
and cube in the frame itself, and give the reading in the frame's pixels (``scaled_reading``).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

import kiosk.pipeline.readers as readers
import vision.read as read
from hardware.camera.frame import Frame
from vision.config import ReadConfig
from vision.labels import Board, Cube, Die, Label, PointCount, Reading, SideCounts
from vision.render import render_scene, scene_for_seed

SEED = 2  # a tuning seed (three dice, one off the board, and the cube) read right at 2560x1440
Image = np.ndarray


@cache
def _large() -> tuple[Image, Label]:
    image, label = render_scene(scene_for_seed(SEED, 2560, 1440))
    assert not label.occluded
    return image, label


def _calibrated() -> ReadConfig:
    """The reader's configuration for the large frame's camera: its principal point, in shares
    of the frame, holds for the working copy too."""
    return ReadConfig(principal_point=scene_for_seed(SEED, 2560, 1440).camera.principal_share())


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ((1440, 2560), (720, 1280)),
        ((2560, 1440), (1280, 720)),
        ((2001, 3000), (854, 1280)),
        ((720, 1300), (709, 1280)),
    ],
)
def test_a_large_frame_s_working_copy_is_shrunk_to_the_longer_side(
    shape: tuple[int, int], expected: tuple[int, int]
) -> None:
    frame = np.zeros((*shape, 3), np.uint8)
    frame[::2] = 200  # stripes a pixel wide: area averaging leaves their mean
    copy = read.working_copy(frame, 1280)
    assert copy.shape == (*expected, 3)
    assert copy.dtype == np.uint8
    assert abs(float(copy.mean()) - float(frame.mean())) < 2.0


@pytest.mark.parametrize("shape", [(720, 1280), (640, 640), (1280, 720), (10, 20)])
def test_a_frame_no_longer_than_the_limit_is_its_own_working_copy(
    shape: tuple[int, int],
) -> None:
    frame = np.zeros((*shape, 3), np.uint8)
    assert read.working_copy(frame, 1280) is frame


def test_scaled_reading_moves_positions_and_nothing_else() -> None:
    reading = Reading(
        board=Board(True, ((10.0, 20.0), (110.0, 20.0), (110.0, 90.0), (10.0, 90.0))),
        points=(PointCount(1, "light", 2, 2, 2),),
        bar=SideCounts(1, 0),
        off=SideCounts(0, None),
        dice=(Die(5, (40.25, 50.0), "left-half", False), Die(None, (60.0, 51.5), "on-bar", True)),
        cube=Cube(8, (1.5, 2.5)),
        occluded=False,
        ms=3.0,
    )
    doubled = read.scaled_reading(reading, 2.0)
    assert doubled.board.corners == ((20.0, 40.0), (220.0, 40.0), (220.0, 180.0), (20.0, 180.0))
    assert [d.center for d in doubled.dice] == [(80.5, 100.0), (120.0, 103.0)]
    assert doubled.cube == Cube(8, (3.0, 5.0))
    assert [(d.value, d.zone, d.cocked) for d in doubled.dice] == [
        (5, "left-half", False),
        (None, "on-bar", True),
    ]
    assert (doubled.points, doubled.bar, doubled.off, doubled.occluded, doubled.ms) == (
        reading.points,
        reading.bar,
        reading.off,
        reading.occluded,
        reading.ms,
    )
    assert read.scaled_reading(reading, 1.0) is reading
    nothing = Reading(
        Board(False), (), SideCounts(None, None), SideCounts(None, None), (), None, False
    )
    assert read.scaled_reading(nothing, 2.0) == nothing


def _assert_reads_the_label(reading: Reading, label: Label, corner_px: float) -> None:
    assert reading.board.found
    assert reading.board.corners is not None
    assert label.board.corners is not None
    for found, true in zip(reading.board.corners, label.board.corners, strict=True):
        assert math.dist(found, true) <= corner_px
    assert [(p.color, p.count) for p in reading.points] == [
        (p.color, p.count) for p in label.points
    ]
    assert len(reading.dice) == len(label.dice)
    for die in label.dice:
        nearest = min(reading.dice, key=lambda found: math.dist(found.center, die.center))
        assert math.dist(nearest.center, die.center) <= 6.0  # 2560 px frame: a die ~40 px
        assert (nearest.value, nearest.zone, nearest.cocked) == (die.value, die.zone, die.cocked)
    assert reading.cube is not None
    assert label.cube is not None
    assert reading.cube.value == label.cube.value
    assert math.dist(reading.cube.center, label.cube.center) <= 6.0


def test_a_large_frame_is_read_from_its_working_copy_and_its_dice_from_the_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image, label = _large()
    assert label.board.corners is not None
    located: list[tuple[int, ...]] = []
    searched: list[tuple[int, ...]] = []
    locate, find_solids = read.board_from_corners, read.find_solids
    monkeypatch.setattr(
        read,
        "board_from_corners",
        lambda frame, *args: located.append(frame.shape) or locate(frame, *args),
    )
    monkeypatch.setattr(
        read,
        "find_solids",
        lambda frame, *args: searched.append(frame.shape) or find_solids(frame, *args),
    )
    reading = read.read_frame(image, _calibrated(), label.board.corners, previous=(image,))
    assert located == [(720, 1280, 3)]
    assert searched == [(1440, 2560, 3)]
    _assert_reads_the_label(reading, label, corner_px=0.2)
    assert not reading.occluded


def test_a_calibrated_view_of_a_large_frame_is_located_on_its_working_copy() -> None:
    image, label = _large()
    assert label.board.corners is not None
    config = _calibrated()
    view = read.view_from_corners(image, label.board.corners, config)
    for corner, true in zip(view.corners, label.board.corners, strict=True):
        assert math.dist(corner, (true[0] / 2, true[1] / 2)) <= 0.01
    assert read.read_frame(image, config, calibrated=view) == read.read_frame(
        image, config, label.board.corners
    )


def test_the_kiosk_s_reader_reads_a_large_frame_in_its_pixels() -> None:
    image, label = _large()
    reader = readers.VisionReader(_calibrated())
    first = reader(Frame(image, 0, 0))
    second = reader(Frame(image, 200_000_000, 1))
    _assert_reads_the_label(first, label, corner_px=8.0)
    assert second == first
