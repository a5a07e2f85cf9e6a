"""The kiosk's side of the venue: publish the table, receive rulings and event settings.

Everything the kiosk publishes goes through its persistent outbox (QoS 1): status (retained,
coalesced to the latest), incidents, results and acknowledgements of rulings. It subscribes to
the rulings addressed to its own table and to the event's settings; each received message is
validated (:func:`kiosk.venue.schema.decode`), a malformed or forged one is logged and dropped, a
repeated one (same message id, or settings not newer than those applied) is ignored. A ruling is
acknowledged to the director once the handler returned. The time source is injected.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.venue.link import BrokerConfig, MqttLink, NowMs, Will
from kiosk.venue.outbox import Outbox
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
    encode,
)
from kiosk.venue.topics import settings_topic, table_topic

log = logging.getLogger(__name__)

_SETTINGS_KEY = "settings"


def new_message_id() -> str:
    """A fresh unique message id (UUID4, hex)."""
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class TableIdentity:
    """Which event and table this kiosk is."""

    event: str
    table_id: str


class KioskPublisher:
    """Connects one table to the venue broker; call :meth:`start`, then the ``publish_*``."""

    def __init__(
        self,
        identity: TableIdentity,
        broker: BrokerConfig,
        outbox: Outbox,
        now_ms: NowMs,
        *,
        on_ruling: Callable[[Ruling], None],
        on_settings: Callable[[EventSettings], None],
    ) -> None:
        self.identity = identity
        self._outbox = outbox
        self._now_ms = now_ms
        self._on_ruling = on_ruling
        self._on_settings = on_settings
        self._link = MqttLink(
            broker,
            outbox,
            now_ms,
            subscriptions=(self._topic("ruling"), settings_topic(identity.event)),
            on_message=self._receive,
            on_connected=self._announce_online,
            will=Will(self._topic("presence"), encode(self._presence(online=False))),
        )

    def _topic(self, kind: Any) -> str:
        return table_topic(self.identity.event, self.identity.table_id, kind)

    def _envelope(self) -> dict[str, Any]:
        return {
            "id": new_message_id(),
            "event": self.identity.event,
            "table": self.identity.table_id,
            "sent_ms": self._now_ms(),
        }

    @property
    def link(self) -> MqttLink:
        """The MQTT connection (for connection state and tests)."""
        return self._link

    def start(self) -> None:
        """Connect (in the background, retrying) and start delivering the outbox."""
        self._link.start()

    def stop(self) -> None:
        """Mark the table offline and disconnect; undelivered messages stay in the outbox for
        the next start. (A clean disconnection does not trigger the Last Will.)"""
        if self._link.connected:
            self._link.publish_now(
                self._topic("presence"),
                encode(self._presence(online=False)),
                retain=True,
                wait_s=2.0,
            )
        self._link.stop()

    def pending_count(self) -> int:
        """Messages not yet acknowledged by the broker (e.g. while the venue network is down)."""
        return self._outbox.pending_count()

    def latest_settings(self) -> EventSettings | None:
        """The newest event settings received (persisted across restarts), if any."""
        raw = self._outbox.get_value(_SETTINGS_KEY)
        return None if raw is None else EventSettings.model_validate_json(raw)

    # -- outgoing ------------------------------------------------------------------------

    def _enqueue(self, topic: str, payload: bytes, msg_id: str, *, status: bool = False) -> None:
        self._outbox.enqueue(topic, payload, msg_id, self._now_ms(), retain=status, coalesce=status)
        self._link.wake()

    def publish_status(self, **fields: Any) -> TableStatus:
        """Queue the table's status (fields of :class:`TableStatus` without the envelope)."""
        message = TableStatus.model_validate({**self._envelope(), **fields, "kind": "status"})
        self._enqueue(self._topic("status"), encode(message), message.id, status=True)
        return message

    def publish_incident(self, **fields: Any) -> Incident:
        """Queue an incident (fields of :class:`Incident` without the envelope)."""
        message = Incident.model_validate({**self._envelope(), **fields, "kind": "incident"})
        self._enqueue(self._topic("incident"), encode(message), message.id)
        return message

    def publish_result(self, **fields: Any) -> MatchResult:
        """Queue the result of the finished match with its ``.mat`` record."""
        message = MatchResult.model_validate({**self._envelope(), **fields, "kind": "result"})
        self._enqueue(self._topic("result"), encode(message), message.id)
        return message

    def _presence(self, *, online: bool) -> Presence:
        return Presence.model_validate({**self._envelope(), "kind": "presence", "online": online})

    def _announce_online(self) -> None:
        self._link.publish_now(
            self._topic("presence"), encode(self._presence(online=True)), retain=True
        )

    # -- incoming (paho's network thread) ------------------------------------------------

    def _receive(self, topic: str, payload: bytes) -> None:
        try:
            message = decode(topic, payload)
        except MessageError as error:
            log.warning("rejected message on %s: %s", topic, error)
            return
        if isinstance(message, Ruling):
            self._apply_ruling(message)
        elif isinstance(message, EventSettings):
            self._apply_settings(message, payload)
        else:
            log.warning("rejected message on %s: a %s is not for a kiosk", topic, message.kind)

    def _apply_ruling(self, ruling: Ruling) -> None:
        if self._outbox.has_received(ruling.id):
            return
        self._on_ruling(ruling)
        self._outbox.record_receipt(ruling.id, self._now_ms())
        ack = RulingAck.model_validate(
            {
                **self._envelope(),
                "kind": "ack",
                "ruling_id": ruling.id,
                "incident_id": ruling.incident_id,
            }
        )
        self._enqueue(self._topic("ack"), encode(ack), ack.id)

    def _apply_settings(self, settings: EventSettings, payload: bytes) -> None:
        current = self.latest_settings()
        if current is not None and settings.revision <= current.revision:
            return
        self._outbox.set_value(_SETTINGS_KEY, payload)
        self._on_settings(settings)
