"""A real mosquitto on a free loopback port, with per-kiosk credentials and the venue ACL.

Skipped with a reason when Debian's ``mosquitto`` is not installed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.venue.broker import write_broker_dir
from tests.venue.venue_helpers import EVENT, TABLES, VenueBroker, free_port


@pytest.fixture(scope="session")
def venue_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VenueBroker]:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    directory = tmp_path_factory.mktemp("broker")
    port = free_port()
    tables = [f"t{number:03d}" for number in range(1, TABLES + 1)]
    logins = write_broker_dir(directory, EVENT, tables, port=port)
    broker = VenueBroker(directory, port, logins)
    broker.start()
    yield broker
    broker.stop()
