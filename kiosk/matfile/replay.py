"""Replay a match record through the rules: every play checked, the cube and score followed.

Each action of a :class:`MatchRecord` becomes a :class:`Decision` carrying the GNU Backgammon
Position ID and Match ID *before* it. The Position ID is from the view of the Match ID's player on
roll: the roller for a move, the doubler for a double and its answer, the resigner for a
resignation, the winner for a win. Players are 0 (left column) and 1 (right column), in the Match
ID too.

Irregularities are flagged, never fatal (kinds, with the rules they rest on):

* ``unreadable-play``: a play written ``???``; the board is unknown for the rest of the game;
* ``impossible-play``: a play that the dice cannot make on the board (checker missing, distance
  wrong); the board is unknown for the rest of the game;
* ``illegal-play``: a play the dice can make but the rules forbid (not both dice, wrong die,
  landing on a point held by the opponent...; backgammon-rules.txt "Movement of the checkers");
  it is applied as written;
* ``opening-double``: a double as the first roll of a game (backgammon-rules.txt "To start");
* ``wrong-turn``: a player acting when it is the other's turn;
* ``double-not-allowed``: a double in the Crawford game (``cube.crawford``: MSO 5.5, JBL 4.4.4),
  by the player who does not own the cube (``cube.only_owner_redoubles``), or while a double is
  pending; the double is ignored;
* ``wrong-cube-value``: ``Doubles => N`` where N is not twice the cube (MSO 5.4, JBL 4.4.6); the
  cube goes to twice its value;
* ``cube-over-limit``: a double beyond the set's cube limit (``cube.limit``, MSO 5.2); ignored;
* ``answer-without-double``, ``missing-answer``: a take or drop with no double offered, a roll
  while a double waits for its answer;
* ``action-after-game-end``: anything written after the game was decided;
* ``result-mismatch``: ``Wins N`` with a winner or points the play does not give (single,
  gammon, backgammon times the cube, MSO 5.3, 4.7; a pass scores the cube before the double,
  MSO 5.4), or ``and the match`` when the match is not won;
* ``score-mismatch``: a game's written score differing from the score replayed so far;
* ``missing-result``: a game decided on the board with no ``Wins`` line (it is scored);
* ``unfinished-game``: a game that stops undecided (not scored);
* ``game-after-match-end``: a game written after the match was won (not scored).

The score follows the rules (kiosk.match), not the written ``Wins`` numbers: where they differ
the record is flagged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from kiosk.match import Match, MatchError, ResultKind, finish_game, new_match, start_game
from kiosk.match.players import Player
from kiosk.match.state import game_points, result_kind
from kiosk.matfile.record import Action, Game, MatchRecord
from kiosk.rules import (
    CHECKERS_PER_SIDE,
    START,
    Dice,
    GameState,
    MatchInfo,
    NotationError,
    Position,
    apply_play,
    format_play,
    match_id,
    position_id,
    resolve_play,
)
from kiosk.rulesets import RuleSet

DecisionKind = Literal["move", "cannot-move", "double", "take", "drop", "resign", "win"]
_KINDS: tuple[ResultKind, ...] = ("single", "gammon", "backgammon")
_WINNERS_HOME = range(19, 26)
"""The loser's slots in the winner's home board (its points 19-24) and the bar (25)."""


@dataclass(frozen=True, slots=True)
class Flag:
    """One irregularity: game number, the record's move number (None on a result line or for
    the game as a whole), the file line (0 when unknown), its kind and a readable detail."""

    game: int
    move: int | None
    line: int
    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision as replayed; ``position_id`` is None where the board is unknown."""

    player: int
    kind: DecisionKind
    dice: tuple[int, int] | None
    play: str | None
    position_id: str | None
    match_id: str
    flags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameReplay:
    """One game: score at its start, whether it is the Crawford game, its decisions, and the
    result the rules give (``winner`` None and ``points`` 0 when it was not decided)."""

    number: int
    score: tuple[int, int]
    crawford: bool
    decisions: tuple[Decision, ...]
    winner: int | None
    points: int


