"""The course of play: setup check, opening roll, rolls, clock presses, and each play judged.

Judging a play is deferred from the press to the next event (``settle``), so that a press only
switches the clocks (DESIGN.md section 5: press to the other clock running under 1 ms).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kiosk import clock as clocks
from kiosk.cube import complete_move, start_face_ok
from kiosk.match import result_kind, setup_correctable
from kiosk.match.players import Player, opponent
from kiosk.referee.board import (
    CHECKERS,
    START_SIDES,
    Ranges,
    Sides,
    Verdict,
    VerdictKind,
    add,
    borne_off,
    closed_out,
    difference,
    estimate,
    exact_sides,
    fitting_rolls,
    game_over,
    judge,
    on_board,
    position_of,
    reading_ranges,
    sides_of,
)
from kiosk.referee.citations import LEGAL_PLAY, cite
from kiosk.referee.context import Context
from kiosk.referee.events import Args, BoardRead, ClockPress, DiceRead, DieSeen, Event, Zone
from kiosk.referee.explain import play_seen, why_illegal
from kiosk.referee.incidents import IncidentKind, Prompt, PromptKind
from kiosk.referee.state import IllegalMove, PendingPlay, PrematureRoll, Roll, UnreadRoll
from kiosk.rules import (
    BAR,
    OFF,
    Dice,
    Play,
    apply_play,
    format_play,
    legal_plays,
    position_id,
)

_ROLL_PROMPTS = ("roll_again", "dice_unreadable")


# -- board readings -----------------------------------------------------------------------------


def on_board_read(ctx: Context, event: BoardRead) -> None:
    """Keep the reading; judge a pending play with it, or check the board between turns."""
    ctx.set_game(reading=event.reading, reading_ms=event.t_ms)
    game = ctx.game
    if game.phase == "match_over" or event.reading.occluded:
        return
    if game.held_lift and not _unmoved(ctx):
        _touched_early(ctx)  # lifted, then checkers moved: no roll again
    if game.pending is not None:
        settle(ctx)
    elif _played_on_cocked_call(ctx):
        return
    elif game.phase in ("roll", "cube_offered", "opening_rolled"):
        _check_between_turns(ctx, report=game.phase != "opening_rolled")


def _played_on_cocked_call(ctx: Context) -> bool:
    """Whether the mover played on dice the kiosk called cocked, and if so take his roll.

    A roll with a die read as cocked is void (MSO 4.2, JBL 4.1.4) and the table is asked to
    roll again. Where the dice still lie as read and the board changes instead, the players
    judged the die flat (or ignored the call): the roll is taken as read, so that the play is
    judged as any other, and the director is told, who rules whether the roll stood. Only a
    roll whose one fault was the cocked die is taken: dice in the wrong place stay void."""
    game = ctx.game
    reading = game.reading
    if game.phase != "roll" or not game.cocked or game.turn is None or reading is None:
        return False
    if len(game.dice_seen) != 2:
        return False
    ranges = reading_ranges(reading, ctx.state.config)
    if ranges.fits(game.sides) or ranges.implausible() is not None:
        return False
    roller = game.turn
    flat = tuple(replace(die, cocked=False) for die in game.dice_seen)
    if _roll_problem(ctx, roller, flat) is not None:
        return False
    read = " and ".join("?" if die.value is None else str(die.value) for die in flat)
    ctx.record(
        "invalid_roll",
        ctx.rules.rule("play.cocked_dice_reroll"),
        f"player {roller} played on after the kiosk read a die as cocked: the roll ({read}) is"
        " taken as read; the director rules whether it stood",
        player=roller,
    )
    _turn_roll(ctx, flat)
    return True


def _corrected(ctx: Context, sides: Sides) -> Sides | None:
    """``sides`` with the wrong setup put right, while that is still allowed (MSO 4.7, JBL
    4.2.4), else None."""
    game = ctx.game
    if game.setup is None or game.setup_status != "wrong":
        return None
    return add(sides, difference(START_SIDES, game.setup))


def _accept_correction(ctx: Context, sides: Sides) -> None:
    ctx.record(
        "setup_corrected",
        ctx.rules.rule("play.setup_correction_before_roll"),
        f"the setup was corrected after {ctx.game.rolls} roll(s)",
    )
    ctx.set_game(sides=sides, setup=None, setup_status="ok", missing=(0, 0))
    ctx.clear("setup_error")


def _check_between_turns(ctx: Context, report: bool) -> None:
    """Between turns the board must not change (MSO 4.3, JBL 4.2.2) except to correct the setup
    in time; a change raises one incident until the board is restored (with ``report``; not
    before the first play, while the players may still be putting the setup right), at the
    next event (``report_change``)."""
    game = ctx.game
    assert game.reading is not None
    ranges = reading_ranges(game.reading, ctx.state.config)
    if ranges.fits(game.sides):
        ctx.set_game(changed_ms=None)
        if game.disturbed is not None:
            ctx.set_game(disturbed=None)
            ctx.clear("restore_position")
        return
    corrected = _corrected(ctx, game.sides)
    if corrected is not None and ranges.fits(corrected):
        _accept_correction(ctx, corrected)
        return
    if report:
        ctx.set_game(changed_ms=ctx.t_ms)  # checked again when reported (_report_between_turns)


def report_change(ctx: Context, event: Event) -> None:
    """Report a board changed between turns (``Game.changed_ms``) before ``event``, unless
    ``event`` is dice read in the same settled frame: checkers move after the roll, so a roll
    whose frames the camera could not read (a die missed) and the play made with it may settle
    together, and the roll taken shows the change was the mover's play, judged at his press."""
    changed = ctx.game.changed_ms
    if changed is None or (isinstance(event, DiceRead) and event.t_ms == changed):
        return
    ctx.set_game(changed_ms=None)
    _report_between_turns(ctx)


