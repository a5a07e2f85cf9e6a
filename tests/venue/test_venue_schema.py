"""The message contract: valid messages round-trip; malformed or forged ones are rejected."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.venue.schema import (
    SCHEMA_DIR,
    Incident,
    MessageError,
    TableStatus,
    decode,
    encode,
    json_schemas,
)
from kiosk.venue.topics import TopicError, parse_topic, settings_topic, table_topic
from tests.venue.venue_helpers import EVENT, incident_fields, status_fields

JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 60
ENVELOPE = {"v": 1, "id": "0123456789abcdef", "event": EVENT, "table": "t001", "sent_ms": 5}


def _incident(**changes: Any) -> dict[str, Any]:
    return {**ENVELOPE, "kind": "incident", **incident_fields("inc-000001"), **changes}


def _payload(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode()


INCIDENT_TOPIC = table_topic(EVENT, "t001", "incident")


def test_status_round_trips_through_its_topic() -> None:
    status = TableStatus.model_validate({**ENVELOPE, **status_fields((3, 2))})
    decoded = decode(table_topic(EVENT, "t001", "status"), encode(status))
    assert decoded == status


def test_incident_with_snapshot_round_trips() -> None:
    incident = Incident.model_validate(_incident(snapshot_jpeg=base64.b64encode(JPEG).decode()))
    assert decode(INCIDENT_TOPIC, encode(incident)) == incident


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (_payload({**_incident(), "v": 2}), "schema version 2"),
        (_payload(_incident(kind="status")), "kind 'status' sent on a 'incident' topic"),
        (_payload({**_incident(), "extra": 1}), "extra: Extra inputs are not permitted"),
        (_payload(_incident(position_id="not-a-position")), "position_id"),
        (_payload(_incident(play_seen="24/30")), "play_seen"),
        (_payload(_incident(dice=[7, 1])), "dice.0"),
        (_payload(_incident(at_ms=-1)), "at_ms"),
        (_payload(_incident(snapshot_jpeg="bm90IGEganBlZw==")), "not a JPEG"),
        (_payload(_incident(sent_ms="5")), "sent_ms"),
        (b"x" * 2_000_000, "exceeds"),
    ],
)
def test_malformed_incidents_are_rejected_naming_the_fault(payload: bytes, reason: str) -> None:
    with pytest.raises(MessageError, match=reason.replace("(", r"\(")):
        decode(INCIDENT_TOPIC, payload)


@pytest.mark.parametrize(
    ("topic", "reason"),
    [
        (table_topic(EVENT, "t002", "incident"), "table 't001' sent on table 't002'"),
        (table_topic("other", "t001", "incident"), "event 'open26' sent on event 'other'"),
        ("gammon/v1/open26/table/t001/nonsense", "is not <event>/settings"),
        ("elsewhere/t001/incident", "does not start with"),
    ],
)
def test_forged_or_misrouted_messages_are_rejected(topic: str, reason: str) -> None:
    with pytest.raises(MessageError, match=reason):
        decode(topic, _payload(_incident()))


def test_topics_parse_back_and_refuse_wildcards() -> None:
    address = parse_topic(table_topic(EVENT, "t007", "ruling"))
    assert (address.event, address.table_id, address.kind) == (EVENT, "t007", "ruling")
    assert parse_topic(settings_topic(EVENT)).kind == "settings"
    with pytest.raises(TopicError, match="table id"):
        table_topic(EVENT, "t+1", "status")


def test_shipped_json_schemas_match_the_models() -> None:
    shipped = {
        path.name.removesuffix(".schema.json"): json.loads(path.read_text())
        for path in Path(SCHEMA_DIR).glob("*.schema.json")
    }
    assert shipped == json_schemas(), "regenerate with: python -m kiosk.venue.schema"
