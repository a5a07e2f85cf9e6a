"""Reading positions and dice from command-line text (shared by the commands)."""

from __future__ import annotations

from kiosk.rules.dice import Dice, InvalidDiceError
from kiosk.rules.ids import InvalidIdError, decode_position_id
from kiosk.rules.position import Position
from kiosk.rules.xgid import parse_xgid


def parse_position(text: str) -> Position:
    """A GNU Backgammon Position ID, or an XGID (``XGID=...``), as a Position.

    Raises ValueError with a message naming what is wrong.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"a Position ID is a string, got {type(text).__name__}")
    if text.upper().startswith("XGID=") or ":" in text:
        return parse_xgid(text).position
    return decode_position_id(text)


def parse_die(value: object, name: str) -> int:
    """One die value 1..6 from an int or a digit string."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise InvalidDiceError(f"{name} must be an integer 1-6, got {value!r}")
    return value


def parse_dice(first: object, second: object) -> Dice:
    """Two dice from ints or digit strings."""
    return Dice(parse_die(first, "first die"), parse_die(second, "second die"))
