"""What a prompt looks like: headline, explanation, diagram and the buttons it offers (pure).

:func:`prompt_card` turns a :class:`~kiosk.app.prompts.Prompt` into a :class:`Card` that the
prompt widget only lays out. Decisions belong to the opponent of the prompt's ``side``: the
opponent condones an illegal move or demands a legal one (MSO 4.8, JBL 4.2.3), and takes or
passes a double.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kiosk.app.actions import ActionKind
from kiosk.app.boardview import BoardView
from kiosk.app.i18n import tr
from kiosk.app.prompts import MovePoint, Prompt
from kiosk.app.snapshot import PlayerView
from kiosk.app.texts import CHOICE_TEXTS, decider_text, prompt_body, prompt_title


@dataclass(frozen=True)
class CardButton:
    """A button on a prompt: its text and the action it emits for ``side`` (None: anyone)."""

    text: str
    kind: ActionKind
    side: Literal[0, 1] | None


@dataclass(frozen=True)
class Card:
    """A prompt laid out: ``wide`` cards (with a diagram) cover the clocks' row too."""

    title: str
    body: str = ""
    decider: str = ""
    buttons: tuple[CardButton, ...] = ()
    board: BoardView | None = None
    moves: tuple[tuple[MovePoint, MovePoint], ...] = ()
    highlight: tuple[int, ...] = ()
    caption: str = ""

    @property
    def wide(self) -> bool:
        """True when the card has a diagram."""
        return self.board is not None


def prompt_card(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> Card | None:
    """The card for ``prompt``, or None when there is no prompt."""
    if prompt.kind == "none":
        return None
    title = prompt_title(language, prompt, players)
    body = prompt_body(language, prompt, players)
    decider = decider_text(language, prompt, players)
    buttons = _buttons(language, prompt)
    if prompt.kind == "illegal_move":
        caption = tr(language, "The board as seen")
        return Card(title, body, decider, buttons, prompt.board, prompt.moves, caption=caption)
    if prompt.kind == "setup_error" and prompt.expected is not None and prompt.board is not None:
        wrong = tuple(
            number
            for number, (seen, right) in enumerate(
                zip(prompt.board.points, prompt.expected.points, strict=True), start=1
            )
            if seen.color != right.color or seen.count != right.count
        )
        caption = tr(language, "The correct setup (wrong points in red)")
        return Card(
            title, body, decider, buttons, board=prompt.expected, highlight=wrong, caption=caption
        )
    return Card(title, body, decider, buttons)


def _buttons(language: str, prompt: Prompt) -> tuple[CardButton, ...]:
    """The prompt's ``choices`` for ``to``; else the opponent's answers to a move or a double."""
    if prompt.choices:
        return tuple(
            CardButton(tr(language, CHOICE_TEXTS[choice]), choice, prompt.to)
            for choice in prompt.choices
        )
    if prompt.side is None:
        return ()
    opponent: Literal[0, 1] = 1 if prompt.side == 0 else 0
    if prompt.kind == "illegal_move":
        return (
            CardButton(tr(language, "Accept the move"), ActionKind.CONDONE, opponent),
            CardButton(tr(language, "Demand a legal move"), ActionKind.DEMAND_LEGAL, opponent),
        )
    if prompt.kind == "cube_offered":
        return (
            CardButton(tr(language, "Take"), ActionKind.TAKE, opponent),
            CardButton(tr(language, "Pass"), ActionKind.PASS, opponent),
        )
    return ()
