"""Security on a real mosquitto: per-kiosk logins, the ACL, and rejection of forged payloads."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.venue.broker import DASHBOARD_USER, acl_text
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from kiosk.venue.schema import EventSettings, Ruling
from kiosk.venue.topics import table_topic
from tests.venue.venue_helpers import (
    EVENT,
    VenueBroker,
    incident_fields,
    now_ms,
    status_fields,
    wait_for,
)


class RawClient:
    """A bare paho client, to behave as a tampered kiosk would."""

    def __init__(
        self, broker: VenueBroker, username: str, client_id: str, password: str | None = None
    ) -> None:
        config = broker.config(username, client_id, password)
        self.refused: Any = None
        self.connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.username_pw_set(config.username, config.password)
        self.client.on_connect = self._on_connect
        self.client.connect("127.0.0.1", config.port)
        self.client.loop_start()

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            self.refused = reason
        else:
            self.connected.set()

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _envelope(table: str, kind: str, msg_id: str) -> dict[str, Any]:
    return {"v": 1, "kind": kind, "id": msg_id, "event": EVENT, "table": table, "sent_ms": 1}


@pytest.fixture
def dashboard(venue_broker: VenueBroker, tmp_path: Path) -> Any:
    service = DashboardService(
        DashboardConfig(EVENT, "unused", tmp_path / "d", venue_broker.dashboard("dash-acl")), now_ms
    )
    service.start()
    assert service.link is not None
    assert service.link.wait_connected(10)
    yield service
    service.stop()


def test_acl_grants_kiosks_only_their_own_table() -> None:
    acl = acl_text(EVENT)
    assert "pattern write gammon/v1/open26/table/%u/incident" in acl
    assert "pattern write gammon/v1/open26/table/%u/ruling" not in acl
    assert f"user {DASHBOARD_USER}\ntopic readwrite gammon/v1/open26/#" in acl


def test_wrong_password_and_unknown_user_are_refused(venue_broker: VenueBroker) -> None:
    for username, password in (("t001", "not-the-password"), ("t001", "")):
        client = RawClient(venue_broker, username, "bad-login", password)
        wait_for(lambda c=client: c.refused is not None, 5, "refusal")  # type: ignore[misc]
        assert "not authori" in str(client.refused).lower()
        client.close()


def test_kiosk_cannot_publish_as_another_table_or_as_the_director(
    venue_broker: VenueBroker, dashboard: DashboardService, caplog: pytest.LogCaptureFixture
) -> None:
    rulings: list[Ruling] = []
    victim = KioskPublisher(
        TableIdentity(EVENT, "t002"),
        venue_broker.config("t002", "acl-victim"),
        Outbox(":memory:"),
        now_ms,
        on_ruling=rulings.append,
        on_settings=lambda s: None,
    )
    victim.start()
    assert victim.link.wait_connected(10)
    rogue = RawClient(venue_broker, "t001", "acl-rogue")
    assert rogue.connected.wait(5)
    forged_incident = {
        **_envelope("t002", "incident", "forged-incident-1"),
        **incident_fields("forged-1"),
    }
    # As table t002 on t002's topic: the broker's ACL drops it (t001 may only write under t001).
    rogue.publish(table_topic(EVENT, "t002", "incident"), json.dumps(forged_incident).encode())
    # A ruling to t002 as if from the director: dropped by the ACL too.
    forged_ruling = {
        **_envelope("t002", "ruling", "forged-ruling-1"),
        "incident_id": "forged-1",
        "decision": "condone",
        "note": "",
        "director": "me",
    }
    rogue.publish(table_topic(EVENT, "t002", "ruling"), json.dumps(forged_ruling).encode())
    # As table t002 on its own (t001) topic: reaches the dashboard, which rejects it as forged.
    with caplog.at_level(logging.WARNING, logger="kiosk.dashboard.room"):
        rogue.publish(table_topic(EVENT, "t001", "incident"), json.dumps(forged_incident).encode())
        # Malformed on its own topic: rejected with a log line.
        rogue.publish(table_topic(EVENT, "t001", "status"), b'{"v": 1, "kind": "status"}')
        genuine = {**_envelope("t001", "incident", "genuine-incident"), **incident_fields("real-1")}
        rogue.publish(table_topic(EVENT, "t001", "incident"), json.dumps(genuine).encode())
        wait_for(lambda: len(dashboard.room.incidents()) == 1, 10, "the genuine incident")
    rogue.close()
    victim.stop()
    assert [(i["table"], i["incident_id"]) for i in dashboard.room.incidents()] == [
        ("t001", "real-1")
    ]
    assert dashboard.room.rejected == 2
    messages = [record.getMessage() for record in caplog.records]
    assert any("table 't002' sent on table 't001'" in message for message in messages)
    assert any("rejected message on gammon/v1/open26/table/t001/status" in m for m in messages)
    assert rulings == []


def test_kiosk_applies_a_ruling_once_and_settings_only_when_newer(
    venue_broker: VenueBroker,
    dashboard: DashboardService,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    rulings: list[Ruling] = []
    settings: list[EventSettings] = []
    kiosk = KioskPublisher(
        TableIdentity(EVENT, "t003"),
        venue_broker.config("t003", "acl-t003"),
        Outbox(tmp_path / "k.db"),
        now_ms,
        on_ruling=rulings.append,
        on_settings=settings.append,
    )
    kiosk.start()
    assert kiosk.link.wait_connected(10)
    kiosk.publish_incident(**incident_fields("inc-t003"))
    kiosk.publish_status(**status_fields())
    wait_for(lambda: len(dashboard.room.incidents()) == 1, 10, "incident")
    dashboard.send_ruling("t003", "inc-t003", "replay-legal", "play 24/13", "Dana")
    wait_for(lambda: len(rulings) == 1, 10, "ruling at the table")
    # The dashboard's outbox sends the same message again (as after a lost PUBACK): ignored.
    ruling = rulings[0]
    raw = RawClient(venue_broker, DASHBOARD_USER, "acl-replayer")
    assert raw.connected.wait(5)
    raw.publish(table_topic(EVENT, "t003", "ruling"), ruling.model_dump_json().encode())
    base = {
        "rule_set": "JBL",
        "match_length": 5,
        "irregularities": "announce",
        "clock": {"enabled": True, "reserve_per_point_ms": 90_000, "allowance_ms": 12_000},
    }
    dashboard.send_settings(base)
    wait_for(lambda: len(settings) == 1, 10, "settings")
    dashboard.send_settings({**base, "match_length": 9})
    wait_for(lambda: len(settings) == 2, 10, "newer settings")
    old = EventSettings.model_validate(
        {
            **base,
            "v": 1,
            "kind": "settings",
            "id": "old-settings-1",
            "event": EVENT,
            "sent_ms": 1,
            "revision": 1,
        }
    )
    raw.publish("gammon/v1/open26/settings", old.model_dump_json().encode())
    with caplog.at_level(logging.WARNING, logger="kiosk.venue.publisher"):
        raw.publish(table_topic(EVENT, "t003", "ruling"), b'{"v": 1, "kind": "ruling"}')
        wait_for(lambda: "rejected message" in caplog.text, 10, "the kiosk's log line")
    wait_for(lambda: dashboard.room.incidents()[0]["ruling"]["acked_ms"] is not None, 10, "ack")
    raw.close()
    kiosk.stop()
    assert [r.decision for r in rulings] == ["replay-legal"]
    assert [s.revision for s in settings] == [1, 2]
    latest = kiosk.latest_settings()
    assert latest is not None
    assert latest.match_length == 9


def test_a_failing_ruling_handler_does_not_stop_the_kiosk(
    venue_broker: VenueBroker, dashboard: DashboardService, caplog: pytest.LogCaptureFixture
) -> None:
    handled: list[str] = []

    def on_ruling(ruling: Ruling) -> None:
        if not handled:
            handled.append("failed")
            raise RuntimeError("the screen was busy")
        handled.append(ruling.incident_id)

    kiosk = KioskPublisher(
        TableIdentity(EVENT, "t004"), venue_broker.config("t004", "acl-t004"),
        Outbox(":memory:"), now_ms, on_ruling=on_ruling, on_settings=lambda s: None,
    )  # fmt: skip
    kiosk.start()
    try:
        for incident_id in ("fail-1", "fail-2"):
            kiosk.publish_incident(**incident_fields(incident_id))
        wait_for(lambda: len(dashboard.room.incidents()) == 2, 10, "incidents")
        with caplog.at_level(logging.ERROR, logger="kiosk.venue.link"):
            dashboard.send_ruling("t004", "fail-1", "condone", "", "Dana")
            dashboard.send_ruling("t004", "fail-2", "condone", "", "Dana")
            wait_for(lambda: len(handled) == 2, 10, "the second ruling")
    finally:
        kiosk.stop()
    assert handled == ["failed", "fail-2"]
    assert "handling the message on gammon/v1/open26/table/t004/ruling failed" in caplog.text
