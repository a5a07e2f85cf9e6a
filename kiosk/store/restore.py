"""Restoring a match after a crash or a power cut by replaying its journal.

The caller supplies the reducer (for the kiosk: the referee applied to a decoded event) and the
initial state; the journal's events are folded through it in order, which reproduces the state
exactly since the reducer is pure.

Clocks: the events alone stop at the last event, but the clock of the player on turn kept running
until the kiosk died. The journal's heartbeat checkpoint (written every 0.5 s by
:meth:`~kiosk.store.journal.MatchJournal.heartbeat`) says how long it ran: ``alive_t_ms``.
``resume(state, alive_t_ms)`` returns the events that charge the clock up to then and pause it
(for the referee: a tick at ``alive_t_ms`` and a centring for the restart); they are journaled
and folded like any other, so the next restore repeats them. With heartbeats every 0.5 s at
most about 0.5 s of clock time goes unaccounted (the target is 1 s).

After a restore the match time must continue from ``alive_t_ms`` (the monotonic clock restarted
with the machine): new events carry ``alive_t_ms + ms since the restart``. The time the kiosk
was down is charged to nobody, since the clocks are paused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from kiosk.store.canonical import JsonDict
from kiosk.store.errors import StoreError
from kiosk.store.journal import MatchJournal

S = TypeVar("S")

Reducer = Callable[[S, JsonDict], S]
"""``reducer(state, event) -> state``: pure, raising on an event it cannot apply."""

Resume = Callable[[S, int], Sequence[JsonDict]]
"""``resume(state, alive_t_ms) -> events`` that charge the clocks to ``alive_t_ms`` and pause
them."""


class ReplayError(StoreError):
    """The journal cannot be replayed: the reducer raised on an event, or events are missing."""


@dataclass(frozen=True, slots=True)
class Restored(Generic[S]):
    """A restored match.

    ``replayed`` events were folded (including the ``resumed`` ones, whose ``seq``s are listed);
    ``last_event_t_ms`` (the latest event time) and ``checkpoint_t_ms`` are None when there was
    none; ``alive_t_ms`` is the later of the two: the match time at which the kiosk was last
    known to run.
    """

    state: S
    replayed: int
    last_event_t_ms: int | None
    checkpoint_t_ms: int | None
    alive_t_ms: int | None
    resumed: tuple[int, ...]


def restore(
    journal: MatchJournal,
    reducer: Reducer[S],
    initial_state: S,
    resume: Resume[S] | None = None,
) -> Restored[S]:
    """Fold the journal's events through ``reducer`` from ``initial_state``; then, when given
    ``resume`` and the match had started, journal and fold its events at ``alive_t_ms``."""
    state = initial_state
    last_t: int | None = None
    replayed = 0
    for item in journal.iter_events():
        state = _apply(reducer, state, item.seq, item.event)
        t_ms = item.event["t_ms"]
        last_t = t_ms if last_t is None else max(last_t, t_ms)
        replayed += 1
    checkpoint = journal.last_checkpoint()
    if checkpoint is not None and checkpoint.event_seq > replayed:
        raise ReplayError(
            f"{journal.state_dir}: match {journal.match_id} had {checkpoint.event_seq} events "
            f"journaled at its last heartbeat but only {replayed} are left: the journal was "
            "damaged or edited"
        )
    checkpoint_t = None if checkpoint is None else checkpoint.t_ms
    known = [t for t in (last_t, checkpoint_t) if t is not None]
    alive = max(known) if known else None
    resumed: tuple[int, ...] = ()
    if resume is not None and alive is not None:
        events = list(resume(state, alive))
        for offset, event in enumerate(events, start=replayed + 1):  # refused before journaled
            state = _apply(reducer, state, offset, event)
        if events:
            resumed = tuple(journal.append_events(events))
    return Restored(state, replayed + len(resumed), last_t, checkpoint_t, alive, resumed)


def _apply(reducer: Reducer[S], state: S, seq: int, event: JsonDict) -> S:
    try:
        return reducer(state, event)
    except Exception as error:
        raise ReplayError(
            f"event {seq} ({event.get('kind')!r} at {event.get('t_ms')} ms) could not be "
            f"replayed: {error}"
        ) from error