@dataclass(frozen=True, slots=True)
class Replay:
    """The replayed record."""

    match_length: int
    players: tuple[str, str]
    games: tuple[GameReplay, ...]
    final_score: tuple[int, int]
    flags: tuple[Flag, ...]


@dataclass(frozen=True, slots=True)
class _Result:
    """How a game was decided: winner, kind, the cube counted, and how it ended."""

    winner: Player
    kind: ResultKind
    cube_value: int
    ended_by: Literal["bear_off", "pass", "concession"]


@dataclass(slots=True)
class _GameRun:
    """The state of one game while its actions are replayed."""

    rules: RuleSet
    match: Match
    number: int
    sides: list[tuple[int, ...]] | None = field(default=None)
    cube: int = 1
    owner: int | None = None
    cube_turned: bool = False
    turn: int | None = None
    offer: tuple[int, int] | None = None  # (doubler, value) of a double waiting for its answer
    ignored_offer: bool = False
    result: _Result | None = None
    closed: bool = False
    decisions: list[Decision] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    rolls: int = 0
    scoring: bool = True

    def flag(self, action: Action | None, kind: str, detail: str, mark: list[str]) -> None:
        line = action.line if action else 0
        move = action.move_number if action else None
        self.flags.append(Flag(self.number, move, line, kind, detail))
        mark.append(kind)

    def info(
        self,
        on_roll: int,
        to_act: int,
        dice: tuple[int, int] = (0, 0),
        offered: bool = False,
        resignation: int = 0,
    ) -> str:
        return match_id(
            MatchInfo(
                cube_value=self.cube,
                cube_owner=self.owner,
                player_on_roll=on_roll,
                crawford=self.match.crawford_game,
                game_state=GameState.PLAYING,
                player_to_act=to_act,
                double_offered=offered,
                resignation=resignation,
                dice=dice,
                match_length=self.match.length,
                score=self.match.score,
            )
        )

    def board_id(self, player: int) -> str | None:
        if self.sides is None:
            return None
        return position_id(Position(self.sides[player], self.sides[1 - player]))

    def check_open(self, action: Action, mark: list[str]) -> None:
        if self.closed or self.result is not None:
            self.flag(action, "action-after-game-end", "the game was already decided", mark)

    def check_turn(self, action: Action, mark: list[str]) -> None:
        if self.turn is not None and self.turn != action.player:
            self.flag(action, "wrong-turn", f"it is player {self.turn}'s turn", mark)

    # --- the actions -------------------------------------------------------------------

    def roll(self, action: Action) -> None:
        mark: list[str] = []
        player = action.player
        assert action.dice is not None
        dice = Dice(*action.dice)
        self.check_open(action, mark)
        if self.offer is not None:
            self.flag(action, "missing-answer", "a double was not answered", mark)
            self.offer = None
        self.check_turn(action, mark)
        if self.rolls == 0 and dice.is_double:
            self.flag(action, "opening-double", "the opening roll cannot be a double", mark)
        self.rolls += 1
        before = self.board_id(player)
        info = self.info(player, player, action.dice)
        play_text: str | None = None
        kind: DecisionKind = "move" if action.play or action.unreadable else "cannot-move"
        if action.unreadable:
            self.flag(action, "unreadable-play", "the play is written ???", mark)
            self.sides = None
        elif self.sides is not None:
            position = Position(self.sides[player], self.sides[1 - player])
            try:
                play, legal = resolve_play(position, dice, action.play)
            except NotationError as error:
                self.flag(action, "impossible-play", str(error), mark)
                self.sides = None
            else:
                play_text = format_play(play)
                if not legal:
                    written = action.play or "no move"
                    self.flag(action, "illegal-play", f"{written!r} with {dice}", mark)
                after = apply_play(position, play)
                self.sides[player], self.sides[1 - player] = after.on_roll, after.opponent
                self.bear_off_check(player)
        else:
            play_text = action.play
        self.turn = 1 - player
        self.decisions.append(
            Decision(player, kind, action.dice, play_text, before, info, tuple(mark))
        )

    def bear_off_check(self, player: int) -> None:
        assert self.sides is not None
        if self.sides[player][0] < CHECKERS_PER_SIDE or self.result is not None:
            return
        loser = self.sides[1 - player]
        kind = result_kind(loser[0], any(loser[i] for i in _WINNERS_HOME))
        winner: Player = 0 if player == 0 else 1
        self.result = _Result(winner, kind, self.cube, "bear_off")

    def double(self, action: Action) -> None:
        mark: list[str] = []
        player = action.player
        self.check_open(action, mark)
        self.check_turn(action, mark)
        cube_rules = self.rules.cube
        reason = None
        if self.match.crawford_game and cube_rules.crawford:
            reason = f"no double in the Crawford game ({self.rules.rule('cube.crawford')})"
        elif self.offer is not None:
            reason = "a double is already pending"
        elif cube_rules.only_owner_redoubles and self.owner not in (None, player):
            reason = (
                f"the cube belongs to player {self.owner} "
                f"({self.rules.rule('cube.only_owner_redoubles')})"
            )
        if reason is not None:
            self.flag(action, "double-not-allowed", reason, mark)
        elif 2 * self.cube > cube_rules.limit:
            limit_rule = self.rules.rule("cube.limit")
            reason = f"the cube stops at {cube_rules.limit} ({limit_rule})"
            self.flag(action, "cube-over-limit", reason, mark)
        elif action.value != 2 * self.cube:
            level_rule = self.rules.rule("cube.wrong_level_double")
            detail = f"doubles to {action.value} with the cube on {self.cube} ({level_rule})"
            self.flag(action, "wrong-cube-value", detail, mark)
        self.ignored_offer = reason is not None
        if reason is None:
            self.offer = (player, 2 * self.cube)
        self.decisions.append(
            Decision(
                player,
                "double",
                None,
                None,
                self.board_id(player),
                self.info(player, player),
                tuple(mark),
            )
        )

    def answer(self, action: Action) -> None:
        mark: list[str] = []
        player = action.player
        self.check_open(action, mark)
        offer = self.offer
        doubler = 1 - player
        if (offer is None or offer[0] == player) and not self.ignored_offer:
            self.flag(action, "answer-without-double", "no double was offered", mark)
        self.decisions.append(
            Decision(
                player,
                "take" if action.kind == "take" else "drop",
                None,
                None,
                self.board_id(doubler),
                self.info(doubler, player, offered=True),
                tuple(mark),
            )
        )
        self.offer = None
        if action.kind == "take":
            if offer is not None and offer[0] == doubler:
                self.cube, self.owner, self.cube_turned = offer[1], player, True
            self.turn = doubler
        elif self.result is None and not self.closed:
            winner: Player = 0 if doubler == 0 else 1
            self.result = _Result(winner, "single", self.cube, "pass")

    def win(self, action: Action) -> None:
        mark: list[str] = []
        player = action.player
        if self.closed:
            self.flag(action, "action-after-game-end", "the game was already scored", mark)
        result = self.result
        if result is None and not self.closed:
            result = self.resignation(action)
        if result is not None and not self.closed:
            expected, _ = game_points(self.rules, result.kind, result.cube_value, self.cube_turned)
            if result.winner != player or expected != action.value:
                self.flag(
                    action,
                    "result-mismatch",
                    f"written: player {player} wins {action.value}; the play gives player "
                    f"{result.winner} {expected} ({result.kind} x {result.cube_value})",
                    mark,
                )
            self.result = result
        winner = result.winner if result else player
        before = self.board_id(winner), self.info(winner, winner)
        self.finish(action, mark)
        if action.match_won and not (self.match.over and self.match.winner == player):
            self.flag(action, "result-mismatch", "'and the match' but the match is not won", mark)
        self.decisions.append(Decision(player, "win", None, None, *before, tuple(mark)))

    def resignation(self, action: Action) -> _Result:
        """A ``Wins`` line before the game is decided on the board: the other player resigned."""
        player = action.player
        resigner = 1 - player
        multiple = action.value // self.cube if action.value % self.cube == 0 else 0
        if self.rules.money and self.rules.cube.jacoby and not self.cube_turned:
            multiple = 1 if action.value == self.cube else 0
        kind = _KINDS[multiple - 1] if 1 <= multiple <= 3 else "single"
        self.decisions.append(
            Decision(
                resigner,
                "resign",
                None,
                None,
                self.board_id(resigner),
                self.info(resigner, resigner, resignation=_KINDS.index(kind) + 1),
                (),
            )
        )
        winner: Player = 0 if player == 0 else 1
        return _Result(winner, kind, self.cube, "concession")

    def finish(self, action: Action | None, mark: list[str]) -> None:
        """Score the decided game once (kiosk.match)."""
        if self.closed or self.result is None:
            return
        self.closed = True
        if not self.scoring:
            return
        result = self.result
        try:
            self.match = finish_game(
                self.match,
                self.rules,
                result.winner,
                result.kind,
                1 if self.match.crawford_game else result.cube_value,
                result.ended_by,
                self.cube_turned,
            )
        except MatchError as error:
            self.flag(action, "result-mismatch", str(error), mark)


