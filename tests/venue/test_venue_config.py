"""Configuration errors name what is wrong: the dashboard's environment, the broker command."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kiosk.dashboard.__main__ import ConfigError, broker_from_env, main, read_env_file, serve
from kiosk.dashboard.auth import hash_password, verify_password
from kiosk.venue import broker
from kiosk.venue.topics import TopicError


def test_env_file_lines_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "dashboard.env"
    path.write_text("# comment\n\nGAMMON_EVENT=open26\nGAMMON_MQTT_PASSWORD=a=b\n")
    assert read_env_file(path) == {"GAMMON_EVENT": "open26", "GAMMON_MQTT_PASSWORD": "a=b"}
    path.write_text("GAMMON_EVENT open26\n")
    with pytest.raises(ConfigError, match=r"dashboard\.env:1: expected KEY=value"):
        read_env_file(path)


def test_missing_or_bad_settings_are_named() -> None:
    with pytest.raises(ConfigError, match="GAMMON_EVENT is not set"):
        serve({})
    with pytest.raises(ConfigError, match="GAMMON_EVENT: event 'a/b'"):
        serve({"GAMMON_EVENT": "a/b"})
    with pytest.raises(ConfigError, match=r"GAMMON_DIRECTOR_PASSWORD_HASH: .*expected scrypt"):
        serve({"GAMMON_EVENT": "open26", "GAMMON_DIRECTOR_PASSWORD_HASH": "plain"})
    with pytest.raises(ConfigError, match="GAMMON_MQTT_PORT: 'x' is not a port"):
        broker_from_env({"GAMMON_MQTT_PORT": "x"}, "open26")
    with pytest.raises(ConfigError, match="GAMMON_MQTT_USER is not set"):
        broker_from_env({}, "open26")


def test_hash_password_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("long enough secret\n"))
    assert main(["hash-password"]) == 0
    assert verify_password("long enough secret", capsys.readouterr().out.strip())
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert main(["hash-password"]) == 2
    assert "at least 8 characters" in capsys.readouterr().err
    assert not verify_password("wrong", hash_password("right password"))


def test_broker_command_refuses_to_overwrite_and_bad_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "passwd").write_text("")
    with pytest.raises(SystemExit) as exit_info:
        broker.main([str(tmp_path), "--event", "e1", "--tables", "3"])
    assert exit_info.value.code == 2
    assert "--force replaces every credential" in capsys.readouterr().err
    assert broker.main([str(tmp_path / "new"), "--event", "e1", "--tables", "0"]) == 2
    assert "tables: 0 is not 1-999" in capsys.readouterr().err
    with pytest.raises(TopicError, match="reserved for the dashboard"):
        broker.write_broker_dir(tmp_path / "x", "e1", [broker.DASHBOARD_USER])
