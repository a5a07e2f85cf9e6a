"""``gammon-kiosk clock-allowance --ruleset NAME --length L [--score A B] [--minutes M] [--json]``.

Prints the per-move allowance (simple delay) and each player's reserve for a new match, or for a
match under way at score A-B (BIBA "Time Allowances", GA "Time Control", JBL 3.4.5). MSO leaves
the minutes to the director's timetable (MSO-clock 2.1): give them with ``--minutes``.
JSON: ``{"ruleset", "delay_s", "reserve_s", "rule"}`` (seconds; reserve per player).
"""

from __future__ import annotations

import argparse
import json

NAME = "clock-allowance"
HELP = "per-move allowance and reserve per player for a match under a rule set"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", required=True, help="mso, biba, ga, jbl or money")
    parser.add_argument("--length", required=True, type=int, help="match length in points")
    parser.add_argument(
        "--score",
        nargs=2,
        type=int,
        metavar=("A", "B"),
        default=(0, 0),
        help="score of a match under way (default: a new match, 0 0)",
    )
    parser.add_argument(
        "--minutes", type=int, help="the director's reserve in minutes (required for MSO)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def run(args: argparse.Namespace) -> int:
    from kiosk.cli import CliError
    from kiosk.clock import ReserveError, initial_reserve_ms
    from kiosk.rulesets import RuleSetError, load_ruleset

    try:
        rules = load_ruleset(args.ruleset)
    except RuleSetError as error:
        raise CliError(f"ruleset: {error}") from None
    score = (args.score[0], args.score[1])
    try:
        reserve_ms = initial_reserve_ms(rules, args.length, score, args.minutes)
    except ReserveError as error:
        raise CliError(f"--{error}") from None  # messages start with the option's name
    under_way = sum(score) > 0
    if args.minutes is not None:
        rule = "director's minutes"
    else:
        rule = rules.rule("clock.under_way.formula" if under_way else "clock.new_match.formula")
    delay_s = rules.clock.delay_s
    reserve_s = reserve_ms // 1000
    if args.json:
        print(
            json.dumps(
                {"ruleset": rules.name, "delay_s": delay_s, "reserve_s": reserve_s, "rule": rule}
            )
        )
    else:
        minutes, seconds = divmod(reserve_s, 60)
        print(
            f"{rules.name}: {delay_s} s per move, then a reserve of {minutes}:{seconds:02d} "
            f"per player ({rule})"
        )
    return 0
