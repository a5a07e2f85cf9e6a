"""A backgammon board drawn with Kivy graphics: points, checkers with counts, bar, trays, dice.

Used for the table view (the board as the kiosk sees it) and for diagrams (an illegal move's
play seen, a setup error, an incident). Point numbers are image-relative as in the camera
reading (1 bottom right, 1..12 right to left along the bottom, 13..24 left to right along the
top), so the drawing matches the board the players look at from the camera's side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, PopMatrix, PushMatrix, Rectangle, Rotate, Triangle
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.widget import Widget

from kiosk.app.boardview import BoardView, PointView
from kiosk.app.prompts import MovePoint
from kiosk.app.snapshot import DieView
from kiosk.app.values import Color as CheckerColor

VISIBLE_STACK = 5  # checkers drawn per point; a count label shows how many there are beyond
RGB = tuple[float, float, float]
CHECKER_RGB: dict[CheckerColor, RGB] = {"light": (0.95, 0.92, 0.82), "dark": (0.45, 0.1, 0.1)}
COUNT_RGB: dict[CheckerColor, RGB] = {"light": (0.1, 0.1, 0.1), "dark": (1.0, 1.0, 1.0)}
FELT: RGB = (0.13, 0.35, 0.22)
FRAME: RGB = (0.36, 0.24, 0.14)
POINT_RGB: tuple[RGB, RGB] = ((0.76, 0.62, 0.38), (0.55, 0.2, 0.15))
MARK_RGB: RGB = (1.0, 0.85, 0.0)
WARN_RGB: RGB = (1.0, 0.2, 0.2)
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.75), (0.75, 0.25)),
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
    4: ((0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)),
}


class BoardGeometry:
    """Where each part of the board lies inside a widget's rectangle (pixels)."""

    def __init__(self, x: float, y: float, width: float, height: float) -> None:
        self.x, self.y, self.width, self.height = x, y, width, height
        self.tray = width * 0.08
        self.frame = min(width, height) * 0.03
        self.play_x = x + self.frame
        self.play_w = width - self.tray - 2 * self.frame
        self.bar = self.play_w * 0.07
        self.point_w = (self.play_w - self.bar) / 12
        self.play_y = y + self.frame
        self.play_h = height - 2 * self.frame
        self.point_h = self.play_h * 0.42
        self.radius = min(self.point_w * 0.46, self.play_h / 2 / (VISIBLE_STACK * 2 + 1.0))

    def column_x(self, column: int) -> float:
        """Left edge of column 0..11 (left to right)."""
        return self.play_x + column * self.point_w + (self.bar if column >= 6 else 0.0)

    def point_column(self, point: int) -> tuple[int, bool]:
        """(column, on the top row) of an image-relative point 1..24."""
        return (12 - point, False) if point <= 12 else (point - 13, True)

    def checker_centre(self, point: int, index: int) -> tuple[float, float]:
        """Centre of the ``index``-th checker (0 at the board's edge) on ``point``."""
        column, top = self.point_column(point)
        cx = self.column_x(column) + self.point_w / 2
        offset = self.radius * (1 + 2 * index)
        cy = self.play_y + self.play_h - offset if top else self.play_y + offset
        return cx, cy

    @property
    def bar_x(self) -> float:
        """Centre line of the bar."""
        return self.play_x + 6 * self.point_w + self.bar / 2

    @property
    def tray_x(self) -> float:
        """Centre line of the trays."""
        return self.x + self.width - self.tray / 2

    @property
    def mid_y(self) -> float:
        """The board's horizontal centre line."""
        return self.play_y + self.play_h / 2

    def anchor(self, where: MovePoint) -> tuple[float, float]:
        """Where an arrow for a move starts or ends: a point's middle, the bar, or the trays."""
        if where == "bar":
            return self.bar_x, self.mid_y
        if where == "off":
            return self.tray_x, self.mid_y
        return self.checker_centre(where, 1)


