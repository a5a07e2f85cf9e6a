"""The director's ``.mat`` export end to end: the embedded demo driven headless through the
kiosk's pipeline to the end of its match, exported from the kiosk into the state directory's
``exports/``, shown on the director's screen, then read back and replayed through the rules to the
referee's score (MSO 5.4: the passed redouble scores 2)."""

from __future__ import annotations

import time
from pathlib import Path

from hardware.camera.replay import ReplaySource
from kiosk.app.actions import DirectorAction, DirectorActionKind
from kiosk.app.director import parse_director_snapshot
from kiosk.app.referee_adapter import director_event
from kiosk.demo import load_demo
from kiosk.matfile import parse_mat, replay
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.drive import drive
from kiosk.pipeline.frames import FramePipeline
from kiosk.pipeline.live import Kiosk, RunOptions
from kiosk.referee.view import director_view
from kiosk.store.export import EXPORT_DIRNAME
from tests.matfile.test_matfile_golden import gnubg_reads
from tests.run.run_helpers import label_reader


def _demo_kiosk(state_dir: Path) -> Kiosk:
    """A kiosk on the embedded demo, its whole recording played through the pipeline."""
    demo = load_demo()
    options = RunOptions(
        config=demo.config,
        camera=None,
        state_dir=state_dir,
        reader="labels",
        buttons="keyboard",
        names=("Ann", "Ben"),
    )
    kiosk = Kiosk(options, demo, time.monotonic_ns())
    frames = FramePipeline(label_reader(demo), lambda t_ns: t_ns // 1_000_000, DemoDriver(demo))
    drive(ReplaySource(demo.frames_dir), frames, kiosk.match)
    return kiosk


def test_the_demo_match_is_exported_and_replays_to_the_referees_score(tmp_path: Path) -> None:
    kiosk = _demo_kiosk(tmp_path)
    state = kiosk.match.state
    assert state.match.score == load_demo().expected.score
    touch = DirectorAction(DirectorActionKind.EXPORT_MAT)
    view = director_view(state, state.t_ms)
    assert director_event(touch, view, kiosk.match.seating, state.t_ms) is None  # the store's
    kiosk.export_mat()
    shown = parse_director_snapshot(kiosk.director())
    kiosk.close()
    path = Path(shown.export_path)
    assert shown.export_error == ""
    assert path.parent == tmp_path / EXPORT_DIRNAME
    assert path.name.startswith(f"match-{kiosk.opened.journal.match_id}-")
    record = parse_mat(path.read_text("utf-8"), str(path))
    assert record.players == ("Ann", "Ben")
    assert record.match_length == state.match.length
    result = replay(record, state.rules)
    assert result.flags == ()
    assert result.final_score == state.match.score
    plays = [(d.player, d.dice, d.play) for d in result.games[0].decisions if d.kind == "move"]
    logged = [(e.player, e.dice, e.play) for e in state.logs[0] if e.action == "move"]
    assert plays == logged
    assert [d.kind for d in result.games[0].decisions][-3:] == ["double", "drop", "win"]


def test_an_export_that_cannot_be_written_is_shown_to_the_director(tmp_path: Path) -> None:
    kiosk = _demo_kiosk(tmp_path)
    (tmp_path / EXPORT_DIRNAME).write_text("not a directory", "utf-8")
    kiosk.export_mat()
    shown = parse_director_snapshot(kiosk.director())
    kiosk.close()
    assert shown.export_path == ""
    assert "cannot write the .mat export" in shown.export_error
    assert kiosk.exports == 1


def test_gnubg_imports_the_demo_export(tmp_path: Path) -> None:
    """GNU Backgammon reads the kiosk's file as the match played: the game's score at its
    start, the winner, the points and every roll."""
    kiosk = _demo_kiosk(tmp_path)
    kiosk.export_mat()
    kiosk.close()
    assert kiosk.exported is not None
    path = kiosk.exported["path"]
    assert path is not None
    oracle = gnubg_reads(Path(path))
    state = kiosk.match.state
    result = state.match.games[0]
    games = oracle["games"]
    assert isinstance(games, list)
    assert len(games) == 1
    assert (games[0]["score"], games[0]["winner"], games[0]["points"]) == (
        [0, 0],
        result.winner,
        result.points,
    )
    rolled = [sorted(s["dice"]) for s in games[0]["actions"] if s["action"] == "move"]
    assert rolled == [sorted(e.dice) for e in state.logs[0] if e.dice is not None]
