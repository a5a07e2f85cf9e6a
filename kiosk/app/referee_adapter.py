"""The referee's views as the screens' snapshot dicts, and the screens' actions as referee events.

``kiosk.referee.view`` numbers players 0/1; the screen numbers sides 0 (left seat) / 1 (right
seat): :class:`Seating` converts. Positions in the referee's prompts (gnubg Position IDs from
the view of the player on roll) are drawn as image-relative boards with the table's
:class:`~kiosk.referee.config.RefereeConfig`. Pure: no Kivy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast

from kiosk.app.actions import DirectorAction, DirectorActionKind, PlayerAction
from kiosk.app.prompts import PLAYER_PARAMS
from kiosk.match.players import Player, opponent
from kiosk.referee.board import Sides, image_points, sides_of
from kiosk.referee.codec import reading_to_json
from kiosk.referee.config import RefereeConfig
from kiosk.referee.events import DieSeen, Seat, Touch
from kiosk.referee.events import DirectorAction as RefereeDirectorAction
from kiosk.referee.explain import movements
from kiosk.referee.incidents import Incident, Prompt
from kiosk.referee.view import DirectorView, PlayersView
from kiosk.rules import BAR, OFF, InvalidIdError, decode_position_id

Json = dict[str, object]
ScreenSide = Literal[0, 1]
SEATS: tuple[Seat, Seat] = ("left", "right")
PAUSES = {"director_called": "director", "break": "break", "dice_mix": "dice_mix"}
RULING_PROMPTS = frozenset({"concession_offered", "concession_ruling", "expiry_ruling"})


@dataclass(frozen=True)
class Seating:
    """Which screen side each player sits at, their names, and the table's configuration."""

    config: RefereeConfig
    names: tuple[str, str]  # player 0's, player 1's

    def side(self, player: Player) -> ScreenSide:
        """The screen side of ``player``."""
        return 0 if self.config.player_seat(player) == "left" else 1

    def player(self, side: ScreenSide) -> Player:
        """The player at screen side ``side``."""
        return self.config.seat_player(SEATS[side])

    def maybe_side(self, player: Player | None) -> ScreenSide | None:
        """The screen side of ``player``, None for None."""
        return None if player is None else self.side(player)

    def by_side(self, values: tuple[int, int]) -> list[int]:
        """Per-player ``values`` reordered per screen side."""
        return [values[self.player(0)], values[self.player(1)]]


def table_snapshot(
    view: PlayersView,
    seating: Seating,
    *,
    allowance_ms: int,
    dice: Sequence[DieSeen] | None = None,
) -> Json:
    """The players' view as the table snapshot dict (kiosk.app.snapshot). ``allowance_ms``: the
    rule set's per-move delay; ``dice``: the last dice reading (zones), if the caller has it."""
    clock: Json
    if view.clocks is None:
        clock = {
            "enabled": False,
            "allowance_ms": allowance_ms,
            "allowance_left_ms": 0,
            "reserves_ms": [0, 0],
            "running": None,
            "flag": None,
        }
    else:
        clock = {
            "enabled": True,
            "allowance_ms": allowance_ms,
            "allowance_left_ms": view.clocks.allowance_left_ms,
            "reserves_ms": seating.by_side(view.clocks.reserves_ms),
            "running": seating.maybe_side(view.clocks.running),
            "flag": seating.maybe_side(view.clocks.flag),
        }
    return {
        "players": [
            {"name": seating.names[p], "color": view.colours[p]}
            for p in (seating.player(0), seating.player(1))
        ],
        "clock": clock,
        "match": {
            "length": view.match_length,
            "score": seating.by_side(view.score),
            "crawford": view.crawford,
            "post_crawford": view.post_crawford,
            "ruleset": view.ruleset,
        },
        "cube": {
            "value": view.cube_value,
            "owner": seating.maybe_side(view.cube_owner),
            "available": view.cube_in_play,
        },
        "turn": seating.maybe_side(view.turn),
        "dice": _dice(view, dice),
        "board": _seen_board(view, seating.config),
        "prompt": _prompt(view, seating),
    }


