"""A restored kiosk goes on from the readings the journal last kept as settled
(``recovery.last_readings``, ``FramePipeline.resume``): the table as the crashed kiosk last saw it
is not announced to the referee again, while a change is, as in an uninterrupted run."""

from __future__ import annotations

from pathlib import Path

from kiosk.demo import DEMO_CONFIG
from kiosk.pipeline.recovery import last_readings, open_match
from kiosk.pipeline.settle import Settler
from kiosk.referee import BoardRead, ClockPress, CubeSeen, DiceRead, DieSeen
from kiosk.referee.board import START_SIDES, reading_of
from kiosk.referee.codec import event_to_json
from kiosk.store import Store

ROLL = (DieSeen(3, False, "right-half"), DieSeen(5, False, "right-half"))


def test_a_settler_given_the_settled_readings_announces_only_changes() -> None:
    board = reading_of(START_SIDES, DEMO_CONFIG)
    settler = Settler(2, board, ROLL)
    assert settler.feed(board, ROLL, 100) == []
    assert settler.feed(board, ROLL, 200) == []
    assert settler.feed(board, (), 300) == []
    assert settler.feed(board, (), 400) == [DiceRead((), 400)]
    fresh = Settler(2)
    assert fresh.feed(board, ROLL, 100) == []
    assert fresh.feed(board, ROLL, 200) == [BoardRead(board, 200), DiceRead(ROLL, 200)]


def test_the_last_board_and_dice_the_journal_kept_are_the_restored_readings(
    tmp_path: Path,
) -> None:
    start = reading_of(START_SIDES, DEMO_CONFIG)
    later = reading_of(START_SIDES, DEMO_CONFIG, cube=CubeSeen(2, "top"))
    with Store(tmp_path) as store:
        journal = open_match(store, DEMO_CONFIG, ("A", "B"), "test").journal
        assert last_readings(journal) == (None, ())
        for event in (
            BoardRead(start, 100),
            DiceRead(ROLL, 200),
            ClockPress("left", 300),
            BoardRead(later, 400),
            DiceRead((), 500),
            ClockPress("right", 600),
        ):
            journal.append_event(event_to_json(event))
        assert last_readings(journal) == (later, ())
