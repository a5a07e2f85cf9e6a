"""Play a recorded source at its recorded speed, as if it were a live camera (the demo)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from hardware.camera.frame import Frame, FrameSource

_S = 1_000_000_000


class PacedSource:
    """Wraps a source (typically a :class:`~hardware.camera.replay.ReplaySource`): each
    :meth:`read` waits until the frame is due, keeping the recorded spacing of ``t_ns``, and
    restamps the frame with the ``clock_ns`` time it was released, so downstream code sees a live
    camera on the same clock as the buttons. A reader that falls more than ``max_lag_ns`` behind
    (e.g. after a pause) restarts the pacing from the current frame instead of rushing.
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], None] = time.sleep,
        max_lag_ns: int = _S // 2,
    ) -> None:
        self._source = source
        self._clock_ns = clock_ns
        self._sleep = sleep
        self._max_lag_ns = max_lag_ns
        self._anchor: tuple[int, int] | None = None  # (recorded t_ns, clock t_ns) of one frame

    @property
    def name(self) -> str:
        return f"paced:{self._source.name}"

    def open(self) -> None:
        self._source.open()
        self._anchor = None

    def read(self) -> Frame | None:
        frame = self._source.read()
        if frame is None:
            return None
        now = self._clock_ns()
        if self._anchor is None or frame.t_ns < self._anchor[0]:
            self._anchor = (frame.t_ns, now)
        due = self._anchor[1] + frame.t_ns - self._anchor[0]
        if due > now:
            self._sleep((due - now) / _S)
        elif now - due > self._max_lag_ns:
            self._anchor = (frame.t_ns, now)
            due = now
        return replace(frame, t_ns=due)

    def close(self) -> None:
        self._source.close()
