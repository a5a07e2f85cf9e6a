"""A frame source wrapped so that a camera that disappears or freezes is reported and reopened.

:meth:`CameraWatchdog.read` never raises (a source's errors become ``GONE`` events): it returns
the next good frame, or None while the camera is faulty, reconnecting or (for a file) finished.
Health changes go to ``sink`` as :class:`~hardware.camera.health.CameraEvent`. A read that blocks
cannot report itself: call :meth:`CameraWatchdog.tick` from another thread (the UI loop) to
report a stall.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from hardware.camera.frame import CameraError, Frame, FrameSource
from hardware.camera.health import (
    CameraEvent,
    CameraEventKind,
    CameraHealth,
    WatchdogConfig,
    frame_digest,
)

CameraSink = Callable[[CameraEvent], None]


class CameraWatchdog:
    """Reads ``source`` (one reading thread), reports health changes, reopens after faults.

    After an open or read error the source is closed and reopened at most every
    ``config.retry_ns``; when frames start repeating (frozen) it is closed and reopened once.
    Frames are returned only while healthy: a frozen frame never reaches the vision.
    """

    def __init__(
        self,
        source: FrameSource,
        sink: CameraSink,
        *,
        config: WatchdogConfig | None = None,
        clock_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._source = source
        self._sink = sink
        self._cfg = config or WatchdogConfig()
        self._clock_ns = clock_ns
        self._lock = threading.Lock()
        now = clock_ns()
        self._health = CameraHealth(source.name, self._cfg, now)
        self._is_open = False
        self._retry_at = now
        self._ended = False

    @property
    def ended(self) -> bool:
        """True once a finite source (file, folder without loop) has no more frames."""
        return self._ended

    @property
    def fault(self) -> CameraEventKind | None:
        """The current fault, None while frames are good."""
        with self._lock:
            return self._health.fault

    def read(self) -> Frame | None:
        """The next good frame, or None (fault, reconnect pending, or ended)."""
        if self._ended:
            return None
        if not self._is_open:
            if self._clock_ns() < self._retry_at:
                return None
            try:
                self._source.open()
            except Exception as exc:  # any failure of the device is a fault, never a crash
                self._failed(_describe(exc))
                return None
            self._is_open = True
        try:
            frame = self._source.read()
        except Exception as exc:  # e.g. cv2.error or OSError from a driver, besides CameraError
            self._failed(_describe(exc))
            return None
        if frame is None:
            self._ended = True
            self.close()
            return None
        digest = frame_digest(frame.image)
        now = self._clock_ns()
        with self._lock:
            events = self._health.frame(now, digest)
            healthy = self._health.fault is None
            self._emit(events)
        if any(e.kind is CameraEventKind.FROZEN for e in events):
            self.close()
            self._retry_at = now
        return frame if healthy else None

    def tick(self) -> None:
        """Report a stall if no frame came for ``config.stall_ns`` (safe from any thread)."""
        with self._lock:
            self._emit(self._health.tick(self._clock_ns()))

    def close(self) -> None:
        """Close the source (the next :meth:`read` reopens it unless the source has ended)."""
        self._source.close()
        self._is_open = False

    def _failed(self, message: str) -> None:
        self.close()
        now = self._clock_ns()
        self._retry_at = now + self._cfg.retry_ns
        with self._lock:
            self._emit(self._health.error(now, message))

    def _emit(self, events: list[CameraEvent]) -> None:
        for event in events:
            self._sink(event)


def _describe(exc: Exception) -> str:
    """The message of a CameraError (it names the camera), else the exception type and text."""
    return str(exc) if isinstance(exc, CameraError) else f"{type(exc).__name__}: {exc}"
