"""The dashboard in headless Chromium (Debian's, driven by Playwright) on a phone-sized screen:
an incident from a kiosk appears, the director rules, the kiosk receives the ruling and the
dashboard shows it was received. Skipped with a reason without chromium or Playwright."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.dashboard.app import create_app
from kiosk.dashboard.auth import hash_password
from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from kiosk.venue.schema import Ruling
from tests.venue.venue_helpers import (
    EVENT,
    ServerThread,
    VenueBroker,
    free_port,
    incident_fields,
    now_ms,
    status_fields,
    wait_for,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "director password 1"


@pytest.fixture
def page() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    if shutil.which(CHROMIUM) is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        yield context.new_page()
        browser.close()


def test_incident_ruled_from_a_phone_reaches_the_kiosk(
    venue_broker: VenueBroker, tmp_path: Path, page: Any
) -> None:
    config = DashboardConfig(
        EVENT, hash_password(PASSWORD), tmp_path / "d", venue_broker.dashboard("dash-browser")
    )
    service = DashboardService(config, now_ms)
    rulings: list[Ruling] = []
    kiosk = KioskPublisher(
        TableIdentity(EVENT, "t010"),
        venue_broker.config("t010", "kiosk-browser"),
        Outbox(tmp_path / "kiosk.db"),
        now_ms,
        on_ruling=rulings.append,
        on_settings=lambda s: None,
    )
    with ServerThread(create_app(service), free_port()) as server:
        kiosk.start()
        try:
            assert service.link is not None
            assert service.link.wait_connected(10)
            kiosk.publish_status(**status_fields((2, 3)))
            page.goto(server.url)
            page.fill("#login-name", "Dana")
            page.fill("#login-password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_selector("#table-t010.st-playing", timeout=10_000)
            assert page.inner_text("#link-state") == "live"
            assert "2 : 3\n7-point match" in page.inner_text("#table-t010")

            kiosk.publish_incident(**incident_fields("inc-browser", now_ms()))
            page.wait_for_selector("#table-t010.st-attention", timeout=10_000)
            page.click("nav button[data-tab=incidents]")
            page.click("[data-incident='t010/inc-browser']", timeout=10_000)
            page.wait_for_function(
                "document.getElementById('detail-diagram').naturalWidth > 0", timeout=10_000
            )
            assert "MSO 4.2" in page.inner_text("#detail-title")
            assert page.locator("#legal-plays button").count() == 5  # the play seen + 4 legal
            page.click("#legal-plays button >> text=24/13")
            assert "24/13" in page.inner_text("#detail-caption")
            page.screenshot(path=str(tmp_path / "incident.png"), full_page=True)
            page.select_option("#decision", "replay-legal")
            page.fill("#ruling-note", "play 24/13")
            page.click("#send-ruling")

            wait_for(lambda: len(rulings) == 1, 10, "the ruling at the kiosk")
            page.wait_for_function(
                "document.getElementById('ruling-state').textContent"
                ".includes('received at the table')",
                timeout=10_000,
            )
        finally:
            kiosk.stop()
    [ruling] = rulings
    assert (ruling.incident_id, ruling.decision, ruling.note, ruling.director) == (
        "inc-browser",
        "replay-legal",
        "play 24/13",
        "Dana",
    )
