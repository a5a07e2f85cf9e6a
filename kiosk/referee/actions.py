"""Touches on the screen and the director's actions.

A touch that does not fit the moment (taking when no double is offered, condoning when nothing is
illegal) is recorded as ``out_of_phase`` and changes nothing: bad input never raises.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import cast, get_args

from kiosk import clock as clocks
from kiosk.cube import TurnState, freeze, pass_double, take
from kiosk.cube import double as offer_double
from kiosk.match import (
    MatchError,
    RejectionRuling,
    ResultKind,
    award_penalty,
    rule_on_concession,
    rule_on_rejection,
)
from kiosk.match.players import Player, opponent
from kiosk.referee.board import borne_off, position_of, sides_of
from kiosk.referee.citations import cite
from kiosk.referee.context import Context
from kiosk.referee.events import DirectorAction, Touch, TouchAction
from kiosk.referee.incidents import Prompt
from kiosk.referee.state import EndOffer, GinPending
from kiosk.referee.turns import condone, replay
from kiosk.rules import BAR, OFF, InvalidIdError, decode_position_id
from kiosk.rulesets import RuleSetError

_KINDS: tuple[str, ...] = get_args(ResultKind)


def _refuse(ctx: Context, player: Player | None, what: str, rule: str) -> None:
    ctx.record("out_of_phase", rule, f"{what}: not possible now", player=player)


# -- the cube -----------------------------------------------------------------------------------


def _double(ctx: Context, player: Player, touch: Touch) -> None:
    """MSO 5.4, JBL 4.4.2-4.4.6 through ``kiosk.cube.double``."""
    game = ctx.game
    rule = ctx.rules.rule("cube.double_before_rolling")
    if game.phase not in ("roll", "moving") or game.turn is None:
        _refuse(ctx, player, "double", rule)
        return
    target = touch.arg("to")
    to_value = target if isinstance(target, int) and not isinstance(target, bool) else None
    turn = TurnState(on_roll=game.turn, rolled=game.phase == "moving", cocked=game.cocked)
    step = offer_double(game.cube, ctx.rules, player, turn, to_value)
    ruling = step.ruling
    if ruling.kind in ("offered", "wrong_level_corrected", "wrong_level_stands"):
        illegal = game.illegal
        if illegal is not None and "double" in ctx.rules.play.illegal_move_condoned_by:
            condone(ctx, f"condoned by player {player} turning the cube", implicit=True)
        if ruling.kind != "offered":
            ctx.record("wrong_cube_level", ruling.rule, ruling.detail, player=player)
        offer = step.state.offer
        assert offer is not None
        ctx.set_game(cube=step.state, phase="cube_offered")
        ctx.log(player, "double", value=offer.value)
        ctx.show(
            Prompt(
                "double_offered",
                f"player {player} doubles to {offer.value}",
                opponent(player),
                ("take", "pass"),
                params=(("player", player), ("value", offer.value)),
            )
        )
    elif ruling.kind == "premature_pending":
        ctx.record("premature_double", ruling.rule, ruling.detail, player=player)
        ctx.set_game(cube=step.state)
        if ruling.forfeits_delay:
            ctx.clock(lambda c: clocks.forfeit_allowance(c, player, ctx.t_ms))
    elif ruling.kind == "void_crawford":
        ctx.record("double_in_crawford", ruling.rule, ruling.detail, player=player)
    else:
        ctx.record("cube_refused", ruling.rule, ruling.detail, player=player)


def _take(ctx: Context, player: Player, touch: Touch) -> None:
    offer = ctx.game.cube.offer
    if offer is None or offer.doubler == player:
        _refuse(ctx, player, "take", ctx.rules.rule("cube.double_before_rolling"))
        return
    ctx.set_game(cube=take(ctx.game.cube, player), phase="roll")
    ctx.log(player, "take")
    ctx.clear("double_offered")


def _pass(ctx: Context, player: Player, touch: Touch) -> None:
    offer = ctx.game.cube.offer
    if offer is None or offer.doubler == player:
        _refuse(ctx, player, "pass", ctx.rules.rule("cube.double_before_rolling"))
        return
    passed = pass_double(ctx.game.cube, player)
    ctx.log(player, "drop")
    ctx.end_game(passed.winner, "single", "pass", passed.cube_value)


# -- ending a game early ----------------------------------------------------------------------


def _offer_end(ctx: Context, player: Player, touch: Touch) -> None:
    """Concede (or claim) a single, gammon or backgammon: MSO 4.9, MSO-clock 3.6, BIBA 4.9,
    GA "Completing a game", JBL 4.6, through ``kiosk.match.rule_on_concession``."""
    game = ctx.game
    rule = ctx.rules.rule("concession.requires_no_contact")
    kind = touch.arg("kind")
    if game.phase not in ("roll", "moving", "cube_offered") or game.offer is not None:
        _refuse(ctx, player, touch.action, rule)
        return
    if kind not in _KINDS:
        ctx.record(
            "invalid_action",
            rule,
            f"kind: must be single, gammon or backgammon, got {kind!r}",
            player=player,
        )
        return
    result = cast(ResultKind, kind)
    claim = touch.action == "claim"
    winner = player if claim else opponent(player)
    on_roll: Player = game.turn if game.turn is not None else 0
    contact = position_of(game.sides, on_roll).has_contact()
    certain = ctx.ask_gin(winner, result, exactly=True)
    ruling = rule_on_concession(ctx.rules, contact=contact, claims_win=claim, certain=certain)
    if ruling.outcome == "refused":
        ctx.record("concession_refused", ruling.rule, ruling.detail, player=player)
        return
    ctx.centre("concession")
    offer = EndOffer(player, winner, result, claim, certain, ruling.must_accept)
    ctx.set_game(offer=offer)
    if ruling.outcome == "gin_verdict_needed":
        number = ctx.record(
            "gin_verdict_needed",
            ruling.rule,
            ruling.detail,
            player=player,
            prompt=Prompt(
                "concession_ruling",
                "the director rules on the offered end of game",
                params=(("player", player), ("outcome", "gin_verdict_needed")),
            ),
        )
        ctx.set(gin=GinPending("concession", player, number))
        return
    _show_offer(ctx, offer)


def _show_offer(ctx: Context, offer: EndOffer) -> None:
    verb = "claims" if offer.claim else "concedes"
    loser = offer.by if not offer.claim else opponent(offer.by)
    verdict = f"certain: player {loser} loses a {offer.kind}" if offer.must_accept else None
    choices: tuple[TouchAction, ...] = ("accept",) if offer.must_accept else ("accept", "reject")
    ctx.show(
        Prompt(
            "concession_offered",
            f"player {offer.by} {verb} a {offer.kind}",
            opponent(offer.by),
            choices,
            verdict=verdict,
            params=(
                ("player", offer.by),
                ("kind", offer.kind),
                ("claim", offer.claim),
                ("verdict", "certain_loss" if offer.must_accept else None),
                ("loser", loser),
            ),
        )
    )


def _accept(ctx: Context, player: Player, touch: Touch) -> None:
    offer = ctx.game.offer
    if offer is None or player != opponent(offer.by) or ctx.state.gin is not None:
        _refuse(ctx, player, "accept", ctx.rules.rule("concession.on_rejection"))
        return
    ctx.end_game(
        offer.winner, offer.kind, "claim" if offer.claim else "concession", ctx.game.cube.value
    )


def _reject(ctx: Context, player: Player, touch: Touch) -> None:
    """MSO-clock 3.6, GA "Completing a game", BIBA 4.9, JBL 4.3.2(7) through
    ``kiosk.match.rule_on_rejection``."""
    offer = ctx.game.offer
    if offer is None or player != opponent(offer.by) or ctx.state.gin is not None:
        _refuse(ctx, player, "reject", ctx.rules.rule("concession.on_rejection"))
        return
    _apply_rejection(ctx, offer, player, rule_on_rejection(ctx.rules, certain=offer.certain))


def _apply_rejection(
    ctx: Context, offer: EndOffer, rejecter: Player, ruling: RejectionRuling
) -> None:
    text = f"player {rejecter} rejects: {ruling.outcome.replace('_', ' ')}"
    verdict = "the outcome is certain" if ruling.outcome == "outcome_stands" else None
    number = ctx.record(
        "concession_rejected",
        ruling.rule,
        text,
        player=rejecter,
        prompt=Prompt(
            "concession_ruling",
            text,
            None,
            verdict=verdict,
            params=(
                ("player", rejecter),
                ("outcome", ruling.outcome),
                ("verdict", "outcome_certain" if verdict else None),
            ),
        ),
    )
    if ruling.outcome == "outcome_stands":
        _accept_offer(ctx, offer)
        return
    if ruling.outcome == "director":
        ctx.set(gin=GinPending("rejection", rejecter, number))
        return
    ctx.set_game(offer=None)
    if ruling.outcome == "play_on_with_bonus":
        bonus = ruling.bonus_ms
        ctx.clock(lambda c: clocks.director_add(c, ctx.t_ms, rejecter, bonus, "claim_bonus"))
    if ruling.outcome != "play_on_without_clocks":
        _resume(ctx)


def _accept_offer(ctx: Context, offer: EndOffer) -> None:
    ctx.end_game(
        offer.winner, offer.kind, "claim" if offer.claim else "concession", ctx.game.cube.value
    )


# -- illegal moves, early rolls, setup --------------------------------------------------------


def _condone(ctx: Context, player: Player, touch: Touch) -> None:
    illegal = ctx.game.illegal
    if illegal is None or player == illegal.offender:
        _refuse(ctx, player, "condone", ctx.rules.rule("play.illegal_move_condoned_by"))
        return
    condone(ctx, f"condoned by player {player}")


def _demand(ctx: Context, player: Player, touch: Touch) -> None:
    illegal = ctx.game.illegal
    if illegal is None or player == illegal.offender:
        rule = ctx.rules.rule("play.illegal_move_condoned_by")
        _refuse(ctx, player, "demand a legal play", rule)
        return
    replay(ctx, f"player {player} demands a legal play")


def _premature_choice(ctx: Context, player: Player, touch: Touch) -> None:
    """JBL 4.1.5: the player whose turn it was chooses whether the early roll stands."""
    premature = ctx.game.premature
    rule = ctx.rules.rule("play.premature_roll")
    if premature is None or premature.stands is not None or player == premature.roller:
        _refuse(ctx, player, "premature roll choice", rule)
        return
    stands = touch.action == "premature_roll_stands"
    ctx.set_game(premature=dataclasses.replace(premature, stands=stands))
    ctx.clear("premature_roll_choice")


def _setup_choice(ctx: Context, player: Player, touch: Touch) -> None:
    """JBL 4.2.4: play on as is, or the missing checkers go to the bar."""
    game = ctx.game
    rule = ctx.rules.rule("play.setup_after_deadline")
    short = [p for p in (0, 1) if game.missing[p]]
    if game.setup_status != "choice" or not short or player == short[0]:
        _refuse(ctx, player, "setup choice", rule)
        return
    faulty: Player = 0 if short[0] == 0 else 1
    sides = [list(game.sides[0]), list(game.sides[1])]
    missing = list(game.missing)
    to_bar = touch.action == "setup_missing_to_bar"
    if to_bar:  # from the tray, or from wherever they are: only those borne off stay off
        sides[faulty][OFF] = borne_off(game.sides[faulty], missing[faulty])
        sides[faulty][BAR] += missing[faulty]
        missing[faulty] = 0
    text = "missing checkers to the bar" if to_bar else "play on as is"
    ctx.record("setup_official", rule, f"player {player} chose: {text}", player=faulty)
    ctx.set_game(
        sides=(tuple(sides[0]), tuple(sides[1])),
        setup_status="official",
        missing=(missing[0], missing[1]),
    )
    ctx.clear("setup_choice", "setup_error")


def _permission(ctx: Context, player: Player, touch: Touch) -> None:
    """JBL 4.1.4: the opponent may let the roller use the other half, until withdrawn."""
    rule = ctx.rules.rule("play.other_half_with_permission")
    if not ctx.rules.play.other_half_with_permission:
        _refuse(ctx, player, "permission to roll in the other half", rule)
        return
    granted = list(ctx.game.other_half)
    granted[opponent(player)] = touch.action == "permit_other_half"
    ctx.set_game(other_half=(granted[0], granted[1]))


# -- time, breaks, the director ----------------------------------------------------------------


def _claim_time(ctx: Context, player: Player, touch: Touch) -> None:
    """JBL 4.3.3: the time-out stands once pointed out."""
    flag = ctx.state.flag
    if flag is None or player == flag or ctx.state.gin is not None:
        _refuse(ctx, player, "claim time", ctx.rules.rule("clock.expiry.needs_claim"))
        return
    ctx.rule_expiry(flag, None)


def _break(ctx: Context, player: Player, touch: Touch) -> None:
    """MSO 2.2, GA "Breaks", JBL 2.2.2 (limits checked by ``kiosk.clock.take_break``)."""
    ctx.clock(lambda c: clocks.take_break(c, ctx.t_ms, player))
    ctx.record(
        "break_taken",
        ctx.rules.rule("clock.breaks.limit"),
        f"player {player} takes a break",
        player=player,
        prompt=Prompt("break", f"break asked by player {player}", params=(("player", player),)),
    )


def _resume(ctx: Context) -> None:
    """Restart the clock of the turn a centring paused (a break, the director, an offer)."""
    clock = ctx.state.clock
    if clock is not None and clock.running is None and clock.turn_side is not None:
        ctx.clock(lambda c: clocks.resume(c, ctx.t_ms))
    ctx.clear("break", "director_called")


def _call_director(ctx: Context, player: Player, touch: Touch) -> None:
    """MSO-clock 4.1(e), JBL 4.3.2(4); everything stays as it is (MSO 6.1, JBL 5.1)."""
    ctx.centre("summon_director")
    ctx.record(
        "director_called",
        cite(ctx.rules, "disputes"),
        f"player {player} calls the director",
        player=player,
        prompt=Prompt(
            "director_called",
            "the director is called: touch nothing",
            params=(("player", player),),
        ),
    )


def _dice_mix(ctx: Context, player: Player, touch: Touch) -> None:
    """MSO 3.3 (before any game), JBL 4.1.3 (before the match)."""
    game = ctx.game
    rule = ctx.rules.rule("play.dice_mix_when")
    allowed = game.phase == "opening" and game.rolls == 0
    if ctx.rules.play.dice_mix_when == "before_match":
        allowed = allowed and not ctx.match.games and game.number == 1
    if not allowed:
        text = f"player {player} asks for a dice mix"
        ctx.record("dice_mix_not_allowed", rule, text, player=player)
        return
    count = ctx.rules.play.dice_mix_dice
    ctx.record(
        "dice_mix",
        rule,
        f"player {player} asks for a dice mix",
        player=player,
        prompt=Prompt(
            "dice_mix",
            f"mix {count} dice: each player picks one in turn",
            params=(("player", player), ("dice", count)),
        ),
    )


Handler = Callable[[Context, Player, Touch], None]

_TOUCH: dict[str, Handler] = {
    "double": _double,
    "take": _take,
    "pass": _pass,
    "concede": _offer_end,
    "claim": _offer_end,
    "accept": _accept,
    "reject": _reject,
    "condone": _condone,
    "demand_legal_play": _demand,
    "premature_roll_stands": _premature_choice,
    "premature_roll_reroll": _premature_choice,
    "setup_play_on": _setup_choice,
    "setup_missing_to_bar": _setup_choice,
    "permit_other_half": _permission,
    "withdraw_permission": _permission,
    "claim_time": _claim_time,
    "break": _break,
    "resume": lambda ctx, player, touch: _resume(ctx),
    "call_director": _call_director,
    "dice_mix": _dice_mix,
}


def on_touch(ctx: Context, touch: Touch) -> None:
    """A player's touch, from the seat's player."""
    if ctx.game.phase == "match_over":
        return
    _TOUCH[touch.action](ctx, ctx.state.config.seat_player(touch.side), touch)


# -- the director ---------------------------------------------------------------------------------


def _int_arg(action: DirectorAction, key: str) -> int:
    value = action.arg(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key}: an integer is required, got {value!r}")
    return value


def _player_arg(action: DirectorAction, key: str) -> Player:
    value = _int_arg(action, key)
    if value not in (0, 1):
        raise ValueError(f"{key}: must be player 0 or 1, got {value}")
    return 0 if value == 0 else 1


def on_director(ctx: Context, action: DirectorAction) -> None:
    """A director's action; bad arguments become an ``invalid_action`` incident naming them."""
    try:
        _DIRECTOR[action.verb](ctx, action)
    except (ValueError, MatchError, RuleSetError, InvalidIdError) as error:
        ctx.record("invalid_action", "director", f"{action.verb}: {error}")


