"""The match clock: a pure state machine over timestamped events (integer milliseconds).

Each turn starts with a per-move allowance (simple delay: BIBA "Time Allowances", GA "Time
Control", JBL 3.4.5 give 12 s) during which the reserve is untouched; after it the reserve runs.
A turn's charge is ``min(reserve, max(0, running time - allowance))``. Time is never read here:
every event carries ``t_ms``, the kiosk's monotonic time in milliseconds.

Events are functions ``event(state, ..., t_ms) -> ClockStep``: the new state, the incidents the
event raised (a press out of turn, a flag falling, a centring the rule set does not list...) and
the turn the event ended, if any. Impossible events never raise; they leave the state as it was
(time advanced) and return an incident. ``Player`` 0 and 1 are the players as in the match record.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from kiosk.match.players import Player, opponent
from kiosk.rulesets import CentreReason, ClockRules, ReserveRules, RuleSet

IncidentKind = Literal[
    "press_out_of_turn",
    "press_after_flag",
    "time_went_backwards",
    "flag_fell",
    "centring_not_allowed",
    "break_limit_exceeded",
    "break_mid_game",
    "already_running",
    "nothing_to_resume",
    "forfeit_not_in_rules",
    "no_flag",
    "invalid_adjustment",
]

AdjustmentReason = Literal["adjustment", "faulty_clock", "expiry_reset", "claim_bonus"]

_MINUTE_MS = 60_000


class ReserveError(ValueError):
    """The reserve cannot be computed from what was given; the message names the field."""


@dataclass(frozen=True)
class ClockIncident:
    """Something the referee or the director should know about; ``rule`` cites the text."""

    kind: IncidentKind
    t_ms: int
    side: Player | None
    detail: str
    rule: str | None = None


@dataclass(frozen=True)
class TurnRecord:
    """One finished turn: running time, allowance and the reserve it used (all ms)."""

    side: Player
    started_ms: int
    ended_ms: int
    elapsed_ms: int
    allowance_ms: int
    charged_ms: int


@dataclass(frozen=True)
class BreakRecord:
    """A break: when, who asked, and both reserves at that moment (recorded, e.g. JBL 4.3.2(2))."""

    t_ms: int
    side: Player | None
    reserves_ms: tuple[int, int]


@dataclass(frozen=True)
class Adjustment:
    """A director's change of the reserves (GA "Faulty clocks", JBL 3.6.2, MSO-clock 5.1)."""

    t_ms: int
    reason: AdjustmentReason
    before_ms: tuple[int, int]
    after_ms: tuple[int, int]


