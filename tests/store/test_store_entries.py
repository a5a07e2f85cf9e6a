"""An event and the incidents it raised are one entry, committed together: appending entries,
a writer killed (SIGKILL) between or inside appends, the restore that journals the incidents an
older journal lost, and the pipeline's journal writer that groups what the match gives it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from kiosk.pipeline.journal import JournalWriter
from kiosk.store import (
    RECOVERED,
    Entry,
    EntryError,
    JsonDict,
    MatchJournal,
    NewIncident,
    Store,
    decode_snapshot,
    encode_snapshot,
    restore,
)
from tests.store.store_entry_writer_proc import (
    FOUL_EVERY,
    Fouls,
    entry_event,
    entry_incidents,
    raised_fouls,
    reduce_fouls,
)
from tests.store.writer_lines import said

WRITER = Path(__file__).with_name("store_entry_writer_proc.py")
REPO = Path(__file__).resolve().parents[2]
ROUNDS = 6
HEADER = {"test": "entries"}
JPEG = encode_snapshot(np.full((8, 8, 3), 90, np.uint8))


def _writer(state_dir: Path, seed: int, *die: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WRITER), str(state_dir), str(seed), *die],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def _check_entries(journal: MatchJournal) -> int:
    """Every journaled event has exactly the incidents it raised (the first with its snapshot),
    sealed right after it, none recovered; returns the number of events."""
    events = journal.events()
    assert [e.event["n"] for e in events] == list(range(1, len(events) + 1))
    expected = [
        (stored.seq, incident)
        for stored in events
        for incident in entry_incidents(stored.event["n"], stored.event["t_ms"])
    ]
    incidents = journal.incidents()
    assert [(i.event_seq, i.incident) for i in incidents] == expected
    for item in incidents:
        assert (item.snapshot_id is not None) == (item.incident["part"] == 1)
        assert RECOVERED not in item.incident
    assert journal.verify().ok
    return len(events)


def test_an_entry_seals_its_incidents_after_its_event(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        journal.append_event({"kind": "move", "t_ms": 1})
        foul = {"kind": "foul", "t_ms": 2, "who": 0}
        stored = journal.append_entry(
            {"kind": "move", "t_ms": 2}, [NewIncident(foul, JPEG), NewIncident(foul)]
        )
        assert stored.seq == 2
        assert [(i.seq, i.event_seq) for i in stored.incidents] == [(1, 2), (2, 2)]
        assert journal.incidents() == list(stored.incidents)
        assert journal.head == (2, stored.incidents[-1].hash)
        assert stored.incidents[0].snapshot_id is not None
        assert journal.snapshot(stored.incidents[0].snapshot_id) == JPEG
        assert stored.incidents[1].snapshot_id is None
        assert journal.append_entry({"kind": "move", "t_ms": 3}).incidents == ()
        assert journal.verify().ok


def test_several_entries_go_in_one_transaction(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        foul = NewIncident({"kind": "foul", "t_ms": 5}, JPEG)
        stored = journal.append_entries(
            [Entry({"kind": "tick", "t_ms": 5}, [foul, foul]), Entry({"kind": "pause", "t_ms": 5})]
        )
        assert [(s.seq, [i.event_seq for i in s.incidents]) for s in stored] == [
            (1, [1, 1]),
            (2, []),
        ]
        snapshots = [i.snapshot_id for i in stored[0].incidents]
        assert None not in snapshots
        assert len(set(snapshots)) == 2
        assert journal.verify().ok
        with pytest.raises(EntryError, match="no entries"):
            journal.append_entries([])


@pytest.mark.parametrize(
    ("incident", "message"),
    [
        (NewIncident({"kind": "foul"}), "t_ms"),
        (NewIncident({"kind": "foul", "t_ms": 1}, b"not a jpeg"), "not JPEG"),
        (NewIncident({"kind": "foul", "t_ms": 1, "x": float("nan")}), "foul"),
    ],
)
def test_a_refused_incident_leaves_its_event_out_too(
    tmp_path: Path, incident: NewIncident, message: str
) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        good = NewIncident({"kind": "foul", "t_ms": 1}, JPEG)
        with pytest.raises(EntryError, match=message):
            journal.append_entry({"kind": "move", "t_ms": 1}, [good, incident])
        assert journal.event_count == 0
        assert journal.events() == []
        assert journal.incidents() == []
        assert journal.append_entry({"kind": "move", "t_ms": 1}, [good]).seq == 1
        assert journal.verify().ok


def test_a_writer_killed_at_random_points_never_leaves_an_event_without_its_incidents(
    tmp_path: Path,
) -> None:
    rng = random.Random(20261130)
    committed = 0
    for round_number in range(ROUNDS):
        writer = _writer(tmp_path, round_number)
        assert writer.stdout is not None
        restarted = writer.stdout.readline()  # restored: now appending
        time.sleep(rng.uniform(0.2, 0.6))
        writer.send_signal(signal.SIGKILL)
        output, _ = writer.communicate(timeout=30)
        assert writer.returncode == -signal.SIGKILL
        assert said(restarted, "R")[0][0] == 0  # the restore found no incident missing
        committed = max([committed, *(seq for seq, _ in said(output, "E"))])
        with Store(tmp_path) as store:
            assert _check_entries(store.journal(1)) >= committed
    assert committed >= ROUNDS * FOUL_EVERY  # the rounds did write, foul entries among them


@pytest.mark.parametrize("die_on", ["INSERT INTO incidents", "COMMIT"])
def test_a_writer_killed_inside_the_append_leaves_neither_event_nor_incidents(
    tmp_path: Path, die_on: str
) -> None:
    die_at = 2 * FOUL_EVERY  # an event raising two incidents
    writer = _writer(tmp_path, 1, str(die_at), die_on)
    output, _ = writer.communicate(timeout=60)
    assert writer.returncode == -signal.SIGKILL
    assert said(output, "E")[-1] == [die_at - 1, die_at - 1]
    with Store(tmp_path) as store:
        journal = store.journal(1)
        assert _check_entries(journal) == die_at - 1
        assert len(journal.incidents()) == 2
        restored = restore(journal, reduce_fouls, Fouls(), raised=raised_fouls)
        assert restored.recovered == ()
        assert len(restored.state.incidents) == 2


def _old_journal(store: Store, kept: Sequence[int]) -> MatchJournal:
    """A journal written before entries: events 1..6, each foul event followed by the first
    ``kept[i]`` of its incidents (the i-th foul event), as a crash between writes leaves it."""
    journal = store.new_match(HEADER)
    fouls = iter(kept)
    for n in range(1, 7):
        journal.append_event(entry_event(n, 100 * n))
        raised = entry_incidents(n, 100 * n)
        for incident in raised[: next(fouls) if raised else 0]:
            journal.append_incident(incident)
    return journal


def test_a_restore_journals_the_incidents_an_older_journal_lost_marked_recovered(
    tmp_path: Path,
) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = _old_journal(store, kept=[1, 0])  # event 3 kept one of two, event 6 none
        restored = restore(journal, reduce_fouls, Fouls(), raised=raised_fouls)
        marked = [
            {**entry_incidents(3, 300)[1], RECOVERED: {"event_seq": 3}},
            *({**item, RECOVERED: {"event_seq": 6}} for item in entry_incidents(6, 600)),
        ]
        assert [item.incident for item in restored.recovered] == marked
        assert [item.incident for item in journal.incidents()[1:]] == marked
        assert [item.event_seq for item in restored.recovered] == [6, 6, 6]  # chain rule
        assert all(item.snapshot_id is None for item in restored.recovered)
        assert journal.verify().ok
        again = restore(journal, reduce_fouls, Fouls(), raised=raised_fouls)
        assert again.recovered == ()
        assert again.state == restored.state
        assert len(journal.incidents()) == 4


def test_recovery_counts_incidents_per_event_and_ignores_their_wording(tmp_path: Path) -> None:
    """A referee whose wording changed since the journal was written duplicates nothing."""
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = _old_journal(store, kept=[2, 1])

        def reworded(state: Fouls, start: int) -> Sequence[JsonDict]:
            return [{**item, "detail": "new text"} for item in state.incidents[start:]]

        restored = restore(journal, reduce_fouls, Fouls(), raised=reworded)
        assert [item.incident for item in restored.recovered] == [
            {**entry_incidents(6, 600)[1], "detail": "new text", RECOVERED: {"event_seq": 6}}
        ]
        assert journal.verify().ok


def _flag_on_pause(state: Fouls, event: JsonDict) -> Fouls:
    """The fouls reducer, with a resume's ``pause`` raising a flag."""
    if event["kind"] == "pause":
        return Fouls((*state.incidents, {"kind": "flag", "t_ms": event["t_ms"]}))
    return reduce_fouls(state, event)


