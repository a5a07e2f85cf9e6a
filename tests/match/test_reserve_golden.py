"""Golden reserves from RULESETS.md and the rule texts, through the function and the CLI."""

from __future__ import annotations

import json

import pytest

from kiosk.cli import main
from kiosk.clock import ReserveError, initial_reserve_ms
from kiosk.rulesets import load_ruleset

MIN = 60_000


@pytest.mark.parametrize(
    ("name", "length", "score", "minutes"),
    [
        ("ga", 9, (0, 0), 18),  # GA "Time Control": 9 points -> 18 minutes
        ("biba", 11, (0, 0), 22),  # BIBA "Time Allowances": 2 min x 11
        ("biba", 11, (3, 2), 17),  # BIBA: minus 1 min per point scored by both
        ("jbl", 7, (0, 0), 18),  # JBL 3.4.5: 7 x 2.5 = 17.5 -> 18
        ("jbl", 5, (0, 0), 13),  # JBL 3.4.5: 5 x 2.5 = 12.5 -> 13
        ("jbl", 7, (2, 0), 15),  # JBL 3.4.5: 5-away/7-away -> (5 + 7) x 1.25 = 15
        ("jbl", 9, (4, 0), 17.5),  # JBL 3.4.5: 5-away/9-away = 14 x 1.25, no rounding stated
        ("ga", 9, (4, 4), 18),  # GA "Issuing Clocks": no reduction stated for a match under way
    ],
)
def test_golden_reserves_rulesets_md(
    name: str, length: int, score: tuple[int, int], minutes: float
) -> None:
    assert initial_reserve_ms(load_ruleset(name), length, score) == int(minutes * MIN)


def test_mso_reserve_is_the_directors_mso_clock_2_1() -> None:
    """MSO-clock 2.1: the director places minutes on each clock (timetable not in the text)."""
    mso = load_ruleset("mso")
    with pytest.raises(ReserveError, match="minutes: mso leaves the reserve to the director"):
        initial_reserve_ms(mso, 7)
    assert initial_reserve_ms(mso, 7, (2, 3), director_minutes=25) == 25 * MIN


@pytest.mark.parametrize(
    ("length", "score", "message"),
    [(0, (0, 0), "length"), (-3, (0, 0), "length"), (7, (7, 0), "score"), (7, (0, -1), "score")],
)
def test_bad_reserve_input_names_the_field(
    length: int, score: tuple[int, int], message: str
) -> None:
    with pytest.raises(ReserveError, match=f"^{message}:"):
        initial_reserve_ms(load_ruleset("jbl"), length, score)


def test_cli_json_jbl(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clock-allowance", "--ruleset", "jbl", "--length", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["ruleset"], out["delay_s"], out["reserve_s"]) == ("jbl", 12, 1080)
    assert out["rule"].startswith("JBL 3.4.5")


def test_cli_score_under_way_biba(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["clock-allowance", "--ruleset", "BIBA", "--length", "11", "--score", "3", "2"]
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reserve_s"] == 17 * 60
    assert main(argv) == 0
    assert "17:00" in capsys.readouterr().out


def test_cli_mso_needs_minutes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clock-allowance", "--ruleset", "mso", "--length", "7"]) == 2
    assert "--minutes" in capsys.readouterr().err
    assert main(["clock-allowance", "--ruleset", "mso", "--length", "7", "--minutes", "30"]) == 0
    assert "30:00" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ruleset", "fibs", "--length", "7"], "ruleset: unknown rule set 'fibs'"),
        (["--ruleset", "ga", "--length", "9", "--score", "9", "0"], "--score:"),
        (["--ruleset", "ga", "--length", "0"], "--length:"),
        (["--ruleset", "ga", "--length", "9", "--minutes", "0"], "--minutes:"),
    ],
)
def test_cli_bad_input_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["clock-allowance", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon-kiosk clock-allowance: ")
    assert message in err
    assert "Traceback" not in err
