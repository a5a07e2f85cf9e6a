"""A kiosk-like journal writer for the durability tests, killed at random points by them.

``python tests/store/store_writer_proc.py STATE_DIR SEED [LIMIT]``: restores the unfinished match
(or opens one), then appends events (and every fifth an incident with a snapshot) as fast as it
can, with idle spells, calling the heartbeat on every loop (a checkpoint each 0.5 s of wall-clock
time). After each commit it prints a line: ``E seq n`` (event), ``I seq n`` (incident),
``C t_ms`` (checkpoint); after the restore ``R alive_t_ms event_count``. The match time is the
wall clock in ms. With LIMIT it stops after that many events by ``os._exit`` without closing the
database, as a crash would.
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

from kiosk.store import JsonDict, MatchJournal, Store, encode_snapshot, restore
from tests.store.toy_clock import ToyClock, pause_at, reduce_clock
from tests.store.writer_lines import say

INCIDENT_EVERY = 5


def expected_event(n: int, t_ms: int) -> JsonDict:
    """The n-th event the writer appends (n counts the writer's own events from 1)."""
    return {"kind": "press", "t_ms": t_ms, "side": n % 2, "n": n, "pad": "x" * (n % 50)}


def expected_incident(n: int, t_ms: int) -> JsonDict:
    """The incident written after event ``n`` when ``n % INCIDENT_EVERY == 0``."""
    return {"kind": "flag_fell", "t_ms": t_ms, "n": n, "rule": "MSO-clock 5.1"}


def snapshot_level(n: int) -> int:
    """The grey level of the snapshot written with the incident after event ``n``."""
    return (n * 37) % 256


def _now_ms() -> int:
    return int(time.time() * 1000)


def _run(journal: MatchJournal, rng: random.Random, limit: int | None) -> None:
    events = [e.event for e in journal.events() if "n" in e.event]
    n = events[-1]["n"] if events else 0
    idle_until = 0
    while limit is None or n < limit:
        now = _now_ms()
        if journal.heartbeat(now):
            say("C", now)
        if now < idle_until:
            time.sleep(0.02)
            continue
        if rng.random() < 0.03:
            idle_until = now + rng.randint(200, 1500)  # a player thinking
            continue
        n += 1
        say("E", journal.append_event(expected_event(n, now)), n)
        if n % INCIDENT_EVERY == 0:
            image = np.full((48, 64, 3), snapshot_level(n), np.uint8)
            incident = journal.append_incident(expected_incident(n, now), encode_snapshot(image))
            say("I", incident.seq, n)


def main(argv: list[str]) -> None:
    """Entry point: see the module docstring."""
    state_dir, seed = argv[0], int(argv[1])
    limit = int(argv[2]) if len(argv) > 2 else None
    store = Store(state_dir)
    info = store.unfinished()
    journal = store.new_match({"test": "durability"}) if info is None else store.journal(info.id)
    restored = restore(journal, reduce_clock, ToyClock(), resume=pause_at)
    say("R", restored.alive_t_ms, journal.event_count)
    _run(journal, random.Random(seed), limit)
    os._exit(0)  # no close: the WAL stays as a crash leaves it


if __name__ == "__main__":
    main(sys.argv[1:])
