"""``gammon-kiosk plays POSITION D1 D2 [--json]``: every legal play, one per resulting position."""

from __future__ import annotations

import argparse
import json

NAME = "plays"
HELP = "list every legal play of a roll (deduplicated by resulting position)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position", help="GNU Backgammon Position ID (or XGID) of the player on roll"
    )
    parser.add_argument("die1", help="first die, 1-6")
    parser.add_argument("die2", help="second die, 1-6")
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def run(args: argparse.Namespace) -> int:
    from kiosk.cli import CliError
    from kiosk.cli.positions import parse_dice, parse_position
    from kiosk.rules.ids import position_id
    from kiosk.rules.movegen import legal_results
    from kiosk.rules.notation import format_play
    from kiosk.rules.position import Position

    try:
        position = parse_position(args.position)
    except ValueError as error:
        raise CliError(f"position: {error}") from None
    try:
        dice = parse_dice(args.die1, args.die2)
    except ValueError as error:
        raise CliError(f"dice: {error}") from None
    results = legal_results(position, dice)
    plays = [
        (format_play(play), position_id(Position(opponent, mover)))
        for (mover, opponent), play in results.items()
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "position": position_id(position),
                    "dice": [dice.first, dice.second],
                    "plays": [{"play": text, "after": after} for text, after in plays],
                }
            )
        )
    else:
        for text, _ in plays:
            print(text or "(no legal move)")
    return 0
