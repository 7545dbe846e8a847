"""The phase's orders on the board: read from the results (whichever of their three
shapes), each drawn as its arrow, link, ring or mark.

A convoyed move is drawn through the seas of the fleets that convoyed it, in order (the
chain the adjudicator could use: the convoying fleets that held, else all that were
ordered to convoy it, else a written path); where several lines end in one province,
their ends are spread around it (judge/render/ends.py)."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from judge.engine.geography import GameMap
from judge.render.canvas import Canvas, Point
from judge.render.drawing import Drawing, PowerStyle
from judge.render.ends import Line
from judge.render.symbols import arrow_along, cross, link, mid, offset, removal, unit_symbol

# A unit of the picture's orders or dislodged units: (power, "A TRI").
UnitKey = tuple[str, str]


@dataclass(frozen=True)
class Order:
    """An order to draw: its power, its text, its result (None: not adjudicated yet),
    the text as given, and its words in upper case."""

    power: str
    text: str
    result: str | None
    given: str | None
    tokens: tuple[str, ...]

    @property
    def failed(self) -> bool:
        """Whether the order was adjudicated and did not succeed."""
        return self.result not in (None, "ok")

    @property
    def unit(self) -> str:
        """The ordered unit: "A TRI"."""
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


@dataclass(frozen=True)
class Scene:
    """What drawing one order needs to know of the board and of the other orders."""

    dr: Drawing
    gm: GameMap
    moves: Mapping[str, str]  # each moving unit's place -> where it moves
    origin: Mapping[UnitKey, Point]  # where an order's unit is drawn, when not its place
    present: set[UnitKey]  # the units on the board drawn
    convoys: Mapping[tuple[str, str], tuple[str, ...]]  # (from, to) -> the seas, in order


def move_route(tokens: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """A move's destination and the seas of its written path (`A YOR - NTH - BEL`)."""
    parts = [w for w in tokens[3:] if w not in ("-", "VIA")]
    return parts[-1], tuple(parts[:-1])


def scene_of(
    orders: Sequence[Order],
    dr: Drawing,
    gm: GameMap,
    origin: Mapping[UnitKey, Point],
    present: set[UnitKey],
) -> Scene:
    """The scene of a phase's orders: who moves where and by which convoy."""
    moves = {
        o.tokens[1]: move_route(o.tokens)[0]
        for o in orders
        if len(o.tokens) >= 4 and o.tokens[2] == "-"
    }
    return Scene(dr, gm, moves, origin, present, convoy_routes(orders, gm))


