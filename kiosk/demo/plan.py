"""The embedded demo's match, as a timeline of board shots and the players' presses and touches.

Pure: no rendering, no files. ``scripts/make_demo.py`` renders each shot with ``vision.render``
and writes the frames; :mod:`kiosk.demo.script` reads them back. The match is one MSO game on
one table (``DEMO_CONFIG``): the opening roll (one die each, the lower die presses the clock,
MSO-clock 3.3), eight turns of legal plays checked by the rules core with hits and a doublet,
a double taken, then a redouble passed (MSO 5.4): player 1 wins 2 points. Each play is made
with a hand over the board (occluded frames, never read) before the board settles.

Times are nanoseconds from the first frame; frames are ``FRAME_NS`` apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kiosk.match.players import Player, opponent
from kiosk.referee.board import START_SIDES, Sides, position_of, sides_of
from kiosk.referee.config import RefereeConfig
from kiosk.referee.events import ButtonSide, CubePlace, Seat, Zone
from kiosk.rules import Dice, apply_play, format_play, position_id, resolve_play

FRAME_NS = 200_000_000
"""The demo camera's frame interval: 5 frames per second."""

DEMO_CONFIG = RefereeConfig(
    ruleset="mso",
    match_length=5,
    reserve_ms=10 * 60_000,
    player0_home="bottom-right",
    player0_colour="light",
    player0_seat="right",
)
"""The demo table: player 0 (light) sits at the bottom with his home board bottom right and his
clock on the right; player 1 (dark) sits at the top, clock on the left. MSO leaves the reserve
to the director (MSO-clock 2.1): 10 minutes each."""


@dataclass(frozen=True)
class Turn:
    """One turn: the mover's dice and play (notation, the mover's numbering). ``double``: the
    mover doubles before rolling and the opponent takes (MSO 5.4)."""

    dice: tuple[int, int]
    play: str
    double: bool = False


OPENING = (3, 1)
"""The opening roll: player 0 (bottom) rolls the 3, player 1 (top) the 1 (MSO 4.1)."""

TURNS: tuple[Turn, ...] = (
    Turn((3, 1), "8/5 6/5"),
    Turn((6, 4), "24/18 13/9"),
    Turn((6, 2), "13/11 13/7*"),
    Turn((5, 3), "bar/22 13/8"),
    Turn((4, 2), "8/4 6/4", double=True),
    Turn((6, 5), "24/18*/13"),
    Turn((6, 4), "bar/21 13/7"),
    Turn((3, 3), "8/5(2) 6/3(2)"),
    Turn((5, 2), "13/11 13/8"),
)
"""The game after the opening roll; player 0 moves first (the higher opening die). After the
last turn player 1 redoubles to 4 and player 0 passes."""


@dataclass(frozen=True)
class DiePlacement:
    """A die to show: its value and the board half it lies in."""

    value: int
    zone: Zone


@dataclass(frozen=True)
class Shot:
    """One still picture of the table: the board (``sides``, each player's own numbering), the
    dice lying on it (``dice_from``: the same dice, unmoved, as in that earlier shot), the cube
    (face, place), and ``hand``: the player on the move's hand over the board (the frame is
    occluded: ``vision.motion``)."""

    sides: Sides
    dice: tuple[DiePlacement, ...]
    cube: tuple[int, CubePlace]
    dice_from: int | None = None
    hand: Player | None = None


ActionKind = Literal["press", "touch"]


@dataclass(frozen=True)
class DemoAction:
    """A scripted input at ``t_ns``: a clock button press (``side`` left/right/centre), or a touch
    of ``action`` (a referee ``TouchAction`` name) on the ``side`` half of the screen."""

    t_ns: int
    kind: ActionKind
    side: ButtonSide
    action: str | None = None


@dataclass(frozen=True)
class Expected:
    """What the referee must conclude from the demo: the position before the final double
    (gnubg Position ID, ``on_roll``'s view), the cube then (value, owner) and the final score."""

    position_id: str
    on_roll: Player
    cube: tuple[int, Player]
    score: tuple[int, int]


@dataclass(frozen=True)
class DemoPlan:
    """Shots, the frame timeline (shot index, t_ns), the scripted actions in time order and the
    expected outcome."""

    config: RefereeConfig
    shots: tuple[Shot, ...]
    frames: tuple[tuple[int, int], ...]
    actions: tuple[DemoAction, ...]
    expected: Expected


