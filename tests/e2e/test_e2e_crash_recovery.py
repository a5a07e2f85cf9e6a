"""Issue 6 crash recovery: the pipeline runs a scripted match in its own process
(``e2e_crash_child``), kills itself with SIGKILL after or inside given frames (random frames for
several seeds, twice each, and cuts that once made the restored run differ), is restarted on the
same state directory until it finishes the match; the final state must equal
an uninterrupted run's: board, score, cube, turn, every incident (kind, rule, position, dice,
play), the journal's incidents and hash chain, and the clocks within the issue's 1 s.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hardware.camera.frame import Image
from kiosk.pipeline.drive import drive
from kiosk.pipeline.frames import FramePipeline
from kiosk.pipeline.journal import JournalWriter
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.recovery import open_match
from kiosk.store import JsonDict, Store
from tests.e2e.e2e_match import Script, ScriptDriver, ScriptSource, label_reader
from tests.referee.table import config

ROOT = Path(__file__).resolve().parents[2]
SEEDS = (11, 12, 13, 14)
KILLS = 2
Kill = tuple[int, int | None]
"""A kill: (the frame of the run it dies in or after, how many of that frame's events the journal
keeps; None: all)."""
CUT_FRAMES: tuple[tuple[Kill, ...], ...] = (
    ((28, 1), (2, 1)),
    ((43, None),),
)
"""Kills that once made the restored run differ. ``(28, 1), (2, 1)``: the crash cuts frame 27
(the cube turned and the 3-1 rolled, settled together) between its board and its dice, twice,
so that the second restart found the table on the last still frame before the move and settled
the lost dice only after the play (a false ``board_changed_out_of_turn``;
``e2e_crash_child.resume_point``). ``(43, None)``: killed just after the pass that won game 1,
the restarted kiosk announced the old game's board again to game 2 (a false ``setup_error``;
``FramePipeline.resume``)."""
CLOCK_ALLOWANCE_MS = 1_000
"""Issue 6: after a restore at most 1 s of clock time is unaccounted."""


def crash_script() -> Script:
    """A 3-point MSO match with irregularities: an illegal move condoned by rolling after a
    cocked roll, a double taken, checkers moved out of turn and put back, a redouble passed;
    the second game starts and is played a few turns."""
    script = Script(config("mso", match_length=3))
    script.setup()
    script.opening(0, 5, 2)
    script.play_board(0, script.moved(0, {13: -1, 7: +1}))  # a 6 with 5-2
    script.roll(1, 6, 4, cocked=True)
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    script.double(0, "take")
    script.roll(0, 3, 1)
    script.play(0, "8/5 6/5")
    played = script.sides
    script.board(0, script.moved(0, {13: -1, 10: +1}))
    script.board(0, played)
    script.double(1, "pass")
    script.setup()
    script.opening(1, 4, 2)
    script.play(1, "8/4 6/4")
    script.roll(0, 6, 5)
    script.play(0, "24/13")
    script.roll(1, 3, 3)
    script.play(1, "24/21(2) 13/10(2)")
    script.hold(5)
    return script


def run_child(
    script_dir: Path, state_dir: Path, kill_after: int | None, journaled: int | None = None
) -> dict[str, Any] | None:
    """Run the pipeline process; it SIGKILLs itself after its ``kill_after``-th frame (None: let
    it finish), or during that frame once ``journaled`` of the frame's events are journaled.
    Returns its final summary, or None when it was killed."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "tests.e2e.e2e_crash_child", str(script_dir), str(state_dir)]
    if kill_after is not None:
        command += ["--die-after", str(kill_after)]
    if journaled is not None:
        command += ["--journaled", str(journaled)]
    completed = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    lines = completed.stdout.splitlines()
    finals = [json.loads(line)["final"] for line in lines if line.startswith("{")]
    if kill_after is not None and not finals:
        assert completed.returncode == -signal.SIGKILL, completed.stderr
        finished = sum(line.startswith("frame ") for line in lines)
        assert finished == kill_after or (journaled is not None and finished == kill_after - 1)
        return None
    assert completed.returncode == 0, completed.stderr
    assert len(finals) == 1
    final: dict[str, Any] = finals[0]
    return final


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The crash script on disk: replay frames, labels and inputs."""
    folder = tmp_path_factory.mktemp("crash-script")
    crash_script().save(folder)
    return folder


@pytest.fixture(scope="module")
def reference(saved: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The uninterrupted run's final state."""
    final = run_child(saved, tmp_path_factory.mktemp("reference"), None)
    assert final is not None
    return final


