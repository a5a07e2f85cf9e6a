"""100 kiosks and a dashboard on a real mosquitto; the broker is stopped mid-event and restarted.

Nothing is lost and nothing is applied twice: every incident reaches the dashboard exactly once,
rulings made while the broker was down reach their tables, a kiosk rebooted during the outage
sends what it had queued.
"""

from __future__ import annotations

import time
from pathlib import Path

from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from kiosk.venue.schema import EventSettings, Ruling
from tests.venue.venue_helpers import (
    EVENT,
    VenueBroker,
    incident_fields,
    now_ms,
    status_fields,
    wait_for,
)

KIOSKS = 100


class SimulatedKiosk:
    """A kiosk's venue side with a file outbox, recording the rulings it was given."""

    def __init__(self, broker: VenueBroker, table: str, directory: Path) -> None:
        self.table = table
        self.rulings: list[Ruling] = []
        self.settings: list[EventSettings] = []
        self._broker = broker
        self._db = directory / f"{table}.db"
        self.publisher = self._connect()

    def _connect(self) -> KioskPublisher:
        config = self._broker.config(self.table, f"kiosk-cut-{self.table}")
        return KioskPublisher(
            TableIdentity(EVENT, self.table),
            config,
            Outbox(self._db),
            now_ms,
            on_ruling=self.rulings.append,
            on_settings=self.settings.append,
        )

    def reboot(self) -> None:
        """Stop and start again from the same SQLite file (as after a power cut)."""
        self.publisher.stop()
        self.publisher = self._connect()
        self.publisher.start()


def test_broker_outage_loses_and_duplicates_nothing(
    venue_broker: VenueBroker, tmp_path: Path
) -> None:
    service = DashboardService(
        DashboardConfig(
            EVENT, "unused", tmp_path / "dashboard", venue_broker.dashboard("dash-cut")
        ),
        now_ms,
    )
    service.start()
    kiosks = [SimulatedKiosk(venue_broker, f"t{n:03d}", tmp_path) for n in range(1, KIOSKS + 1)]
    expected: set[tuple[str, str]] = set()

    def publish_round(round_number: int) -> None:
        for kiosk in kiosks:
            kiosk.publisher.publish_status(**status_fields((round_number, 0)))
            for number in range(2):
                incident_id = f"{kiosk.table}-r{round_number}-{number}"
                kiosk.publisher.publish_incident(**incident_fields(incident_id, now_ms()))
                expected.add((kiosk.table, incident_id))

    try:
        assert service.link is not None
        assert service.link.wait_connected(10)
        for kiosk in kiosks:
            kiosk.publisher.start()
        publish_round(1)
        wait_for(lambda: len(service.room.incidents()) == len(expected), 30, "round 1")

        venue_broker.stop()  # the venue network goes down mid-event
        wait_for(lambda: not any(k.publisher.link.connected for k in kiosks), 10, "disconnect")
        publish_round(2)
        ruled = [kiosk.table for kiosk in kiosks[:10]]
        for table in ruled:
            service.send_ruling(table, f"{table}-r1-0", "condone", "play stands", "Dana")
        kiosks[0].reboot()  # a table loses power during the outage
        time.sleep(1.0)
        venue_broker.start()

        wait_for(lambda: len(service.room.incidents()) == len(expected), 60, "round 2")
        wait_for(
            lambda: all(len(kiosk.rulings) == 1 for kiosk in kiosks[:10]), 30, "rulings at tables"
        )
        wait_for(
            lambda: (
                sum(1 for i in service.room.incidents() if i["ruling"] and i["ruling"]["acked_ms"])
                == len(ruled)
            ),
            30,
            "acknowledgements of the rulings",
        )
        wait_for(lambda: all(k.publisher.pending_count() == 0 for k in kiosks), 30, "outboxes")
    finally:
        if venue_broker.process is None:
            venue_broker.start()
        for kiosk in kiosks:
            kiosk.publisher.stop()
        service.stop()

    incidents = service.room.incidents()
    assert {(i["table"], i["incident_id"]) for i in incidents} == expected
    assert len(incidents) == len(expected) == KIOSKS * 4
    assert [kiosk.rulings[0].incident_id for kiosk in kiosks[:10]] == [
        f"{kiosk.table}-r1-0" for kiosk in kiosks[:10]
    ]
    assert all(not kiosk.rulings for kiosk in kiosks[10:])
    scores = {view["table"]: view["status"]["score"] for view in service.room.tables()}
    assert all(scores[kiosk.table] == [2, 0] for kiosk in kiosks)
