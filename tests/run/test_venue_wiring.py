"""``gammon-kiosk run --venue``: the kiosk's pipeline publishing to a real mosquitto.

The embedded demo is driven headless through the kiosk's UI-loop work (``Kiosk.poll``) with its
exact labels as the camera; the director's dashboard service and a raw subscriber listen on the
same broker. Skipped with a reason when Debian's ``mosquitto`` is not installed.
"""

from __future__ import annotations

import base64
import dataclasses
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hardware.button_events import ButtonEvent, ButtonId, EventKind
from hardware.camera.replay import ReplaySource
from kiosk.cli import main
from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.demo import load_demo
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.frames import FramePipeline, FrameResult
from kiosk.pipeline.live import Kiosk, RunOptions
from kiosk.pipeline.venue_link import (
    OUTBOX_NAME,
    VenueConfigError,
    load_venue_config,
    status_fields,
)
from kiosk.referee import DirectorAction, new_referee
from kiosk.store import decode_snapshot
from kiosk.venue.broker import write_broker_dir
from kiosk.venue.link import MqttLink
from kiosk.venue.outbox import Outbox
from kiosk.venue.schema import Incident, decode
from kiosk.venue.topics import event_tables_filter
from tests.run.run_helpers import label_reader
from tests.venue.venue_helpers import EVENT, VenueBroker, free_port, now_ms

TABLE = "t07"


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VenueBroker]:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    directory = tmp_path_factory.mktemp("venue-broker")
    port = free_port()
    logins = write_broker_dir(directory, EVENT, [TABLE], port=port)
    venue_broker = VenueBroker(directory, port, logins)
    venue_broker.start()
    yield venue_broker
    venue_broker.stop()


def _config_file(tmp_path: Path, port: int, password: str) -> Path:
    (tmp_path / "mqtt-password").write_text(password + "\n", encoding="utf-8")
    path = tmp_path / "venue.toml"
    path.write_text(
        "[venue]\n"
        'host = "127.0.0.1"\n'
        f"port = {port}\n"
        f'event = "{EVENT}"\n'
        f'table = "{TABLE}"\n'
        'password_file = "mqtt-password"\n',
        encoding="utf-8",
    )
    return path