def _dice(view: PlayersView, seen: Sequence[DieSeen] | None) -> list[Json]:
    if seen is not None:
        return [{"value": d.value, "cocked": d.cocked, "zone": d.zone} for d in seen]
    return [{"value": v, "cocked": view.dice_cocked, "zone": "right-half"} for v in view.dice]


def _seen_board(view: PlayersView, config: RefereeConfig) -> Json:
    """The board as the camera last read it, else the board the referee follows."""
    if view.reading is not None:
        return reading_to_json(view.reading)
    return _tracked_board(view.board, view.bar, view.off, config)


def _tracked_board(
    counts: Sequence[tuple[int, int]],
    bar: tuple[int, int],
    off: tuple[int, int],
    config: RefereeConfig,
) -> Json:
    colours = (config.player_colour(0), config.player_colour(1))
    points = []
    for number, (first, second) in enumerate(counts, start=1):
        owner = 0 if first else 1 if second else None
        points.append(
            {
                "point": number,
                "color": None if owner is None else colours[owner],
                "count": first + second,
            }
        )
    return {
        "points": points,
        "bar": {colours[0]: bar[0], colours[1]: bar[1]},
        "off": {colours[0]: off[0], colours[1]: off[1]},
    }


def _sides(position_id: str | None, on_roll: Player | None) -> Sides | None:
    if position_id is None or on_roll is None:
        return None
    try:
        return sides_of(decode_position_id(position_id), on_roll)
    except InvalidIdError:
        return None


def _sides_board(sides: Sides, config: RefereeConfig) -> Json:
    return _tracked_board(
        image_points(sides, config),
        (sides[0][BAR], sides[1][BAR]),
        (sides[0][OFF], sides[1][OFF]),
        config,
    )


def _image_moves(
    before: Sides, after: Sides, mover: Player, config: RefereeConfig
) -> list[list[object]]:
    """The mover's checker movements as [from, to] image points, "bar" or "off"."""
    image_of = {config.own_point(mover, image): image for image in range(1, 25)}

    def name(slot: int) -> object:
        return "bar" if slot == BAR else "off" if slot == OFF else image_of[slot]

    return [[name(a), name(b)] for a, b in movements(before[mover], after[mover])]


PLAYER_WORD = re.compile(r"\b[Pp]layer ([01])\b")


def named(text: str, names: tuple[str, str]) -> str:
    """The referee's sentence with "player 0"/"player 1" replaced by the players' names."""
    return PLAYER_WORD.sub(lambda m: names[int(m.group(1))], text)


def _screen_params(prompt: Prompt, seating: Seating) -> Json:
    """The prompt's params for the screen, its players as screen sides."""
    params: Json = dict(prompt.params)
    for key in PLAYER_PARAMS:
        player = prompt.param(key)
        if player in (0, 1):
            params[key] = seating.side(cast(Player, player))
    return params


def _prompt(view: PlayersView, seating: Seating) -> Json:
    prompt = view.prompt
    if prompt is None:
        return {"kind": "none"}
    config = seating.config
    base: Json = {
        "text": named(prompt.text, seating.names),
        "to": seating.maybe_side(prompt.to),
        "choices": list(prompt.choices),
    }
    seen = _sides(prompt.seen_position_id, prompt.on_roll)
    correct = _sides(prompt.correct_position_id, prompt.on_roll)
    kind = prompt.kind
    if kind == "illegal_move" and prompt.on_roll is not None:
        data: Json = {**base, "kind": "illegal_move", "side": seating.side(prompt.on_roll)}
        reason, number = prompt.param("reason"), prompt.param("number")
        if reason is not None:
            data["reason"] = {"code": reason, **({} if number is None else {"die": number})}
        if all(isinstance(v, int) for v in view.dice) and len(view.dice) == 2:
            data["dice"] = list(view.dice)
        if seen is not None:
            data["board"] = _sides_board(seen, config)
            if correct is not None:
                data["moves"] = _image_moves(correct, seen, prompt.on_roll, config)
        return data
    if kind == "setup_error" and seen is not None and correct is not None:
        return {
            **base,
            "kind": "setup_error",
            "board": _sides_board(seen, config),
            "expected": _sides_board(correct, config),
        }
    if kind == "dice_unreadable":
        return {
            **base,
            "kind": "invalid_dice",
            "side": seating.maybe_side(prompt.to),
            "reason": "unreadable",
        }
    if kind == "double_offered" and prompt.to is not None:
        value = view.cube_offered or view.cube_value * 2
        return {
            **base,
            "kind": "cube_offered",
            "side": seating.side(opponent(prompt.to)),
            "value": value,
        }
    if kind in PAUSES:
        return {**base, "kind": "paused", "reason": PAUSES[kind]}
    notice: Json = {
        **base,
        "kind": "notice",
        "subject": kind,
        "params": _screen_params(prompt, seating),
    }
    if kind in RULING_PROMPTS:
        notice.update({"ruling": True, "verdict": prompt.verdict})
    return notice


