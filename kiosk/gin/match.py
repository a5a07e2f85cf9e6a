"""Match-level gin: does the certain outcome of this game decide the match?

Used on time expiry (BIBA, GA: the expired player loses unless the board is a gin win of the
match; JBL 4.3.3: unless the match win is certain) and on offered ends of game. With
``gammons_count`` (``clock.expiry.gin_gammons_count``: BIBA, GA, JBL), gammons and backgammons
times the cube count where they would win the match; without it only a single game does.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.gin.verdict import GinVerdict, Verdict
from kiosk.rules import MatchInfo


@dataclass(frozen=True, slots=True)
class MatchGin:
    """For the player on roll (``player``, as in the Match ID): the points each side is certain
    to score in this game, the points each still needs, and whether the player on roll wins
    the match in this game ("certain"), cannot ("impossible": the opponent certainly wins it),
    or either may happen. Money play (match length 0) has no match to win: ``match_win`` None.
    """

    player: int
    needed: tuple[int, int]
    certain_points: tuple[int, int]
    match_win: Verdict | None


def certain_points(verdict: GinVerdict, cube_value: int, gammons_count: bool) -> tuple[int, int]:
    """Points (player on roll, opponent) certain to be scored in this game (0 when neither
    side's win is certain)."""
    on_roll = opponent = 0
    if verdict.win == "certain":
        multiple = 1
        if gammons_count and verdict.gammon_win == "certain":
            multiple = 3 if verdict.backgammon_win == "certain" else 2
        on_roll = cube_value * multiple
    if verdict.win == "impossible":
        multiple = 1
        if gammons_count and verdict.gammon_loss == "certain":
            multiple = 3 if verdict.backgammon_loss == "certain" else 2
        opponent = cube_value * multiple
    return on_roll, opponent


def match_gin(verdict: GinVerdict, info: MatchInfo, gammons_count: bool = True) -> MatchGin:
    """The match-level verdict for ``info.player_on_roll`` at ``info``'s score and cube."""
    player = info.player_on_roll
    other = 1 - player
    ours, theirs = certain_points(verdict, info.cube_value, gammons_count)
    points = (ours, theirs) if player == 0 else (theirs, ours)
    if info.match_length == 0:
        return MatchGin(player, (0, 0), points, None)
    needed = (
        max(0, info.match_length - info.score[0]),
        max(0, info.match_length - info.score[1]),
    )
    if points[player] >= needed[player]:
        match_win: Verdict = "certain"
    elif points[other] >= needed[other]:
        match_win = "impossible"
    else:
        match_win = "possible"
    return MatchGin(player, needed, points, match_win)
