"""A roll of two dice (``backgammon-rules.txt``, "Movement of the checkers")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


class InvalidDiceError(ValueError):
    """A die value outside 1..6."""


@dataclass(frozen=True, slots=True)
class Dice:
    """Two die values, each 1..6, in the order rolled (the order does not matter for play)."""

    first: int
    second: int

    def __post_init__(self) -> None:
        for name, value in (("first die", self.first), ("second die", self.second)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                raise InvalidDiceError(f"{name} must be an integer 1-6, got {value!r}")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Parse ``"52"``, ``"5-2"`` or ``"5 2"``."""
        digits = [c for c in text if not c.isspace() and c not in "-,"]
        if len(digits) != 2 or not all(c.isdigit() for c in digits):
            raise InvalidDiceError(f"dice must be two digits 1-6, got {text!r}")
        return cls(int(digits[0]), int(digits[1]))

    def __str__(self) -> str:
        return f"{self.first}{self.second}"

    @property
    def is_double(self) -> bool:
        """Both dice show the same number: it is played four times."""
        return self.first == self.second

    @property
    def high(self) -> int:
        """The larger value."""
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        """The smaller value."""
        return min(self.first, self.second)

    @property
    def moves(self) -> tuple[int, ...]:
        """The pips available: four times the number for a double, else both values."""
        if self.is_double:
            return (self.first,) * 4
        return (self.high, self.low)


def rolls_showing(known: Sequence[int]) -> tuple[Dice, ...]:
    """Every roll (high die first, each pair once: 21 in all) that shows the values ``known``
    (none, one or two of them, 1..6): the rolls a pair of dice may be when only ``known`` was
    read."""
    if len(known) > 2:
        raise InvalidDiceError(f"a roll shows two values, got {len(known)}")
    for value in known:
        Dice(value, value)  # raises InvalidDiceError naming a value outside 1..6
    wanted = Counter(known)
    return tuple(
        Dice(high, low)
        for high in range(1, 7)
        for low in range(1, high + 1)
        if wanted <= Counter((high, low))
    )