def director_snapshot(view: DirectorView, seating: Seating, *, delay_s: int) -> Json:
    """The director's view as the director snapshot dict (kiosk.app.director)."""
    table = view.table
    return {
        "incidents": [_incident(incident, seating) for incident in view.incidents],
        "settings": {
            "ruleset": table.ruleset,
            "match_length": table.match_length,
            "clock": table.clocks is not None,
            "delay_s": delay_s,
            "announce": seating.config.policy == "announce",
        },
    }


def _incident(incident: Incident, seating: Seating) -> Json:
    seen = _sides(incident.seen_position_id, incident.on_roll)
    return {
        "id": incident.id,
        "kind": incident.kind,
        "rule": incident.rule,
        "t_ms": incident.t_ms,
        "side": seating.maybe_side(incident.player),
        "dice": None if incident.dice is None else list(incident.dice),
        "play_seen": incident.play_seen,
        "legal_plays": list(incident.legal_plays),
        "position_id": incident.position_id,
        "snapshot": incident.snapshot,
        "board": None if seen is None else _sides_board(seen, seating.config),
        "ruling": None,
    }


def touch_event(action: PlayerAction, t_ms: int) -> Touch:
    """The referee's Touch for a player's action (the side is a screen side = a seat)."""
    if action.side is None:
        raise ValueError(f"{action.kind.value}: no player side to send it for")
    args = () if action.level is None else (("kind", action.level),)
    return Touch(action.kind.value, SEATS[action.side], t_ms, args)


def director_event(
    action: DirectorAction, view: DirectorView, seating: Seating, t_ms: int
) -> RefereeDirectorAction | None:
    """The referee's DirectorAction for a director's touch; None for EXPORT_MAT (the store's)."""
    kind = action.kind
    if kind is DirectorActionKind.EXPORT_MAT:
        return None
    if kind is DirectorActionKind.RESUME:
        return RefereeDirectorAction("resume", t_ms)
    if kind is DirectorActionKind.SET_RULESET:
        return RefereeDirectorAction("set_ruleset", t_ms, (("name", action.name),))
    if kind is DirectorActionKind.RULE:
        return RefereeDirectorAction(
            "rule", t_ms, (("incident", action.incident_id), ("decision", action.ruling))
        )
    if action.side is None:
        raise ValueError(f"{kind.value}: no player side")
    player = seating.player(action.side)
    if kind is DirectorActionKind.ADJUST_SCORE:
        score = list(view.table.score)
        score[player] = max(0, score[player] + action.delta)
        return RefereeDirectorAction(
            "set_score", t_ms, (("score0", score[0]), ("score1", score[1]))
        )
    if view.table.clocks is None:
        raise ValueError("adjust_clock: the clocks are off")
    reserves = list(view.table.clocks.reserves_ms)
    reserves[player] = max(0, reserves[player] + action.delta)
    return RefereeDirectorAction(
        "set_clock", t_ms, (("reserve0_ms", reserves[0]), ("reserve1_ms", reserves[1]))
    )
