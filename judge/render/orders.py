"""The phase's orders on the board: read from the results (whichever of their three
shapes), each drawn as its arrow, link, ring or cross."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine.geography import GameMap
from judge.render.canvas import Canvas, Point
from judge.render.drawing import Drawing, PowerStyle
from judge.render.symbols import arrow, cross, link, mid, offset, removal, unit_symbol

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


def draw_order(
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
            a, b = offset(here, there, 4.0)
        # by convoy: said so, or an army going where it cannot march
        convoyed = "VIA" in t[4:] or (
            t[0] == "A" and not gm.can_reach("A", t[1], t[3].partition("/")[0])
        )
        arrow(canvas, a, b, color, (9, 4) if convoyed else None)
        fail_at = mid(a, b)
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
        arrow(canvas, here, there, color, None, 2.5)
        fail_at = mid(here, there)
        if o.failed:  # a retreat that fails destroys the unit
            removal(canvas, here)
    elif verb == "D":  # a disband or a removal: the unit struck out by the removal mark
        if style and (o.power, unit) not in present:
            unit_symbol(canvas, t[0], style, here, ghost=True)
        removal(canvas, here)
    elif verb == "B":  # a build: the new unit in a dashed ring
        x, y = dr.point(t[1])
        canvas.circle((x, y), 16, None, "#000", 2.0, (4, 3))
        if style and (o.power, unit) not in present:
            unit_symbol(canvas, t[0], style, (x, y), ghost=True)
        fail_at = (x + 12, y - 12)
    if o.failed and fail_at is not None:
        cross(canvas, fail_at)


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
            src, dest = offset(src, dest, 4.0)
        to, end = mid(src, dest), 4.0
    else:
        to, end = src, 15.0
    link(canvas, here, to, color, (7, 4) if t[2] == "S" else (1.5, 4), end)
    return mid(here, to)
