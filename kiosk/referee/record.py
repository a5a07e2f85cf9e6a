"""The match as the referee followed it, as a ``.mat`` record (:class:`kiosk.matfile.MatchRecord`).

Pure: the referee's state in, the record out (``kiosk.store.export_mat`` writes it). Each game's
log (``RefereeState.logs``, then the game in progress) becomes a game of the record: every move
with its dice and play in the mover's own numbering (``24/18 13/9``, an empty play for a roll
that could not be played), every double, take and drop, and the ``Wins N points`` line with the
points the kiosk scored (MSO 5.3, 5.4). An accepted concession is written as GNU Backgammon
writes a resignation: the winner's ``Wins`` line alone. Players are 0 (the left column, as in
the Match ID) and 1.

A game's score line is the score it started at: the match's starting score
(``RefereeConfig.score``), plus every earlier game's points and every penalty awarded before the
game (MSO 2.3, MSO-clock 5.1). What a ``.mat`` file cannot say is written as ``;`` comments:
penalty points, the director's adjustments, a closed-out player's turn without a roll
(MSO-clock 3.4: a record has no line for it, so the next move is the same player's again), and a
match ended otherwise than by the score (lost on time, won on a gin, forfeited: BIBA, GA,
JBL 4.3.3, MSO 2.3). A game stopped undecided (the
match ended during it) is written as far as it went, without a ``Wins`` line.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from kiosk.match import Match
from kiosk.matfile.record import Action, Game, MatchRecord
from kiosk.referee.state import LogEntry, RefereeState


def match_record(state: RefereeState, players: tuple[str, str]) -> MatchRecord:
    """The record of the match so far; ``players``: player 0's and player 1's names."""
    match = state.match
    games = tuple(
        Game(number, _score_at(state, number), _actions(number, log, match))
        for number, log in _game_logs(state)
    )
    return MatchRecord(
        match_length=match.length,
        players=players,
        games=games,
        tags=_tags(state),
        comments=_comments(state, players),
    )


def _game_logs(state: RefereeState) -> list[tuple[int, tuple[LogEntry, ...]]]:
    """Each game's number and log: the finished games, then the game in progress if it has
    begun (once the match is over, the last game is among the finished ones)."""
    match = state.match
    logs = [(result.number, log) for result, log in zip(match.games, state.logs, strict=True)]
    current = state.game
    if current.log and current.number not in {number for number, _ in logs}:
        logs.append((current.number, current.log))
    return logs


def _score_at(state: RefereeState, number: int) -> tuple[int, int]:
    """The score at the start of game ``number``."""
    score = list(state.config.score)
    for result in state.match.games:
        if result.number < number:
            score[result.winner] += result.points
    for penalty in state.match.penalties:
        if penalty.game < number:
            score[penalty.to] += penalty.points
    return score[0], score[1]


def _actions(number: int, log: Sequence[LogEntry], match: Match) -> tuple[Action, ...]:
    """The record's actions of game ``number`` (a resignation is implied by its ``Wins`` line)."""
    actions = []
    last_game = bool(match.games) and match.games[-1].number == number
    for entry in log:
        player = entry.player
        if entry.action == "move":
            if entry.dice is None:
                raise ValueError(f"game {number}: a move of player {player} has no dice")
            actions.append(Action(player, "roll", entry.dice, entry.play or ""))
        elif entry.action == "double":
            actions.append(Action(player, "double", value=entry.value or 0))
        elif entry.action == "take":
            actions.append(Action(player, "take"))
        elif entry.action == "drop":
            actions.append(Action(player, "drop"))
        elif entry.action == "win":
            won = last_game and match.winner == player and match.ended_by == "score"
            actions.append(Action(player, "win", value=entry.value or 0, match_won=won))
    return tuple(actions)


def _tags(state: RefereeState) -> tuple[tuple[str, str], ...]:
    """GNU Backgammon's header tags for the rules the match was played under."""
    rules = state.rules
    tags = [("Variation", "Backgammon")]
    if state.match.length:
        tags.append(("Crawford", "On" if state.match.crawford_rule else "Off"))
    else:
        tags.append(("Jacoby", "On" if rules.cube.jacoby else "Off"))
    tags += [("CubeLimit", str(rules.cube.limit)), ("Rules", rules.title)]
    return tuple(tags)


def _comments(state: RefereeState, players: tuple[str, str]) -> tuple[str, ...]:
    """What the record's games cannot carry: penalties, adjustments, how the match ended."""
    match = state.match
    lines = [
        f"game {penalty.game}: {penalty.points} penalty point(s) to {players[penalty.to]} "
        f"({penalty.reason.replace('_', ' ')}, {penalty.rule})"
        for penalty in match.penalties
    ]
    lines += [
        f"game {incident.game}: director: {incident.detail}"
        for incident in state.incidents
        if incident.kind == "director_adjustment"
    ]
    lines += [
        f"game {number}: {players[1 - entry.player]} was closed out and did not roll before "
        f"{players[entry.player]}'s {entry.dice[0]}{entry.dice[1]}: {entry.play} (MSO-clock 3.4)"
        for number, log in _game_logs(state)
        for previous, entry in pairwise(log)
        if entry.action == previous.action == "move"
        and entry.player == previous.player
        and entry.dice is not None
    ]
    if match.winner is not None and match.ended_by != "score":
        ended = (match.ended_by or "").replace("_", " ")
        lines.append(
            f"{players[match.winner]} wins the match {match.score[0]}-{match.score[1]} ({ended})"
        )
    return tuple(lines)
