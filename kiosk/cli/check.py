"""``gammon-kiosk check --jsonl``: legality verdicts for a stream of JSON lines.

Each input line ``{"id", "position", "dice": [d1, d2], "after"}`` gives one output line, in input
order: ``{"id", "legal": true, "play"}``, ``{"id", "legal": false, "closest": [...]}`` or
``{"id", "error": "<field>: <what is wrong>"}``. ``after`` is the Position ID of the board after
the play with the opponent on roll. Lines are read and answered one at a time, so memory stays
constant however long the stream; blank lines are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

NAME = "check"
HELP = "judge plays read as JSON lines on stdin: legal, or the closest legal plays"


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


def check_record(record: object) -> dict[str, Any]:
    """The output object for one decoded input line."""
    from kiosk.cli.positions import parse_dice, parse_position
    from kiosk.rules.notation import format_play
    from kiosk.rules.verdict import closest_plays, find_play

    if not isinstance(record, dict):
        return {"id": None, "error": "line: expected a JSON object"}
    answer: dict[str, Any] = {"id": record.get("id")}
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


def check_stream(lines: TextIO, out: TextIO) -> int:
    """Answer every line of ``lines`` on ``out``; returns the number of lines answered."""
    dumps = json.dumps
    loads = json.loads
    write = out.write
    answered = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            record = loads(line)
        except ValueError as error:
            answer: dict[str, Any] = {"id": None, "error": f"json: {error}"}
        else:
            answer = check_record(record)
        write(dumps(answer, ensure_ascii=False))
        write("\n")
        answered += 1
    out.flush()
    return answered


def run(args: argparse.Namespace) -> int:
    check_stream(sys.stdin, sys.stdout)
    return 0
