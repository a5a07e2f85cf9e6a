"""How one table is set up: rule set, match, clocks, which seat and colour is which player, the
board orientation, and whether irregularities are announced at the table or recorded silently."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from kiosk.match.players import Player
from kiosk.referee.events import Colour, Row, Scalar, Seat
from kiosk.rulesets import RuleSet, load_ruleset, with_overrides

Home = Literal["bottom-right", "bottom-left", "top-right", "top-left"]
Mode = Literal["announce", "silent"]


class ConfigError(ValueError):
    """A configuration that cannot describe a table; the message names the field."""


@dataclass(frozen=True)
class RefereeConfig:
    """The table's settings.

    ``player0_home``: the image corner where player 0's home board lies (player 1's home board is
    the other one on the same side of the board: both home boards face each other).
    ``player0_colour`` and ``player0_seat``: player 0's checker colour and clock/screen seat.
    ``reserve_ms``: each player's reserve (None: the rule set's formula, ``kiosk.clock``).
    ``policy``: ``announce`` shows irregularities at the table, ``silent`` records them for the
    director only; ``policy_overrides`` sets the mode per incident kind.
    """

    ruleset: str = "mso"
    overrides: tuple[tuple[str, Scalar], ...] = ()
    match_length: int = 5
    score: tuple[int, int] = (0, 0)
    clocks: bool = True
    reserve_ms: int | None = None
    player0_home: Home = "bottom-right"
    player0_colour: Colour = "light"
    player0_seat: Seat = "right"
    policy: Mode = "announce"
    policy_overrides: tuple[tuple[str, Mode], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.match_length < 0:
            raise ConfigError(f"match_length: must be >= 0, got {self.match_length}")
        if self.reserve_ms is not None and self.reserve_ms <= 0:
            raise ConfigError(f"reserve_ms: must be positive, got {self.reserve_ms}")

    def load_rules(self) -> RuleSet:
        """The rule set with the director's overrides (``kiosk.rulesets``)."""
        rules = load_ruleset(self.ruleset)
        return with_overrides(rules, dict(self.overrides)) if self.overrides else rules

    def mode(self, kind: str) -> Mode:
        """Announce or record silently this incident kind."""
        return dict(self.policy_overrides).get(kind, self.policy)

    def seat_player(self, seat: Seat) -> Player:
        """The player sitting at ``seat``."""
        return 0 if seat == self.player0_seat else 1

    def player_seat(self, player: Player) -> Seat:
        """The seat of ``player``."""
        if player == 0:
            return self.player0_seat
        return "left" if self.player0_seat == "right" else "right"

    def colour_player(self, colour: Colour) -> Player:
        """The player with ``colour`` checkers."""
        return 0 if colour == self.player0_colour else 1

    def player_colour(self, player: Player) -> Colour:
        """The checker colour of ``player``."""
        if player == 0:
            return self.player0_colour
        return "dark" if self.player0_colour == "light" else "light"

    def player_row(self, player: Player) -> Row:
        """The row ``player`` sits at: the row of his home board."""
        row0: Row = "bottom" if self.player0_home.startswith("bottom") else "top"
        if player == 0:
            return row0
        return "top" if row0 == "bottom" else "bottom"

    def row_player(self, row: Row) -> Player:
        """The player sitting on the ``row`` side of the board (his home board is on that row)."""
        return 0 if self.player0_home.startswith(row) else 1

    def home_on_right(self) -> bool:
        """Both home boards are on the image's right half."""
        return self.player0_home.endswith("right")

    def own_point(self, player: Player, image_point: int) -> int:
        """The point number (1..24) that ``player`` gives to image point ``image_point``."""
        mirrored = self.player0_home.endswith("left")
        point = (
            (13 - image_point if image_point <= 12 else 37 - image_point)
            if mirrored
            else (image_point)
        )
        if self.player0_home.startswith("top"):
            point = 25 - point
        return point if player == 0 else 25 - point
