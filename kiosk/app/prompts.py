"""Prompts the players' screen shows over the table view, parsed from the snapshot's ``prompt``.

Every prompt is ``{"kind": KIND, ...}``; ``side`` is a screen side (0 left, 1 right)::

    {"kind": "none"}
    {"kind": "illegal_move", "side": 0, "dice": [5, 2], "play_seen": "13/7 6/4",
     "reason": {"code": "wrong_number", "die": 6},
     "board": {...board seen after the play...},
     "moves": [[13, 7], [6, 4]]}          # image-relative points, "bar" or "off"
    {"kind": "setup_error", "board": {...seen...}, "expected": {...correct setup...},
     "rule": "MSO 4.7"}
    {"kind": "invalid_dice", "side": 1, "reason": "cocked"}
                         # | wrong_side | off_board | unreadable | invalid
    {"kind": "cube_offered", "side": 0, "value": 2}          # the opponent takes or passes
    {"kind": "paused", "reason": "director"}                 # | break | dice_mix | dispute
    {"kind": "ruling", "topic": "time_expiry", "side": 0, "decision": "penalty_point",
     "points": 1, "gin": {"win": "certain", "gammon": "possible", "backgammon": "impossible"}}
    {"kind": "ruling", "topic": "concession", "side": 1, "decision": "refused", "level": "single"}
    {"kind": "notice", "subject": "concession_offered", "to": 0,
     "params": {"player": 1, "kind": "gammon", "claim": false},
     "text": "Ben concedes a gammon", "choices": ["accept", "reject"]}

A ``notice`` is any other referee prompt: ``subject`` is the referee's prompt kind
(kiosk.referee.incidents.PromptKind) and ``params`` its facts as values, from which the screen
writes the sentence in its language (kiosk.app.texts.NOTICE_TEXTS); ``player`` and ``loser`` in
``params`` are screen sides. Its ``text`` (the referee's English) is shown only when the screen
has no sentence for the subject.

Every kind may also carry ``text`` (a sentence already written, shown as it is: for an
``illegal_move`` it stands for ``reason``, for a ``ruling`` for ``decision``), ``to`` (the screen
side who must answer) and ``choices`` (the touch actions offered, values of
:class:`~kiosk.app.actions.ActionKind`): then the buttons are exactly those, for ``to``.
Without ``choices`` an ``illegal_move`` offers condone / demand a legal play and a
``cube_offered`` take / pass, both to the opponent of ``side`` (MSO 4.8, JBL 4.2.3).

Illegal-move reasons (``reason.code``) are the referee's (kiosk.referee.explain.ReasonCode);
``wrong_number`` needs ``die``, the pips of the checker moved.
A gin verdict (``gin``, ``verdict`` as a sentence, or a notice's ``params.verdict`` code) is read
only in a ``ruling``, and in a ``notice`` marked ``"ruling": true``: the one moment the table may
see it (MSO 1.5, JBL 1.9). Anywhere else it is dropped, never shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, cast, get_args

from kiosk.app.actions import ActionKind
from kiosk.app.boardview import BoardView, parse_board
from kiosk.app.errors import SnapshotError
from kiosk.app.values import (
    as_int,
    get_int,
    get_int_list,
    get_map,
    get_optional_str,
    get_seq,
    get_side,
    get_str,
)
from kiosk.referee.explain import ReasonCode

PromptKind = Literal[
    "none",
    "illegal_move",
    "setup_error",
    "invalid_dice",
    "cube_offered",
    "paused",
    "ruling",
    "notice",
]
PROMPT_KINDS: tuple[PromptKind, ...] = get_args(PromptKind)
ILLEGAL_REASONS: tuple[str, ...] = get_args(ReasonCode)
DICE_PROBLEMS: tuple[str, ...] = ("cocked", "wrong_side", "off_board", "unreadable", "invalid")
PAUSE_REASONS: tuple[str, ...] = ("director", "break", "dice_mix", "dispute")
RULING_TOPICS: tuple[str, ...] = ("time_expiry", "concession")
RULING_DECISIONS: tuple[str, ...] = (
    "penalty_point",
    "loses_game",
    "loses_match",
    "no_penalty",
    "accepted",
    "refused",
)
GIN_KEYS: tuple[str, ...] = ("win", "gammon", "backgammon")
GIN_VALUES: tuple[str, ...] = ("certain", "possible", "impossible")
LEVELS: tuple[str, ...] = ("", "single", "gammon", "backgammon")
MovePoint = int | Literal["bar", "off"]
Side = Literal[0, 1]
Param = str | int | bool | None
PLAYER_PARAMS: tuple[str, ...] = ("player", "loser")  # screen sides in a notice's params


@dataclass(frozen=True)
class Prompt:
    """A parsed prompt: ``kind`` and ``side`` plus the fields its kind uses (see module doc)."""

    kind: PromptKind = "none"
    side: Side | None = None
    dice: tuple[int, ...] = ()
    play_seen: str = ""
    reason: str = ""
    details: Mapping[str, int] = field(default_factory=dict)
    board: BoardView | None = None
    expected: BoardView | None = None
    moves: tuple[tuple[MovePoint, MovePoint], ...] = ()
    rule: str = ""
    value: int = 0
    topic: str = ""
    decision: str = ""
    level: str = ""
    gin: Mapping[str, str] = field(default_factory=dict)
    text: str = ""
    verdict: str = ""
    to: Side | None = None
    choices: tuple[ActionKind, ...] = ()
    subject: str = ""
    params: Mapping[str, Param] = field(default_factory=dict)


NO_PROMPT = Prompt()


def parse_prompt(data: Mapping[str, object], where: str) -> Prompt:
    """The prompt in ``data``; SnapshotError names the bad field."""
    kind = cast(PromptKind, get_str(data, "kind", f"{where}.kind", choices=PROMPT_KINDS))
    if kind == "none":
        return NO_PROMPT
    common = Prompt(
        kind=kind,
        side=get_side(data, "side", f"{where}.side"),
        text=get_optional_str(data, "text", f"{where}.text") or "",
        to=get_side(data, "to", f"{where}.to"),
        choices=_choices(data, where),
    )
    if kind == "illegal_move":
        return _illegal_move(common, data, where)
    if kind == "setup_error":
        return replace(
            common,
            board=parse_board(get_map(data, "board", f"{where}.board"), f"{where}.board"),
            expected=parse_board(
                get_map(data, "expected", f"{where}.expected"), f"{where}.expected"
            ),
            rule=get_optional_str(data, "rule", f"{where}.rule") or "",
        )
    if kind == "invalid_dice":
        reason = get_str(data, "reason", f"{where}.reason", choices=DICE_PROBLEMS)
        return replace(common, reason=reason)
    if kind == "cube_offered":
        _require_side(common, where)
        return replace(common, value=get_int(data, "value", f"{where}.value", low=2))
    if kind == "paused":
        reason = get_str(data, "reason", f"{where}.reason", choices=PAUSE_REASONS)
        return replace(common, reason=reason)
    if kind == "ruling":
        return _ruling(common, data, where)
    return _notice(common, data, where)


def _notice(common: Prompt, data: Mapping[str, object], where: str) -> Prompt:
    """A notice: its subject and params; the verdict code kept only in a ruling."""
    notice = replace(
        common,
        subject=get_optional_str(data, "subject", f"{where}.subject") or "",
        params=_params(data, where),
    )
    if not notice.text and not notice.subject:
        raise SnapshotError(f"{where}.text: missing for a notice without a subject")
    if data.get("ruling") is True:
        return _with_verdicts(notice, data, where)
    return replace(notice, params={k: v for k, v in notice.params.items() if k != "verdict"})


def _params(data: Mapping[str, object], where: str) -> dict[str, Param]:
    """A notice's ``params``: scalars, the players among them screen sides."""
    if data.get("params") is None:
        return {}
    params = get_map(data, "params", f"{where}.params")
    for key, value in params.items():
        if value is not None and not isinstance(value, str | int | bool):
            raise SnapshotError(f"{where}.params.{key}: expected a string, number or boolean")
        if key in PLAYER_PARAMS:
            get_side(params, key, f"{where}.params.{key}")
    return {key: cast(Param, value) for key, value in params.items()}


