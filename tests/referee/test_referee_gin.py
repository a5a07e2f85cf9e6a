"""The referee's gin questions answered by ``kiosk.gin`` (small bear-off tables, positions with
few checkers left): an offered end of game that is certain must be accepted (JBL 4.6), and a
gin win of the match at time expiry wins it (JBL 4.3.3)."""

from __future__ import annotations

import pytest

from kiosk.gin import BearoffTables, build_tables
from kiosk.referee import GinQuestion, GinUnavailableError
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


RACE = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 3, 5: 2})
"""Player 1 (on roll) with 5 checkers left, player 0 with 15 in his home board: no contact."""


def in_race(table: Table) -> None:
    """Opening, one play, then the director sets the race with player 1 to roll."""
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.set_position(RACE, on_roll=1)


def test_gin_judge_beyond_its_tables_names_the_reason() -> None:
    """Tables for 2 checkers cannot judge a home board of 15: a clear error, not a KeyError."""
    judge = gin_judge(build_tables(2))
    with pytest.raises(GinUnavailableError, match="reach home boards of 2 checkers"):
        judge(GinQuestion(RACE, 1, 1, "gammon", True))


def test_jbl_claim_with_tables_too_small_goes_to_the_director() -> None:
    """JBL 4.6, 4.3.2(7): the gin judge fails (tables too small): no exception out of ``step``;
    an incident names the reason and the director gives the verdict."""
    table = Table(config("jbl"), gin=gin_judge(build_tables(2)))
    in_race(table)
    assert kinds(table.touch("claim", 1, kind="gammon")) == ["gin_unavailable"]
    failure = table.state.incidents[-1]
    assert "bear-off tables reach home boards of 2 checkers" in failure.detail
    assert failure.position_id is not None
    assert kinds(table.touch("reject", 0)) == ["concession_rejected"]
    assert table.state.gin is not None  # the director decides
    table.director("gin_verdict", value=True)
    assert table.state.match.score == (0, 2)


def test_jbl_time_expiry_with_a_failing_gin_judge_goes_to_the_director() -> None:
    """JBL 4.3.3: any failure of the judge is "gin unknown": the director rules on the expiry."""

    def broken(question: GinQuestion) -> bool | None:
        raise RuntimeError("tables corrupted")

    table = Table(config("jbl", reserve_ms=10_000, score=(4, 0)), gin=broken)
    table.opening(winner=0, high=3, low=1)
    table.tick(23_000)
    raised = table.touch("claim_time", 1)
    assert kinds(raised) == ["gin_unavailable", "gin_verdict_needed"]
    assert "RuntimeError('tables corrupted')" in raised[0].detail
    table.director("gin_verdict", value=False)
    assert table.state.match.winner == 1
