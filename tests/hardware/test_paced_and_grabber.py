"""Paced replay (recorded speed on the live clock) and the background frame grabber."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np

from hardware.camera.grabber import FrameGrabber
from hardware.camera.health import CameraEvent, WatchdogConfig
from hardware.camera.paced import PacedSource
from hardware.camera.replay import ReplaySource, record_folder
from hardware.camera.watchdog import CameraWatchdog

MS = 1_000_000


def recording(folder: Path, times_ms: list[int]) -> Path:
    frames = [(np.full((8, 8, 3), 10 * i, np.uint8), t * MS) for i, t in enumerate(times_ms)]
    record_folder(folder, frames)
    return folder


def test_paced_replay_waits_for_recorded_spacing_and_restamps(tmp_path: Path, clock) -> None:
    sleeps: list[float] = []

    def sleep(s: float) -> None:
        sleeps.append(s)
        clock.advance_ms(s * 1000)

    source = PacedSource(
        ReplaySource(recording(tmp_path / "r", [500, 540, 600])), clock_ns=clock, sleep=sleep
    )
    source.open()
    start = clock.t_ns
    times = [f.t_ns for f in (source.read(), source.read(), source.read()) if f is not None]
    assert times == [start, start + 40 * MS, start + 100 * MS]
    assert sleeps == [0.04, 0.06]
    assert source.read() is None


def test_paced_replay_does_not_rush_after_a_pause(tmp_path: Path, clock) -> None:
    source = PacedSource(
        ReplaySource(recording(tmp_path / "r", [0, 100, 200])),
        clock_ns=clock,
        sleep=lambda s: clock.advance_ms(s * 1000),
    )
    source.open()
    source.read()
    clock.advance_ms(5_000)  # the reader was away
    second = source.read()
    assert second is not None
    assert second.t_ns == clock.t_ns
    third = source.read()
    assert third is not None
    assert third.t_ns == second.t_ns + 100 * MS


def test_paced_loop_keeps_pace_across_the_wrap(tmp_path: Path, clock) -> None:
    source = PacedSource(
        ReplaySource(recording(tmp_path / "r", [0, 50]), loop=True),
        clock_ns=clock,
        sleep=lambda s: clock.advance_ms(s * 1000),
    )
    source.open()
    times = [f.t_ns for f in (source.read() for _ in range(5)) if f is not None]
    assert [b - a for a, b in itertools.pairwise(times)] == [50 * MS] * 4


def test_grabber_delivers_the_newest_frame_and_stops_at_the_end(tmp_path: Path) -> None:
    events: list[CameraEvent] = []
    source = ReplaySource(recording(tmp_path / "r", list(range(0, 200, 10))))
    watchdog = CameraWatchdog(source, events.append, config=WatchdogConfig(freeze_ns=None))
    grabber = FrameGrabber(watchdog)
    grabber.start()
    deadline = time.monotonic() + 5
    while grabber.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not grabber.running
    newest = grabber.latest()
    assert newest is not None
    assert newest.seq == 19
    assert grabber.latest() is None
    grabber.stop()
    assert events == []
