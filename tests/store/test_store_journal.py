"""The journal: appending and reading events, incidents, snapshots, checkpoints and matches."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest

from kiosk.store import (
    EntryError,
    Store,
    StoreError,
    UnknownMatchError,
    decode_snapshot,
    encode_snapshot,
)

HEADER = {"ruleset": "mso", "length": 7, "players": ["Ann", "Bo"]}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path, synchronous="NORMAL")


def test_events_come_back_in_order_with_their_seq(store: Store) -> None:
    journal = store.new_match(HEADER, created_ms=1_000)
    events = [{"kind": "press", "t_ms": 10 * i, "side": i % 2, "note": "é"} for i in range(5)]
    seqs = [journal.append_event(event) for event in events]
    assert seqs == [1, 2, 3, 4, 5]
    assert [item.event for item in journal.events()] == events
    assert [list(item.event) for item in journal.events()] == [list(e) for e in events]  # order
    assert [item.seq for item in journal.events(after_seq=3)] == [4, 5]
    assert journal.event_count == 5


def test_tuples_are_stored_as_json_arrays(store: Store) -> None:
    journal = store.new_match(HEADER)
    journal.append_event({"kind": "dice", "t_ms": 1, "dice": (6, 5)})
    assert journal.events()[0].event["dice"] == [6, 5]


def test_append_events_is_one_transaction(store: Store) -> None:
    journal = store.new_match(HEADER)
    good = {"kind": "tick", "t_ms": 1}
    with pytest.raises(EntryError, match="t_ms"):
        journal.append_events([good, {"kind": "tick", "t_ms": 1.5}])
    assert journal.events() == []
    assert journal.append_events([good, good]) == [1, 2]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ([1, 2], "expected a dict"),
        ({"t_ms": 1}, "'kind' must be a non-empty string"),
        ({"kind": "", "t_ms": 1}, "'kind' must be a non-empty string"),
        ({"kind": "press"}, "'t_ms' must be an integer"),
        ({"kind": "press", "t_ms": True}, "'t_ms' must be an integer"),
        ({"kind": "press", "t_ms": 1, "x": float("nan")}, r"event 'press'\.x is nan"),
        ({"kind": "press", "t_ms": 1, "x": {2: 1}}, r"event 'press'\.x has a non-string key 2"),
        ({"kind": "press", "t_ms": 1, "x": [1, {1, 2}]}, r"event 'press'\.x\[1\] is a set"),
    ],
)
def test_bad_events_are_refused_with_a_message_naming_the_problem(
    store: Store, entry: object, message: str
) -> None:
    journal = store.new_match(HEADER)
    with pytest.raises(EntryError, match=message):
        journal.append_event(entry)  # type: ignore[arg-type]
    assert journal.event_count == 0


def test_incidents_record_their_place_among_events_and_their_snapshot(store: Store) -> None:
    journal = store.new_match(HEADER)
    journal.append_event({"kind": "press", "t_ms": 5, "side": 0})
    image = np.zeros((90, 160, 3), np.uint8)
    image[20:70, 40:120] = (0, 0, 255)  # a red block: BGR order must survive
    jpeg = encode_snapshot(image)
    first = journal.append_incident({"kind": "illegal_move", "t_ms": 6, "play": "8/5 6/5"}, jpeg)
    second = journal.append_incident({"kind": "press_out_of_turn", "t_ms": 7})
    assert (first.seq, first.event_seq, second.seq, second.snapshot_id) == (1, 1, 2, None)
    assert first.snapshot_id is not None
    assert journal.snapshot(first.snapshot_id) == jpeg
    decoded = decode_snapshot(journal.snapshot(first.snapshot_id))
    assert decoded.shape == image.shape
    assert np.abs(decoded.astype(int) - image.astype(int)).mean() < 3
    blue, _, red = decoded[45, 80]
    assert red > 200 > 50 > blue
    assert [item.incident["kind"] for item in journal.incidents()] == [
        "illegal_move",
        "press_out_of_turn",
    ]
    assert journal.head == (2, second.hash)


def test_snapshot_must_be_jpeg_and_images_must_be_uint8_bgr(store: Store) -> None:
    journal = store.new_match(HEADER)
    with pytest.raises(EntryError, match="not JPEG"):
        journal.append_incident({"kind": "x", "t_ms": 1}, b"\x89PNG....")
    with pytest.raises(EntryError, match="uint8"):
        encode_snapshot(np.zeros((4, 4, 3), np.float32))
    with pytest.raises(EntryError, match="shape"):
        encode_snapshot(np.zeros((4, 4, 4), np.uint8))
    with pytest.raises(EntryError, match="not a readable JPEG"):
        decode_snapshot(b"\xff\xd8\xff garbage")
    with pytest.raises(UnknownMatchError, match="no snapshot 99"):
        journal.snapshot(99)


def test_grey_snapshots_encode(store: Store) -> None:
    assert encode_snapshot(np.full((8, 8), 128, np.uint8)).startswith(b"\xff\xd8\xff")


def test_checkpoint_keeps_the_latest_time(store: Store) -> None:
    journal = store.new_match(HEADER)
    assert journal.last_checkpoint() is None
    journal.append_event({"kind": "press", "t_ms": 100, "side": 0})
    journal.checkpoint(600)
    journal.checkpoint(400)  # late heartbeat from another thread: ignored
    checkpoint = journal.last_checkpoint()
    assert checkpoint is not None
    assert (checkpoint.t_ms, checkpoint.event_seq) == (600, 1)
    with pytest.raises(EntryError, match="checkpoint"):
        journal.checkpoint(1.5)  # type: ignore[arg-type]


def test_matches_are_separate_journals_and_survive_reopening(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        first = store.new_match(HEADER, created_ms=1)
        second = store.new_match({**HEADER, "length": 5}, created_ms=2)
        first.append_event({"kind": "tick", "t_ms": 1})
        second.append_event({"kind": "tick", "t_ms": 2})
        second.append_event({"kind": "tick", "t_ms": 3})
        first.finish(10)
    with Store(tmp_path) as store:
        assert [(m.id, m.header["length"], m.finished_ms) for m in store.matches()] == [
            (1, 7, 10),
            (2, 5, None),
        ]
        unfinished = store.unfinished()
        assert unfinished is not None
        assert unfinished.id == 2
        journal = store.journal(2)
        assert store.journal(2) is journal
        assert journal.event_count == 2
        assert journal.append_event({"kind": "tick", "t_ms": 4}) == 3
        assert len(store.journal(1).events()) == 1
        with pytest.raises(UnknownMatchError, match="no match 3"):
            store.journal(3)


def test_rows_cannot_be_updated_or_deleted(tmp_path: Path, store: Store) -> None:
    journal = store.new_match(HEADER)
    journal.append_event({"kind": "tick", "t_ms": 1})
    journal.append_incident({"kind": "x", "t_ms": 1}, encode_snapshot(np.zeros((4, 4), np.uint8)))
    raw = sqlite3.connect(store.path)
    for sql in (
        "UPDATE events SET t_ms = 2",
        "DELETE FROM events",
        "UPDATE incidents SET kind = 'y'",
        "DELETE FROM incidents",
        "UPDATE snapshots SET jpeg = x'00'",
        "DELETE FROM snapshots",
        "UPDATE matches SET header = '{}'",
        "DELETE FROM matches",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(sql)
    raw.close()
    journal.finish(5)
    with pytest.raises(StoreError, match="already finished"):
        journal.finish(6)


def test_concurrent_appends_from_threads_keep_a_gapless_sequence(store: Store) -> None:
    journal = store.new_match(HEADER)

    def append(side: int) -> None:
        for i in range(50):
            journal.append_event({"kind": "press", "t_ms": i, "side": side})
            if i % 10 == 0:
                journal.checkpoint(i)

    threads = [threading.Thread(target=append, args=(side,)) for side in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [item.seq for item in journal.events()] == list(range(1, 101))


def test_a_second_writer_on_the_same_match_is_refused(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as first, Store(tmp_path) as second:
        journal = first.new_match(HEADER)
        other = second.journal(journal.match_id)
        journal.append_event({"kind": "tick", "t_ms": 1})
        with pytest.raises(StoreError, match="refused the write"):
            other.append_event({"kind": "tick", "t_ms": 2})


def test_heartbeat_checkpoints_once_per_interval(store: Store) -> None:
    journal = store.new_match(HEADER)
    written = [t for t in range(0, 2_001, 100) if journal.heartbeat(t)]
    assert written == [0, 500, 1_000, 1_500, 2_000]
    checkpoint = journal.last_checkpoint()
    assert checkpoint is not None
    assert checkpoint.t_ms == 2_000
