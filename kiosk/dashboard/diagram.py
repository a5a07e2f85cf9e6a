"""Board diagrams as SVG, drawn from a gnubg Position ID, with a play drawn as arrows.

The board is shown from the view of the player on roll (light checkers): their points 1-12 run
right to left along the bottom row (home board bottom right), 13-24 left to right along the top;
the opponent's (dark) point ``p`` is the on-roll player's ``25 - p``. The bar is the middle
column, borne-off checkers are counted in the right tray. A play's hops are arrows from point to
point (``bar`` from the bar, ``off`` to the tray). Pure: text in, text out.
"""

from __future__ import annotations

from html import escape
from typing import Final

from kiosk.rules import BAR, OFF, decode_position_id, parse_play

POINT_W: Final = 40
BAR_W: Final = 40
TRAY_W: Final = 50
HEIGHT: Final = 440
CHECKER_R: Final = 17
MARGIN: Final = 10
WIDTH: Final = 2 * MARGIN + 12 * POINT_W + BAR_W + TRAY_W
_STACK_SHOWN: Final = 5


def _point_x(point: int) -> float:
    """Centre x of point 1..24 in the on-roll player's numbering."""
    column = 12 - point if point <= 12 else point - 13  # bottom right to left, top left to right
    x = MARGIN + column * POINT_W + POINT_W / 2
    return x + BAR_W if column >= 6 else x


def _is_top(point: int) -> bool:
    return point > 12


def _checker_y(point: int, index: int) -> float:
    """Centre y of the ``index``-th checker (0 = at the edge) on ``point``."""
    offset = MARGIN + CHECKER_R + index * 2 * CHECKER_R
    return offset if _is_top(point) else HEIGHT - offset


_BAR_X: Final = MARGIN + 6 * POINT_W + BAR_W / 2
_TRAY_X: Final = MARGIN + 12 * POINT_W + BAR_W + TRAY_W / 2


def _anchor(slot: int) -> tuple[float, float]:
    """Where an arrow starts or ends for slot 0 (off), 1..24 or 25 (bar)."""
    if slot == BAR:
        return _BAR_X, HEIGHT / 2 + 2 * CHECKER_R
    if slot == OFF:
        return _TRAY_X, HEIGHT - MARGIN - 3 * CHECKER_R
    return _point_x(slot), _checker_y(slot, 2)


def _triangles() -> list[str]:
    shapes = []
    for point in range(1, 25):
        x = _point_x(point) - POINT_W / 2
        tip = MARGIN + 5 * 2 * CHECKER_R
        base, apex = (MARGIN, tip) if _is_top(point) else (HEIGHT - MARGIN, HEIGHT - tip)
        fill = "#b5651d" if point % 2 else "#e8d3a9"
        shapes.append(
            f'<polygon points="{x},{base} {x + POINT_W},{base} {x + POINT_W / 2},{apex}" '
            f'fill="{fill}"/>'
        )
        label_y = MARGIN - 1 if _is_top(point) else HEIGHT - 1
        shapes.append(
            f'<text x="{x + POINT_W / 2}" y="{label_y}" font-size="9" text-anchor="middle" '
            f'fill="#333">{point}</text>'
        )
    return shapes


def _stack(x: float, point: int, count: int, fill: str, stroke: str) -> list[str]:
    shapes = []
    for index in range(min(count, _STACK_SHOWN)):
        y = _checker_y(point, index)
        shapes.append(
            f'<circle cx="{x}" cy="{y}" r="{CHECKER_R - 1}" fill="{fill}" stroke="{stroke}" '
            'stroke-width="2"/>'
        )
    if count > _STACK_SHOWN:
        y = _checker_y(point, _STACK_SHOWN - 1)
        shapes.append(
            f'<text x="{x}" y="{y + 5}" font-size="14" text-anchor="middle" fill="{stroke}" '
            f'font-weight="bold">{count}</text>'
        )
    return shapes


_LIGHT: Final = ("#fafafa", "#222")
_DARK: Final = ("#222", "#fafafa")


def board_svg(position_id: str, play: str | None = None, colour: str = "#d00") -> str:
    """An SVG of the position, with ``play`` (standard notation) as arrows of ``colour``.

    Raises ``InvalidIdError``/``NotationError`` (both ``ValueError``) for bad input.
    """
    position = decode_position_id(position_id)
    hops = parse_play(play) if play else []
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="board {escape(position_id)}">',
        "<defs><marker id='head' viewBox='0 0 10 10' refX='8' refY='5' markerWidth='5' "
        f"markerHeight='5' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='{colour}'/>"
        "</marker></defs>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#2e6b3a"/>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{12 * POINT_W + BAR_W}" '
        f'height="{HEIGHT - 2 * MARGIN}" fill="#f4e7c8"/>',
        f'<rect x="{MARGIN + 6 * POINT_W}" y="{MARGIN}" width="{BAR_W}" '
        f'height="{HEIGHT - 2 * MARGIN}" fill="#5a3a1a"/>',
        *_triangles(),
    ]
    for point in range(1, 25):
        mine, theirs = position.on_roll[point], position.opponent[25 - point]
        if mine:
            parts += _stack(_point_x(point), point, mine, *_LIGHT)
        if theirs:
            parts += _stack(_point_x(point), point, theirs, *_DARK)
    if position.on_roll[BAR]:
        parts += _stack(_BAR_X, 1, position.on_roll[BAR], *_LIGHT)
    if position.opponent[BAR]:
        parts += _stack(_BAR_X, 24, position.opponent[BAR], *_DARK)
    parts.append(
        f'<text x="{_TRAY_X}" y="{HEIGHT - MARGIN - 8}" font-size="13" text-anchor="middle" '
        f'fill="#fff">off {position.on_roll[OFF]}</text>'
    )
    parts.append(
        f'<text x="{_TRAY_X}" y="{MARGIN + 16}" font-size="13" text-anchor="middle" '
        f'fill="#fff">off {position.opponent[OFF]}</text>'
    )
    for number, hop in enumerate(hops):
        (x1, y1), (x2, y2) = _anchor(hop.source), _anchor(hop.destination)
        # Arc towards the middle of the board, each hop a little further, so that hops over
        # the same points stay apart.
        bend = 40 + 25 * number
        cy = (y1 + y2) / 2 + (bend if (y1 + y2) / 2 < HEIGHT / 2 else -bend)
        parts.append(
            f'<path d="M{x1},{y1} Q{(x1 + x2) / 2},{cy} {x2},{y2}" fill="none" '
            f'stroke="{colour}" stroke-width="4" stroke-opacity="0.85" '
            'marker-end="url(#head)"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
