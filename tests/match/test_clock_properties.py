"""Property tests of the clock over random event sequences (hypothesis).

- The reserve never grows except by a director's action.
- The time used equals the sum of each turn's overrun beyond the allowance, and the turns' running
  time adds up to the time a clock was running (measured here from the states, not the code).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.clock import (
    ClockState,
    ClockStep,
    TurnRecord,
    centre,
    director_add,
    director_set,
    display,
    forfeit_allowance,
    new_clock,
    press,
    resume,
    take_break,
    tick,
)
from kiosk.match import Player
from kiosk.rulesets import CentreReason, load_ruleset

REASONS: list[CentreReason] = ["fallen_dice", "summon_director", "concession", "end_of_game"]


@dataclass(frozen=True)
class Event:
    kind: str
    side: Player
    dt: int
    reason: CentreReason


PLAYER_KINDS = ["press", "press", "press", "tick", "centre", "resume", "break", "forfeit"]


def _events(kinds: list[str]) -> st.SearchStrategy[Event]:
    return st.builds(
        Event,
        kind=st.sampled_from(kinds),
        side=st.sampled_from([0, 1]),
        dt=st.integers(min_value=0, max_value=40_000),
        reason=st.sampled_from(REASONS),
    )


EVENTS = _events(PLAYER_KINDS)
EVENTS_WITH_DIRECTOR = _events([*PLAYER_KINDS, "director"])


def _apply(state: ClockState, event: Event, t: int) -> ClockStep:
    side = event.side
    if event.kind == "press":
        return press(state, side, t)
    if event.kind == "tick":
        return tick(state, t)
    if event.kind == "centre":
        return centre(state, t, event.reason)
    if event.kind == "resume":
        return resume(state, t)
    if event.kind == "break":
        return take_break(state, t, side)
    if event.kind == "director":
        return director_add(state, t, side, event.dt, "adjustment")
    return forfeit_allowance(state, side, t)


def _run(
    name: str, reserve_ms: int, events: list[Event]
) -> tuple[ClockState, list[TurnRecord], int, list[tuple[int, int]]]:
    state = new_clock(load_ruleset(name), reserve_ms, 11)
    turns: list[TurnRecord] = []
    running_ms = 0
    shown: list[tuple[int, int]] = [display(state, 0).reserves_ms]
    t = 0
    for event in events:
        t_next = t + event.dt
        if state.running is not None:
            running_ms += t_next - t
        t = t_next
        step = _apply(state, event, t)
        if step.ended_turn is not None:
            turns.append(step.ended_turn)
        state = step.state
        shown.append(display(state, t).reserves_ms)
    final = centre(state, t, "end_of_game")
    if final.ended_turn is not None:
        turns.append(final.ended_turn)
    return final.state, turns, running_ms, shown


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["mso", "biba", "ga", "jbl"]),
    reserve_ms=st.integers(min_value=0, max_value=3_000_000),
    events=st.lists(EVENTS_WITH_DIRECTOR, max_size=60),
)
def test_reserve_never_grows_without_the_director(
    name: str, reserve_ms: int, events: list[Event]
) -> None:
    _, _, _, shown = _run(name, reserve_ms, events)
    for event, (before, after) in zip(events, itertools.pairwise(shown), strict=False):
        assert min(after) >= 0
        if event.kind == "director":
            continue
        assert after[0] <= before[0]
        assert after[1] <= before[1]


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["mso", "biba", "ga", "jbl"]),
    events=st.lists(EVENTS, max_size=60),
)
def test_time_used_is_the_sum_of_overruns(name: str, events: list[Event]) -> None:
    reserve_ms = 10**9  # no flag can fall: every turn is charged its whole overrun
    state, turns, running_ms, _ = _run(name, reserve_ms, events)
    for side in (0, 1):
        charged = sum(turn.charged_ms for turn in turns if turn.side == side)
        assert charged == reserve_ms - state.reserve_ms[side] == state.used_ms[side]
    for turn in turns:
        assert turn.charged_ms == max(0, turn.elapsed_ms - turn.allowance_ms)
        assert turn.allowance_ms in (0, state.delay_ms)
    assert sum(turn.elapsed_ms for turn in turns) == running_ms


@settings(max_examples=200, deadline=None)
@given(
    reserve_ms=st.integers(min_value=0, max_value=120_000),
    events=st.lists(EVENTS, max_size=60),
)
def test_a_flag_takes_exactly_the_reserve(reserve_ms: int, events: list[Event]) -> None:
    state, turns, _, _ = _run("ga", reserve_ms, events)
    for side in (0, 1):
        used = sum(turn.charged_ms for turn in turns if turn.side == side)
        assert used == reserve_ms - state.reserve_ms[side]
        if state.expiries[side]:
            assert used == reserve_ms
            assert state.reserve_ms[side] == 0


@settings(max_examples=100, deadline=None)
@given(
    events=st.lists(EVENTS, max_size=30),
    reserves=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
)
def test_director_set_is_what_the_clock_then_shows(
    events: list[Event], reserves: tuple[int, int]
) -> None:
    state, _, _, _ = _run("jbl", 600_000, events)
    t = state.since_ms + 1
    after = director_set(state, t, reserves, "adjustment").state
    assert display(after, t).reserves_ms == reserves