def roll_explains_change(ctx: Context) -> None:
    """After dice read in the frame the board changed in (``report_change``): a roll taken makes
    the change the mover's play; otherwise it is reported now."""
    if ctx.game.changed_ms is None:
        return
    ctx.set_game(changed_ms=None)
    if ctx.game.phase != "moving":
        _report_between_turns(ctx)


def _report_between_turns(ctx: Context) -> None:
    """Raise the incident of checkers moved between turns (MSO 4.3, JBL 4.2.2) where the latest
    reading still shows the change."""
    game = ctx.game
    reading = game.reading
    if game.phase not in ("roll", "cube_offered") or game.disturbed is not None:
        return
    if reading is None or reading.occluded:
        return
    ranges = reading_ranges(reading, ctx.state.config)
    if ranges.fits(game.sides) or ranges.implausible():
        return
    on_roll: Player = game.turn if game.turn is not None else 0
    seen = estimate(reading, ctx.state.config)
    seen_id = position_id(position_of(seen, on_roll))
    correct_id = position_id(position_of(game.sides, on_roll))
    number = ctx.record(
        "board_changed_out_of_turn",
        cite(ctx.rules, "checkers_out_of_turn"),
        "checkers were moved between turns: " + play_seen(game.sides, seen, on_roll),
        prompt=Prompt(
            "restore_position",
            "checkers moved out of turn: put them back",
            None,
            on_roll=on_roll,
            params=(("cause", "out_of_turn"),),
            seen_position_id=seen_id,
            correct_position_id=correct_id,
        ),
        seen_position_id=seen_id,
        **ctx.where(game.sides, on_roll),
    )
    ctx.set_game(disturbed=number)


def settle(ctx: Context, final: bool = False) -> None:
    """Judge the pending play against the latest usable reading taken since its roll.

    ``final``: the next turn is starting (the opponent rolled), so the latest reading is the
    board as left, however old; a reading that still fits several plays takes the first (the
    incident tells the director), one that cannot be judged leaves the board to the director.
    """
    game = ctx.game
    pending = game.pending
    reading = game.reading
    if pending is None:
        return
    if reading is None or reading.occluded or game.reading_ms < pending.rolled_ms:
        if not final:
            return
        if reading is None or reading.occluded:
            ctx.record(
                "reading_unusable",
                LEGAL_PLAY,
                "no clear reading of the play: the director checks",
                player=pending.mover,
            )
            ctx.set_game(pending=None)
            return
    config = ctx.state.config
    ranges = reading_ranges(reading, config)
    problem = ranges.implausible()
    if problem is not None:
        if final:
            ctx.set_game(pending=None)
        if pending.note is None or final:
            number = ctx.record(
                "reading_unusable",
                LEGAL_PLAY,
                f"the board cannot be judged: {problem}",
                player=pending.mover,
                prompt=Prompt(
                    "ambiguous_reading",
                    "the kiosk cannot read the board clearly",
                    params=(("cause", "unreadable"),),
                ),
            )
            ctx.set_game(pending=_noted(pending, number))
        return
    seen = estimate(reading, config)
    verdict, rolls = _judged(ctx, pending, ranges, seen)
    if verdict.kind == "legal":
        assert verdict.result is not None
        assert verdict.play is not None
        ctx.set_game(sides=verdict.result, pending=None, disturbed=None)
        ctx.log(pending.mover, "move", dice=_pair(rolls[0]), play=format_play(verdict.play))
        ctx.clear("ambiguous_reading")
        _note_rolls_untold(ctx, pending, verdict.play, rolls)
        check_game_over(ctx)
        return
    dice = _pair(pending.dice) if isinstance(pending.dice, Dice) else None
    plays = tuple(format_play(play) for play in verdict.plays)
    where = ctx.where(pending.before, pending.mover)
    if verdict.kind == "ambiguous" and final:
        play = verdict.plays[0]
        ctx.record(
            "ambiguous_reading",
            LEGAL_PLAY,
            f"the next turn began before the play was clear: {format_play(play)} assumed",
            player=pending.mover,
            dice=dice,
            legal_plays=plays,
            **where,
        )
        after = apply_play(position_of(pending.before, pending.mover), play)
        ctx.set_game(sides=sides_of(after, pending.mover), pending=None)
        ctx.log(pending.mover, "move", dice=_pair(rolls[0]), play=format_play(play))
        check_game_over(ctx)
        return
    if verdict.kind == "ambiguous":
        if pending.note is None:
            number = ctx.record(
                "ambiguous_reading",
                LEGAL_PLAY,
                f"{len(plays)} legal plays fit the reading: a clearer view is needed",
                player=pending.mover,
                prompt=Prompt(
                    "ambiguous_reading",
                    "the kiosk cannot tell the play: clear the view",
                    params=(("cause", "several_plays"),),
                ),
                dice=dice,
                legal_plays=plays,
                **where,
            )
            ctx.set_game(pending=_noted(pending, number))
        return
    if isinstance(pending.dice, UnreadRoll):
        _unread_roll_unfit(ctx, pending, seen)
        return
    _illegal(ctx, pending, pending.dice, seen, plays)


