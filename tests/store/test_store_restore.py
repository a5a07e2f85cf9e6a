"""Restoring a match by replaying its journal: exact state, clocks charged to the last heartbeat
and paused."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.store import JOURNAL_FILENAME, JsonDict, ReplayError, Store, restore
from tests.store.toy_clock import ToyClock, pause_at, reduce_clock

HEADER = {"ruleset": "biba", "length": 9}
HEARTBEAT_MS = 500


def _collect(state: tuple[JsonDict, ...], event: JsonDict) -> tuple[JsonDict, ...]:
    return (*state, event)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=6)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
events_strategy = st.lists(
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(["press", "frame", "touch", "tick"]),
            "t_ms": st.integers(0, 10**9),
        },
        optional={"payload": json_values, "side": st.integers(0, 1)},
    ),
    max_size=30,
)


@settings(max_examples=30, deadline=None)
@given(events_strategy)
def test_restore_folds_exactly_the_journaled_events(events: list[JsonDict]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        with Store(directory, synchronous="NORMAL") as store:
            journal = store.new_match(HEADER)
            for event in events:
                journal.append_event(event)
        with Store(directory) as store:
            nothing: tuple[JsonDict, ...] = ()
            restored = restore(store.journal(1), _collect, nothing)
    assert restored.state == tuple(events)
    assert restored.replayed == len(events)
    assert restored.resumed == ()
    assert restored.last_event_t_ms == max((e["t_ms"] for e in events), default=None)


def test_resume_charges_the_clock_to_the_last_heartbeat_then_pauses(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        journal.append_event({"kind": "press", "t_ms": 1_000, "side": 0})  # side 1 runs
        journal.checkpoint(1_500)
        journal.checkpoint(2_000)  # ... then the power fails at about 2.3 s
    with Store(tmp_path) as store:
        journal = store.journal(1)
        restored = restore(journal, reduce_clock, ToyClock(), resume=pause_at)
        assert (restored.last_event_t_ms, restored.checkpoint_t_ms) == (1_000, 2_000)
        assert restored.alive_t_ms == 2_000
        assert restored.state == ToyClock(
            running=None, since_ms=2_000, used_ms=(0, 1_000), presses=1
        )
        assert restored.resumed == (2, 3)
        assert [e.event["kind"] for e in journal.events()] == ["press", "tick", "pause"]
    with Store(tmp_path) as store:  # the resume is part of the record: a second restore agrees
        again = restore(store.journal(1), reduce_clock, ToyClock())
    assert again.state == restored.state


def test_a_checkpoint_older_than_the_last_event_does_not_rewind(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        journal.checkpoint(500)
        journal.append_event({"kind": "press", "t_ms": 700, "side": 1})
        restored = restore(journal, reduce_clock, ToyClock(), resume=pause_at)
    assert restored.alive_t_ms == 700
    assert restored.state.used_ms == (0, 0)


def test_a_match_without_events_is_restored_as_its_initial_state(tmp_path: Path) -> None:
    calls: list[int] = []

    def resume(state: ToyClock, alive: int) -> list[JsonDict]:
        calls.append(alive)
        return []

    with Store(tmp_path, synchronous="NORMAL") as store:
        restored = restore(store.new_match(HEADER), reduce_clock, ToyClock(), resume=resume)
    assert (restored.state, restored.alive_t_ms, calls) == (ToyClock(), None, [])


def test_an_event_the_reducer_refuses_is_named(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        journal.append_event({"kind": "press", "t_ms": 10, "side": 0})
        journal.append_event({"kind": "coffee", "t_ms": 20})
        with pytest.raises(ReplayError, match=r"event 2 \('coffee' at 20 ms\).*unknown event kind"):
            restore(journal, reduce_clock, ToyClock())


@settings(max_examples=30, deadline=None)
@given(
    gaps=st.lists(st.integers(1, 40_000), min_size=1, max_size=12),
    crash_after=st.integers(0, 60_000),
)
def test_at_most_one_heartbeat_of_clock_time_is_unaccounted(
    gaps: list[int], crash_after: int
) -> None:
    """A live kiosk presses after each gap (ms) and heartbeats every 500 ms; the power fails
    ``crash_after`` ms after the last press. The restored clock misses at most 500 ms."""
    presses = [sum(gaps[: i + 1]) for i in range(len(gaps))]
    crash = presses[-1] + crash_after
    with tempfile.TemporaryDirectory() as directory:
        with Store(directory, synchronous="NORMAL") as store:
            journal = store.new_match(HEADER)
            live = ToyClock()
            heartbeat = 0
            for i, t_ms in enumerate(presses):
                while heartbeat + HEARTBEAT_MS <= t_ms:
                    heartbeat += HEARTBEAT_MS
                    journal.checkpoint(heartbeat)
                event = {"kind": "press", "t_ms": t_ms, "side": i % 2}
                journal.append_event(event)
                live = reduce_clock(live, event)
            while heartbeat + HEARTBEAT_MS <= crash:
                heartbeat += HEARTBEAT_MS
                journal.checkpoint(heartbeat)
        truth = reduce_clock(live, {"kind": "tick", "t_ms": crash})
        with Store(directory) as store:
            restored = restore(store.journal(1), reduce_clock, ToyClock(), resume=pause_at)
    unaccounted = sum(truth.used_ms) - sum(restored.state.used_ms)
    assert 0 <= unaccounted < HEARTBEAT_MS
    assert restored.state.running is None


def test_a_resume_event_the_reducer_refuses_is_not_journaled(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        journal.append_event({"kind": "press", "t_ms": 10, "side": 0})
        with pytest.raises(ReplayError, match=r"event 2 \('nap' at 10 ms\)"):
            restore(
                journal, reduce_clock, ToyClock(), resume=lambda s, t: [{"kind": "nap", "t_ms": t}]
            )
        assert journal.event_count == 1


def test_events_missing_behind_the_last_heartbeat_are_reported(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        for t_ms in (10, 20, 30):
            journal.append_event({"kind": "press", "t_ms": t_ms, "side": 0})
        journal.checkpoint(40)
    raw = sqlite3.connect(tmp_path / JOURNAL_FILENAME)
    raw.execute("DROP TRIGGER events_keep")
    raw.execute("DELETE FROM events WHERE seq = 3")
    raw.commit()
    raw.close()
    with Store(tmp_path) as store, pytest.raises(ReplayError, match=r"had 3 events .* only 2"):
        restore(store.journal(1), reduce_clock, ToyClock())
