"""The symbols of the board picture: units, arrows, support and convoy links, crosses,
and the geometry that places them."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial

from judge.render.canvas import Canvas, Point
from judge.render.drawing import PowerStyle

FAIL = "#d00000"  # the colour of a failed order's cross and of a dislodged unit's ring
REMOVED = "#222"  # the colour of a removal's mark: not a failed order's red


def _along(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    start, end = min(start, d * 0.3), min(end, d * 0.3)
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end), (ux, uy)


def mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def offset(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    """The segment a-b moved `by` to its right (so two opposite moves run side by side)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * by, dx / d * by
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


_FLEET_HULL = ((-14, -2), (14, -2), (9, 8), (-9, 8))
_FLEET_SAIL = ((-1, -3), (-1, -16), (10, -4))


def unit_symbol(
    canvas: Canvas, kind: str, style: PowerStyle, at: Point, ghost: bool = False
) -> None:
    """An army (a disc) or a fleet (a ship) in the power's colour, with its letter."""
    x, y = at
    edge = "#000"
    if kind == "F":
        canvas.shape([[(x + px, y + py) for px, py in _FLEET_SAIL]], "#fff", edge, 1.0)
        canvas.shape([[(x + px, y + py) for px, py in _FLEET_HULL]], style.color, edge, 1.5)
        if style.letter:
            canvas.text((x, y + 6.5), style.letter, 10, style.ink, bold=True)
    else:
        canvas.circle(at, 9.5, style.color, edge, 1.5)
        if style.letter:
            canvas.text((x, y + 4), style.letter, 11, style.ink, bold=True)
    if ghost:
        canvas.circle(at, 13, None, edge, 1.2, dash=(2, 2))


def arrow(
    canvas: Canvas,
    a: Point,
    b: Point,
    color: str,
    dash: Sequence[float] | None = None,
    width: float = 3.0,
    start: float = 12.0,
    end: float = 13.0,
) -> None:
    """A line from a to b with an arrow head, outlined in black for contrast."""
    arrow_along(canvas, (a, b), color, dash, width, start, end)


def arrow_along(
    canvas: Canvas,
    points: Sequence[Point],
    color: str,
    dash: Sequence[float] | None = None,
    width: float = 3.0,
    start: float = 12.0,
    end: float = 13.0,
) -> None:
    """A line through `points` (a convoyed move: through each fleet's sea) with an arrow
    head at the last, starting `start` after the first and ending `end` before the last."""
    if len(points) == 2:
        p, q, (ux, uy) = _along(points[0], points[1], start, end)
    else:
        p = _along(points[0], points[1], start, 0)[0]
        _, q, (ux, uy) = _along(points[-2], points[-1], 0, end)
    hx, hy = q[0] - ux * 11, q[1] - uy * 11
    nx, ny = -uy * 5.5, ux * 5.5
    line = [[p, *points[1:-1], (hx, hy)]]
    canvas.shape(line, None, "#000", width + 2, dash, closed=False)
    canvas.shape(line, None, color, width, dash, closed=False)
    canvas.shape(
        [[q, (hx + nx, hy + ny), (hx - nx, hy - ny)]], color, "#000", 1.0, attrs={"data-head": "1"}
    )


def link(
    canvas: Canvas,
    a: Point,
    b: Point,
    color: str,
    dash: Sequence[float],
    end: float = 4.0,
    start: float = 12.0,
) -> None:
    """A dashed or dotted line from a to b ending in a small open circle."""
    p, q, _ = _along(a, b, start, end)
    canvas.shape([[p, q]], None, "#000", 4.2, dash, closed=False)
    canvas.shape([[p, q]], None, color, 2.4, dash, closed=False)
    canvas.circle(q, 3.5, "#fff", "#000", 1.0, attrs={"data-head": "1"})


def cross(canvas: Canvas, at: Point, size: float = 6.0) -> None:
    """A failed order's mark: a red X (a group with data-mark="failed")."""
    _mark(canvas, "failed", at, size, partial(_cross, at, size))


def _cross(at: Point, size: float, canvas: Canvas) -> None:
    x, y = at
    lines = [
        [(x - size, y - size), (x + size, y + size)],
        [(x - size, y + size), (x + size, y - size)],
    ]
    canvas.shape(lines, None, "#fff", 5.5, closed=False)
    canvas.shape(lines, None, FAIL, 3.0, closed=False)


def removal(canvas: Canvas, at: Point, r: float = 15.0) -> None:
    """A removed unit's mark (a disband, a unit destroyed): a dark ring struck through
    once, like a "no entry" sign, over the unit; unlike a failed order's red X, it is
    neither red nor crossed (a group with data-mark="removed")."""
    _mark(canvas, "removed", at, r, partial(_removal, at, r))


def _mark(
    canvas: Canvas, mark: str, at: Point, size: float, draw: Callable[[Canvas], None]
) -> None:
    """A mark `draw` draws within `size` of `at` (and its white line), stamped, in a
    group with data-mark=`mark`."""
    x, y = at
    reach = size + 2.75 + 1  # the white line's half width, and antialiasing
    canvas.begin({"data-mark": mark})
    box = (x - reach, y - reach, x + reach, y + reach)
    canvas.stamp((mark, at, size), box, draw)
    canvas.end()


def _removal(at: Point, r: float, canvas: Canvas) -> None:
    x, y = at
    d = r * 0.7071
    slash = [[(x - d, y + d), (x + d, y - d)]]
    canvas.circle(at, r, None, "#fff", 5.0)
    canvas.shape(slash, None, "#fff", 5.5, closed=False)
    canvas.circle(at, r, None, REMOVED, 3.0)
    canvas.shape(slash, None, REMOVED, 3.0, closed=False)