def _judged(
    ctx: Context, pending: PendingPlay, ranges: Ranges, seen: Sides
) -> tuple[Verdict, tuple[Dice, ...]]:
    """The pending play judged against the reading (``_judge_roll``), from the setup put right
    where only that makes it legal (MSO 4.7, JBL 4.2.4)."""
    verdict, rolls = _judge_roll(pending.before, pending.mover, pending.dice, ranges, seen)
    corrected = _corrected(ctx, pending.before)
    if verdict.kind != "legal" and corrected is not None:
        alternative, other_rolls = _judge_roll(corrected, pending.mover, pending.dice, ranges, seen)
        if alternative.kind == "legal":
            _accept_correction(ctx, ctx.game.sides)
            return alternative, other_rolls
    return verdict, rolls


def _judge_roll(
    before: Sides, mover: Player, roll: Roll, ranges: Ranges, seen: Sides
) -> tuple[Verdict, tuple[Dice, ...]]:
    """A play of ``roll`` from ``before`` judged (``board.judge``), and the roll of each of the
    verdict's plays. A roll the camera did not read (``UnreadRoll``) is judged over every roll
    the dice may show (``board.fitting_rolls``): one result fits, the play, of the first roll
    reaching it (all of them given); several, an ambiguous reading; none, illegal (with no
    closest plays: there is no one roll to measure them by)."""
    if isinstance(roll, Dice):
        verdict = judge(before, mover, roll, ranges, seen)
        return verdict, (roll,) * max(1, len(verdict.plays))
    fits = fitting_rolls(before, mover, roll.rolls, ranges)
    if len(fits) == 1:
        play = fits[0].plays[0][1]
        return Verdict("legal", fits[0].result, play, (play,)), tuple(d for d, _ in fits[0].plays)
    firsts = [fit.plays[0] for fit in fits]
    kind: VerdictKind = "ambiguous" if fits else "illegal"
    return Verdict(kind, None, None, tuple(p for _, p in firsts)), tuple(d for d, _ in firsts)


def _note_rolls_untold(
    ctx: Context, pending: PendingPlay, play: Play, rolls: tuple[Dice, ...]
) -> None:
    """Tell the director (no prompt) when the play of a roll the camera did not read could be
    of several rolls: the record holds the first."""
    if not isinstance(pending.dice, UnreadRoll) or len(rolls) < 2:
        return
    others = ", ".join(_text(dice) for dice in rolls[1:])
    ctx.record(
        "dice_unreadable",
        LEGAL_PLAY,
        f"the dice were not read: {format_play(play)} recorded as {_text(rolls[0])}"
        f" (it could be of {others})",
        player=pending.mover,
        **ctx.where(pending.before, pending.mover),
    )


def _unread_roll_unfit(ctx: Context, pending: PendingPlay, seen: Sides) -> None:
    """No roll the unread dice may show makes the board legal: a misread die or board, or an
    illegal move the kiosk cannot name without the roll. The director checks (no prompt at the
    table); play goes on from the board as seen."""
    ctx.record(
        "dice_unreadable",
        LEGAL_PLAY,
        "the dice were not read and no roll they may show makes the play legal:"
        f" {play_seen(pending.before, seen, pending.mover) or '(no checker moved)'};"
        " the director checks",
        player=pending.mover,
        seen_position_id=position_id(position_of(seen, pending.mover)),
        **ctx.where(pending.before, pending.mover),
    )
    ctx.set_game(sides=seen, pending=None)


def _noted(pending: PendingPlay, number: int) -> PendingPlay:
    return PendingPlay(pending.mover, pending.before, pending.dice, pending.rolled_ms, number)