def _rule(ctx: Context, action: DirectorAction) -> None:
    number = _int_arg(action, "incident")
    decision = str(action.arg("decision") or "")
    if not 1 <= number <= len(ctx.state.incidents):
        raise ValueError(f"incident: no incident {number}")
    game = ctx.game
    illegal = game.illegal
    if illegal is not None and illegal.incident == number and decision in ("condone", "replay"):
        if decision == "condone":
            condone(ctx, "condoned by the director")
        else:
            replay(ctx, "the director orders a legal play")
    if game.disturbed == number:
        ctx.set_game(disturbed=None)
    if ctx.state.prompt is not None and ctx.state.prompt.incident == number:
        ctx.show(None)
    note = action.arg("note")
    ctx.record(
        "director_ruling",
        "director",
        f"incident {number}: {decision}" + (f" ({note})" if note else ""),
    )


def _set_clock(ctx: Context, action: DirectorAction) -> None:
    reserves = (_int_arg(action, "reserve0_ms"), _int_arg(action, "reserve1_ms"))
    if ctx.state.clock is None:
        raise ValueError("set_clock: the clocks are off")
    ctx.clock(lambda c: clocks.director_set(c, ctx.t_ms, reserves, "adjustment"))
    ctx.record("director_adjustment", "director", f"reserves set to {reserves} ms")


