"""``gammon-kiosk replay MATCH.mat [--ruleset NAME] [--json]``: replay a match record through the
rules and list every irregularity (DESIGN.md section 4). Exit 0 whenever the file was read.

The JSON's flags carry a ``line`` (the file line) besides ``game``, ``move``, ``kind`` and
``detail``. ``--set cube.jacoby=true`` replays a GNU Backgammon money session, whose default is
the Jacoby rule."""

from __future__ import annotations

import argparse
import json

NAME = "replay"
HELP = "replay a Jellyfish/GNU .mat match record through the rules and flag irregularities"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("match_file", metavar="MATCH.mat", help="the match record")
    parser.add_argument(
        "--ruleset",
        help="rule set (mso, biba, ga, jbl, money); default mso, or money for a 0-point session",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="director's override of a rule-set value, e.g. cube.jacoby=true (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def parse_override(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` with VALUE a JSON literal (true, 64, "text") or else plain text."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"expected KEY=VALUE, got {text!r}")
    try:
        parsed: object = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key.strip(), parsed


def run(args: argparse.Namespace) -> int:
    from kiosk.cli import CliError
    from kiosk.matfile import MatFormatError, parse_mat, replay, replay_json
    from kiosk.rulesets import RuleSetError, load_ruleset, with_overrides

    path = args.match_file
    try:
        with open(path, encoding="utf-8-sig", errors="strict") as handle:
            text = handle.read()
    except OSError as error:
        raise CliError(f"MATCH.mat: cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise CliError(f"MATCH.mat: {path} is not UTF-8 text ({error.reason})") from None
    try:
        record = parse_mat(text, path)
    except MatFormatError as error:
        raise CliError(str(error)) from None
    default = "money" if record.match_length == 0 else "mso"
    try:
        rules = load_ruleset(args.ruleset or default)
    except RuleSetError as error:
        raise CliError(f"--ruleset: {error}") from None
    try:
        rules = with_overrides(rules, dict(parse_override(item) for item in args.set))
    except (ValueError, RuleSetError) as error:
        raise CliError(f"--set: {error}") from None
    result = replay(record, rules)
    if args.json:
        print(json.dumps(replay_json(result)))
        return 0
    length = f"{result.match_length} point match" if result.match_length else "money session"
    print(f"{result.players[0]} vs {result.players[1]}, {length}, rules {rules.name}")
    for game in result.games:
        crawford = " (Crawford)" if game.crawford else ""
        outcome = (
            f"player {game.winner} ({result.players[game.winner]}) wins {game.points}"
            if game.winner is not None
            else "not decided"
        )
        print(
            f"game {game.number} at {game.score[0]}-{game.score[1]}{crawford}: "
            f"{len(game.decisions)} decisions, {outcome}"
        )
    print(f"final score {result.final_score[0]}-{result.final_score[1]}")
    for flag in result.flags:
        where = f"game {flag.game}" + (f" move {flag.move}" if flag.move is not None else "")
        print(f"{path}:{flag.line}: {where}: {flag.kind}: {flag.detail}")
    print(f"{len(result.flags)} irregularit{'y' if len(result.flags) == 1 else 'ies'} flagged")
    return 0
