"""TLS: a broker with a TLS listener (self-signed certificate made here with openssl); a kiosk
that trusts it connects and its messages arrive; one that trusts another CA cannot connect."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.venue.broker import DASHBOARD_USER, start_mosquitto, write_broker_dir
from kiosk.venue.link import BrokerConfig, TlsOptions
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from tests.venue.venue_helpers import EVENT, free_port, now_ms, status_fields, wait_for


def self_signed(directory: Path, name: str) -> tuple[Path, Path]:
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def test_kiosk_publishes_over_tls(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = self_signed(tmp_path, "broker")
    other_ca, _ = self_signed(tmp_path, "other")
    port, tls_port = free_port(), free_port()
    logins = write_broker_dir(
        tmp_path / "broker", EVENT, ["t001"], port=port, tls_port=tls_port,
        tls_cert=cert, tls_key=key,
    )  # fmt: skip
    broker = start_mosquitto(tmp_path / "broker", port)

    def config(user: str, client_id: str, ca: Path) -> BrokerConfig:
        return BrokerConfig(
            "127.0.0.1", tls_port, user, logins[user].password, client_id, tls=TlsOptions(ca)
        )

    service = DashboardService(
        DashboardConfig(EVENT, "unused", tmp_path / "d", config(DASHBOARD_USER, "d-tls", cert)),
        now_ms,
    )
    kiosk = KioskPublisher(
        TableIdentity(EVENT, "t001"), config("t001", "k-tls", cert), Outbox(":memory:"), now_ms,
        on_ruling=lambda ruling: None, on_settings=lambda settings: None,
    )  # fmt: skip
    impostor = KioskPublisher(
        TableIdentity(EVENT, "t001"), config("t001", "k-tls-2", other_ca), Outbox(":memory:"),
        now_ms, on_ruling=lambda ruling: None, on_settings=lambda settings: None,
    )  # fmt: skip
    try:
        service.start()
        kiosk.start()
        impostor.start()
        kiosk.publish_status(**status_fields((5, 4)))
        wait_for(lambda: len(service.room.tables()) == 1, 10, "the status over TLS")
        time.sleep(0.5)
        assert not impostor.link.connected  # certificate verification failed
    finally:
        impostor.stop()
        kiosk.stop()
        service.stop()
        broker.terminate()
        broker.wait(timeout=10)
    assert service.room.tables()[0]["status"]["score"] == [5, 4]
