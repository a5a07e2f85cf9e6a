"""``gammon-kiosk replay``: the JSON contract of DESIGN.md section 4, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.cli import main

DATA = Path(__file__).parent / "data"


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DATA / "gnubg-5pt-seed11.mat"), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"match_length", "players", "games", "final_score", "flags"}
    assert document["match_length"] == 5
    assert document["players"] == ["gnubg", "root"]
    assert document["final_score"] == [4, 5]
    assert document["flags"] == []
    game = document["games"][0]
    assert set(game) == {"number", "score", "crawford", "decisions", "winner", "points"}
    first = game["decisions"][0]
    assert set(first) == {"player", "kind", "dice", "play", "position_id", "match_id", "flags"}
    assert first["position_id"] == "4HPwATDgc/ABMA"
    kinds = {d["kind"] for g in document["games"] for d in g["decisions"]}
    assert kinds <= {"move", "cannot-move", "double", "take", "drop", "resign", "win"}


def test_flags_still_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (DATA / "gnubg-3pt-seed7.mat").read_text("utf-8").replace("51: 13/8 24/23", "51: 13/8")
    path = tmp_path / "flagged.mat"
    path.write_text(text, "utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    flags = json.loads(capsys.readouterr().out)["flags"]
    assert flags[0] == {
        "game": 1,
        "move": 1,
        "line": 7,
        "kind": "illegal-play",
        "detail": "'13/8' with 51",
    }
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}:7: game 1 move 1: illegal-play" in out


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DATA / "gnubg-3pt-seed7.mat"), "--ruleset", "BIBA"]) == 0
    out = capsys.readouterr().out
    assert "final score 4-2" in out
    assert "0 irregularities flagged" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (b"\xff\xfe junk", "not UTF-8"),
        (b" 5 point match\n Game 1\n nonsense\n", ":3: expected the score line"),
    ],
)
def test_bad_input_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    path = tmp_path / "bad.mat"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon-kiosk replay: ")
    assert message in err
    assert "Traceback" not in err


def test_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DATA / "gnubg-3pt-seed7.mat"), "--ruleset", "fibs"]) == 2
    assert "--ruleset" in capsys.readouterr().err


def test_money_session_with_jacoby_override(capsys: pytest.CaptureFixture[str]) -> None:
    """gnubg money sessions use the Jacoby rule (backgammon-rules.txt 'Optional Rule')."""
    path = str(DATA / "gnubg-money-seed5.mat")
    assert main(["replay", path, "--set", "cube.jacoby=true", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["match_length"], document["final_score"]) == (0, [15, 5])
    assert document["flags"] == []


@pytest.mark.parametrize("item", ["cube.jacobi=true", "nonsense", "cube.jacoby=7"])
def test_bad_override(item: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DATA / "gnubg-money-seed5.mat"), "--set", item]) == 2
    assert "--set:" in capsys.readouterr().err
