"""The dashboard's HTTP API over a real uvicorn: login, room, incidents, rulings, results,
settings and the event stream (messages fed straight into the room, no broker)."""

from __future__ import annotations

import base64
import http.cookiejar
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.dashboard.app import create_app
from kiosk.dashboard.auth import hash_password
from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.venue.schema import Incident, MatchResult, TableStatus, encode
from kiosk.venue.topics import table_topic
from tests.venue.venue_helpers import (
    EVENT,
    ServerThread,
    free_port,
    incident_fields,
    now_ms,
    status_fields,
)

PASSWORD = "correct horse battery"
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(100))


class Browser:
    """urllib with a cookie jar, returning (status, headers, body)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, path: str, data: Any = None) -> tuple[int, Any, bytes]:
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(self.base + path, data=body)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def json(self, path: str, data: Any = None) -> tuple[int, Any]:
        status, _, body = self.call(path, data)
        return status, json.loads(body)


def envelope(kind: str, msg_id: str, table: str = "t001") -> dict[str, Any]:
    return {"v": 1, "kind": kind, "id": msg_id, "event": EVENT, "table": table, "sent_ms": now_ms()}


@pytest.fixture
def service(tmp_path: Path) -> DashboardService:
    config = DashboardConfig(EVENT, hash_password(PASSWORD), tmp_path / "state", broker=None)
    return DashboardService(config, now_ms)


@pytest.fixture
def browser(service: DashboardService) -> Iterator[Browser]:
    with ServerThread(create_app(service), free_port()) as server:
        client = Browser(server.url)
        status, body = client.json("/api/login", {"name": "Dana", "password": PASSWORD})
        assert (status, body) == (200, {"director": "Dana"})
        yield client


def feed_incident(service: DashboardService, incident_id: str = "inc-1") -> Incident:
    incident = Incident.model_validate(
        {
            **envelope("incident", f"msg-{incident_id}"),
            **incident_fields(incident_id),
            "snapshot_jpeg": base64.b64encode(JPEG).decode(),
        }
    )
    service.room.ingest(table_topic(EVENT, "t001", "incident"), encode(incident))
    return incident


def test_login_is_required_and_a_wrong_password_refused(service: DashboardService) -> None:
    with ServerThread(create_app(service), free_port()) as server:
        client = Browser(server.url)
        assert client.json("/api/room") == (401, {"error": "log in first"})
        status, body = client.json("/api/login", {"name": "Eve", "password": "guess"})
        assert (status, body) == (401, {"error": "password: wrong password"})
        assert client.json("/api/login", {"name": "", "password": PASSWORD})[0] == 400
        status, _, page = client.call("/")
        assert status == 200
        assert b"Director login" in page


def test_room_shows_tables_and_incidents(service: DashboardService, browser: Browser) -> None:
    status = TableStatus.model_validate(
        {**envelope("status", "status-0001"), **status_fields((4, 1))}
    )
    service.room.ingest(table_topic(EVENT, "t001", "status"), encode(status))
    feed_incident(service)
    code, room = browser.json("/api/room")
    assert code == 200
    [table] = room["tables"]
    assert (table["table"], table["status"]["score"], table["open_incidents"]) == (
        "t001",
        [4, 1],
        1,
    )
    [incident] = room["incidents"]
    assert (incident["incident_id"], incident["rule"], incident["has_snapshot"]) == (
        "inc-1",
        "MSO 4.2",
        True,
    )
    assert "snapshot_jpeg" not in incident


def test_snapshot_and_diagrams(service: DashboardService, browser: Browser) -> None:
    feed_incident(service)
    status, headers, body = browser.call("/api/incidents/t001/inc-1/snapshot.jpg")
    assert (status, headers["content-type"], body) == (200, "image/jpeg", JPEG)
    status, headers, seen = browser.call("/api/incidents/t001/inc-1/diagram.svg")
    assert (status, headers["content-type"]) == (200, "image/svg+xml")
    assert seen.count(b"marker-end=") == 2  # 24/18 13/9: two red arrows
    assert b'stroke="#d00"' in seen
    status, _, legal = browser.call("/api/incidents/t001/inc-1/diagram.svg?play=0")
    assert (status, legal.count(b"marker-end=")) == (200, 1)  # 24/13: one green arrow
    assert b'stroke="#080"' in legal
    assert browser.json("/api/incidents/t001/inc-1/diagram.svg?play=9")[0] == 400
    assert browser.json("/api/incidents/t001/nope/diagram.svg")[0] == 404


def test_ruling_is_validated_recorded_and_queued(
    service: DashboardService, browser: Browser
) -> None:
    feed_incident(service)
    status, body = browser.json("/api/incidents/t001/inc-1/ruling", {"decision": "shrug"})
    assert status == 400
    assert body["error"].startswith("decision:")
    status, body = browser.json(
        "/api/incidents/t001/inc-1/ruling", {"decision": "condone", "note": "ok"}
    )
    assert status == 200
    assert (body["ruling"]["decision"], body["ruling"]["director"], body["ruling"]["acked_ms"]) == (
        "condone",
        "Dana",
        None,
    )
    [queued] = service.outbox.pending(10)
    assert queued.topic == "gammon/v1/open26/table/t001/ruling"
    assert json.loads(queued.payload)["incident_id"] == "inc-1"
    assert browser.json("/api/room")[1]["tables"][0]["open_incidents"] == 0


def test_results_download_as_mat(service: DashboardService, browser: Browser) -> None:
    mat = " 7 point match\n\n Game 1\n Ann : 0                  Bob : 0\n"
    result = MatchResult.model_validate(
        {
            **envelope("result", "result-0001"),
            "players": ("Ann", "Bob"),
            "score": (7, 3),
            "match_length": 7,
            "winner": 0,
            "mat": mat,
        }
    )
    service.room.ingest(table_topic(EVENT, "t001", "result"), encode(result))
    service.room.ingest(table_topic(EVENT, "t001", "result"), encode(result))  # redelivered
    [summary] = browser.json("/api/room")[1]["results"]
    status, headers, body = browser.call(f"/api/results/{summary['id']}.mat")
    assert (status, body.decode()) == (200, mat)
    assert 'filename="open26-t001-result-0.mat"' in headers["content-disposition"]


def test_settings_are_validated_and_revised(service: DashboardService, browser: Browser) -> None:
    settings = {
        "rule_set": "JBL",
        "match_length": 5,
        "irregularities": "record",
        "clock": {"enabled": True, "reserve_per_point_ms": 120_000, "allowance_ms": 12_000},
    }
    status, body = browser.json("/api/settings", {**settings, "rule_set": "XYZ"})
    assert status == 400
    assert body["error"].startswith("rule_set:")
    assert browser.json("/api/settings", settings)[1]["revision"] == 1
    assert browser.json("/api/settings", {**settings, "match_length": 11})[1]["revision"] == 2
    assert browser.json("/api/settings")[1]["match_length"] == 11
    [queued] = service.outbox.pending(10)  # retained settings coalesce to the latest
    assert (queued.topic, queued.retain) == ("gammon/v1/open26/settings", True)


def test_event_stream_pushes_incidents(service: DashboardService, browser: Browser) -> None:
    request = urllib.request.Request(browser.base + "/api/stream")
    with browser.opener.open(request, timeout=10) as stream:
        head = [stream.readline() for _ in range(5)]
        assert head[1:4] == [b"\n", b"event: link\n", b'data: {"connected": false}\n']
        feed_incident(service, "inc-streamed")
        lines = [stream.readline() for _ in range(2)]
    assert head[4] == b"\n"
    assert lines[0] == b"event: incident\n"
    assert json.loads(lines[1].removeprefix(b"data: "))["incident_id"] == "inc-streamed"
