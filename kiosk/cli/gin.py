"""``gammon-kiosk gin POSITION [--match-id ID] [--json]``: is the outcome of a no-contact position
certain, possible or impossible for the player on roll, and does it decide the match?

POSITION is a GNU Backgammon Position ID (player on roll's view) or an XGID. The match-level
verdict needs the score and cube: from ``--match-id``, else from the XGID's fields (player 0 is
the XGID's bottom player). The bear-off tables are built on first use (about 15 s) and cached.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

NAME = "gin"
HELP = "decide whether a no-contact position's outcome (and the match) is certain"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position", help="GNU Backgammon Position ID (or XGID) of the player on roll"
    )
    parser.add_argument("--match-id", help="GNU Backgammon Match ID: score, cube, match length")
    parser.add_argument(
        "--ruleset",
        default="biba",
        help="rule set deciding whether gammons count for a match gin (default biba)",
    )
    parser.add_argument(
        "--tables", type=Path, help="directory of the cached bear-off tables (default: user cache)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def run(args: argparse.Namespace) -> int:
    from kiosk.cli import CliError
    from kiosk.gin import gin, load_tables, match_gin
    from kiosk.rules import (
        GameState,
        MatchInfo,
        Position,
        decode_match_id,
        decode_position_id,
        match_id,
        parse_xgid,
        position_id,
    )
    from kiosk.rulesets import RuleSetError, load_ruleset

    text = args.position.strip()
    info: MatchInfo | None = None
    try:
        if text.upper().startswith("XGID=") or ":" in text:
            xgid = parse_xgid(text)
            position: Position = xgid.position
            if xgid.match_length:
                on_roll = 0 if xgid.bottom_on_roll else 1
                owner = {0: None, 1: 0, -1: 1}[xgid.cube_owner]
                info = MatchInfo(
                    cube_value=1 << xgid.cube_log2,
                    cube_owner=owner,
                    player_on_roll=on_roll,
                    crawford=bool(xgid.flags),
                    game_state=GameState.PLAYING,
                    player_to_act=on_roll,
                    match_length=xgid.match_length,
                    score=xgid.score,
                )
        else:
            position = decode_position_id(text)
    except ValueError as error:
        raise CliError(f"POSITION: {error}") from None
    if args.match_id:
        try:
            info = decode_match_id(args.match_id.strip())
        except ValueError as error:
            raise CliError(f"--match-id: {error}") from None
    if position.is_game_over():
        raise CliError("POSITION: the game is over (a side has borne off every checker)")
    try:
        gammons_count = load_ruleset(args.ruleset).clock.expiry.gin_gammons_count
    except RuleSetError as error:
        raise CliError(f"--ruleset: {error}") from None
    verdict = gin(position, load_tables(args.tables))
    document: dict[str, object] = {
        "position_id": position_id(position),
        "contact": verdict.contact,
        "win": verdict.win,
        "gammon_win": verdict.gammon_win,
        "backgammon_win": verdict.backgammon_win,
        "gammon_loss": verdict.gammon_loss,
        "backgammon_loss": verdict.backgammon_loss,
        "exact": verdict.exact,
        "match": None,
    }
    if info is not None:
        decided = match_gin(verdict, info, gammons_count)
        document["match"] = {
            "match_id": match_id(info),
            "player": decided.player,
            "needed": list(decided.needed),
            "certain_points": list(decided.certain_points),
            "match_win": decided.match_win,
        }
    if args.json:
        print(json.dumps(document))
        return 0
    print(f"position {document['position_id']}: {'contact' if verdict.contact else 'no contact'}")
    for name in ("win", "gammon_win", "backgammon_win", "gammon_loss", "backgammon_loss"):
        print(f"{name.replace('_', ' ')}: {document[name]}")
    match = document["match"]
    if isinstance(match, dict):
        print(
            f"match ({match['match_id']}): player {match['player']} on roll, "
            f"needs {match['needed']}, certain points {match['certain_points']}, "
            f"match win {match['match_win']}"
        )
    return 0