@lru_cache(maxsize=512)
def _text_texture(text: str, size: float, rgb: RGB) -> object:
    """A rendered label, kept: the board redraws the same numbers at every change."""
    label = CoreLabel(text=text, font_size=size, color=(*rgb, 1), bold=True)
    label.refresh()
    return label.texture


class BoardWidget(Widget):  # type: ignore[misc]
    """Draws ``board`` with optional ``dice`` (as read), ``moves`` (arrows of a play seen) and
    ``highlight`` (image-relative points outlined in red, e.g. a setup's wrong points)."""

    board = ObjectProperty(BoardView())
    dice = ListProperty([])
    moves = ListProperty([])
    highlight = ListProperty([])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(lambda _dt: self.draw(), -1)
        self.bind(
            pos=self._redraw,
            size=self._redraw,
            board=self._redraw,
            dice=self._redraw,
            moves=self._redraw,
            highlight=self._redraw,
        )

    def draw(self) -> None:
        """Redraw everything (called on any change, once per frame at most)."""
        self.canvas.clear()
        geo = BoardGeometry(self.x, self.y, self.width, self.height)
        board: BoardView = self.board
        with self.canvas:
            self._draw_frame(geo)
            for point in range(1, 25):
                self._draw_point(geo, point, board.points[point - 1])
            self._draw_bar_and_trays(geo, board)
            self._draw_moves(geo, self.moves)
            for die_index, die in enumerate(self.dice):
                self._draw_die(geo, die, die_index)

    def _draw_frame(self, geo: BoardGeometry) -> None:
        Color(*FRAME)
        Rectangle(pos=(geo.x, geo.y), size=(geo.width, geo.height))
        Color(*FELT)
        for column in (0, 6):
            x = geo.column_x(column)
            Rectangle(pos=(x, geo.play_y), size=(6 * geo.point_w, geo.play_h))
        Color(*FELT)
        tray_left = geo.x + geo.width - geo.tray + geo.frame * 0.3
        for y in (geo.play_y, geo.mid_y + geo.frame / 2):
            Rectangle(
                pos=(tray_left, y), size=(geo.tray - geo.frame * 0.6, geo.play_h / 2 - geo.frame)
            )

    def _draw_point(self, geo: BoardGeometry, point: int, view: PointView) -> None:
        column, top = geo.point_column(point)
        left = geo.column_x(column)
        base = geo.play_y + geo.play_h if top else geo.play_y
        tip = base - geo.point_h if top else base + geo.point_h
        Color(*POINT_RGB[point % 2])
        Triangle(points=[left, base, left + geo.point_w, base, left + geo.point_w / 2, tip])
        if point in self.highlight:
            Color(*WARN_RGB)
            Line(rectangle=(left, min(base, tip), geo.point_w, geo.point_h), width=2.5)
        self._draw_number(geo, point, left, top)
        if view.color is None:
            if view.uncertain:
                self._label("?", *geo.checker_centre(point, 0), geo.radius * 1.4, MARK_RGB)
            return
        shown = VISIBLE_STACK if view.count is None else min(view.count, VISIBLE_STACK)
        for index in range(shown):
            self._checker(geo, view.color, *geo.checker_centre(point, index))
        if shown and (view.uncertain or (view.count or 0) > VISIBLE_STACK):
            text = "?" if view.count is None else str(view.count)
            text += "?" if view.uncertain and view.count is not None else ""
            centre = geo.checker_centre(point, shown - 1)
            self._label(text, *centre, geo.radius * 1.2, COUNT_RGB[view.color])

    def _draw_number(self, geo: BoardGeometry, point: int, left: float, top: bool) -> None:
        size = max(8.0, geo.frame * 0.8)
        y = geo.y + geo.height - geo.frame / 2 if top else geo.y + geo.frame / 2
        self._label(str(point), left + geo.point_w / 2, y, size, (0.9, 0.85, 0.7))

    def _checker(self, geo: BoardGeometry, color: CheckerColor, cx: float, cy: float) -> None:
        r = geo.radius
        Color(*CHECKER_RGB[color])
        Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Color(0.0, 0.0, 0.0)
        Line(circle=(cx, cy, r), width=1)

    def _draw_bar_and_trays(self, geo: BoardGeometry, board: BoardView) -> None:
        sides: tuple[tuple[CheckerColor, int], ...] = (("light", 1), ("dark", -1))
        for color, sign in sides:
            count = board.bar[color]
            for index in range(min(count or 0, 3)):
                y = geo.mid_y + sign * geo.radius * (2 + 2 * index)
                self._checker(geo, color, geo.bar_x, y)
            if count is None or count > 3:
                self._label(
                    "?" if count is None else str(count),
                    geo.bar_x,
                    geo.mid_y + sign * geo.radius * 6,
                    geo.radius * 1.2,
                    COUNT_RGB[color],
                )
            off = board.off[color]
            text = "?" if off is None else str(off)
            y = geo.mid_y + sign * geo.play_h / 4
            if off != 0:
                r = min(geo.tray * 0.35, geo.radius)
                Color(*CHECKER_RGB[color])
                Rectangle(pos=(geo.tray_x - r, y - r), size=(2 * r, 2 * r))
                self._label(text, geo.tray_x, y, r * 1.3, COUNT_RGB[color])

    def _draw_moves(self, geo: BoardGeometry, moves: Sequence[tuple[MovePoint, MovePoint]]) -> None:
        Color(*MARK_RGB)
        for source, destination in moves:
            x1, y1 = geo.anchor(source)
            x2, y2 = geo.anchor(destination)
            Line(points=[x1, y1, x2, y2], width=3)
            angle = math.atan2(y2 - y1, x2 - x1)
            head = geo.radius * 1.2
            left = (x2 - head * math.cos(angle - 0.5), y2 - head * math.sin(angle - 0.5))
            right = (x2 - head * math.cos(angle + 0.5), y2 - head * math.sin(angle + 0.5))
            Triangle(points=[x2, y2, *left, *right])
            Line(circle=(x1, y1, geo.radius * 1.1), width=2.5)

    def _draw_die(self, geo: BoardGeometry, die: DieView, index: int) -> None:
        size = geo.point_w * 0.9
        if die.zone == "on-bar":
            cx, cy = geo.bar_x, geo.mid_y + (index - 0.5) * size * 1.3
        elif die.zone == "off-board":
            cx, cy = geo.tray_x, geo.mid_y + (index - 0.5) * size * 1.3
        else:
            half = 0 if die.zone == "left-half" else 6
            cx = geo.column_x(half) + 3 * geo.point_w + (index - 0.5) * size * 1.4
            cy = geo.mid_y
        PushMatrix()
        Rotate(angle=20 if die.cocked else 0, origin=(cx, cy))
        Color(*((1.0, 0.6, 0.2) if die.cocked else (1.0, 1.0, 1.0)))
        Rectangle(pos=(cx - size / 2, cy - size / 2), size=(size, size))
        Color(0.0, 0.0, 0.0)
        for px, py in PIPS.get(die.value or 0, ()):
            r = size * 0.09
            Ellipse(
                pos=(cx - size / 2 + px * size - r, cy - size / 2 + py * size - r),
                size=(2 * r, 2 * r),
            )
        PopMatrix()
        if die.value is None:
            self._label("?", cx, cy, size * 0.8, (0.0, 0.0, 0.0))

    def _label(self, text: str, cx: float, cy: float, size: float, rgb: RGB) -> None:
        texture = _text_texture(text, size, rgb)
        width, height = texture.size  # type: ignore[attr-defined]
        Color(1.0, 1.0, 1.0)
        Rectangle(texture=texture, pos=(cx - width / 2, cy - height / 2), size=(width, height))