def _illegal(
    ctx: Context, pending: PendingPlay, dice: Dice, seen: Sides, closest: tuple[str, ...]
) -> None:
    """An illegal move (MSO 4.8, BIBA 4.8, GA "Illegal moves", JBL 4.2.3) awaits a choice:
    announced, the opponent condones or demands a legal play; recorded silently, nobody at the
    table is told, but the director may still rule on it (condone or order a legal play) until the
    opponent condones it implicitly per the rule set (rolling, turning the cube, picking up the
    dice). A silent illegal move that ends the game stands at once."""
    mover = pending.mover
    before = position_of(pending.before, mover)
    used = max((len(play) for play in legal_plays(before, dice)), default=0)
    reason = why_illegal(pending.before, seen, mover, dice, used)
    seen_text = play_seen(pending.before, seen, mover)
    seen_id = position_id(position_of(seen, mover))
    params: Args = (
        ("player", mover),
        ("reason", reason.code),
        ("number", reason.number),
        ("dice", _text(dice)),
        ("play", seen_text),
    )
    number = ctx.record(
        "illegal_move",
        ctx.rules.rule("play.illegal_move_condoned_by"),
        reason.text,
        player=mover,
        prompt=Prompt(
            "illegal_move",
            reason.text,
            opponent(mover),
            ("condone", "demand_legal_play"),
            on_roll=mover,
            seen_position_id=seen_id,
            correct_position_id=position_id(position_of(pending.before, mover)),
            params=params,
        ),
        dice=(dice.first, dice.second),
        play_seen=seen_text or "(no checker moved)",
        seen_position_id=seen_id,
        legal_plays=closest,
        **ctx.where(pending.before, mover),
    )
    illegal = IllegalMove(mover, pending.before, seen, dice, number)
    ctx.set_game(sides=seen, pending=None, illegal=illegal)
    if not ctx.announced(number) and game_over(seen) is not None:
        condone(ctx, "the game ended", implicit=True)


def _pair(dice: Dice) -> tuple[int, int]:
    return (dice.first, dice.second)


def _text(dice: Dice) -> str:
    return f"{dice.first}-{dice.second}"


def check_game_over(ctx: Context) -> None:
    """End the game when a player has no checker left in play: a single, gammon or backgammon
    from the loser's checkers, missing ones never counting as borne off (MSO 4.7, 5.3; JBL
    4.2.4(1); ``kiosk.match.result_kind``)."""
    game = ctx.game
    winner = game_over(game.sides)
    if winner is None:
        return
    loser = game.sides[opponent(winner)]
    stranded = loser[BAR] > 0 or any(loser[point] for point in range(19, 25))
    kind = result_kind(borne_off(loser, game.missing[opponent(winner)]), stranded)
    ctx.end_game(winner, kind, "bear_off", game.cube.value)


# -- dice -----------------------------------------------------------------------------------


def on_dice_read(ctx: Context, event: DiceRead) -> None:
    """Dice landed, moved or were picked up."""
    game = ctx.game
    if event.dice == game.dice_seen or game.phase == "match_over":
        return
    moved = _unrowed(event.dice) == _unrowed(game.dice_seen)
    ctx.set_game(dice_seen=event.dice)
    if moved and game.phase != "opening":
        return  # the same dice pushed across the middle line: only an opening die's row tells
    if not event.dice:
        _dice_lifted(ctx)
    elif len(event.dice) != 2:
        return
    elif game.phase == "opening":
        _opening_roll(ctx, event.dice)
    elif game.phase == "roll":
        _turn_roll(ctx, event.dice)
    elif game.phase == "moving":
        _dice_during_play(ctx, event.dice, lifted=not game.dice_seen)


def _dice_lifted(ctx: Context) -> None:
    game = ctx.game
    if game.phase == "moving" and game.turn is not None:
        if ctx.state.clock is None:
            end_turn(ctx, game.turn)  # MSO 4.5, JBL 4.1.6: lifting a die ends the turn
        elif _unmoved(ctx) and ctx.rules.play.cocked_dice_reroll:
            ctx.set_game(held_lift=True)  # a roll again, or touched early: what follows tells
        else:
            _touched_early(ctx)
        return
    illegal = game.illegal
    if (
        game.phase == "roll"
        and illegal is not None
        and "pick_up_dice" in ctx.rules.play.illegal_move_condoned_by
    ):
        condone(
            ctx,
            f"condoned by player {opponent(illegal.offender)} picking up the dice",
            implicit=True,
        )


def _unmoved(ctx: Context) -> bool:
    """The latest settled reading shows the board as it was at the roll (a reading settles
    only when it changes, so one from before the roll still shows the board now)."""
    reading = ctx.game.reading
    if reading is None or reading.occluded:
        return False
    return reading_ranges(reading, ctx.state.config).fits(ctx.game.sides)


