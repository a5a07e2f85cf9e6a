"""Brute-force oracle for gin verdicts: the whole two-sided game tree of a small no-contact
position, every roll and every legal play (from the rules engine, ``kiosk.rules.legal_results``).

Outcome values are from the view of the side on roll at the root (A): +1/+2/+3 for A's single,
gammon, backgammon win, -1/-2/-3 for B's. ``guarantee(a, b, a_forces)`` is the value the forcing
side can secure whatever the dice: A plays to maximise, B to minimise, the dice go against the
forcing side. Without contact a side's plays do not depend on the other side, so each side's
plays are generated once per (side, roll) against an empty board.
"""

from __future__ import annotations

from functools import cache

from kiosk.rules import Dice, Position, legal_results

Side = tuple[int, ...]
ROLLS = tuple(Dice(high, low) for high in range(1, 7) for low in range(1, high + 1))
_EMPTY: Side = (15,) + (0,) * 25


@cache
def results(side: Side, roll: Dice) -> tuple[Side, ...]:
    """The mover's sides after each legal play of ``roll``."""
    return tuple(mover for mover, _ in legal_results(Position(side, _EMPTY), roll))


def magnitude(loser: Side) -> int:
    """1 single, 2 gammon, 3 backgammon, judged on the loser's side at the end."""
    if loser[0] > 0:
        return 1
    return 3 if any(loser[19:26]) else 2


@cache
def guarantee(mover: Side, other: Side, mover_is_a: bool, a_forces: bool) -> int:
    """The outcome value (A's view) the forcing side can secure, ``mover`` to roll."""
    pick_play = max if mover_is_a else min
    pick_roll = min if a_forces else max
    values = []
    for roll in ROLLS:
        outcomes = []
        for after in results(mover, roll):
            if not any(after[1:]):
                value = magnitude(other)
                outcomes.append(value if mover_is_a else -value)
            else:
                outcomes.append(guarantee(other, after, not mover_is_a, a_forces))
        values.append(pick_play(outcomes))
    return pick_roll(values)


def expected_verdicts(a: Side, b: Side) -> dict[str, str]:
    """The exact verdicts for A (on roll) against B."""
    secured_by_a = guarantee(a, b, True, True)
    secured_by_b = guarantee(a, b, True, False)

    def verdict(certain: bool, impossible: bool) -> str:
        return "certain" if certain else "impossible" if impossible else "possible"

    return {
        "win": verdict(secured_by_a >= 1, secured_by_b <= -1),
        "gammon_win": verdict(secured_by_a >= 2, secured_by_b <= 1),
        "backgammon_win": verdict(secured_by_a >= 3, secured_by_b <= 2),
        "gammon_loss": verdict(secured_by_b <= -2, secured_by_a >= -1),
        "backgammon_loss": verdict(secured_by_b <= -3, secured_by_a >= -2),
    }