def convoy_routes(orders: Sequence[Order], gm: GameMap) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each move convoy orders are for, (from, to) provinces: the chain of the
    convoying fleets' seas from one to the other, shortest first: through the fleets whose
    order succeeded (those the adjudicator's route could use), else through all of them;
    none where no chain of them joins the two."""
    fleets: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for o in orders:
        t = o.tokens
        if len(t) >= 7 and t[2] == "C" and t[5] == "-":
            key = (t[4].partition("/")[0], t[6].partition("/")[0])
            fleets.setdefault(key, []).append((t[1].partition("/")[0], not o.failed))
    routes = {}
    for (src, dest), seas in fleets.items():
        held = _chain(gm, src, dest, {s for s, ok in seas if ok})
        chain = held or _chain(gm, src, dest, {s for s, _ in seas})
        if chain:
            routes[(src, dest)] = chain
    return routes


def _chain(gm: GameMap, src: str, dest: str, seas: set[str]) -> tuple[str, ...]:
    """The shortest chain of `seas` from `src` to `dest` (breadth first, in name order,
    so the same orders give the same picture); () when there is none."""
    came: dict[str, str | None] = {}
    queue: deque[str] = deque()
    for s in sorted(seas):
        if s in gm.sea_adjacent and src in gm.sea_neighbours(s):
            came[s] = None
            queue.append(s)
    while queue:
        sea = queue.popleft()
        if dest in gm.sea_neighbours(sea):
            path = [sea]
            while (back := came[path[-1]]) is not None:
                path.append(back)
            return tuple(reversed(path))
        for s in sorted(seas & gm.sea_neighbours(sea)):
            if s not in came:
                came[s] = sea
                queue.append(s)
    return ()


def order_line(o: Order, scene: Scene) -> Line | None:
    """The line an order draws (a move, retreat, support or convoy), for spreading the
    ends of a crowded place; None for an order drawn otherwise or not drawn."""
    t = o.tokens
    if len(t) < 4 or t[2] not in ("-", "R", "S", "C"):
        return None
    with contextlib.suppress(KeyError, IndexError, ValueError):
        here = _here(o, scene)
        if t[2] in ("-", "R"):
            dest = move_route(t)[0] if t[2] == "-" else t[3]
            points = _move_points(o, scene, here) if t[2] == "-" else (here, scene.dr.point(dest))
            return Line(points, dest.partition("/")[0], 13.0)
        rest = list(t[3:])
        if rest[0] in ("A", "F"):
            rest = rest[1:]
        if len(rest) >= 3 and rest[1] == "-":
            move = _supported_move(rest, scene)
            k = (len(move) - 1) // 2
            on = (move[k], move[k + 1])
            return Line((here, _path_mid(move)), f"{rest[0]} - {rest[2]}", 4.0, on)
        return Line((here, scene.dr.point(rest[0])), rest[0].partition("/")[0], 15.0)
    return None


def _hold_ring(at: Point, color: str, canvas: Canvas) -> None:
    """A hold: a ring in the power's colour, edged in black."""
    canvas.circle(at, 15, None, "#000", 4.5)
    canvas.circle(at, 15, None, color, 2.5)


def _here(o: Order, scene: Scene) -> Point:
    """Where the order's unit is drawn (a dislodged one beside its place)."""
    return scene.origin.get((o.power, o.unit)) or scene.dr.point(o.tokens[1])


def _move_points(o: Order, scene: Scene, here: Point) -> tuple[Point, ...]:
    """The points a move's arrow runs through: from its unit, through the convoying
    fleets' seas when it goes by convoy, to its destination."""
    t = o.tokens
    dest, written = move_route(t)
    there = scene.dr.point(dest)
    src, to = t[1].partition("/")[0], dest.partition("/")[0]
    seas = written or scene.convoys.get((src, to), ())
    if seas and _convoyed(o, scene):
        return (here, *(scene.dr.point(s) for s in seas), there)
    if scene.moves.get(dest) == t[1]:  # the other way too: run side by side
        return offset(here, there, 4.0)
    return (here, there)


def _convoyed(o: Order, scene: Scene) -> bool:
    """Whether a move goes by convoy: said so, a path written, or an army going where
    it cannot march."""
    t = o.tokens
    dest, written = move_route(t)
    return bool(
        "VIA" in t[4:]
        or written
        or (t[0] == "A" and not scene.gm.can_reach("A", t[1], dest.partition("/")[0]))
    )


def _supported_move(rest: Sequence[str], scene: Scene) -> tuple[Point, ...]:
    """The drawn line of the move a support or convoy is for (`rest`: `LON - BEL`)."""
    src, dest = scene.dr.point(rest[0]), scene.dr.point(rest[2])
    seas = scene.convoys.get((rest[0].partition("/")[0], rest[2].partition("/")[0]), ())
    if seas and not scene.gm.can_reach("A", rest[0], rest[2].partition("/")[0]):
        return (src, *(scene.dr.point(s) for s in seas), dest)
    if scene.moves.get(rest[2].split("/")[0]) == rest[0] or scene.moves.get(rest[2]) == rest[0]:
        return offset(src, dest, 4.0)
    return (src, dest)


def _path_mid(points: Sequence[Point]) -> Point:
    """The middle of a line's middle segment: where a support meets it, a cross marks it."""
    k = (len(points) - 1) // 2
    return mid(points[k], points[k + 1])


def draw_order(
    canvas: Canvas, o: Order, scene: Scene, line: Line | None, tip: Point | None
) -> None:
    """One order, in a group carrying its text, power and result; `line` as
    `order_line` gives it, `tip` where it ends when its place is crowded."""
    style = scene.dr.powers.get(o.power)
    color = style.color if style else "#000"
    attrs = {"data-order": o.text, "data-power": o.power}
    if o.result is not None:
        attrs["data-result"] = o.result
    if o.failed:
        attrs["data-failed"] = "true"
    opacity = 0.85 if o.failed else 1.0
    lined = None
    if line is not None:  # a move, retreat, support or convoy
        with contextlib.suppress(KeyError, IndexError, ValueError):
            lined = _lined(o, scene, line, tip, color, opacity)
    if lined is not None:
        canvas.stamp(("order", lined), lined.box(), partial(_draw_lined, lined, attrs))
        return
    canvas.begin(attrs, opacity)
    # an order naming a place the drawing does not know: listed in the mail, not drawn
    if line is None:
        with contextlib.suppress(KeyError, IndexError, ValueError):
            _order_body(canvas, o, scene, style, color)
    canvas.end()


@dataclass(frozen=True)
class Lined:
    """All a move, retreat, support or convoy draws, and nothing else: the same value
    draws the same pixels, so its pixels are kept and painted again (CairoCanvas.stamp):
    an arrow's dozen Cairo calls, its outline and its group's opacity, became one; the
    same moves recur from game to game."""

    arrow: bool  # an arrow (a move, a retreat) or a link (a support, a convoy)
    points: tuple[Point, ...]  # the arrow's; a link runs from `here` to the last
    color: str
    dash: tuple[float, ...] | None
    width: float  # the arrow's line
    end: float  # how far before its last point the line ends
    here: Point  # where the order's unit is drawn
    removed: bool  # a retreat that failed: the unit destroyed, its removal mark
    fail_at: Point | None  # where a failed order's cross is
    opacity: float

    def box(self) -> tuple[float, float, float, float]:
        """What it draws lies inside this: its points, and `REACH` about them (the
        removal mark's ring, the widest, with its white line)."""
        xs = [p[0] for p in (*self.points, self.here, self.fail_at or self.here)]
        ys = [p[1] for p in (*self.points, self.here, self.fail_at or self.here)]
        return (min(xs) - REACH, min(ys) - REACH, max(xs) + REACH, max(ys) + REACH)


REACH = 20.0  # Lined.box's margin: the removal ring, radius 15, its white line 5.5, and AA


def _lined(
    o: Order, scene: Scene, line: Line, tip: Point | None, color: str, opacity: float
) -> Lined:
    """What the line order `o` (`order_line` gave it `line`) draws (KeyError: a place the
    drawing lacks)."""
    t = o.tokens
    here, verb = _here(o, scene), t[2]
    arrow = verb in ("-", "R")
    return Lined(
        arrow=arrow,
        points=line.points if tip is None else (*line.points[:-1], tip),
        color=color,
        dash=((9, 4) if verb == "-" and _convoyed(o, scene) else None)
        if arrow
        else ((7, 4) if verb == "S" else (1.5, 4)),
        width=3.0 if verb == "-" else 2.5,
        end=line.radius if tip is None else 0.0,
        here=here,
        removed=verb == "R" and o.failed,
        fail_at=_path_mid(line.points) if o.failed else None,
        opacity=opacity,
    )


def _draw_lined(lined: Lined, attrs: Mapping[str, str], canvas: Canvas) -> None:
    """A line order as `Lined` says, in its group."""
    canvas.begin(attrs, lined.opacity)
    if lined.arrow:
        arrow_along(canvas, lined.points, lined.color, lined.dash, lined.width, 12.0, lined.end)
    else:
        assert lined.dash is not None  # a link is always dashed or dotted
        link(canvas, lined.here, lined.points[-1], lined.color, lined.dash, lined.end)
    if lined.removed:  # a retreat that fails destroys the unit
        removal(canvas, lined.here)
    if lined.fail_at is not None:
        cross(canvas, lined.fail_at)
    canvas.end()


def _order_body(
    canvas: Canvas, o: Order, scene: Scene, style: PowerStyle | None, color: str
) -> None:
    """A hold's ring, a build's or a removal's mark (KeyError: a place the drawing lacks)."""
    t = o.tokens
    if len(t) < 3:
        return  # WAIVE, or text the judge did not understand
    here, verb = _here(o, scene), t[2]
    fail_at: Point | None = None
    if verb == "H":
        if o.given == "":
            return  # no order was given: the unit held by default; nothing to draw
        x, y = here
        box = (x - 18.5, y - 18.5, x + 18.5, y + 18.5)  # the ring, half its line, and more
        canvas.stamp(("hold", here, color), box, partial(_hold_ring, here, color))
        fail_at = (here[0] + 11, here[1] - 11)
    elif verb == "D":  # a disband or a removal: the unit struck out by the removal mark
        if style and (o.power, o.unit) not in scene.present:
            unit_symbol(canvas, t[0], style, here, ghost=True)
        removal(canvas, here)
    elif verb == "B":  # a build: the new unit in a dashed ring
        x, y = scene.dr.point(t[1])
        canvas.circle((x, y), 16, None, "#000", 2.0, (4, 3))
        if style and (o.power, o.unit) not in scene.present:
            unit_symbol(canvas, t[0], style, (x, y), ghost=True)
        fail_at = (x + 12, y - 12)
    if o.failed and fail_at is not None:
        cross(canvas, fail_at)