def _start_sides() -> list[tuple[int, ...]]:
    return [START.on_roll, START.opponent]


def replay(record: MatchRecord, rules: RuleSet) -> Replay:
    """Replay ``record`` under ``rules`` (Crawford, cube limit, Jacoby in money play)."""
    match = new_match(rules, record.match_length)
    games: list[GameReplay] = []
    flags: list[Flag] = []
    for game in record.games:
        if match.over:
            flags.append(
                Flag(
                    game.number,
                    None,
                    game.line,
                    "game-after-match-end",
                    f"player {match.winner} had already won the match",
                )
            )
            run = _GameRun(rules, match, game.number, _start_sides(), scoring=False)
            _play_actions(run, game)
            flags.extend(run.flags)
            games.append(_game_replay(run, game, match.score, scored=False))
            continue
        started = start_game(match)
        if game.score != started.score:
            flags.append(
                Flag(
                    game.number,
                    None,
                    game.line,
                    "score-mismatch",
                    f"written {game.score[0]}-{game.score[1]}, "
                    f"replayed {started.score[0]}-{started.score[1]}",
                )
            )
        run = _GameRun(rules, started, game.number, _start_sides())
        _play_actions(run, game)
        if not run.closed:
            if run.result is not None:
                run.flag(None, "missing-result", "decided on the board, no 'Wins' line", [])
                run.finish(None, [])
            else:
                run.flag(None, "unfinished-game", "the game stops undecided; not scored", [])
        flags.extend(run.flags)
        scored = run.closed and not run.match.in_game
        games.append(_game_replay(run, game, started.score, scored=scored))
        if scored:
            match = run.match  # an undecided game leaves the score as it was
    return Replay(record.match_length, record.players, tuple(games), match.score, tuple(flags))


