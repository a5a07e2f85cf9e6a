"""The ``plays`` and ``check`` commands (DESIGN.md section 4)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from kiosk.cli import main
from kiosk.cli.check import check_stream

START_ID = "4HPwATDgc/ABMA"
AFTER_8_5_6_5 = "sGfwATDgc/ABMA"  # start, 3-1 played 8/5 6/5, opponent on roll (gnubg)


def test_plays_lists_the_sixteen_opening_three_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", START_ID, "3", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16
    assert "8/5 6/5" in lines


def test_plays_json_gives_each_play_with_the_position_after(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["plays", START_ID, "3", "1", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["position"] == START_ID
    assert answer["dice"] == [3, 1]
    assert {"play": "8/5 6/5", "after": AFTER_8_5_6_5} in answer["plays"]


def test_plays_accepts_an_xgid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "6", "5"]) == 0
    assert "24/13" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["plays", "4HPwATDgc/AB", "3", "1"], "position: a Position ID has 14 characters"),
        (["plays", START_ID, "7", "1"], "dice: first die must be an integer 1-6"),
        (["plays", START_ID, "3", "x"], "dice: second die"),
    ],
)
def test_plays_bad_input_exits_non_zero_with_the_field_named(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert fragment in captured.err
    assert "Traceback" not in captured.err


def _lines(*records: object) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def test_check_answers_each_line_in_order_with_errors_in_place() -> None:
    stdin = io.StringIO(
        _lines(
            {"id": 7, "position": START_ID, "dice": [3, 1], "after": AFTER_8_5_6_5},
            {"id": 8, "position": START_ID, "dice": [3, 1], "after": START_ID},
            {"id": 9, "position": "nonsense", "dice": [3, 1], "after": START_ID},
            "{broken json",
            "",
            {"id": "x", "position": START_ID, "dice": [3], "after": START_ID},
            {"id": 11, "position": START_ID, "dice": [3, 1]},
            [1, 2],
            {"id": 12, "position": START_ID, "dice": [3, 1], "after": "4HPwATDgc/AB!A"},
        )
    )
    out = io.StringIO()
    assert check_stream(stdin, out) == 8
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"id": 7, "legal": True, "play": "8/5 6/5"}
    assert answers[1]["id"] == 8
    assert answers[1]["legal"] is False
    assert answers[1]["closest"] == ["13/9", "24/20", "6/2", "8/4"]
    assert answers[2] == {"id": 9, "error": "position: a Position ID has 14 characters: 'nonsense'"}
    assert answers[3]["id"] is None
    assert answers[3]["error"].startswith("json: ")
    assert answers[4]["error"].startswith("dice: expected two integers")
    assert answers[5] == {"id": 11, "error": "after: missing"}
    assert answers[6] == {"id": None, "error": "line: expected a JSON object"}
    assert answers[7]["error"].startswith("after: not base64")


def test_check_unplayable_roll_is_legal_only_unchanged() -> None:
    """DESIGN.md: a roll that cannot be played is legal only when ``after`` is the unchanged
    board written with the opponent on roll."""
    from kiosk.rules.ids import position_id
    from kiosk.rules.position import Position

    closed = Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    stdin = io.StringIO(
        _lines(
            {
                "id": 1,
                "position": position_id(closed),
                "dice": [6, 5],
                "after": position_id(closed.swapped()),
            },
            {
                "id": 2,
                "position": position_id(closed),
                "dice": [6, 5],
                "after": position_id(closed),
            },
        )
    )
    out = io.StringIO()
    check_stream(stdin, out)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"id": 1, "legal": True, "play": ""}
    assert second["legal"] is False


class _Interleaved:
    """Input that checks each answer was written before the next line is read."""

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        self.lines = lines
        self.out = out

    def __iter__(self) -> Iterator[str]:
        for index, line in enumerate(self.lines):
            assert self.out.getvalue().count("\n") == index
            yield line


def test_check_streams_one_answer_per_line_before_reading_the_next() -> None:
    record = {"position": START_ID, "dice": [3, 1], "after": AFTER_8_5_6_5}
    lines = [json.dumps({"id": i, **record}) + "\n" for i in range(50)]
    out = io.StringIO()
    check_stream(_Interleaved(lines, out), out)  # type: ignore[arg-type]
    ids = [json.loads(line)["id"] for line in out.getvalue().splitlines()]
    assert ids == list(range(50))


def test_check_command_as_a_process() -> None:
    record = {"position": START_ID, "dice": [3, 1], "after": AFTER_8_5_6_5}
    stdin = "".join(json.dumps({"id": i, **record}) + "\n" for i in range(2000))
    completed = subprocess.run(
        [sys.executable, "-m", "kiosk", "check", "--jsonl"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = completed.stdout.splitlines()
    assert len(answers) == 2000
    assert json.loads(answers[-1]) == {"id": 1999, "legal": True, "play": "8/5 6/5"}
