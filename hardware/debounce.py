"""Pure debouncing and fault detection for one clock button.

A :class:`Debouncer` is fed raw edges ``edge(pressed, t_ns)`` and clock ticks ``advance(t_ns)``
(times in monotonic nanoseconds, supplied by the caller: nothing in here reads a clock) and returns
the :class:`~hardware.button_events.ButtonEvent` values they cause.

Debouncing is *leading edge*: the first edge that changes the debounced level is reported at once,
stamped with that edge's time, so a clock press costs no debounce delay. For ``lockout_ns`` after
an accepted transition, further edges are treated as contact bounce; when the lockout ends, the
line's last raw level is accepted if it differs (e.g. a tap shorter than the lockout produces its
release then, stamped with the time of the last raw edge).

Faults:

* *stuck*: the button has been down for ``stuck_ns`` (reported once, at press time + ``stuck_ns``);
  the release that follows reports ``RECOVERED``.
* *chatter*: more than ``chatter_edges`` raw edges within ``chatter_window_ns`` (a loose wire or a
  failing switch). While chattering, no press or release is reported; after ``quiet_ns`` without
  an edge the fault is ``RECOVERED`` and the line's level is taken over silently (a line that
  settles pressed never presses the clock; a pending release is still reported).

Every decision depends only on the edge times, so the events (and their times) are the same
however often ``advance`` is called in between; only the moment they are returned changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from hardware.button_events import ButtonEvent, ButtonId, EventKind

_MS = 1_000_000


@dataclass(frozen=True, slots=True)
class DebounceConfig:
    """Debounce and fault thresholds, all in nanoseconds (``chatter_edges`` is a count).

    Defaults: mechanical switches bounce for up to ~10 ms, so 30 ms of lockout; nobody holds a
    clock button for 10 s; a clean press and release (up to ~10 edges each) stays well under
    50 edges per second, a loose wire does not.
    """

    lockout_ns: int = 30 * _MS
    stuck_ns: int = 10_000 * _MS
    chatter_window_ns: int = 1_000 * _MS
    chatter_edges: int = 50
    quiet_ns: int = 2_000 * _MS

    def __post_init__(self) -> None:
        for name in ("lockout_ns", "stuck_ns", "chatter_window_ns", "quiet_ns"):
            if getattr(self, name) <= 0:
                raise ValueError(f"DebounceConfig.{name} must be > 0, got {getattr(self, name)}")
        if self.chatter_edges < 2:
            raise ValueError(f"DebounceConfig.chatter_edges must be >= 2, got {self.chatter_edges}")
        if self.stuck_ns <= self.lockout_ns:
            raise ValueError("DebounceConfig.stuck_ns must be longer than lockout_ns")


class Debouncer:
    """Debounced state of one button; see the module docstring for the rules."""

    def __init__(
        self,
        button: ButtonId,
        config: DebounceConfig | None = None,
        *,
        pressed: bool = False,
        t_ns: int = 0,
    ) -> None:
        """Start at time ``t_ns`` with the line at level ``pressed`` (no event for that level)."""
        self._button = button
        self._cfg = config or DebounceConfig()
        self._now = t_ns
        self._raw = pressed
        self._raw_t = t_ns
        self._stable = pressed
        self._reported = False  # a press was reported and its release is still owed
        self._lock_until = t_ns
        self._pressed_since: int | None = t_ns if pressed else None
        self._stuck = False
        self._chattering = False
        self._edges: deque[int] = deque()

    @property
    def pressed(self) -> bool:
        """The debounced level: True while the button counts as held down."""
        return self._stable

    @property
    def faulted(self) -> bool:
        """True while a stuck or chatter fault is active."""
        return self._stuck or self._chattering

    def edge(self, pressed: bool, t_ns: int) -> list[ButtonEvent]:
        """A raw edge: the line went to ``pressed`` at ``t_ns``.

        A time earlier than one already seen is taken as that later time (edges stamped on
        another thread can arrive just after a tick); an edge repeating the current raw level is
        ignored.
        """
        events = self.advance(t_ns)
        t = self._now
        if pressed == self._raw:
            return events
        self._raw, self._raw_t = pressed, t
        if self._chattering:
            return events
        self._edges.append(t)
        while self._edges[0] <= t - self._cfg.chatter_window_ns:
            self._edges.popleft()
        if len(self._edges) > self._cfg.chatter_edges:
            self._chattering = True
            self._edges.clear()
            window_ms = self._cfg.chatter_window_ns / _MS
            detail = f"chatter: more than {self._cfg.chatter_edges} edges within {window_ms:g} ms"
            events.append(ButtonEvent(EventKind.FAULT, self._button, t, detail))
        elif t >= self._lock_until and pressed != self._stable:
            events.extend(self._accept(pressed, t))
        return events

    def advance(self, t_ns: int) -> list[ButtonEvent]:
        """Time has reached ``t_ns``: report what became due (lockout end, stuck, quiet line)."""
        self._now = max(self._now, t_ns)
        events: list[ButtonEvent] = []
        while (due := self._next_due()) is not None and due[0] <= self._now:
            events.extend(due[1]())
        return events

    def _next_due(self) -> tuple[int, Callable[[], list[ButtonEvent]]] | None:
        """The earliest pending timed decision: (time, action)."""
        if self._chattering:
            return self._raw_t + self._cfg.quiet_ns, self._end_chatter
        if self._raw != self._stable:
            return self._lock_until, self._settle
        if self._pressed_since is not None and not self._stuck:
            return self._pressed_since + self._cfg.stuck_ns, self._report_stuck
        return None

    def _settle(self) -> list[ButtonEvent]:
        return self._accept(self._raw, self._raw_t)

    def _report_stuck(self) -> list[ButtonEvent]:
        assert self._pressed_since is not None
        self._stuck = True
        t = self._pressed_since + self._cfg.stuck_ns
        detail = f"stuck: held down for {self._cfg.stuck_ns / 1e9:g} s"
        return [ButtonEvent(EventKind.FAULT, self._button, t, detail)]

    def _end_chatter(self) -> list[ButtonEvent]:
        self._chattering = False
        t = self._raw_t + self._cfg.quiet_ns
        events: list[ButtonEvent] = []
        if self._raw != self._stable:
            self._stable = self._raw
            self._lock_until = self._raw_t + self._cfg.lockout_ns
            if self._raw:
                self._pressed_since = self._raw_t
            else:
                self._pressed_since = None
                events.extend(self._release_events(self._raw_t))
        quiet_s = self._cfg.quiet_ns / 1e9
        events.append(
            ButtonEvent(EventKind.RECOVERED, self._button, t, f"chatter ended: quiet {quiet_s:g} s")
        )
        return events

    def _accept(self, pressed: bool, t: int) -> list[ButtonEvent]:
        """Accept a debounced transition at edge time ``t`` and start the lockout."""
        self._stable = pressed
        self._lock_until = t + self._cfg.lockout_ns
        if pressed:
            self._pressed_since = t
            self._reported = True
            return [ButtonEvent(EventKind.PRESS, self._button, t)]
        self._pressed_since = None
        return self._release_events(t)

    def _release_events(self, t: int) -> list[ButtonEvent]:
        events: list[ButtonEvent] = []
        if self._reported:
            self._reported = False
            events.append(ButtonEvent(EventKind.RELEASE, self._button, t))
        if self._stuck:
            self._stuck = False
            events.append(ButtonEvent(EventKind.RECOVERED, self._button, t, "released after stuck"))
        return events
