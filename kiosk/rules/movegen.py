"""Legal plays, following ``backgammon-rules.txt`` ("Movement of the checkers", "Bearing off").

The rules implemented here:

* a checker moves forward by the exact number of a die to an open point: one not occupied by
  two or more opposing checkers; landing on a single opposing checker (a blot) hits it to the bar;
* a player with checkers on the bar must enter them all before moving any other checker;
* a checker may be borne off only when all fifteen are in the home board: from the point equal
  to the die, or from the highest occupied point when the die is higher than it;
* both dice must be played when possible; when only one can be played, the larger must be
  played if it can; a double is played four times, as many as possible;
* plays are told apart by the position they reach, not by the order of their moves.

The generator follows GNU Backgammon's: both orders of a non-double, and for a double each move
starts no higher than the one before, which loses no resulting position (moving a higher checker
first never prevents a move of a lower one).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.dice import Dice
from kiosk.rules.play import CheckerMove, Play
from kiosk.rules.position import BAR, OFF, Position

Board = list[int]
Step = tuple[int, int, bool, int]
"""One applied move: (source, destination, hit, die)."""


def destination(mover: Board, opponent: Board, source: int, die: int) -> int:
    """Where a checker on ``source`` lands with ``die``, or -1 when the move is not legal.

    ``mover`` and ``opponent`` are 26-slot boards in their owners' numbering.
    """
    if mover[source] == 0 or (source != BAR and mover[BAR]):
        return -1
    target = source - die
    if target > 0:
        return -1 if opponent[BAR - target] > 1 else target
    # Bearing off: every checker must be home (nothing above the six-point, nothing on the bar).
    for index in range(BAR, 6, -1):
        if mover[index]:
            return -1
    if target < 0:
        # A die higher than the point: only from the highest occupied point.
        for index in range(6, source, -1):
            if mover[index]:
                return -1
    return OFF


def apply_step(mover: Board, opponent: Board, source: int, target: int) -> bool:
    """Move one checker in place; return True when it hits a blot."""
    mover[source] -= 1
    mover[target] += 1
    if target and opponent[BAR - target] == 1:
        opponent[BAR - target] = 0
        opponent[BAR] += 1
        return True
    return False


def undo_step(mover: Board, opponent: Board, source: int, target: int, hit: bool) -> None:
    """Reverse :func:`apply_step`."""
    mover[source] += 1
    mover[target] -= 1
    if hit:
        opponent[BAR - target] = 1
        opponent[BAR] -= 1


ResultKey = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(slots=True)
class _Search:
    """Leaves of the play tree: resulting boards with the longest plays reaching them."""

    mover: Board
    opponent: Board
    dice: tuple[int, ...]
    double: bool
    best_depth: int = 0
    results: dict[ResultKey, tuple[Step, ...]] | None = None

    def run(self, depth: int, highest_source: int, path: list[Step]) -> None:
        mover, opponent = self.mover, self.opponent
        moved = False
        if depth < len(self.dice):
            die = self.dice[depth]
            for source in range(highest_source, 0, -1):
                if not mover[source]:
                    continue
                target = destination(mover, opponent, source, die)
                if target < 0:
                    continue
                moved = True
                hit = apply_step(mover, opponent, source, target)
                path.append((source, target, hit, die))
                self.run(depth + 1, source if self.double else BAR, path)
                path.pop()
                undo_step(mover, opponent, source, target, hit)
        if moved or depth < self.best_depth:
            return
        assert self.results is not None
        if depth > self.best_depth:
            self.best_depth = depth
            self.results = {}
        key = (tuple(mover), tuple(opponent))
        if key not in self.results:
            self.results[key] = tuple(path)


def legal_results(position: Position, dice: Dice) -> dict[ResultKey, Play]:
    """Every legal play of ``dice``, keyed by the resulting (mover, opponent) boards.

    The boards stay in the mover's view (the mover has not yet handed over the roll). A roll that
    cannot be played gives one empty play leading to the unchanged board.
    """
    return {key: as_play(path) for key, path in legal_paths(position, dice).items()}


def legal_paths(position: Position, dice: Dice) -> dict[ResultKey, tuple[Step, ...]]:
    """:func:`legal_results` with each play as raw steps (cheaper when most are discarded)."""
    search = _Search(list(position.on_roll), list(position.opponent), dice.moves, dice.is_double)
    search.results = {}
    search.run(0, BAR, [])
    if not dice.is_double:
        # The other order; its plays of the same length merge with the first's.
        search.dice = (dice.low, dice.high)
        search.run(0, BAR, [])
    leaves = search.results
    if not dice.is_double and search.best_depth == 1:
        # Only one die can be played: the larger one when it can be (backgammon-rules.txt).
        larger = {key: path for key, path in leaves.items() if path[0][3] == dice.high}
        if larger:
            leaves = larger
    return leaves


def as_play(path: tuple[Step, ...]) -> Play:
    """The :class:`Play` of raw steps."""
    return Play(tuple(CheckerMove(source, target, hit) for source, target, hit, _ in path))


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every legal play, one per resulting position, in generation order (higher moves first)."""
    return list(legal_results(position, dice).values())


def max_dice_playable(mover: Board, opponent: Board, dice: tuple[int, ...], double: bool) -> int:
    """How many of ``dice`` can be played (in the given order; for a double, any order)."""
    full = len(dice)

    def deepest(depth: int, highest_source: int) -> int:
        if depth == full:
            return depth
        die = dice[depth]
        best = depth
        for source in range(highest_source, 0, -1):
            if not mover[source]:
                continue
            target = destination(mover, opponent, source, die)
            if target < 0:
                continue
            hit = apply_step(mover, opponent, source, target)
            reached = deepest(depth + 1, source if double else BAR)
            undo_step(mover, opponent, source, target, hit)
            if reached == full:
                return full
            best = max(best, reached)
        return best

    return deepest(0, BAR)


def apply_play(position: Position, play: Play) -> Position:
    """The position after ``play`` (moves applied in order, hits derived from the board), with the
    same player still on roll. Raises ValueError when a move starts where there is no checker."""
    mover, opponent = list(position.on_roll), list(position.opponent)
    for move in play.moves:
        if mover[move.source] <= 0:
            raise ValueError(f"no checker of the player on roll on {move.source}")
        apply_step(mover, opponent, move.source, move.destination)
    return Position(tuple(mover), tuple(opponent))
