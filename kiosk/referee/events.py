"""The referee's inputs: settled board readings, dice readings, clock presses, touches, ticks.

Every event carries ``t_ms``, the kiosk's monotonic time in integer milliseconds; the referee never
reads a clock. Seats are the physical sides of the table as the kiosk sees them (``"left"`` and
``"right"`` clock buttons and screen halves; ``"centre"`` is the clock's centre button, which stops
both clocks); the configuration says which seat is which player.

A :class:`BoardReading` uses the image-relative point numbering of ``gammon-kiosk read --json``
(DESIGN.md section 4: 1 is the bottom-right point, 1..12 right to left along the bottom row,
13..24 left to right along the top row); the configuration's orientation maps it to the players'
own points. Counts are ranges (``low``..``high``) because stacked checkers can hide each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Colour = Literal["light", "dark"]
Seat = Literal["left", "right"]
ButtonSide = Literal["left", "right", "centre"]
Zone = Literal["left-half", "right-half", "on-bar", "off-board"]
Row = Literal["top", "bottom"]
CubePlace = Literal["centre", "top", "bottom", "off-board"]
Scalar = str | int | bool | None
Args = tuple[tuple[str, Scalar], ...]

TouchAction = Literal[
    "double",
    "take",
    "pass",
    "concede",
    "claim",
    "accept",
    "reject",
    "condone",
    "demand_legal_play",
    "premature_roll_stands",
    "premature_roll_reroll",
    "setup_play_on",
    "setup_missing_to_bar",
    "permit_other_half",
    "withdraw_permission",
    "claim_time",
    "break",
    "resume",
    "call_director",
    "dice_mix",
]
"""What a player can touch on the screen. ``concede``/``claim`` take ``kind`` (single, gammon,
backgammon) in ``args``; ``double`` may take ``to`` (the face the cube was turned to)."""

DirectorVerb = Literal[
    "rule",
    "set_clock",
    "set_score",
    "set_ruleset",
    "set_position",
    "penalty",
    "gin_verdict",
    "resume",
]
"""What the director does (the PIN is the UI's business). Arguments in ``args``:
``rule``: ``incident`` (id), ``decision`` (text), ``note``; ``set_clock``: ``reserve0_ms``,
``reserve1_ms``; ``set_score``: ``score0``, ``score1``; ``set_ruleset``: ``name`` and
``override.<dotted key>`` values; ``set_position``: ``position_id`` (gnubg, player ``on_roll``'s
view) and ``on_roll``; ``penalty``: ``to``, ``points``; ``gin_verdict``: ``value`` (bool) for the
pending gin question; ``resume``: restart the paused clock."""


@dataclass(frozen=True)
class PointSeen:
    """Checkers on one image point (1..24): colour (None: empty or unknown) and a count range."""

    point: int
    colour: Colour | None
    low: int
    high: int

    def __post_init__(self) -> None:
        if not 1 <= self.point <= 24:
            raise ValueError(f"point: must be 1-24, got {self.point}")
        if not 0 <= self.low <= self.high <= 15:
            raise ValueError(f"point {self.point}: need 0 <= low <= high <= 15")


@dataclass(frozen=True)
class CubeSeen:
    """The doubling cube as read: face (None unreadable) and where it lies (None unknown).

    ``centre`` is on the bar or in the middle; ``top``/``bottom`` the near side of the player
    sitting there; ``off-board`` removed (the Crawford game, MSO 5.2, JBL 4.4.1)."""

    face: int | None
    place: CubePlace | None


@dataclass(frozen=True)
class BoardReading:
    """A settled board: 24 points, bar and trays per colour (None: unreadable), the cube.

    ``occluded``: something (a hand) hides part of the board, so the reading cannot be judged.
    """

    points: tuple[PointSeen, ...]
    bar: tuple[int | None, int | None]
    off: tuple[int | None, int | None]
    cube: CubeSeen | None = None
    occluded: bool = False

    def __post_init__(self) -> None:
        numbers = sorted(p.point for p in self.points)
        if numbers != list(range(1, 25)):
            raise ValueError("points: need each image point 1-24 exactly once")

    def colour_index(self, colour: Colour) -> int:
        """0 for light, 1 for dark: the index into ``bar`` and ``off``."""
        return 0 if colour == "light" else 1


@dataclass(frozen=True)
class DieSeen:
    """One die as read: value (None unreadable), cocked, zone, and optionally the row it lies in
    (nearer the top or bottom player), which identifies the roller of an opening die."""

    value: int | None
    cocked: bool
    zone: Zone
    row: Row | None = None


@dataclass(frozen=True)
class BoardRead:
    """A settled reading of the board."""

    reading: BoardReading
    t_ms: int


@dataclass(frozen=True)
class DiceRead:
    """The dice now on the board (empty: the dice were picked up)."""

    dice: tuple[DieSeen, ...]
    t_ms: int


@dataclass(frozen=True)
class ClockPress:
    """A clock button: a seat's button ends that seat's turn; ``centre`` stops both clocks."""

    side: ButtonSide
    t_ms: int


@dataclass(frozen=True)
class Touch:
    """A player's action on the touchscreen, from ``side``'s half."""

    action: TouchAction
    side: Seat
    t_ms: int
    args: Args = ()

    def arg(self, key: str) -> Scalar:
        """The value of ``key`` in ``args`` (None when absent)."""
        return dict(self.args).get(key)


@dataclass(frozen=True)
class DirectorAction:
    """A director's action (after the UI checked the PIN)."""

    verb: DirectorVerb
    t_ms: int
    args: Args = ()

    def arg(self, key: str) -> Scalar:
        """The value of ``key`` in ``args`` (None when absent)."""
        return dict(self.args).get(key)


@dataclass(frozen=True)
class Tick:
    """Time passes (the UI sends these a few times a second)."""

    t_ms: int


Event = BoardRead | DiceRead | ClockPress | Touch | DirectorAction | Tick
