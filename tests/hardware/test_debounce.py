"""The pure debouncer: bounce, taps, stuck and chattering buttons, tick independence."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.button_events import ButtonEvent, ButtonId, EventKind
from hardware.debounce import DebounceConfig, Debouncer

MS = 1_000_000
CFG = DebounceConfig(
    lockout_ns=20 * MS,
    stuck_ns=5_000 * MS,
    chatter_window_ns=500 * MS,
    chatter_edges=20,
    quiet_ns=1_000 * MS,
)


def feed(
    edges: list[tuple[bool, int]], ticks: list[int] = (), end: int | None = None
) -> list[ButtonEvent]:
    """Run edges and ticks through a fresh debouncer in time order; finish with advance(end)."""
    d = Debouncer(ButtonId.LEFT, CFG)
    steps = sorted([(t, 0, lvl) for lvl, t in edges] + [(t, 1, None) for t in ticks])
    out: list[ButtonEvent] = []
    for t, is_tick, lvl in steps:
        out += d.advance(t) if is_tick else d.edge(bool(lvl), t)
    if end is not None:
        out += d.advance(end)
    return out


def kinds(events: list[ButtonEvent]) -> list[tuple[str, int]]:
    return [(e.kind.value, e.t_ns) for e in events]


def bounce(start: int, level: bool, n: int, gap: int = MS // 2) -> list[tuple[bool, int]]:
    """n alternating edges ending at ``level``, the first at ``start``."""
    edges = []
    lvl = level if n % 2 == 1 else not level
    for i in range(n):
        edges.append((lvl, start + i * gap))
        lvl = not lvl
    return edges


def test_press_is_reported_at_first_edge_despite_bounce() -> None:
    events = feed(bounce(100 * MS, True, 7) + bounce(400 * MS, False, 5), end=2_000 * MS)
    assert kinds(events) == [("press", 100 * MS), ("release", 400 * MS)]


def test_press_is_returned_by_the_edge_call_itself() -> None:
    d = Debouncer(ButtonId.RIGHT, CFG)
    assert d.edge(True, 5 * MS) == [ButtonEvent(EventKind.PRESS, ButtonId.RIGHT, 5 * MS)]
    assert d.pressed


def test_short_tap_releases_when_the_lockout_ends_stamped_with_its_edge() -> None:
    d = Debouncer(ButtonId.LEFT, CFG)
    d.edge(True, 0)
    assert d.edge(False, 8 * MS) == []
    assert d.advance(19 * MS) == []
    assert kinds(d.advance(20 * MS)) == [("release", 8 * MS)]


def test_held_button_is_reported_stuck_then_recovered_on_release() -> None:
    events = feed([(True, 0), (False, 7_000 * MS)], ticks=[6_000 * MS])
    assert [(e.kind, e.t_ns) for e in events] == [
        (EventKind.PRESS, 0),
        (EventKind.FAULT, 5_000 * MS),
        (EventKind.RELEASE, 7_000 * MS),
        (EventKind.RECOVERED, 7_000 * MS),
    ]
    assert events[1].detail.startswith("stuck")


def test_button_held_at_start_is_stuck_without_a_press() -> None:
    d = Debouncer(ButtonId.CENTRE, CFG, pressed=True, t_ns=0)
    assert [e.kind for e in d.advance(5_000 * MS)] == [EventKind.FAULT]
    assert [e.kind for e in d.edge(False, 6_000 * MS)] == [EventKind.RECOVERED]


def test_chatter_is_a_fault_and_suppresses_presses_until_quiet() -> None:
    d = Debouncer(ButtonId.LEFT, CFG)
    events: list[ButtonEvent] = []
    for lvl, t in bounce(0, False, 40, gap=10 * MS):  # 40 edges in 400 ms: a loose wire
        events += d.edge(lvl, t)
    fault_at = [e for e in events if e.kind is EventKind.FAULT]
    assert len(fault_at) == 1
    assert fault_at[0].detail.startswith("chatter")
    assert d.faulted
    presses_after_fault = [
        e for e in events if e.t_ns > fault_at[0].t_ns and e.kind is EventKind.PRESS
    ]
    assert presses_after_fault == []
    end = d.advance(390 * MS + 1_000 * MS)
    assert [e.kind for e in end][-1] is EventKind.RECOVERED
    assert not d.faulted
    assert d.edge(True, 2_000 * MS)[0].kind is EventKind.PRESS


def test_chatter_that_settles_pressed_never_presses_the_clock() -> None:
    d = Debouncer(ButtonId.LEFT, CFG, pressed=True, t_ns=0)  # line held low at start: no press
    events: list[ButtonEvent] = []
    for lvl, t in bounce(10 * MS, True, 31):  # starts with a release edge, settles pressed
        events += d.edge(lvl, t)
    events += d.advance(1_100 * MS)
    assert [e.kind for e in events] == [EventKind.FAULT, EventKind.RECOVERED]
    assert d.pressed
    stuck = d.advance(10_000 * MS)
    assert [(e.kind, e.detail[:5]) for e in stuck] == [(EventKind.FAULT, "stuck")]


def test_pending_release_is_reported_when_chatter_ends_released() -> None:
    edges = bounce(0, False, 30)  # first edge presses, the last releases
    events = feed(edges, end=3_000 * MS)
    assert [e.kind for e in events] == [
        EventKind.PRESS,
        EventKind.FAULT,
        EventKind.RELEASE,
        EventKind.RECOVERED,
    ]


def test_time_going_backwards_is_clamped_not_an_error() -> None:
    d = Debouncer(ButtonId.LEFT, CFG)
    d.advance(100 * MS)
    assert kinds(d.edge(True, 90 * MS)) == [("press", 100 * MS)]


@pytest.mark.parametrize(
    ("field", "value"),
    [("lockout_ns", 0), ("stuck_ns", -1), ("chatter_edges", 1), ("quiet_ns", 0)],
)
def test_bad_config_names_the_field(field: str, value: int) -> None:
    with pytest.raises(ValueError, match=field):
        DebounceConfig(**{field: value})


def test_stuck_threshold_must_exceed_lockout() -> None:
    with pytest.raises(ValueError, match="stuck_ns"):
        DebounceConfig(lockout_ns=10 * MS, stuck_ns=5 * MS)


# Random edge trains: gaps from sub-millisecond bounce to seconds-long holds.
gaps = st.lists(
    st.one_of(st.integers(1, 3 * MS), st.integers(1, 400 * MS), st.integers(1, 8_000 * MS)),
    min_size=0,
    max_size=60,
)


def train(gap_list: list[int]) -> list[tuple[bool, int]]:
    t, lvl, out = 0, False, []
    for g in gap_list:
        t += g
        lvl = not lvl
        out.append((lvl, t))
    return out


@settings(max_examples=300, deadline=None)
@given(gaps, st.lists(st.integers(0, 40_000 * MS), max_size=30))
def test_events_do_not_depend_on_when_time_is_ticked(gap_list: list[int], ticks: list[int]) -> None:
    edges = train(gap_list)
    end = (edges[-1][1] if edges else 0) + 20_000 * MS
    assert feed(edges, end=end) == feed(edges, ticks=ticks, end=end)


@settings(max_examples=300, deadline=None)
@given(gaps)
def test_presses_and_releases_alternate_at_edge_times_in_order(gap_list: list[int]) -> None:
    edges = train(gap_list)
    if edges and edges[-1][0]:
        edges.append((False, edges[-1][1] + 1))  # end released, so every fault can end
    events = feed(edges, end=(edges[-1][1] if edges else 0) + 20_000 * MS)
    times = [e.t_ns for e in events]
    assert times == sorted(times)
    edge_times = {t for _, t in edges}
    transitions = [e for e in events if e.kind in (EventKind.PRESS, EventKind.RELEASE)]
    assert all(e.t_ns in edge_times for e in transitions)
    expected = EventKind.PRESS
    for e in transitions:
        assert e.kind is expected
        expected = EventKind.RELEASE if expected is EventKind.PRESS else EventKind.PRESS
    presses = [e.t_ns for e in transitions if e.kind is EventKind.PRESS]
    assert all(b - a >= CFG.lockout_ns for a, b in itertools.pairwise(presses))
    faults = [e for e in events if e.kind is EventKind.FAULT]
    recovered = [e for e in events if e.kind is EventKind.RECOVERED]
    assert len(faults) == len(recovered)  # every fault has ended 20 s after the last edge


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 2 * MS), min_size=1, max_size=8), st.integers(50 * MS, 4_000 * MS))
def test_a_bouncy_press_and_release_give_exactly_one_of_each(bounces: list[int], hold: int) -> None:
    press = train(bounces)
    if not press[-1][0]:
        press.append((True, press[-1][1] + MS))
    start_release = press[-1][1] + hold
    release = [(not lvl, start_release + t) for lvl, t in train(bounces)]
    if release[-1][0]:
        release.append((False, release[-1][1] + MS))
    events = feed(press + release, end=start_release + 5_000 * MS)
    assert kinds(events) == [("press", press[0][1]), ("release", start_release + bounces[0])]