def _require_side(prompt: Prompt, where: str) -> None:
    if prompt.side is None:
        raise SnapshotError(f"{where}.side: missing")


def _choices(data: Mapping[str, object], where: str) -> tuple[ActionKind, ...]:
    if data.get("choices") is None:
        return ()
    values = {kind.value for kind in ActionKind}
    choices = []
    for i, item in enumerate(get_seq(data, "choices", f"{where}.choices")):
        if item not in values:
            raise SnapshotError(f"{where}.choices[{i}]: unknown action {item!r}")
        choices.append(ActionKind(item))
    return tuple(choices)


def _illegal_move(common: Prompt, data: Mapping[str, object], where: str) -> Prompt:
    _require_side(common, where)
    dice = (
        ()
        if data.get("dice") is None
        else get_int_list(data, "dice", f"{where}.dice", low=1, high=6, length=2)
    )
    code, details = "", {}
    if data.get("reason") is not None or not common.text:
        reason = get_map(data, "reason", f"{where}.reason")
        code = get_str(reason, "code", f"{where}.reason.code", choices=ILLEGAL_REASONS)
        details = {
            key: as_int(value, f"{where}.reason.{key}", low=0, high=25)
            for key, value in reason.items()
            if key != "code"
        }
        if code == "wrong_number" and "die" not in details:
            raise SnapshotError(f"{where}.reason.die: missing for {code}")
        if not dice:
            raise SnapshotError(f"{where}.dice: missing for reason {code}")
    board = data.get("board")
    seen = () if data.get("moves") is None else get_seq(data, "moves", f"{where}.moves")
    moves = tuple(
        (_move_point(m, f"{where}.moves[{i}]", 0), _move_point(m, f"{where}.moves[{i}]", 1))
        for i, m in enumerate(seen)
    )
    return replace(
        common,
        dice=dice,
        play_seen=get_optional_str(data, "play_seen", f"{where}.play_seen") or "",
        reason=code,
        details=details,
        board=None
        if board is None
        else parse_board(get_map(data, "board", f"{where}.board"), f"{where}.board"),
        moves=moves,
    )


