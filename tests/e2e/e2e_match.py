"""Scripted matches played through the whole ``gammon-kiosk run`` pipeline, headless.

A :class:`Script` is what happens at one table, as the kiosk would perceive it: a timeline of
camera frames (rendered shots, ``e2e_scenes``) and the players' and director's inputs (clock
presses, touches with their arguments, director actions) released after given frames. Moves
are made as at a real table: a hand over the board (occluded, never read), then the board
stands still and settles; the mover presses his clock once it has.

:func:`run_script` plays a script through ``drive``: frames -> reader -> ``Settler`` -> referee
(``MonitoredMatch``, with the inputs released by :class:`ScriptDriver` exactly as the demo's
scripted presses are) -> ``JournalWriter`` thread -> SQLite journal with JPEG snapshots. The
reader is ``LabelReader`` (the renderer's exact labels, a perfect camera: the pipeline, not
vision, is under test here; vision accuracy is measured separately, issue 4) or
``VisionReader`` (``vision.read`` on the rendered pixels).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import cv2

from hardware.camera.frame import Frame
from kiosk.demo.plan import after_play
from kiosk.match.players import Player, opponent
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.drive import drive
from kiosk.pipeline.frames import FramePipeline, FrameResult
from kiosk.pipeline.journal import JournalWriter
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.readers import FrameReader, LabelReader, VisionReader
from kiosk.pipeline.recovery import open_match
from kiosk.referee import (
    ClockPress,
    DirectorAction,
    Event,
    GinJudge,
    Incident,
    RefereeConfig,
    RefereeState,
    Touch,
)
from kiosk.referee.board import START_SIDES, Sides, sides_of
from kiosk.referee.codec import config_from_json, config_to_json
from kiosk.referee.events import Args, CubePlace, Scalar, Zone
from kiosk.rules import Position, position_id
from kiosk.store import Store, decode_snapshot
from tests.e2e.e2e_scenes import (
    DEMO_TABLE,
    SIZE,
    DieShown,
    Shot,
    Table,
    calibrated,
    render_shot,
    same_orientation,
)
from vision.labels import Reading

FRAME_MS = 200
"""The camera's frame interval: 5 frames per second, as the demo."""

InputKind = Literal["press", "touch", "director"]


@dataclass(frozen=True)
class Input:
    """A scripted input: ``press`` (``name`` the seat side: left, right or centre), ``touch``
    (``name`` the touch action, from ``player``'s half of the screen) or ``director`` (``name``
    the verb); ``args`` as in ``kiosk.referee.events``."""

    kind: InputKind
    name: str
    player: Player | None = None
    args: Args = ()

    def event(self, config: RefereeConfig, t_ms: int) -> Event:
        """The referee event of this input at ``t_ms``."""
        if self.kind == "press":
            return ClockPress(self.name, t_ms)  # type: ignore[arg-type]
        if self.kind == "touch":
            assert self.player is not None
            seat = config.player_seat(self.player)
            return Touch(self.name, seat, t_ms, self.args)  # type: ignore[arg-type]
        return DirectorAction(self.name, t_ms, self.args)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "name": self.name, "player": self.player, "args": self.args}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Input:
        args = tuple((str(k), v) for k, v in data["args"])  # type: ignore[attr-defined]
        player = data["player"]
        return cls(
            data["kind"],  # type: ignore[arg-type]
            str(data["name"]),
            None if player is None else (0 if player == 0 else 1),
            args,
        )


@dataclass(frozen=True)
class ScriptFrame:
    """One camera frame: the shot it shows, its time (ms) and the inputs released after it."""

    shot: Shot
    t_ms: int
    inputs: tuple[Input, ...] = ()


