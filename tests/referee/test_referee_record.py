"""The referee's record as a ``.mat`` file: scripted matches played to the end through the
referee, written, read back and replayed through the rules (and imported by GNU Backgammon where
the ``gnubg`` package is installed): no flag, the same plays, the same scores (MSO 5.1-5.5)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.match.players import Player, opponent
from kiosk.matfile import format_mat, parse_mat, replay
from kiosk.referee import LogEntry, RefereeState
from kiosk.referee.board import position_of, sides_of
from kiosk.referee.record import match_record
from kiosk.rules import Position, apply_play, legal_plays
from tests.matfile.test_matfile_golden import gnubg_reads
from tests.referee.table import Table, config

NAMES = ("Alice", "Bob")


def _die(rng: random.Random) -> int:
    return rng.randint(1, 6)


def _opening(table: Table, rng: random.Random) -> None:
    high, low = _die(rng), _die(rng)
    while high == low:
        high, low = _die(rng), _die(rng)
    winner: Player = 0 if rng.random() < 0.5 else 1
    table.opening(winner, max(high, low), min(high, low))


def _cube_turn(table: Table, rng: random.Random, double_chance: float) -> bool:
    """The player on roll may double; the opponent takes or passes. True when the game ended."""
    state = table.state
    roller = table.turn
    cube = state.game.cube
    may_double = (
        cube.available
        and cube.owner in (None, roller)
        and not state.match.crawford_game
        and (state.match.length == 0 or state.match.away(roller) > 1)
        and state.match.away(opponent(roller)) > 1
    )
    if not may_double or rng.random() >= double_chance:
        return False
    number = state.game.number
    table.touch("double", roller)
    table.press(roller)
    taker = opponent(roller)
    if rng.random() < 0.6:
        table.touch("take", taker)
        table.press(taker)
        return False
    table.touch("pass", taker)
    return table.state.game.number != number or table.state.game.phase == "match_over"


def _play_game(table: Table, rng: random.Random, double_chance: float) -> None:
    """One game from the opening roll to its end: random legal plays, some cube actions."""
    number = table.state.game.number
    _opening(table, rng)

    def going() -> bool:
        game = table.state.game
        return game.number == number and game.phase != "match_over"

    while going():
        if table.state.game.phase == "roll":
            if _cube_turn(table, rng, double_chance):
                return
            table.dice(_die(rng), _die(rng))
        game = table.state.game
        assert game.phase == "moving", (game.phase, table.state.incidents[-3:])
        assert game.dice is not None
        mover = table.turn
        before = position_of(game.sides, mover)
        play = rng.choice(legal_plays(before, game.dice))
        table.play_board(sides_of(apply_play(before, play), mover))


def scripted_match(ruleset: str, length: int, seed: int, double_chance: float = 0.08) -> Table:
    """A whole match at one table, every roll valid and every play legal."""
    rng = random.Random(seed)
    table = Table(config(ruleset, match_length=length))
    while table.state.game.phase != "match_over":
        _play_game(table, rng, double_chance)
    return table


def _open_and_move(table: Table, rng: random.Random) -> None:
    """A game's opening roll and its first play (the first entry of the game's log)."""
    _opening(table, rng)
    game = table.state.game
    assert game.dice is not None
    mover = table.turn
    before = position_of(game.sides, mover)
    play = legal_plays(before, game.dice)[0]
    table.play_board(sides_of(apply_play(before, play), mover))


def _plays(state: RefereeState) -> list[tuple[int, str, tuple[int, int] | None, str | None]]:
    return [
        (entry.player, entry.action, entry.dice, entry.play)
        for log in state.logs
        for entry in log
        if entry.action in ("move", "double", "take", "drop")
    ]


MATCHES = [("mso", 5, 0), ("jbl", 3, 1), ("mso", 7, 5)]


@pytest.mark.parametrize(("ruleset", "length", "seed"), MATCHES)
def test_a_refereed_match_replays_without_flags_to_its_score(
    ruleset: str, length: int, seed: int, tmp_path: Path
) -> None:
    table = scripted_match(ruleset, length, seed)
    state = table.state
    assert {i.kind for i in state.incidents} <= {"game_won", "match_won"}
    record = match_record(state, NAMES)
    path = tmp_path / "match.mat"
    path.write_text(format_mat(record), "utf-8")
    again = parse_mat(path.read_text("utf-8"), str(path))
    result = replay(again, state.rules)
    assert result.flags == ()
    assert result.final_score == state.match.score
    assert again.players == NAMES
    assert again.match_length == length
    assert [g.score for g in result.games] == [g.score for g in again.games]
    assert [(g.winner, g.points) for g in result.games] == [
        (g.winner, g.points) for g in state.match.games
    ]
    replayed = [
        (d.player, "move" if d.kind == "cannot-move" else d.kind, d.dice, d.play)
        for game in result.games
        for d in game.decisions
        if d.kind not in ("win", "resign")
    ]
    expected = [
        (player, kind, dice, play if kind == "move" else None)
        for player, kind, dice, play in _plays(state)
    ]
    assert replayed == expected
    wins = [a for game in again.games for a in game.actions if a.kind == "win"]
    assert [a.match_won for a in wins] == [False] * (len(wins) - 1) + [True]


def test_the_scripted_matches_cover_the_cube_gammons_and_crawford() -> None:
    """The scripts above are worth replaying: doubles, takes, passes, gammons, a Crawford game."""
    states = [scripted_match(*match).state for match in MATCHES]
    actions = {entry.action for s in states for log in s.logs for entry in log}
    assert {"double", "take", "drop", "win"} <= actions
    assert any(g.kind != "single" for s in states for g in s.match.games)
    assert any(g.crawford for s in states for g in s.match.games)


def test_the_game_in_progress_penalties_and_adjustments_are_kept(tmp_path: Path) -> None:
    """An unfinished game is written as far as it went; penalty points (MSO-clock 5.1) and the
    director's adjustments go to comments, and the next game's score includes the penalty."""
    table = Table(config("mso", match_length=5))
    rng = random.Random(3)
    _open_and_move(table, rng)
    table.director("penalty", to=1, points=1)
    record = match_record(table.state, NAMES)
    assert [g.number for g in record.games] == [1]
    assert [a.kind for a in record.games[0].actions] == ["roll"]
    assert any("penalty point(s) to Bob" in line for line in record.comments)
    assert any("director: 1 penalty point(s) to player 1" in line for line in record.comments)
    result = replay(parse_mat(format_mat(record)), table.state.rules)
    assert [f.kind for f in result.flags] == ["unfinished-game"]

    roller = table.turn
    table.touch("double", roller)
    table.press(roller)
    table.touch("pass", opponent(roller))
    scores = [g.score for g in match_record(table.state, NAMES).games]
    assert scores == [(0, 0)]  # game 2 has no action yet: not written
    _open_and_move(table, rng)
    started = match_record(table.state, NAMES).games
    assert [g.number for g in started] == [1, 2]
    passed = [0, 1]  # player 1's penalty point, then the roller's passed double
    passed[roller] += 1
    assert started[1].score == (passed[0], passed[1])


def test_a_match_started_at_a_score_writes_it_in_each_game() -> None:
    table = Table(replace(config("mso", match_length=7), score=(2, 3)))
    _open_and_move(table, random.Random(8))
    record = match_record(table.state, NAMES)
    assert record.games[0].score == (2, 3)
    assert dict(record.tags)["Crawford"] == "On"
    assert dict(record.tags)["Rules"] == table.state.rules.title


def test_gnubg_imports_the_written_match(tmp_path: Path) -> None:
    """GNU Backgammon reads the exported file as the same match: each game's score, winner,
    points and dice."""
    table = scripted_match("mso", 5, 0)
    path = tmp_path / "refereed.mat"
    path.write_text(format_mat(match_record(table.state, NAMES)), "utf-8")
    oracle = gnubg_reads(path)
    games = oracle["games"]
    assert isinstance(games, list)
    results = table.state.match.games
    assert len(games) == len(results)
    scores = [g.score for g in match_record(table.state, NAMES).games]
    for game, result, score in zip(games, results, scores, strict=True):
        assert game["score"] == list(score)
        assert (game["winner"], game["points"]) == (result.winner, result.points)
    rolled = [
        sorted(step["dice"])
        for game in games
        for step in game["actions"]
        if step["action"] == "move"
    ]
    logged = [sorted(e.dice) for log in table.state.logs for e in log if e.dice is not None]
    assert rolled == logged
    assert oracle["length"] == 5


def test_a_move_without_dice_is_named() -> None:
    """A log the referee cannot have written is refused naming the game and the player."""
    table = Table(config("mso"))
    log = (LogEntry(1, "move", 0),)
    state = replace(table.state, game=replace(table.state.game, log=log))
    with pytest.raises(ValueError, match="game 1: a move of player 1 has no dice"):
        match_record(state, NAMES)


def test_a_closed_out_turn_without_a_roll_is_noted() -> None:
    """MSO-clock 3.4: a closed-out player presses without rolling; a ``.mat`` has no line for it,
    so a comment says why the same player moves twice."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    closed = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5})
    table.set_position(closed, on_roll=1)
    table.press(1)
    table.dice(2, 1)
    game = table.state.game
    assert game.dice is not None
    before = position_of(game.sides, 0)
    table.play_board(sides_of(apply_play(before, legal_plays(before, game.dice)[0]), 0))
    record = match_record(table.state, NAMES)
    assert [a.player for a in record.games[0].actions] == [0, 0]
    noted = [line for line in record.comments if "closed out" in line]
    assert len(noted) == 1
    assert noted[0].startswith("game 1: Bob was closed out and did not roll before Alice's 21:")
