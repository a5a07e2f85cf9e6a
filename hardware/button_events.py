"""The values the clock buttons produce: which button, what happened, and when (ns)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ButtonId(StrEnum):
    """A physical clock button: one per player, and an optional centre (pause) button."""

    LEFT = "left"
    RIGHT = "right"
    CENTRE = "centre"


class EventKind(StrEnum):
    """What happened to a button.

    ``PRESS``/``RELEASE`` are debounced transitions. ``FAULT`` reports a button that is stuck
    down or chattering (detail says which); ``RECOVERED`` reports that the fault has ended.
    """

    PRESS = "press"
    RELEASE = "release"
    FAULT = "fault"
    RECOVERED = "recovered"


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """One button event.

    ``t_ns`` is a monotonic time in nanoseconds: for a press or release, the time of the edge
    that caused it (not the time it was processed); for a fault, the moment the fault condition
    was met (e.g. press time + stuck threshold); ``detail`` is a human-readable explanation
    (empty for presses and releases).
    """

    kind: EventKind
    button: ButtonId
    t_ns: int
    detail: str = ""
