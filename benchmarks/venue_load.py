"""Venue load: N tables publish status every second and incidents now and then; how long does an
incident take to reach a director's browser stream, and what CPU do the broker and the dashboard
use?

Everything runs on the loopback: a mosquitto started here (Debian's ``mosquitto``), the dashboard
as its own process (``python -m kiosk.dashboard serve``), the kiosks as KioskPublishers in this
process (each with its own MQTT connection and outbox), and a server-sent-events client logged in
as a director. Latency is incident ``sent_ms`` (kiosk clock) to the event read from the stream
(same machine clock). CPU is utime+stime from /proc over the measured window, in % of one core.

Targets (issue 7): 200 tables, p99 <= 1 s, broker and dashboard each <= 50 % of one core.

    .venv/bin/python benchmarks/venue_load.py [--tables 200] [--seconds 30]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from kiosk.dashboard.auth import hash_password
from kiosk.venue.broker import DASHBOARD_USER, start_mosquitto, table_ids, write_broker_dir
from kiosk.venue.link import BrokerConfig
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity

EVENT = "bench"
PASSWORD = "benchmark-password"
POSITION = "4HPwATDgc/ABMA"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_http(url: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout_s} s")


class StreamClient:
    """A logged-in director's event stream; records each incident's latency in ms."""

    def __init__(self, base: str) -> None:
        self.latencies: list[int] = []
        self.measuring = False
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        login = urllib.request.Request(
            base + "/api/login",
            data=json.dumps({"name": "bench", "password": PASSWORD}).encode(),
            headers={"Content-Type": "application/json"},
        )
        self._opener.open(login, timeout=10).read()
        self._stream = self._opener.open(base + "/api/stream", timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = ""
        for raw in self._stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "incident":
                data = json.loads(line[6:])
                if self.measuring and data["ruling"] is None:
                    self.latencies.append(now_ms() - data["sent_ms"])


def percentile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(tables: int, seconds: float, incident_every_s: float) -> int:
    work = Path(tempfile.mkdtemp(prefix="venue-bench-"))
    mqtt_port, http_port = free_port(), free_port()
    ids = table_ids(tables)
    logins = write_broker_dir(work / "broker", EVENT, ids, port=mqtt_port)
    broker = start_mosquitto(work / "broker", mqtt_port)
    env = {
        **os.environ,
        "GAMMON_EVENT": EVENT,
        "GAMMON_DIRECTOR_PASSWORD_HASH": hash_password(PASSWORD),
        "GAMMON_MQTT_PORT": str(mqtt_port),
        "GAMMON_MQTT_USER": DASHBOARD_USER,
        "GAMMON_MQTT_PASSWORD": logins[DASHBOARD_USER].password,
        "GAMMON_DASHBOARD_PORT": str(http_port),
        "GAMMON_DASHBOARD_STATE": str(work / "dashboard"),
    }
    dashboard = subprocess.Popen(
        [sys.executable, "-m", "kiosk.dashboard", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(work / "dashboard.log").open("wb"),
    )
    kiosks: list[KioskPublisher] = []
    try:
        base = f"http://127.0.0.1:{http_port}"
        wait_http(base + "/", 20)
        for table in ids:
            config = BrokerConfig(
                "127.0.0.1", mqtt_port, table, logins[table].password, f"bench-{table}"
            )
            kiosk = KioskPublisher(
                TableIdentity(EVENT, table),
                config,
                Outbox(":memory:"),
                now_ms,
                on_ruling=lambda ruling: None,
                on_settings=lambda settings: None,
            )
            kiosk.start()
            kiosks.append(kiosk)
        stream = StreamClient(base)
        rng = random.Random(7)
        status = {
            "players": ("Ann", "Bob"),
            "score": (1, 2),
            "match_length": 7,
            "crawford": "pre",
            "cube": {"value": 2, "owner": 0},
            "state": "playing",
            "turn": 0,
            "rule_set": "MSO",
        }
        warmup_s = 5.0
        start = time.monotonic()
        cpu_start: tuple[float, float] | None = None
        next_status = [start + rng.random() for _ in kiosks]
        next_incident = [start + warmup_s + rng.expovariate(1 / incident_every_s) for _ in kiosks]
        incidents = 0
        while (elapsed := time.monotonic() - start) < warmup_s + seconds:
            if cpu_start is None and elapsed >= warmup_s:
                cpu_start = (cpu_seconds(broker.pid), cpu_seconds(dashboard.pid))
                stream.measuring = True
            now = time.monotonic()
            for index, kiosk in enumerate(kiosks):
                if now >= next_status[index]:
                    reserve = 600_000 - int(elapsed * 1000)
                    clocks = {
                        "enabled": True,
                        "reserve_ms": (reserve, 600_000),
                        "allowance_ms": 12_000,
                        "running": 0,
                    }
                    kiosk.publish_status(**status, clocks=clocks)
                    next_status[index] += 1.0
                if now >= next_incident[index] and elapsed < warmup_s + seconds - 2:
                    incidents += 1
                    kiosk.publish_incident(
                        incident_id=f"i{incidents}",
                        incident_kind="illegal-move",
                        rule="MSO 4.2",
                        at_ms=now_ms(),
                        position_id=POSITION,
                        dice=(6, 5),
                        play_seen="24/18 13/9",
                        legal_plays=["24/13", "24/18 13/8", "13/8 13/7", "13/2"],
                    )
                    next_incident[index] += rng.expovariate(1 / incident_every_s)
            time.sleep(0.01)
        assert cpu_start is not None
        broker_cpu = (cpu_seconds(broker.pid) - cpu_start[0]) / seconds * 100
        dashboard_cpu = (cpu_seconds(dashboard.pid) - cpu_start[1]) / seconds * 100
        time.sleep(2)  # the last incidents still in flight
        latencies = stream.latencies
        print(f"tables: {tables}, {seconds:.0f} s measured after {warmup_s:.0f} s")
        print(f"incidents published: {incidents}, received on the stream: {len(latencies)}")
        if latencies:
            print(
                f"incident -> dashboard stream latency ms: p50 {percentile(latencies, 0.5)}, "
                f"p99 {percentile(latencies, 0.99)}, max {max(latencies)}"
            )
        print(f"CPU, % of one core: mosquitto {broker_cpu:.1f}, dashboard {dashboard_cpu:.1f}")
        ok = (
            len(latencies) == incidents
            and bool(latencies)
            and percentile(latencies, 0.99) <= 1000
            and broker_cpu <= 50
            and dashboard_cpu <= 50
        )
        print("targets met" if ok else "TARGETS MISSED")
        return 0 if ok else 1
    finally:
        for kiosk in kiosks:
            kiosk.stop()
        dashboard.terminate()
        dashboard.wait(timeout=10)
        broker.terminate()
        broker.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window (max 120)")
    parser.add_argument("--incident-every", type=float, default=20.0, help="mean s per table")
    args = parser.parse_args()
    return run(args.tables, min(args.seconds, 120.0), args.incident_every)


if __name__ == "__main__":
    sys.exit(main())
