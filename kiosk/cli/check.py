"""``gammon-kiosk check --jsonl``: legality verdicts for a stream of JSON lines.

Each input line ``{"id", "position", "dice": [d1, d2], "after"}`` gives one output line, in input
order: ``{"id", "legal": true, "play"}``, ``{"id", "legal": false, "closest": [...]}`` or
``{"id", "error": "<field>: <what is wrong>"}``. ``after`` is the Position ID of the board after
the play with the opponent on roll. Lines are read and answered one at a time, so memory stays
constant however long the stream; blank lines are skipped.

Verdicts come from the C accelerator (:mod:`kiosk.rules.fast`) where it is built, and from the
pure-Python rules core otherwise and for every line it leaves undecided (XGIDs, errors, JSON that
is not in the plain form); both give the same answers (tests/rules_speedups/).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from kiosk.rules.fast import Speedups

NAME = "check"
HELP = "judge plays read as JSON lines on stdin: legal, or the closest legal plays"

Answer = dict[str, Any]
"""One output object: ``id`` and either ``legal`` with ``play`` or ``closest``, or ``error``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jsonl",
        action="store_true",
        required=True,
        help="read JSON lines on stdin and write one JSON line per input line",
    )


class _FieldError(ValueError):
    """A bad field of one input line: reported as ``"<field>: <message>"``."""


def _field(record: dict[str, Any], name: str) -> Any:
    if name not in record:
        raise _FieldError(f"{name}: missing")
    return record[name]


def check_record_pure(record: object) -> Answer:
    """The output object for one decoded input line, from the pure-Python rules core."""
    from kiosk.cli.positions import parse_dice, parse_position
    from kiosk.rules.notation import format_play
    from kiosk.rules.verdict import closest_plays, find_play

    if not isinstance(record, dict):
        return {"id": None, "error": "line: expected a JSON object"}
    answer: Answer = {"id": record.get("id")}
    try:
        try:
            before = parse_position(_field(record, "position"))
        except _FieldError:
            raise
        except ValueError as error:
            raise _FieldError(f"position: {error}") from None
        dice_field = _field(record, "dice")
        if not isinstance(dice_field, list) or len(dice_field) != 2:
            raise _FieldError(f"dice: expected two integers 1-6, got {dice_field!r}")
        try:
            dice = parse_dice(dice_field[0], dice_field[1])
        except ValueError as error:
            raise _FieldError(f"dice: {error}") from None
        try:
            after = parse_position(_field(record, "after")).swapped()
        except _FieldError:
            raise
        except ValueError as error:
            raise _FieldError(f"after: {error}") from None
    except _FieldError as error:
        answer["error"] = str(error)
        return answer
    play = find_play(before, dice, after)
    if play is not None:
        answer["legal"] = True
        answer["play"] = format_play(play)
    else:
        answer["legal"] = False
        answer["closest"] = [format_play(p) for p in closest_plays(before, dice, after)]
    return answer


@functools.cache
def _speedups() -> Speedups | None:
    """The C accelerator, loaded once per process; None where it is not built or not allowed."""
    from kiosk.rules.fast import load_speedups

    return load_speedups()


def check_record(record: object) -> Answer:
    """The output object for one decoded input line."""
    speedups = _speedups()
    if speedups is not None and isinstance(record, dict):
        dice = record.get("dice")
        if type(dice) is list and len(dice) == 2:
            verdict = speedups.check(record.get("position"), dice[0], dice[1], record.get("after"))
            if isinstance(verdict, str):
                return {"id": record.get("id"), "legal": True, "play": verdict}
            if verdict is not None:
                return {"id": record.get("id"), "legal": False, "closest": verdict}
    return check_record_pure(record)


def check_stream(lines: TextIO, out: TextIO, *, accelerated: bool = True) -> int:
    """Answer every line of ``lines`` on ``out``; returns the number of lines answered.

    ``accelerated=False`` answers with the pure-Python code alone, even where the C accelerator
    is built.
    """
    speedups = _speedups() if accelerated else None
    check_line = None if speedups is None else speedups.check_line
    check = check_record_pure if speedups is None else check_record
    loads = json.loads
    encode = json.JSONEncoder(ensure_ascii=False).encode
    write = out.write
    answered = 0
    for line in lines:
        if check_line is not None:
            # Lines in the plain form are answered whole in C; the others through json below.
            text = check_line(line)
            if text is not None:
                write(text)
                answered += 1
                continue
        if not line or line.isspace():
            continue
        try:
            record = loads(line)
        except ValueError as error:
            answer: Answer = {"id": None, "error": f"json: {error}"}
        else:
            answer = check(record)
        write(encode(answer) + "\n")
        answered += 1
    out.flush()
    return answered


def run(args: argparse.Namespace) -> int:
    check_stream(sys.stdin, sys.stdout)
    return 0
