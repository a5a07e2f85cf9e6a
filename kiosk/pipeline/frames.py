"""The camera half of the pipeline: a frame read, settled into referee events, plus the demo's
scripted presses and touches due after it.

In the kiosk this runs on the vision thread; its :class:`FrameResult` goes to the UI thread,
which hands the events to the referee (``MonitoredMatch``). Tests call it directly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware.camera.frame import Frame, Image
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.readers import FrameReader
from kiosk.pipeline.readings import board_reading, dice_seen
from kiosk.pipeline.settle import SETTLE_FRAMES, Settler
from kiosk.referee import BoardReading, DieSeen, Event


@dataclass(frozen=True)
class FrameResult:
    """A frame's events for the referee, its image (the incidents' snapshot) and the time the
    reader took (ms); ``t_ms`` the frame's match time; ``taken_ns`` when the pipeline took it
    (``time.monotonic_ns()``, for the screen latency)."""

    image: Image
    events: tuple[Event, ...]
    t_ms: int
    read_ms: float
    taken_ns: int = 0


class FramePipeline:
    """Reader -> settled readings (-> the demo script) for each frame."""

    def __init__(
        self,
        reader: FrameReader,
        to_ms: Callable[[int], int],
        driver: DemoDriver | None = None,
        settle_frames: int = SETTLE_FRAMES,
    ) -> None:
        self._reader = reader
        self._to_ms = to_ms
        self._driver = driver
        self._settler = Settler(settle_frames)
        self._settle_frames = settle_frames

    def restart(self) -> None:
        """Forget the settled readings (a new match starts)."""
        self._settler = Settler(self._settle_frames)

    def resume(self, board: BoardReading | None, dice: tuple[DieSeen, ...]) -> None:
        """Go on from the readings a restored match last settled (``recovery.last_readings``):
        the table as the crashed kiosk last saw it is not announced again, so a referee that
        has moved on since (a game won, a board judged) does not judge it a second time."""
        self._settler = Settler(self._settle_frames, board, dice)

    def process(self, frame: Frame) -> FrameResult:
        """Read ``frame``; the events it settles, then the scripted inputs due after it."""
        t_ms = self._to_ms(frame.t_ns)
        taken_ns = time.monotonic_ns()
        started = time.perf_counter()
        reading = self._reader(frame)
        read_ms = (time.perf_counter() - started) * 1000
        events = self._settler.feed(board_reading(reading), dice_seen(reading), t_ms)
        if self._driver is not None:
            events += self._driver.after_frame(frame.seq, t_ms)
        return FrameResult(frame.image, tuple(events), t_ms, read_ms, taken_ns)
