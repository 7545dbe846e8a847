"""The board picture: provinces tinted by owner, units, the phase's orders, a legend.

Pure: a position (a `Position`, or the Contract 1 position JSON), optionally the phase's
results (the Contract 1 output, or only its `results` mapping, or plain order strings per
power) and optionally the position the phase led to, in; a picture out, drawn through a
canvas (judge/render/canvas.py): SVG text by `render_svg`, PNG bytes by
judge/render/png.py `render_png`. The drawing data comes from `maps/<map>_drawing.toml`;
nothing here names a province.

Two views of a phase, with the same orders drawn from the order texts:
- without `after`: the board as the phase began (the orders given on it);
- with `after`: the board the phase led to (units where they now stand, centres as now
  owned) with the arrows of how it got there. This is the picture of a results mail.

In the SVG every unit is one element with `data-unit` ("F STP/SC") and `data-power`,
every order one element with `data-order` (its canonical text), `data-power` and
`data-result`; failed orders carry `data-failed="true"` and a red cross; dislodged units
are drawn beside their province in a dashed red ring with `data-dislodged="true"`. Hue is
never the only cue: each power also has a pattern (on the centres it owns) and a letter
(on its units and in the legend).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.board import Position
from judge.engine.geography import IMPASSABLE, SEA, GameMap
from judge.render.canvas import Canvas, Hatch, Point, SvgCanvas
from judge.render.drawing import Drawing, PowerStyle, drawing_for

LEGEND_WIDTH = 220
FAIL = "#d00000"
DISPLACE = (20.0, 17.0)  # where a dislodged unit is drawn, from its province's unit point
# The key's army and fleet: no power's colour or letter (a letter "A" could read as Army).
KEY_STYLE = PowerStyle("#d9d9d9", "#ececec", "#000", "", "", Hatch("key", "dots", "#d9d9d9"))


# -- input ------------------------------------------------------------------------------


def as_position(position: Position | Mapping[str, Any]) -> Position:
    """A Position as it is; the Contract 1 position JSON read into one."""
    if isinstance(position, Position):
        return position
    from judge.variants.json_contract import position_from_json  # the Contract 1 reader

    return position_from_json(dict(position))[0]


@dataclass(frozen=True)
class Order:
    power: str
    text: str
    result: str | None
    given: str | None
    tokens: tuple[str, ...]

    @property
    def failed(self) -> bool:
        return self.result not in (None, "ok")

    @property
    def unit(self) -> str:
        return " ".join(self.tokens[:2])


def orders_of(results: Mapping[str, Any] | None) -> list[Order]:
    """The orders of a results mapping, whichever of its three shapes it has."""
    if not results:
        return []
    by_power = results.get("results", results)
    out = []
    for power, items in by_power.items():
        if not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, str):
                text, result, given = item, None, None
            else:
                text, result = item.get("order", ""), item.get("result")
                given = item.get("given")
            tokens = tuple(text.upper().split())
            out.append(Order(str(power).upper(), text, result, given, tokens))
    return out


# -- geometry ---------------------------------------------------------------------------


def _along(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    start, end = min(start, d * 0.3), min(end, d * 0.3)
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end), (ux, uy)


def _mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _offset(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    """The segment a-b moved `by` to its right (so two opposite moves run side by side)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * by, dx / d * by
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


# -- symbols -----------------------------------------------------------------------------

_FLEET_HULL = ((-14, -2), (14, -2), (9, 8), (-9, 8))
_FLEET_SAIL = ((-1, -3), (-1, -16), (10, -4))


