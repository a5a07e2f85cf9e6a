"""An MQTT connection (paho-mqtt 2.x) that drains an :class:`~kiosk.venue.outbox.Outbox` in order.

Messages go out with QoS 1 only while connected, at most ``window`` unacknowledged at a time; a
PUBACK marks one delivered in the outbox. paho re-sends unacknowledged messages itself after a
reconnection; after a restart of the process, the outbox sends everything not yet acknowledged.
paho reconnects with exponential backoff (``reconnect_min_s`` doubling up to ``reconnect_max_s``).

Threads: paho's network thread only posts events to a queue; one sender thread owns the
message-id bookkeeping and all publishing, so acknowledgements never race with publication.
Received messages are handed to ``on_message(topic, payload)`` on paho's thread.
"""

from __future__ import annotations

import logging
import queue
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from kiosk.venue.outbox import Outbox

log = logging.getLogger(__name__)

NowMs = Callable[[], int]
"""The injected time source: ms since the Unix epoch."""

_DELIVERED_KEEP_MS: Final = 24 * 3600 * 1000


@dataclass(frozen=True, slots=True)
class TlsOptions:
    """TLS to the broker: the CA that signed its certificate, and an optional client cert."""

    ca_file: Path
    cert_file: Path | None = None
    key_file: Path | None = None


@dataclass(frozen=True, slots=True)
class BrokerConfig:
    """Where and as whom to connect. ``client_id`` must be stable: the broker keeps the session
    (subscriptions and QoS 1 messages queued while offline) under it."""

    host: str
    port: int
    username: str
    password: str = field(repr=False)
    client_id: str
    tls: TlsOptions | None = None
    keepalive_s: int = 10
    reconnect_min_s: int = 1
    reconnect_max_s: int = 16
    window: int = 32


@dataclass(frozen=True, slots=True)
class Will:
    """The Last Will: published by the broker if the connection drops without a goodbye."""

    topic: str
    payload: bytes


class _Event:
    WAKE: Final = "wake"
    CONNECTED: Final = "connected"
    DISCONNECTED: Final = "disconnected"
    ACK: Final = "ack"
    STOP: Final = "stop"


