"""Shared set-up for the run/pipeline tests: the demo run headless through the whole pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hardware.camera.replay import ReplaySource
from kiosk.demo import Demo, load_demo
from kiosk.match.players import Player
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.drive import drive
from kiosk.pipeline.frames import FramePipeline, FrameResult
from kiosk.pipeline.journal import JournalWriter
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.readers import FrameReader, LabelReader
from kiosk.pipeline.recovery import open_match
from kiosk.referee import Incident
from kiosk.referee.board import position_of
from kiosk.rules import position_id
from kiosk.store import Store
from vision.labels import Reading


def label_reader(demo: Demo) -> FrameReader:
    """The demo's perfect camera."""
    return LabelReader([Reading.from_json(demo.labels[name]) for name in demo.files])


@dataclass
class DemoRun:
    """What a headless run of the demo saw."""

    match: MonitoredMatch
    writer: JournalWriter
    store: Store
    incidents: list[Incident] = field(default_factory=list)
    offered: tuple[str, int, int | None] | None = None  # position, cube value and owner
    results: list[FrameResult] = field(default_factory=list)


def run_demo(
    state_dir: Path, reader: FrameReader | None = None, frames: int | None = None
) -> DemoRun:
    """Drive the demo's frames (all, or the first ``frames``) through the pipeline with a
    journal in ``state_dir``; the journal is left open (unfinished), as after a crash."""
    demo = load_demo()
    store = Store(state_dir)
    opened = open_match(store, demo.config, ("A", "B"), "demo")
    writer = JournalWriter(opened.journal)
    match = MonitoredMatch(opened.state, writer, opened.names)
    pipeline = FramePipeline(
        reader or label_reader(demo), lambda t_ns: t_ns // 1_000_000, DemoDriver(demo)
    )
    run = DemoRun(match, writer, store)

    def seen(result: FrameResult, incidents: tuple[Incident, ...]) -> None:
        run.results.append(result)
        run.incidents.extend(incidents)
        game = match.state.game
        if game.phase == "cube_offered" and match.state.match.score == (0, 0):
            on_roll: Player = 0 if game.turn == 0 else 1
            run.offered = (
                position_id(position_of(game.sides, on_roll)),
                game.cube.value,
                game.cube.owner,
            )

    drive(ReplaySource(demo.frames_dir), pipeline, match, seen, limit=frames)
    writer.flush()
    return run
