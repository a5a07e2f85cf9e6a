"""Random legal games at a rendered table, scripted as the kiosk perceives them.

``random_game`` plays one game from the starting setup: the opening roll (one die each), then
turns of a random roll and a random legal play of it (``kiosk.rules.legal_plays``, every play
as likely), each made with a hand over the board and the mover's press, after which he picks
up his dice (MSO-clock 3.4, JBL 4.1.5(2): not before), as ``e2e_match.Script`` scripts them.
Without the lift, a roll the same as the one before in the same half (JBL: every roll lands in
the roller's home board, on the same side) shows the table unchanged and is not seen.

It stops before the play that would end the game (the referee would start the next one) or
after ``max_turns`` plays (more, to end on one that moves a checker). The turns it returns are
what a referee that followed the game logs (``kiosk.referee.state.LogEntry``): mover, dice,
play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kiosk.match.players import Player, opponent
from kiosk.referee.board import game_over, position_of, sides_of
from kiosk.referee.config import RefereeConfig
from kiosk.referee.state import RefereeState
from kiosk.rules import Dice, apply_play, format_play, legal_plays
from tests.e2e.e2e_match import Script
from tests.e2e.e2e_scenes import DEMO_TABLE, SIZE, Table


@dataclass(frozen=True)
class Turn:
    """One play of a game: the mover, the dice (higher first) and the play as the rules core
    writes it (``format_play``)."""

    player: Player
    dice: tuple[int, int]
    play: str


def random_game(
    config: RefereeConfig,
    rng: np.random.Generator,
    size: tuple[int, int] = SIZE,
    table: Table = DEMO_TABLE,
    max_turns: int = 200,
) -> tuple[Script, list[Turn]]:
    """A game of random rolls and random legal plays at ``table`` (frames of ``size``), and its
    plays in order (see the module docstring)."""
    script = Script(config, size, table)
    script.setup()
    high, low = (int(v) for v in 1 + rng.choice(6, size=2, replace=False))
    high, low = max(high, low), min(high, low)
    mover: Player = 0 if rng.random() < 0.5 else 1
    script.opening(mover, high, low)
    dice = (high, low)
    turns: list[Turn] = []
    while True:
        position = position_of(script.sides, mover)
        plays = legal_plays(position, Dice(*dice))
        play = plays[int(rng.integers(len(plays)))]
        after = sides_of(apply_play(position, play), mover)
        if game_over(after) is not None:
            break
        script.play_board(mover, after)
        script.lift(mover)
        turns.append(Turn(mover, (max(dice), min(dice)), format_play(play)))
        if len(turns) >= max_turns and turns[-1].play:
            break  # (a play that moves nothing is logged once the next roll shows)
        mover = opponent(mover)
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        script.roll(mover, *dice)
    return script, turns


def logged_turns(state: RefereeState) -> list[Turn]:
    """The plays the referee logged in the game in progress, as ``random_game`` returns them."""
    return [
        Turn(entry.player, (max(entry.dice), min(entry.dice)), entry.play or "")
        for entry in state.game.log
        if entry.action == "move" and entry.dice is not None
    ]
