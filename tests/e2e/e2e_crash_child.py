"""The kiosk's pipeline in its own process, for the crash-recovery test: a saved script
(``Script.save``: replay frames, labels, inputs) played headless with the journal in a state
directory, restoring the unfinished match first as ``gammon-kiosk run`` does.

    python -m tests.e2e.e2e_crash_child SCRIPT_DIR STATE_DIR [--die-after N [--journaled K]]

Prints ``frame N`` after each frame, then, if it reaches the end, one JSON line
``{"final": ...}``: the referee's state. With ``--die-after N`` the process kills itself with
SIGKILL right after its N-th frame (counted from its own start), once the journal writer has
written everything the frames gave it; with ``--journaled K`` as well it dies during that frame,
once the journal holds the first K of the frame's events (a crash that cuts a frame's entries,
say between the board and the dice it settled), or after it if it has no more. The crash point
is the same on every run, whatever the machine's load.

After a restore (``open_match``: journal replayed, clocks charged to the last heartbeat and
paused) the table goes on as players would: the director restarts the paused clock, the camera
sees the table again from the frames that settled the last reading or input the journal kept
(``resume_point``) with the readings the journal last kept as settled (``last_readings``), and
the players repeat the inputs the journal lost.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from hardware.camera.frame import Frame, Image
from hardware.camera.replay import ReplaySource
from kiosk.pipeline.drive import drive
from kiosk.pipeline.frames import FramePipeline, FrameResult
from kiosk.pipeline.journal import JournalWriter
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.readers import LabelReader
from kiosk.pipeline.recovery import last_readings, open_match
from kiosk.pipeline.settle import SETTLE_FRAMES
from kiosk.referee import ClockPress, DirectorAction, Incident, RefereeConfig, RefereeState
from kiosk.referee.codec import event_to_json
from kiosk.store import JsonDict, MatchJournal, Store
from tests.e2e.e2e_match import Input, ScriptDriver, load_saved


class FromFrame:
    """A replay source that starts at frame ``first`` (the frames before it are read and
    dropped, so frame numbers stay those of the recording)."""

    def __init__(self, source: ReplaySource, first: int) -> None:
        self._source = source
        self._first = first

    @property
    def name(self) -> str:
        return self._source.name

    def open(self) -> None:
        self._source.open()
        for _ in range(self._first):
            self._source.read()

    def read(self) -> Frame | None:
        return self._source.read()

    def close(self) -> None:
        self._source.close()


class DiesAt:
    """The journal sink of the child: ``JournalWriter``, and the process's own SIGKILL during
    frame ``frame`` (1-based, this process's count) once ``events`` of its events are written,
    else (``events`` None, or no more events) after it, when :meth:`frame_done` is called."""

    def __init__(self, writer: JournalWriter, frame: int | None, events: int | None) -> None:
        self._writer = writer
        self._frame = frame
        self._events = events
        self._frames_done = 0
        self._frame_events = 0

    def event(self, data: JsonDict) -> None:
        if self._frames_done + 1 == self._frame and self._frame_events == self._events:
            self._die()
        self._frame_events += 1
        self._writer.event(data)

    def incident(self, data: JsonDict, image: Image | None) -> None:
        self._writer.incident(data, image)

    def heartbeat(self, t_ms: int) -> None:
        self._writer.heartbeat(t_ms)

    def frame_done(self) -> None:
        """One more frame processed: die now if it is the last one."""
        self._frames_done += 1
        self._frame_events = 0
        if self._frames_done == self._frame:
            self._die()

    def _die(self) -> None:
        self._writer.flush()
        os.kill(os.getpid(), signal.SIGKILL)


def _without_time(data: JsonDict) -> JsonDict:
    return {key: value for key, value in data.items() if key != "t_ms"}


def resume_point(
    journal: MatchJournal,
    config: RefereeConfig,
    inputs: Sequence[tuple[Input, ...]],
    times: Sequence[int],
) -> tuple[int, int]:
    """How many of the script's inputs the journal holds (in order; events the script did not
    send, such as the restore's own pause and resume, are passed over), and the frame to go on
    from, where the camera finds the table again: ``SETTLE_FRAMES - 1`` frames before the latest
    frame whose reading or input the journal kept (``times``: each frame's t_ms).

    A reading is settled on ``SETTLE_FRAMES`` still frames, so the camera must see the table as
    long as it did when it settled the journal's last reading. Going on from that reading's own
    frame gave the fresh settler one still frame only: when the crash cut a frame's entries
    between its board and its dice, and the table moved on the next frame, the journal-lost dice
    were settled only with the next board, after it (the player's move seen before the roll:
    a false ``board_changed_out_of_turn``, MSO 4.3)."""
    flat = [item for frame in inputs for item in frame]
    own = [
        _without_time(event_to_json(ClockPress("centre", 0))),
        _without_time(event_to_json(DirectorAction("resume", 0))),
    ]
    applied, last_t = 0, 0
    for stored in journal.iter_events():
        event = _without_time(stored.event)
        if event["kind"] == "tick" or event in own:
            continue
        last_t = max(last_t, int(stored.event["t_ms"]))
        if applied < len(flat) and event == _without_time(
            event_to_json(flat[applied].event(config, 0))
        ):
            applied += 1
    frame = max((seq for seq, t_ms in enumerate(times) if t_ms <= last_t), default=0)
    return applied, max(0, frame - (SETTLE_FRAMES - 1))


def _frame_times(script: Path) -> list[int]:
    manifest = json.loads((script / "frames" / "frames.json").read_text("utf-8"))
    return [int(item["t_ns"]) // 1_000_000 for item in manifest["frames"]]


def summary(state: RefereeState, journal: MatchJournal) -> JsonDict:
    """What must be the same after any crash: board, score, cube, turn, incidents (without
    their times), clocks (compared within the issue's 1 s), and the journal's integrity."""
    game = state.game

    def incident(item: Incident) -> JsonDict:
        return {
            "id": item.id,
            "kind": item.kind,
            "rule": item.rule,
            "game": item.game,
            "player": item.player,
            "position_id": item.position_id,
            "dice": list(item.dice) if item.dice else None,
            "play_seen": item.play_seen,
            "legal_plays": list(item.legal_plays),
            "announced": item.announced,
        }

    clock = state.clock
    return {
        "sides": [list(game.sides[0]), list(game.sides[1])],
        "score": list(state.match.score),
        "game": game.number,
        "phase": game.phase,
        "turn": game.turn,
        "cube": [game.cube.value, game.cube.owner],
        "incidents": [incident(item) for item in state.incidents],
        "journal_incidents": [str(item.incident["incident"]) for item in journal.incidents()],
        "reserve_ms": None if clock is None else list(clock.reserve_ms),
        "running": None if clock is None else clock.running,
        "chain_ok": journal.verify().ok,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", type=Path)
    parser.add_argument("state", type=Path)
    parser.add_argument("--die-after", type=int, default=None, metavar="N")
    parser.add_argument("--journaled", type=int, default=None, metavar="K")
    args = parser.parse_args(argv)
    config, labels, inputs = load_saved(args.script)
    with Store(args.state) as store:
        opened = open_match(store, config, ("A", "B"), "e2e-crash")
        journal = opened.journal
        times = _frame_times(args.script)
        skip, first = resume_point(journal, config, inputs, times) if opened.restored else (0, 0)
        writer = JournalWriter(journal)
        sink = DiesAt(writer, args.die_after, args.journaled)
        match = MonitoredMatch(opened.state, sink, opened.names)
        stored = journal.events(max(0, journal.event_count - 1))
        centred = _without_time(event_to_json(ClockPress("centre", 0)))
        if opened.restored and stored and _without_time(stored[-1].event) == centred:
            match.apply(DirectorAction("resume", opened.t_ms))  # the restore paused the clock
        print(f"restored {opened.restored} skip {skip} from frame {first}", flush=True)
        pipeline = FramePipeline(
            LabelReader(labels),
            lambda t_ns: t_ns // 1_000_000,
            ScriptDriver(config, inputs, skip),
        )
        if opened.restored:
            pipeline.resume(*last_readings(journal))

        def seen(result: FrameResult, incidents: tuple[Incident, ...]) -> None:
            print(f"frame {result.t_ms}", flush=True)
            sink.frame_done()

        source = FromFrame(ReplaySource(args.script / "frames"), first)
        try:
            drive(source, pipeline, match, seen)
        finally:
            writer.close()
        print(json.dumps({"final": summary(match.state, journal)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
