"""The referee as a function: ``step(state, event) -> (new state, incidents)``.

Pure: no I/O, no clock reads, no randomness; the gin judge passed in must be pure too. Replaying
the same events from the same configuration therefore gives the same state (``replay``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kiosk import clock as clocks
from kiosk.referee.actions import on_director, on_touch
from kiosk.referee.config import RefereeConfig
from kiosk.referee.context import Context
from kiosk.referee.events import BoardRead, ClockPress, DiceRead, DirectorAction, Event, Tick, Touch
from kiosk.referee.gin import GinJudge
from kiosk.referee.incidents import Incident
from kiosk.referee.state import RefereeState, new_referee
from kiosk.referee.turns import (
    on_board_read,
    on_dice_read,
    on_press,
    report_change,
    roll_explains_change,
    settle,
)


@dataclass(frozen=True)
class RefereeStep:
    """The state after an event and the incidents that event raised (in order)."""

    state: RefereeState
    incidents: tuple[Incident, ...]


def step(state: RefereeState, event: Event, gin: GinJudge | None = None) -> RefereeStep:
    """Apply one event. An event older than the last one is refused with an incident."""
    ctx = Context(state, event.t_ms, gin)
    if event.t_ms < state.t_ms:
        ctx.record(
            "time_went_backwards",
            "kiosk: events in time order",
            f"event at {event.t_ms} ms is before the last event at {state.t_ms} ms",
        )
        return RefereeStep(ctx.state, tuple(ctx.raised))
    ctx.set(t_ms=event.t_ms)
    report_change(ctx, event)
    if isinstance(event, ClockPress):
        on_press(ctx, event)  # the pending play is judged on the next event
    elif isinstance(event, BoardRead):
        on_board_read(ctx, event)
    else:
        settle(ctx)
        if isinstance(event, DiceRead):
            on_dice_read(ctx, event)
            roll_explains_change(ctx)
        elif isinstance(event, Touch):
            on_touch(ctx, event)
        elif isinstance(event, DirectorAction):
            on_director(ctx, event)
        elif isinstance(event, Tick):
            ctx.clock(lambda c: clocks.tick(c, ctx.t_ms))
    return RefereeStep(ctx.state, tuple(ctx.raised))


def replay(
    config: RefereeConfig, events: Iterable[Event], gin: GinJudge | None = None, t_ms: int = 0
) -> RefereeState:
    """The state after ``events`` from a new referee (the store's recovery after a restart)."""
    state = new_referee(config, t_ms)
    for event in events:
        state = step(state, event, gin).state
    return state
