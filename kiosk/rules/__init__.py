"""The pure rules core: positions, dice, legal plays, legality verdicts, notation and IDs.

No I/O, no clock, no randomness. Rules follow ``shared/rules/backgammon-rules.txt``.
"""

from kiosk.rules.dice import Dice, InvalidDiceError, rolls_showing
from kiosk.rules.ids import (
    GameState,
    InvalidIdError,
    MatchInfo,
    decode_match_id,
    decode_position_id,
    match_id,
    position_id,
)
from kiosk.rules.movegen import apply_play, legal_plays, legal_results
from kiosk.rules.notation import NotationError, format_play, parse_play, resolve_play
from kiosk.rules.play import CheckerMove, Play
from kiosk.rules.position import (
    BAR,
    CHECKERS_PER_SIDE,
    OFF,
    START,
    InvalidPositionError,
    Position,
    Problem,
    ProblemKind,
)
from kiosk.rules.verdict import closest_plays, find_play
from kiosk.rules.xgid import Xgid, format_xgid, parse_xgid

__all__ = [
    "BAR",
    "CHECKERS_PER_SIDE",
    "OFF",
    "START",
    "CheckerMove",
    "Dice",
    "GameState",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPositionError",
    "MatchInfo",
    "NotationError",
    "Play",
    "Position",
    "Problem",
    "ProblemKind",
    "Xgid",
    "apply_play",
    "closest_plays",
    "decode_match_id",
    "decode_position_id",
    "find_play",
    "format_play",
    "format_xgid",
    "legal_plays",
    "legal_results",
    "match_id",
    "parse_play",
    "parse_xgid",
    "position_id",
    "resolve_play",
    "rolls_showing",
]
