"""GNU Backgammon Position IDs and Match IDs.

Position ID: 80 bits, base64 without padding (14 characters). For each player in turn (the
player NOT on roll first, as gnubg's code does; its manual describes the order backwards) and for
each of that player's points 1..24 and then the bar, one 1-bit per checker followed by a 0-bit.
Bits fill each byte from the least significant bit. The start position is ``4HPwATDgc/ABMA``.

Match ID: 66 or 67 bits, base64 (12 characters), fields from the least significant bit:
cube value as log2 (4 bits), cube owner (2: 0 or 1 a player, 3 centred), player on roll (1),
Crawford game (1), game state (3), player to act (1), double offered (1), resignation offered
(2), die 1 (3), die 2 (3), match length (15), score of player 0 (15), score of player 1 (15),
and in current gnubg one more bit: the Jacoby rule in force.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from kiosk.rules.position import CHECKERS_PER_SIDE, OFF, SLOTS, Position


class InvalidIdError(ValueError):
    """A Position ID, Match ID or XGID that cannot be decoded."""


_POSITION_ID_LENGTH = 14
_POSITION_KEY_BYTES = 10


def position_key(position: Position) -> bytes:
    """The 10-byte key behind a Position ID."""
    bits = 0
    shift = 0
    for side in (position.opponent, position.on_roll):
        for index in range(1, SLOTS):
            count = side[index]
            if count < 0:
                raise ValueError("a position with a negative count has no Position ID")
            bits |= ((1 << count) - 1) << shift
            shift += count + 1
    if shift > _POSITION_KEY_BYTES * 8:
        raise ValueError("too many checkers for a Position ID")
    return bits.to_bytes(_POSITION_KEY_BYTES, "little")


def position_id(position: Position) -> str:
    """The 14-character GNU Backgammon Position ID, from the view of the player on roll."""
    return base64.b64encode(position_key(position)).decode("ascii")[:_POSITION_ID_LENGTH]


_DECODE_CACHE: dict[str, Position] = {}
_DECODE_CACHE_LIMIT = 1 << 16


def decode_position_id(text: str) -> Position:
    """Decode a Position ID; raise :class:`InvalidIdError` saying what is wrong with it."""
    if not isinstance(text, str):
        raise InvalidIdError(f"a Position ID is a string, not {type(text).__name__}")
    cached = _DECODE_CACHE.get(text)
    if cached is not None:
        return cached
    if len(text) != _POSITION_ID_LENGTH:
        raise InvalidIdError(f"a Position ID has {_POSITION_ID_LENGTH} characters: {text!r}")
    try:
        key = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidIdError(f"not base64: {text!r}") from None
    bits = int.from_bytes(key, "little")
    sides: list[list[int]] = []
    for _player in range(2):
        side = [0] * SLOTS
        for index in range(1, SLOTS):
            count = 0
            while bits & 1:
                count += 1
                bits >>= 1
            bits >>= 1
            side[index] = count
        on_board = sum(side)
        if on_board > CHECKERS_PER_SIDE:
            raise InvalidIdError(f"{text!r} puts {on_board} checkers of one player on the board")
        side[OFF] = CHECKERS_PER_SIDE - on_board
        sides.append(side)
    if bits:
        raise InvalidIdError(f"{text!r} has bits set after the last checker")
    position = Position(tuple(sides[1]), tuple(sides[0]))
    problems = position.problems()
    if problems:
        raise InvalidIdError(f"{text!r}: {problems[0].message}")
    if len(_DECODE_CACHE) >= _DECODE_CACHE_LIMIT:
        _DECODE_CACHE.clear()
    _DECODE_CACHE[text] = position
    return position


class GameState(IntEnum):
    """Match ID game state (gnubg's ``gamestate``)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


CENTRED = 3
"""Match ID cube owner value for a centred cube."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The fields of a GNU Backgammon Match ID; players are 0 and 1.

    ``cube_owner`` is 0, 1 or None (centred); ``dice`` is (0, 0) before the roll;
    ``resignation`` is 0 (none), 1 single, 2 gammon, 3 backgammon; ``match_length`` 0 is money;
    ``jacoby`` is gnubg's Jacoby setting (it records it even in match play).
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    player_to_act: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << 15:
            raise ValueError(f"cube value must be a power of two 1..32768, got {value}")
        if self.cube_owner not in (None, 0, 1):
            raise ValueError(f"cube owner must be 0, 1 or None (centred), got {self.cube_owner}")
        for name, player in (
            ("player on roll", self.player_on_roll),
            ("player to act", self.player_to_act),
        ):
            if player not in (0, 1):
                raise ValueError(f"{name} must be 0 or 1, got {player}")
        if not 0 <= self.resignation <= 3:
            raise ValueError(f"resignation must be 0-3, got {self.resignation}")
        if any(not 0 <= die <= 6 for die in self.dice) or (0 in self.dice and self.dice != (0, 0)):
            raise ValueError(f"dice must be two values 1-6, or (0, 0) before the roll: {self.dice}")
        limit = (1 << 15) - 1
        for name, number in (("match length", self.match_length), ("score", max(self.score))):
            if not 0 <= number <= limit:
                raise ValueError(f"{name} must be 0..{limit}, got {number}")
        if min(self.score) < 0:
            raise ValueError(f"scores must not be negative: {self.score}")


_FIELDS: tuple[tuple[str, int], ...] = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("player_to_act", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("jacoby", 1),
)
_MATCH_KEY_BYTES = 9
_MATCH_ID_LENGTH = 12


def match_id(info: MatchInfo) -> str:
    """The 12-character GNU Backgammon Match ID."""
    values = {
        "cube_log2": info.cube_value.bit_length() - 1,
        "cube_owner": CENTRED if info.cube_owner is None else info.cube_owner,
        "player_on_roll": info.player_on_roll,
        "crawford": int(info.crawford),
        "game_state": int(info.game_state),
        "player_to_act": info.player_to_act,
        "double_offered": int(info.double_offered),
        "resignation": info.resignation,
        "die1": info.dice[0],
        "die2": info.dice[1],
        "match_length": info.match_length,
        "score0": info.score[0],
        "score1": info.score[1],
        "jacoby": int(info.jacoby),
    }
    bits = 0
    shift = 0
    for name, width in _FIELDS:
        bits |= values[name] << shift
        shift += width
    return base64.b64encode(bits.to_bytes(_MATCH_KEY_BYTES, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchInfo:
    """Decode a Match ID; raise :class:`InvalidIdError` saying what is wrong with it."""
    if not isinstance(text, str) or len(text) != _MATCH_ID_LENGTH:
        raise InvalidIdError(f"a Match ID has {_MATCH_ID_LENGTH} characters: {text!r}")
    try:
        key = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidIdError(f"not base64: {text!r}") from None
    bits = int.from_bytes(key, "little")
    values: dict[str, int] = {}
    for name, width in _FIELDS:
        values[name] = bits & ((1 << width) - 1)
        bits >>= width
    if values["cube_owner"] == 2:
        raise InvalidIdError(f"{text!r}: cube owner 2 does not exist")
    if values["game_state"] > max(GameState):
        raise InvalidIdError(f"{text!r}: unknown game state {values['game_state']}")
    try:
        return MatchInfo(
            cube_value=1 << values["cube_log2"],
            cube_owner=None if values["cube_owner"] == CENTRED else values["cube_owner"],
            player_on_roll=values["player_on_roll"],
            crawford=bool(values["crawford"]),
            game_state=GameState(values["game_state"]),
            player_to_act=values["player_to_act"],
            double_offered=bool(values["double_offered"]),
            resignation=values["resignation"],
            dice=(values["die1"], values["die2"]),
            match_length=values["match_length"],
            score=(values["score0"], values["score1"]),
            jacoby=bool(values["jacoby"]),
        )
    except ValueError as error:
        raise InvalidIdError(f"{text!r}: {error}") from None