class MqttLink:
    """A persistent-session MQTT client that delivers an outbox and receives subscriptions."""

    def __init__(
        self,
        broker: BrokerConfig,
        outbox: Outbox,
        now_ms: NowMs,
        *,
        subscriptions: Sequence[str] = (),
        on_message: Callable[[str, bytes], None] | None = None,
        on_connected: Callable[[], None] | None = None,
        on_disconnected: Callable[[], None] | None = None,
        will: Will | None = None,
    ) -> None:
        self._broker = broker
        self._outbox = outbox
        self._now_ms = now_ms
        self._subscriptions = tuple(subscriptions)
        self._on_message = on_message
        self._on_connected = on_connected
        self._on_disconnected = on_disconnected
        self._events: queue.Queue[tuple[str, int]] = queue.Queue()
        self._connected = threading.Event()
        self._sender: threading.Thread | None = None
        self._inflight: dict[int, int] = {}  # paho mid -> outbox seq; sender thread only
        self._last_sent_seq = 0  # sender thread only
        self._client = self._make_client(will)

    def _make_client(self, will: Will | None) -> mqtt.Client:
        broker = self._broker
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=broker.client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        client.username_pw_set(broker.username, broker.password)
        if broker.tls is not None:
            client.tls_set(
                ca_certs=str(broker.tls.ca_file),
                certfile=None if broker.tls.cert_file is None else str(broker.tls.cert_file),
                keyfile=None if broker.tls.key_file is None else str(broker.tls.key_file),
                tls_version=ssl.PROTOCOL_TLS_CLIENT,
            )
        if will is not None:
            client.will_set(will.topic, will.payload, qos=1, retain=True)
        client.reconnect_delay_set(broker.reconnect_min_s, broker.reconnect_max_s)
        client.max_inflight_messages_set(broker.window)
        client.on_connect = self._handle_connect
        client.on_disconnect = self._handle_disconnect
        client.on_publish = self._handle_publish
        client.on_message = self._handle_message
        return client

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (retrying until the broker answers) and start delivering."""
        self._sender = threading.Thread(
            target=self._send_loop, name=f"mqtt-send-{self._broker.client_id}", daemon=True
        )
        self._sender.start()
        self._client.connect_async(
            self._broker.host, self._broker.port, keepalive=self._broker.keepalive_s
        )
        self._client.loop_start()

    def stop(self) -> None:
        """Disconnect cleanly (no Last Will) and stop both threads; queued messages stay queued."""
        self._client.disconnect()
        self._client.loop_stop()
        self._events.put((_Event.STOP, 0))
        if self._sender is not None:
            self._sender.join(timeout=5)

    @property
    def connected(self) -> bool:
        """True while the broker accepted the connection."""
        return self._connected.is_set()

    def wait_connected(self, timeout_s: float) -> bool:
        """Block until connected or ``timeout_s`` passes; return whether connected."""
        return self._connected.wait(timeout_s)

    def wake(self) -> None:
        """Tell the sender that the outbox has new messages."""
        self._events.put((_Event.WAKE, 0))

    def publish_now(self, topic: str, payload: bytes, *, retain: bool, wait_s: float = 0.0) -> bool:
        """Publish QoS 1 outside the outbox (paho keeps it until acknowledged in this process);
        with ``wait_s``, wait that long for the acknowledgement. True if acknowledged."""
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        if wait_s <= 0:
            return False
        try:
            info.wait_for_publish(timeout=wait_s)
        except (RuntimeError, ValueError):  # not connected
            return False
        return info.is_published()

    # -- paho callbacks (network thread) -----------------------------------------------------

    def _handle_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            log.warning("broker refused %s: %s", self._broker.username, reason)
            return
        for topic in self._subscriptions:
            client.subscribe(topic, qos=1)
        self._connected.set()
        if self._on_connected is not None:
            self._on_connected()
        self._events.put((_Event.CONNECTED, 0))

    def _handle_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        self._connected.clear()
        if self._on_disconnected is not None:
            self._on_disconnected()
        self._events.put((_Event.DISCONNECTED, 0))

    def _handle_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any
    ) -> None:
        self._events.put((_Event.ACK, mid))

    def _handle_message(
        self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage
    ) -> None:
        if self._on_message is None:
            return
        try:
            self._on_message(message.topic, bytes(message.payload))
        except Exception:  # a failing handler must not stop the network thread
            log.exception("handling the message on %s failed", message.topic)

    # -- sender thread ---------------------------------------------------------------------

    def _send_loop(self) -> None:
        last_purge_ms = 0
        while True:
            try:
                kind, mid = self._events.get(timeout=1.0)
            except queue.Empty:
                kind, mid = _Event.WAKE, 0
            if kind == _Event.STOP:
                return
            if kind == _Event.ACK:
                seq = self._inflight.pop(mid, None)
                if seq is not None:
                    self._outbox.mark_delivered(seq, self._now_ms())
            now = self._now_ms()
            if now - last_purge_ms > 3600 * 1000:
                self._outbox.purge_delivered(now - _DELIVERED_KEEP_MS)
                last_purge_ms = now
            if self._connected.is_set():
                self._fill_window()

    def _fill_window(self) -> None:
        room = self._broker.window - len(self._inflight)
        if room <= 0:
            return
        for item in self._outbox.pending(room, after_seq=self._last_sent_seq):
            info = self._client.publish(item.topic, item.payload, qos=1, retain=item.retain)
            if info.rc not in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
                log.warning("publish on %s failed: %s", item.topic, mqtt.error_string(info.rc))
                return
            # NO_CONN: paho keeps the QoS 1 message and sends it on reconnection.
            self._inflight[info.mid] = item.seq
            self._last_sent_seq = item.seq
