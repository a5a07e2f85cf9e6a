"""The referee's state: immutable values, so that replaying the same events gives the same state.

``RefereeState`` holds the configuration and rule set, the match (``kiosk.match``), the clock
(``kiosk.clock``, None with clocks off), the game in progress, every incident so far and the
prompt now shown at the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from kiosk.clock import ClockState, initial_reserve_ms, new_clock
from kiosk.clock import ReserveError as ClockReserveError
from kiosk.cube import CubeState, new_game_cube
from kiosk.match import Match, MatchError, ResultKind, new_match, start_game
from kiosk.match.players import Player
from kiosk.referee.board import START_SIDES, Sides
from kiosk.referee.config import ConfigError, RefereeConfig
from kiosk.referee.events import BoardReading, DieSeen
from kiosk.referee.incidents import Incident, Prompt
from kiosk.rules import Dice, rolls_showing
from kiosk.rulesets import RuleSet, RuleSetError

Phase = Literal["opening", "opening_rolled", "roll", "moving", "cube_offered", "match_over"]
"""``opening``: the board is set up, the opening roll is awaited (clocks centred);
``opening_rolled``: one die each is down, the lower die's player is to press (MSO-clock 3.3);
``roll``: ``turn`` is to roll or double; ``moving``: ``turn`` has valid dice and moves;
``cube_offered``: ``turn``'s opponent answers a double; ``match_over``."""

SetupStatus = Literal["ok", "wrong", "official", "choice"]


@dataclass(frozen=True)
class UnreadRoll:
    """A valid roll, both dice flat where they must land (MSO 4.2, JBL 4.1.4), whose values the
    camera did not all read: ``known`` the values it did read (none or one). It stands, as a
    roll a human monitor could not see would: the player moves, and the play tells the roll
    (``kiosk.referee.board.fitting_rolls``). Vision's failure never voids a roll."""

    known: tuple[int, ...]

    @property
    def rolls(self) -> tuple[Dice, ...]:
        """The rolls the dice may show."""
        return rolls_showing(self.known)


Roll = Dice | UnreadRoll
"""The roll being played: read, or valid but not (all) read."""


@dataclass(frozen=True)
class PendingPlay:
    """A turn ended by a press, its board not judged yet (the judgement runs on the next event,
    so that a press only switches the clocks). ``note``: an incident already raised for it."""

    mover: Player
    before: Sides
    dice: Roll
    rolled_ms: int
    note: int | None = None


@dataclass(frozen=True)
class IllegalMove:
    """An illegal move awaiting the opponent's choice: condone or demand a legal play (MSO 4.8,
    BIBA 4.8, GA "Illegal moves", JBL 4.2.3)."""

    offender: Player
    before: Sides
    seen: Sides
    dice: Dice
    incident: int


@dataclass(frozen=True)
class PrematureRoll:
    """The opponent rolled before the mover finished (MSO 4.6, JBL 4.1.5). ``stands``: None while
    the mover has not chosen (JBL)."""

    roller: Player
    dice: Dice
    incident: int
    stands: bool | None


@dataclass(frozen=True)
class EndOffer:
    """An offered end of game: ``by`` concedes (or claims) that ``winner`` wins ``kind``."""

    by: Player
    winner: Player
    kind: ResultKind
    claim: bool
    certain: bool | None
    must_accept: bool


LogAction = Literal["move", "double", "take", "drop", "resign", "win"]


@dataclass(frozen=True)
class LogEntry:
    """One decision of the game record (what a .mat file lists): a move with its dice and play
    (``legal`` False for an illegal move that stood), a double to ``value``, a take, a drop, an
    accepted concession or the win, each scoring ``value`` points."""

    player: Player
    action: LogAction
    t_ms: int
    dice: tuple[int, int] | None = None
    play: str | None = None
    value: int | None = None
    legal: bool = True


GinTopic = Literal["expiry", "concession", "rejection"]


@dataclass(frozen=True)
class GinPending:
    """A gin question the director must answer (no gin judge could): the expiry of ``player``'s
    time, an end of game offered by ``player``, or one rejected by ``player``."""

    topic: GinTopic
    player: Player
    incident: int


