"""The board picture: provinces tinted by owner, units, the phase's orders, a legend.

Pure: a position (a `Position`, or the Contract 1 position JSON), optionally the phase's
results (the Contract 1 output, or only its `results` mapping, or plain order strings per
power) and optionally the position the phase led to, in; a picture out, drawn through a
canvas (judge/render/canvas.py): SVG text by `render_svg`, PNG bytes by
judge/render/png.py `render_png`. The drawing data comes from `maps/<map>_drawing.toml`,
or for a map with none from its schematic board (judge/render/schematic.py); nothing here
names a province.

Two views of a phase, with the same orders drawn from the order texts:
- without `after`: the board as the phase began (the orders given on it);
- with `after`: the board the phase led to (units where they now stand, centres as now
  owned) with the arrows of how it got there. This is the picture of a results mail.

In the SVG every unit is one element with `data-unit` ("F STP/SC") and `data-power`,
every order one element with `data-order` (its canonical text), `data-power` and
`data-result`; failed orders carry `data-failed="true"` and a red cross
(`data-mark="failed"`); removals (disbands, units destroyed with nowhere to retreat) a
dark struck ring (`data-mark="removed"`); dislodged units are drawn down-right of their
province's point, clear of the unit there, in a dashed red ring with
`data-dislodged="true"`. A convoyed move runs through the convoying fleets' seas; the
ends of lines meeting in one place are spread around it (judge/render/ends.py). Hue is
never the only cue: each power also has a pattern (on the centres it owns) and a letter
(on its units and in the legend).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from judge.engine.board import Position
from judge.engine.geography import IMPASSABLE, SEA, GameMap, Province
from judge.render.canvas import Canvas, Hatch, Point, SvgCanvas
from judge.render.drawing import Drawing, Mark, PowerStyle, Word
from judge.render.ends import spread_ends
from judge.render.legend import draw_legend, legend_width
from judge.render.orders import Order, UnitKey, draw_order, order_line, orders_of, scene_of
from judge.render.schematic import picture_drawing
from judge.render.symbols import FAIL, removal, unit_symbol

# Where a dislodged unit is drawn, from its province's unit point: down and right, far
# enough that its ring (radius RING) clears the unit that beat it (a fleet's hull reaches
# 14 from its point), mirrored near the drawing's right or bottom edge.
DISPLACE = (26.0, 24.0)
RING = 14.0
BORDER = 0.9  # the width of a province's border
# How far a unit's symbol reaches from its point, left and right, up, down: a fleet's hull
# 14 across and its sail 16 up, an army's disc 9.5, their lines 1.5, antialiasing, and a
# letter of one character (a longer one is drawn in place: it may reach further).
UNIT_BOX = (17.0, 19.0, 12.0)


def as_position(position: Position | Mapping[str, Any]) -> Position:
    """A Position as it is; the Contract 1 position JSON read into one."""
    if isinstance(position, Position):
        return position
    from judge.variants.json_contract import position_from_json  # the Contract 1 reader

    return position_from_json(dict(position))[0]


@dataclass(frozen=True)
class _Dislodged:
    """Where the dislodged units are drawn, beside their provinces."""

    displaced: dict[UnitKey, Point]  # on the board drawn
    destroyed: set[UnitKey]  # dislodged with nowhere to go: gone in the board after
    origin: dict[UnitKey, Point]  # where each order's unit stood (a retreating one: beside)


@dataclass(frozen=True)
class Scene:
    """What one picture shows: the board drawn, its owners, its orders and where its
    dislodged units go (computed once, drawn by the layers below)."""

    before: Position
    board: Position
    dr: Drawing
    orders: list[Order]
    owner: dict[str, str]  # centre -> its owner on the board drawn
    dislodged: _Dislodged
    with_after: bool
    caption: str | None


def scene_for(
    position: Position | Mapping[str, Any],
    results: Mapping[str, Any] | None = None,
    *,
    after: Position | Mapping[str, Any] | None = None,
    caption: str | None = None,
    drawing: Drawing | None = None,
) -> Scene:
    """The picture's `Scene` (the arguments as `draw_board`'s)."""
    before = as_position(position)
    board = as_position(after) if after is not None else before
    dr = drawing or picture_drawing(before.game_map)
    orders = orders_of(results)
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    dislodged = _dislodged(before, board, dr, orders, after is not None)
    return Scene(before, board, dr, orders, owner, dislodged, after is not None, caption)


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
    s = scene_for(position, results, after=after, caption=caption, drawing=drawing)
    gm, dr = s.before.game_map, s.dr
    draw_ground(canvas, gm, dr, s.owner, occupants(s.board))
    draw_decor(canvas, dr)
    draw_centers(canvas, gm, dr, s.owner)
    draw_labels(canvas, gm, dr)
    draw_pieces(canvas, s)
    draw_legend(canvas, s.before, s.board, dr, s.caption, s.orders, s.with_after)


def occupants(board: Position) -> dict[str, str]:
    """Province -> the power of the unit standing in it."""
    return {u.province: u.power for u in board.units}


def draw_pieces(canvas: Canvas, s: Scene) -> None:
    """What stands on the board: the units, the dislodged ones and the orders."""
    gm, dr = s.before.game_map, s.dr
    _draw_units(canvas, dr, s.board, s.dislodged, s.with_after)
    present = {(u.power, str(u)) for u in s.board.units}
    scene = scene_of(s.orders, dr, gm, s.dislodged.origin, present)
    lines = [order_line(o, scene) for o in s.orders]
    canvas.begin({"id": "orders"})
    for o, line, tip in zip(s.orders, lines, spread_ends(lines), strict=True):
        draw_order(canvas, o, scene, line, tip)
    canvas.end()


def _dislodged(
    before: Position, board: Position, dr: Drawing, orders: list[Order], with_after: bool
) -> _Dislodged:
    """The dislodged units of the board drawn (and, of a movement phase, those its
    results dislodge), each displaced from its province's unit point."""
    displaced: dict[UnitKey, Point] = {}
    destroyed: set[UnitKey] = set()
    for d in board.dislodged:
        displaced[(d.unit.power, str(d.unit))] = _displace(dr, dr.point(d.unit.location))
    if before.phase.kind == "M":
        for o in orders:
            if o.result == "dislodged" and len(o.tokens) >= 2:
                key = (o.power, o.unit)
                if key not in displaced:
                    with_point = _safe_point(dr, o.tokens[1])
                    if with_point is not None:
                        displaced[key] = _displace(dr, with_point)
                        if with_after:
                            destroyed.add(key)
    # Where each order's unit stood: a retreating unit beside its province.
    origin: dict[UnitKey, Point] = dict(displaced)
    for d in before.dislodged:
        origin[(d.unit.power, str(d.unit))] = _displace(dr, dr.point(d.unit.location))
    return _Dislodged(displaced, destroyed, origin)


