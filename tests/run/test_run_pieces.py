"""The pipeline's pure parts: readings converted, settling, the demo's script, sources."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kiosk.demo import DEMO_CONFIG, Demo, DemoAction, load_demo
from kiosk.demo.plan import after_play
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.readings import board_reading, dice_seen
from kiosk.pipeline.settle import Settler
from kiosk.pipeline.sources import CameraSpec, SourceError, on_raspberry_pi, parse_camera
from kiosk.referee import BoardRead, ClockPress, DiceRead, DieSeen, Touch, new_referee
from kiosk.referee.board import START_SIDES, reading_of
from kiosk.store import JsonDict
from vision.labels import Board, Die, PointCount, Reading, SideCounts


def _vision_reading(found: bool = True, occluded: bool = False) -> Reading:
    points = tuple(
        PointCount(n, "light" if n == 6 else None, 5 if n == 6 else 0, 5 if n == 6 else 0, 5)
        for n in range(1, 25)
    )
    points = tuple(
        dataclasses.replace(p, count=None, min=3, max=7) if p.point == 6 else p for p in points
    )
    return Reading(
        board=Board(found, ((0, 0), (1, 0), (1, 1), (0, 1)) if found else None),
        points=points if found else (),
        bar=SideCounts(0, 1) if found else SideCounts(None, None),
        off=SideCounts(None, None),
        dice=(Die(5, (1.0, 1.0), "right-half", False), Die(2, (2.0, 2.0), "left-half", True)),
        cube=None,
        occluded=occluded,
    )


def test_a_vision_reading_becomes_the_referees_reading_with_ranges() -> None:
    board = board_reading(_vision_reading())
    assert board is not None
    six = board.points[5]
    assert (six.point, six.colour, six.low, six.high) == (6, "light", 3, 7)
    assert board.points[0].colour is None
    assert board.bar == (0, 1)
    assert board.off == (None, None)
    assert board_reading(_vision_reading(found=False)) is None


def test_dice_are_put_in_one_order_whatever_order_vision_lists_them() -> None:
    reading = _vision_reading()
    swapped = dataclasses.replace(reading, dice=reading.dice[::-1])
    assert dice_seen(reading) == dice_seen(swapped)
    assert dice_seen(reading)[0] == DieSeen(2, True, "left-half")


def test_a_reading_settles_after_two_identical_still_frames_and_only_changes_are_sent() -> None:
    settler = Settler(2)
    board = reading_of(START_SIDES, DEMO_CONFIG)
    dice = (DieSeen(3, False, "right-half"),)
    assert settler.feed(board, (), 100) == []
    assert settler.feed(board, (), 200) == [BoardRead(board, 200)]
    assert settler.feed(board, (), 300) == []
    assert settler.feed(board, dice, 400) == []
    assert settler.feed(board, dice, 500) == [DiceRead(dice, 500)]
    assert settler.feed(board, (), 600) == []
    assert settler.feed(board, (), 700) == [DiceRead((), 700)]


def test_occluded_frames_and_frames_without_a_board_break_the_streak() -> None:
    settler = Settler(2)
    board = reading_of(START_SIDES, DEMO_CONFIG)
    hidden = dataclasses.replace(board, occluded=True)
    assert settler.feed(board, (), 100) == []
    assert settler.feed(hidden, (), 200) == []
    assert settler.feed(board, (), 300) == []
    assert settler.feed(None, (), 400) == []
    assert settler.feed(board, (), 500) == []
    assert settler.feed(board, (), 600) == [BoardRead(board, 600)]
    with pytest.raises(ValueError, match="frames"):
        Settler(0)


def _tiny_demo() -> Demo:
    demo = load_demo()
    return dataclasses.replace(
        demo,
        files=demo.files[:3],
        times=(0, 200_000_000, 400_000_000),
        actions=(
            DemoAction(250_000_000, "press", "left"),
            DemoAction(300_000_000, "touch", "right", "double"),
        ),
    )


def test_the_demo_driver_releases_actions_after_the_frame_before_them_each_lap() -> None:
    driver = DemoDriver(_tiny_demo())  # 3 frames 200 ms apart: a lap lasts 600 ms
    assert driver.after_frame(0, 1000) == []
    assert driver.after_frame(1, 1200) == [
        ClockPress("left", 1250),
        Touch("double", "right", 1300),
    ]
    assert driver.after_frame(2, 1400) == []
    assert driver.lap(3) == 1
    assert driver.after_frame(3, 1600) == []
    assert driver.after_frame(4, 1800) == [
        ClockPress("left", 1850),
        Touch("double", "right", 1900),
    ]


def test_frames_the_reader_skipped_release_their_actions_with_the_next_frame() -> None:
    driver = DemoDriver(_tiny_demo())
    assert driver.after_frame(2, 5000) == [ClockPress("left", 5000), Touch("double", "right", 5000)]


def test_camera_options_are_parsed_or_refused_with_what_is_accepted() -> None:
    assert parse_camera("replay:/tmp/x") == CameraSpec("replay", "/tmp/x")
    assert parse_camera("opencv:0") == CameraSpec("opencv", 0)
    assert parse_camera("opencv:/dev/video2") == CameraSpec("opencv", "/dev/video2")
    assert parse_camera("picamera") == CameraSpec("picamera")
    for bad in ("webcam", "replay:", "opencv", "picamera:1"):
        with pytest.raises(SourceError, match="replay:DIR, opencv:N or picamera"):
            parse_camera(bad)


def test_a_pi_is_told_by_its_device_tree_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    assert not on_raspberry_pi(model)
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(model)
    model.write_text("QEMU Virtual Machine")
    assert not on_raspberry_pi(model)


class _Record:
    def __init__(self) -> None:
        self.events: list[JsonDict] = []
        self.incidents: list[JsonDict] = []

    def event(self, data: JsonDict) -> None:
        self.events.append(data)

    def incident(self, data: JsonDict, image: object) -> None:
        self.incidents.append(data)

    def heartbeat(self, t_ms: int) -> None:
        """Not needed here."""


def test_a_late_event_is_stamped_with_the_last_time_and_journaled_after_the_step() -> None:
    record = _Record()
    match = MonitoredMatch(new_referee(DEMO_CONFIG), record)
    match.apply(BoardRead(reading_of(START_SIDES, DEMO_CONFIG), 500))
    match.apply(DiceRead((), 300))  # read before, delivered after
    assert [e["t_ms"] for e in record.events] == [500, 500]
    assert match.state.t_ms == 500
    assert record.incidents == []
    assert match.version == 2


def test_the_play_a_press_ended_is_judged_on_the_next_ui_frame_once() -> None:
    record = _Record()
    match = MonitoredMatch(new_referee(DEMO_CONFIG), record)
    after = after_play(START_SIDES, 0, (3, 1), "8/5 6/5")
    opening = (DieSeen(3, False, "right-half"), DieSeen(1, False, "left-half"))
    match.apply_all(
        (
            BoardRead(reading_of(START_SIDES, DEMO_CONFIG), 100),
            DiceRead(opening, 200),
            ClockPress("left", 300),  # player 1, the lower die, starts player 0's clock
            BoardRead(reading_of(after, DEMO_CONFIG), 400),
        )
    )
    assert match.judge(450) == ()  # no press since the last judgement: nothing to do
    match.apply(ClockPress("right", 500))
    assert match.state.game.pending is not None
    assert match.judge(530) == ()
    assert match.state.game.pending is None
    assert match.state.game.sides == after
    events = len(record.events)
    assert match.judge(560) == ()
    assert len(record.events) == events
