"""Jellyfish/GNU Backgammon ``.mat`` match records: read, write, replay through the rules.

Pure: text in, values out; the ``replay`` command does the file I/O.
"""

from kiosk.matfile.reader import MatFormatError, parse_mat
from kiosk.matfile.record import Action, ActionKind, Game, MatchRecord
from kiosk.matfile.replay import Decision, Flag, GameReplay, Replay, replay, replay_json
from kiosk.matfile.writer import format_action, format_mat

__all__ = [
    "Action",
    "ActionKind",
    "Decision",
    "Flag",
    "Game",
    "GameReplay",
    "MatFormatError",
    "MatchRecord",
    "Replay",
    "format_action",
    "format_mat",
    "parse_mat",
    "replay",
    "replay_json",
]
