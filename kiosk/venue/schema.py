"""Payloads of the venue messages, version 1: JSON objects validated by pydantic models.

Every message carries an envelope: ``v`` (schema version, 1), ``kind`` (the topic's last part),
``id`` (a unique message id: receivers drop a message whose id they have already applied, so a
message redelivered after a lost acknowledgement is applied once), ``event``, ``table`` (the table
it concerns; none on ``settings``) and ``sent_ms`` (the sender's clock, ms since the Unix epoch).

:func:`decode` checks a received message against its topic: a payload whose kind, event or table
differs from the topic it came on is rejected as forged (the broker ACL only lets a kiosk publish
under its own table id, so the topic is what authenticates the table). Times are ms, clocks are ms.
The JSON Schema of each kind is written by ``python -m kiosk.venue.schema DIR`` (shipped in
``kiosk/venue/schemas/``).
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from kiosk.rules import decode_position_id, parse_play
from kiosk.venue.topics import NAME_PATTERN, TopicError, parse_topic

SCHEMA_VERSION: Final = 1
MAX_SNAPSHOT_BYTES: Final = 512 * 1024
"""Largest JPEG snapshot carried in an incident (before base64)."""
MAX_MAT_CHARS: Final = 1_000_000
MAX_PAYLOAD_BYTES: Final = 1_000_000 + MAX_MAT_CHARS // 2
"""Messages larger than this are rejected before parsing (a .mat record is plain ASCII)."""

Name = Annotated[str, StringConstraints(pattern=f"^{NAME_PATTERN}$")]
MessageId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{8,64}$")]
IncidentId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Millis = Annotated[int, Field(ge=0)]
Side = Literal[0, 1]
Text = Annotated[str, StringConstraints(max_length=500)]
Score = tuple[Annotated[int, Field(ge=0, le=999)], Annotated[int, Field(ge=0, le=999)]]
RuleSetName = Literal["MSO", "BIBA", "GA", "JBL"]


def _position_id(text: str) -> str:
    decode_position_id(text)  # InvalidIdError is a ValueError: pydantic reports it
    return text


def _play(text: str) -> str:
    parse_play(text)  # NotationError is a ValueError
    return text


def _jpeg_base64(text: str) -> str:
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("snapshot is not base64") from None
    if len(data) > MAX_SNAPSHOT_BYTES:
        raise ValueError(f"snapshot is {len(data)} bytes, at most {MAX_SNAPSHOT_BYTES}")
    if not data.startswith(b"\xff\xd8\xff"):
        raise ValueError("snapshot is not a JPEG (no SOI marker)")
    return text


def _cube_value(value: int) -> int:
    if value not in (1, 2, 4, 8, 16, 32, 64):
        raise ValueError(f"cube value {value} is not a power of two from 1 to 64")
    return value


PositionIdText = Annotated[str, StringConstraints(max_length=14), AfterValidator(_position_id)]
PlayText = Annotated[str, StringConstraints(max_length=80), AfterValidator(_play)]
Die = Annotated[int, Field(ge=1, le=6)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Envelope(_Model):
    """Fields every message has."""

    v: Literal[1] = SCHEMA_VERSION
    id: MessageId
    event: Name
    sent_ms: Millis


class TableMessage(Envelope):
    """A message about one table."""

    table: Name


class Clocks(_Model):
    """The match clock: each player's reserve (ms), the current allowance (the delay, e.g. 12 s,
    counting down before the reserve), and whose clock runs (None when paused or off)."""

    enabled: bool
    reserve_ms: tuple[Millis, Millis]
    allowance_ms: Millis
    running: Side | None


class Cube(_Model):
    """Cube value and owner (None: centred)."""

    value: Annotated[int, AfterValidator(_cube_value)]
    owner: Side | None


TableState = Literal[
    "idle", "setup", "playing", "paused", "break", "director-called", "incident", "finished"
]


class TableStatus(TableMessage):
    """The table at a glance; published when it changes and at least every few seconds."""

    kind: Literal["status"] = "status"
    players: tuple[Text, Text]
    score: Score
    match_length: Annotated[int, Field(ge=0, le=999)]
    """Points to win; 0 for unlimited (money) play."""
    crawford: Literal["pre", "crawford", "post"]
    cube: Cube
    state: TableState
    turn: Side | None
    clocks: Clocks
    rule_set: RuleSetName
    open_incidents: Annotated[int, Field(ge=0)] = 0


class Incident(TableMessage):
    """An irregularity the referee flagged, for the director to rule on (fields as in
    ``kiosk.referee.incidents.Incident``).

    ``position_id`` is the board before the play (gnubg Position ID, player on roll's view; None
    for incidents without a board, e.g. a fallen flag), ``seen_position_id`` the board as read,
    ``play_seen`` what the camera saw played (standard notation, None when not a play),
    ``legal_plays`` the legal plays of ``dice`` there that the referee lists (the director's view
    only: MSO 1.5, JBL 1.9), ``player`` the player concerned, ``announced`` whether the table was
    told (policy ``announce``) or it was recorded silently.
    """

    kind: Literal["incident"] = "incident"
    incident_id: IncidentId
    incident_kind: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
    rule: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The rule cited, e.g. ``MSO 4.3: no player shall move any checkers during ...``."""
    at_ms: Millis
    position_id: PositionIdText | None
    dice: tuple[Die, Die] | None
    play_seen: PlayText | None
    legal_plays: Annotated[list[PlayText], Field(max_length=200)]
    seen_position_id: PositionIdText | None = None
    player: Side | None = None
    announced: bool = True
    note: Text = ""
    snapshot_jpeg: Annotated[str, AfterValidator(_jpeg_base64)] | None = None
    """Board snapshot at the incident: a JPEG, base64."""


