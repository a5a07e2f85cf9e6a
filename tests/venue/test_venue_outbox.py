"""The persistent outbox: idempotent, ordered, coalescing status, and durable across reopen."""

from __future__ import annotations

from pathlib import Path

from kiosk.venue.outbox import Outbox


def test_messages_wait_in_order_until_delivered_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "outbox.db"
    outbox = Outbox(path)
    for number in range(5):
        assert outbox.enqueue("t/incident", b"%d" % number, f"id-{number}", now_ms=number)
    first = outbox.pending(2)
    assert [item.msg_id for item in first] == ["id-0", "id-1"]
    outbox.mark_delivered(first[0].seq, now_ms=10)
    outbox.close()

    reopened = Outbox(path)  # a reboot
    assert [item.payload for item in reopened.pending(10)] == [b"1", b"2", b"3", b"4"]
    assert [i.msg_id for i in reopened.pending(10, after_seq=first[1].seq)] == [
        "id-2",
        "id-3",
        "id-4",
    ]
    assert reopened.pending_count() == 4


def test_enqueue_is_idempotent_by_message_id(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.db")
    assert outbox.enqueue("t/incident", b"a", "same-id", now_ms=1)
    assert not outbox.enqueue("t/incident", b"b", "same-id", now_ms=2)
    assert [item.payload for item in outbox.pending(10)] == [b"a"]


def test_status_coalesces_to_the_latest_undelivered(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.db")
    outbox.enqueue("t/incident", b"i", "inc", now_ms=1)
    for number in range(100):
        outbox.enqueue("t/status", b"%d" % number, f"s-{number}", 2, retain=True, coalesce=True)
    items = outbox.pending(10)
    assert [(item.topic, item.payload, item.retain) for item in items] == [
        ("t/incident", b"i", False),
        ("t/status", b"99", True),
    ]


def test_purge_removes_only_old_delivered_messages(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.db")
    outbox.enqueue("a", b"1", "m-1", now_ms=1)
    outbox.enqueue("a", b"2", "m-2", now_ms=1)
    outbox.mark_delivered(outbox.pending(1)[0].seq, now_ms=100)
    assert outbox.purge_delivered(before_ms=50) == 0
    assert outbox.purge_delivered(before_ms=101) == 1
    assert [item.msg_id for item in outbox.pending(10)] == ["m-2"]


def test_receipts_and_values_persist(tmp_path: Path) -> None:
    path = tmp_path / "o.db"
    outbox = Outbox(path)
    assert not outbox.has_received("r-1")
    assert outbox.record_receipt("r-1", now_ms=1)
    assert not outbox.record_receipt("r-1", now_ms=2)
    outbox.set_value("settings", b"{}")
    outbox.close()
    reopened = Outbox(path)
    assert reopened.has_received("r-1")
    assert reopened.get_value("settings") == b"{}"
    assert reopened.get_value("missing") is None
