"""The gin questions the referee asks, answered by a function the caller injects.

Whoever runs the referee passes a ``GinJudge`` (or None): ``gin_judge(tables)`` answers with
``kiosk.gin`` and its bear-off tables. It must be pure, so that a replay gives the same verdicts.
An answer of None means "cannot tell": the question goes to the director (``gin_verdict``). A
judge that raises (``GinUnavailableError``, or any other failure) is taken as "cannot tell" too,
with an incident naming the reason (``Context.ask_gin``): it never stops the referee.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.gin import BearoffTables, Verdict, gin
from kiosk.match import ResultKind
from kiosk.match.players import Player
from kiosk.rules import Position


@dataclass(frozen=True)
class GinQuestion:
    """Is it certain, whatever the dice, that ``winner`` wins this game by ``kind``?

    ``exactly``: False asks "at least ``kind``" (a gin win of the match at time expiry, BIBA "Time
    Expiration", GA "Time Control", JBL 4.3.3); True asks "``kind`` and no more, no less" (an
    offered end of game that must be accepted, GA "Completing a game", JBL 4.6, BIBA 4.9).
    ``position`` is from the view of ``on_roll``, the player to roll next.
    """

    position: Position
    on_roll: Player
    winner: Player
    kind: ResultKind
    exactly: bool


GinJudge = Callable[[GinQuestion], bool | None]


class GinUnavailableError(Exception):
    """The judge cannot answer this question; the message says why (e.g. the bear-off tables do
    not reach the position)."""


def _certain(verdict: Verdict) -> bool | None:
    return True if verdict == "certain" else False if verdict == "impossible" else None


def gin_judge(tables: BearoffTables) -> GinJudge:
    """A ``GinJudge`` backed by ``kiosk.gin`` and its bear-off ``tables`` (load them with
    ``kiosk.gin.load_tables`` outside the referee: that is the I/O). Unproven verdicts answer
    None, so the question goes to the director; a home board beyond the tables raises
    ``GinUnavailableError``."""
    reach = max((sum(home) for home in tables.positions), default=0)

    def judge(question: GinQuestion) -> bool | None:
        if question.position.is_game_over():
            return None
        try:
            verdict = gin(question.position, tables)
        except KeyError:
            raise GinUnavailableError(
                f"the bear-off tables reach home boards of {reach} checkers, "
                "fewer than this position has"
            ) from None
        mine = question.winner == question.on_roll
        at_least = {
            "single": verdict.win if mine else _flip(verdict.win),
            "gammon": verdict.gammon_win if mine else verdict.gammon_loss,
            "backgammon": verdict.backgammon_win if mine else verdict.backgammon_loss,
        }
        reached = at_least[question.kind]
        if not question.exactly or question.kind == "backgammon":
            answer = _certain(reached)
        else:
            beyond = at_least["gammon" if question.kind == "single" else "backgammon"]
            if reached == "certain" and beyond == "impossible":
                answer = True
            elif reached == "impossible" or beyond == "certain":
                answer = False
            else:
                answer = None
        if answer is None and verdict.exact:
            return False
        return answer

    return judge


def _flip(verdict: Verdict) -> Verdict:
    """The opponent's view of a win verdict (no draws in backgammon)."""
    return (
        "certain" if verdict == "impossible" else "impossible" if verdict == "certain" else verdict
    )
