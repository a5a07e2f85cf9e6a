"""The table snapshot: what the touchscreen shows, parsed from a plain dict (no Kivy here).

The referee's players' view is turned into a dict of this shape once per screen frame; the
:class:`~kiosk.app.model.TableModel` is filled from it. Times are integer milliseconds, players
are 0 (left on the screen) and 1 (right), point numbers are image-relative as in the camera
reading (DESIGN.md section 4: 1 is the bottom-right point, 1..12 run right to left along the
bottom row, 13..24 left to right along the top row)::

    {
      "language": "en",                                    # optional: "en" | "ja"
      "players": [{"name": "Aiko", "color": "dark"}, {"name": "Ben", "color": "light"}],
      "clock": {"enabled": true, "allowance_ms": 12000, "allowance_left_ms": 8300,
                "reserves_ms": [540000, 600000], "running": 0, "flag": null},
      "match": {"length": 7, "score": [2, 3], "crawford": false, "post_crawford": false,
                "ruleset": "mso"},
      "cube": {"value": 1, "owner": null, "available": true},  # owner null: centred;
                                                           # available optional (default true)
      "turn": 0,                                           # whose turn, null between games
      "dice": [{"value": 5, "cocked": false, "zone": "right-half"}, ...],   # as read
      "board": {"points": [{"point": 1, "color": "dark", "count": 2}, ... 24 entries],
                "bar": {"light": 0, "dark": 0}, "off": {"light": 0, "dark": 0}},
      "prompt": {"kind": "none"}                           # see kiosk.app.prompts
    }

``board`` is the reading's own structure (``gammon-kiosk read --json``): a point may also carry
``min``/``max`` (a count the camera could not see exactly, shown with "?"), and ``count``/``off``
values may be null (unknown). Keys not listed here are ignored: in particular no pip count,
legal play, equity or gin verdict can reach the players' screen through this snapshot (MSO 1.5,
JBL 1.9); rulings that may show a gin verdict carry it inside their prompt (kiosk.app.prompts).

Bad input raises :class:`SnapshotError` naming the field, e.g. ``clock.reserves_ms``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from kiosk.app.boardview import BoardView, parse_board
from kiosk.app.errors import SnapshotError
from kiosk.app.i18n import LANGUAGES
from kiosk.app.prompts import NO_PROMPT, Prompt, parse_prompt
from kiosk.app.values import (
    COLORS,
    ZONES,
    Color,
    Zone,
    as_int,
    get_bool,
    get_int,
    get_map,
    get_optional_int,
    get_seq,
    get_side,
    get_str,
)

Side = Literal[0, 1]


@dataclass(frozen=True)
class PlayerView:
    """A player's name and checker colour."""

    name: str
    color: Color


@dataclass(frozen=True)
class ClockView:
    """Both clocks: the allowance left in the running turn and each side's reserve (ms)."""

    enabled: bool = True
    allowance_ms: int = 12_000
    allowance_left_ms: int = 12_000
    reserves_ms: tuple[int, int] = (0, 0)
    running: Side | None = None
    flag: Side | None = None


@dataclass(frozen=True)
class MatchView:
    """Match length (0: money session), score, Crawford state and rule set name."""

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    ruleset: str = ""


@dataclass(frozen=True)
class CubeView:
    """Cube value and owner (None: centred); ``available``: False when no double is possible
    (the Crawford game, MSO 5.2 and 5.5; a cube out of play)."""

    value: int = 1
    owner: Side | None = None
    available: bool = True


@dataclass(frozen=True)
class DieView:
    """One die as read: ``value`` None when unreadable; ``zone`` as in the camera reading."""

    value: int | None
    cocked: bool = False
    zone: Zone = "right-half"


