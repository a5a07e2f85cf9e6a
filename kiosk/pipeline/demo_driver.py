"""The embedded demo plays itself: its scripted presses and touches, replayed with its frames.

Actions are keyed to the recording's time. After each frame the driver releases the actions
recorded before the next frame, stamped on the live frame's clock (``t_ms`` of the frame plus
their offset from it). A looping replay numbers frames on (``seq``), so pass ``k`` of the
recording replays the script again, ``k`` recording lengths later; frames the reader skipped
release their actions with the next frame it reads.
"""

from __future__ import annotations

from kiosk.demo import Demo, DemoAction
from kiosk.referee import ClockPress, Event, Touch
from kiosk.referee.events import TouchAction

_MS = 1_000_000


def action_event(action: DemoAction, t_ms: int) -> Event:
    """The referee event of a scripted action at ``t_ms``."""
    if action.kind == "press":
        return ClockPress(action.side, t_ms)
    assert action.side != "centre"
    assert action.action is not None
    touch: TouchAction = action.action  # type: ignore[assignment]  # checked by load_demo
    return Touch(touch, action.side, t_ms)


class DemoDriver:
    """Releases ``demo``'s scripted actions frame by frame."""

    def __init__(self, demo: Demo) -> None:
        self._times = demo.times
        self._duration = demo.duration_ns
        self._actions = demo.actions
        self._next = 0  # actions released so far, over all passes

    def recording_ns(self, seq: int) -> int:
        """The recorded time of frame ``seq``, counting passes."""
        lap, index = divmod(seq, len(self._times))
        return lap * self._duration + self._times[index]

    def lap(self, seq: int) -> int:
        """Which pass over the recording frame ``seq`` belongs to (0 first)."""
        return seq // len(self._times)

    def after_frame(self, seq: int, t_ms: int) -> list[Event]:
        """The actions between frame ``seq`` (at match time ``t_ms``) and the next frame."""
        if not self._actions:
            return []
        frame_ns = self.recording_ns(seq)
        until_ns = self.recording_ns(seq + 1)
        events: list[Event] = []
        while True:
            lap, index = divmod(self._next, len(self._actions))
            action = self._actions[index]
            at_ns = lap * self._duration + action.t_ns
            if at_ns >= until_ns:
                return events
            events.append(action_event(action, t_ms + max(0, at_ns - frame_ns) // _MS))
            self._next += 1
