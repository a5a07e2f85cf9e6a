"""``check --jsonl`` lines answered whole in C against the pure-Python stream: identical output
for JSON written in many ways (separators, key order, whitespace, ids of every type) and for
lines that are not plain or not JSON at all. Skipped where the extension is not built."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys

import pytest

from kiosk.cli.check import check_stream
from kiosk.rules.fast import PURE_VARIABLE, load_speedups
from tests.rules_speedups.speedup_requests import requests

speedups = pytest.importorskip("kiosk.rules._speedups")

LINES = 20_000
WHITESPACE = ["", " ", "  ", "\t", " \t "]
IDS: list[object] = [
    0,
    7,
    -12,
    10**17,
    10**18,
    10**30,
    "game 3, move 12",
    "",
    'with "quotes"',
    "tab\there",
    "caf\u00e9",
    "\u2680",
    None,
    True,
    1.5,
    [1, 2],
    {"game": 3},
]


def _render(rng: random.Random, record: dict[str, object]) -> str:
    """``record`` as one JSON line, written in one of many equivalent or odd ways."""
    style = rng.random()
    if style < 0.4:
        return json.dumps(record)
    if style < 0.55:
        return json.dumps(record, separators=(",", ":"))
    if style < 0.65:
        return json.dumps(record, ensure_ascii=False, indent=None, sort_keys=True)
    items = list(record.items())
    rng.shuffle(items)

    def space() -> str:
        return rng.choice(WHITESPACE)

    parts = [
        f"{space()}{json.dumps(key)}{space()}:{space()}{json.dumps(value)}{space()}"
        for key, value in items
    ]
    text = space() + "{" + ",".join(parts) + "}" + space()
    damage = rng.random()
    if damage < 0.03:
        return text[: rng.randrange(len(text) + 1)]
    if damage < 0.05:
        return text.replace("}", ', "extra": 1}', 1)
    if damage < 0.07:
        return text.replace("{", '{"position": "4HPwATDgc/ABMA", ', 1)
    if damage < 0.09:
        return text + rng.choice(["x", "}", ",", "{}"])
    if damage < 0.1:
        return rng.choice(["{}", "[]", "null", "  ", "", '"text"', "7"])
    return text


def _stream(seed: int, count: int) -> str:
    rng = random.Random(seed)
    lines = []
    for record in requests(count, seed):
        if rng.random() < 0.3:
            choice = rng.choice([*IDS, "missing"])
            if choice == "missing":
                record.pop("id", None)
            else:
                record["id"] = choice
        lines.append(_render(rng, record) + rng.choice(["\n", "\n", "\r\n"]))
    return "".join(lines)


@pytest.mark.parametrize("seed", [11, 12])
def test_accelerated_stream_equals_pure_stream(seed: int) -> None:
    text = _stream(seed, LINES // 2)
    fast, pure = io.StringIO(), io.StringIO()
    answered = check_stream(io.StringIO(text), fast)
    assert check_stream(io.StringIO(text), pure, accelerated=False) == answered
    assert fast.getvalue() == pure.getvalue()
    # Most lines took the C path (the others: other ids, damaged or unusual JSON, bad fields).
    in_c = sum(speedups.check_line(line) is not None for line in io.StringIO(text))
    assert in_c > LINES // 4


def test_plain_lines_are_answered_in_c() -> None:
    line = '{"id": 3, "position": "4HPwATDgc/ABMA", "dice": [3, 1], "after": "sGfwATDgc/ABMA"}'
    assert speedups.check_line(line) == '{"id": 3, "legal": true, "play": "8/5 6/5"}\n'
    assert speedups.check_line(line.replace("[3, 1]", "[3, 1.0]")) is None
    assert speedups.check_line(line.replace('"id": 3', '"id": -0')) is None


def test_pure_variable_disables_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PURE_VARIABLE, "0")
    assert load_speedups() is speedups
    monkeypatch.setenv(PURE_VARIABLE, "1")
    assert load_speedups() is None


def test_command_answers_the_same_with_and_without_the_extension() -> None:
    text = _stream(13, 2000)
    outputs = []
    for pure in ("", "1"):
        completed = subprocess.run(
            [sys.executable, "-m", "kiosk", "check", "--jsonl"],
            input=text,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, PURE_VARIABLE: pure},
        )
        outputs.append(completed.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") > 1900


def test_check_takes_four_arguments() -> None:
    with pytest.raises(TypeError, match="4 arguments"):
        speedups.check("4HPwATDgc/ABMA", 3, 1)