def _play_actions(run: _GameRun, game: Game) -> None:
    for action in game.actions:
        if action.kind == "roll":
            run.roll(action)
        elif action.kind == "double":
            run.double(action)
        elif action.kind in ("take", "drop"):
            run.answer(action)
        else:
            run.win(action)


def _game_replay(run: _GameRun, game: Game, score: tuple[int, int], scored: bool) -> GameReplay:
    winner = run.result.winner if scored and run.result else None
    points = run.match.games[-1].points if scored and run.match.games else 0
    return GameReplay(
        game.number, score, run.match.crawford_game, tuple(run.decisions), winner, points
    )


def replay_json(result: Replay) -> dict[str, object]:
    """The ``gammon-kiosk replay --json`` document (DESIGN.md section 4)."""
    return {
        "match_length": result.match_length,
        "players": list(result.players),
        "games": [
            {
                "number": game.number,
                "score": list(game.score),
                "crawford": game.crawford,
                "decisions": [
                    {
                        "player": d.player,
                        "kind": d.kind,
                        "dice": list(d.dice) if d.dice else None,
                        "play": d.play,
                        "position_id": d.position_id,
                        "match_id": d.match_id,
                        "flags": list(d.flags),
                    }
                    for d in game.decisions
                ],
                "winner": game.winner,
                "points": game.points,
            }
            for game in result.games
        ],
        "final_score": list(result.final_score),
        "flags": [
            {"game": f.game, "move": f.move, "line": f.line, "kind": f.kind, "detail": f.detail}
            for f in result.flags
        ],
    }
