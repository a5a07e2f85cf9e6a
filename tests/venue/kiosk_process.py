"""A kiosk's venue side as its own process, for tests that kill it like a power cut.

    python -m tests.venue.kiosk_process PORT TABLE PASSWORD DB

Connects, queues a status and an incident, prints ``ready`` once the outbox is empty, then
waits to be killed.
"""

from __future__ import annotations

import sys
import time

from kiosk.venue.link import BrokerConfig
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from tests.venue.venue_helpers import EVENT, incident_fields, now_ms, status_fields


def main(port: str, table: str, password: str, db: str) -> None:
    config = BrokerConfig("127.0.0.1", int(port), table, password, f"kiosk-process-{table}")
    publisher = KioskPublisher(
        TableIdentity(EVENT, table),
        config,
        Outbox(db),
        now_ms,
        on_ruling=lambda ruling: None,
        on_settings=lambda settings: None,
    )
    publisher.start()
    publisher.publish_status(**status_fields((1, 1)))
    publisher.publish_incident(**incident_fields(f"{table}-process", now_ms()))
    while publisher.pending_count():
        time.sleep(0.05)
    print("ready", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main(*sys.argv[1:5])