def _touched_early(ctx: Context) -> None:
    """The dice were lifted before the clock was pressed (JBL 4.3.2(5), BIBA 4.6), recorded when
    lifted or, held back (``held_lift``), when no roll again followed."""
    ctx.set_game(held_lift=False)
    ctx.record(
        "dice_touched_early",
        cite(ctx.rules, "dice_out_of_turn"),
        "the dice were lifted before the clock was pressed",
    )


def _rolled_again(ctx: Context, roller: Player, dice: tuple[DieSeen, ...]) -> None:
    """The mover lifted the dice before moving and rolled again: the roll before did not count
    (a die cocked that the camera did not see, MSO 4.2, JBL 4.1.4). The director is told (no
    prompt: the players did as the rules ask); the new roll is taken as any roll."""
    game = ctx.game
    before = _text(game.dice) if isinstance(game.dice, Dice) else "unread"
    ctx.record(
        "invalid_roll",
        ctx.rules.rule("play.cocked_dice_reroll"),
        f"player {roller} rolled again before moving: the roll before ({before}) taken as void,"
        " a die cocked that the kiosk did not see",
        player=roller,
    )
    ctx.set_game(phase="roll", dice=None, held_lift=False)
    _turn_roll(ctx, dice)


@dataclass(frozen=True)
class RollProblem:
    """Why dice do not count: ``cause`` is ``unreadable``, ``cocked``, or where the dice should
    have landed and did not: ``right_of_bar``, ``own_home`` (the roller's home board) or
    ``board`` (a die off the board at the opening roll)."""

    kind: IncidentKind
    rule: str
    text: str
    cause: str


_UNREADABLE = RollProblem(
    "dice_unreadable", LEGAL_PLAY, "the kiosk cannot read the dice", "unreadable"
)
"""Opening dice the camera cannot read: their values decide who starts (MSO-clock 3.3), so the
kiosk waits for a clearer view; the roll is not voided."""


def _roll_problem(ctx: Context, roller: Player, dice: tuple[DieSeen, ...]) -> RollProblem | None:
    """Why a roll by ``roller`` is not valid (MSO 4.2, JBL 4.1.4), or None. Whether the camera
    read the values does not enter: a valid roll stands read or not."""
    rules = ctx.rules
    if any(die.cocked for die in dice) and rules.play.cocked_dice_reroll:
        rule = rules.rule("play.cocked_dice_reroll")
        return RollProblem("invalid_roll", rule, "a die is cocked", "cocked")
    allowed: set[Zone]
    config = ctx.state.config
    if rules.play.valid_roll_zone == "right_of_bar":
        allowed = {"right-half" if config.player_row(roller) == "bottom" else "left-half"}
        where, cause = "to the right of the bar", "right_of_bar"
    else:
        home: Zone = "right-half" if config.home_on_right() else "left-half"
        allowed = {home}
        where, cause = "in the roller's own home board", "own_home"
        if rules.play.other_half_with_permission and ctx.game.other_half[roller]:
            allowed = {"right-half", "left-half"}
    if any(die.zone not in allowed for die in dice):
        text = f"the dice must land flat {where}"
        return RollProblem("invalid_roll", rules.rule("play.valid_roll_zone"), text, cause)
    return None


def _values(dice: tuple[DieSeen, ...]) -> tuple[int, int]:
    first, second = (die.value or 0 for die in dice)
    return first, second


def _reject_roll(ctx: Context, roller: Player | None, problem: RollProblem) -> None:
    unreadable = problem.kind == "dice_unreadable"
    prompt_kind: PromptKind = "dice_unreadable" if unreadable else "roll_again"
    text = f"{problem.text}: {'clear the view' if unreadable else 'roll again'}"
    params: Args = (("player", roller), ("cause", problem.cause))
    ctx.record(
        problem.kind,
        problem.rule,
        text,
        player=roller,
        prompt=Prompt(prompt_kind, text, roller, params=params),
    )
    if problem.cause == "cocked":
        ctx.set_game(cocked=True)


def _opening_roll(ctx: Context, dice: tuple[DieSeen, ...]) -> None:
    """One die each (MSO-clock 3.3); equal dice are rolled again."""
    problem = None
    for die in dice:
        roller = _roller(ctx, die)
        if roller is not None:
            problem = problem or _roll_problem(ctx, roller, (die,))
    if any(die.value is None or die.cocked or die.zone in ("on-bar", "off-board") for die in dice):
        problem = (
            problem
            or (_UNREADABLE if any(die.value is None for die in dice) else None)
            or _roll_problem(ctx, 0, dice)
            or RollProblem(
                "invalid_roll",
                ctx.rules.rule("play.valid_roll_zone"),
                "a die is off the board",
                "board",
            )
        )
    if problem is not None:
        _reject_roll(ctx, None, problem)
        return
    first, second = _values(dice)
    if first == second:
        text = f"equal opening dice ({first}): roll again"
        ctx.show(Prompt("roll_again", text, params=(("cause", "equal"), ("value", first))))
        return
    ctx.clear(*_ROLL_PROMPTS)
    _check_setup(ctx)
    high = dice[0] if first > second else dice[1]
    winner = _roller(ctx, high)
    ctx.set_game(
        phase="opening_rolled",
        opening=(max(first, second), min(first, second)),
        opening_winner=winner,
        rolls=1,
        roll_ms=ctx.t_ms,
    )
    _setup_deadline(ctx)
    if ctx.state.clock is None:
        if winner is None:
            text = "roll the opening dice on your own sides"
            ctx.show(Prompt("roll_again", text, params=(("cause", "sides"),)))
            ctx.set_game(phase="opening", rolls=0)
            return
        _start_first_turn(ctx, winner)


