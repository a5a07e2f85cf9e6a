"""A two-sided chess clock as a pure reducer over journal events, for the store's tests.

Events: ``press`` (``side`` ends its turn, the other side's clock runs), ``tick``, ``pause``.
Time going backwards raises, like a referee refusing an event.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from kiosk.store import JsonDict


@dataclass(frozen=True)
class ToyClock:
    """``used_ms[side]``: time charged to each side; ``running``: whose clock runs (or None)."""

    running: int | None = None
    since_ms: int = 0
    used_ms: tuple[int, int] = (0, 0)
    presses: int = 0


def reduce_clock(state: ToyClock, event: JsonDict) -> ToyClock:
    """Apply one event."""
    t_ms = event["t_ms"]
    if t_ms < state.since_ms:
        raise ValueError(f"time went backwards: {t_ms} < {state.since_ms}")
    used = list(state.used_ms)
    if state.running is not None:
        used[state.running] += t_ms - state.since_ms
    advanced = dataclasses.replace(state, since_ms=t_ms, used_ms=(used[0], used[1]))
    if event["kind"] == "press":
        return dataclasses.replace(advanced, running=1 - event["side"], presses=state.presses + 1)
    if event["kind"] == "pause":
        return dataclasses.replace(advanced, running=None)
    if event["kind"] == "tick":
        return advanced
    raise ValueError(f"unknown event kind {event['kind']!r}")


def pause_at(state: ToyClock, alive_t_ms: int) -> list[JsonDict]:
    """The resume events after a restart: charge the clock to ``alive_t_ms``, then pause."""
    return [
        {"kind": "tick", "t_ms": alive_t_ms},
        {"kind": "pause", "t_ms": alive_t_ms, "reason": "restart"},
    ]
