"""Write a :class:`MatchRecord` as a ``.mat`` file in GNU Backgammon's own layout.

``N point match``, then per game ``Game N``, the score line and numbered lines whose left column
(player 0) is 28 characters wide; results on their own line, indented to their player's column.
GNU Backgammon's ``import mat`` reads what this writes.
"""

from __future__ import annotations

from kiosk.matfile.record import Action, Game, MatchRecord

_LEFT_WIDTH = 28
_NUMBER_WIDTH = 5
_NAME_WIDTH = 31


def format_action(action: Action) -> str:
    """The text of one action as it stands in its column."""
    if action.kind == "roll":
        assert action.dice is not None
        play = "???" if action.unreadable else action.play
        return f"{action.dice[0]}{action.dice[1]}: {play}".rstrip()
    if action.kind == "double":
        return f"Doubles => {action.value}"
    if action.kind == "take":
        return "Takes"
    if action.kind == "drop":
        return "Drops"
    unit = "point" if action.value == 1 else "points"
    return f"Wins {action.value} {unit}" + (" and the match" if action.match_won else "")


def _game_lines(game: Game, players: tuple[str, str]) -> list[str]:
    left_name = f"{players[0]} : {game.score[0]}"
    lines = [
        f" Game {game.number}",
        f" {left_name.ljust(_NAME_WIDTH)}{players[1]} : {game.score[1]}",
    ]
    rows: list[list[str | None]] = []  # [left, right] of each numbered line
    trailer: list[str] = []
    for action in game.actions:
        text = format_action(action)
        last_right_free = bool(rows) and rows[-1][1] is None
        if action.player == 1 and last_right_free:
            rows[-1][1] = text  # the right column of the line player 0 opened
        elif action.kind == "win":
            indent = _NUMBER_WIDTH + 1 + (_LEFT_WIDTH if action.player else 0)
            trailer.append(" " * indent + text)
        else:
            rows.append([text, None] if action.player == 0 else [None, text])
    for number, (left, right) in enumerate(rows, start=1):
        prefix = f"{number:3d}) "
        if right is None:
            lines.append(prefix + (left or ""))
        else:
            lines.append(prefix + (left or "").ljust(_LEFT_WIDTH - 1) + " " + right)
    lines += trailer
    return lines


def format_mat(record: MatchRecord) -> str:
    """The ``.mat`` text of ``record`` (tags as ``; [Key "value"]`` headers, comments kept)."""
    lines = [f'; [{key} "{value}"]' for key, value in record.tags]
    lines += [f"; {comment}" for comment in record.comments]
    lines += ["", f" {record.match_length} point match", ""]
    for game in record.games:
        lines += [*_game_lines(game, record.players), ""]
    return "\n".join(lines) + "\n"
