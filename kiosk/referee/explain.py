"""Say in words what was played and what makes it illegal, e.g. "a 6 was played with 5-2".

The checker movements are read off the difference of two boards: the points that lost checkers
are paired, highest first, with the points that gained them (the mover's own numbering). That is
what a player sees on the board, not necessarily the order the checkers were moved in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kiosk.match.players import Player, opponent
from kiosk.referee.board import Sides
from kiosk.rules import BAR, OFF, Dice
from kiosk.rules.notation import point_name


def movements(before: tuple[int, ...], after: tuple[int, ...]) -> list[tuple[int, int]]:
    """(from, to) pairs of one side's checkers, highest first; opponent hits are not included."""
    sources: list[int] = []
    targets: list[int] = []
    for slot in range(BAR, OFF - 1, -1):
        change = after[slot] - before[slot]
        if change < 0:
            sources += [slot] * -change
        elif change > 0:
            targets += [slot] * change
    return list(zip(sources, targets, strict=False))


def play_seen(before: Sides, after: Sides, mover: Player) -> str:
    """The movements of ``mover``'s checkers in notation (``"13/7 6/4"``), ``""`` for none."""
    moves = movements(before[mover], after[mover])
    return " ".join(f"{point_name(a)}/{point_name(b)}" for a, b in moves)


def _coverable(distances: list[tuple[int, bool]], dice: list[int]) -> bool:
    """Each distance made of its own dice (a bear-off may use a larger die than its distance)."""
    if not distances:
        return True
    (distance, bearing_off), rest = distances[0], distances[1:]
    count = len(dice)
    for mask in range(1, 1 << count):
        used = [dice[i] for i in range(count) if mask >> i & 1]
        total = sum(used)
        if total == distance or (bearing_off and total > distance > total - min(used)):
            left = [dice[i] for i in range(count) if not mask >> i & 1]
            if _coverable(rest, left):
                return True
    return False


ReasonCode = Literal[
    "opponent_moved",
    "count_changed",
    "backwards",
    "wrong_number",
    "too_much",
    "not_all",
    "bar_first",
    "bear_off_early",
    "movement",
]


@dataclass(frozen=True)
class Reason:
    """Why a play is illegal: a code for the screen's translations, the English text, and the
    pips of the checker concerned (``wrong_number``)."""

    code: ReasonCode
    text: str
    number: int | None = None


def why_illegal(before: Sides, after: Sides, mover: Player, dice: Dice, play_length: int) -> Reason:
    """The first reason found, in the order a monitor would say it; ``play_length`` is the number
    of dice a legal play uses."""
    other = opponent(mover)
    was, now = before[other], after[other]
    hits = sum(1 for p in range(1, BAR) if was[p] == 1 and now[p] == 0)
    if (
        now[OFF] != was[OFF]
        or now[BAR] != was[BAR] + hits
        or any(now[p] != was[p] and not (was[p] == 1 and now[p] == 0) for p in range(1, BAR))
    ):
        text = "the opponent's checkers were moved (only a hit blot goes to the bar)"
        return Reason("opponent_moved", text)
    if sum(after[mover]) != sum(before[mover]):
        return Reason("count_changed", "checkers were added to or taken from the board")
    moves = movements(before[mover], after[mover])
    if any(target >= source for source, target in moves):
        return Reason("backwards", "a checker was moved backwards")
    roll = f"{dice.first}-{dice.second}"
    spans = [(source - target, target == OFF) for source, target in moves]
    for span, bearing_off in spans:
        if not _coverable([(span, bearing_off)], list(dice.moves)):
            article = "an" if span in (8, 11, 18) else "a"
            return Reason("wrong_number", f"{article} {span} was played with {roll}", span)
    if not _coverable(spans, list(dice.moves)):
        return Reason("too_much", f"more than {roll} was played")
    used = sum(span for span, _ in spans)
    if used < sum(dice.moves[:play_length]) and len(moves) < play_length:
        return Reason("not_all", f"not all of {roll} was played though it could be")
    if after[mover][BAR] and any(source != BAR for source, _ in moves):
        return Reason("bar_first", "a checker was moved while another stayed on the bar")
    if any(target == OFF for _, target in moves) and any(
        after[mover][slot] for slot in range(7, BAR + 1)
    ):
        return Reason("bear_off_early", "a checker was borne off while others were not home")
    text = f"this play of {roll} breaks the rules of movement (a held point, or the larger die)"
    return Reason("movement", text)
