"""The legend beside the map: title and phase, each power's centres and units, the key
of the symbols and the count of orders."""

from __future__ import annotations

from collections.abc import Callable

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.render.canvas import Canvas, Hatch, Point
from judge.render.drawing import Drawing, PowerStyle
from judge.render.orders import Order
from judge.render.symbols import FAIL, arrow, cross, link, removal, unit_symbol

LEGEND_WIDTH = 220
# The key's army and fleet: no power's colour or letter (a letter "A" could read as Army).
KEY_STYLE = PowerStyle("#d9d9d9", "#ececec", "#000", "", "", Hatch("key", "dots", "#d9d9d9"))


def draw_legend(
    canvas: Canvas,
    before: Position,
    board: Position,
    dr: Drawing,
    caption: str | None,
    orders: list[Order],
    after: bool,
) -> None:
    """The panel right of the map: the title and phase, each power's centres and units,
    the key of the symbols and the count of orders."""
    x0 = dr.width
    canvas.begin({"id": "legend"})
    canvas.shape(
        [[(x0, 0), (x0 + LEGEND_WIDTH, 0), (x0 + LEGEND_WIDTH, dr.height), (x0, dr.height)]],
        "#fbfaf6",
        dr.border_color,
        1.0,
    )
    y = _legend_heading(canvas, before, board, x0 + 12, caption, orders, after)
    y = _legend_powers(canvas, before.game_map, board, dr, x0, y + 28)
    y = _legend_key(canvas, x0 + 12, y + 14)
    if orders:
        failed = sum(o.failed for o in orders)
        y += 32
        words = f"{len(orders)} order{'s' if len(orders) != 1 else ''}, {failed} failed"
        canvas.text((x0 + 12, y), words, 12, anchor="start", attrs={"data-legend": "orders"})
    canvas.end()


def _legend_heading(
    canvas: Canvas,
    before: Position,
    board: Position,
    x: float,
    caption: str | None,
    orders: list[Order],
    after: bool,
) -> int:
    """The map's title, the phase, what is drawn and the caption; the last line's y."""
    canvas.text((x, 26), before.game_map.title, 15, bold=True, anchor="start")
    canvas.text(
        (x, 48),
        before.phase.long_name,
        14,
        anchor="start",
        attrs={"data-legend": "phase", "data-phase": str(before.phase)},
    )
    y = 48
    if orders or after:
        y += 18
        words = "orders and results" if any(o.result for o in orders) else "orders"
        canvas.text((x, y), words, 12, "#444", anchor="start")
    if after:
        y += 18
        canvas.text(
            (x, y),
            f"Now: {board.phase.long_name}",
            12,
            anchor="start",
            attrs={"data-legend": "next", "data-phase": str(board.phase)},
        )
    for line in (caption or "").splitlines():
        y += 18
        canvas.text((x, y), line, 12, "#444", anchor="start", attrs={"data-legend": "caption"})
    return y


def _legend_powers(
    canvas: Canvas, gm: GameMap, board: Position, dr: Drawing, x0: int, y: int
) -> int:
    """The table of powers (swatch, name, centres, units) from `y`; the y below it."""
    x = x0 + 12
    canvas.text((x, y), "Power", 12, bold=True, anchor="start")
    canvas.text((x0 + 150, y), "SCs", 12, bold=True, anchor="end")
    canvas.text((x0 + 200, y), "Units", 12, bold=True, anchor="end")
    y += 8
    for key, power in gm.powers.items():
        s = dr.powers.get(key)
        if s is None:
            continue
        n = len(board.centers.get(key, ()))
        units = len(board.units_of(key))
        canvas.begin({"data-power": key, "data-centers": str(n), "data-units": str(units)})
        box = [[(x, y), (x + 22, y), (x + 22, y + 16), (x, y + 16)]]
        canvas.shape(box, s.tint, "#000", 1.0)
        canvas.shape(box, s.hatch)
        canvas.circle((x + 11, y + 8), 6.5, s.color, "#000", 1.0)
        canvas.text((x + 11, y + 12), s.letter, 9, s.ink, bold=True)
        canvas.text((x + 30, y + 13), power.name, 12, anchor="start")
        canvas.text((x0 + 150, y + 13), str(n), 12, anchor="end")
        canvas.text((x0 + 200, y + 13), str(units), 12, anchor="end")
        canvas.end()
        y += 22
    return y


def _legend_key(canvas: Canvas, x: float, y: int) -> int:
    """The key of the symbols from `y`; the y of its last row."""
    canvas.text((x, y), "Key", 12, bold=True, anchor="start")
    y += 10
    for label, symbol in _key_rows(canvas, x + 10):
        y += 25
        symbol(y)
        canvas.text((x + 62, y + 4), label, 12, anchor="start")
    return y


def _key_rows(canvas: Canvas, sx: float) -> list[tuple[str, Callable[[float], None]]]:
    """Each symbol of the key and what draws it at a given y; `sx`: where it starts."""
    ink = "#555"
    return [
        ("Army", lambda y: unit_symbol(canvas, "A", KEY_STYLE, (sx + 12, y))),
        ("Fleet", lambda y: unit_symbol(canvas, "F", KEY_STYLE, (sx + 12, y + 2))),
        ("Move", lambda y: arrow(canvas, (sx - 10, y), (sx + 36, y), ink, None, 3.0, 0, 0)),
        (
            "Move by convoy",
            lambda y: arrow(canvas, (sx - 10, y), (sx + 36, y), ink, (9, 4), 3.0, 0, 0),
        ),
        ("Support", lambda y: link(canvas, (sx - 10, y), (sx + 36, y), ink, (7, 4), 4, 0)),
        ("Convoy", lambda y: link(canvas, (sx - 10, y), (sx + 36, y), ink, (1.5, 4), 4, 0)),
        ("Hold", lambda y: canvas.circle((sx + 12, y), 10, None, "#000", 2.5)),
        ("Failed order", lambda y: cross(canvas, (sx + 12, y))),
        ("Dislodged unit", lambda y: canvas.circle((sx + 12, y), 10, None, FAIL, 2.0, (4, 2))),
        ("Removed unit", lambda y: removal(canvas, (sx + 12, y), 10)),
        ("Build", lambda y: canvas.circle((sx + 12, y), 10, None, "#000", 2.0, (4, 3))),
        ("Supply centre", lambda y: _centre_key(canvas, (sx + 12, y))),
    ]


def _centre_key(canvas: Canvas, at: Point) -> None:
    """The key's supply centre: a ring and a black dot."""
    canvas.circle(at, 5.2, "#fff", "#000", 1.2)
    canvas.circle(at, 2.8, "#000", "#000", 0.7)
