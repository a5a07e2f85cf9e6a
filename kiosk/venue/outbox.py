"""A persistent outbox: messages wait in SQLite (WAL) until the broker acknowledged them.

A message is enqueued in the same moment it is produced, survives network loss, a crash or a
power cut, and is sent again after a restart until its PUBACK (MQTT QoS 1) marks it delivered.
QoS 1 may deliver twice; every message carries a unique id, and receivers drop ids they have
already applied, so each is applied once. Delivery is in enqueue order.

A *coalescing* message (a table's status) replaces any undelivered message on the same topic:
after an hour offline a table sends its latest status, not 3600 old ones. Thread-safe: the kiosk
enqueues from its own thread while the MQTT network thread marks deliveries.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id TEXT NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL,
    coalesce_key TEXT,
    enqueued_ms INTEGER NOT NULL,
    delivered_ms INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (seq) WHERE delivered_ms IS NULL;
CREATE TABLE IF NOT EXISTS received (
    msg_id TEXT PRIMARY KEY,
    received_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS kv (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One queued message; ``seq`` orders delivery."""

    seq: int
    msg_id: str
    topic: str
    payload: bytes
    retain: bool


class Outbox:
    """The SQLite outbox at ``path`` (created if missing). Times are ms, given by the caller."""

    def __init__(self, path: Path | str) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a crash of the process; a power cut may lose the
        # last transactions but never corrupts the file.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def enqueue(
        self,
        topic: str,
        payload: bytes,
        msg_id: str,
        now_ms: int,
        *,
        retain: bool = False,
        coalesce: bool = False,
    ) -> bool:
        """Queue a message; False if ``msg_id`` was queued before (the call is idempotent).

        With ``coalesce`` the undelivered messages on ``topic`` that were also coalescing are
        dropped (counted as done): only the latest state matters.
        """
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            seen = self._db.execute("SELECT 1 FROM outbox WHERE msg_id = ?", (msg_id,)).fetchone()
            if seen is not None:
                return False
            if coalesce:  # superseded: done without sending (the id stays known until purged)
                self._db.execute(
                    "UPDATE outbox SET delivered_ms = ? WHERE coalesce_key = ?"
                    " AND delivered_ms IS NULL",
                    (now_ms, topic),
                )
            self._db.execute(
                "INSERT INTO outbox"
                " (msg_id, topic, payload, retain, coalesce_key, enqueued_ms)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (msg_id, topic, payload, int(retain), topic if coalesce else None, now_ms),
            )
            return True

    def pending(self, limit: int, after_seq: int = 0) -> list[OutboxItem]:
        """Up to ``limit`` undelivered messages with ``seq > after_seq``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, msg_id, topic, payload, retain FROM outbox"
                " WHERE delivered_ms IS NULL AND seq > ? ORDER BY seq LIMIT ?",
                (after_seq, limit),
            ).fetchall()
        return [
            OutboxItem(seq, msg_id, topic, bytes(payload), bool(retain))
            for seq, msg_id, topic, payload, retain in rows
        ]

    def pending_count(self) -> int:
        """How many messages wait for delivery."""
        with self._lock:
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM outbox WHERE delivered_ms IS NULL"
            ).fetchone()
        return int(count)

    def mark_delivered(self, seq: int, now_ms: int) -> None:
        """Record the broker's acknowledgement of message ``seq``."""
        with self._lock, self._db:
            self._db.execute(
                "UPDATE outbox SET delivered_ms = ? WHERE seq = ? AND delivered_ms IS NULL",
                (now_ms, seq),
            )

    def purge_delivered(self, before_ms: int) -> int:
        """Delete messages delivered before ``before_ms``; return how many."""
        with self._lock, self._db:
            cursor = self._db.execute(
                "DELETE FROM outbox WHERE delivered_ms IS NOT NULL AND delivered_ms < ?",
                (before_ms,),
            )
        return cursor.rowcount

    def has_received(self, msg_id: str) -> bool:
        """True if an incoming message with this id was recorded as applied."""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM received WHERE msg_id = ?", (msg_id,)).fetchone()
        return row is not None

    def record_receipt(self, msg_id: str, now_ms: int) -> bool:
        """Record an incoming message id as applied; False if it was recorded before."""
        with self._lock, self._db:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO received (msg_id, received_ms) VALUES (?, ?)",
                (msg_id, now_ms),
            )
        return cursor.rowcount == 1

    def get_value(self, key: str) -> bytes | None:
        """A small persisted value (e.g. the latest event settings), or None."""
        with self._lock:
            row = self._db.execute("SELECT value FROM kv WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def set_value(self, key: str, value: bytes) -> None:
        """Persist a small value under ``key``."""
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", (key, value))
