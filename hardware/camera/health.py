"""Pure camera health tracking: gone (read errors), frozen (identical frames), stalled (no frame).

Fed with observations and explicit times in ns (nothing here reads a clock); returns
:class:`CameraEvent` values when the state changes: one event when a fault starts, one
``RECOVERED`` when good frames come back.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

from hardware.camera.frame import Image

_S = 1_000_000_000


class CameraEventKind(StrEnum):
    """A change in camera health."""

    GONE = "gone"  # open or read failed (unplugged, driver error, file unreadable)
    FROZEN = "frozen"  # frames keep coming but are identical
    STALLED = "stalled"  # no frame at all (a read is blocked or the source is not delivering)
    RECOVERED = "recovered"  # good frames again after one of the above


@dataclass(frozen=True, slots=True)
class CameraEvent:
    """A camera health change of source ``source`` at monotonic time ``t_ns``."""

    kind: CameraEventKind
    source: str
    t_ns: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class WatchdogConfig:
    """Thresholds in ns. ``freeze_ns=None`` disables the identical-frame check (for a replay of
    rendered frames, where a still scene gives identical images)."""

    stall_ns: int = 3 * _S
    freeze_ns: int | None = 5 * _S
    retry_ns: int = 1 * _S

    def __post_init__(self) -> None:
        for name in ("stall_ns", "freeze_ns", "retry_ns"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"WatchdogConfig.{name} must be > 0, got {value}")


def frame_digest(image: Image) -> bytes:
    """A cheap fingerprint of a frame (every 8th pixel of every 8th row, 16-byte BLAKE2b).

    A live sensor's noise changes it from frame to frame; a frozen camera repeats it exactly.
    """
    return hashlib.blake2b(image[::8, ::8].tobytes(), digest_size=16).digest()


class CameraHealth:
    """Health of one camera; see the module docstring."""

    def __init__(self, source: str, config: WatchdogConfig, t_ns: int) -> None:
        """Start watching at ``t_ns`` (no frame yet counts as a stall after ``stall_ns``)."""
        self._source = source
        self._cfg = config
        self._fault: CameraEventKind | None = None
        self._last_frame_t = t_ns
        self._last_change_t = t_ns
        self._digest: bytes | None = None

    @property
    def fault(self) -> CameraEventKind | None:
        """The current fault (GONE, FROZEN or STALLED), None when healthy."""
        return self._fault

    def frame(self, t_ns: int, digest: bytes) -> list[CameraEvent]:
        """A frame with fingerprint ``digest`` arrived at ``t_ns``."""
        if digest != self._digest:
            self._digest = digest
            self._last_change_t = t_ns
        self._last_frame_t = t_ns
        freeze_ns = self._cfg.freeze_ns
        if freeze_ns is not None and t_ns - self._last_change_t >= freeze_ns:
            if self._fault is CameraEventKind.FROZEN:
                return []
            return self._enter(CameraEventKind.FROZEN, t_ns, f"identical for {freeze_ns / _S:g} s")
        if self._fault is None:
            return []
        detail = f"frames again after {self._fault.value}"
        self._fault = None
        return [CameraEvent(CameraEventKind.RECOVERED, self._source, t_ns, detail)]

    def error(self, t_ns: int, message: str) -> list[CameraEvent]:
        """Opening or reading failed at ``t_ns`` with ``message``."""
        if self._fault is CameraEventKind.GONE:
            return []
        return self._enter(CameraEventKind.GONE, t_ns, message)

    def tick(self, t_ns: int) -> list[CameraEvent]:
        """Time is ``t_ns``: report a stall if no frame came for ``stall_ns``."""
        if self._fault is None and t_ns - self._last_frame_t >= self._cfg.stall_ns:
            detail = f"no frame for {self._cfg.stall_ns / _S:g} s"
            return self._enter(CameraEventKind.STALLED, t_ns, detail)
        return []

    def _enter(self, kind: CameraEventKind, t_ns: int, detail: str) -> list[CameraEvent]:
        self._fault = kind
        return [CameraEvent(kind, self._source, t_ns, detail)]
