"""What the referee reports: incidents (for the record and the director) and prompts (what the
table is asked to do now).

An incident carries the rule it rests on, the time, the gnubg Position ID before the irregularity
(from the view of the player on roll), the dice, the play seen, the legal plays and a snapshot
reference that the store fills in (the referee leaves it ``None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from kiosk.match.players import Player
from kiosk.referee.events import Args, Scalar, TouchAction

IncidentKind = Literal[
    # the game
    "setup_error",
    "setup_corrected",
    "setup_official",
    "setup_choice",
    "cube_start_wrong",
    "opening_press_wrong",
    "press_before_roll",
    "invalid_roll",
    "dice_unreadable",
    "premature_roll",
    "dice_touched_early",
    "board_changed_out_of_turn",
    "illegal_move",
    "illegal_move_condoned",
    "illegal_move_replay",
    "ambiguous_reading",
    "reading_unusable",
    "cube_refused",
    "premature_double",
    "wrong_cube_level",
    "double_in_crawford",
    "concession_refused",
    "concession_rejected",
    "game_won",
    "match_won",
    # time
    "flag_fell",
    "expiry_ruling",
    "gin_verdict_needed",
    "gin_unavailable",
    # table
    "break_taken",
    "director_called",
    "dice_mix",
    "dice_mix_not_allowed",
    "director_ruling",
    "director_adjustment",
    "out_of_phase",
    "invalid_action",
    # kiosk.clock incidents, passed through
    "press_out_of_turn",
    "press_after_flag",
    "time_went_backwards",
    "centring_not_allowed",
    "break_limit_exceeded",
    "break_mid_game",
    "already_running",
    "nothing_to_resume",
    "no_flag",
    "invalid_adjustment",
    "forfeit_not_in_rules",
]

INCIDENT_KINDS: frozenset[str] = frozenset(get_args(IncidentKind))


@dataclass(frozen=True)
class Incident:
    """One irregularity or event worth recording.

    ``player``: the player at fault or concerned. ``position_id``: gnubg Position ID of the
    position before (player ``on_roll``'s view). ``play_seen``: the checker movements read from
    the board, in notation. ``legal_plays``: the closest legal plays (illegal move) or the plays
    that fit an ambiguous reading. ``seen_position_id``: the board as read (same view).
    ``announced``: shown at the table (policy ``announce``) or recorded silently.
    """

    id: int
    kind: IncidentKind
    rule: str
    t_ms: int
    game: int
    detail: str
    player: Player | None = None
    on_roll: Player | None = None
    position_id: str | None = None
    dice: tuple[int, int] | None = None
    play_seen: str | None = None
    seen_position_id: str | None = None
    legal_plays: tuple[str, ...] = ()
    snapshot: str | None = None
    announced: bool = True


PromptKind = Literal[
    "setup_error",
    "setup_choice",
    "dice_unreadable",
    "illegal_move",
    "replay",
    "ambiguous_reading",
    "restore_position",
    "premature_roll_choice",
    "double_offered",
    "concession_offered",
    "concession_ruling",
    "expiry_ruling",
    "claim_time",
    "director_called",
    "break",
    "dice_mix",
    "roll_again",
    "game_over",
    "match_over",
]


@dataclass(frozen=True)
class Prompt:
    """What the table is asked now. ``to``: the player who must answer (None: both, or nobody);
    ``choices``: the touch actions offered; ``incident``: the incident it comes from.

    ``correct_position_id``/``seen_position_id`` (player ``on_roll``'s view) let the UI draw the
    correct setup or the play seen. ``verdict`` is a gin verdict, shown only when ruling on an
    offered end of game or a time expiry (MSO 1.5, JBL 1.9). ``text`` is English, for the
    journal and the director; ``params`` carry every fact of it as values (``player``,
    ``loser``, ``dice``, ``value``, ``points``, ``score``, ``kind``, ``reason``, ``cause``,
    ``outcome``, ``ending``, ``rule``...; ``verdict``: a code for what a ruling rests on), from
    which the players' screen writes its own sentence per kind in the table's language
    (kiosk.app.texts).
    """

    kind: PromptKind
    text: str
    to: Player | None = None
    choices: tuple[TouchAction, ...] = ()
    incident: int | None = None
    on_roll: Player | None = None
    seen_position_id: str | None = None
    correct_position_id: str | None = None
    verdict: str | None = None
    params: Args = ()

    def param(self, key: str) -> Scalar:
        """The value of ``key`` in ``params`` (None when absent)."""
        return dict(self.params).get(key)
