"""The line protocol between the store's writer processes and the tests that kill them.

A writer says one whole line per call in a single write, and a reader counts only lines that end
in a newline: a writer killed mid-line (for instance with ``PYTHONUNBUFFERED`` set, where
``print`` writes word by word) never passes a torn line off as a commit.
"""

from __future__ import annotations

import sys


def say(*words: object) -> None:
    """Write ``words`` as one line, in one write, and flush it."""
    sys.stdout.write(" ".join(str(word) for word in words) + "\n")
    sys.stdout.flush()


def said(output: str, tag: str) -> list[list[int]]:
    """The numbers on the complete (newline-ended) lines of ``output`` starting with ``tag``."""
    rows = []
    for line in output.split("\n")[:-1]:
        words = line.split()
        if words and words[0] == tag and all(w.lstrip("-").isdigit() for w in words[1:]):
            rows.append([int(w) for w in words[1:]])
    return rows
