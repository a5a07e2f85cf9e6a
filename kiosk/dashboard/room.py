"""What the director sees: every table of the event, the incident queue, rulings and results.

:meth:`DirectorRoom.ingest` takes each MQTT message as received: it is validated
(:func:`kiosk.venue.schema.decode`); a malformed or forged one is logged, counted and dropped.
Incidents, results and ruling acknowledgements are kept in SQLite (WAL) and applied once
(keyed by table and incident id, or message id), so a message delivered twice, or replayed by
the broker after a restart, changes nothing. Table status and presence are the latest values
(retained on the broker, so they come back after a restart of the dashboard). Every change is
passed to ``notify(kind, data)`` as a JSON-ready dict. The time source is injected (ms).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from kiosk.venue.schema import (
    EventSettings,
    Incident,
    MatchResult,
    MessageError,
    Presence,
    Ruling,
    RulingAck,
    TableStatus,
    decode,
)

log = logging.getLogger(__name__)

Notify = Callable[[str, dict[str, Any]], None]

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS incidents (
    table_id TEXT NOT NULL,
    incident_id TEXT NOT NULL,
    message TEXT NOT NULL,
    received_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, incident_id)
);
CREATE TABLE IF NOT EXISTS rulings (
    ruling_id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    incident_id TEXT NOT NULL,
    message TEXT NOT NULL,
    acked_ms INTEGER
);
CREATE INDEX IF NOT EXISTS rulings_incident ON rulings (table_id, incident_id);
CREATE TABLE IF NOT EXISTS results (
    msg_id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    message TEXT NOT NULL,
    received_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    revision INTEGER PRIMARY KEY,
    message TEXT NOT NULL
);
"""


@dataclass(slots=True)
class _Table:
    """The latest status (``received_ms``: when it arrived here) and presence of a table."""

    status: TableStatus | None = None
    online: bool | None = None
    received_ms: int = 0


class UnknownIncidentError(KeyError):
    """No incident with that table and id."""


