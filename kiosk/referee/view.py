"""What the screens show: the players' view at the table and the director's view.

No aids at the table (MSO 1.5, JBL 1.9): the players' view has no pip counts, no legal or best
plays, no equities, and a gin verdict only in a prompt ruling on an offered end of game or a time
expiry. Those belong to ``DirectorView``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kiosk import clock as clocks
from kiosk.match.players import Player
from kiosk.referee.board import image_points, position_of
from kiosk.referee.events import BoardReading, Colour, Seat
from kiosk.referee.incidents import Incident, Prompt
from kiosk.referee.state import Phase, RefereeState
from kiosk.rules import (
    BAR,
    OFF,
    Dice,
    MatchInfo,
    format_play,
    legal_plays,
    match_id,
    position_id,
)

VERDICT_PROMPTS = frozenset({"concession_offered", "concession_ruling", "expiry_ruling"})
"""The only prompts that may carry a gin verdict at the table (MSO 1.5, JBL 1.9)."""


@dataclass(frozen=True)
class ClockView:
    """Both clocks: whose runs, the allowance left in the turn and both reserves (ms)."""

    running: Player | None
    allowance_left_ms: int
    reserves_ms: tuple[int, int]
    flag: Player | None


@dataclass(frozen=True)
class PlayersView:
    """The table view. ``board``: per image point 1..24, (player 0's, player 1's) checkers as the
    referee follows the game; ``reading``: the board as the camera last saw it; ``dice``: the dice
    as read. ``seats``/``colours``: player 0's and player 1's."""

    t_ms: int
    ruleset: str
    overrides: tuple[str, ...]
    match_length: int
    score: tuple[int, int]
    crawford: bool
    post_crawford: bool
    game: int
    phase: Phase
    turn: Player | None
    cube_value: int
    cube_owner: Player | None
    cube_in_play: bool
    cube_offered: int | None
    dice: tuple[int | None, ...]
    dice_cocked: bool
    board: tuple[tuple[int, int], ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    reading: BoardReading | None
    clocks: ClockView | None
    seats: tuple[Seat, Seat]
    colours: tuple[Colour, Colour]
    prompt: Prompt | None
    winner: Player | None


@dataclass(frozen=True)
class DirectorView:
    """The director's view: the table view plus the record and the analysis the players may not
    see. ``legal_plays``: every legal play of the dice in play (notation)."""

    table: PlayersView
    incidents: tuple[Incident, ...]
    position_id: str
    match_id: str
    pips: tuple[int, int]
    legal_plays: tuple[str, ...]
    pending: tuple[str, ...]


def players_view(state: RefereeState, t_ms: int) -> PlayersView:
    """The table view at ``t_ms`` (>= the last event's time)."""
    game = state.game
    config = state.config
    cube = game.cube
    dice: tuple[int | None, ...] = tuple(die.value for die in game.dice_seen)
    clock = None
    if state.clock is not None:
        shown = clocks.display(state.clock, t_ms)
        clock = ClockView(shown.running, shown.allowance_left_ms, shown.reserves_ms, shown.flag)
    prompt = state.prompt
    if prompt is not None and prompt.verdict is not None and prompt.kind not in VERDICT_PROMPTS:
        prompt = replace(prompt, verdict=None)
    return PlayersView(
        t_ms=t_ms,
        ruleset=state.rules.title,
        overrides=tuple(f"{o.key}={o.new}" for o in state.rules.overrides),
        match_length=state.match.length,
        score=state.match.score,
        crawford=state.match.crawford_game,
        post_crawford=state.match.post_crawford,
        game=game.number,
        phase=game.phase,
        turn=game.turn,
        cube_value=cube.value,
        cube_owner=cube.owner,
        cube_in_play=cube.available,
        cube_offered=cube.offer.value if cube.offer is not None else None,
        dice=dice,
        dice_cocked=any(die.cocked for die in game.dice_seen),
        board=image_points(game.sides, config),
        bar=(game.sides[0][BAR], game.sides[1][BAR]),
        off=(game.sides[0][OFF], game.sides[1][OFF]),
        reading=game.reading,
        clocks=clock,
        seats=(config.player_seat(0), config.player_seat(1)),
        colours=(config.player_colour(0), config.player_colour(1)),
        prompt=prompt,
        winner=state.match.winner,
    )


def director_view(state: RefereeState, t_ms: int) -> DirectorView:
    """The director's view at ``t_ms``."""
    game = state.game
    on_roll: Player = game.turn if game.turn is not None else 0
    position = position_of(game.sides, on_roll)
    plays: tuple[str, ...] = ()
    dice = game.dice if isinstance(game.dice, Dice) else None  # an unread roll: none to show
    if dice is not None and game.phase == "moving":
        plays = tuple(format_play(play) for play in legal_plays(position, dice))
    match = state.match
    cube = game.cube
    info = MatchInfo(
        cube_value=cube.value,
        cube_owner=cube.owner,
        player_on_roll=on_roll,
        crawford=match.crawford_game,
        dice=(dice.first, dice.second) if dice is not None else (0, 0),
        match_length=match.length,
        score=match.score,
    )
    return DirectorView(
        table=players_view(state, t_ms),
        incidents=state.incidents,
        position_id=position_id(position),
        match_id=match_id(info),
        pips=(position_of(game.sides, 0).pips()),
        legal_plays=plays,
        pending=_pending(state),
    )


def _pending(state: RefereeState) -> tuple[str, ...]:
    game = state.game
    items = []
    illegal = game.illegal
    if illegal is not None:
        silent = not state.incidents[illegal.incident - 1].announced
        who = "recorded silently: the director may rule" if silent else "opponent to choose"
        items.append(f"illegal move (incident {illegal.incident}): {who}")
    if game.pending is not None:
        items.append(f"play of player {game.pending.mover} not judged yet")
    if state.gin is not None:
        items.append(f"gin verdict needed ({state.gin.topic}, incident {state.gin.incident})")
    if state.flag is not None:
        items.append(f"player {state.flag}'s flag is down")
    if game.disturbed is not None:
        items.append(f"board changed out of turn (incident {game.disturbed})")
    if game.setup_status in ("wrong", "choice"):
        items.append(f"setup: {game.setup_status}")
    return tuple(items)