@dataclass(frozen=True)
class TableSnapshot:
    """Everything the players' screen shows at one moment."""

    players: tuple[PlayerView, PlayerView] = (
        PlayerView("Player 1", "dark"),
        PlayerView("Player 2", "light"),
    )
    clock: ClockView = ClockView()
    match: MatchView = MatchView()
    cube: CubeView = CubeView()
    turn: Side | None = None
    dice: tuple[DieView, ...] = ()
    board: BoardView = field(default_factory=BoardView)
    prompt: Prompt = NO_PROMPT
    language: str | None = None


def parse_snapshot(data: Mapping[str, object]) -> TableSnapshot:
    """The snapshot in ``data`` (format in the module docstring); SnapshotError names bad fields."""
    if not isinstance(data, Mapping):
        raise SnapshotError("snapshot: expected an object")
    language = data.get("language")
    if language is not None and language not in LANGUAGES:
        raise SnapshotError(f"language: expected one of {', '.join(LANGUAGES)}, got {language!r}")
    return TableSnapshot(
        players=_players(get_seq(data, "players", "players", length=2)),
        clock=_clock(get_map(data, "clock", "clock")),
        match=_match(get_map(data, "match", "match")),
        cube=_cube(get_map(data, "cube", "cube")),
        turn=get_side(data, "turn", "turn"),
        dice=tuple(
            _die(cast(Mapping[str, object], d), f"dice[{i}]")
            for i, d in enumerate(get_seq(data, "dice", "dice", maps=True))
        ),
        board=parse_board(get_map(data, "board", "board"), "board"),
        prompt=parse_prompt(get_map(data, "prompt", "prompt"), "prompt"),
        language=language,
    )


def _players(items: Sequence[object]) -> tuple[PlayerView, PlayerView]:
    views: list[PlayerView] = []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise SnapshotError(f"players[{i}]: expected an object")
        color = get_str(item, "color", f"players[{i}].color", choices=COLORS)
        views.append(PlayerView(get_str(item, "name", f"players[{i}].name"), cast(Color, color)))
    if views[0].color == views[1].color:
        raise SnapshotError("players: both players have the same color")
    return views[0], views[1]


def _clock(data: Mapping[str, object]) -> ClockView:
    reserves = get_seq(data, "reserves_ms", "clock.reserves_ms", length=2)
    return ClockView(
        enabled=get_bool(data, "enabled", "clock.enabled"),
        allowance_ms=get_int(data, "allowance_ms", "clock.allowance_ms", low=0),
        allowance_left_ms=get_int(data, "allowance_left_ms", "clock.allowance_left_ms", low=0),
        reserves_ms=(
            as_int(reserves[0], "clock.reserves_ms[0]"),
            as_int(reserves[1], "clock.reserves_ms[1]"),
        ),
        running=get_side(data, "running", "clock.running"),
        flag=get_side(data, "flag", "clock.flag"),
    )


def _match(data: Mapping[str, object]) -> MatchView:
    score = get_seq(data, "score", "match.score", length=2)
    return MatchView(
        length=get_int(data, "length", "match.length", low=0),
        score=(
            as_int(score[0], "match.score[0]", low=0),
            as_int(score[1], "match.score[1]", low=0),
        ),
        crawford=get_bool(data, "crawford", "match.crawford"),
        post_crawford=get_bool(data, "post_crawford", "match.post_crawford"),
        ruleset=get_str(data, "ruleset", "match.ruleset"),
    )


def _cube(data: Mapping[str, object]) -> CubeView:
    value = get_int(data, "value", "cube.value", low=1)
    if value & (value - 1):
        raise SnapshotError(f"cube.value: expected a power of two, got {value}")
    available = data.get("available", True)
    if not isinstance(available, bool):
        raise SnapshotError(f"cube.available: expected true or false, got {available!r}")
    return CubeView(value=value, owner=get_side(data, "owner", "cube.owner"), available=available)


def _die(data: Mapping[str, object], where: str) -> DieView:
    return DieView(
        value=get_optional_int(data, "value", f"{where}.value", low=1, high=6),
        cocked=get_bool(data, "cocked", f"{where}.cocked"),
        zone=cast(Zone, get_str(data, "zone", f"{where}.zone", choices=ZONES)),
    )