class Script:
    """A match at one table, built move by move (see the module docstring).

    The builder tracks the board, the dice lying on the table, the cube and the last roll, so a
    play is given in notation (``after_play``, checked legal by the rules core) or as a board.
    """

    def __init__(
        self, config: RefereeConfig, size: tuple[int, int] = SIZE, table: Table = DEMO_TABLE
    ) -> None:
        assert same_orientation(config), "scripted tables use e2e_scenes.TABLE's orientation"
        self.config = config
        self.size = size  # of the rendered frames (e2e_scenes.SIZE or CAMERA_SIZE)
        self.table = table
        self.rules = config.load_rules()
        self.frames: list[ScriptFrame] = []
        self.sides: Sides = START_SIDES
        self.dice: tuple[DieShown, ...] = ()
        self.cube: tuple[int, CubePlace] = (64, "centre")
        self.rolled: tuple[int, int] | None = None
        self.t_ms = 0

    # -- frames ----------------------------------------------------------------------------------

    def shot(self) -> Shot:
        """What the camera sees now."""
        return Shot(self.sides, self.dice, self.cube, size=self.size, table=self.table)

    def hold(self, frames: int = 3, inputs: Sequence[Input] = (), every_ms: int = FRAME_MS) -> None:
        """Show the table still for ``frames`` frames; ``inputs`` come after the last one (the
        board has settled by then: ``SETTLE_FRAMES`` is 2)."""
        for k in range(frames):
            last = k == frames - 1
            self.frames.append(ScriptFrame(self.shot(), self.t_ms, tuple(inputs) if last else ()))
            self.t_ms += every_ms

    def hand(self, player: Player) -> None:
        """``player``'s hand over the board for one frame (occluded: not read)."""
        row = self.config.player_row(player)
        self.frames.append(ScriptFrame(replace(self.shot(), hand=row), self.t_ms))
        self.t_ms += FRAME_MS

    def wait(self, seconds: float) -> None:
        """Nothing happens for ``seconds`` (a frame every 500 ms)."""
        self.hold(max(1, round(seconds * 2)), every_ms=500)

    # -- the table's inputs ----------------------------------------------------------------------

    def press(self, player: Player) -> None:
        """``player`` hits his clock button."""
        self.hold(1, (Input("press", self.config.player_seat(player)),))

    def touch(self, player: Player, action: str, **args: Scalar) -> None:
        """``player`` touches ``action`` on his half of the screen."""
        self.hold(1, (Input("touch", action, player, tuple(args.items())),))

    def director(self, verb: str, **args: Scalar) -> None:
        """The director acts (after the PIN)."""
        self.hold(1, (Input("director", verb, None, tuple(args.items())),))

    # -- the game --------------------------------------------------------------------------------

    def zone(self, roller: Player) -> Zone:
        """Where ``roller``'s valid dice land (MSO 4.2: right of the bar; JBL 4.1.4: the roller's
        own home board, on this table the image's right half)."""
        if self.rules.play.valid_roll_zone == "right_of_bar":
            return "right-half" if self.config.player_row(roller) == "bottom" else "left-half"
        return "right-half" if self.config.home_on_right() else "left-half"

    def setup(
        self, sides: Sides = START_SIDES, cube: tuple[int, CubePlace] = (64, "centre")
    ) -> None:
        """The checkers and the cube set up for a game."""
        self.sides, self.cube, self.dice = sides, cube, ()
        self.hold()

    def opening(self, winner: Player, high: int, low: int, *, press: bool = True) -> None:
        """One die each (``winner`` the higher), each in his own valid zone; the lower die's
        player presses (MSO-clock 3.3)."""
        loser = opponent(winner)
        self.hand(winner)
        self.dice = (
            DieShown(high, self.zone(winner), row=self.config.player_row(winner)),
            DieShown(low, self.zone(loser), row=self.config.player_row(loser)),
        )
        self.rolled = (high, low)
        press_loser = (Input("press", self.config.player_seat(loser)),) if press else ()
        self.hold(3, press_loser)

    def roll(
        self,
        player: Player,
        first: int,
        second: int,
        *,
        cocked: bool = False,
        zone: Zone | None = None,
    ) -> None:
        """``player`` picks up the dice and rolls ``first``-``second`` (the first die cocked, or
        both in ``zone``, when asked)."""
        self.hand(player)
        where = zone or self.zone(player)
        self.dice = (DieShown(first, where, cocked), DieShown(second, where))
        self.rolled = (first, second)
        self.hold()

    def lift(self, player: Player) -> None:
        """``player`` picks up the dice."""
        self.hand(player)
        self.dice = ()
        self.hold()

    def board(self, player: Player, sides: Sides, inputs: Sequence[Input] = ()) -> None:
        """``player`` changes the board to ``sides``; ``inputs`` once it has settled."""
        self.hand(player)
        self.sides = sides
        self.hold(3, inputs)

    def result_of(self, player: Player, text: str) -> Sides:
        """The board after ``player`` plays ``text`` (legal) with the last roll."""
        assert self.rolled is not None
        return after_play(self.sides, player, self.rolled, text)

    def play(self, player: Player, text: str) -> None:
        """``player`` plays ``text`` (legal) and presses his clock."""
        self.play_board(player, self.result_of(player, text))

    def play_board(self, player: Player, sides: Sides) -> None:
        """``player`` leaves ``sides`` on the board (legal or not) and presses his clock."""
        self.board(player, sides, (Input("press", self.config.player_seat(player)),))

    def moved(self, player: Player, changes: dict[int, int]) -> Sides:
        """The board with ``player``'s slots changed by ``changes`` ({slot: +/-n})."""
        sides = [list(self.sides[0]), list(self.sides[1])]
        for slot, change in changes.items():
            sides[player][slot] += change
        return (tuple(sides[0]), tuple(sides[1]))

    def set_position(self, position: Position, on_roll: Player) -> None:
        """The director sets the board (``on_roll``'s view); the table is set up the same."""
        self.director("set_position", position_id=position_id(position), on_roll=on_roll)
        self.board(on_roll, sides_of(position, on_roll))

    def double(self, player: Player, answer: str, **args: Scalar) -> None:
        """``player`` doubles (``args``: ``to``) and the opponent answers (take/pass)."""
        self.touch(player, "double", **args)
        self.touch(opponent(player), answer)
        if answer == "take":
            turned = args.get("to")
            value = (
                turned if isinstance(turned, int) else 2 if self.cube[0] == 64 else 2 * self.cube[0]
            )
            self.cube = (value, self.config.player_row(opponent(player)))

    # -- files (for a run in another process) ----------------------------------------------------

    def save(self, folder: Path) -> None:
        """Write the frames (``hardware.camera.replay`` folder: JPEGs and ``frames.json``), their
        labels and the inputs (``script.json``)."""
        frames_dir = folder / "frames"
        frames_dir.mkdir(parents=True, exist_ok=True)
        names: dict[Shot, str] = {}
        manifest = []
        labels = []
        for frame in self.frames:
            if frame.shot not in names:
                names[frame.shot] = f"shot{len(names):03d}.png"
                image, _ = render_shot(frame.shot)
                cv2.imwrite(str(frames_dir / names[frame.shot]), image)
            manifest.append({"file": names[frame.shot], "t_ns": frame.t_ms * 1_000_000})
            labels.append(render_shot(frame.shot)[1].to_json())
        (frames_dir / "frames.json").write_text(json.dumps({"frames": manifest}), "utf-8")
        data = {
            "config": config_to_json(self.config),
            "labels": labels,
            "inputs": [[i.to_json() for i in frame.inputs] for frame in self.frames],
        }
        (folder / "script.json").write_text(json.dumps(data), "utf-8")


