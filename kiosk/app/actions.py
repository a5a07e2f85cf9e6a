"""What a touch on the screen asks for: plain action objects the caller turns into referee events.

The screen never decides anything: each button emits a :class:`PlayerAction` (or, in the
director's view, a :class:`DirectorAction`) to the sink it was given; the caller wraps it into the
referee's ``Touch(action, t)`` event or the store's director entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class ActionKind(StrEnum):
    """A player's touch; the values are the referee's ``TouchAction`` names."""

    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"
    CONCEDE = "concede"
    CLAIM = "claim"
    ACCEPT = "accept"
    REJECT = "reject"
    CONDONE = "condone"
    DEMAND_LEGAL = "demand_legal_play"
    PREMATURE_ROLL_STANDS = "premature_roll_stands"
    PREMATURE_ROLL_REROLL = "premature_roll_reroll"
    SETUP_PLAY_ON = "setup_play_on"
    SETUP_MISSING_TO_BAR = "setup_missing_to_bar"
    PERMIT_OTHER_HALF = "permit_other_half"
    WITHDRAW_PERMISSION = "withdraw_permission"
    CLAIM_TIME = "claim_time"
    BREAK = "break"
    RESUME = "resume"
    CALL_DIRECTOR = "call_director"
    DICE_MIX = "dice_mix"


ConcedeLevel = Literal["single", "gammon", "backgammon"]


@dataclass(frozen=True)
class PlayerAction:
    """``kind`` asked for by the player at screen side ``side`` (0 left, 1 right; None: no one
    in particular). ``level`` is the concession's size for CONCEDE (MSO 4.9)."""

    kind: ActionKind
    side: Literal[0, 1] | None
    level: ConcedeLevel | None = None


class DirectorActionKind(StrEnum):
    """A director's touch in the PIN-protected view."""

    RULE = "rule"
    ADJUST_CLOCK = "adjust_clock"
    ADJUST_SCORE = "adjust_score"
    EXPORT_MAT = "export_mat"
    RESUME = "resume"
    SET_RULESET = "set_ruleset"


@dataclass(frozen=True)
class DirectorAction:
    """A director's action: a ruling on ``incident_id``, or a correction of ``side`` by ``delta``.

    ``delta`` is in ms for ADJUST_CLOCK and in points for ADJUST_SCORE; ``ruling`` is one of
    :data:`RULINGS` for RULE; ``name`` is one of :data:`RULESETS` for SET_RULESET.
    """

    kind: DirectorActionKind
    incident_id: int | None = None
    ruling: str = ""
    side: Literal[0, 1] | None = None
    delta: int = 0
    name: str = ""


RULINGS: tuple[str, ...] = ("upheld", "dismissed", "penalty_point", "replay")
RULESETS: tuple[str, ...] = ("mso", "biba", "ga", "jbl")  # kiosk.rulesets, for tournaments
ActionSink = Callable[[PlayerAction], None]
DirectorSink = Callable[[DirectorAction], None]
