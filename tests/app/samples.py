"""Snapshot dicts in the documented formats, for the app's tests and screenshots."""

from __future__ import annotations

import copy
from typing import Any

# The starting position in image-relative numbering: dark moves 24 -> 1 (home bottom right),
# light moves 1 -> 24.
START_POINTS: dict[int, tuple[str, int]] = {
    1: ("light", 2),
    6: ("dark", 5),
    8: ("dark", 3),
    12: ("light", 5),
    13: ("dark", 5),
    17: ("light", 3),
    19: ("light", 5),
    24: ("dark", 2),
}


def board(
    points: dict[int, tuple[str, int]],
    *,
    bar: tuple[int, int] = (0, 0),
    off: tuple[int | None, int | None] = (0, 0),
) -> dict[str, Any]:
    """A board dict from {point: (color, count)} (other points empty)."""
    entries = []
    for number in range(1, 25):
        color, count = points.get(number, (None, 0))
        entries.append(
            {"point": number, "color": color, "count": count, "min": count, "max": count}
        )
    return {
        "points": entries,
        "bar": {"light": bar[0], "dark": bar[1]},
        "off": {"light": off[0], "dark": off[1]},
    }


MIDGAME: dict[int, tuple[str, int]] = {
    1: ("light", 2),
    4: ("dark", 2),
    6: ("dark", 4),
    7: ("dark", 2),
    8: ("dark", 2),
    12: ("light", 4),
    13: ("dark", 4),
    17: ("light", 3),
    19: ("light", 4),
    20: ("light", 2),
    22: ("dark", 1),
}


def table(**changes: Any) -> dict[str, Any]:
    """A table snapshot in normal play (Aiko, dark, on turn), with top-level ``changes``."""
    snapshot: dict[str, Any] = {
        "language": "en",
        "players": [{"name": "Aiko", "color": "dark"}, {"name": "Ben", "color": "light"}],
        "clock": {
            "enabled": True,
            "allowance_ms": 12000,
            "allowance_left_ms": 8300,
            "reserves_ms": [534_000, 601_000],
            "running": 0,
            "flag": None,
        },
        "match": {
            "length": 7,
            "score": [2, 3],
            "crawford": False,
            "post_crawford": False,
            "ruleset": "mso",
        },
        "cube": {"value": 2, "owner": 1},
        "turn": 0,
        "dice": [
            {"value": 5, "cocked": False, "zone": "right-half"},
            {"value": 2, "cocked": False, "zone": "right-half"},
        ],
        "board": board(MIDGAME),
        "prompt": {"kind": "none"},
    }
    snapshot.update(copy.deepcopy(changes))
    return snapshot


ILLEGAL_MOVE: dict[str, Any] = {
    "kind": "illegal_move",
    "side": 0,
    "dice": [5, 2],
    "play_seen": "13/7 6/4",
    "reason": {"code": "wrong_number", "die": 6},
    "board": board({**MIDGAME, 13: ("dark", 3), 7: ("dark", 3), 6: ("dark", 3), 4: ("dark", 3)}),
    "moves": [[13, 7], [6, 4]],
}

SETUP_ERROR: dict[str, Any] = {
    "kind": "setup_error",
    "board": board({**START_POINTS, 8: ("dark", 2), 9: ("dark", 1)}),
    "expected": board(START_POINTS),
    "rule": "MSO 4.7",
}


def director(**changes: Any) -> dict[str, Any]:
    """A director snapshot with two incidents."""
    snapshot: dict[str, Any] = {
        "incidents": [
            {
                "id": 1,
                "kind": "invalid_roll",
                "rule": "MSO 4.2",
                "t_ms": 95_000,
                "side": 1,
                "dice": [3, 3],
                "ruling": "dismissed",
            },
            {
                "id": 2,
                "kind": "illegal_move",
                "rule": "MSO 4.8",
                "t_ms": 754_000,
                "side": 0,
                "dice": [5, 2],
                "play_seen": "13/7 6/4",
                "legal_plays": ["13/8 6/4", "13/11 13/8", "8/3 6/4", "13/8 8/6"],
                "position_id": "4HPwATDgc/ABMA",
                "snapshot": None,
                "board": ILLEGAL_MOVE["board"],
                "ruling": None,
            },
        ],
        "settings": {
            "ruleset": "mso",
            "match_length": 7,
            "clock": True,
            "delay_s": 12,
            "announce": True,
        },
    }
    snapshot.update(copy.deepcopy(changes))
    return snapshot
