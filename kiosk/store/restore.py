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

Incidents: given ``raised`` (the incidents a state holds), a restore also repairs the incident
record. A journal written before events and their incidents were committed together
(:meth:`~kiosk.store.journal.MatchJournal.append_entry`) may hold an event without the incidents
it raised, cut by a crash between the two writes. Replaying rebuilds them; those the journal lacks
are appended to the hash chain, in order, marked ``"recovered": {"event_seq": n}`` (the event that
raised them; the chain row's own ``event_seq`` is the count at the restore, as the chain rules
say) and without a snapshot, the frame being gone. They are matched by count per raising event,
not by text, so that a referee whose wording changed does not duplicate the record. The resume
events are journaled each with the incidents it raised.

After a restore the match time must continue from ``alive_t_ms`` (the monotonic clock restarted
with the machine): new events carry ``alive_t_ms + ms since the restart``. The time the kiosk
was down is charged to nobody, since the clocks are paused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from kiosk.store.canonical import JsonDict
from kiosk.store.errors import StoreError
from kiosk.store.journal import Entry, MatchJournal, NewIncident, StoredIncident

S = TypeVar("S")

Reducer = Callable[[S, JsonDict], S]
"""``reducer(state, event) -> state``: pure, raising on an event it cannot apply."""

Resume = Callable[[S, int], Sequence[JsonDict]]
"""``resume(state, alive_t_ms) -> events`` that charge the clocks to ``alive_t_ms`` and pause
them."""

Raised = Callable[[S, int], Sequence[JsonDict]]
"""``raised(state, start) -> incidents``: the incidents ``state`` holds from number ``start`` on
(0-based, oldest first), as dicts with ``kind`` and ``t_ms``. A state's incidents only grow."""

RECOVERED = "recovered"
"""The key marking an incident that a restore journaled because the journal lacked it: its value
is ``{"event_seq": n}``, the event that raised the incident."""


class ReplayError(StoreError):
    """The journal cannot be replayed: the reducer raised on an event, or events are missing."""


@dataclass(frozen=True, slots=True)
class Restored(Generic[S]):
    """A restored match.

    ``replayed`` events were folded (including the ``resumed`` ones, whose ``seq``s are listed);
    ``recovered``: the incidents the journal lacked, journaled by this restore;
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
    recovered: tuple[StoredIncident, ...]


def restore(
    journal: MatchJournal,
    reducer: Reducer[S],
    initial_state: S,
    resume: Resume[S] | None = None,
    raised: Raised[S] | None = None,
) -> Restored[S]:
    """Fold the journal's events through ``reducer`` from ``initial_state``; given ``raised``,
    journal the incidents the journal lacks; then, when given ``resume`` and the match had
    started, journal (with their incidents) and fold its events at ``alive_t_ms``."""
    state = initial_state
    last_t: int | None = None
    replayed = 0
    raised_by: list[int] = []  # the seq of the event that raised each of the state's incidents
    for item in journal.iter_events():
        state = _apply(reducer, state, item.seq, item.event)
        if raised is not None:
            raised_by += [item.seq] * len(raised(state, len(raised_by)))
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
    recovered = () if raised is None else _recover(journal, raised(state, 0), raised_by)
    checkpoint_t = None if checkpoint is None else checkpoint.t_ms
    known = [t for t in (last_t, checkpoint_t) if t is not None]
    alive = max(known) if known else None
    resumed: tuple[int, ...] = ()
    if resume is not None and alive is not None:
        entries: list[Entry] = []
        for seq, event in enumerate(resume(state, alive), start=replayed + 1):
            state = _apply(reducer, state, seq, event)  # refused before journaled
            new = () if raised is None else raised(state, len(raised_by))
            raised_by += [seq] * len(new)
            entries.append(Entry(event, [NewIncident(incident) for incident in new]))
        if entries:
            resumed = tuple(stored.seq for stored in journal.append_entries(entries))
    replayed += len(resumed)
    return Restored(state, replayed, last_t, checkpoint_t, alive, resumed, recovered)


def _recover(
    journal: MatchJournal, incidents: Sequence[JsonDict], raised_by: Sequence[int]
) -> tuple[StoredIncident, ...]:
    """Journal, marked :data:`RECOVERED`, the ``incidents`` (raised by the events ``raised_by``)
    that the journal lacks. Of the incidents an event raised, a crash between separate writes
    kept the first ones: the journal's count per raising event says how many."""
    journaled = Counter(_raising_event(item) for item in journal.incidents())
    recovered: list[StoredIncident] = []
    for incident, event_seq in zip(incidents, raised_by, strict=True):
        if journaled[event_seq] > 0:
            journaled[event_seq] -= 1
            continue
        marked = {**incident, RECOVERED: {"event_seq": event_seq}}
        recovered.append(journal.append_incident(marked))
    return tuple(recovered)


def _raising_event(item: StoredIncident) -> int:
    """The event that raised a journaled incident (a recovered one says so)."""
    marker = item.incident.get(RECOVERED)
    if isinstance(marker, dict) and isinstance(marker.get("event_seq"), int):
        return int(marker["event_seq"])
    return item.event_seq


def _apply(reducer: Reducer[S], state: S, seq: int, event: JsonDict) -> S:
    try:
        return reducer(state, event)
    except Exception as error:
        raise ReplayError(
            f"event {seq} ({event.get('kind')!r} at {event.get('t_ms')} ms) could not be "
            f"replayed: {error}"
        ) from error