def _unrowed(dice: tuple[DieSeen, ...]) -> tuple[DieSeen, ...]:
    """The dice without their rows."""
    return tuple(replace(die, row=None) for die in dice)


def _roller(ctx: Context, die: DieSeen) -> Player | None:
    """Who rolled a die: rolling to the right of the bar (MSO 4.2), by its half, which either
    row may hold; in one's own home board (JBL 4.1.4), by its row; None when the reading cannot
    tell (at the opening, the press tells, MSO-clock 3.3)."""
    config = ctx.state.config
    if ctx.rules.play.valid_roll_zone == "right_of_bar" and die.zone in ("left-half", "right-half"):
        return config.row_player("bottom" if die.zone == "right-half" else "top")
    if die.row is not None:
        return config.row_player(die.row)
    return None


def _check_setup(ctx: Context) -> None:
    """At the opening roll: the starting setup and the cube (MSO 4.7, 5.2; JBL 4.2.4, 4.4.1)."""
    game = ctx.game
    reading = game.reading
    if reading is None or reading.occluded:
        return
    cube = reading.cube
    config = ctx.state.config
    if cube is not None and game.cube.available:
        wrong_face = cube.face is not None and not start_face_ok(ctx.rules, cube.face)
        if wrong_face or cube.place not in (None, "centre"):
            start_faces = ctx.rules.cube.start_faces
            faces = " or ".join(str(face) for face in start_faces)
            ctx.record(
                "cube_start_wrong",
                ctx.rules.rule("cube.start_faces"),
                f"the cube must be centred showing {faces} (seen {cube.face} at {cube.place})",
                prompt=Prompt(
                    "setup_error",
                    f"centre the cube showing {faces}",
                    params=(("cause", "cube"), ("faces", "/".join(map(str, start_faces)))),
                ),
            )
    ranges = reading_ranges(reading, config)
    if ranges.fits(START_SIDES) or ranges.implausible():
        ctx.set_game(sides=START_SIDES)
        return
    seen = exact_sides(reading, config) or estimate(reading, config)
    missing = (CHECKERS - on_board(seen[0]), CHECKERS - on_board(seen[1]))
    seen_id = position_id(position_of(seen, 0))
    start_id = position_id(position_of(START_SIDES, 0))
    moved = "; ".join(
        f"player {player}: {text}"
        for player in (0, 1)
        if (text := _setup_note(seen, player, missing[player]))
    )
    deadline = ctx.rules.play.setup_correction_before_roll
    ctx.record(
        "setup_error",
        ctx.rules.rule("play.setup_correction_before_roll"),
        f"the starting setup is wrong ({moved}); correct it before roll {deadline}",
        prompt=Prompt(
            "setup_error",
            "the setup is wrong: set it up as shown",
            None,
            on_roll=0,
            seen_position_id=seen_id,
            correct_position_id=start_id,
            params=(("cause", "checkers"),),
        ),
        seen_position_id=seen_id,
        **ctx.where(START_SIDES, 0),
    )
    ctx.set_game(sides=seen, setup=seen, setup_status="wrong", missing=missing)


def _setup_note(seen: Sides, player: Player, missing: int) -> str:
    """What is wrong with ``player``'s setup: checkers misplaced on the playing surface, and
    checkers missing from it (in the tray or nowhere to be seen: MSO 4.7, JBL 4.2.4)."""
    surface = [list(seen[0]), list(seen[1])]
    surface[player][OFF] = 0  # START_SIDES has none off: missing checkers are no movement
    moves = play_seen(START_SIDES, (tuple(surface[0]), tuple(surface[1])), player)
    note = f"{missing} checker{'s' if missing > 1 else ''} missing" if missing else ""
    return ", ".join(part for part in (moves, note) if part)


