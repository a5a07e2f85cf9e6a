"""Oracle script: GNU Backgammon imports a ``.mat`` file and prints what it read, as JSON.

Run in a subprocess (gnubg prints instead of raising, and may crash)::

    python tests/matfile/gnubg_oracle.py FILE.mat </dev/null

Prints one line ``ORACLE {"games": [...]}``: per game the score at its start (player 0 = X =
the record's left column), the winner (0/1/None), the points won, and each action's player,
kind, dice and the Position ID gnubg shows before it.
"""

from __future__ import annotations

import json
import sys


def main(path: str) -> None:
    """Import ``path`` and print the oracle line."""
    import gnubg

    gnubg.command("set sound enable off")
    gnubg.command(f"import mat {path}")
    match = gnubg.match()
    games = []
    for game in match["games"] if match else ():
        info = game["info"]
        winner = {"X": 0, "O": 1}.get(info.get("winner") or "")
        actions = [
            {
                "player": {"X": 0, "O": 1}[step["player"]],
                "action": step["action"],
                "dice": list(step.get("dice", ())),
                "board": step.get("board"),
            }
            for step in game["game"]
        ]
        games.append(
            {
                "score": [info["score-X"], info["score-O"]],
                "winner": winner,
                "points": info.get("points-won", 0),
                "actions": actions,
            }
        )
    print("ORACLE " + json.dumps({"length": match["match-info"]["match-length"], "games": games}))


if __name__ == "__main__":
    main(sys.argv[1])
