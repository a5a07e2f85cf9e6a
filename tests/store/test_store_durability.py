"""Durability: a writer process killed (SIGKILL) at random points loses no committed event, the
chain still verifies, the clock misses at most 1 s; a torn end of the WAL damages nothing before
it."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.store import JOURNAL_FILENAME, MatchJournal, Store, decode_snapshot
from tests.store.store_writer_proc import (
    INCIDENT_EVERY,
    expected_event,
    expected_incident,
    snapshot_level,
)
from tests.store.writer_lines import said

WRITER = Path(__file__).with_name("store_writer_proc.py")
REPO = Path(__file__).resolve().parents[2]
ROUNDS = 8
UNACCOUNTED_LIMIT_MS = 1_000


def _start_writer(state_dir: Path, seed: int, limit: int | None = None) -> subprocess.Popen[str]:
    arguments = [sys.executable, str(WRITER), str(state_dir), str(seed)]
    return subprocess.Popen(
        [*arguments, *([str(limit)] if limit is not None else [])],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def _check_journal(journal: MatchJournal) -> None:
    """Everything in the journal is what the writer wrote, with no gap."""
    events = journal.events()
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    numbered = [e for e in events if "n" in e.event]
    assert [e.event["n"] for e in numbered] == list(range(1, len(numbered) + 1))
    seq_of_n = {}
    for stored in numbered:
        n = stored.event["n"]
        assert stored.event == expected_event(n, stored.event["t_ms"])
        seq_of_n[n] = stored.seq
    incidents = journal.incidents()
    assert [i.seq for i in incidents] == list(range(1, len(incidents) + 1))
    for stored_incident in incidents:
        n = stored_incident.incident["n"]
        assert n % INCIDENT_EVERY == 0
        assert stored_incident.incident == expected_incident(n, stored_incident.incident["t_ms"])
        assert stored_incident.event_seq == seq_of_n[n]
        assert stored_incident.snapshot_id is not None
        image = decode_snapshot(journal.snapshot(stored_incident.snapshot_id))
        assert abs(float(image.mean()) - snapshot_level(n)) < 3
    report = journal.verify()
    assert report.ok, report.broken


def test_a_writer_killed_at_random_points_loses_nothing_committed(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    committed_events: set[int] = set()
    committed_incidents: set[int] = set()
    published: tuple[int, str] | None = None
    for round_number in range(ROUNDS):
        writer = _start_writer(tmp_path, round_number)
        time.sleep(rng.uniform(0.3, 2.2))
        killed_ms = int(time.time() * 1000)
        writer.send_signal(signal.SIGKILL)
        output, _ = writer.communicate(timeout=30)
        assert writer.returncode == -signal.SIGKILL
        committed_events |= {seq for seq, _ in said(output, "E")}
        committed_incidents |= {seq for seq, _ in said(output, "I")}
        with Store(tmp_path) as store:
            if store.unfinished() is None:  # killed while starting, before opening the match
                assert not committed_events
                continue
            journal = store.journal(1)
            _check_journal(journal)
            assert committed_events <= {e.seq for e in journal.events()}
            assert committed_incidents <= {i.seq for i in journal.incidents()}
            if published is not None:
                assert journal.verify(expected_head=published).ok
            published = journal.head
            checkpoint = journal.last_checkpoint()
            if said(output, "C"):  # the writer was heartbeating when killed
                assert checkpoint is not None
                alive = max(checkpoint.t_ms, journal.events()[-1].event["t_ms"])
                assert 0 <= killed_ms - alive <= UNACCOUNTED_LIMIT_MS
    assert len(committed_events) > ROUNDS  # the rounds did write


@pytest.fixture(scope="module")
def crashed_wal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A journal whose writer appended 12 events (one transaction each, 2 incidents between) and
    died without closing it: every transaction is still in the WAL, the last one at its end."""
    directory = tmp_path_factory.mktemp("crashed")
    writer = _start_writer(directory, seed=7, limit=12)
    output, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0
    assert said(output, "E")[-1] == [12, 12]
    assert (directory / (JOURNAL_FILENAME + "-wal")).stat().st_size > 0
    return directory, 12


def _copy_without_shm(source: Path, target: Path) -> Path:
    target.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(source / (JOURNAL_FILENAME + suffix), target / (JOURNAL_FILENAME + suffix))
    return target / (JOURNAL_FILENAME + "-wal")


def test_an_intact_wal_after_a_crash_has_every_transaction(
    crashed_wal: tuple[Path, int], tmp_path: Path
) -> None:
    source, count = crashed_wal
    _copy_without_shm(source, tmp_path / "copy")
    with Store(tmp_path / "copy") as store:
        journal = store.journal(1)
        _check_journal(journal)
        assert journal.event_count == count
        assert len(journal.incidents()) == count // INCIDENT_EVERY


@pytest.mark.parametrize("damage", ["truncate", "scribble"])
def test_a_torn_last_write_loses_only_the_last_transaction(
    crashed_wal: tuple[Path, int], tmp_path: Path, damage: str
) -> None:
    source, count = crashed_wal
    wal = _copy_without_shm(source, tmp_path / "copy")
    data = wal.read_bytes()
    if damage == "truncate":  # the power failed while the last frame was being written
        wal.write_bytes(data[:-1])
    else:  # the last sector holds garbage
        wal.write_bytes(data[:-64] + bytes(random.Random(1).randbytes(64)))
    with Store(tmp_path / "copy") as store:
        journal = store.journal(1)
        _check_journal(journal)
        assert journal.event_count == count - 1
        assert len(journal.incidents()) == count // INCIDENT_EVERY