def _setup_deadline(ctx: Context) -> None:
    """After the deadline roll a wrong setup is official (MSO 4.7), or the opponent of the player
    with missing checkers chooses (JBL 4.2.4)."""
    game = ctx.game
    if game.setup_status != "wrong" or setup_correctable(ctx.rules, game.rolls) is not False:
        return
    rule = ctx.rules.rule("play.setup_after_deadline")
    short = [player for player in (0, 1) if game.missing[player]]
    if ctx.rules.play.setup_after_deadline == "opponent_chooses" and short:
        faulty: Player = 0 if short[0] == 0 else 1
        chooser = opponent(faulty)
        ctx.record(
            "setup_choice",
            rule,
            f"player {faulty} has missing checkers: player {chooser} chooses",
            player=faulty,
            prompt=Prompt(
                "setup_choice",
                f"player {faulty}'s missing checkers: play on, or put them on the bar",
                chooser,
                ("setup_play_on", "setup_missing_to_bar"),
                params=(("player", faulty),),
            ),
        )
        ctx.set_game(setup_status="choice")
        return
    ctx.record("setup_official", rule, f"the setup is official after roll {game.rolls}")
    ctx.set_game(setup_status="official")
    ctx.clear("setup_error")


def _start_first_turn(ctx: Context, winner: Player) -> None:
    high, low = ctx.game.opening or (0, 0)
    ctx.set_game(phase="moving", turn=winner, dice=Dice(high, low))


def _turn_roll(ctx: Context, dice: tuple[DieSeen, ...]) -> None:
    game = ctx.game
    roller = game.turn
    assert roller is not None
    problem = _roll_problem(ctx, roller, dice)
    if problem is not None:
        _reject_roll(ctx, roller, problem)
        return
    settle(ctx, final=True)
    if ctx.game.illegal is not None:
        # MSO 4.8, JBL 4.2.3: rolling condones; GA: the dice were picked up to roll.
        condone(ctx, f"condoned by player {roller} rolling", implicit=True)
    if ctx.game.phase != "roll" or ctx.game.number != game.number:
        return  # the play just judged ended the game
    read = tuple(die.value for die in dice if die.value is not None)
    roll: Roll = Dice(*read) if len(read) == 2 else UnreadRoll(read)
    ctx.clear(*_ROLL_PROMPTS)
    ctx.set_game(
        phase="moving",
        dice=roll,
        rolls=game.rolls + 1,
        roll_ms=ctx.t_ms,
        cocked=False,
    )
    _setup_deadline(ctx)


def _dice_during_play(ctx: Context, dice: tuple[DieSeen, ...], lifted: bool) -> None:
    """New dice while the mover plays: the roll's dice read at last (an unread roll, the dice
    not ``lifted`` in between), or the opponent rolled early (MSO 4.6, JBL 4.1.5)."""
    game = ctx.game
    mover = game.turn
    assert mover is not None
    assert game.dice is not None
    if game.held_lift:
        if all(_roller(ctx, die) == mover for die in dice):
            _rolled_again(ctx, mover, dice)
            return
        _touched_early(ctx)
    if any(die.value is None for die in dice):
        return
    values = _values(dice)
    if isinstance(game.dice, UnreadRoll):
        if not lifted and Dice(max(values), min(values)) in game.dice.rolls:
            ctx.set_game(dice=Dice(*values))  # the roll's dice, read at last
            return
    elif sorted(values) == sorted((game.dice.first, game.dice.second)):
        return  # the same dice, moved aside (MSO 4.5, JBL 4.1.2)
    roller = opponent(mover)
    rule = ctx.rules.rule("play.premature_roll")
    detail = f"player {roller} rolled {values[0]}-{values[1]} before player {mover} finished"
    problem = _roll_problem(ctx, roller, dice)
    if problem is not None:
        ctx.record("premature_roll", rule, f"{detail} ({problem.text}: rolls again)", player=roller)
        return
    if ctx.rules.clock.premature_action_forfeits_delay:  # BIBA 4.6
        ctx.clock(lambda c: clocks.forfeit_allowance(c, roller, ctx.t_ms))
    stands = None if ctx.rules.play.premature_roll == "victim_chooses" else True
    prompt = None
    if stands is None:
        prompt = Prompt(
            "premature_roll_choice",
            f"player {roller} rolled early: does the roll stand?",
            mover,
            ("premature_roll_stands", "premature_roll_reroll"),
            params=(("player", roller), ("dice", f"{values[0]}-{values[1]}")),
        )
    number = ctx.record(
        "premature_roll",
        rule,
        detail,
        player=roller,
        prompt=prompt,
        dice=values,
        **ctx.where(game.sides, mover),
    )
    ctx.set_game(premature=PrematureRoll(roller, Dice(*values), number, stands))


# -- presses --------------------------------------------------------------------------------


