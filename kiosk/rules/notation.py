"""Standard backgammon move notation, as written by players and in match files.

Formatting gives the canonical form GNU Backgammon uses: moves sorted from the highest point,
one checker's consecutive moves joined (``24/13``, or ``24/18*/13`` when it hits on the way),
``bar`` and ``off``, hits marked ``*``, repeats as ``(2)``: ``24/18 13/11*``, ``8/5(2)``.

Parsing also accepts the variants found in real files: ``25`` for the bar, ``0`` for off,
``24/18/12``, ``13/7*(2)``, and hits written without ``*``. A parsed play is only a list of
hops; :func:`resolve_play` turns it into the checker moves of a position and roll.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import ResultKey, apply_step, legal_results
from kiosk.rules.play import CheckerMove, Play
from kiosk.rules.position import BAR, OFF, Position


class NotationError(ValueError):
    """Text that is not a play, or a play that does not fit the position and dice."""


def point_name(index: int) -> str:
    """``bar``, ``off`` or the point number."""
    if index == BAR:
        return "bar"
    if index == OFF:
        return "off"
    return str(index)


def format_play(play: Play) -> str:
    """The canonical text of ``play``; ``""`` for a play of no moves."""
    chains: list[list[CheckerMove]] = []
    for move in sorted(play.moves, key=lambda move: -move.source):
        for chain in chains:
            if chain[-1].destination == move.source:
                chain.append(move)
                break
        else:
            chains.append([move])
    # Chains over the same points are written once with a count; a point is marked hit when
    # any of them hit there (the first checker to land on a blot hits it).
    groups: dict[tuple[int, ...], tuple[list[bool], int]] = {}
    for chain in chains:
        path = (chain[0].source, *(move.destination for move in chain))
        hits = [move.hit for move in chain]
        if path in groups:
            previous, count = groups[path]
            groups[path] = ([a or b for a, b in zip(previous, hits, strict=True)], count + 1)
        else:
            groups[path] = (hits, 1)
    texts = []
    for path, (hits, count) in sorted(groups.items(), key=lambda item: (-item[0][0], -item[0][-1])):
        parts = [point_name(path[0])]
        last = len(path) - 1
        for step, (point, hit) in enumerate(zip(path[1:], hits, strict=True), start=1):
            if hit or step == last:
                parts.append(point_name(point) + ("*" if hit else ""))
        text = "/".join(parts)
        texts.append(text if count == 1 else f"{text}({count})")
    return " ".join(texts)


@dataclass(frozen=True, slots=True)
class Hop:
    """A written segment ``source/destination`` (one or more dice), ``hit`` when marked ``*``."""

    source: int
    destination: int
    hit: bool


_POINT = r"(?:bar|off|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$", re.IGNORECASE)
_NO_MOVE = {"", "cannot move", "can't move", "no move", "(no move)"}


def _parse_point(text: str, token: str) -> int:
    lowered = text.lower()
    if lowered == "bar":
        return BAR
    if lowered == "off":
        return OFF
    value = int(text)
    if not OFF <= value <= BAR:
        raise NotationError(f"{token!r}: point {value} is not 0-25")
    return value


def parse_play(text: str) -> list[Hop]:
    """Parse notation into hops in written order (a ``(n)`` repeat is expanded).

    ``"24/18/12"`` gives the hops 24/18 and 18/12. Raises :class:`NotationError` naming the
    offending token.
    """
    if text.strip().lower() in _NO_MOVE:
        return []
    hops: list[Hop] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise NotationError(f"{token!r} is not a move like 24/18, bar/22, 6/off or 8/5(2)")
        repeat = int(match.group(2) or 1)
        if not 1 <= repeat <= 4:
            raise NotationError(f"{token!r}: a move is repeated 1-4 times")
        parts = match.group(1).split("/")
        points = [(_parse_point(part.rstrip("*"), token), part.endswith("*")) for part in parts]
        if points[0][1]:
            raise NotationError(f"{token!r}: a hit is marked on the point a checker lands on")
        chain = []
        for (source, _), (target, hit) in pairwise(points):
            if target >= source:
                raise NotationError(f"{token!r}: {source}/{target} does not move forward")
            if source == OFF or target == BAR:
                raise NotationError(f"{token!r}: checkers move from the bar and to off")
            if hit and target == OFF:
                raise NotationError(f"{token!r}: bearing off cannot hit")
            chain.append(Hop(source, target, hit))
        hops.extend(chain * repeat)
    if len(hops) > 4:
        raise NotationError(f"{text!r} has {len(hops)} moves; a turn has at most 4")
    return hops


def _die_sequences(distance: int, to_off: bool, dice: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Orders of distinct dice (by index) that cover one hop: exactly, or for a bear-off with
    the last die carrying past the edge."""

    def extend(used: tuple[int, ...], total: int) -> Iterator[tuple[int, ...]]:
        seen: set[int] = set()
        for index, die in enumerate(dice):
            if index in used or die in seen:
                continue
            seen.add(die)
            reached = total + die
            if reached == distance or (to_off and reached > distance):
                yield (*used, index)
            elif reached < distance:
                yield from extend((*used, index), reached)

    yield from extend((), 0)


Expansion = tuple[ResultKey, tuple[CheckerMove, ...], int]
"""(resulting boards, moves, number of hits that differ from the written ``*`` marks)."""


def _expansions(position: Position, dice: Dice, hops: list[Hop]) -> Iterator[Expansion]:
    """Every way to play ``hops`` die by die."""
    available = dice.moves

    def walk(
        index: int,
        used: frozenset[int],
        mover: list[int],
        opponent: list[int],
        moves: tuple[CheckerMove, ...],
        mismatches: int,
    ) -> Iterator[Expansion]:
        if index == len(hops):
            yield (tuple(mover), tuple(opponent)), moves, mismatches
            return
        hop = hops[index]
        free_indices = [i for i in range(len(available)) if i not in used]
        free = tuple(available[i] for i in free_indices)
        for order in _die_sequences(hop.source - hop.destination, hop.destination == OFF, free):
            board, other = mover[:], opponent[:]
            steps: list[CheckerMove] = []
            at = hop.source
            for die_index in order:
                if board[at] <= 0:
                    break
                target = max(at - free[die_index], OFF)
                hit = apply_step(board, other, at, target)
                steps.append(CheckerMove(at, target, hit))
                at = target
            else:
                taken = used | {free_indices[i] for i in order}
                wrong = (steps[-1].hit != hop.hit) + sum(step.hit for step in steps[:-1])
                yield from walk(
                    index + 1, taken, board, other, moves + tuple(steps), mismatches + wrong
                )

    yield from walk(0, frozenset(), list(position.on_roll), list(position.opponent), (), 0)


def resolve_play(position: Position, dice: Dice, text: str) -> tuple[Play, bool]:
    """The checker moves meant by ``text`` for ``dice`` in ``position``, and whether they make a
    legal play.

    Where the text leaves the route open (``24/13`` with 6-5, a missing ``*``), a legal reading is
    preferred, and among those the one closest to the written hits. Raises
    :class:`NotationError` when no assignment of the dice fits the text.
    """
    hops = parse_play(text)
    legal = legal_results(position, dice)
    best: tuple[bool, int, tuple[CheckerMove, ...]] | None = None
    for key, moves, mismatches in _expansions(position, dice, hops):
        rank = (key not in legal, mismatches, moves)
        if best is None or rank[:2] < best[:2]:
            best = rank
    if best is None:
        raise NotationError(
            f"{text!r} cannot be played with {dice.first}-{dice.second} in this position"
        )
    return Play(best[2]), not best[0]
