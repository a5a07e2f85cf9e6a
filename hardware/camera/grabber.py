"""Read a camera on a background thread so that a slow or hung camera never blocks the UI."""

from __future__ import annotations

import threading

from hardware.camera.frame import Frame
from hardware.camera.watchdog import CameraWatchdog


class FrameGrabber:
    """Keeps the newest frame from ``watchdog``, read on a daemon thread.

    The UI loop calls :meth:`latest` (never blocks) and ``watchdog.tick()`` (reports a stalled
    camera). Older frames that nobody took are dropped: the vision always gets the newest.
    ``idle_s`` is the pause after a read that gave no frame (fault, reconnect pending).
    """

    def __init__(self, watchdog: CameraWatchdog, *, idle_s: float = 0.01) -> None:
        self._watchdog = watchdog
        self._idle_s = idle_s
        self._lock = threading.Lock()
        self._latest: Frame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start reading (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="frame-grabber", daemon=True)
            self._thread.start()

    def latest(self) -> Frame | None:
        """The newest frame not yet taken, or None if there is none since the last call."""
        with self._lock:
            frame, self._latest = self._latest, None
        return frame

    @property
    def running(self) -> bool:
        """False once stopped or once a finite source has ended."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout_s: float = 2.0) -> None:
        """Stop reading and close the camera (waits up to ``timeout_s`` for the thread).

        A thread still blocked in a read after ``timeout_s`` is left to end with the process:
        the camera is not closed under its feet.
        """
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
        if not self.running:
            self._watchdog.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            frame = self._watchdog.read()
            if frame is not None:
                with self._lock:
                    self._latest = frame
            elif self._watchdog.ended:
                return
            else:
                self._stop.wait(self._idle_s)
