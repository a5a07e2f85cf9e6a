"""The referee's gin questions answered by ``kiosk.gin`` (small bear-off tables, positions with
few checkers left): an offered end of game that is certain must be accepted (JBL 4.6), and a
gin win of the match at time expiry wins it (JBL 4.3.3)."""

from __future__ import annotations

import pytest

from kiosk.gin import BearoffTables, build_tables
from kiosk.referee import GinQuestion
from kiosk.referee.gin import gin_judge
from kiosk.rules import Position
from tests.referee.table import Table, config, kinds

SHORT = Position.from_points({1: 1}, {6: 3})
"""Player on roll bears off his last checker next roll; the opponent has 12 off already."""


@pytest.fixture(scope="module")
def tables() -> BearoffTables:
    """Tables for up to 6 checkers (enough for these positions; a fraction of a second)."""
    return build_tables(6)


@pytest.mark.parametrize(
    ("winner", "kind", "exactly", "answer"),
    [
        (0, "single", False, True),
        (0, "single", True, True),
        (0, "gammon", False, False),
        (1, "single", False, False),
    ],
)
def test_gin_judge_answers(
    tables: BearoffTables, winner: int, kind: str, exactly: bool, answer: bool
) -> None:
    """The adapter reads ``kiosk.gin`` verdicts for the winner asked about."""
    judge = gin_judge(tables)
    question = GinQuestion(SHORT, 0, winner, kind, exactly)  # type: ignore[arg-type]
    assert judge(question) is answer


def test_certain_claim_must_be_accepted(tables: BearoffTables) -> None:
    """JBL 4.6: player 1 claims a single game that is certain: it cannot be rejected."""
    table = Table(config("jbl"), gin=gin_judge(tables))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.set_position(SHORT, on_roll=1)
    table.touch("claim", 1, kind="single")
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.choices == ("accept",)
    assert kinds(table.touch("reject", 0))[0] == "concession_rejected"
    assert table.state.match.score == (0, 1)
