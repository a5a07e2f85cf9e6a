"""Match state: score, Crawford, game results, penalty points and the end of the match.

Values are immutable; transitions are pure functions returning a new ``Match`` and raising a
``MatchError`` subclass for a transition that cannot happen (a game result with no game in
progress, anything after the match is over). ``length == 0`` is a money session: no end, no
Crawford game. Sides 0 and 1 are the players as in the match record and the Match ID.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from kiosk.match.players import Player
from kiosk.rulesets import RuleSet

ResultKind = Literal["single", "gammon", "backgammon"]
GameEnd = Literal["bear_off", "pass", "concession", "claim", "adjudication"]
MatchEnd = Literal["score", "penalty_points", "time", "time_gin", "forfeit"]
PenaltyReason = Literal["late_arrival", "time_expiry", "slow_play", "director"]

_MULTIPLIER: dict[ResultKind, int] = {"single": 1, "gammon": 2, "backgammon": 3}


class MatchError(Exception):
    """A match transition that cannot happen in the current state."""


class MatchOverError(MatchError):
    """The match has already been won."""


class GameInProgressError(MatchError):
    """A game is in progress; it must end first."""


class NoGameInProgressError(MatchError):
    """No game is in progress."""


class InvalidResultError(MatchError):
    """A game result that the rules do not allow (bad cube value, a cube in the Crawford game)."""


@dataclass(frozen=True)
class GameResult:
    """One finished game. ``points`` = cube value x 1, 2 or 3 (1 under the Jacoby rule)."""

    number: int
    winner: Player
    kind: ResultKind
    cube_value: int
    points: int
    ended_by: GameEnd
    crawford: bool
    jacoby_applied: bool


@dataclass(frozen=True)
class Penalty:
    """Penalty points given to ``to`` (e.g. MSO 2.3 late arrival, MSO-clock 5.1 time expiry)."""

    to: Player
    points: int
    reason: PenaltyReason
    rule: str
    game: int


@dataclass(frozen=True)
class Match:
    """A match (or a money session) between players 0 and 1.

    ``game_number`` counts games started. ``crawford_game`` says whether the game in progress is
    the Crawford game. ``cube_frozen`` is MSO-clock 5.2's frozen cube for the game in progress.
    """

    length: int
    crawford_rule: bool
    score: tuple[int, int] = (0, 0)
    game_number: int = 0
    in_game: bool = False
    crawford_game: bool = False
    crawford_played: bool = False
    crawford_forced: bool = False
    cube_frozen: bool = False
    games: tuple[GameResult, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    winner: Player | None = None
    ended_by: MatchEnd | None = None

    @property
    def money(self) -> bool:
        """A money session (no match length)."""
        return self.length == 0

    @property
    def over(self) -> bool:
        """The match has a winner."""
        return self.winner is not None

    def away(self, side: Player) -> int:
        """Points ``side`` still needs (0 in a money session)."""
        return max(0, self.length - self.score[side]) if self.length else 0

    @property
    def post_crawford(self) -> bool:
        """After the Crawford game, with a player at match point (MSO 5.5)."""
        return self.crawford_played and not self.money and min(self.away(0), self.away(1)) == 1


def new_match(rules: RuleSet, length: int, score: tuple[int, int] = (0, 0)) -> Match:
    """A match of ``length`` points (0: a money session) at ``score`` (a match under way).

    The Crawford rule follows ``cube.crawford`` (MSO 5.5, JBL 4.4.4); never in money play.
    """
    if length < 0:
        raise MatchError(f"length: must be 0 (money) or a positive number of points, got {length}")
    if length and not all(0 <= s < length for s in score):
        raise MatchError(f"score: each score must be from 0 to {length - 1}, got {score}")
    if not length and min(score) < 0:
        raise MatchError(f"score: must not be negative, got {score}")
    crawford = rules.cube.crawford and length > 0
    return Match(length=length, crawford_rule=crawford, score=score)


def start_game(match: Match) -> Match:
    """The next game begins; it is the Crawford game when a player has just reached match point
    (MSO 5.5, JBL 4.4.4) or penalty points forced it (MSO-clock 5.2)."""
    _require_open(match)
    if match.in_game:
        raise GameInProgressError(f"game {match.game_number} is still in progress")
    away = sorted((match.away(0), match.away(1)))
    at_match_point = not match.money and away[0] == 1
    # The Crawford game follows a player's reaching match point while the other has not: never
    # when both are 1-away (a 1-point match, or double match point after the Crawford game).
    crawford = not match.crawford_played and (
        (match.crawford_rule and at_match_point and away[1] > 1)
        or (match.crawford_forced and at_match_point)
    )
    return dataclasses.replace(
        match,
        game_number=match.game_number + 1,
        in_game=True,
        crawford_game=crawford,
        cube_frozen=False,
    )


def result_kind(loser_borne_off: int, loser_in_winners_home_or_on_bar: bool) -> ResultKind:
    """Single, gammon or backgammon from the loser's checkers at the end of the game.

    A gammon is a loser with no checker borne off, however many it started with: fewer than 15
    checkers can still be gammoned or backgammoned (MSO 4.7, JBL 4.2.4(1)).
    """
    if loser_borne_off < 0:
        raise InvalidResultError(f"loser_borne_off: must be >= 0, got {loser_borne_off}")
    if loser_borne_off > 0:
        return "single"
    return "backgammon" if loser_in_winners_home_or_on_bar else "gammon"


def game_points(
    rules: RuleSet, kind: ResultKind, cube_value: int, cube_turned: bool
) -> tuple[int, bool]:
    """Points for a result and whether the Jacoby rule cut it to a single game.

    Gammons and backgammons count x cube (MSO 5.3); in money play with the Jacoby rule they
    count only once a double was offered (backgammon-rules.txt "Optional Rule").
    """
    if cube_value < 1 or cube_value & (cube_value - 1):
        raise InvalidResultError(f"cube_value: must be a power of two >= 1, got {cube_value}")
    jacoby = rules.money and rules.cube.jacoby and not cube_turned and kind != "single"
    return cube_value * (1 if jacoby else _MULTIPLIER[kind]), jacoby


def finish_game(
    match: Match,
    rules: RuleSet,
    winner: Player,
    kind: ResultKind,
    cube_value: int,
    ended_by: GameEnd,
    cube_turned: bool = False,
) -> Match:
    """The game in progress ends: ``winner`` scores ``kind`` x ``cube_value``.

    A pass scores the value before the double (``kiosk.cube.pass_double`` gives it; MSO 5.4). A
    cube above 1 in the Crawford game is an ``InvalidResultError`` (MSO 5.5, JBL 4.4.4).
    """
    _require_open(match)
    if not match.in_game:
        raise NoGameInProgressError("no game is in progress")
    if match.crawford_game and cube_value != 1:
        rule = rules.rule("cube.crawford")
        raise InvalidResultError(f"cube_value: no cube in the Crawford game ({rule})")
    if ended_by == "pass" and kind != "single":
        raise InvalidResultError("kind: a passed double is a single game at the cube's old value")
    points, jacoby = game_points(rules, kind, cube_value, cube_turned)
    result = GameResult(
        number=match.game_number,
        winner=winner,
        kind=kind,
        cube_value=cube_value,
        points=points,
        ended_by=ended_by,
        crawford=match.crawford_game,
        jacoby_applied=jacoby,
    )
    after = _add_points(match, winner, points)
    return dataclasses.replace(
        after,
        in_game=False,
        cube_frozen=False,
        crawford_played=match.crawford_played or match.crawford_game,
        games=(*match.games, result),
        ended_by="score" if after.winner is not None else None,
    )


def award_penalty(
    match: Match, rules: RuleSet, to: Player, points: int, reason: PenaltyReason, rule: str
) -> Match:
    """Penalty points to ``to`` (MSO 2.3, MSO-clock 5.1); they may end the match at once.

    MSO-clock 5.2: if they bring ``to`` within one point of winning, the cube is frozen for the
    game in progress and the next game is the Crawford game.
    """
    _require_open(match)
    if points < 1:
        raise MatchError(f"points: a penalty is at least 1 point, got {points}")
    penalty = Penalty(to=to, points=points, reason=reason, rule=rule, game=match.game_number)
    after = _add_points(match, to, points)
    after = dataclasses.replace(after, penalties=(*match.penalties, penalty))
    if after.winner is not None:
        return dataclasses.replace(after, ended_by="penalty_points", in_game=False)
    expiry = rules.clock.expiry
    if not match.money and after.away(to) == 1 and match.away(to) > 1:
        after = dataclasses.replace(
            after,
            cube_frozen=after.cube_frozen or (expiry.freeze_cube_within_one and match.in_game),
            crawford_forced=after.crawford_forced or expiry.next_game_crawford,
        )
    return after


def end_match(match: Match, winner: Player, ended_by: MatchEnd) -> Match:
    """The match ends without reaching the score: lost on time (BIBA, GA, JBL 4.3.3), won on a
    gin at time expiry, or forfeited (MSO 2.3)."""
    _require_open(match)
    if match.money:
        raise MatchError("a money session has no match to win or lose")
    return dataclasses.replace(match, winner=winner, ended_by=ended_by, in_game=False)


def _add_points(match: Match, side: Player, points: int) -> Match:
    score = list(match.score)
    score[side] += points
    won = not match.money and score[side] >= match.length
    return dataclasses.replace(
        match, score=(score[0], score[1]), winner=side if won else match.winner
    )


def _require_open(match: Match) -> None:
    if match.over:
        raise MatchOverError(f"the match is over: player {match.winner} won")