def on_press(ctx: Context, event: ClockPress) -> None:
    """A clock button. The turn player's press ends a play; the lower opening die's press starts
    the game (MSO-clock 3.3); other presses go to the clock, which reports misuse."""
    game = ctx.game
    t_ms = ctx.t_ms
    if event.side == "centre":
        ctx.centre("concession" if game.offer is not None else "contest_action")
        return
    player = ctx.state.config.seat_player(event.side)
    if game.phase == "match_over":
        return
    if game.held_lift:
        _touched_early(ctx)  # lifted, then pressed: no roll again
    if game.phase == "opening":
        ctx.record(
            "opening_press_wrong",
            cite(ctx.rules, "opening_roll"),
            "a clock was pressed before the opening roll",
            player=player,
        )
        return
    if game.phase == "opening_rolled":
        _opening_press(ctx, player)
        return
    if game.phase == "roll" and player == game.turn:
        if not closed_out(game.sides, player):
            ctx.record(
                "press_before_roll",
                cite(ctx.rules, "end_of_turn"),
                "the clock was pressed before rolling",
                player=player,
            )
        elif ctx.clock(lambda c: clocks.press(c, player, t_ms)):
            ctx.set_game(turn=opponent(player))  # closed out: no roll (MSO-clock 3.4)
        return
    accepted = ctx.clock(lambda c: clocks.press(c, player, t_ms))
    if accepted and game.phase == "moving" and player == game.turn:
        end_turn(ctx, player)


def _opening_press(ctx: Context, player: Player) -> None:
    game = ctx.game
    winner = game.opening_winner
    if winner == player:
        ctx.record(
            "opening_press_wrong",
            cite(ctx.rules, "opening_roll"),
            "the player of the higher die pressed: the lower die presses",
            player=player,
        )
        return
    t_ms = ctx.t_ms
    if ctx.clock(lambda c: clocks.press(c, player, t_ms)):
        _start_first_turn(ctx, opponent(player))


def end_turn(ctx: Context, mover: Player) -> None:
    """``mover``'s play is complete: hand over the turn, with the opponent's premature roll or
    double taking effect now (MSO 4.6, JBL 4.1.5, 4.4.5)."""
    game = ctx.game
    assert game.dice is not None
    cube = complete_move(game.cube, mover)
    following = opponent(mover)
    pending = PendingPlay(mover, game.sides, game.dice, game.roll_ms)
    premature = game.premature
    ctx.set_game(
        pending=pending,
        cube=cube,
        turn=following,
        dice=None,
        cocked=False,
        phase="roll",
        premature=None,
        disturbed=None,
    )
    ctx.clear("replay", "premature_roll_choice", *_ROLL_PROMPTS)
    if cube.offer is not None:
        ctx.set_game(phase="cube_offered")
        ctx.log(following, "double", value=cube.offer.value)
        ctx.show(
            Prompt(
                "double_offered",
                f"player {following} doubles to {cube.offer.value}",
                mover,
                ("take", "pass"),
                params=(("player", following), ("value", cube.offer.value)),
            )
        )
    elif premature is not None and premature.stands is not False:
        settle(ctx, final=True)  # the early roller moves at once: judge the play now
        if ctx.game.phase != "roll" or ctx.game.number != game.number:
            return
        ctx.set_game(
            phase="moving",
            dice=premature.dice,
            rolls=game.rolls + 1,
            roll_ms=ctx.t_ms,
        )
        _setup_deadline(ctx)


def condone(ctx: Context, how: str, implicit: bool = False) -> None:
    """The pending illegal move stands (MSO 4.8, GA "Illegal moves", JBL 4.2.3).

    ``implicit``: condoned by the opponent rolling, turning the cube or picking up the dice (per
    the rule set's ``play.illegal_move_condoned_by``). Condoning a move recorded silently that way
    raises no incident: nobody at the table knew of it, and its ``illegal_move`` incident already
    tells the director that the play stood unless he ruled before."""
    illegal = ctx.game.illegal
    assert illegal is not None
    if not implicit or ctx.announced(illegal.incident):
        ctx.record(
            "illegal_move_condoned",
            ctx.rules.rule("play.illegal_move_condoned_by"),
            how,
            player=opponent(illegal.offender),
        )
    seen_text = play_seen(illegal.before, illegal.seen, illegal.offender)
    ctx.log(illegal.offender, "move", dice=_pair(illegal.dice), play=seen_text, legal=False)
    ctx.set_game(illegal=None)
    ctx.clear("illegal_move")
    check_game_over(ctx)


def replay(ctx: Context, demanded_by: str) -> None:
    """The opponent demands a legal play: the offender plays the same dice again from the
    position before (MSO 4.8, BIBA 4.8, JBL 4.2.3)."""
    illegal = ctx.game.illegal
    assert illegal is not None
    offender = illegal.offender
    ctx.record(
        "illegal_move_replay",
        ctx.rules.rule("play.illegal_move_condoned_by"),
        demanded_by,
        player=offender,
    )
    ctx.set_game(
        illegal=None,
        sides=illegal.before,
        turn=offender,
        phase="moving",
        dice=illegal.dice,
        roll_ms=ctx.t_ms,
        pending=None,
    )
    ctx.show(
        Prompt(
            "replay",
            f"player {offender}: play {illegal.dice.first}-{illegal.dice.second} again, legally",
            offender,
            on_roll=offender,
            correct_position_id=position_id(position_of(illegal.before, offender)),
            params=(("player", offender), ("dice", _text(illegal.dice))),
        )
    )
