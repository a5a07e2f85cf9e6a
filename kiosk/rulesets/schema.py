"""The typed shape of a rule set: frozen dataclasses mirroring the TOML files key for key.

Every leaf value in a rule-set file is written ``key = { value = ..., rule = "MSO 4.7" }``; a leaf
whose ``value`` is omitted means "not stated in this set's text" and loads as ``None`` (only where
the field's type allows ``None``). Units are in the key names: ``_s`` seconds, ``_pct`` percent.
Sides are not part of a rule set; player-relative words ("own home board") are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

ReserveFormula = Literal["director", "per_point", "per_point_less_scored", "per_away_point"]
"""How the reserve is computed (see ``kiosk.clock.initial_reserve_ms``)."""

CentreReason = Literal[
    "new_game",
    "end_of_game",
    "concession",
    "taking_break",
    "fallen_dice",
    "contest_action",
    "summon_director",
    "verify_score_or_cube",
    "illegal_move_decision",
    "dice_touched_early",
    "adjudication",
]
"""Why both clocks are stopped ("centred"); each rule set allows some of these."""

BreakLimit = Literal["none_stated", "per_match", "per_player_per_points", "by_length"]
ExpiryRuling = Literal["penalty_points", "match_lost_unless_gin", "director"]
CondoneTrigger = Literal["roll", "double", "pick_up_dice"]


class RuleSetError(ValueError):
    """A rule-set file or an override is wrong; the message names the key."""


@dataclass(frozen=True)
class ReserveRules:
    """Reserve time per player (seconds) for one situation: a new match or a match under way.

    ``per_point``: ``per_point_s`` x match length. ``per_point_less_scored``: that minus
    ``less_per_scored_point_s`` x (points scored by both players). ``per_away_point``:
    ``per_point_s`` x (points still needed by both players). ``director``: the director's minutes.
    The result is rounded up to a multiple of ``round_up_to_s``.
    """

    formula: ReserveFormula
    per_point_s: int | None
    less_per_scored_point_s: int | None
    round_up_to_s: int

    def __post_init__(self) -> None:
        if self.round_up_to_s < 1:
            raise RuleSetError("round_up_to_s must be at least 1")
        if self.formula != "director" and self.per_point_s is None:
            raise RuleSetError(f"per_point_s is required by formula {self.formula!r}")
        if self.formula == "per_point_less_scored" and self.less_per_scored_point_s is None:
            raise RuleSetError("less_per_scored_point_s is required by 'per_point_less_scored'")


@dataclass(frozen=True)
class CentringRules:
    """For each reason, whether this set lets a player stop both clocks for it."""

    new_game: bool
    end_of_game: bool
    concession: bool
    taking_break: bool
    fallen_dice: bool
    contest_action: bool
    summon_director: bool
    verify_score_or_cube: bool
    illegal_move_decision: bool
    dice_touched_early: bool
    adjudication: bool


@dataclass(frozen=True)
class BreakRules:
    """Breaks (recesses) in a match.

    ``per_match``: ``count`` breaks in the whole match, either player asking.
    ``per_player_per_points``: ``count`` breaks per player for each ``per_points`` points of
    match length (rounded up). ``by_length``: rows (longest match length, breaks in the match);
    a match longer than the last row gets the last row's number. ``none_stated``: not counted.
    """

    limit: BreakLimit
    count: int | None
    per_points: int | None
    by_length: tuple[tuple[int, int], ...]
    minutes: int | None
    between_games_only: bool
    record_times: bool


@dataclass(frozen=True)
class ExpiryRules:
    """What happens when a player's reserve runs out."""

    ruling: ExpiryRuling
    first_penalty_points: int | None
    repeat_penalty_points: int | None
    reset_reserve_s: int | None
    freeze_cube_within_one: bool
    next_game_crawford: bool
    gin_gammons_count: bool
    needs_claim: bool


@dataclass(frozen=True)
class ClockRules:
    """The match clock: simple delay per move, then the reserve."""

    delay_s: int
    new_match: ReserveRules
    under_way: ReserveRules
    added_at_new_game_only: bool
    centring: CentringRules
    breaks: BreakRules
    expiry: ExpiryRules
    premature_action_forfeits_delay: bool
    illegal_move_decision_time: Literal["decider", "stopped"] | None
    opening_roll_one_die_each: bool
    closed_out_may_skip_press: bool


@dataclass(frozen=True)
class CubeRules:
    """The doubling cube."""

    start_faces: tuple[int, ...]
    limit: int
    crawford: bool
    crawford_removes_cube: bool
    double_before_rolling: bool
    only_owner_redoubles: bool
    double_after_cocked_dice: bool
    touch_commits: bool
    premature_double: Literal["stands_after_move", "refused"]
    wrong_level_double: Literal["corrected", "stands_once_answered"]
    jacoby: bool
    beavers: bool
    automatic_doubles: int

    def __post_init__(self) -> None:
        if self.limit < 2 or self.limit & (self.limit - 1):
            raise RuleSetError(f"limit must be a power of two >= 2, got {self.limit}")


@dataclass(frozen=True)
class PlayRules:
    """Rolling, setup errors, illegal moves and the dice mix."""

    valid_roll_zone: Literal["right_of_bar", "own_home_board"]
    other_half_with_permission: bool
    cocked_dice_reroll: bool
    premature_roll: Literal["stands", "victim_chooses"] | None
    setup_correction_before_roll: int | None
    setup_after_deadline: Literal["official", "opponent_chooses"] | None
    short_checkers_can_be_gammoned: bool
    illegal_move_condoned_by: tuple[CondoneTrigger, ...]
    dice_mix_dice: int
    dice_mix_when: Literal["before_any_game", "before_match"]


@dataclass(frozen=True)
class ConcessionRules:
    """Ending a game early by conceding or claiming an outcome."""

    requires_no_contact: bool
    requires_certain: bool
    may_claim_win: bool
    certain_cannot_be_rejected: bool
    on_rejection: Literal["play_on", "director", "play_on_without_clocks"]
    wrong_claim_bonus_s: int | None


@dataclass(frozen=True)
class LateArrivalRules:
    """Penalty points for arriving late; ``grace_s`` None: the set has no such penalty.

    Points after ``late_s`` seconds: 0 before ``grace_s``, then ``first_points`` plus
    ``points_per_interval`` for each whole ``interval_s`` past the grace.
    """

    grace_s: int | None
    first_points: int
    interval_s: int
    points_per_interval: int
    forfeit_over_pct: int | None
    may_start_absent_clock_after_s: int | None


@dataclass(frozen=True)
class Override:
    """One value the director changed for an event."""

    key: str
    old: object
    new: object


@dataclass(frozen=True)
class RuleSet:
    """One rule set, as loaded from its data file, plus the director's overrides.

    ``citations`` maps every dotted key (``"clock.delay_s"``) to the rule it comes from.
    """

    name: str
    title: str
    money: bool
    clock: ClockRules
    cube: CubeRules
    play: PlayRules
    concession: ConcessionRules
    late_arrival: LateArrivalRules
    citations: Mapping[str, str] = field(hash=False)
    overrides: tuple[Override, ...] = ()

    def rule(self, key: str) -> str:
        """The rule a dotted key comes from, e.g. ``rule("clock.delay_s") == "JBL 3.4.5"``."""
        return self.citations[key]


SECTIONS: tuple[str, ...] = ("clock", "cube", "play", "concession", "late_arrival")
"""The RuleSet fields read from tables of ``{value, rule}`` leaves."""
