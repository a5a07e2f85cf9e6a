"""Is a board reached by a legal play of a roll? Decided without generating every play.

The search plays the dice towards the target only: a checker may leave a point only while more
checkers stand at or behind every point it passes than the target leaves there (checkers only move
forward, so a move that breaks this can never reach the target), and may hit only a blot the target
shows on the bar. The number of dice a legal play must use is found first, by a search that stops
at the first complete play. Rules as in :mod:`kiosk.rules.movegen`.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import sub

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import (
    ResultKey,
    apply_step,
    as_play,
    destination,
    legal_paths,
    max_dice_playable,
    undo_step,
)
from kiosk.rules.notation import format_play
from kiosk.rules.play import CheckerMove, Play
from kiosk.rules.position import BAR, Position, Side


def _opponent_consistent(before: Side, after: Side) -> bool:
    """The opponent's checkers may only have been hit: blots sent from a point to the bar."""
    if before[0] != after[0]:
        return False
    hits = 0
    for point in range(1, BAR):
        if after[point] != before[point]:
            if before[point] != 1 or after[point] != 0:
                return False
            hits += 1
    return after[BAR] == before[BAR] + hits and hits <= 4


def _slack(before: Side, after: Side) -> list[int] | None:
    """``slack[k]`` = mover's checkers at index >= k now, minus in the target (k = 0..25), or
    None when some is negative (a checker would have to move backwards)."""
    slack = [0] * (BAR + 1)
    now = target = 0
    for index in range(BAR, -1, -1):
        now += before[index]
        target += after[index]
        if now < target:
            return None
        slack[index] = now - target
    return slack


def _die_orders(mover: list[int], opponent: list[int], dice: Dice) -> list[tuple[int, ...]]:
    """The dice sequences a legal play of this roll uses (all of equal, maximal length)."""
    if dice.is_double:
        playable = max_dice_playable(mover, opponent, dice.moves, True)
        return [dice.moves[:playable]]
    high, low = dice.high, dice.low
    if (
        max_dice_playable(mover, opponent, (high, low), False) == 2
        or max_dice_playable(mover, opponent, (low, high), False) == 2
    ):
        return [(high, low), (low, high)]
    for die in (high, low):
        # backgammon-rules.txt: when only one number can be played, the larger if it can be.
        if any(destination(mover, opponent, source, die) >= 0 for source in range(BAR, 0, -1)):
            return [(die,)]
    return [()]


@dataclass(slots=True)
class _Target:
    mover: Side
    opponent: Side
    dice: tuple[int, ...]
    double: bool

    def search(
        self, board: list[int], other: list[int], slack: list[int], depth: int, top: int
    ) -> list[CheckerMove] | None:
        if depth == len(self.dice):
            if tuple(board) == self.mover and tuple(other) == self.opponent:
                return []
            return None
        die = self.dice[depth]
        for source in range(top, 0, -1):
            if not board[source]:
                continue
            target = destination(board, other, source, die)
            if target < 0 or min(slack[target + 1 : source + 1]) < 1:
                continue
            if target and other[BAR - target] == 1 and self.opponent[BAR - target] == 1:
                continue  # this would hit a blot that the target still shows on its point
            hit = apply_step(board, other, source, target)
            moved = slack[: target + 1] + [s - 1 for s in slack[target + 1 : source + 1]]
            moved += slack[source + 1 :]
            rest = self.search(board, other, moved, depth + 1, source if self.double else BAR)
            undo_step(board, other, source, target, hit)
            if rest is not None:
                return [CheckerMove(source, target, hit), *rest]
        return None


def find_play(before: Position, dice: Dice, after: Position) -> Play | None:
    """A legal play of ``dice`` that turns ``before`` into ``after``, or None when there is none.

    ``after`` is in the mover's view (the mover still on roll). A roll that cannot be played is
    matched only by the unchanged board, with the empty play.
    """
    if not _opponent_consistent(before.opponent, after.opponent):
        return None
    slack = _slack(before.on_roll, after.on_roll)
    if slack is None or slack[0] != 0:
        return None
    mover, opponent = list(before.on_roll), list(before.opponent)
    for order in _die_orders(mover, opponent, dice):
        target = _Target(after.on_roll, after.opponent, order, dice.is_double)
        moves = target.search(mover, opponent, slack, 0, BAR)
        if moves is not None:
            return Play(tuple(moves))
    return None


def distance(first: Position, second: Position) -> int:
    """How many checkers stand differently: half the sum of count differences over all slots."""
    return _key_distance((first.on_roll, first.opponent), (second.on_roll, second.opponent))


def _key_distance(first: ResultKey, second: ResultKey) -> int:
    total: int = sum(map(abs, map(sub, first[0], second[0])))
    total += sum(map(abs, map(sub, first[1], second[1])))
    return total // 2


def closest_plays(before: Position, dice: Dice, after: Position, limit: int = 5) -> list[Play]:
    """The legal plays whose result is nearest to ``after`` (what a director's review shows),
    at most ``limit``, ordered by notation among equals."""
    paths = legal_paths(before, dice)
    seen = (after.on_roll, after.opponent)
    scored = [(_key_distance(key, seen), key) for key in paths]
    best = min(score for score, _ in scored)
    nearest = [as_play(paths[key]) for score, key in scored if score == best]
    nearest.sort(key=format_play)
    return nearest[:limit]