@dataclass(frozen=True)
class ClockState:
    """Both clocks at ``since_ms``.

    ``reserve_ms`` holds each side's reserve at the start of its current turn (for the side not on
    turn, simply its reserve). ``turn_side`` is the side whose turn is in progress, kept while the
    clocks are centred in mid-turn; ``running`` is whose clock runs now (None: centred).
    """

    ruleset: RuleSet
    match_length: int
    reserve_ms: tuple[int, int]
    running: Player | None = None
    turn_side: Player | None = None
    turn_started_ms: int = 0
    turn_elapsed_ms: int = 0
    turn_allowance_ms: int = 0
    since_ms: int = 0
    flag: Player | None = None
    centre_reason: CentreReason | None = "new_game"
    used_ms: tuple[int, int] = (0, 0)
    expiries: tuple[int, int] = (0, 0)
    forfeit_next: tuple[bool, bool] = (False, False)
    breaks: tuple[BreakRecord, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()

    @property
    def rules(self) -> ClockRules:
        """The clock part of the rule set."""
        return self.ruleset.clock

    def cite(self, key: str) -> str:
        """The rule text behind a dotted rule-set key."""
        return self.ruleset.rule(key)

    @property
    def delay_ms(self) -> int:
        """The per-move allowance of this rule set, ms."""
        return self.rules.delay_s * 1000


@dataclass(frozen=True)
class ClockStep:
    """The result of one event."""

    state: ClockState
    incidents: tuple[ClockIncident, ...] = ()
    ended_turn: TurnRecord | None = None


@dataclass(frozen=True)
class ClockDisplay:
    """What the clock shows at a moment: allowance left in the turn and both reserves (ms)."""

    running: Player | None
    allowance_left_ms: int
    reserves_ms: tuple[int, int]
    flag: Player | None


def initial_reserve_ms(
    rules: RuleSet,
    length: int,
    score: tuple[int, int] = (0, 0),
    director_minutes: int | None = None,
) -> int:
    """Reserve per player (ms) for a match of ``length`` points at ``score``.

    A new match (score 0-0) uses the set's ``clock.new_match`` formula, a match under way its
    ``clock.under_way`` formula (BIBA "Time Allowances", JBL 3.4.5, GA "Issuing Clocks",
    MSO-clock 1.1). ``director_minutes`` is the director's own figure: required where the set
    leaves the minutes to the director (MSO-clock 2.1), and taking precedence everywhere.
    """
    a, b = score
    if length < 0 or (length == 0 and not rules.money):
        raise ReserveError(f"length: must be at least 1 point, got {length}")
    if length and not (0 <= a < length and 0 <= b < length):
        raise ReserveError(f"score: each score must be from 0 to {length - 1}, got {a}-{b}")
    if director_minutes is not None:
        if director_minutes <= 0:
            raise ReserveError(f"minutes: must be positive, got {director_minutes}")
        return director_minutes * _MINUTE_MS
    under_way = a + b > 0
    formula = rules.clock.under_way if under_way else rules.clock.new_match
    key = "clock.under_way.formula" if under_way else "clock.new_match.formula"
    if formula.formula == "director":
        raise ReserveError(
            f"minutes: {rules.name} leaves the reserve to the director ({rules.rule(key)}); "
            "give the director's minutes"
        )
    return _formula_s(formula, length, a, b) * 1000


def _formula_s(formula: ReserveRules, length: int, a: int, b: int) -> int:
    per_point = formula.per_point_s or 0
    if formula.formula == "per_point":
        seconds = per_point * length
    elif formula.formula == "per_point_less_scored":
        seconds = per_point * length - (formula.less_per_scored_point_s or 0) * (a + b)
    else:
        seconds = per_point * ((length - a) + (length - b))
    step = formula.round_up_to_s
    return -(-seconds // step) * step


def breaks_allowed(rules: ClockRules, length: int) -> int | None:
    """Breaks allowed in a match of ``length`` points (per player where the set says so).

    None where the set states no number (BIBA). MSO 2.2: 3 per match; GA "Breaks": 1 per player
    per 11 points (rounded up); JBL 2.2.2: 1 up to 9 points, 2 up to 25.
    """
    breaks = rules.breaks
    if breaks.limit == "per_match":
        return breaks.count
    if breaks.limit == "per_player_per_points":
        per = breaks.per_points or 1
        return (breaks.count or 0) * max(1, -(-length // per))
    if breaks.limit == "by_length":
        for longest, count in breaks.by_length:
            if length <= longest:
                return count
        return breaks.by_length[-1][1] if breaks.by_length else None
    return None


def new_clock(
    rules: RuleSet, reserve_ms: int | tuple[int, int], match_length: int, t_ms: int = 0
) -> ClockState:
    """Both clocks centred before the first game, each with ``reserve_ms`` (or a pair)."""
    pair = (reserve_ms, reserve_ms) if isinstance(reserve_ms, int) else reserve_ms
    return ClockState(ruleset=rules, match_length=match_length, reserve_ms=pair, since_ms=t_ms)


def display(state: ClockState, t_ms: int) -> ClockDisplay:
    """What the clock shows at ``t_ms`` (>= the last event), without changing the state."""
    reserves = list(state.reserve_ms)
    allowance_left = 0
    if state.turn_side is not None:
        elapsed = state.turn_elapsed_ms
        if state.running is not None:
            elapsed += max(0, t_ms - state.since_ms)
        side = state.turn_side
        reserves[side] = max(0, reserves[side] - max(0, elapsed - state.turn_allowance_ms))
        allowance_left = max(0, state.turn_allowance_ms - elapsed)
    return ClockDisplay(
        running=state.running,
        allowance_left_ms=allowance_left,
        reserves_ms=(reserves[0], reserves[1]),
        flag=state.flag,
    )


def press(state: ClockState, side: Player, t_ms: int) -> ClockStep:
    """``side`` hits its clock button: its turn ends and the opponent's clock runs.

    MSO-clock 3.3-3.4, BIBA 4.5, GA "Completing a turn", JBL 4.1.6. With clocks centred this also
    starts a game (the lower opening die presses, MSO-clock 3.3) or restarts a paused turn (a press
    by the side not on turn resumes the opponent's turn). A press while the opponent's clock runs
    is an incident and changes nothing.
    """
    step = _advance(state, t_ms)
    if _went_backwards(step):
        return step
    current = step.state
    if current.flag is not None:
        return _with(step, current, _flag_down(current, t_ms, side))
    if current.running == opponent(side):
        detail = f"side {side} pressed while side {opponent(side)}'s clock runs"
        return _with(step, current, ClockIncident("press_out_of_turn", t_ms, side, detail, None))
    if current.running is None and current.turn_side == opponent(side):
        return _with(step, _run(current, opponent(side)), None)
    current, ended = _end_turn(current)
    return ClockStep(_start_turn(current, opponent(side), t_ms), step.incidents, ended)


def centre(state: ClockState, t_ms: int, reason: CentreReason) -> ClockStep:
    """Both clocks stopped ("centred") for ``reason``.

    ``new_game`` and ``end_of_game`` end the turn in progress; other reasons pause it. A reason the
    rule set does not list (MSO-clock 4.1, BIBA "Stopping the clocks", GA "Stopping the clock",
    JBL 4.3.2) still stops the clocks, with a ``centring_not_allowed`` incident.
    """
    step = _advance(state, t_ms)
    if _went_backwards(step):
        return step
    current = dataclasses.replace(step.state, running=None, centre_reason=reason)
    ended = step.ended_turn
    if reason in ("new_game", "end_of_game"):
        current, finished = _end_turn(current)
        ended = finished or ended
    incidents = step.incidents
    if not getattr(current.rules.centring, reason):
        incidents += (
            ClockIncident(
                "centring_not_allowed",
                t_ms,
                None,
                f"this rule set does not list {reason!r} as a reason to stop the clocks",
                current.cite(f"clock.centring.{reason}"),
            ),
        )
    return ClockStep(current, incidents, ended)


def resume(state: ClockState, t_ms: int) -> ClockStep:
    """Restart the clock of the side whose turn was paused by a centring."""
    step = _advance(state, t_ms)
    if _went_backwards(step):
        return step
    current = step.state
    if current.running is not None:
        detail = f"side {current.running}'s clock is already running"
        return _with(step, current, ClockIncident("already_running", t_ms, None, detail))
    if current.flag is not None:
        return _with(step, current, _flag_down(current, t_ms, None))
    if current.turn_side is None:
        detail = "no turn in progress: the next turn starts with a press"
        return _with(step, current, ClockIncident("nothing_to_resume", t_ms, None, detail))
    return _with(step, _run(current, current.turn_side), None)


def tick(state: ClockState, t_ms: int) -> ClockStep:
    """Time passes to ``t_ms``; a reserve reaching zero drops that side's flag."""
    return _advance(state, t_ms)


def take_break(state: ClockState, t_ms: int, side: Player | None) -> ClockStep:
    """Centre the clocks for a break asked by ``side`` and record both reserves.

    The number allowed: MSO 2.2, GA "Breaks", JBL 2.2.2 (``breaks_allowed``); a break beyond it,
    or in mid-game where breaks are between games only (JBL 2.2.2), is an incident.
    """
    step = centre(state, t_ms, "taking_break")
    current = step.state
    if _went_backwards(step):
        return step
    reserves = display(current, t_ms).reserves_ms
    incidents = step.incidents
    allowed = breaks_allowed(current.rules, current.match_length)
    per_player = current.rules.breaks.limit == "per_player_per_points"
    taken = sum(1 for b in current.breaks if not per_player or b.side == side)
    if allowed is not None and taken >= allowed:
        who = f"side {side}" if per_player else "this match"
        incidents += (
            ClockIncident(
                "break_limit_exceeded",
                t_ms,
                side,
                f"{who} has had {taken} of {allowed} breaks",
                current.cite("clock.breaks.limit"),
            ),
        )
    if current.rules.breaks.between_games_only and current.turn_side is not None:
        incidents += (
            ClockIncident(
                "break_mid_game",
                t_ms,
                side,
                "breaks are between games",
                current.cite("clock.breaks.between_games_only"),
            ),
        )
    record = BreakRecord(t_ms=t_ms, side=side, reserves_ms=reserves)
    current = dataclasses.replace(current, breaks=(*current.breaks, record))
    return ClockStep(current, incidents, step.ended_turn)


def forfeit_allowance(state: ClockState, side: Player, t_ms: int) -> ClockStep:
    """BIBA 4.6: ``side`` picked up the dice or doubled before the opponent hit the clock.

    ``side`` loses the allowance of its turn (the current one if it is on turn, else the next);
    ``forfeit_wait_ms`` tells how long it must still wait before rolling. Under a set without this
    rule the event is an incident and changes nothing.
    """
    step = _advance(state, t_ms)
    if _went_backwards(step):
        return step
    current = step.state
    if not current.rules.premature_action_forfeits_delay:
        detail = "this rule set has no forfeited allowance"
        incident = ClockIncident(
            "forfeit_not_in_rules",
            t_ms,
            side,
            detail,
            current.cite("clock.premature_action_forfeits_delay"),
        )
        return _with(step, current, incident)
    if current.turn_side == side:
        current = dataclasses.replace(current, turn_allowance_ms=0)
        return _with(step, current, None)
    flags = list(current.forfeit_next)
    flags[side] = True
    return _with(step, dataclasses.replace(current, forfeit_next=(flags[0], flags[1])), None)


def forfeit_wait_ms(state: ClockState, t_ms: int) -> int:
    """BIBA 4.6: ms the side on turn must still wait before rolling after a forfeited allowance."""
    if state.turn_side is None or state.turn_allowance_ms > 0:
        return 0
    elapsed = state.turn_elapsed_ms
    if state.running is not None:
        elapsed += max(0, t_ms - state.since_ms)
    return max(0, state.delay_ms - elapsed)


def director_set(
    state: ClockState, t_ms: int, reserves_ms: tuple[int, int], reason: AdjustmentReason
) -> ClockStep:
    """The director sets both reserves as shown at ``t_ms`` (a correction, a transfer from a faulty
    clock: GA "Faulty clocks", JBL 3.6.2; or the reset after expiry: MSO-clock 5.1).

    The only event that can raise a reserve. A flag is cleared once its side has time again.
    """
    step = _advance(state, t_ms)
    if _went_backwards(step):
        return step
    current = step.state
    if min(reserves_ms) < 0:
        detail = f"reserves must be >= 0 ms, got {reserves_ms}"
        return _with(step, current, ClockIncident("invalid_adjustment", t_ms, None, detail))
    before = display(current, t_ms).reserves_ms
    stored = list(reserves_ms)
    if current.turn_side is not None:
        side = current.turn_side
        charged = current.reserve_ms[side] - before[side]
        stored[side] = reserves_ms[side] + charged
    flag = current.flag if current.flag is not None and reserves_ms[current.flag] == 0 else None
    adjustment = Adjustment(t_ms=t_ms, reason=reason, before_ms=before, after_ms=reserves_ms)
    current = dataclasses.replace(
        current,
        reserve_ms=(stored[0], stored[1]),
        flag=flag,
        adjustments=(*current.adjustments, adjustment),
    )
    return _with(step, current, None)


def director_add(
    state: ClockState, t_ms: int, side: Player, add_ms: int, reason: AdjustmentReason
) -> ClockStep:
    """The director adds ``add_ms`` (negative: takes away) to ``side``'s reserve as shown at
    ``t_ms``: e.g. JBL 4.3.2(7), 5 minutes to the opponent of a wrong end-of-game declaration."""
    reserves = list(display(state, t_ms).reserves_ms)
    reserves[side] += add_ms
    return director_set(state, t_ms, (reserves[0], reserves[1]), reason)


def reset_after_expiry(state: ClockState, t_ms: int) -> ClockStep:
    """MSO-clock 5.1: the expired side's clock gets ``clock.expiry.reset_reserve_s`` more; the
    game goes on. An incident where no flag is down or the set has no reset."""
    side = state.flag
    add_s = state.rules.expiry.reset_reserve_s
    if side is None or add_s is None:
        detail = "no flag is down" if side is None else "this rule set has no reset after expiry"
        step = _advance(state, t_ms)
        return _with(step, step.state, ClockIncident("no_flag", t_ms, side, detail))
    step = director_add(state, t_ms, side, add_s * 1000, "expiry_reset")
    if step.incidents:
        return step
    # The interrupted turn goes on (``resume``) with no allowance left.
    continued = dataclasses.replace(
        step.state, turn_side=side, turn_started_ms=t_ms, turn_elapsed_ms=0, turn_allowance_ms=0
    )
    return ClockStep(continued, step.incidents, step.ended_turn)


def _advance(state: ClockState, t_ms: int) -> ClockStep:
    """Account the running clock up to ``t_ms``; drop the flag at the exact ms the reserve ends."""
    if t_ms < state.since_ms:
        detail = f"event at {t_ms} ms is before the last event at {state.since_ms} ms"
        return ClockStep(state, (ClockIncident("time_went_backwards", t_ms, None, detail),))
    side = state.running
    if side is None:
        return ClockStep(dataclasses.replace(state, since_ms=t_ms))
    elapsed = state.turn_elapsed_ms + (t_ms - state.since_ms)
    limit = state.turn_allowance_ms + state.reserve_ms[side]
    if elapsed < limit:
        return ClockStep(dataclasses.replace(state, turn_elapsed_ms=elapsed, since_ms=t_ms))
    flag_ms = state.since_ms + (limit - state.turn_elapsed_ms)
    at_flag = dataclasses.replace(state, turn_elapsed_ms=limit, since_ms=flag_ms)
    ended_state, ended = _end_turn(at_flag)
    expiries = list(ended_state.expiries)
    expiries[side] += 1
    flagged = dataclasses.replace(
        ended_state,
        running=None,
        flag=side,
        since_ms=t_ms,
        expiries=(expiries[0], expiries[1]),
    )
    detail = f"side {side}'s reserve ran out; ruling: {state.rules.expiry.ruling}"
    rule = state.cite("clock.expiry.ruling")
    incident = ClockIncident("flag_fell", flag_ms, side, detail, rule)
    return ClockStep(flagged, (incident,), ended)


def _went_backwards(step: ClockStep) -> bool:
    return bool(step.incidents) and step.incidents[-1].kind == "time_went_backwards"


def _end_turn(state: ClockState) -> tuple[ClockState, TurnRecord | None]:
    side = state.turn_side
    if side is None:
        return state, None
    charged = min(state.reserve_ms[side], max(0, state.turn_elapsed_ms - state.turn_allowance_ms))
    reserves = list(state.reserve_ms)
    reserves[side] -= charged
    used = list(state.used_ms)
    used[side] += charged
    record = TurnRecord(
        side=side,
        started_ms=state.turn_started_ms,
        ended_ms=state.since_ms,
        elapsed_ms=state.turn_elapsed_ms,
        allowance_ms=state.turn_allowance_ms,
        charged_ms=charged,
    )
    finished = dataclasses.replace(
        state,
        reserve_ms=(reserves[0], reserves[1]),
        used_ms=(used[0], used[1]),
        turn_side=None,
        turn_elapsed_ms=0,
    )
    return finished, record


def _start_turn(state: ClockState, side: Player, t_ms: int) -> ClockState:
    forfeits = list(state.forfeit_next)
    allowance = 0 if forfeits[side] else state.delay_ms
    forfeits[side] = False
    return dataclasses.replace(
        state,
        running=side,
        turn_side=side,
        turn_started_ms=t_ms,
        turn_elapsed_ms=0,
        turn_allowance_ms=allowance,
        centre_reason=None,
        forfeit_next=(forfeits[0], forfeits[1]),
    )


def _run(state: ClockState, side: Player) -> ClockState:
    return dataclasses.replace(state, running=side, centre_reason=None)


def _with(step: ClockStep, state: ClockState, incident: ClockIncident | None) -> ClockStep:
    incidents = step.incidents if incident is None else (*step.incidents, incident)
    return ClockStep(state, incidents, step.ended_turn)


def _flag_down(state: ClockState, t_ms: int, side: Player | None) -> ClockIncident:
    detail = f"side {state.flag}'s flag is down: the director rules first"
    return ClockIncident("press_after_flag", t_ms, side, detail, state.cite("clock.expiry.ruling"))