@dataclass(frozen=True)
class Fill:
    """How one province is filled: its colour, its owner's pattern over a centre it owns
    (None: none), and the power named on it in the SVG (its owner or occupier)."""

    key: str
    color: str
    hatch: Hatch | None
    who: str | None


def province_fills(
    gm: GameMap,
    dr: Drawing,
    owner: Mapping[str, str],
    occupant: Mapping[str, str],
    *,
    only_changed: bool = False,
) -> list[Fill]:
    """Each province's fill, in the order they are drawn: seas first, then land (a coast
    drawn a little into a sea's outline stays land). `only_changed`: only the provinces
    whose fill differs from the board nobody owns (judge/render/layers.py's ground)."""
    out = []
    for key, prov in _drawing_order(gm):
        if key not in dr.provinces:
            continue
        who = owner.get(key) or (occupant.get(key) if prov.kind != SEA else None)
        tinted = prov.kind not in (SEA, IMPASSABLE) and who is not None and who in dr.powers
        hatch = dr.powers[owner[key]].hatch if owner.get(key) in dr.powers else None
        if only_changed and not tinted and hatch is None:
            continue
        if prov.kind == SEA:
            fill = dr.sea_color
        elif prov.kind == IMPASSABLE:
            fill = dr.impassable_color
        elif who is not None and who in dr.powers:
            fill = dr.powers[who].tint
        else:
            fill = dr.land_color
        out.append(Fill(key, fill, hatch, who if prov.kind != SEA else None))
    return out


@lru_cache(maxsize=64)
def _drawing_order(gm: GameMap) -> tuple[tuple[str, Province], ...]:
    """The map's provinces, seas first (once per map object)."""
    return tuple(sorted(gm.provinces.items(), key=lambda kv: kv[1].kind != SEA))


def draw_ground(
    canvas: Canvas, gm: GameMap, dr: Drawing, owner: Mapping[str, str], occupant: Mapping[str, str]
) -> None:
    """The sea, each province filled by its owner (or occupier) with the owner's pattern
    over the centres it owns; the schematic's lines under the provinces."""
    W, H = dr.width, dr.height
    canvas.shape([[(0, 0), (W, 0), (W, H), (0, H)]], dr.background or dr.sea_color)
    _draw_marks(canvas, dr.under, "links")
    canvas.begin({"id": "provinces"})
    for f in province_fills(gm, dr, owner, occupant):
        pd = dr.provinces[f.key]
        attrs = {"data-province": f.key}
        if f.who:
            attrs["data-owner"] = f.who
        canvas.shape(pd.rings, f.color, dr.border_color, BORDER, attrs=attrs, data=pd.path)
        if f.hatch is not None:
            canvas.shape(pd.rings, f.hatch, data=pd.path)
    canvas.end()