def _unit_symbol(
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


def _arrow(
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
    p, q, (ux, uy) = _along(a, b, start, end)
    hx, hy = q[0] - ux * 11, q[1] - uy * 11
    nx, ny = -uy * 5.5, ux * 5.5
    line = [[p, (hx, hy)]]
    canvas.shape(line, None, "#000", width + 2, dash, closed=False)
    canvas.shape(line, None, color, width, dash, closed=False)
    canvas.shape([[q, (hx + nx, hy + ny), (hx - nx, hy - ny)]], color, "#000", 1.0)


def _link(
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
    canvas.circle(q, 3.5, "#fff", "#000", 1.0)


def _cross(canvas: Canvas, at: Point, size: float = 6.0) -> None:
    x, y = at
    lines = [
        [(x - size, y - size), (x + size, y + size)],
        [(x - size, y + size), (x + size, y - size)],
    ]
    canvas.shape(lines, None, "#fff", 5.5, closed=False)
    canvas.shape(lines, None, FAIL, 3.0, closed=False)


# -- the picture ---------------------------------------------------------------------------


# A unit of the picture's orders or dislodged units: (power, "A TRI").
UnitKey = tuple[str, str]


@dataclass(frozen=True)
class _Dislodged:
    """Where the dislodged units are drawn, beside their provinces."""

    displaced: dict[UnitKey, Point]  # on the board drawn
    destroyed: set[UnitKey]  # dislodged with nowhere to go: gone in the board after
    origin: dict[UnitKey, Point]  # where each order's unit stood (a retreating one: beside)


def draw_board(
    canvas: Canvas,
    position: Position | Mapping[str, Any],
    results: Mapping[str, Any] | None = None,
    *,
    after: Position | Mapping[str, Any] | None = None,
    caption: str | None = None,
    drawing: Drawing | None = None,
) -> None:
    """Draw the board onto `canvas` (see the module's docstring for the arguments)."""
    before = as_position(position)
    board = as_position(after) if after is not None else before
    gm = before.game_map
    dr = drawing or drawing_for(gm)
    orders = orders_of(results)
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    dislodged = _dislodged(before, board, dr, orders, after is not None)

    _draw_provinces(canvas, gm, dr, board, owner)
    _draw_centers(canvas, gm, dr, owner)
    _draw_labels(canvas, gm, dr)
    _draw_units(canvas, dr, board, dislodged, after is not None)
    # orders
    moves = {o.tokens[1]: o.tokens[3] for o in orders if len(o.tokens) >= 4 and o.tokens[2] == "-"}
    present = {(u.power, str(u)) for u in board.units}
    canvas.begin({"id": "orders"})
    for o in orders:
        _order(canvas, o, dr, moves, dislodged.origin, present, gm)
    canvas.end()

    _legend(canvas, before, board, dr, caption, orders, after is not None)


def _dislodged(
    before: Position, board: Position, dr: Drawing, orders: list[Order], with_after: bool
) -> _Dislodged:
    """The dislodged units of the board drawn (and, of a movement phase, those its
    results dislodge), each displaced from its province's unit point."""
    displaced: dict[UnitKey, Point] = {}
    destroyed: set[UnitKey] = set()
    for d in board.dislodged:
        displaced[(d.unit.power, str(d.unit))] = _displace(dr.point(d.unit.location))
    if before.phase.kind == "M":
        for o in orders:
            if o.result == "dislodged" and len(o.tokens) >= 2:
                key = (o.power, o.unit)
                if key not in displaced:
                    with_point = _safe_point(dr, o.tokens[1])
                    if with_point is not None:
                        displaced[key] = _displace(with_point)
                        if with_after:
                            destroyed.add(key)
    # Where each order's unit stood: a retreating unit beside its province.
    origin: dict[UnitKey, Point] = dict(displaced)
    for d in before.dislodged:
        origin[(d.unit.power, str(d.unit))] = _displace(dr.point(d.unit.location))
    return _Dislodged(displaced, destroyed, origin)


def _draw_provinces(
    canvas: Canvas, gm: GameMap, dr: Drawing, board: Position, owner: dict[str, str]
) -> None:
    """The sea, each province filled by its owner (or occupier) with the owner's pattern
    over the centres it owns, then the drawing's decor (lakes, impassable land)."""
    occupant = {u.province: u.power for u in board.units}
    W, H = dr.width, dr.height
    canvas.shape([[(0, 0), (W, 0), (W, H), (0, H)]], dr.sea_color)
    canvas.begin({"id": "provinces"})
    # Seas first, then land: a coast drawn a little into a sea's outline stays land.
    for key, prov in sorted(gm.provinces.items(), key=lambda kv: kv[1].kind != SEA):
        pd = dr.provinces.get(key)
        if pd is None:
            continue
        who = owner.get(key) or (occupant.get(key) if prov.kind != SEA else None)
        if prov.kind == SEA:
            fill = dr.sea_color
        elif prov.kind == IMPASSABLE:
            fill = dr.impassable_color
        elif who is not None and who in dr.powers:
            fill = dr.powers[who].tint
        else:
            fill = dr.land_color
        attrs = {"data-province": key}
        if who and prov.kind != SEA:
            attrs["data-owner"] = who
        canvas.shape(pd.rings, fill, dr.border_color, 0.9, attrs=attrs, data=pd.path)
        if key in owner and owner[key] in dr.powers:
            canvas.shape(pd.rings, dr.powers[owner[key]].hatch, data=pd.path)
    canvas.end()
    canvas.begin({"id": "decor"})
    for d in dr.decor:
        fill = dr.sea_color if d.kind == "lake" else dr.impassable_color
        canvas.shape(d.rings, fill, dr.border_color, 0.9, attrs={"data-decor": d.name}, data=d.path)
    canvas.end()


def _draw_centers(canvas: Canvas, gm: GameMap, dr: Drawing, owner: dict[str, str]) -> None:
    """Each supply centre: a ring, its dot in its owner's colour."""
    canvas.begin({"id": "centers"})
    for c in sorted(gm.supply_centers):
        pd = dr.provinces.get(c)
        if pd is None or pd.center is None:
            continue
        who = owner.get(c)
        attrs = {"data-center": c}
        if who:
            attrs["data-owner"] = who
        canvas.begin(attrs)
        canvas.circle(pd.center, 5.2, "#fff", "#000", 1.2)
        dot = dr.powers[who].color if who is not None and who in dr.powers else "#fff"
        canvas.circle(pd.center, 2.8, dot, "#000", 0.7)
        canvas.end()
    canvas.end()


def _draw_labels(canvas: Canvas, gm: GameMap, dr: Drawing) -> None:
    """The provinces' names: seas in italic blue, land haloed."""
    canvas.begin({"id": "labels"})
    for key, prov in gm.provinces.items():
        pd = dr.provinces.get(key)
        if pd is None or prov.kind == IMPASSABLE:
            continue
        if prov.kind == SEA:
            text = pd.label_text or key
            canvas.text(pd.label, text, 9.5, "#2f5d80", italic=True)
        else:
            text = pd.label_text or key.title()
            canvas.text(pd.label, text, 9.5, "#222", halo="#fff")
    canvas.end()


def _draw_units(
    canvas: Canvas, dr: Drawing, board: Position, dislodged: _Dislodged, with_after: bool
) -> None:
    """The units, one element each; then the dislodged ones, displaced in a red ring."""
    displaced, destroyed = dislodged.displaced, dislodged.destroyed
    canvas.begin({"id": "units"})
    for u in board.units:
        if (u.power, str(u)) in displaced and not with_after:
            continue  # drawn below, displaced
        style = dr.powers[u.power]
        canvas.begin({"data-unit": str(u), "data-power": u.power})
        _unit_symbol(canvas, u.kind, style, dr.point(u.location))
        canvas.end()
    for (power, text), at in displaced.items():
        kind, loc = text.split()
        attrs = {"data-unit": text, "data-power": power, "data-dislodged": "true"}
        if (power, text) in destroyed:
            attrs["data-destroyed"] = "true"
        canvas.begin(attrs, 0.6 if (power, text) in destroyed else 1.0)
        home = dr.point(loc)
        canvas.shape([[home, at]], None, FAIL, 1.5, (3, 2), closed=False)
        canvas.circle(at, 14, "#fff", FAIL, 2.0, (4, 2))
        _unit_symbol(canvas, kind, dr.powers[power], at)
        canvas.end()
    canvas.end()


def _displace(at: Point) -> Point:
    return (at[0] + DISPLACE[0], at[1] + DISPLACE[1])


def _safe_point(dr: Drawing, location: str) -> Point | None:
    try:
        return dr.point(location)
    except KeyError:
        return None


def _order(
    canvas: Canvas,
    o: Order,
    dr: Drawing,
    moves: dict[str, str],
    origin: dict[UnitKey, Point],
    present: set[UnitKey],
    gm: GameMap,
) -> None:
    """One order, in a group carrying its text, power and result."""
    style = dr.powers.get(o.power)
    color = style.color if style else "#000"
    attrs = {"data-order": o.text, "data-power": o.power}
    if o.result is not None:
        attrs["data-result"] = o.result
    if o.failed:
        attrs["data-failed"] = "true"
    canvas.begin(attrs, 0.85 if o.failed else 1.0)
    # an order naming a place the drawing does not know: listed in the mail, not drawn
    with contextlib.suppress(KeyError, IndexError, ValueError):
        _order_body(canvas, o, dr, moves, origin, present, style, color, gm)
    canvas.end()


def _order_body(
    canvas: Canvas,
    o: Order,
    dr: Drawing,
    moves: dict[str, str],
    origin: dict[UnitKey, Point],
    present: set[UnitKey],
    style: PowerStyle | None,
    color: str,
    gm: GameMap,
) -> None:
    """The order's arrow, link, ring or cross (KeyError: a place the drawing lacks)."""
    t = o.tokens
    if len(t) < 3:
        return  # WAIVE, or text the judge did not understand
    unit = o.unit
    here = origin.get((o.power, unit)) or dr.point(t[1])
    verb = t[2]
    fail_at: Point | None = None
    if verb == "-":  # a move
        there = dr.point(t[3])
        a, b = here, there
        if moves.get(t[3]) == t[1]:  # the other way too: run side by side
            a, b = _offset(here, there, 4.0)
        # by convoy: said so, or an army going where it cannot march
        convoyed = "VIA" in t[4:] or (
            t[0] == "A" and not gm.can_reach("A", t[1], t[3].partition("/")[0])
        )
        _arrow(canvas, a, b, color, (9, 4) if convoyed else None)
        fail_at = _mid(a, b)
    elif verb == "H":
        if o.given == "":
            return  # no order was given: the unit held by default; nothing to draw
        canvas.circle(here, 15, None, "#000", 4.5)
        canvas.circle(here, 15, None, color, 2.5)
        fail_at = (here[0] + 11, here[1] - 11)
    elif verb in ("S", "C"):
        fail_at = _support_or_convoy(canvas, t, dr, moves, here, color)
    elif verb == "R":  # a retreat
        there = dr.point(t[3])
        _arrow(canvas, here, there, color, None, 2.5)
        fail_at = _mid(here, there)
    elif verb == "D":  # a disband or a removal: the unit struck out
        if style and (o.power, unit) not in present:
            _unit_symbol(canvas, t[0], style, here, ghost=True)
        _cross(canvas, here, 10)
    elif verb == "B":  # a build: the new unit in a dashed ring
        x, y = dr.point(t[1])
        canvas.circle((x, y), 16, None, "#000", 2.0, (4, 3))
        if style and (o.power, unit) not in present:
            _unit_symbol(canvas, t[0], style, (x, y), ghost=True)
        fail_at = (x + 12, y - 12)
    if o.failed and fail_at is not None:
        _cross(canvas, fail_at)


def _support_or_convoy(
    canvas: Canvas,
    t: tuple[str, ...],
    dr: Drawing,
    moves: dict[str, str],
    here: Point,
    color: str,
) -> Point:
    """A support's (dashed) or convoy's (dotted) link to the unit or move it is for;
    where its cross goes, should it fail."""
    rest = list(t[3:])
    if rest and rest[0] in ("A", "F"):
        rest = rest[1:]
    src = dr.point(rest[0])
    if len(rest) >= 3 and rest[1] == "-":
        dest = dr.point(rest[2])
        if moves.get(rest[2].split("/")[0]) == rest[0] or moves.get(rest[2]) == rest[0]:
            src, dest = _offset(src, dest, 4.0)
        to, end = _mid(src, dest), 4.0
    else:
        to, end = src, 15.0
    _link(canvas, here, to, color, (7, 4) if t[2] == "S" else (1.5, 4), end)
    return _mid(here, to)


def _legend(
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
        ("Army", lambda y: _unit_symbol(canvas, "A", KEY_STYLE, (sx + 12, y))),
        ("Fleet", lambda y: _unit_symbol(canvas, "F", KEY_STYLE, (sx + 12, y + 2))),
        ("Move", lambda y: _arrow(canvas, (sx - 10, y), (sx + 36, y), ink, None, 3.0, 0, 0)),
        (
            "Move by convoy",
            lambda y: _arrow(canvas, (sx - 10, y), (sx + 36, y), ink, (9, 4), 3.0, 0, 0),
        ),
        ("Support", lambda y: _link(canvas, (sx - 10, y), (sx + 36, y), ink, (7, 4), 4, 0)),
        ("Convoy", lambda y: _link(canvas, (sx - 10, y), (sx + 36, y), ink, (1.5, 4), 4, 0)),
        ("Hold", lambda y: canvas.circle((sx + 12, y), 10, None, "#000", 2.5)),
        ("Failed order", lambda y: _cross(canvas, (sx + 12, y))),
        ("Dislodged unit", lambda y: canvas.circle((sx + 12, y), 10, None, FAIL, 2.0, (4, 2))),
        ("Build", lambda y: canvas.circle((sx + 12, y), 10, None, "#000", 2.0, (4, 3))),
        ("Supply centre", lambda y: _centre_key(canvas, (sx + 12, y))),
    ]


def _centre_key(canvas: Canvas, at: Point) -> None:
    """The key's supply centre: a ring and a black dot."""
    canvas.circle(at, 5.2, "#fff", "#000", 1.2)
    canvas.circle(at, 2.8, "#000", "#000", 0.7)


def render_svg(
    position: Position | Mapping[str, Any],
    results: Mapping[str, Any] | None = None,
    *,
    after: Position | Mapping[str, Any] | None = None,
    caption: str | None = None,
    drawing: Drawing | None = None,
) -> str:
    """The board as SVG text (see the module's docstring)."""
    before = as_position(position)
    dr = drawing or drawing_for(before.game_map)
    canvas = SvgCanvas(
        dr.width + LEGEND_WIDTH,
        dr.height,
        {"data-map": before.game_map.name, "data-phase": str(before.phase)},
    )
    draw_board(canvas, before, results, after=after, caption=caption, drawing=dr)
    return canvas.svg()
