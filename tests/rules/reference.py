"""A slow, obviously-correct reference for legal plays, written apart from kiosk.rules.movegen.

Every order of the dice, every checker, no pruning: the rules of backgammon-rules.txt read
literally, on a board kept as a dict of {point: count} per side.
"""

from __future__ import annotations

from itertools import permutations

from kiosk.rules.position import Position

Board = tuple[tuple[int, ...], tuple[int, ...]]


def _single_moves(me: list[int], them: list[int], die: int) -> list[tuple[list[int], list[int]]]:
    """All boards after moving one checker ``die`` pips (slot 0 off, 25 bar)."""
    out = []
    sources = [25] if me[25] > 0 else [p for p in range(1, 25) if me[p] > 0]
    all_home = me[25] == 0 and all(me[p] == 0 for p in range(7, 25))
    for source in sources:
        landing = source - die
        if landing >= 1:
            their_point = 25 - landing
            if them[their_point] >= 2:
                continue
            new_me, new_them = me.copy(), them.copy()
            new_me[source] -= 1
            new_me[landing] += 1
            if new_them[their_point] == 1:
                new_them[their_point] = 0
                new_them[25] += 1
            out.append((new_me, new_them))
        else:
            if not all_home:
                continue
            higher_checkers = any(me[p] > 0 for p in range(source + 1, 25))
            if landing < 0 and higher_checkers:
                continue
            new_me = me.copy()
            new_me[source] -= 1
            new_me[0] += 1
            out.append((new_me, them.copy()))
    return out


def reference_results(position: Position, d1: int, d2: int) -> set[Board]:
    """The set of (mover, opponent) boards reachable by a legal play."""
    dice_lists = {(d1,) * 4} if d1 == d2 else set(permutations((d1, d2)))
    finished: dict[int, set[tuple[Board, int]]] = {}

    def explore(
        me: list[int], them: list[int], rest: tuple[int, ...], used: tuple[int, ...]
    ) -> None:
        options = _single_moves(me, them, rest[0]) if rest else []
        if not options:
            finished.setdefault(len(used), set()).add(
                ((tuple(me), tuple(them)), used[0] if used else 0)
            )
            return
        for new_me, new_them in options:
            explore(new_me, new_them, rest[1:], (*used, rest[0]))

    for dice in dice_lists:
        explore(list(position.on_roll), list(position.opponent), dice, ())
    most = max(finished)
    leaves = finished[most]
    if d1 != d2 and most == 1:
        larger = {leaf for leaf in leaves if leaf[1] == max(d1, d2)}
        if larger:
            leaves = larger
    return {board for board, _ in leaves}