def _set_score(ctx: Context, action: DirectorAction) -> None:
    score = (_int_arg(action, "score0"), _int_arg(action, "score1"))
    length = ctx.match.length
    if min(score) < 0 or (length and max(score) >= length):
        raise ValueError(f"score: each must be 0..{length - 1}, got {score}")
    ctx.set(match=dataclasses.replace(ctx.match, score=score))
    ctx.record("director_adjustment", "director", f"score set to {score[0]}-{score[1]}")


def _set_ruleset(ctx: Context, action: DirectorAction) -> None:
    name = action.arg("name")
    overrides = tuple(
        (key.removeprefix("override."), value)
        for key, value in action.args
        if key.startswith("override.")
    )
    config = dataclasses.replace(
        ctx.state.config,
        ruleset=str(name) if name else ctx.state.config.ruleset,
        overrides=overrides,
    )
    rules = config.load_rules()
    clock = ctx.state.clock
    ctx.set(
        config=config,
        rules=rules,
        clock=None if clock is None else dataclasses.replace(clock, ruleset=rules),
    )
    ctx.record("director_adjustment", "director", f"rule set {rules.name}, overrides {overrides}")


def _set_position(ctx: Context, action: DirectorAction) -> None:
    text = str(action.arg("position_id"))
    on_roll = _player_arg(action, "on_roll")
    sides = sides_of(decode_position_id(text), on_roll)
    ctx.set_game(sides=sides, pending=None, illegal=None, disturbed=None)
    ctx.clear("ambiguous_reading", "restore_position", "illegal_move")
    where = ctx.where(sides, on_roll)
    ctx.record("director_adjustment", "director", f"position set to {text}", **where)


