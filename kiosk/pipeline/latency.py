"""Settled frame -> verdict on screen (issue 6 target: <= 100 ms): from the vision thread taking
a frame whose reading settled to the start of the UI loop's first tick after the frame that
applied the referee's verdict to the screen, so after that frame was drawn (an upper bound: it
includes the loop's wait for its next tick). Frames taken before the kiosk was ready (its
window still opening) are left out. Times are ``time.monotonic_ns()`` values passed in."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class ScreenLatency:
    """Frames judged but not yet drawn, and the latencies (ms) of those drawn."""

    waiting: list[int] = field(default_factory=list)
    shown_ms: list[float] = field(default_factory=list)
    before_ready: int = 0
    ready_ns: int | None = None

    def ready(self, now_ns: int) -> None:
        """The kiosk is ready (its first screen frame is up)."""
        self.ready_ns = now_ns

    def judged(self, taken_ns: int) -> None:
        """The referee has judged the readings a frame taken at ``taken_ns`` settled."""
        self.waiting.append(taken_ns)

    def drawn(self, now_ns: int) -> None:
        """The UI frame that applied every judged frame's verdict has been drawn by ``now_ns``."""
        for taken in self.waiting:
            if self.ready_ns is not None and taken >= self.ready_ns:
                self.shown_ms.append((now_ns - taken) / 1e6)
            else:
                self.before_ready += 1
        self.waiting.clear()

    def summary(self) -> str:
        """One line for the log."""
        if not self.shown_ms:
            return "settled frame -> verdict on screen: no settled frame shown"
        return (
            f"settled frame -> verdict on screen: {len(self.shown_ms)} frames, "
            f"median {statistics.median(self.shown_ms):.1f} ms, max {max(self.shown_ms):.1f} ms "
            f"({self.before_ready} taken before the kiosk was ready left out)"
        )
