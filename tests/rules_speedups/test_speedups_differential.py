"""The C accelerator against the pure-Python rules core: identical ``check`` answers to 100,000
requests from random games (see speedup_requests). Skipped where the extension is not built."""

from __future__ import annotations

import pytest

from kiosk.cli.check import check_record, check_record_pure
from tests.rules_speedups.speedup_requests import requests

speedups = pytest.importorskip("kiosk.rules._speedups")

REQUESTS = 100_000


@pytest.mark.parametrize("seed", range(4))
def test_accelerated_answers_equal_pure_python(seed: int) -> None:
    decidable = decided = 0
    for record in requests(REQUESTS // 4, seed):
        expected = check_record_pure(record)
        assert check_record(record) == expected, record
        dice = record.get("dice")
        if not isinstance(dice, list) or len(dice) != 2:
            continue
        verdict = speedups.check(record.get("position"), *dice, record.get("after"))
        if "error" in expected:
            assert verdict is None, record
        elif ":" not in str(record["position"]) and all(type(die) is int for die in dice):
            decidable += 1
            decided += verdict is not None
    # The C code decides every valid request of Position IDs and integer dice.
    assert decided == decidable > REQUESTS // 8