def _penalty(ctx: Context, action: DirectorAction) -> None:
    to = _player_arg(action, "to")
    points = _int_arg(action, "points")
    match = award_penalty(ctx.match, ctx.rules, to, points, "director", "director")
    ctx.set(match=match)
    ctx.record("director_adjustment", "director", f"{points} penalty point(s) to player {to}")
    if match.cube_frozen:
        ctx.set_game(cube=freeze(ctx.game.cube, ctx.rules))
    if match.over:
        ctx.match_over("director")


def _gin_verdict(ctx: Context, action: DirectorAction) -> None:
    value = action.arg("value")
    pending = ctx.state.gin
    if pending is None or not isinstance(value, bool):
        raise ValueError("value: a true/false verdict for a pending gin question is required")
    ctx.set(gin=None)
    ctx.record("director_ruling", "director", f"gin verdict: {value}")
    if pending.topic == "expiry":
        ctx.rule_expiry(pending.player, value)
        return
    offer = ctx.game.offer
    if offer is None:
        return
    if pending.topic == "rejection":
        offer = dataclasses.replace(offer, certain=value)
        ctx.set_game(offer=offer)
        _apply_rejection(ctx, offer, pending.player, rule_on_rejection(ctx.rules, certain=value))
        return
    game = ctx.game
    on_roll: Player = game.turn if game.turn is not None else 0
    contact = position_of(game.sides, on_roll).has_contact()
    ruling = rule_on_concession(ctx.rules, contact=contact, claims_win=offer.claim, certain=value)
    offer = dataclasses.replace(offer, certain=value, must_accept=ruling.must_accept)
    if ruling.outcome != "allowed":
        ctx.record("concession_refused", ruling.rule, ruling.detail, player=offer.by)
        ctx.set_game(offer=None)
        _resume(ctx)
        return
    ctx.set_game(offer=offer)
    _show_offer(ctx, offer)


_DIRECTOR: dict[str, Callable[[Context, DirectorAction], None]] = {
    "rule": _rule,
    "set_clock": _set_clock,
    "set_score": _set_score,
    "set_ruleset": _set_ruleset,
    "set_position": _set_position,
    "penalty": _penalty,
    "gin_verdict": _gin_verdict,
    "resume": lambda ctx, action: _resume(ctx),
}
