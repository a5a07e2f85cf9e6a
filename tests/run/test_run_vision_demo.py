"""``vision.read`` on the embedded demo's frames (the real camera path of the pipeline).

``benchmarks/run_pipeline.py`` measures it on every shot: when this was written vision read few
of the demo's boards and almost none of its dice exactly, so the referee cannot follow the demo
from vision's readings yet. This test pins that on the opening shot; strict, so that it fails as
soon as vision reads that shot, and the marker must go.
"""

from __future__ import annotations

import cv2
import numpy as np

from hardware.camera.frame import Frame
from kiosk.demo import load_demo
from kiosk.pipeline.readers import VisionReader
from kiosk.pipeline.readings import board_reading, dice_seen
from kiosk.referee.board import START_SIDES, reading_ranges
from vision.labels import Reading


def test_vision_reads_the_demo_opening_shot() -> None:
    demo = load_demo()
    name = "shot01.jpg"
    image = np.asarray(cv2.imread(str(demo.frames_dir / name)), dtype=np.uint8)
    reader = VisionReader()
    reader(Frame(image, 0, 0))
    reading = reader(Frame(image, 200_000_000, 1))  # the same frame again: settled
    board = board_reading(reading)
    assert board is not None
    assert reading_ranges(board, demo.config).fits(START_SIDES)
    assert dice_seen(reading) == dice_seen(Reading.from_json(demo.labels[name]))
