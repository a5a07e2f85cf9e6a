"""``gammon-kiosk gin``: the JSON contract, XGID input, the match verdict, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.gin import BearoffTables
from kiosk.rules import MatchInfo, Position, match_id, position_id

RACE = Position.from_points({1: 2, 2: 1}, {6: 3, 5: 2})


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(args) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_certain_win_and_match(tables_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    info = MatchInfo(cube_value=2, player_on_roll=1, match_length=5, score=(1, 3))
    document = run_json(
        [
            "gin",
            position_id(RACE),
            "--match-id",
            match_id(info),
            "--json",
            "--tables",
            str(tables_dir),
        ],
        capsys,
    )
    assert document["contact"] is False
    assert document["win"] == "certain"
    assert document["gammon_win"] == "impossible"
    assert document["match"] == {
        "match_id": match_id(info),
        "player": 1,
        "needed": [4, 2],
        "certain_points": [0, 2],
        "match_win": "certain",
    }


def test_xgid_gives_the_match(tables_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk.rules import Xgid, format_xgid

    text = format_xgid(Xgid(RACE, True, cube_log2=0, score=(0, 0), match_length=1))
    document = run_json(["gin", text, "--json", "--tables", str(tables_dir)], capsys)
    assert document["position_id"] == position_id(RACE)
    match = document["match"]
    assert isinstance(match, dict)
    assert match["match_win"] == "certain"


def test_contact_and_text_output(tables_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gin", "4HPwATDgc/ABMA", "--tables", str(tables_dir)]) == 0
    out = capsys.readouterr().out
    assert "contact" in out
    assert "win: possible" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gin", "nonsense"], "POSITION:"),
        (["gin", "4HPwATDgc/ABMA", "--match-id", "xx"], "--match-id:"),
        (["gin", "4HPwATDgc/ABMA", "--ruleset", "fibs"], "--ruleset:"),
    ],
)
def test_bad_input(
    args: list[str], message: str, tables_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*args, "--tables", str(tables_dir)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_cache_is_rebuilt_when_damaged(tables_dir: Path, tmp_path: Path) -> None:
    from kiosk.gin.cache import FILE_NAME, decode, encode, load_tables

    good = (tables_dir / FILE_NAME).read_bytes()
    tables = decode(good)
    assert tables is not None
    assert encode(tables) == good
    damaged = bytearray(good)
    damaged[100] ^= 1
    assert decode(bytes(damaged)) is None
    assert decode(good[:-1]) is None
    assert load_tables(tables_dir).most == tables.most


def test_the_kiosk_builds_missing_tables_in_a_child_process(
    tables: BearoffTables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build on a thread of the kiosk would hold the GIL and starve its vision thread."""
    from kiosk.gin import cache

    def not_here(max_checkers: int = 15) -> BearoffTables:
        raise AssertionError("the tables were built in the kiosk's own process")

    monkeypatch.setattr(cache, "build_tables", not_here)
    assert cache.load_tables(tmp_path, build_apart=True) == tables
    assert (tmp_path / cache.FILE_NAME).read_bytes() == cache.encode(tables)