def test_the_uninterrupted_run_follows_the_script(reference: dict[str, Any]) -> None:
    """The reference itself: the irregularities, the redouble passed, the second game under way."""
    kinds = [incident["kind"] for incident in reference["incidents"]]
    assert kinds == [
        "illegal_move",
        "invalid_roll",
        "illegal_move_condoned",
        "board_changed_out_of_turn",
        "game_won",
    ]
    assert reference["journal_incidents"] == kinds
    assert reference["score"] == [0, 2]
    assert reference["game"] == 2
    assert reference["chain_ok"]


@pytest.mark.parametrize("seed", SEEDS)
def test_killed_at_random_frames_then_restored_equals_an_uninterrupted_run(
    seed: int, saved: Path, reference: dict[str, Any], tmp_path: Path
) -> None:
    """SIGKILL twice at random frames, restart on the same state directory, finish."""
    rng = random.Random(seed)
    frames = len(json.loads((saved / "frames" / "frames.json").read_text("utf-8"))["frames"])
    for _ in range(KILLS):
        assert run_child(saved, tmp_path, rng.randint(1, frames // 2)) is None
    assert_equals_reference(run_child(saved, tmp_path, None), reference)


@pytest.mark.parametrize("kills", CUT_FRAMES, ids=str)
def test_killed_inside_frames_then_restored_equals_an_uninterrupted_run(
    kills: tuple[Kill, ...], saved: Path, reference: dict[str, Any], tmp_path: Path
) -> None:
    """SIGKILL during frames (``--die-after N --journaled K``), restart, finish."""
    for frame, journaled in kills:
        assert run_child(saved, tmp_path, frame, journaled) is None
    assert_equals_reference(run_child(saved, tmp_path, None), reference)


def assert_equals_reference(final: dict[str, Any] | None, reference: dict[str, Any]) -> None:
    """The restored run's final state is the uninterrupted run's (clocks within 1 s)."""
    assert final is not None
    apart = ("reserve_ms", "running", "journal_incidents")
    assert {k: v for k, v in final.items() if k not in apart} == {
        k: v for k, v in reference.items() if k not in apart
    }
    for mine, theirs in zip(final["reserve_ms"], reference["reserve_ms"], strict=True):
        assert abs(mine - theirs) <= CLOCK_ALLOWANCE_MS
    assert final["running"] == reference["running"]
    # The journal's incident records never invent or reorder incidents; a kill between an
    # event and its incident loses the record (test_an_incident_whose_write_the_crash_cut...).
    assert is_subsequence(final["journal_incidents"], reference["journal_incidents"])


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    """Whether ``part`` is ``whole`` with some items left out."""
    rest = iter(whole)
    return all(item in rest for item in part)


class DiesBeforeIncident:
    """A journal sink in front of ``JournalWriter`` whose process dies between an event and the
    first incident it raised: the event is written, the incident and everything after are not
    (``MonitoredMatch.apply`` queues the event, then its incidents, as separate writes)."""

    def __init__(self, writer: JournalWriter) -> None:
        self.writer = writer
        self.dead = False

    def event(self, data: JsonDict) -> None:
        if not self.dead:
            self.writer.event(data)

    def incident(self, data: JsonDict, image: Image | None) -> None:
        self.dead = True

    def heartbeat(self, t_ms: int) -> None:
        if not self.dead:
            self.writer.heartbeat(t_ms)


def test_an_incident_whose_write_the_crash_cut_is_journaled_on_restore(tmp_path: Path) -> None:
    """Issue 6: every incident is journaled; a restore must not leave one out of the record."""
    script = crash_script()
    with Store(tmp_path) as store:
        opened = open_match(store, script.config, ("A", "B"), "e2e", resume=False)
        writer = JournalWriter(opened.journal)
        sink = DiesBeforeIncident(writer)
        match = MonitoredMatch(opened.state, sink, opened.names)
        pipeline = FramePipeline(
            label_reader(script),
            lambda t_ns: t_ns // 1_000_000,
            ScriptDriver(script.config, [frame.inputs for frame in script.frames]),
        )
        drive(ScriptSource(script.frames), pipeline, match)
        writer.close()
    assert sink.dead
    with Store(tmp_path) as store:
        restored = open_match(store, script.config, ("A", "B"), "e2e")
        assert restored.restored
        kinds = [incident.kind for incident in restored.state.incidents]
        assert kinds == ["illegal_move"]
        journaled = [str(item.incident["incident"]) for item in restored.journal.incidents()]
        assert journaled == kinds
