"""From the referee's incidents to venue messages.

:func:`incident_fields` turns a ``kiosk.referee.incidents.Incident`` (matched structurally by
:class:`RefereeIncident`, so the venue does not import the referee) into the fields of
:meth:`kiosk.venue.publisher.KioskPublisher.publish_incident`. The referee numbers incidents
within a match; ``match_key`` (e.g. the journal's match id) makes the id unique at the table.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any, Literal, Protocol


class RefereeIncident(Protocol):
    """The attributes of a referee incident that the venue carries."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def t_ms(self) -> int: ...
    @property
    def detail(self) -> str: ...
    @property
    def player(self) -> Literal[0, 1] | None: ...
    @property
    def position_id(self) -> str | None: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...
    @property
    def play_seen(self) -> str | None: ...
    @property
    def seen_position_id(self) -> str | None: ...
    @property
    def legal_plays(self) -> Sequence[str]: ...
    @property
    def announced(self) -> bool: ...


def incident_fields(
    incident: RefereeIncident, match_key: str, snapshot_jpeg: bytes | None = None
) -> dict[str, Any]:
    """The fields of a venue ``Incident`` (without the envelope) for a referee incident.

    ``t_ms`` must be wall-clock ms (the kiosk's injected time source); ``detail`` becomes the
    note (cut to 500 characters).
    """
    return {
        "incident_id": f"{match_key}-{incident.id}",
        "incident_kind": incident.kind,
        "rule": incident.rule,
        "at_ms": incident.t_ms,
        "position_id": incident.position_id,
        "seen_position_id": incident.seen_position_id,
        "dice": incident.dice,
        "play_seen": incident.play_seen,
        "legal_plays": list(incident.legal_plays),
        "player": incident.player,
        "announced": incident.announced,
        "note": incident.detail[:500],
        "snapshot_jpeg": None
        if snapshot_jpeg is None
        else base64.b64encode(snapshot_jpeg).decode(),
    }
