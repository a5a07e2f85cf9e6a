"""Referee incidents become valid venue incidents (every kind the referee can raise)."""

from __future__ import annotations

import pytest

from kiosk.venue.bridge import incident_fields
from kiosk.venue.schema import Incident, decode, encode
from kiosk.venue.topics import table_topic
from tests.venue.venue_helpers import EVENT, START_POSITION

referee = pytest.importorskip("kiosk.referee.incidents", reason="the referee (issue 6) is absent")

ENVELOPE = {"v": 1, "kind": "incident", "id": "msg-00000001", "event": EVENT, "table": "t001"}


def _venue(incident: object, snapshot: bytes | None = None) -> Incident:
    fields = incident_fields(incident, "m7", snapshot)  # type: ignore[arg-type]
    message = Incident.model_validate({**ENVELOPE, "sent_ms": 1, **fields})
    decoded = decode(table_topic(EVENT, "t001", "incident"), encode(message))
    assert isinstance(decoded, Incident)
    return decoded


def test_an_illegal_move_keeps_position_dice_plays_and_snapshot() -> None:
    incident = referee.Incident(
        id=3, kind="illegal_move", rule="MSO 4.3: no player shall move any checkers during "
        "an opponent's turn", t_ms=1_700_000_000_000, game=1, detail="a 6 was played with 5-2",
        player=1, on_roll=1, position_id=START_POSITION, dice=(5, 2), play_seen="24/18",
        legal_plays=("13/8 13/11", "24/22 13/8"), announced=False,
    )  # fmt: skip
    venue = _venue(incident, b"\xff\xd8\xff\xe0jpeg")
    assert (venue.incident_id, venue.incident_kind, venue.player, venue.announced) == (
        "m7-3", "illegal_move", 1, False,
    )  # fmt: skip
    assert (venue.position_id, venue.dice, venue.play_seen) == (START_POSITION, (5, 2), "24/18")
    assert venue.legal_plays == ["13/8 13/11", "24/22 13/8"]
    assert venue.note == "a 6 was played with 5-2"
    assert venue.snapshot_jpeg is not None


@pytest.mark.parametrize("kind", sorted(referee.INCIDENT_KINDS))
def test_every_referee_kind_is_a_valid_incident_kind(kind: str) -> None:
    incident = referee.Incident(id=1, kind=kind, rule="JBL 4.1.4", t_ms=0, game=0, detail="")
    venue = _venue(incident)
    assert (venue.incident_kind, venue.position_id, venue.dice) == (kind, None, None)
