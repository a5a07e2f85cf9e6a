"""The two players of a match: 0 and 1, numbered as in the match record and the Match ID."""

from typing import Literal

Player = Literal[0, 1]


def opponent(player: Player) -> Player:
    """The other player."""
    return 1 if player == 0 else 0
