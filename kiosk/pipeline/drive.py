"""The referee half of the pipeline and a headless loop over a recording.

``deliver`` hands one frame's result to the match (the UI thread's part in the kiosk);
``Ticker`` sends the referee a ``Tick`` and the journal a heartbeat every ``TICK_MS``;
``drive`` runs a whole finite recording through both halves without a window or threads (tests,
benchmarks), judging each press's play before the next frame as the kiosk's next UI frame does.
"""

from __future__ import annotations

from collections.abc import Callable

from hardware.camera.frame import FrameSource
from kiosk.pipeline.frames import FramePipeline, FrameResult
from kiosk.pipeline.match import MonitoredMatch
from kiosk.referee import Incident, Tick

TICK_MS = 500
"""Ticks (and journal heartbeats, kiosk.store.HEARTBEAT_MS) twice a second."""


def deliver(match: MonitoredMatch, result: FrameResult) -> tuple[Incident, ...]:
    """Apply a frame's events; the frame becomes the snapshot of the incidents they raise."""
    match.image = result.image
    return match.apply_all(result.events)


class Ticker:
    """Ticks the referee and beats the journal's heartbeat every ``TICK_MS`` of match time."""

    def __init__(self, t_ms: int = 0) -> None:
        self._next = t_ms + TICK_MS

    def __call__(self, match: MonitoredMatch, t_ms: int) -> tuple[Incident, ...]:
        """Tick if due at ``t_ms``."""
        if t_ms < self._next:
            return ()
        self._next = t_ms + TICK_MS
        incidents = match.apply(Tick(t_ms))
        match.journal.heartbeat(t_ms)
        return incidents


def drive(
    source: FrameSource,
    frames: FramePipeline,
    match: MonitoredMatch,
    on_result: Callable[[FrameResult, tuple[Incident, ...]], None] | None = None,
    limit: int | None = None,
) -> int:
    """Run every frame of a finite ``source`` (or its first ``limit``); returns the number of
    frames."""
    ticker = Ticker()
    count = 0
    source.open()
    try:
        while (limit is None or count < limit) and (frame := source.read()) is not None:
            result = frames.process(frame)
            incidents = match.judge(result.t_ms)
            incidents += deliver(match, result) + ticker(match, result.t_ms)
            if on_result is not None:
                on_result(result, incidents)
            count += 1
    finally:
        source.close()
    return count