def roll_zone(config: RefereeConfig, roller: Player) -> Zone:
    """Where ``roller``'s dice must land: to the right of the bar from his seat (MSO 4.2), that is
    the image's right half for the bottom player and its left half for the top player."""
    return "right-half" if config.player_row(roller) == "bottom" else "left-half"


def after_play(sides: Sides, mover: Player, dice: tuple[int, int], text: str) -> Sides:
    """The board after ``mover`` plays ``text``; ValueError when it is not a legal play."""
    position = position_of(sides, mover)
    play, legal = resolve_play(position, Dice(*dice), text)
    if not legal:
        raise ValueError(f"demo: {text} is not a legal play of {dice[0]}-{dice[1]}")
    return sides_of(apply_play(position, play), mover)


class _Timeline:
    def __init__(self, config: RefereeConfig) -> None:
        self.config = config
        self.shots: list[Shot] = []
        self.frames: list[tuple[int, int]] = []
        self.actions: list[DemoAction] = []
        self.t_ns = 0

    def hold(
        self, shot: Shot, seconds: float, actions: tuple[tuple[float, str, Player], ...] = ()
    ) -> int:
        """Show ``shot`` for ``seconds``; ``actions`` (seconds into the shot, what, by whom):
        ``press`` or a touch action name."""
        index = len(self.shots)
        self.shots.append(shot)
        start = self.t_ns
        for _ in range(round(seconds * 1e9 / FRAME_NS)):
            self.frames.append((index, self.t_ns))
            self.t_ns += FRAME_NS
        for at, what, player in actions:
            seat: Seat = self.config.player_seat(player)
            t_ns = start + round(at * 1e9)
            if what == "press":
                self.actions.append(DemoAction(t_ns, "press", seat))
            else:
                self.actions.append(DemoAction(t_ns, "touch", seat, what))
        return index


def build_plan(config: RefereeConfig = DEMO_CONFIG) -> DemoPlan:
    """The demo timeline (see the module docstring)."""
    line = _Timeline(config)
    centred: tuple[int, CubePlace] = (64, "centre")
    high, low = OPENING
    line.hold(Shot(START_SIDES, (), centred), 2.0)
    opening = (DiePlacement(high, roll_zone(config, 0)), DiePlacement(low, roll_zone(config, 1)))
    roll_shot = line.hold(Shot(START_SIDES, opening, centred), 2.0, ((1.2, "press", 1),))
    sides, cube = START_SIDES, centred
    cube_owner: Player = 0
    mover: Player = 0
    for number, turn in enumerate(TURNS):
        if number > 0:
            if turn.double:
                line.hold(
                    Shot(sides, (), cube),
                    2.0,
                    ((0.6, "double", mover), (1.2, "take", opponent(mover))),
                )
                cube_owner = opponent(mover)
                cube = (2, config.player_row(cube_owner))
            dice = tuple(DiePlacement(value, roll_zone(config, mover)) for value in turn.dice)
            roll_shot = line.hold(Shot(sides, dice, cube), 1.6)
        sides = after_play(sides, mover, turn.dice, turn.play)
        line.hold(Shot(sides, (), cube, dice_from=roll_shot, hand=mover), 0.6)
        line.hold(Shot(sides, (), cube, dice_from=roll_shot), 1.6, ((1.0, "press", mover),))
        mover = opponent(mover)
    expected = Expected(
        position_id(position_of(sides, mover)), mover, (cube[0], cube_owner), (0, 2)
    )
    line.hold(Shot(sides, (), cube), 3.0, ((0.6, "double", mover), (1.4, "pass", opponent(mover))))
    return DemoPlan(config, tuple(line.shots), tuple(line.frames), tuple(line.actions), expected)


def describe(plan: DemoPlan) -> list[str]:
    """The demo's plays in notation, one line per turn (for the generator's log)."""
    lines = [f"opening {OPENING[0]}-{OPENING[1]}"]
    sides: Sides = START_SIDES
    mover: Player = 0
    for turn in TURNS:
        position = position_of(sides, mover)
        play, _ = resolve_play(position, Dice(*turn.dice), turn.play)
        cube = " (doubles, taken)" if turn.double else ""
        lines.append(f"player {mover}{cube}: {turn.dice[0]}-{turn.dice[1]} {format_play(play)}")
        sides = after_play(sides, mover, turn.dice, turn.play)
        mover = opponent(mover)
    lines.append(f"player {mover} redoubles to 4, player {opponent(mover)} passes")
    return lines
