"""The referee's JSON codec and the journal fit: its events and incidents go in and come back
decodable to the same values (the contract between kiosk.referee.codec and kiosk.store)."""

from __future__ import annotations

from pathlib import Path

from kiosk.referee import ClockPress, DirectorAction, Event, Incident, Tick, Touch
from kiosk.referee.codec import (
    event_from_json,
    event_to_json,
    incident_from_json,
    incident_to_json,
)
from kiosk.store import Store


def test_referee_events_and_incidents_round_trip_through_the_journal(tmp_path: Path) -> None:
    events: list[Event] = [
        ClockPress("left", 1_000),
        Touch("double", "right", 2_000),
        DirectorAction("set_clock", 3_000, (("side", "left"), ("reserve_ms", 60_000))),
        Tick(3_500),
    ]
    incident = Incident(
        id=1,
        kind="press_before_roll",
        rule="MSO-clock 3.2",
        t_ms=2_500,
        game=1,
        detail="the clock was pressed before the roll",
        player=0,
        dice=(6, 5),
        legal_plays=("24/18 13/8",),
    )
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match({"ruleset": "mso", "length": 7})
        for event in events:
            journal.append_event(event_to_json(event))
        journal.append_incident(incident_to_json(incident))
        assert [event_from_json(e.event) for e in journal.events()] == events
        assert incident_from_json(journal.incidents()[0].incident) == incident
        assert journal.verify().ok
