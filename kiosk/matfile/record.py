"""A Jellyfish/GNU Backgammon ``.mat`` match record as plain values.

Players are 0 (the left column of the record) and 1 (the right column). Each game is the list of
the actions written in it, in the order they happened: line by line, left column first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ActionKind = Literal["roll", "double", "take", "drop", "win"]
"""``roll``: dice and the play made with them (possibly none); ``double``: ``Doubles => N``;
``take``/``drop``: the answer to a double; ``win``: ``Wins N point(s)`` (``and the match``)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game. ``line`` is the 1-based line in the file (0 for a record built in
    code), ``move_number`` the ``NN)`` of that line (None on an unnumbered result line).

    ``play`` is the notation as written (``""`` for ``Cannot Move`` or an empty roll);
    ``unreadable`` marks a play written ``???``. ``value`` is the cube value offered by a
    double or the points won by a win.
    """

    player: int
    kind: ActionKind
    dice: tuple[int, int] | None = None
    play: str = ""
    unreadable: bool = False
    value: int = 0
    match_won: bool = False
    line: int = 0
    move_number: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its number, the score written at its start (player 0, player 1), its actions."""

    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole record. ``match_length`` 0 is a money session; ``tags`` are the ``; [Key "v"]``
    headers in order; ``comments`` every other ``;`` line (without the ``;``)."""

    match_length: int
    players: tuple[str, str]
    games: tuple[Game, ...]
    tags: tuple[tuple[str, str], ...] = ()
    comments: tuple[str, ...] = field(default=())
