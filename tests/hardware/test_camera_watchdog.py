"""Fault injection on camera sources: camera gone, frozen frames, stalled reads, reconnection."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hardware.camera.frame import CameraError, Frame
from hardware.camera.health import (
    CameraEvent,
    CameraEventKind,
    CameraHealth,
    WatchdogConfig,
    frame_digest,
)
from hardware.camera.replay import ReplaySource, record_folder
from hardware.camera.watchdog import CameraWatchdog

S = 1_000_000_000
CFG = WatchdogConfig(stall_ns=3 * S, freeze_ns=2 * S, retry_ns=1 * S)


class ScriptedCamera:
    """A fake live camera: set ``present``/``frozen`` to inject faults."""

    name = "scripted"

    def __init__(self) -> None:
        self.present = True
        self.frozen = False
        self.is_open = False
        self.opens = 0
        self.counter = 0
        self.seq = 0

    def open(self) -> None:
        self.opens += 1
        if not self.present:
            raise CameraError("scripted: no such camera")
        self.is_open = True

    def read(self) -> Frame:
        if not self.is_open:
            raise CameraError("scripted: read before open")
        if not self.present:
            raise CameraError("scripted: unplugged")
        if not self.frozen:
            self.counter += 1
        image = np.full((16, 16, 3), self.counter % 256, np.uint8)
        self.seq += 1
        return Frame(image, self.counter, self.seq - 1)

    def close(self) -> None:
        self.is_open = False


@pytest.fixture
def rig(clock):
    camera = ScriptedCamera()
    events: list[CameraEvent] = []
    watchdog = CameraWatchdog(camera, events.append, config=CFG, clock_ns=clock)
    return camera, events, watchdog


def test_camera_gone_is_reported_once_retried_slowly_and_resumes(rig, clock) -> None:
    camera, events, watchdog = rig
    assert watchdog.read() is not None
    camera.present = False
    assert watchdog.read() is None
    assert [e.kind for e in events] == [CameraEventKind.GONE]
    assert "unplugged" in events[0].detail
    opens = camera.opens
    for _ in range(5):
        clock.advance_ms(100)
        assert watchdog.read() is None  # within retry_ns: no reopen attempt
    assert camera.opens == opens
    clock.advance_ms(600)
    assert watchdog.read() is None  # retried, still missing: no second GONE
    assert camera.opens == opens + 1
    assert len(events) == 1
    camera.present = True
    clock.advance_ms(1_000)
    frame = watchdog.read()
    assert frame is not None
    assert [e.kind for e in events] == [CameraEventKind.GONE, CameraEventKind.RECOVERED]
    assert watchdog.fault is None


def test_frozen_frames_are_reported_withheld_and_the_camera_restarted(rig, clock) -> None:
    camera, events, watchdog = rig
    watchdog.read()
    camera.frozen = True
    returned = []
    for _ in range(30):  # 3 s of 10 fps identical frames
        clock.advance_ms(100)
        returned.append(watchdog.read())
    assert [e.kind for e in events] == [CameraEventKind.FROZEN]
    assert watchdog.fault is CameraEventKind.FROZEN
    assert camera.opens == 2  # restarted once when the freeze was detected
    assert all(f is None for f in returned[20:])
    camera.frozen = False
    clock.advance_ms(100)
    assert watchdog.read() is not None
    assert events[-1].kind is CameraEventKind.RECOVERED


def test_no_frame_at_all_is_a_stall_reported_by_tick(rig, clock) -> None:
    _camera, events, watchdog = rig
    watchdog.read()
    clock.advance_ms(2_900)
    watchdog.tick()
    assert events == []
    clock.advance_ms(100)
    watchdog.tick()
    watchdog.tick()
    assert [e.kind for e in events] == [CameraEventKind.STALLED]
    assert watchdog.read() is not None
    assert events[-1].kind is CameraEventKind.RECOVERED


def test_identical_frames_are_fine_when_freeze_check_is_off(clock) -> None:
    camera = ScriptedCamera()
    camera.frozen = True
    events: list[CameraEvent] = []
    config = WatchdogConfig(freeze_ns=None)
    watchdog = CameraWatchdog(camera, events.append, config=config, clock_ns=clock)
    for _ in range(100):
        clock.advance_ms(100)
        assert watchdog.read() is not None
    assert events == []


def test_replay_folder_that_vanishes_and_comes_back_resumes(tmp_path: Path, clock) -> None:
    """Real fault injection: the recording folder is moved away mid-run, then restored."""
    folder = tmp_path / "rec"
    record_folder(folder, [(np.full((8, 8, 3), 20 * i, np.uint8), i) for i in range(6)])
    events: list[CameraEvent] = []
    source = ReplaySource(folder)
    watchdog = CameraWatchdog(source, events.append, config=CFG, clock_ns=clock)
    got = [watchdog.read(), watchdog.read()]
    folder.rename(tmp_path / "away")
    assert watchdog.read() is None
    assert events[0].kind is CameraEventKind.GONE
    assert "000002.png" in events[0].detail
    clock.advance_ms(1_000)
    assert watchdog.read() is None  # reopen fails: the folder is gone
    (tmp_path / "away").rename(folder)
    clock.advance_ms(1_000)
    while (frame := watchdog.read()) is not None:
        got.append(frame)
    assert watchdog.ended
    assert [f.image[0, 0, 0] for f in got if f is not None] == [0, 20, 40, 60, 80, 100]
    assert [e.kind for e in events] == [CameraEventKind.GONE, CameraEventKind.RECOVERED]


def test_health_is_pure_and_reports_each_fault_once() -> None:
    health = CameraHealth("cam", CFG, 0)
    a, b = frame_digest(np.zeros((8, 8, 3), np.uint8)), frame_digest(np.ones((8, 8, 3), np.uint8))
    assert health.frame(1 * S, a) == []
    assert [e.kind for e in health.error(2 * S, "x") + health.error(3 * S, "y")] == [
        CameraEventKind.GONE
    ]
    assert [e.kind for e in health.frame(4 * S, b)] == [CameraEventKind.RECOVERED]
    assert health.tick(6 * S) == []
    assert [e.kind for e in health.tick(7 * S)] == [CameraEventKind.STALLED]
    assert health.tick(8 * S) == []


def test_digest_sees_a_small_change_but_not_a_copy() -> None:
    image = np.random.default_rng(1).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    copy = image.copy()
    assert frame_digest(image) == frame_digest(copy)
    copy[::8, ::8] ^= 1  # sensor noise touches every pixel; the sampled ones suffice
    assert frame_digest(image) != frame_digest(copy)


@pytest.mark.parametrize("field", ["stall_ns", "freeze_ns", "retry_ns"])
def test_bad_watchdog_config_names_the_field(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        WatchdogConfig(**{field: 0})


def test_unexpected_driver_exception_is_a_fault_not_a_crash(rig, clock) -> None:
    camera, events, watchdog = rig

    def broken_read() -> Frame:
        raise OSError("VIDIOC_DQBUF: No such device")

    camera.read = broken_read
    assert watchdog.read() is None
    assert [e.kind for e in events] == [CameraEventKind.GONE]
    assert events[0].detail == "OSError: VIDIOC_DQBUF: No such device"
