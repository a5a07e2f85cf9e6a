"""A set of debounced buttons fed from a callback thread: stamps edges and forwards events.

Shared by the GPIO buttons and the keyboard stand-in. Edges are stamped with ``clock_ns()`` the
moment the callback runs (before taking the lock), so a press carries the time of its edge even
when it waits behind another thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping

from hardware.button_events import ButtonEvent, ButtonId
from hardware.debounce import DebounceConfig, Debouncer

EventSink = Callable[[ButtonEvent], None]
ClockNs = Callable[[], int]


class ButtonBank:
    """Debouncers for several buttons behind one lock; events go to ``sink`` in order.

    ``sink`` is called with the lock held (so events arrive in the order they were decided) and
    must not call back into the bank; ``queue.Queue.put`` is a good sink for a UI thread.
    """

    def __init__(
        self,
        buttons: Iterable[ButtonId],
        sink: EventSink,
        *,
        config: DebounceConfig | None = None,
        clock_ns: ClockNs = time.monotonic_ns,
        initially_pressed: Mapping[ButtonId, bool] | None = None,
    ) -> None:
        self._sink = sink
        self._clock_ns = clock_ns
        self._lock = threading.Lock()
        start = clock_ns()
        pressed = initially_pressed or {}
        self._debouncers = {
            button: Debouncer(button, config, pressed=pressed.get(button, False), t_ns=start)
            for button in buttons
        }

    @property
    def buttons(self) -> tuple[ButtonId, ...]:
        """The buttons in this bank."""
        return tuple(self._debouncers)

    def edge(self, button: ButtonId, pressed: bool) -> None:
        """A raw edge on ``button`` (called from the GPIO or keyboard callback)."""
        t_ns = self._clock_ns()
        with self._lock:
            for event in self._debouncers[button].edge(pressed, t_ns):
                self._sink(event)

    def poll(self) -> None:
        """Let time pass: call regularly (e.g. every UI frame) to report timed events.

        Stuck buttons, the end of chatter and the release of a tap shorter than the lockout are
        only decided when time is known to have passed.
        """
        with self._lock:
            t_ns = self._clock_ns()
            for debouncer in self._debouncers.values():
                for event in debouncer.advance(t_ns):
                    self._sink(event)

    def is_pressed(self, button: ButtonId) -> bool:
        """The debounced level of ``button``."""
        with self._lock:
            return self._debouncers[button].pressed
