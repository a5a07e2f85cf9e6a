"""Regenerate the golden ``.mat`` files: GNU Backgammon plays matches against itself.

Run with the ``gnubg`` PyPI package (x86_64 only), stdin from /dev/null::

    .venv/bin/python tests/matfile/make_golden.py LENGTH SEED OUT.mat </dev/null

Both players start as humans so that ``new match`` returns; they are then handed to gnubg's
0-ply engine and ``play`` runs the whole match (with one thread: the threaded engine waits
forever on a signal in the library build). The export is gnubg's own ``.mat`` writer.
"""

from __future__ import annotations

import sys


def main(length: int, seed: int, out: str) -> None:
    """Play a match of ``length`` points with dice seed ``seed`` and export it to ``out``."""
    import gnubg

    for command in (
        "set sound enable off",
        "set display off",
        "set threads 1",
        f"set seed {seed}",
        "set player 0 human",
        "set player 1 human",
    ):
        gnubg.command(command)
    gnubg.command(f"new match {length}")
    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        gnubg.command(f"set player {player} chequerplay evaluation plies 0")
        gnubg.command(f"set player {player} cubedecision evaluation plies 0")
    gnubg.command("play")
    gnubg.command(f"export match mat {out}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
