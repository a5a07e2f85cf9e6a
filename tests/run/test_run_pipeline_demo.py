"""The whole pipeline headless on the embedded demo: frames -> readings -> settled events and
scripted presses -> referee -> journal (with snapshots) -> screen snapshots; and a restore."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app.director import parse_director_snapshot
from kiosk.app.snapshot import parse_snapshot
from kiosk.demo import load_demo
from kiosk.pipeline.live import frame_reader
from kiosk.pipeline.readings import board_reading, dice_seen
from kiosk.pipeline.recovery import open_match
from kiosk.referee import BoardRead, ClockPress, DiceRead, Touch
from kiosk.store import Store, decode_snapshot
from tests.run.run_helpers import run_demo
from vision.labels import Reading


@pytest.mark.parametrize("camera", ["labels", "vision"])
def test_the_referee_follows_the_demo(camera: str, tmp_path: Path) -> None:
    """Read by a perfect camera (the renderer's labels) or by ``vision.read`` on the pixels,
    the demo's match is the same: every event and the one incident the script plays."""
    demo = load_demo()
    run = run_demo(tmp_path, frame_reader("vision", demo) if camera == "vision" else None)
    state = run.match.state
    assert run.offered == (
        demo.expected.position_id,
        demo.expected.cube[0],
        demo.expected.cube[1],
    )
    assert state.match.score == demo.expected.score
    assert [i.kind for i in run.incidents] == ["game_won"]
    assert state.game.number == 2
    assert state.game.phase == "opening"
    events = [e for r in run.results for e in r.events]
    scripted = [a.kind for a in demo.actions]
    assert sum(isinstance(e, ClockPress) for e in events) == scripted.count("press")
    assert sum(isinstance(e, Touch) for e in events) == scripted.count("touch")
    boards, dice = _label_changes()
    assert sum(isinstance(e, BoardRead) for e in events) == boards
    assert sum(isinstance(e, DiceRead) for e in events) == dice
    run.writer.close()


def _label_changes() -> tuple[int, int]:
    """How often the demo's board and its dice change along the recording's still frames (the
    first board counts as a change; the dice start empty)."""
    demo = load_demo()
    boards: list[object] = [None]
    dice: list[object] = [()]
    for name in demo.files:
        reading = Reading.from_json(demo.labels[name])
        if reading.occluded:  # a hand over the board: never read
            continue
        board = board_reading(reading)
        if board != boards[-1]:
            boards.append(board)
        if dice_seen(reading) != dice[-1]:
            dice.append(dice_seen(reading))
    return len(boards) - 1, len(dice) - 1


def test_the_journal_records_every_event_and_the_incident_with_its_snapshot(
    tmp_path: Path,
) -> None:
    run = run_demo(tmp_path)
    journal = run.writer.journal
    applied = run.match.version
    assert journal.event_count == applied
    (incident,) = journal.incidents()
    assert incident.incident["incident"] == "game_won"
    assert incident.snapshot_id is not None
    image = decode_snapshot(journal.snapshot(incident.snapshot_id))
    assert image.shape == (720, 1280, 3)
    assert journal.verify().ok
    run.writer.close()


def test_the_screens_accept_the_pipeline_snapshots(tmp_path: Path) -> None:
    run = run_demo(tmp_path)
    t_ms = run.match.state.t_ms
    table = parse_snapshot(run.match.table(t_ms))
    assert table.players[0].name == "B"  # player 1 sits on the left (DEMO_CONFIG)
    assert table.match.score == (2, 0)  # by screen side: left = player 1
    director = parse_director_snapshot(run.match.director(t_ms))
    assert [i.kind for i in director.incidents] == ["game_won"]
    run.writer.close()


def test_a_crash_mid_game_restores_the_same_position_and_pauses_the_clocks(
    tmp_path: Path,
) -> None:
    demo = load_demo()
    crashed = run_demo(tmp_path, frames=100)
    before = crashed.match.state
    crashed.writer.close()
    crashed.store.close()  # the kiosk dies: the match is left unfinished
    with Store(tmp_path) as store:
        opened = open_match(store, demo.config, ("X", "Y"), "demo")
        assert opened.restored
        assert opened.names == ("A", "B")
        after = opened.state
        assert after.game.sides == before.game.sides
        assert after.game.turn == before.game.turn
        assert after.game.cube == before.game.cube
        assert after.match.score == before.match.score
        assert after.incidents == before.incidents
        assert after.clock is not None
        assert after.clock.running is None
        assert opened.t_ms >= before.t_ms
