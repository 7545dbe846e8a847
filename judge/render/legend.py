"""The legend beside the map: title and phase, each power's centres and units, the key
of the symbols and the count of orders.

Up to ONE_COLUMN_POWERS powers the panel is LEGEND_WIDTH wide with one column of powers;
a map with more (Chaos: 34) gets a panel WIDE_LEGEND_WIDTH wide, its powers and its key
in two columns, the powers' rows shrunk to fit the picture's height. The title is
wrapped onto TITLE_LINES lines, a power's name cut to NAME_CHARS characters, so nothing
runs off the picture."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Literal

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.render.canvas import Canvas, Hatch, Point
from judge.render.drawing import Drawing, PowerStyle
from judge.render.orders import Order
from judge.render.symbols import FAIL, arrow, cross, link, removal, unit_symbol

Part = Literal["all", "fixed", "varying"]
LEGEND_WIDTH = 220
WIDE_LEGEND_WIDTH = 400  # two columns of LEGEND_WIDTH's, a little narrower
ONE_COLUMN_POWERS = 12  # more powers than this: the wide panel
TITLE_LINES = 3
NAME_CHARS = 16
ROW = 22  # a power's row, when there is room for it
KEY_ROW = 25
COLUMN = 192  # from one column of the wide panel to the next
# Where a power's name starts and its centres and units end, from the row's left, in the
# one-column panel and in the two-column one.
ONE_COLUMN = (30, 138, 188)
TWO_COLUMNS = (26, 140, 178)
# The key's army and fleet: no power's colour or letter (a letter "A" could read as Army).
KEY_STYLE = PowerStyle("#d9d9d9", "#ececec", "#000", "", "", Hatch("key", "dots", "#d9d9d9"))


def legend_width(gm: GameMap) -> int:
    """How wide the legend beside the map of `gm` is (see the module's docstring)."""
    return LEGEND_WIDTH if len(gm.powers) <= ONE_COLUMN_POWERS else WIDE_LEGEND_WIDTH


def draw_legend(
    canvas: Canvas,
    before: Position,
    board: Position,
    dr: Drawing,
    caption: str | None,
    orders: list[Order],
    after: bool,
    part: Part = "all",
) -> None:
    """The panel right of the map: the title and phase, each power's centres and units,
    the key of the symbols and the count of orders. `part`: all of it, or only what is
    the same on every picture of the map with this `layout_key` ("fixed", drawn once
    into a cached layer by judge/render/layers.py), or only the rest ("varying")."""
    x0, width = dr.width, legend_width(before.game_map)
    columns = 1 if width == LEGEND_WIDTH else 2
    fixed = Only(canvas, part != "varying")
    varying = Only(canvas, part != "fixed")
    canvas.begin({"id": "legend"})
    fixed.shape(
        [[(x0, 0), (x0 + width, 0), (x0 + width, dr.height), (x0, dr.height)]],
        "#fbfaf6",
        dr.border_color,
        1.0,
    )
    y = _legend_heading(fixed, varying, before, board, x0 + 12, caption, orders, after, width)
    key_rows = math.ceil(len(_key_rows(canvas, 0)) / columns)
    room = dr.height - (y + 28) - (24 + key_rows * KEY_ROW) - (32 if orders else 0) - 8
    y = _legend_powers(fixed, varying, before.game_map, board, dr, (x0, y + 28), columns, room)
    y = _legend_key(fixed, x0 + 12, y + 14, columns)
    if orders:
        failed = sum(o.failed for o in orders)
        y += 32
        words = f"{len(orders)} order{'s' if len(orders) != 1 else ''}, {failed} failed"
        varying.text((x0 + 12, y), words, 12, anchor="start", attrs={"data-legend": "orders"})
    canvas.end()


def layout_key(
    before: Position, board: Position, caption: str | None, orders: list[Order], after: bool
) -> tuple[int, bool]:
    """What the place of the legend's fixed part depends on beyond the map: the height of
    its heading (the phase, what is drawn, the caption's lines) and whether orders are
    counted under the key."""
    nowhere = Only(None, False)
    width = legend_width(before.game_map)
    y = _legend_heading(nowhere, nowhere, before, board, 0, caption, orders, after, width)
    return y, bool(orders)


class Only:
    """A canvas's drawing calls passed on when `draw` is true, dropped otherwise: the
    legend draws its fixed and its varying parts each through one of these."""

    def __init__(self, canvas: Canvas | None, draw: bool) -> None:
        self.canvas = canvas if draw else None

    def begin(self, attrs: Mapping[str, str] | None = None, opacity: float = 1.0) -> None:
        if self.canvas is not None:
            self.canvas.begin(attrs, opacity)

    def end(self) -> None:
        if self.canvas is not None:
            self.canvas.end()

    def shape(self, *args: Any, **kwargs: Any) -> None:
        if self.canvas is not None:
            self.canvas.shape(*args, **kwargs)

    def circle(self, *args: Any, **kwargs: Any) -> None:
        if self.canvas is not None:
            self.canvas.circle(*args, **kwargs)

    def text(self, *args: Any, **kwargs: Any) -> None:
        if self.canvas is not None:
            self.canvas.text(*args, **kwargs)

    def stamp(self, *args: Any, **kwargs: Any) -> None:
        if self.canvas is not None:
            self.canvas.stamp(*args, **kwargs)


def _legend_heading(
    fixed: Only,
    canvas: Only,
    before: Position,
    board: Position,
    x: float,
    caption: str | None,
    orders: list[Order],
    after: bool,
    width: int,
) -> int:
    """The map's title (wrapped; through `fixed`), the phase, what is drawn and the
    caption (through `canvas`); the last line's y."""
    y = 26
    for line in _title_lines(before.game_map.title, width):
        fixed.text((x, y), line, 15, bold=True, anchor="start", attrs={"data-legend": "title"})
        y += 19
    y += 3
    canvas.text(
        (x, y),
        before.phase.long_name,
        14,
        anchor="start",
        attrs={"data-legend": "phase", "data-phase": str(before.phase)},
    )
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


def _title_lines(title: str, width: int) -> list[str]:
    """The title (bold 15) in lines that fit the panel, words kept whole where they fit,
    at most TITLE_LINES, the last cut with an ellipsis when there is more."""
    room = width - 24
    lines: list[str] = []
    line = ""
    for word in title.split():
        while _bold_width(word) > room:  # a word too long for any line: broken
            cut = max(1, max(k for k in range(len(word) + 1) if _bold_width(word[:k]) <= room))
            lines += [line] if line else []
            lines.append(word[:cut])
            line, word = "", word[cut:]
        if not word:
            continue
        joined = f"{line} {word}" if line else word
        if _bold_width(joined) <= room:
            line = joined
        else:
            lines.append(line)
            line = word
    lines += [line] if line else []
    if len(lines) > TITLE_LINES:
        last = lines[TITLE_LINES - 1]
        while last and _bold_width(last + "\u2026") > room:
            last = last[:-1]
        lines = [*lines[: TITLE_LINES - 1], last + "\u2026"]
    return lines or [""]


def _bold_width(text: str, size: float = 15) -> float:
    """A safe width of `text` in bold DejaVu Sans (the SVG has no font metrics): wide
    letters an em, capitals and other scripts 0.8, the rest 0.62; bold 8% wider."""
    ems = sum(
        1.0 if c in "MWmw@%" else 0.8 if c.isupper() or not c.isascii() else 0.62 for c in text
    )
    return ems * size * 1.08


def _cut(name: str) -> str:
    """A power's name as the legend shows it: NAME_CHARS characters at most."""
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "\u2026"


def _legend_powers(
    canvas: Only,
    varying: Only,
    gm: GameMap,
    board: Position,
    dr: Drawing,
    corner: tuple[int, int],
    columns: int,
    room: float,
) -> int:
    """The table of powers (swatch, name, centres, units) from `corner` (x0, y), in
    `columns` columns, its rows shrunk to fit `room` when they must; the y below it.
    The counts are drawn through `varying`, the rest through `canvas`."""
    x0, y = corner
    shown = [(key, power) for key, power in gm.powers.items() if key in dr.powers]
    rows = math.ceil(len(shown) / columns) or 1
    row = ROW if columns == 1 else max(12.0, min(ROW, room / rows))
    at = ONE_COLUMN if columns == 1 else TWO_COLUMNS
    for c in range(columns):
        x = x0 + 12 + c * COLUMN
        canvas.text((x, y), "Power", 12, bold=True, anchor="start")
        canvas.text((x + at[1], y), "SCs", 12, bold=True, anchor="end")
        canvas.text((x + at[2], y), "Units", 12, bold=True, anchor="end")
    for i, (key, power) in enumerate(shown):
        c, r = divmod(i, rows)
        where = (x0 + 12 + c * COLUMN, y + 8 + r * row)
        row_canvas = (canvas, varying)
        _power_row(row_canvas, board, dr.powers[key], key, _cut(power.name), where, row, at)
    return round(y + 8 + rows * row)


def _power_row(
    canvases: tuple[Only, Only],
    board: Position,
    s: PowerStyle,
    key: str,
    name: str,
    where: Point,
    row: float,
    at: tuple[int, int, int],
) -> None:
    """One power's row of the table: its swatch and letter, name, centres and units;
    `row` high (22 at most: the swatch 16 and the text 12 shrink with it). The counts
    through the second canvas, the rest through the first."""
    canvas, varying = canvases
    x, y = where
    n = len(board.centers.get(key, ()))
    units = len(board.units_of(key))
    h = row - 6
    size = min(12.0, row * 0.6)
    canvas.begin({"data-power": key, "data-centers": str(n), "data-units": str(units)})
    box = [[(x, y), (x + 22, y), (x + 22, y + h), (x, y + h)]]
    canvas.shape(box, s.tint, "#000", 1.0)
    canvas.shape(box, s.hatch)
    canvas.circle((x + 11, y + h / 2), min(6.5, h / 2 - 1), s.color, "#000", 1.0)
    canvas.text((x + 11, y + h / 2 + 4 * h / 16), s.letter, 9 * h / 16, s.ink, bold=True)
    base = y + h / 2 + size * 5 / 12
    canvas.text((x + at[0], base), name, size, anchor="start", attrs={"data-legend": "power"})
    varying.text((x + at[1], base), str(n), size, anchor="end")
    varying.text((x + at[2], base), str(units), size, anchor="end")
    canvas.end()


def _legend_key(canvas: Only, x: float, y: int, columns: int = 1) -> int:
    """The key of the symbols from `y`, in `columns` columns; the y of its last row."""
    canvas.text((x, y), "Key", 12, bold=True, anchor="start")
    y += 10
    by_column = [_key_rows(canvas, x + 10 + c * COLUMN) for c in range(columns)]
    per_column = math.ceil(len(by_column[0]) / columns)
    for i in range(len(by_column[0])):
        c, r = divmod(i, per_column)
        label, symbol = by_column[c][i]
        at = y + (r + 1) * KEY_ROW
        symbol(at)
        canvas.text((x + 62 + c * COLUMN, at + 4), label, 12, anchor="start")
    return y + per_column * KEY_ROW


def _key_rows(canvas: Canvas | Only, sx: float) -> list[tuple[str, Callable[[float], None]]]:
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
