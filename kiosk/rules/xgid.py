"""eXtreme Gammon position IDs (XGID).

``XGID=<26 chars>:<cube log2>:<cube owner>:<turn>:<dice>:<score bottom>:<score top>:<crawford or
jacoby>:<match length>:<max cube log2>``. The 26 characters run from the top player's bar
(index 0) over points 1..24 in the bottom player's numbering to the bottom player's bar (25);
``A``..``O`` are 1..15 checkers of the bottom player, ``a``..``o`` of the top player, ``-`` none.
Cube owner and turn are 1 for the bottom player, -1 for the top one (owner 0: centred). The dice
field is ``00`` before the roll, ``D`` when a double is offered, or two digits.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.ids import InvalidIdError
from kiosk.rules.position import BAR, CHECKERS_PER_SIDE, OFF, SLOTS, Position

_PREFIX = "XGID="
_FIELD_COUNT = 10


@dataclass(frozen=True, slots=True)
class Xgid:
    """A decoded XGID. ``bottom_on_roll`` tells which player :attr:`position` puts on roll.

    ``cube_owner`` is 1 (bottom), -1 (top) or 0 (centred); ``dice`` is ``"00"``, ``"D"``
    (a double offered), or two digits; ``score`` is (bottom, top); ``flags`` the Crawford flag in
    a match or the Jacoby/beaver flags in money play; ``match_length`` 0 is money play.
    """

    position: Position
    bottom_on_roll: bool
    cube_log2: int = 0
    cube_owner: int = 0
    dice: str = "00"
    score: tuple[int, int] = (0, 0)
    flags: int = 0
    match_length: int = 0
    max_cube_log2: int = 10


def _count_char(count: int, upper: bool) -> str:
    return "-" if count == 0 else chr((ord("A") if upper else ord("a")) + count - 1)


def format_xgid(xgid: Xgid) -> str:
    """The XGID text for ``xgid``."""
    position = xgid.position
    bottom, top = (
        (position.on_roll, position.opponent)
        if xgid.bottom_on_roll
        else (position.opponent, position.on_roll)
    )
    chars = [_count_char(top[BAR], upper=False)]
    for point in range(1, 25):
        if bottom[point]:
            chars.append(_count_char(bottom[point], upper=True))
        else:
            chars.append(_count_char(top[BAR - point], upper=False))
    chars.append(_count_char(bottom[BAR], upper=True))
    fields = [
        "".join(chars),
        str(xgid.cube_log2),
        str(xgid.cube_owner),
        "1" if xgid.bottom_on_roll else "-1",
        xgid.dice,
        str(xgid.score[0]),
        str(xgid.score[1]),
        str(xgid.flags),
        str(xgid.match_length),
        str(xgid.max_cube_log2),
    ]
    return _PREFIX + ":".join(fields)


def _int_field(fields: list[str], index: int, name: str, low: int, high: int) -> int:
    try:
        value = int(fields[index])
    except ValueError:
        raise InvalidIdError(f"XGID {name} must be an integer, got {fields[index]!r}") from None
    if not low <= value <= high:
        raise InvalidIdError(f"XGID {name} must be {low}..{high}, got {value}")
    return value


def parse_xgid(text: str) -> Xgid:
    """Parse an XGID (with or without the ``XGID=`` prefix); missing trailing fields default."""
    body = text.strip()
    if body.upper().startswith(_PREFIX):
        body = body[len(_PREFIX) :]
    fields = body.split(":")
    if len(fields) > _FIELD_COUNT:
        raise InvalidIdError(f"an XGID has at most {_FIELD_COUNT} fields, got {len(fields)}")
    defaults = ["", "0", "0", "1", "00", "0", "0", "0", "0", "10"]
    fields += defaults[len(fields) :]
    board = fields[0]
    if len(board) != SLOTS:
        raise InvalidIdError(f"XGID position must have {SLOTS} characters, got {len(board)}")
    bottom = [0] * SLOTS
    top = [0] * SLOTS
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "O":
            if index == 0:
                raise InvalidIdError("XGID position: index 0 is the top player's bar")
            bottom[index] = ord(char) - ord("A") + 1
        elif "a" <= char <= "o":
            if index == BAR:
                raise InvalidIdError("XGID position: index 25 is the bottom player's bar")
            top[BAR - index] = ord(char) - ord("a") + 1
        else:
            raise InvalidIdError(f"XGID position: unexpected character {char!r} at {index}")
    for name, side in (("bottom", bottom), ("top", top)):
        on_board = sum(side)
        if on_board > CHECKERS_PER_SIDE:
            raise InvalidIdError(f"XGID position: the {name} player has {on_board} checkers")
        side[OFF] = CHECKERS_PER_SIDE - on_board
    cube_log2 = _int_field(fields, 1, "cube value", 0, 15)
    cube_owner = _int_field(fields, 2, "cube owner", -1, 1)
    turn = _int_field(fields, 3, "turn", -1, 1)
    if turn == 0:
        raise InvalidIdError("XGID turn must be 1 (bottom) or -1 (top)")
    dice = fields[4]
    if not (dice in ("00", "D", "B", "R") or (len(dice) == 2 and all(c in "123456" for c in dice))):
        raise InvalidIdError(f"XGID dice must be 00, D, B, R or two digits 1-6, got {dice!r}")
    score = (
        _int_field(fields, 5, "bottom score", 0, 32767),
        _int_field(fields, 6, "top score", 0, 32767),
    )
    flags = _int_field(fields, 7, "Crawford/Jacoby flag", 0, 3)
    match_length = _int_field(fields, 8, "match length", 0, 32767)
    max_cube = _int_field(fields, 9, "maximum cube", 0, 15)
    bottom_on_roll = turn == 1
    position = (
        Position(tuple(bottom), tuple(top))
        if bottom_on_roll
        else Position(tuple(top), tuple(bottom))
    )
    problems = position.problems()
    if problems:
        raise InvalidIdError(f"XGID position: {problems[0].message}")
    return Xgid(
        position, bottom_on_roll, cube_log2, cube_owner, dice, score, flags, match_length, max_cube
    )