def _pump(kiosk: Kiosk, condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Run the kiosk's UI loop (every 20 ms) until ``condition``; fail naming ``what``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s} s waiting for {what}")
        kiosk.poll()
        time.sleep(0.02)


def _frames() -> list[FrameResult]:
    """The demo's frames read by its perfect camera, with the scripted presses and touches."""
    demo = load_demo()
    pipeline = FramePipeline(label_reader(demo), lambda t_ns: t_ns // 1_000_000, DemoDriver(demo))
    source = ReplaySource(demo.frames_dir)
    source.open()
    results = []
    while (frame := source.read()) is not None:
        results.append(pipeline.process(frame))
    source.close()
    return results


class Recorder:
    """A raw subscriber to every table topic of the event: each incident message received."""

    def __init__(self, broker: VenueBroker, directory: Path) -> None:
        self.incidents: list[Incident] = []
        self.link = MqttLink(
            broker.dashboard("wiring-recorder"),
            Outbox(directory / "recorder.db"),
            now_ms,
            subscriptions=(event_tables_filter(EVENT),),
            on_message=self._message,
        )

    def _message(self, topic: str, payload: bytes) -> None:
        message = decode(topic, payload)
        if isinstance(message, Incident):
            self.incidents.append(message)


def test_the_kiosk_publishes_takes_rulings_and_survives_a_broker_outage(
    broker: VenueBroker, tmp_path: Path
) -> None:
    demo = load_demo()
    config = load_venue_config(_config_file(tmp_path, broker.port, broker.logins[TABLE].password))
    service = DashboardService(
        DashboardConfig(EVENT, "unused", tmp_path / "dashboard", broker.dashboard("wiring-dash")),
        now_ms,
    )
    recorder = Recorder(broker, tmp_path)
    service.start()
    recorder.link.start()
    options = RunOptions(
        config=demo.config,
        camera=None,
        state_dir=tmp_path / "state",
        reader="labels",
        buttons="keyboard",
        venue=config,
    )
    kiosk = Kiosk(options, demo, time.monotonic_ns())
    venue = kiosk.venue
    assert venue is not None
    frames = _frames()
    half = len(frames) // 2
    try:
        assert service.link is not None
        assert service.link.wait_connected(10)
        assert recorder.link.wait_connected(10)
        assert venue.publisher.link.wait_connected(10)

        for result in frames[:half]:  # the first half of the demo, connected
            kiosk.results.put(result)
            kiosk.poll()

        def status() -> dict[str, object] | None:
            tables = {view["table"]: view for view in service.room.tables()}
            view = tables.get(TABLE)
            return None if view is None else view["status"]

        _pump(kiosk, lambda: status() is not None, 10, "the table's status")
        first = status()
        assert first is not None
        assert first["players"] == list(kiosk.match.seating.names)
        assert first["rule_set"] == "MSO"
        assert first["match_length"] == demo.config.match_length

        broker.stop()  # the venue network goes down mid-match
        _pump(kiosk, lambda: not venue.publisher.link.connected, 10, "the disconnection")
        for result in frames[half:]:  # the second half, offline: the game is won
            kiosk.results.put(result)
            kiosk.poll()
        for _ in range(2):  # presses before the next opening roll: incidents while offline
            kiosk.presses.put(ButtonEvent(EventKind.PRESS, ButtonId.LEFT, time.monotonic_ns()))
            kiosk.poll()
        _pump(kiosk, lambda: venue.publisher.pending_count() >= 3, 5, "messages in the outbox")
        broker.start()

        key = f"m{kiosk.opened.journal.match_id}-{kiosk.opened.journal.info.created_ms}"
        raised = {f"{key}-{i.id}": i.kind for i in kiosk.match.state.incidents}
        assert "game_won" in raised.values()
        assert "opening_press_wrong" in raised.values()

        def at_dashboard() -> set[str]:
            return {i["incident_id"] for i in service.room.incidents() if i["table"] == TABLE}

        _pump(kiosk, lambda: at_dashboard() == set(raised), 30, "every incident at the dashboard")
        _pump(kiosk, lambda: venue.publisher.pending_count() == 0, 10, "the outbox to drain")

        won = next(iid for iid, kind in raised.items() if kind == "game_won")
        message = service.room.incident(TABLE, won)
        assert message.incident_kind == "game_won"
        assert message.snapshot_jpeg is not None
        image = decode_snapshot(base64.b64decode(message.snapshot_jpeg))
        assert image.shape[2] == 3
        assert image.shape[0] > 100
        assert abs(message.at_ms - now_ms()) < 120_000  # wall clock, not match time

        press = next(iid for iid, kind in raised.items() if kind == "opening_press_wrong")
        service.send_ruling(TABLE, press, "warning", "wait for the roll", "Dana")

        def ruled() -> list[str]:
            return [i.detail for i in kiosk.match.state.incidents if i.kind == "director_ruling"]

        _pump(kiosk, lambda: len(ruled()) == 1, 10, "the ruling at the referee")
        number = press.rsplit("-", 1)[1]
        assert ruled() == [f"incident {number}: warning (Dana: wait for the roll)"]
        prompt = kiosk.table()["prompt"]
        assert isinstance(prompt, dict)
        assert prompt["kind"] == "notice"
        assert "warning" in str(prompt["text"])
        assert "wait for the roll" in str(prompt["text"])
        assert prompt["subject"] == "director_ruling"  # written in the table's language
        note = "wait for the roll"
        assert prompt["params"] == {"incident": number, "decision": "warning", "note": note}

        def acked() -> bool:
            summary = next(i for i in service.room.incidents() if i["incident_id"] == press)
            return bool(summary["ruling"] and summary["ruling"]["acked_ms"])

        _pump(kiosk, acked, 10, "the acknowledgement of the ruling")

        service.send_settings(
            {
                "rule_set": "JBL",
                "match_length": 7,
                "clock": {"enabled": True, "reserve_per_point_ms": 120_000, "allowance_ms": 12_000},
                "irregularities": "record",
            }
        )
        _pump(kiosk, lambda: kiosk.match.state.config.ruleset == "jbl", 10, "the settings")
        following = venue.match_config(demo.config)
        assert (following.ruleset, following.match_length, following.policy) == (
            "jbl",
            7,
            "silent",
        )
        assert following.reserve_ms == 7 * 120_000

        state = kiosk.match.state
        points = state.match.length - state.match.score[0]
        args = (("to", 0), ("points", points))
        kiosk.match.apply(DirectorAction("penalty", kiosk.now_ms(), args))
        _pump(kiosk, lambda: len(service.room.results()) == 1, 10, "the match's result")
        final = service.room.results()[0]
        assert final["winner"] == 0
        assert final["score"][0] == state.match.length
        record = service.room.result(final["id"])
        assert record is not None
        assert f" {state.match.length} point match" in record.mat
        assert "Game 1" in record.mat
        assert "Wins 2 points" in record.mat  # the demo's game: a double dropped

        everything = {f"{key}-{i.id}" for i in kiosk.match.state.incidents}
        _pump(kiosk, lambda: at_dashboard() == everything, 10, "the later incidents")
        _pump(
            kiosk,
            lambda: {i.incident_id for i in recorder.incidents} == everything,
            10,
            "the later incidents at the subscriber",
        )
    finally:
        if broker.process is None:
            broker.start()
        kiosk.close()
        recorder.link.stop()
        service.stop()

    message_ids: dict[str, set[str]] = {}
    for incident in recorder.incidents:
        message_ids.setdefault(incident.incident_id, set()).add(incident.id)
    assert all(len(ids) == 1 for ids in message_ids.values())  # never published twice
    assert len(service.room.incidents()) == len(everything)


def test_a_restored_match_offers_its_incidents_again_under_the_same_ids(
    broker: VenueBroker, tmp_path: Path
) -> None:
    demo = load_demo()
    config = load_venue_config(_config_file(tmp_path, broker.port, broker.logins[TABLE].password))
    options = RunOptions(
        config=demo.config,
        camera=None,
        state_dir=tmp_path / "state",
        reader="labels",
        buttons="keyboard",
        venue=dataclasses.replace(config, client_id="kiosk-restore-test"),
    )
    kiosk = Kiosk(options, demo, time.monotonic_ns())
    for _ in range(2):  # presses before the opening roll: incidents
        kiosk.presses.put(ButtonEvent(EventKind.PRESS, ButtonId.LEFT, time.monotonic_ns()))
        kiosk.poll()
    raised = len(kiosk.match.state.incidents)
    kiosk.close()  # as after a power cut: the match stays unfinished in the journal

    def incident_rows() -> int:
        with sqlite3.connect(tmp_path / "state" / OUTBOX_NAME) as db:
            (count,) = db.execute(
                "SELECT COUNT(*) FROM outbox WHERE topic LIKE '%/incident'"
            ).fetchone()
        return int(count)

    assert raised >= 1
    assert incident_rows() == raised
    restarted = Kiosk(options, None, time.monotonic_ns())  # no demo: the journal is restored
    assert restarted.opened.restored
    assert len(restarted.match.state.incidents) >= raised
    assert restarted.venue is not None
    restarted.venue.flush()
    assert incident_rows() == len(restarted.match.state.incidents)  # none queued twice
    restarted.close()


def test_a_bad_venue_file_is_refused_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "venue.toml"
    cases = {
        "": "no [venue] table",
        '[venue]\nhost = "h"\nevent = "e"\ntable = "t 1"\n': "table id 't 1'",
        '[venue]\nhost = "h"\nevent = "e"\ntable = "t1"\nport = 0\n': "port",
        '[venue]\nhost = "h"\nevent = "e"\ntable = "t1"\nspeed = 3\n': "speed: unknown key",
        '[venue]\nhost = "h"\nevent = "e"\ntable = "t1"\n': "$GAMMON_MQTT_PASSWORD is not set",
        '[venue]\nhost = "h"\nevent = "e"\ntable = "t1"\npassword_file = "nope"\n': "nope",
        '[venue]\nevent = "e"\ntable = "t1"\n': "host",
    }
    for text, expected in cases.items():
        path.write_text(text, encoding="utf-8")
        with pytest.raises(VenueConfigError) as caught:
            load_venue_config(path, environ={})
        assert expected in str(caught.value), text
    path.write_text(
        '[venue]\nhost = "h"\nevent = "e"\ntable = "t1"\ntls_ca = "ca.crt"\n', encoding="utf-8"
    )
    config = load_venue_config(path, environ={"GAMMON_MQTT_PASSWORD": "s3cret"})
    assert (config.port, config.username, config.password) == (8883, "t1", "s3cret")
    assert config.tls is not None
    assert config.tls.ca_file == tmp_path / "ca.crt"
    assert "s3cret" not in repr(config)


def test_run_refuses_a_bad_venue_file_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "venue.toml"
    assert main(["run", "--venue", str(missing)]) == 2
    assert f"--venue: {missing}: cannot read" in capsys.readouterr().err


def test_the_status_tells_the_dashboard_the_table_at_a_glance() -> None:
    demo = load_demo()
    state = new_referee(demo.config)
    fields = status_fields(state, ("Ann", "Bob"), 0)
    assert fields["state"] == "setup"
    assert fields["turn"] is None
    assert fields["score"] == (0, 0)
    assert fields["crawford"] == "pre"
    assert fields["clocks"]["enabled"] is (state.clock is not None)