Decision = Literal[
    "condone",
    "replay-legal",
    "roll-again",
    "restore-position",
    "penalty-point",
    "warning",
    "no-action",
    "other",
]


class Ruling(TableMessage):
    """The director's ruling on an incident, sent to the table it came from."""

    kind: Literal["ruling"] = "ruling"
    incident_id: IncidentId
    decision: Decision
    note: Text = ""
    director: Annotated[str, StringConstraints(min_length=1, max_length=40)]


class RulingAck(TableMessage):
    """The kiosk received (and showed) a ruling."""

    kind: Literal["ack"] = "ack"
    ruling_id: MessageId
    incident_id: IncidentId


class MatchResult(TableMessage):
    """A finished match: final score and the match record as a Jellyfish/GNU ``.mat`` text."""

    kind: Literal["result"] = "result"
    players: tuple[Text, Text]
    score: Score
    match_length: Annotated[int, Field(ge=0, le=999)]
    winner: Side | None
    mat: Annotated[str, StringConstraints(max_length=MAX_MAT_CHARS)]


class Presence(TableMessage):
    """Online or offline; the offline copy is the kiosk's MQTT Last Will, set at connection."""

    kind: Literal["presence"] = "presence"
    online: bool


class ClockSettings(_Model):
    """Clock of every match of the event: reserve per player per match point, the delay."""

    enabled: bool
    reserve_per_point_ms: Annotated[int, Field(ge=0, le=3_600_000)]
    allowance_ms: Annotated[int, Field(ge=0, le=120_000)]


class EventSettings(Envelope):
    """Per-event settings pushed (retained) to every table of the event. ``revision`` increases:
    a kiosk ignores settings older than those it has."""

    kind: Literal["settings"] = "settings"
    revision: Annotated[int, Field(ge=1)]
    rule_set: RuleSetName
    match_length: Annotated[int, Field(ge=0, le=999)]
    clock: ClockSettings
    irregularities: Literal["announce", "record"]
    """Announce irregularities at the table, or record them silently for the director."""


Message = TableStatus | Incident | Ruling | RulingAck | MatchResult | Presence | EventSettings
MODELS: Final[dict[str, type[Message]]] = {
    "status": TableStatus,
    "incident": Incident,
    "ruling": Ruling,
    "ack": RulingAck,
    "result": MatchResult,
    "presence": Presence,
    "settings": EventSettings,
}


class MessageError(ValueError):
    """A received message that is malformed, of another version, or forged; never applied."""


def _first_errors(error: ValidationError, limit: int = 3) -> str:
    parts = []
    for item in error.errors()[:limit]:
        where = ".".join(str(part) for part in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    more = error.error_count() - limit
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def decode(topic: str, payload: bytes) -> Message:
    """Validate a received message against its topic; raise :class:`MessageError` saying why not.

    Rejects: topics outside the layout, oversized or non-JSON payloads, another schema version,
    unknown or missing fields, out-of-range values, and a ``kind``/``event``/``table`` differing
    from the topic's (forgery).
    """
    try:
        address = parse_topic(topic)
    except TopicError as error:
        raise MessageError(str(error)) from None
    if len(payload) > MAX_PAYLOAD_BYTES:
        raise MessageError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD_BYTES}")
    try:
        raw = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MessageError(f"payload is not JSON: {error}") from None
    if not isinstance(raw, dict):
        raise MessageError("payload is not a JSON object")
    if raw.get("v") != SCHEMA_VERSION:
        raise MessageError(f"schema version {raw.get('v')!r} is not {SCHEMA_VERSION}")
    if raw.get("kind") != address.kind:
        raise MessageError(f"kind {raw.get('kind')!r} sent on a {address.kind!r} topic")
    try:
        message = MODELS[address.kind].model_validate_json(payload)
    except ValidationError as error:
        raise MessageError(f"{address.kind}: {_first_errors(error)}") from None
    if message.event != address.event:
        raise MessageError(f"event {message.event!r} sent on event {address.event!r}'s topic")
    if isinstance(message, TableMessage) and message.table != address.table_id:
        raise MessageError(f"table {message.table!r} sent on table {address.table_id!r}'s topic")
    return message


def encode(message: Message) -> bytes:
    """The JSON payload of ``message`` (compact, UTF-8)."""
    return message.model_dump_json().encode()


def json_schemas() -> dict[str, dict[str, object]]:
    """The JSON Schema of each message kind, keyed by kind."""
    return {
        kind: TypeAdapter(model).json_schema(mode="serialization") for kind, model in MODELS.items()
    }


def write_json_schemas(directory: Path) -> list[Path]:
    """Write ``<kind>.schema.json`` for every kind into ``directory``; return the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind, schema in json_schemas().items():
        path = directory / f"{kind}.schema.json"
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


SCHEMA_DIR: Final = Path(__file__).with_name("schemas")

if __name__ == "__main__":
    for written in write_json_schemas(Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_DIR):
        print(written)
