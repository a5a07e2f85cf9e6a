"""Print gnubg's Match IDs for the states in a JSON file (run in a subprocess: gnubg prints)."""

import json
import sys
from pathlib import Path

import gnubg  # type: ignore[import-not-found]

states = json.loads(Path(sys.argv[1]).read_text())
ids = []
for s in states:
    cube = gnubg.cubeinfo(
        s["cube"], s["owner"], s["move"], s["length"], tuple(s["score"]), s["crawford"], 0
    )
    pos = gnubg.posinfo(s["turn"], s["resigned"], s["doubled"], s["gamestate"], tuple(s["dice"]))
    ids.append(gnubg.matchid(cube, pos))
print(json.dumps(ids))
