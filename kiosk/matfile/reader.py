"""Read Jellyfish/GNU Backgammon ``.mat`` match records, tolerant of what real files contain.

Accepted: a UTF-8 BOM; ``; [Tag "value"]`` headers or none; other ``;`` comment lines anywhere;
``N point match`` (``0 point match`` is a money session); ``Game N`` and the score line
``name : score   name : score``; numbered move lines with a left (player 0) and a right
(player 1) column, each holding ``DD: play`` (the dice in either order; the play may be empty or
``Cannot Move``; ``???`` marks an unreadable play), ``Doubles => N``, ``Takes`` (``Accepts``),
``Drops`` (``Passes``, ``Rejects``) or ``Wins N point(s) [and the match]``; result lines without a
number. Notation inside a play (``25``/``bar``, ``0``/``off``, missing ``*``) is left to
:func:`kiosk.rules.resolve_play`.

Anything else raises :class:`MatFormatError` naming the file, the line and what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.matfile.record import Action, ActionKind, Game, MatchRecord


class MatFormatError(ValueError):
    """A malformed record: ``source`` (file name), ``line`` (1-based), what was ``expected``."""

    def __init__(self, source: str, line: int, expected: str, found: str) -> None:
        self.source = source
        self.line = line
        self.expected = expected
        self.found = found
        super().__init__(f"{source}:{line}: expected {expected}, found {found!r}")


RIGHT_COLUMN = 20
"""A lone action starting at this column or further right (0-based, tabs expanded to 8) is
player 1's. Writers put the left column at 5-6 and the right one near 33."""

MAX_LENGTH = (1 << 15) - 1
"""The longest match a GNU Backgammon Match ID can carry (15 bits)."""

_TAG = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+points?\s+match\s*\.?\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)")
_ACTION = re.compile(
    r"(?P<dice>(?<![\d/])[1-6][1-6]:)"
    r"|(?P<double>Doubles\s*=>\s*(?P<cube>\d+))"
    r"|(?P<take>Takes|Accepts)"
    r"|(?P<drop>Drops|Passes|Rejects|Refuses)"
    r"|(?P<win>Wins\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?)",
    re.IGNORECASE,
)
_CANNOT_MOVE = re.compile(r"^(cannot\s+move|can't\s+move|no\s+move|\(no\s+move\))$", re.IGNORECASE)
_UNREADABLE = "???"


@dataclass(slots=True)
class _GameBuilder:
    number: int
    line: int
    score: tuple[int, int] | None = None
    actions: list[Action] | None = None


def parse_mat(text: str, source: str = "<text>") -> MatchRecord:
    """Parse the text of a ``.mat`` file; ``source`` names it in error messages."""
    lines = text.removeprefix("\ufeff").splitlines()
    tags: list[tuple[str, str]] = []
    comments: list[str] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    games: list[Game] = []
    current: _GameBuilder | None = None

    def close(line: int, found: str) -> None:
        if current is None:
            return
        if current.score is None or current.actions is None:
            raise MatFormatError(source, line, "the score line 'name : 0   name : 0'", found)
        games.append(Game(current.number, current.score, tuple(current.actions), current.line))

    for index, raw in enumerate(lines, start=1):
        line = raw.expandtabs(8).rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            tag = _TAG.match(stripped)
            if tag:
                tags.append((tag.group(1), tag.group(2)))
            else:
                comments.append(stripped[1:].strip())
            continue
        if current is None and length is None:
            found = _LENGTH.match(line)
            if not found or int(found.group(1)) > MAX_LENGTH:
                raise MatFormatError(source, index, f"'N point match', N <= {MAX_LENGTH}", stripped)
            length = int(found.group(1))
            continue
        game = _GAME.match(line)
        if game:
            close(index, stripped)
            current = _GameBuilder(int(game.group(1)), index)
            continue
        if current is None:
            raise MatFormatError(source, index, "'Game 1'", stripped)
        if current.score is None:
            score = _SCORE.match(line)
            if not score:
                raise MatFormatError(
                    source, index, "the score line 'name : 0   name : 0'", stripped
                )
            names = (score.group(1), score.group(3))
            players = players or names
            current.score = (int(score.group(2)), int(score.group(4)))
            current.actions = []
            continue
        assert current.actions is not None
        current.actions.extend(_line_actions(line, index, source))
    close(len(lines) + 1, "end of file")
    if length is None:
        raise MatFormatError(source, len(lines) + 1, "'N point match'", "end of file")
    if not games or players is None:
        raise MatFormatError(source, len(lines) + 1, "'Game 1' and its score line", "end of file")
    return MatchRecord(length, players, tuple(games), tuple(tags), tuple(comments))


def _line_actions(line: str, index: int, source: str) -> list[Action]:
    """The one or two actions of a move or result line, assigned to their columns."""
    numbered = _NUMBERED.match(line)
    move_number = int(numbered.group(1)) if numbered else None
    start = numbered.end() if numbered else 0
    found = list(_ACTION.finditer(line, start))
    expected = "a move ('64: 24/18 13/9'), 'Doubles => N', 'Takes', 'Drops' or 'Wins N points'"
    if not found:
        if numbered and not line[start:].strip():
            return []
        raise MatFormatError(source, index, expected, line.strip())
    if line[start : found[0].start()].strip():
        raise MatFormatError(source, index, expected, line[start : found[0].start()].strip())
    if len(found) > 2:
        raise MatFormatError(source, index, "at most two columns", line.strip())
    actions = []
    for position, match in enumerate(found):
        end = found[position + 1].start() if position + 1 < len(found) else len(line)
        tail = line[match.end() : end].strip()
        lone_column = 0 if match.start() < RIGHT_COLUMN else 1
        player = position if len(found) == 2 else lone_column
        actions.append(_action(match, tail, player, index, move_number, source))
    return actions


def _action(
    match: re.Match[str], tail: str, player: int, index: int, move_number: int | None, source: str
) -> Action:
    kind: ActionKind
    if match.group("dice"):
        dice = (int(match.group("dice")[0]), int(match.group("dice")[1]))
        unreadable = _UNREADABLE in tail
        play = "" if unreadable or _CANNOT_MOVE.match(tail) else tail
        return Action(player, "roll", dice, play, unreadable, line=index, move_number=move_number)
    if tail:
        raise MatFormatError(source, index, "nothing after " + repr(match.group(0)), tail)
    value = 0
    if match.group("double"):
        kind, value = "double", int(match.group("cube"))
    elif match.group("take"):
        kind = "take"
    elif match.group("drop"):
        kind = "drop"
    else:
        kind, value = "win", int(match.group("points"))
    won = bool(match.group("match"))
    return Action(player, kind, None, "", False, value, won, index, move_number)
