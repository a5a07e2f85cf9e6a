"""The dashboard's wiring: the room, its MQTT link, the outbox of rulings and settings, and the
fan-out of changes to the browsers (server-sent events).

Rulings and settings go out through a persistent outbox like the kiosks' messages, so a ruling
made while the broker is unreachable is delivered when it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from kiosk.dashboard.auth import Sessions
from kiosk.dashboard.room import DirectorRoom
from kiosk.venue.link import BrokerConfig, MqttLink
from kiosk.venue.outbox import Outbox
from kiosk.venue.schema import EventSettings, Ruling, encode
from kiosk.venue.topics import event_tables_filter, settings_topic, table_topic

TABLE_FLUSH_S: Final = 0.25
"""Table updates are sent to browsers at most this often (the latest per table)."""
_CLIENT_QUEUE: Final = 2000


class Broadcaster:
    """Fans changes out to every connected browser; thread-safe :meth:`publish`."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queues: set[asyncio.Queue[str | None]] = set()
        self._pending_tables: dict[str, dict[str, Any]] = {}
        self._flush_scheduled = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind to the event loop that serves the browsers."""
        self._loop = loop

    def publish(self, kind: str, data: dict[str, Any]) -> None:
        """Queue a change for every browser (callable from any thread)."""
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):  # loop closing during shutdown
                self._loop.call_soon_threadsafe(self._fan_out, kind, data)

    def _fan_out(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "table":
            self._pending_tables[str(data["table"])] = data
            if not self._flush_scheduled and self._loop is not None:
                self._flush_scheduled = True
                self._loop.call_later(TABLE_FLUSH_S, self._flush_tables)
            return
        self._send(f"event: {kind}\ndata: {json.dumps(data)}\n\n")

    def _flush_tables(self) -> None:
        self._flush_scheduled = False
        tables, self._pending_tables = list(self._pending_tables.values()), {}
        if tables:
            self._send(f"event: tables\ndata: {json.dumps(tables)}\n\n")

    def _send(self, frame: str) -> None:
        for client in list(self._queues):
            try:
                client.put_nowait(frame)
            except asyncio.QueueFull:  # a browser that stopped reading: end its stream
                self._queues.discard(client)
                while not client.empty():
                    client.get_nowait()
                client.put_nowait(None)

    async def stream(
        self, first: dict[str, dict[str, Any]], keepalive_s: float = 15.0
    ) -> AsyncIterator[str]:
        """Server-sent event frames for one browser, starting with the events in ``first``
        (kind -> data), until it disconnects or shutdown."""
        client: asyncio.Queue[str | None] = asyncio.Queue(maxsize=_CLIENT_QUEUE)
        self._queues.add(client)
        try:
            yield "retry: 2000\n\n"
            for kind, data in first.items():
                yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"
            while True:
                try:
                    frame = await asyncio.wait_for(client.get(), timeout=keepalive_s)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                if frame is None:
                    return
                yield frame
        finally:
            self._queues.discard(client)

    def close(self) -> None:
        """End every stream (shutdown)."""
        for client in list(self._queues):
            with contextlib.suppress(asyncio.QueueFull):
                client.put_nowait(None)
        self._queues.clear()


@dataclass(frozen=True, slots=True)
class DashboardConfig:
    """How a dashboard runs: the event, the director password hash, files and the broker."""

    event: str
    password_hash: str
    state_dir: Path
    broker: BrokerConfig | None
    secure_cookie: bool = False


class DashboardService:
    """Everything behind the web app; :meth:`start` connects to the broker."""

    def __init__(self, config: DashboardConfig, now_ms: Callable[[], int]) -> None:
        self.config = config
        self.now_ms = now_ms
        config.state_dir.mkdir(parents=True, exist_ok=True)
        self.broadcaster = Broadcaster()
        self.sessions = Sessions(now_ms)
        self.room = DirectorRoom(
            config.state_dir / "room.db", config.event, now_ms, self.broadcaster.publish
        )
        self.outbox = Outbox(config.state_dir / "outbox.db")
        self.link = (
            None
            if config.broker is None
            else MqttLink(
                config.broker,
                self.outbox,
                now_ms,
                subscriptions=(event_tables_filter(config.event),),
                on_message=self.room.ingest,
                on_connected=lambda: self.broadcaster.publish("link", {"connected": True}),
                on_disconnected=lambda: self.broadcaster.publish("link", {"connected": False}),
            )
        )

    def start(self) -> None:
        """Connect to the broker (in the background, retrying)."""
        if self.link is not None:
            self.link.start()

    @property
    def broker_connected(self) -> bool:
        """True while the dashboard is connected to the broker."""
        return self.link is not None and self.link.connected

    def stop(self) -> None:
        """Disconnect and end the browsers' streams."""
        if self.link is not None:
            self.link.stop()
        self.broadcaster.close()

    def _send(self, topic: str, payload: bytes, msg_id: str, *, retain: bool) -> None:
        self.outbox.enqueue(topic, payload, msg_id, self.now_ms(), retain=retain, coalesce=retain)
        if self.link is not None:
            self.link.wake()

    def send_ruling(
        self, table_id: str, incident_id: str, decision: str, note: str, director: str
    ) -> dict[str, Any]:
        """Validate, record and send a ruling; return the incident's new view.

        Raises pydantic's ``ValidationError`` for a bad decision or note, and
        :class:`~kiosk.dashboard.room.UnknownIncidentError` for an unknown incident.
        """
        ruling = Ruling.model_validate(
            {
                "id": uuid.uuid4().hex,
                "event": self.config.event,
                "table": table_id,
                "sent_ms": self.now_ms(),
                "kind": "ruling",
                "incident_id": incident_id,
                "decision": decision,
                "note": note,
                "director": director,
            }
        )
        summary = self.room.record_ruling(ruling)
        topic = table_topic(self.config.event, table_id, "ruling")
        self._send(topic, encode(ruling), ruling.id, retain=False)
        return summary

    def send_settings(self, fields: dict[str, Any]) -> EventSettings:
        """Validate, record and send (retained) the event's settings as the next revision."""
        current = self.room.settings()
        settings = EventSettings.model_validate(
            {
                **fields,
                "id": uuid.uuid4().hex,
                "event": self.config.event,
                "sent_ms": self.now_ms(),
                "kind": "settings",
                "revision": 1 if current is None else current.revision + 1,
            }
        )
        self.room.record_settings(settings)
        self._send(settings_topic(self.config.event), encode(settings), settings.id, retain=True)
        return settings
