"""Differential tests against GNU Backgammon (PyPI ``gnubg-nn`` and ``gnubg``, x86_64 only).

``gnubg_nn.moves(board, d1, d2)`` returns the keys of the resulting positions; the sets must be
identical to ours on 100,000 positions reached by random play. Position IDs must agree too, and
Match IDs against ``gnubg.matchid``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.dice import Dice
from kiosk.rules.ids import GameState, MatchInfo, match_id, position_id
from kiosk.rules.movegen import legal_results
from kiosk.rules.position import CHECKERS_PER_SIDE, START, Position
from kiosk.rules.verdict import find_play

gnubg_nn: Any = pytest.importorskip("gnubg_nn")

POSITIONS = 100_000


def to_gnubg(position: Position) -> list[list[int]]:
    """gnubg's board: [player not on roll, player on roll], each points 1..24 then the bar."""
    return [list(position.opponent[1:]), list(position.on_roll[1:])]


def from_gnubg_key(key: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    opponent, mover = (list(side) for side in gnubg_nn.board_from_position_key(key))
    return (
        (CHECKERS_PER_SIDE - sum(mover), *mover),
        (CHECKERS_PER_SIDE - sum(opponent), *opponent),
    )


def random_games(seed: int, count: int) -> list[tuple[Position, Dice]]:
    """``count`` (position, roll) pairs from games of random legal play."""
    rng = random.Random(seed)
    pairs: list[tuple[Position, Dice]] = []
    position = START
    while len(pairs) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        pairs.append((position, dice))
        mover, opponent = rng.choice(list(legal_results(position, dice)))
        position = Position(opponent, mover)
        if position.is_game_over():
            position = START
    return pairs


@pytest.mark.slow
def test_legal_results_equal_gnubg_on_100k_positions() -> None:
    mismatches = []
    for position, dice in random_games(20261129, POSITIONS):
        ours = set(legal_results(position, dice))
        keys = gnubg_nn.moves(to_gnubg(position), dice.first, dice.second)
        theirs = {from_gnubg_key(key) for key in keys} or {(position.on_roll, position.opponent)}
        if ours != theirs:
            mismatches.append((position_id(position), str(dice)))
    assert mismatches == []


def test_position_ids_and_verdicts_agree_with_gnubg() -> None:
    for position, dice in random_games(7, 5_000):
        assert position_id(position) == gnubg_nn.position_id(to_gnubg(position))
        for key in gnubg_nn.moves(to_gnubg(position), dice.first, dice.second):
            after = Position(*from_gnubg_key(key))
            assert find_play(position, dice, after) is not None


ORACLE = Path(__file__).with_name("gnubg_matchid_oracle.py")


def test_match_ids_agree_with_gnubg(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    rng = random.Random(3)
    infos = []
    for _ in range(300):
        length = rng.randint(1, 25)
        rolled = rng.random() < 0.5
        # gnubg.posinfo puts the higher die first; Match IDs keep the order they are given.
        high, low = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        infos.append(
            MatchInfo(
                cube_value=rng.choice([1, 2, 4, 8, 16, 32, 64]),
                cube_owner=rng.choice([None, 0, 1]),
                player_on_roll=rng.randint(0, 1),
                crawford=rng.random() < 0.3,
                game_state=rng.choice(list(GameState)),
                player_to_act=rng.randint(0, 1),
                double_offered=rng.random() < 0.2,
                resignation=rng.randint(0, 3),
                dice=(high, low) if rolled else (0, 0),
                match_length=length,
                score=(rng.randint(0, length - 1), rng.randint(0, length - 1)),
                jacoby=True,  # gnubg's default setting, which it writes into every Match ID
            )
        )
    request = tmp_path / "infos.json"
    request.write_text(json.dumps([_as_oracle_args(info) for info in infos]))
    completed = subprocess.run(
        [sys.executable, str(ORACLE), str(request)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if completed.returncode != 0:
        pytest.skip(f"gnubg did not run: {completed.stderr[-300:]}")
    theirs = json.loads(completed.stdout.strip().splitlines()[-1])
    assert [match_id(info) for info in infos] == theirs


def _as_oracle_args(info: MatchInfo) -> dict[str, Any]:
    return {
        "cube": info.cube_value,
        "owner": -1 if info.cube_owner is None else info.cube_owner,
        "move": info.player_on_roll,
        "length": info.match_length,
        "score": list(info.score),
        "crawford": int(info.crawford),
        "turn": info.player_to_act,
        "resigned": info.resignation,
        "doubled": int(info.double_offered),
        "gamestate": int(info.game_state),
        "dice": list(info.dice),
    }