def load_saved(folder: Path) -> tuple[RefereeConfig, list[Reading], list[tuple[Input, ...]]]:
    """What :meth:`Script.save` wrote: the configuration, the labels and inputs per frame."""
    data = json.loads((folder / "script.json").read_text("utf-8"))
    config = config_from_json(data["config"], "script.json.config")
    labels = [Reading.from_json(label) for label in data["labels"]]
    inputs = [tuple(Input.from_json(i) for i in frame) for frame in data["inputs"]]
    return config, labels, inputs


# -- the pipeline ----------------------------------------------------------------------------------


class ScriptDriver(DemoDriver):
    """The script's inputs, released after their frame as ``DemoDriver`` releases the demo's
    presses and touches (this one also carries touch arguments and director actions, which the
    demo's script format has no room for). The first ``skip`` inputs of the script (in order)
    are not sent: they were applied before a crash; inputs of frames that were not read are
    released with the next frame that is."""

    def __init__(
        self, config: RefereeConfig, inputs: Sequence[tuple[Input, ...]], skip: int = 0
    ) -> None:
        self._config = config
        self._flat = [(seq, item) for seq, frame in enumerate(inputs) for item in frame]
        self._next = skip

    def after_frame(self, seq: int, t_ms: int) -> list[Event]:
        """The inputs due by frame ``seq``, stamped ``t_ms``."""
        events: list[Event] = []
        while self._next < len(self._flat) and self._flat[self._next][0] <= seq:
            events.append(self._flat[self._next][1].event(self._config, t_ms))
            self._next += 1
        return events


