"""``python -m kiosk.dashboard serve|hash-password``: run the director's dashboard.

``serve`` reads its configuration from the environment (``KEY=value`` files given with
``--env-file``, e.g. the ``dashboard.env`` that ``kiosk.venue.broker`` writes, fill the
variables not already set; the first file wins):

- ``GAMMON_EVENT``: the event name; ``GAMMON_DIRECTOR_PASSWORD_HASH``: from ``hash-password``;
- ``GAMMON_MQTT_HOST``, ``GAMMON_MQTT_PORT``, ``GAMMON_MQTT_USER``, ``GAMMON_MQTT_PASSWORD``,
  optional ``GAMMON_MQTT_CA`` (CA file: connect with TLS);
- ``GAMMON_DASHBOARD_HOST`` (default 127.0.0.1), ``GAMMON_DASHBOARD_PORT`` (8080),
  ``GAMMON_DASHBOARD_STATE`` (directory; default ``$STATE_DIRECTORY`` or ``./dashboard-state``),
  ``GAMMON_SECURE_COOKIE=1`` when served over HTTPS.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from kiosk.dashboard.auth import PasswordHashError, check_hash_format, hash_password
from kiosk.venue.link import BrokerConfig, TlsOptions
from kiosk.venue.topics import TopicError, check_name


class ConfigError(ValueError):
    """A missing or invalid configuration variable (the message names it)."""


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines (``#`` comments and blank lines skipped)."""
    values = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "=" not in stripped:
            raise ConfigError(f"{path}:{number}: expected KEY=value")
        key, value = stripped.split("=", 1)
        values[key.strip()] = value.strip()
    return values


def _require(env: Mapping[str, str], key: str) -> str:
    value = env.get(key, "")
    if not value:
        raise ConfigError(f"{key} is not set")
    return value


def _port(env: Mapping[str, str], key: str, default: int) -> int:
    text = env.get(key, str(default))
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"{key}: {text!r} is not a port number")
    return int(text)


def broker_from_env(env: Mapping[str, str], event: str) -> BrokerConfig:
    """The dashboard's broker connection from ``GAMMON_MQTT_*``."""
    ca = env.get("GAMMON_MQTT_CA")
    return BrokerConfig(
        host=env.get("GAMMON_MQTT_HOST", "127.0.0.1"),
        port=_port(env, "GAMMON_MQTT_PORT", 1883),
        username=_require(env, "GAMMON_MQTT_USER"),
        password=_require(env, "GAMMON_MQTT_PASSWORD"),
        client_id=f"dashboard-{event}",
        tls=None if not ca else TlsOptions(Path(ca)),
    )


def serve(env: Mapping[str, str]) -> None:
    """Run the dashboard until interrupted."""
    import uvicorn

    from kiosk.dashboard.app import create_app
    from kiosk.dashboard.service import DashboardConfig, DashboardService

    event = _require(env, "GAMMON_EVENT")
    try:
        check_name("event", event)
    except TopicError as error:
        raise ConfigError(f"GAMMON_EVENT: {error}") from None
    password_hash = _require(env, "GAMMON_DIRECTOR_PASSWORD_HASH")
    try:
        check_hash_format(password_hash)
    except PasswordHashError as error:
        raise ConfigError(f"GAMMON_DIRECTOR_PASSWORD_HASH: {error}") from None
    state = env.get("GAMMON_DASHBOARD_STATE") or env.get("STATE_DIRECTORY") or "dashboard-state"
    config = DashboardConfig(
        event=event,
        password_hash=password_hash,
        state_dir=Path(state),
        broker=broker_from_env(env, event),
        secure_cookie=env.get("GAMMON_SECURE_COOKIE") == "1",
    )
    service = DashboardService(config, lambda: time.time_ns() // 1_000_000)
    uvicorn.run(
        create_app(service),
        host=env.get("GAMMON_DASHBOARD_HOST", "127.0.0.1"),
        port=_port(env, "GAMMON_DASHBOARD_PORT", 8080),
        log_level="info",
        timeout_graceful_shutdown=2,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command line; exit 2 with a message naming the bad setting."""
    parser = argparse.ArgumentParser(
        prog="python -m kiosk.dashboard",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    serve_parser = sub.add_parser("serve", help="run the dashboard")
    serve_parser.add_argument(
        "--env-file", type=Path, action="append", default=[], help="KEY=value file of settings"
    )
    sub.add_parser("hash-password", help="print the hash of a director password (from stdin)")
    args = parser.parse_args(argv)
    if args.command == "hash-password":
        password = (
            getpass.getpass("director password: ") if sys.stdin.isatty() else sys.stdin.readline()
        )
        password = password.rstrip("\n")
        if len(password) < 8:
            print("hash-password: use at least 8 characters", file=sys.stderr)
            return 2
        print(hash_password(password))
        return 0
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        env = dict(os.environ)
        for path in args.env_file:
            env = {**read_env_file(path), **env}
        serve(env)
    except (ConfigError, OSError) as error:
        print(f"kiosk.dashboard: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