@dataclass(frozen=True)
class Game:
    """One game. ``sides``: the board as the referee follows it. ``setup``: the board the game
    started from when it was not the starting setup. ``rolls``: valid rolls so far, the opening
    roll counting as the first (MSO 4.7, JBL 4.2.4). ``missing``: each player's checkers that
    were not on the playing surface (points, bar) at the setup check, wherever they are (in the
    tray they stay in ``sides``' borne-off slot, as the camera sees them): they were never borne
    off, so such a player can still be gammoned (MSO 4.7, JBL 4.2.4). ``opening``: the opening
    dice (high, low) and ``opening_winner`` the player of the high die when the reading tells.
    ``reading``: the latest settled reading. ``changed_ms``: when a board changed between turns
    was seen, until the next event reports it (``turns.report_change``). ``disturbed``: the
    incident of a board changed between turns, until restored. ``other_half``: JBL 4.1.4
    permission for each player to roll into the other half. ``log``: the game's record so far.
    ``held_lift``: the mover lifted the dice before moving a checker or pressing, held back
    until what follows tells a roll again (a die cocked that the camera did not see, MSO 4.2)
    from dice touched early."""

    number: int
    phase: Phase = "opening"
    sides: Sides = START_SIDES
    setup: Sides | None = None
    setup_status: SetupStatus = "ok"
    missing: tuple[int, int] = (0, 0)
    rolls: int = 0
    turn: Player | None = None
    dice: Roll | None = None
    opening: tuple[int, int] | None = None
    opening_winner: Player | None = None
    cocked: bool = False
    cube: CubeState = field(default_factory=CubeState)
    reading: BoardReading | None = None
    reading_ms: int = -1
    roll_ms: int = -1
    dice_seen: tuple[DieSeen, ...] = ()
    held_lift: bool = False
    pending: PendingPlay | None = None
    illegal: IllegalMove | None = None
    premature: PrematureRoll | None = None
    offer: EndOffer | None = None
    changed_ms: int | None = None
    disturbed: int | None = None
    other_half: tuple[bool, bool] = (False, False)
    log: tuple[LogEntry, ...] = ()


@dataclass(frozen=True)
class RefereeState:
    """Everything the referee knows. ``t_ms``: the time of the last event. ``flag``: a player
    whose time ran out, awaiting the claim (JBL 4.3.3) or the director. ``logs``: the record
    of each finished game, in order (the game in progress keeps its own in ``game.log``)."""

    config: RefereeConfig
    rules: RuleSet
    match: Match
    clock: ClockState | None
    game: Game
    incidents: tuple[Incident, ...] = ()
    prompt: Prompt | None = None
    t_ms: int = 0
    flag: Player | None = None
    gin: GinPending | None = None
    logs: tuple[tuple[LogEntry, ...], ...] = ()


def first_game(rules: RuleSet, match: Match) -> tuple[Match, Game]:
    """Start the next game of ``match``: the cube centred or removed (MSO 5.2, JBL 4.4.1)."""
    started = start_game(match)
    return started, Game(number=started.game_number, cube=new_game_cube(rules, started))


def new_referee(config: RefereeConfig, t_ms: int = 0) -> RefereeState:
    """The referee before the first game; raises ``ConfigError`` naming a bad field."""
    try:
        rules = config.load_rules()
    except RuleSetError as error:
        raise ConfigError(f"ruleset/overrides: {error}") from None
    try:
        match = new_match(rules, config.match_length, config.score)
    except MatchError as error:
        raise ConfigError(str(error)) from None
    clock = None
    if config.clocks:
        try:
            reserve = config.reserve_ms or initial_reserve_ms(
                rules, config.match_length, config.score
            )
        except ClockReserveError as error:
            raise ConfigError(f"reserve_ms: {error}") from None
        clock = new_clock(rules, reserve, config.match_length, t_ms)
    match, game = first_game(rules, match)
    return RefereeState(config=config, rules=rules, match=match, clock=clock, game=game, t_ms=t_ms)
