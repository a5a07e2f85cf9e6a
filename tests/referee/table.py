"""A scripted table for referee tests: events built from boards and plays, with the time kept.

``Table(config)`` drives a referee; ``opening(...)`` sets up and rolls the opening dice; ``roll``,
``play``, ``press`` ... send the events a real table would produce (exact readings unless asked).
Every event sent is kept in ``events`` so a test can replay them.
"""

from __future__ import annotations

from dataclasses import replace

from kiosk.match.players import Player, opponent
from kiosk.referee import (
    BoardRead,
    ClockPress,
    DiceRead,
    DieSeen,
    DirectorAction,
    Event,
    Incident,
    RefereeConfig,
    RefereeState,
    Tick,
    Touch,
    new_referee,
    step,
)
from kiosk.referee.board import START_SIDES, Sides, position_of, reading_of, sides_of
from kiosk.referee.events import CubeSeen, Scalar, Zone
from kiosk.referee.gin import GinJudge
from kiosk.referee.state import Roll
from kiosk.rules import Dice, Position, apply_play, decode_position_id, position_id, resolve_play


class Table:
    """One table: the referee state, the clock in ms, and the events so far."""

    def __init__(
        self, config: RefereeConfig, gin: GinJudge | None = None, t_ms: int = 1_000
    ) -> None:
        self.config = config
        self.gin = gin
        self.t_ms = t_ms
        self.state: RefereeState = new_referee(config, t_ms)
        self.events: list[Event] = []
        self.raised: list[Incident] = []

    # -- sending events ------------------------------------------------------------------------

    def send(self, event: Event) -> tuple[Incident, ...]:
        """Apply ``event``; return the incidents it raised."""
        self.events.append(event)
        result = step(self.state, event, self.gin)
        self.state = result.state
        self.raised.extend(result.incidents)
        return result.incidents

    def later(self, ms: int = 500) -> int:
        """Advance the table's time by ``ms`` and return it."""
        self.t_ms += ms
        return self.t_ms

    def board(
        self,
        sides: Sides | None = None,
        hidden: int = 0,
        cube: CubeSeen | None = None,
        trays: bool = True,
    ) -> tuple[Incident, ...]:
        """A settled reading of ``sides`` (default: the board as the referee follows it), with
        ``hidden`` checkers hidden on each stack of 3 or more and the trays read or not."""
        shown = self.state.game.sides if sides is None else sides
        reading = reading_of(shown, self.config, cube, hidden, trays)
        return self.send(BoardRead(reading, self.later()))

    def zone(self, roller: Player) -> Zone:
        """Where ``roller``'s valid dice land under the rule set (MSO 4.2, JBL 4.1.4)."""
        if self.state.rules.play.valid_roll_zone == "right_of_bar":
            return "right-half" if self.config.player_row(roller) == "bottom" else "left-half"
        return "right-half" if self.config.home_on_right() else "left-half"

    def dice(
        self,
        first: int | None,
        second: int | None,
        roller: Player | None = None,
        cocked: bool = False,
        zone: Zone | None = None,
        lift: bool = True,
    ) -> tuple[Incident, ...]:
        """Dice land for ``roller`` (default: the turn), the previous ones lifted first unless
        ``lift`` is False (a premature roll with the mover's dice still down)."""
        who = self.turn if roller is None else roller
        where = zone or self.zone(who)
        seen = (DieSeen(first, cocked, where), DieSeen(second, False, where))
        lifted: tuple[Incident, ...] = ()
        if lift and self.state.game.dice_seen:
            lifted = self.send(DiceRead((), self.later(100)))
        return lifted + self.send(DiceRead(seen, self.later()))

    def lift(self) -> tuple[Incident, ...]:
        """The dice are picked up."""
        return self.send(DiceRead((), self.later()))

    def press(self, player: Player) -> tuple[Incident, ...]:
        """``player`` hits his clock button."""
        return self.send(ClockPress(self.config.player_seat(player), self.later()))

    def tick(self, ms: int = 100) -> tuple[Incident, ...]:
        """Time passes."""
        return self.send(Tick(self.later(ms)))

    def touch(self, action: str, player: Player, **args: Scalar) -> tuple[Incident, ...]:
        """``player`` touches ``action``."""
        seat = self.config.player_seat(player)
        return self.send(Touch(action, seat, self.later(), tuple(args.items())))  # type: ignore[arg-type]

    def director(self, verb: str, **args: Scalar) -> tuple[Incident, ...]:
        """The director acts."""
        return self.send(DirectorAction(verb, self.later(), tuple(args.items())))  # type: ignore[arg-type]

    # -- moves of the game -----------------------------------------------------------------------

    @property
    def turn(self) -> Player:
        """The player whose turn it is."""
        turn = self.state.game.turn
        assert turn is not None, "no turn in progress"
        return turn

    def opening(
        self, winner: Player, high: int, low: int, setup: Sides = START_SIDES
    ) -> tuple[Incident, ...]:
        """Set up ``setup``, roll one die each (``winner`` the higher, rows known) and let the
        lower die's player press (MSO-clock 3.3)."""
        raised = self.board(setup)
        rows = {p: self.config.player_row(p) for p in (0, 1)}
        dice = (
            DieSeen(high, False, self.zone(winner), rows[winner]),
            DieSeen(low, False, self.zone(opponent(winner)), rows[opponent(winner)]),
        )
        raised += self.send(DiceRead(dice, self.later()))
        if self.state.clock is not None:
            raised += self.press(opponent(winner))
        return raised

    def result_of(self, text: str, dice: Dice | None = None) -> Sides:
        """The board after the turn player plays ``text`` with ``dice`` (default: the dice in
        play)."""
        mover = self.turn
        dice = dice or self.state.game.dice  # type: ignore[assignment]
        assert isinstance(dice, Dice)
        before = position_of(self.state.game.sides, mover)
        play, legal = resolve_play(before, dice, text)
        assert legal, f"{text} is not legal with {dice}"
        return sides_of(apply_play(before, play), mover)

    def play(self, text: str, hidden: int = 0, trays: bool = True) -> tuple[Incident, ...]:
        """The turn player plays ``text`` (legal), the board settles, he presses; a tick later the
        play is judged."""
        mover = self.turn
        raised = self.board(self.result_of(text), hidden, trays=trays)
        raised += self.press(mover) if self.state.clock is not None else self.lift()
        return raised + self.tick()

    def play_board(self, sides: Sides) -> tuple[Incident, ...]:
        """The turn player leaves ``sides`` on the board (legal or not) and ends the turn."""
        mover = self.turn
        raised = self.board(sides)
        raised += self.press(mover) if self.state.clock is not None else self.lift()
        return raised + self.tick()

    def moved(self, player: Player, changes: dict[int, int]) -> Sides:
        """The tracked board with ``player``'s slots changed by ``changes`` ({slot: +/-n})."""
        sides = [list(self.state.game.sides[0]), list(self.state.game.sides[1])]
        for slot, change in changes.items():
            sides[player][slot] += change
        return (tuple(sides[0]), tuple(sides[1]))

    def set_position(self, position: Position, on_roll: Player) -> tuple[Incident, ...]:
        """The director sets the board (``position`` in ``on_roll``'s view)."""
        return self.director("set_position", position_id=position_id(position), on_roll=on_roll)

    def kinds(self) -> list[str]:
        """Kinds of all incidents so far."""
        return [incident.kind for incident in self.state.incidents]


def kinds(incidents: tuple[Incident, ...]) -> list[str]:
    """The kinds of ``incidents``."""
    return [incident.kind for incident in incidents]


def config(ruleset: str, **changes: object) -> RefereeConfig:
    """A 5-point match under ``ruleset`` with clocks (MSO gets the director's 30 minutes)."""
    base = RefereeConfig(ruleset=ruleset, match_length=5, reserve_ms=30 * 60_000)
    return replace(base, **changes)  # type: ignore[arg-type]


def position(text: str) -> Position:
    """A Position from a gnubg Position ID."""
    return decode_position_id(text)


def dice_of(state: RefereeState) -> Roll | None:
    """The dice in play."""
    return state.game.dice
