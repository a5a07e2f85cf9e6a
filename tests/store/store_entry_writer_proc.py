"""A kiosk-like writer of entries (an event with the incidents it raised, one transaction) for
the kill tests, killed with SIGKILL by them or by itself inside an append.

``python tests/store/store_entry_writer_proc.py STATE_DIR SEED [DIE_AT DIE_ON]``: restores the
unfinished match (or opens one) with the fouls reducer, so that incidents the journal lacks would
be journaled as recovered, and prints ``R <recovered> <event_count>``. Then it appends entries as
fast as it can with short pauses, printing ``E seq n`` after each commit. Every
``FOUL_EVERY``-th event raises two incidents, the first with a snapshot. With ``DIE_AT``, it kills
itself with SIGKILL while appending event ``n == DIE_AT``, when SQLite starts the statement
beginning with ``DIE_ON`` (e.g. ``INSERT INTO incidents``, ``COMMIT``): inside the transaction,
after the event's row went in.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kiosk.store import JsonDict, MatchJournal, NewIncident, Store, encode_snapshot, restore
from tests.store.writer_lines import say

FOUL_EVERY = 3


def entry_event(n: int, t_ms: int) -> JsonDict:
    """The n-th event the writer appends (n counts from 1)."""
    return {"kind": "move", "t_ms": t_ms, "n": n}


def entry_incidents(n: int, t_ms: int) -> list[JsonDict]:
    """The incidents event ``n`` raises: two fouls every ``FOUL_EVERY``-th event."""
    if n % FOUL_EVERY:
        return []
    return [{"kind": "foul", "t_ms": t_ms, "n": n, "part": part} for part in (1, 2)]


@dataclass(frozen=True)
class Fouls:
    """The toy referee's state: every incident raised so far."""

    incidents: tuple[JsonDict, ...] = ()


def reduce_fouls(state: Fouls, event: JsonDict) -> Fouls:
    """Apply one event: it raises :func:`entry_incidents`."""
    return Fouls((*state.incidents, *entry_incidents(event["n"], event["t_ms"])))


def raised_fouls(state: Fouls, start: int) -> Sequence[JsonDict]:
    """The state's incidents from number ``start`` on."""
    return state.incidents[start:]


def _snapshot(n: int) -> bytes:
    return encode_snapshot(np.full((24, 32, 3), (n * 37) % 256, np.uint8))


def _die_inside(store: Store, statement: str) -> None:
    """SIGKILL this process when SQLite starts a statement beginning with ``statement``."""

    def trace(sql: str) -> None:
        if sql.startswith(statement):
            os.kill(os.getpid(), signal.SIGKILL)

    store._db.set_trace_callback(trace)


def _run(store: Store, journal: MatchJournal, seed: int, die: tuple[int, str] | None) -> None:
    rng = random.Random(seed)
    events = journal.events()
    n = events[-1].event["n"] if events else 0
    while True:
        n += 1
        t_ms = int(time.time() * 1000)
        incidents = [
            NewIncident(incident, _snapshot(n) if incident["part"] == 1 else None)
            for incident in entry_incidents(n, t_ms)
        ]
        if die is not None and n == die[0]:
            _die_inside(store, die[1])
        say("E", journal.append_entry(entry_event(n, t_ms), incidents).seq, n)
        if rng.random() < 0.1:
            time.sleep(rng.uniform(0.0, 0.02))


def main(argv: list[str]) -> None:
    """Entry point: see the module docstring."""
    state_dir, seed = argv[0], int(argv[1])
    die = (int(argv[2]), argv[3]) if len(argv) > 3 else None
    store = Store(state_dir)
    info = store.unfinished()
    journal = store.new_match({"test": "entries"}) if info is None else store.journal(info.id)
    restored = restore(journal, reduce_fouls, Fouls(), raised=raised_fouls)
    say("R", len(restored.recovered), journal.event_count)
    _run(store, journal, seed, die)


if __name__ == "__main__":
    main(sys.argv[1:])