def _pause(state: Fouls, alive_t_ms: int) -> list[JsonDict]:
    return [{"kind": "pause", "t_ms": alive_t_ms}]


def test_the_resume_events_are_journaled_with_their_incidents(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        journal.append_entry(entry_event(1, 100))
        restored = restore(journal, _flag_on_pause, Fouls(), _pause, raised_fouls)
        assert restored.resumed == (2,)
        assert restored.recovered == ()
        assert [(i.event_seq, i.incident) for i in journal.incidents()] == [
            (2, {"kind": "flag", "t_ms": 100})
        ]
        assert restore(journal, _flag_on_pause, Fouls(), raised=raised_fouls).recovered == ()


def test_the_journal_writer_commits_each_event_with_the_incidents_that_follow_it(
    tmp_path: Path,
) -> None:
    frame = np.full((16, 16, 3), 200, np.uint8)
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER)
        writer = JournalWriter(journal)
        writer.incident({"kind": "early", "t_ms": 0}, None)  # before any event: on its own
        writer.event({"kind": "move", "t_ms": 1})
        writer.incident({"kind": "foul", "t_ms": 1}, frame)
        writer.incident({"kind": "foul", "t_ms": 1, "second": True}, None)
        writer.heartbeat(1)
        writer.event({"kind": "move", "t_ms": 2})
        writer.incident({"kind": "foul", "t_ms": 2}, np.zeros((4, 4), np.float32))  # bad frame
        writer.flush()
        assert journal.event_count == 2
        writer.event({"kind": "move", "t_ms": 3})
        writer.incident({"kind": "refused"}, None)  # no t_ms: the entry is refused whole
        writer.close()
        assert writer.errors == 2
        assert journal.event_count == 2
        stored = [(i.event_seq, i.incident["kind"], i.snapshot_id) for i in journal.incidents()]
        assert [row[:2] for row in stored] == [(0, "early"), (1, "foul"), (1, "foul"), (2, "foul")]
        assert [row[2] is None for row in stored] == [True, False, True, True]
        snapshot_id = stored[1][2]
        assert snapshot_id is not None
        assert abs(float(decode_snapshot(journal.snapshot(snapshot_id)).mean()) - 200) < 3
        assert journal.last_checkpoint() is not None
        assert journal.verify().ok