def draw_decor(canvas: Canvas, dr: Drawing) -> None:
    """The drawing's decor (lakes, impassable land) and the schematic's marks over the
    provinces: the same on every picture of a map."""
    canvas.begin({"id": "decor"})
    for d in dr.decor:
        fill = dr.sea_color if d.kind == "lake" else dr.impassable_color
        canvas.shape(d.rings, fill, dr.border_color, 0.9, attrs={"data-decor": d.name}, data=d.path)
    canvas.end()
    _draw_marks(canvas, dr.over, "marks")


def _draw_marks(canvas: Canvas, marks: tuple[Mark | Word, ...], group: str) -> None:
    """A drawing's fixed marks and words (a schematic board's; none on a drawing file's)."""
    if not marks:
        return
    canvas.begin({"id": group})
    for m in marks:
        if isinstance(m, Word):
            canvas.text(m.at, m.text, m.size, m.color, halo="#fff")
        else:
            canvas.shape(m.rings, m.fill, m.stroke, m.width, m.dash, m.closed)
    canvas.end()


def draw_centers(canvas: Canvas, gm: GameMap, dr: Drawing, owner: Mapping[str, str]) -> None:
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
        dot = dr.powers[who].color if who is not None and who in dr.powers else "#fff"
        x, y = pd.center
        box = (x - 7, y - 7, x + 7, y + 7)  # the ring's radius and half its line, and more
        canvas.stamp(("centre", pd.center, dot), box, partial(_centre, pd.center, dot))
        canvas.end()
    canvas.end()


def _centre(at: Point, dot: str, canvas: Canvas) -> None:
    """A supply centre: a ring, its dot in `dot`."""
    canvas.circle(at, 5.2, "#fff", "#000", 1.2)
    canvas.circle(at, 2.8, dot, "#000", 0.7)


def draw_labels(canvas: Canvas, gm: GameMap, dr: Drawing) -> None:
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
        x, y = at = dr.point(u.location)
        if len(style.letter) > 1:
            unit_symbol(canvas, u.kind, style, at)
        else:
            box = (x - UNIT_BOX[0], y - UNIT_BOX[1], x + UNIT_BOX[0], y + UNIT_BOX[2])
            canvas.stamp(("unit", u.kind, style, at), box, partial(_unit, u.kind, style, at))
        canvas.end()
    for (power, text), at in displaced.items():
        kind, loc = text.split()
        attrs = {"data-unit": text, "data-power": power, "data-dislodged": "true"}
        if (power, text) in destroyed:
            attrs["data-destroyed"] = "true"
        canvas.begin(attrs, 0.6 if (power, text) in destroyed else 1.0)
        home = dr.point(loc)
        canvas.shape([[home, at]], None, FAIL, 1.5, (3, 2), closed=False)
        canvas.circle(at, RING, "#fff", FAIL, 2.5, (4, 2), attrs={"data-mark": "dislodged"})
        unit_symbol(canvas, kind, dr.powers[power], at)
        if (power, text) in destroyed:  # it could not retreat: removed
            removal(canvas, at)
        canvas.end()
    canvas.end()


def _unit(kind: str, style: PowerStyle, at: Point, canvas: Canvas) -> None:
    unit_symbol(canvas, kind, style, at)


def _displace(dr: Drawing, at: Point) -> Point:
    """Where a dislodged unit is drawn: beside the point of its province, clear of the
    unit standing there, and inside the drawing."""
    dx, dy = DISPLACE
    if at[0] + dx + RING > dr.width:
        dx = -dx
    if at[1] + dy + RING > dr.height:
        dy = -dy
    return (at[0] + dx, at[1] + dy)


def _safe_point(dr: Drawing, location: str) -> Point | None:
    """The drawing's point for `location`; None for a place the drawing does not know."""
    try:
        return dr.point(location)
    except KeyError:
        return None


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
    dr = drawing or picture_drawing(before.game_map)
    canvas = SvgCanvas(
        dr.width + legend_width(before.game_map),
        dr.height,
        {"data-map": before.game_map.name, "data-phase": str(before.phase)},
    )
    draw_board(canvas, before, results, after=after, caption=caption, drawing=dr)
    return canvas.svg()