class DirectorRoom:
    """The dashboard's state for one event, persisted at ``db_path``."""

    def __init__(
        self, db_path: Path | str, event: str, now_ms: Callable[[], int], notify: Notify
    ) -> None:
        self.event = event
        self._now_ms = now_ms
        self._notify = notify
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(db_path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._tables: dict[str, _Table] = {}
        self.rejected = 0
        """How many received messages were rejected as malformed or forged."""

    # -- ingest (MQTT thread) -------------------------------------------------------------

    def ingest(self, topic: str, payload: bytes) -> None:
        """Apply one received MQTT message, or log and count why it was rejected."""
        try:
            message = decode(topic, payload)
            if message.event != self.event:
                raise MessageError(f"event {message.event!r} is not this dashboard's")
        except MessageError as error:
            self.rejected += 1
            log.warning("rejected message on %s: %s", topic, error)
            return
        if isinstance(message, TableStatus):
            self._apply_status(message)
        elif isinstance(message, Presence):
            self._apply_presence(message)
        elif isinstance(message, Incident):
            self._apply_incident(message)
        elif isinstance(message, RulingAck):
            self._apply_ack(message)
        elif isinstance(message, MatchResult):
            self._apply_result(message)
        # Rulings and settings are this dashboard's own messages coming back: nothing to do.

    def _table(self, table_id: str) -> _Table:
        return self._tables.setdefault(table_id, _Table())

    def _apply_status(self, status: TableStatus) -> None:
        with self._lock:
            table = self._table(status.table)
            if table.status is not None and status.sent_ms < table.status.sent_ms:
                return  # an older status delivered late
            table.status = status
            table.received_ms = self._now_ms()
            view = self._table_view(status.table, table)
        self._notify("table", view)

    def _apply_presence(self, presence: Presence) -> None:
        with self._lock:
            table = self._table(presence.table)
            table.online = presence.online
            view = self._table_view(presence.table, table)
        self._notify("table", view)

    def _apply_incident(self, incident: Incident) -> None:
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO incidents (table_id, incident_id, message, received_ms)"
                " VALUES (?, ?, ?, ?)",
                (incident.table, incident.incident_id, incident.model_dump_json(), self._now_ms()),
            )
            if cursor.rowcount != 1:
                return  # delivered before
            summary = self._incident_summary(incident, self._now_ms(), None)
            view = self._table_view(incident.table, self._table(incident.table))
        self._notify("incident", summary)
        self._notify("table", view)

    def _apply_ack(self, ack: RulingAck) -> None:
        with self._lock:
            cursor = self._db.execute(
                "UPDATE rulings SET acked_ms = ? WHERE ruling_id = ? AND table_id = ?"
                " AND acked_ms IS NULL",
                (self._now_ms(), ack.ruling_id, ack.table),
            )
            if cursor.rowcount != 1:
                return
            summary = self._incident_by_id(ack.table, ack.incident_id)
        self._notify("incident", summary)

    def _apply_result(self, result: MatchResult) -> None:
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO results (msg_id, table_id, message, received_ms)"
                " VALUES (?, ?, ?, ?)",
                (result.id, result.table, result.model_dump_json(), self._now_ms()),
            )
            if cursor.rowcount != 1:
                return
        self._notify("result", self._result_summary(result, self._now_ms()))

    # -- views (any thread) ---------------------------------------------------------------

    def _open_incidents(self, table_id: str) -> int:
        (count,) = self._db.execute(
            "SELECT COUNT(*) FROM incidents i WHERE i.table_id = ? AND NOT EXISTS"
            " (SELECT 1 FROM rulings r WHERE r.table_id = i.table_id"
            " AND r.incident_id = i.incident_id)",
            (table_id,),
        ).fetchone()
        return int(count)

    def _table_view(self, table_id: str, table: _Table) -> dict[str, Any]:
        return {
            "table": table_id,
            "online": table.online,
            "received_ms": table.received_ms,
            "open_incidents": self._open_incidents(table_id),
            "status": None if table.status is None else table.status.model_dump(mode="json"),
        }

    def tables(self) -> list[dict[str, Any]]:
        """Every table heard from, by table id."""
        with self._lock:
            return [self._table_view(tid, self._tables[tid]) for tid in sorted(self._tables)]

    @staticmethod
    def _incident_summary(
        incident: Incident, received_ms: int, ruling: tuple[str, int | None] | None
    ) -> dict[str, Any]:
        data = incident.model_dump(mode="json", exclude={"snapshot_jpeg"})
        data["has_snapshot"] = incident.snapshot_jpeg is not None
        data["received_ms"] = received_ms
        if ruling is None:
            data["ruling"] = None
        else:
            message, acked_ms = ruling
            data["ruling"] = {**json.loads(message), "acked_ms": acked_ms}
        return data

    def _incident_row(self, table_id: str, incident_id: str) -> tuple[Incident, int]:
        row = self._db.execute(
            "SELECT message, received_ms FROM incidents WHERE table_id = ? AND incident_id = ?",
            (table_id, incident_id),
        ).fetchone()
        if row is None:
            raise UnknownIncidentError(f"no incident {incident_id!r} at table {table_id!r}")
        return Incident.model_validate_json(row[0]), int(row[1])

    def _ruling_row(self, table_id: str, incident_id: str) -> tuple[str, int | None] | None:
        row = self._db.execute(
            "SELECT message, acked_ms FROM rulings WHERE table_id = ? AND incident_id = ?"
            " ORDER BY rowid DESC LIMIT 1",
            (table_id, incident_id),
        ).fetchone()
        return None if row is None else (str(row[0]), row[1])

    def _incident_by_id(self, table_id: str, incident_id: str) -> dict[str, Any]:
        incident, received_ms = self._incident_row(table_id, incident_id)
        return self._incident_summary(
            incident, received_ms, self._ruling_row(table_id, incident_id)
        )

    def incidents(self) -> list[dict[str, Any]]:
        """All incidents, oldest first, without snapshots, each with its latest ruling."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id, incident_id FROM incidents ORDER BY received_ms, rowid"
            ).fetchall()
            return [self._incident_by_id(table_id, incident_id) for table_id, incident_id in rows]

    def incident(self, table_id: str, incident_id: str) -> Incident:
        """One incident in full (with its snapshot); :class:`UnknownIncidentError` if none."""
        with self._lock:
            return self._incident_row(table_id, incident_id)[0]

    def record_ruling(self, ruling: Ruling) -> dict[str, Any]:
        """Store a ruling the director made (the caller sends it); return the incident view."""
        with self._lock:
            self._incident_row(ruling.table, ruling.incident_id)
            self._db.execute(
                "INSERT INTO rulings (ruling_id, table_id, incident_id, message)"
                " VALUES (?, ?, ?, ?)",
                (ruling.id, ruling.table, ruling.incident_id, ruling.model_dump_json()),
            )
            summary = self._incident_by_id(ruling.table, ruling.incident_id)
            view = self._table_view(ruling.table, self._table(ruling.table))
        self._notify("incident", summary)
        self._notify("table", view)
        return summary

    @staticmethod
    def _result_summary(result: MatchResult, received_ms: int) -> dict[str, Any]:
        data = result.model_dump(mode="json", exclude={"mat"})
        data["received_ms"] = received_ms
        return data

    def results(self) -> list[dict[str, Any]]:
        """Finished matches, oldest first, without their .mat text."""
        with self._lock:
            rows = self._db.execute(
                "SELECT message, received_ms FROM results ORDER BY received_ms, rowid"
            ).fetchall()
        return [self._result_summary(MatchResult.model_validate_json(m), int(r)) for m, r in rows]

    def result(self, msg_id: str) -> MatchResult | None:
        """One result in full (with the .mat text), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT message FROM results WHERE msg_id = ?", (msg_id,)
            ).fetchone()
        return None if row is None else MatchResult.model_validate_json(row[0])

    def settings(self) -> EventSettings | None:
        """The latest settings the director sent, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT message FROM settings ORDER BY revision DESC LIMIT 1"
            ).fetchone()
        return None if row is None else EventSettings.model_validate_json(row[0])

    def record_settings(self, settings: EventSettings) -> None:
        """Store new settings (the caller sends them)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO settings (revision, message) VALUES (?, ?)",
                (settings.revision, settings.model_dump_json()),
            )
