"""The players' table view: two clocks with the players' buttons, the board, prompts on top.

Layout in ``table.kv`` (designed for an 800x480 or 1024x600 touchscreen: buttons at least
56 dp high); the texts come from :mod:`kiosk.app.texts` and :mod:`kiosk.app.cards`. Nothing
here shows a pip count, a legal or best play, an equity or a gin verdict (MSO 1.5, JBL 1.9):
the only gin verdict the table sees is inside a ruling card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk.app.actions import ActionKind, ConcedeLevel, PlayerAction
from kiosk.app.board import CHECKER_RGB
from kiosk.app.cards import Card, prompt_card
from kiosk.app.i18n import tr
from kiosk.app.model import TableModel
from kiosk.app.texts import (
    SIDE_QUESTIONS,
    crawford_text,
    cube_text,
    dice_text,
    format_allowance,
    format_reserve,
    match_title,
    turn_text,
)

RUNNING_RGBA = (0.1, 0.45, 0.2, 1)
IDLE_RGBA = (0.18, 0.18, 0.2, 1)
FLAG_RGBA = (0.6, 0.1, 0.1, 1)


def _ignore(_action: PlayerAction) -> None:
    """The default sink: a screen built without one drops its actions."""


class AllowanceBar(Widget):  # type: ignore[misc]
    """A bar showing the fraction of the per-move allowance left."""

    fraction = NumericProperty(1.0)


class PlayerPanel(BoxLayout):  # type: ignore[misc]
    """One player's side: name, score, reserve clock, allowance, Double and Concede."""

    model = ObjectProperty(None, allownone=True)
    side = NumericProperty(0)
    sink = ObjectProperty(_ignore)
    language = StringProperty("en")
    name_text = StringProperty("")
    score_text = StringProperty("")
    state_text = StringProperty("")
    reserve_text = StringProperty("")
    allowance_text = StringProperty("")
    allowance_fraction = NumericProperty(1.0)
    running = BooleanProperty(False)
    can_double = BooleanProperty(False)
    can_concede = BooleanProperty(False)
    background = ListProperty(IDLE_RGBA)
    checker_rgba = ListProperty([1, 1, 1, 1])

    def on_model(self, _panel: PlayerPanel, model: TableModel | None) -> None:
        """Follow the new model's changes."""
        if model is not None:
            model.bind(
                players=self.refresh,
                reserves_ms=self.refresh,
                running=self.refresh,
                allowance_left_ms=self.refresh,
                flag=self.refresh,
                match=self.refresh,
                turn=self.refresh,
                prompt=self.refresh,
                language=self.refresh,
                clock_enabled=self.refresh,
                cube=self.refresh,
            )
            self.refresh()

    def on_side(self, *_args: object) -> None:
        """Show the other side's values."""
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Recompute every text from the model."""
        model: TableModel | None = self.model
        if model is None:
            return
        side = int(self.side)
        language = model.language
        player = model.player(side)
        self.language = language
        self.name_text = player.name
        self.checker_rgba = [*CHECKER_RGB[player.color], 1]
        self.score_text = str(model.match.score[side]) if model.match.length else ""
        self.running = model.running == side
        flagged = model.flag == side
        self.background = FLAG_RGBA if flagged else RUNNING_RGBA if self.running else IDLE_RGBA
        if not model.clock_enabled:
            self.reserve_text = ""
            self.allowance_text = ""
            self.state_text = ""
        else:
            self.reserve_text = format_reserve(int(model.reserves_ms[side]))
            left = int(model.allowance_left_ms)
            self.allowance_text = (
                tr(language, "Delay {seconds} s").format(seconds=format_allowance(left))
                if self.running
                else ""
            )
            total = max(1, int(model.allowance_ms))
            self.allowance_fraction = min(1.0, left / total)
            self.state_text = (
                tr(language, "Time expired")
                if flagged
                else tr(language, "Clock running")
                if self.running
                else ""
            )
        no_prompt = model.prompt.kind == "none"
        cube = model.cube
        may_double = cube.available and cube.owner in (None, side) and not model.match.crawford
        self.can_double = no_prompt and model.turn == side and may_double
        self.can_concede = no_prompt and model.turn is not None

    def emit(self, kind: str, level: ConcedeLevel | None = None) -> None:
        """Send the action ``kind`` (a concession's ``level``) for this panel's player."""
        self.sink(PlayerAction(ActionKind(kind), 0 if int(self.side) == 0 else 1, level))

    def open_concede(self) -> None:
        """Ask which concession: single game, gammon or backgammon (MSO 4.9)."""
        ConcedeChooser(language=self.language, name=self.name_text, panel=self).open()


class ConcedeChooser(ModalView):  # type: ignore[misc]
    """Single game, gammon or backgammon; the choice is emitted for the panel's player."""

    language = StringProperty("en")
    name = StringProperty("")
    panel = ObjectProperty(None)

    def choose(self, level: ConcedeLevel) -> None:
        """Emit the concession of ``level`` and close."""
        self.dismiss()
        self.panel.emit("concede", level)


class SideChooser(ModalView):  # type: ignore[misc]
    """Which player asks (a break, a dice mix, the director): the referee needs a side."""

    language = StringProperty("en")
    question = StringProperty("")
    names = ListProperty(["", ""])
    kind = StringProperty("")
    sink = ObjectProperty(_ignore)

    def choose(self, side: int) -> None:
        """Emit the action for the player at ``side`` and close."""
        self.dismiss()
        self.sink(PlayerAction(ActionKind(self.kind), 0 if side == 0 else 1))


class PromptCardView(BoxLayout):  # type: ignore[misc]
    """A prompt laid out from a :class:`~kiosk.app.cards.Card`."""

    title = StringProperty("")
    body = StringProperty("")
    decider = StringProperty("")
    caption = StringProperty("")
    wide = BooleanProperty(False)

    def show(self, card: Card, sink: Callable[[PlayerAction], None]) -> None:
        """Fill the texts, the diagram and the buttons from ``card``."""
        self.title, self.body, self.decider, self.caption, self.wide = (
            card.title,
            card.body,
            card.decider,
            card.caption,
            card.wide,
        )
        diagram = self.ids.diagram
        if card.board is not None:
            diagram.board = card.board
        diagram.moves = list(card.moves)
        diagram.highlight = list(card.highlight)
        buttons = self.ids.buttons
        buttons.clear_widgets()
        for spec in card.buttons:
            button = Button(
                text=spec.text,
                font_size="22sp",
                size_hint_y=None,
                height="64dp",
                background_normal="",
                background_color=(0.22, 0.3, 0.45, 1),
            )
            action = PlayerAction(spec.kind, spec.side)
            button.bind(on_release=lambda _b, a=action: sink(a))
            buttons.add_widget(button)


class TableScreen(Screen):  # type: ignore[misc]
    """The players' screen over a :class:`TableModel`; touches go to ``sink``."""

    model = ObjectProperty(None)
    sink = ObjectProperty(_ignore)
    director_opener = ObjectProperty(None, allownone=True)
    title_text = StringProperty("")
    status_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("model", TableModel())
        super().__init__(**kwargs)
        self._card_view: PromptCardView | None = None
        self.model.bind(
            match=self.refresh,
            cube=self.refresh,
            turn=self.refresh,
            dice=self.refresh,
            players=self.refresh,
            language=self.refresh,
            prompt=self.refresh,
        )
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Recompute the top line and the prompt card."""
        model: TableModel = self.model
        language = model.language
        players = model.players
        self.title_text = match_title(language, model.match)
        parts = [
            crawford_text(language, model.match),
            cube_text(language, model.cube, players),
            turn_text(language, model.turn, players),
            tr(language, "Dice: {dice}").format(dice=dice_text(language, model.dice)),
        ]
        self.status_text = "   ".join(p for p in parts if p)
        self._show_card(prompt_card(language, model.prompt, players))

    def _show_card(self, card: Card | None) -> None:
        """Show ``card`` in its layer (one card view, reused), or take the card away."""
        view = self._card_view
        if view is not None and view.parent is not None:
            view.parent.remove_widget(view)
        if card is None:
            return
        if view is None:
            view = self._card_view = PromptCardView()
        view.show(card, self.emit)
        layer = self.ids.wide_layer if card.wide else self.ids.board_layer
        # A notice sits over the top row, clear of the dice in the middle.
        if card.wide:
            view.size_hint, view.pos_hint = (1.0, 1.0), {"x": 0, "y": 0}
        elif card.buttons:
            view.size_hint, view.pos_hint = (0.96, 0.8), {"center_x": 0.5, "center_y": 0.5}
        else:
            view.size_hint, view.pos_hint = (0.96, 0.36), {"center_x": 0.5, "top": 0.98}
        layer.add_widget(view)

    @property
    def card_view(self) -> PromptCardView | None:
        """The prompt card on screen, if any."""
        view = self._card_view
        return view if view is not None and view.parent is not None else None

    def emit(self, action: PlayerAction) -> None:
        """Pass a player's action to the sink."""
        self.sink(action)

    def ask_side(self, kind: str) -> None:
        """A shared button (break, dice mix, call the director): ask which player it is for."""
        model: TableModel = self.model
        SideChooser(
            language=model.language,
            question=tr(model.language, SIDE_QUESTIONS[kind]),
            names=[model.player(0).name, model.player(1).name],
            kind=kind,
            sink=self.sink,
        ).open()

    def open_director(self) -> None:
        """Ask for the director's PIN (the app decides where that leads)."""
        if self.director_opener is not None:
            self.director_opener()