def _move_point(move: object, where: str, index: int) -> MovePoint:
    if isinstance(move, str | bytes) or not isinstance(move, list | tuple) or len(move) != 2:
        raise SnapshotError(f"{where}: expected [from, to]")
    value: object = move[index]
    if value == "bar":
        return "bar"
    if value == "off":
        return "off"
    return as_int(value, f"{where}[{index}]", low=1, high=24)


def _with_verdicts(prompt: Prompt, data: Mapping[str, object], where: str) -> Prompt:
    gin_data = data.get("gin") or {}
    if not isinstance(gin_data, Mapping):
        raise SnapshotError(f"{where}.gin: expected an object")
    gin = {
        key: get_str(gin_data, key, f"{where}.gin.{key}", choices=GIN_VALUES)
        for key in GIN_KEYS
        if key in gin_data
    }
    verdict = get_optional_str(data, "verdict", f"{where}.verdict") or ""
    return replace(prompt, gin=gin, verdict=verdict)


def _ruling(common: Prompt, data: Mapping[str, object], where: str) -> Prompt:
    _require_side(common, where)
    level = data.get("level", "")
    if level not in LEVELS:
        raise SnapshotError(f"{where}.level: expected single, gammon or backgammon")
    decision = ""
    if data.get("decision") is not None or not common.text:
        decision = get_str(data, "decision", f"{where}.decision", choices=RULING_DECISIONS)
    points = data.get("points")
    ruling = replace(
        common,
        topic=get_str(data, "topic", f"{where}.topic", choices=RULING_TOPICS),
        decision=decision,
        value=0 if points is None else as_int(points, f"{where}.points", low=0),
        level=level,
    )
    return _with_verdicts(ruling, data, where)