class ScriptSource:
    """A ``FrameSource`` of rendered frames, in memory."""

    def __init__(self, frames: Sequence[ScriptFrame]) -> None:
        self._frames = frames
        self._next = 0

    @property
    def name(self) -> str:
        return "e2e-script"

    def open(self) -> None:
        self._next = 0

    def read(self) -> Frame | None:
        if self._next >= len(self._frames):
            return None
        frame = self._frames[self._next]
        image, _ = render_shot(frame.shot)
        self._next += 1
        return Frame(image, frame.t_ms * 1_000_000, self._next - 1)

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Run:
    """What a scripted match did: the final referee state, the incidents raised in order, what
    the journal kept, the events each frame produced and the prompts shown at the table."""

    state: RefereeState
    incidents: list[Incident] = field(default_factory=list)
    journaled: list[str] = field(default_factory=list)
    snapshots: int = 0
    results: list[FrameResult] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    """The prompts the table was shown, in order (each kind once per appearance)."""

    def kinds(self) -> list[str]:
        """The kinds of the incidents raised, in order."""
        return [incident.kind for incident in self.incidents]

    def of(self, kind: str) -> list[Incident]:
        """The incidents of ``kind``."""
        return [incident for incident in self.incidents if incident.kind == kind]


def label_reader(script: Script) -> FrameReader:
    """The perfect camera: the exact label of each scripted frame."""
    return LabelReader([render_shot(frame.shot)[1] for frame in script.frames])


def run_script(
    script: Script,
    state_dir: Path,
    gin: GinJudge | None = None,
    reader: FrameReader | None = None,
) -> Run:
    """Play ``script`` through the pipeline with a journal in ``state_dir``; checks that the
    journal holds every event and incident (with a decodable snapshot) and verifies its chain.
    The table stays still for a second after the script, so that its last press is judged on
    the next frame as in the kiosk."""
    script.hold(5)
    inputs = [frame.inputs for frame in script.frames]
    with Store(state_dir) as store:
        opened = open_match(store, script.config, ("A", "B"), "e2e", gin, resume=False)
        writer = JournalWriter(opened.journal)
        match = MonitoredMatch(opened.state, writer, opened.names, gin)
        pipeline = FramePipeline(
            reader or label_reader(script),
            lambda t_ns: t_ns // 1_000_000,
            ScriptDriver(script.config, inputs),
        )
        run = Run(match.state)

        shown_last: list[str | None] = [None]

        def seen(result: FrameResult, incidents: tuple[Incident, ...]) -> None:
            run.results.append(result)
            run.incidents.extend(incidents)
            prompt = match.state.prompt
            shown = None if prompt is None else prompt.kind
            if shown is not None and shown != shown_last[0]:
                run.prompts.append(shown)
            shown_last[0] = shown

        try:
            drive(ScriptSource(script.frames), pipeline, match, seen)
        finally:
            writer.close()
        run.state = match.state
        journal = writer.journal
        assert writer.errors == 0
        assert journal.event_count == match.version
        stored = journal.incidents()
        run.journaled = [str(item.incident["incident"]) for item in stored]
        for item in stored:
            if item.snapshot_id is not None:
                decode_snapshot(journal.snapshot(item.snapshot_id))
                run.snapshots += 1
        assert journal.verify().ok
    assert run.journaled == run.kinds()
    assert list(run.state.incidents) == run.incidents
    return run


def vision_reader(size: tuple[int, int] = SIZE, table: Table = DEMO_TABLE) -> FrameReader:
    """``vision.read`` on the rendered pixels, ``table``'s camera calibrated (its principal
    point and focal length at ``size``)."""
    return VisionReader(calibrated(size, table))
