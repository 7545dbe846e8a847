"""The board as SVG text: provinces tinted by owner, units, the phase's orders, a legend.

Pure: a position (a `Position`, or the Contract 1 position JSON) and optionally the
phase's results (the Contract 1 output, or just its `results` mapping) in, SVG text out.
The drawing data comes from `maps/<map>_drawing.toml`; nothing here names a province.

Every unit is one element with `data-unit` ("F STP/SC"), every order one element with
`data-order` (its canonical text) and `data-result`; failed orders carry
`data-failed="true"` and a red cross. Hue is never the only cue: each power also has a
pattern (on the centres it owns) and a letter (on its units and in the legend).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from judge.engine.board import Position
from judge.engine.geography import IMPASSABLE, MAPS_DIR, SEA, MapError

LEGEND_WIDTH = 220
FAIL = "#d00000"


@dataclass(frozen=True)
class PowerStyle:
    color: str
    tint: str  # the colour mixed with white, for province fills
    ink: str  # black or white: the letter drawn on the colour
    pattern: str
    letter: str


@dataclass(frozen=True)
class ProvinceDrawing:
    path: str  # SVG path data
    label: tuple[float, float]
    unit: tuple[float, float]
    center: tuple[float, float] | None
    coasts: Mapping[str, tuple[float, float]]


@dataclass(frozen=True)
class Drawing:
    name: str
    width: int
    height: int
    sea_color: str
    land_color: str
    impassable_color: str
    powers: Mapping[str, PowerStyle]
    provinces: Mapping[str, ProvinceDrawing]
    decor: tuple[tuple[str, str], ...]  # (name, path data)
    defs: str  # the <defs> element: one fill pattern per power

    def point(self, location: str) -> tuple[float, float]:
        """Where a unit at `location` (`PAR`, `STP/SC`) is drawn."""
        prov, _, coast = location.partition("/")
        p = self.provinces[prov]
        return p.coasts.get(coast, p.unit) if coast else p.unit


def _path(shape: list) -> str:
    return " ".join(
        "M" + " L".join(f"{x:g},{y:g}" for x, y in ring) + " Z" for ring in shape if ring
    )


def _mix(color: str, amount: float) -> str:
    """`color` mixed with white: amount 0 is the colour, 1 is white."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in (r, g, b))


def _ink(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


_PATTERNS = {
    "diagonal": '<path d="M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6"/>',
    "antidiagonal": '<path d="M-2,6 L2,10 M0,0 L8,8 M6,-2 L10,2"/>',
    "horizontal": '<path d="M0,4 L8,4"/>',
    "vertical": '<path d="M4,0 L4,8"/>',
    "crosshatch": '<path d="M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6 M-2,6 L2,10 M0,0 L8,8 M6,-2 L10,2"/>',
    "grid": '<path d="M0,4 L8,4 M4,0 L4,8"/>',
    "dots": '<circle cx="4" cy="4" r="1.6" stroke="none"/>',
}


def _defs(powers: Mapping[str, PowerStyle]) -> str:
    out = ["<defs>"]
    for key, s in powers.items():
        body = _PATTERNS.get(s.pattern, _PATTERNS["dots"])
        out.append(
            f'<pattern id="pat-{key}" width="8" height="8" patternUnits="userSpaceOnUse">'
            f'<g stroke="{s.color}" fill="{s.color}" stroke-width="1.4" opacity="0.75">'
            f"{body}</g></pattern>"
        )
    out.append("</defs>")
    return "".join(out)


@cache
def load_drawing(name: str = "standard") -> Drawing:
    """Read `maps/<name>_drawing.toml` once per process."""
    path = MAPS_DIR / f"{name}_drawing.toml"
    if not name.replace("_", "").isalnum() or not path.exists():
        raise MapError(f"no drawing for map {name!r}")
    with path.open("rb") as f:
        data = tomllib.load(f)
    powers = {
        k: PowerStyle(
            color=p["color"],
            tint=_mix(p["color"], 0.55),
            ink=_ink(p["color"]),
            pattern=p.get("pattern", "dots"),
            letter=p.get("letter", k[:1]),
        )
        for k, p in data.get("powers", {}).items()
    }
    provinces = {}
    for k, p in data["provinces"].items():
        provinces[k] = ProvinceDrawing(
            path=_path(p["shape"]),
            label=tuple(p.get("label", p["unit"])),
            unit=tuple(p["unit"]),
            center=tuple(p["center"]) if "center" in p else None,
            coasts={c: tuple(v) for c, v in p.get("coasts", {}).items()},
        )
    return Drawing(
        name=name,
        width=int(data.get("width", 1000)),
        height=int(data.get("height", 800)),
        sea_color=data.get("sea_color", "#cfe3f0"),
        land_color=data.get("land_color", "#f3ecd9"),
        impassable_color=data.get("impassable_color", "#b8b2a7"),
        powers=powers,
        provinces=provinces,
        decor=tuple((d.get("name", ""), _path(d["shape"])) for d in data.get("decor", [])),
        defs=_defs(powers),
    )


# -- input ------------------------------------------------------------------------------


def _as_position(position: Position | Mapping[str, Any]) -> Position:
    if isinstance(position, Position):
        return position
    from judge.adjudicate import position_from_json  # the Contract 1 reader

    return position_from_json(dict(position))[0]


@dataclass(frozen=True)
class _Order:
    power: str
    text: str
    result: str | None
    tokens: tuple[str, ...]

    @property
    def failed(self) -> bool:
        return self.result not in (None, "ok")


def _orders(results: Mapping[str, Any] | None) -> list[_Order]:
    if not results:
        return []
    by_power = results.get("results", results) if "results" in results else results
    out = []
    for power, items in by_power.items():
        if not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, str):
                text, result = item, None
            else:
                text, result = item.get("order", ""), item.get("result")
            out.append(_Order(str(power).upper(), text, result, tuple(text.upper().split())))
    return out


# -- drawing helpers ----------------------------------------------------------------------


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _shorten(a, b, start: float, end: float):
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end), (ux, uy)


def _arrow(a, b, color: str, dash: str = "", width: float = 3.0, end: float = 12.0) -> str:
    """A line from a to b with an arrow head, outlined in black for contrast."""
    p, q, (ux, uy) = _shorten(a, b, 8, end)
    hx, hy = q[0] - ux * 11, q[1] - uy * 11
    nx, ny = -uy * 5.5, ux * 5.5
    head = f"M{_f(q[0])},{_f(q[1])} L{_f(hx + nx)},{_f(hy + ny)} L{_f(hx - nx)},{_f(hy - ny)} Z"
    line = f"M{_f(p[0])},{_f(p[1])} L{_f(hx)},{_f(hy)}"
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<path d="{line}" stroke="#000" stroke-width="{width + 2}"{d} fill="none"/>'
        f'<path d="{line}" stroke="{color}" stroke-width="{width}"{d} fill="none"/>'
        f'<path d="{head}" fill="{color}" stroke="#000" stroke-width="1"/>'
    )


def _link(a, b, color: str, dash: str, end: float = 4.0) -> str:
    """A dashed or dotted line from a to b ending in a small open circle."""
    p, q, _ = _shorten(a, b, 10, end)
    line = f"M{_f(p[0])},{_f(p[1])} L{_f(q[0])},{_f(q[1])}"
    return (
        f'<path d="{line}" stroke="#000" stroke-width="4" stroke-dasharray="{dash}" fill="none"/>'
        f'<path d="{line}" stroke="{color}" stroke-width="2.4" stroke-dasharray="{dash}"'
        ' fill="none"/>'
        f'<circle cx="{_f(q[0])}" cy="{_f(q[1])}" r="3.5" fill="#fff" stroke="#000"/>'
    )


def _cross(x: float, y: float, size: float = 6.0, color: str = FAIL) -> str:
    d = (
        f"M{_f(x - size)},{_f(y - size)} L{_f(x + size)},{_f(y + size)} "
        f"M{_f(x - size)},{_f(y + size)} L{_f(x + size)},{_f(y - size)}"
    )
    return (
        f'<path class="fail-mark" d="{d}" stroke="#fff" stroke-width="5.5"/>'
        f'<path d="{d}" stroke="{color}" stroke-width="3"/>'
    )


def _mid(a, b):
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _unit_symbol(kind: str, style: PowerStyle, x: float, y: float, extra: str = "") -> str:
    t = f'transform="translate({_f(x)},{_f(y)})"'
    if kind == "F":
        body = (
            '<path d="M-1,-3 L-1,-15 L9,-4 Z" fill="#fff" stroke="#000" stroke-width="1"/>'
            f'<path d="M-14,-3 L14,-3 L8,8 L-8,8 Z" fill="{style.color}" stroke="#000"'
            ' stroke-width="1.5"/>'
            f'<text y="6" fill="{style.ink}" font-size="10">{escape(style.letter)}</text>'
        )
    else:
        body = (
            f'<circle r="9.5" fill="{style.color}" stroke="#000" stroke-width="1.5"/>'
            f'<text y="4" fill="{style.ink}" font-size="11">{escape(style.letter)}</text>'
        )
    return f"<g {t}{extra}>{body}</g>"


# -- the picture ---------------------------------------------------------------------------


def render_svg(
    position: Position | Mapping[str, Any],
    results: Mapping[str, Any] | None = None,
    *,
    date: str | None = None,
    drawing: Drawing | None = None,
) -> str:
    """The board at the start of `position`'s phase, with the phase's orders over it.

    `position`: a Position or the Contract 1 input JSON (map, phase, units, centers,
    retreats). `results`: the Contract 1 output for that phase (or only its `results`
    mapping, or orders as plain strings per power). `date`: shown in the legend.
    """
    pos = _as_position(position)
    gm = pos.game_map
    dr = drawing or load_drawing(gm.name)
    orders = _orders(results)

    owner = {c: p for p, cs in pos.centers.items() for c in cs}
    occupant = {u.province: u.power for u in pos.units}

    # dislodged units: from the position (retreat phase) or the results (movement phase)
    dislodged: dict[str, str] = {str(d.unit): d.unit.power for d in pos.dislodged}
    if results and isinstance(results.get("retreats"), Mapping):
        for power, entries in results["retreats"].items():
            for unit in entries:
                dislodged[str(unit).upper()] = power
    for o in orders:
        if o.result == "dislodged" and len(o.tokens) >= 2:
            dislodged[" ".join(o.tokens[:2])] = o.power
    on_board = {str(u) for u in pos.units}

    W, H = dr.width, dr.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W + LEGEND_WIDTH}" height="{H}"'
        f' viewBox="0 0 {W + LEGEND_WIDTH} {H}" font-family="DejaVu Sans, Arial, sans-serif"'
        f' data-map="{escape(gm.name)}" data-phase="{pos.phase}">',
        dr.defs,
        f'<rect width="{W}" height="{H}" fill="{dr.sea_color}"/>',
    ]

    # provinces
    out.append('<g id="provinces" stroke="#6b6258" stroke-width="0.8" stroke-linejoin="round">')
    for key, prov in gm.provinces.items():
        pd = dr.provinces.get(key)
        if pd is None:
            continue
        who = owner.get(key) or (occupant.get(key) if prov.kind != SEA else None)
        if prov.kind == SEA:
            fill = dr.sea_color
        elif prov.kind == IMPASSABLE:
            fill = dr.impassable_color
        elif who in dr.powers:
            fill = dr.powers[who].tint
        else:
            fill = dr.land_color
        attrs = f'data-province="{key}" fill="{fill}" fill-rule="evenodd"'
        if who and prov.kind != SEA:
            attrs += f' data-owner="{who}"'
        out.append(f'<path {attrs} d="{pd.path}"/>')
        if key in owner and owner[key] in dr.powers:
            out.append(f'<path fill="url(#pat-{owner[key]})" stroke="none" d="{pd.path}"/>')
    out.append("</g>")
    out.append(f'<g id="decor" fill="{dr.impassable_color}" stroke="#6b6258" stroke-width="0.8">')
    for name, path in dr.decor:
        out.append(f"<path data-decor={quoteattr(name)} d={quoteattr(path)}/>")
    out.append("</g>")

    # supply centres and labels
    out.append('<g id="centers" stroke="#000" stroke-width="1.2">')
    for c in sorted(gm.supply_centers):
        pd = dr.provinces.get(c)
        if pd is None or pd.center is None:
            continue
        x, y = pd.center
        who = owner.get(c)
        fill = dr.powers[who].color if who in dr.powers else "#fff"
        out.append(
            f'<g data-center="{c}"{f" data-owner={quoteattr(who)}" if who else ""}>'
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="5" fill="#fff"/>'
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="2.6" fill="{fill}" stroke-width="0.6"/></g>'
        )
    out.append("</g>")
    out.append('<g id="labels" font-size="9" text-anchor="middle" fill="#333">')
    for key in gm.provinces:
        pd = dr.provinces.get(key)
        if pd is None or gm.provinces[key].kind == IMPASSABLE:
            continue
        style = ' font-style="italic" fill="#35607f"' if gm.provinces[key].kind == SEA else ""
        out.append(
            f'<text x="{_f(pd.label[0])}" y="{_f(pd.label[1])}"{style}>{escape(key.title())}</text>'
        )
    out.append("</g>")

    # units: one element each; dislodged ones displaced to the lower right, ringed in red
    displaced: dict[str, tuple[float, float]] = {}
    out.append('<g id="units" text-anchor="middle" font-weight="bold">')
    for u in pos.units:
        text = str(u)
        if text in dislodged:
            continue
        x, y = dr.point(u.location)
        out.append(
            _unit_symbol(
                u.kind,
                dr.powers[u.power],
                x,
                y,
                f' data-unit="{text}" data-power="{u.power}"',
            )
        )
    for text, power in dislodged.items():
        kind, loc = text.split()
        x, y = dr.point(loc)
        dx, dy = x + 16, y + 14
        displaced[text] = (dx, dy)
        out.append(
            f'<g data-unit="{text}" data-power="{power}" data-dislodged="true">'
            f'<path d="M{_f(x)},{_f(y)} L{_f(dx)},{_f(dy)}" stroke="{FAIL}" stroke-width="1.5"'
            ' stroke-dasharray="3,2"/>'
            f'<circle cx="{_f(dx)}" cy="{_f(dy)}" r="14" fill="none" stroke="{FAIL}"'
            ' stroke-width="2" stroke-dasharray="4,2"/>'
            + _unit_symbol(kind, dr.powers[power], dx, dy)
            + "</g>"
        )
    out.append("</g>")

    # orders
    moves = {}
    for o in orders:
        t = o.tokens
        if len(t) >= 4 and t[2] == "-":
            moves[t[1].split("/")[0]] = (t[1], t[3])
    out.append('<g id="orders" stroke-linecap="round" text-anchor="middle" font-weight="bold">')
    for o in orders:
        out.append(_order(o, dr, gm, moves, displaced, on_board))
    out.append("</g>")

    out.append(_legend(pos, dr, gm, date, orders))
    out.append("</svg>")
    return "".join(out)


def _order(o: _Order, dr: Drawing, gm, moves, displaced, on_board) -> str:
    style = dr.powers.get(o.power)
    color = style.color if style else "#000"
    t = o.tokens
    attrs = f"data-order={quoteattr(o.text)} data-power={quoteattr(o.power)}"
    if o.result is not None:
        attrs += f" data-result={quoteattr(o.result)}"
    if o.failed:
        attrs += ' data-failed="true" opacity="0.8"'
    body = ""
    fail_at = None
    try:
        if len(t) >= 2:
            unit = f"{t[0]} {t[1]}"
            here = displaced.get(unit) or dr.point(t[1])
        verb = t[2] if len(t) >= 3 else ""
        if verb == "-":  # move
            there = dr.point(t[3])
            dash = "10,4" if "VIA" in t[4:] else ""
            body = _arrow(here, there, color, dash)
            fail_at = _mid(here, there)
        elif verb == "H":
            x, y = here
            body = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="15" fill="none" stroke="#000"'
            body += f' stroke-width="4.5"/><circle cx="{_f(x)}" cy="{_f(y)}" r="15"'
            body += f' fill="none" stroke="{color}" stroke-width="2.5"/>'
            fail_at = (x + 11, y - 11)
        elif verb in ("S", "C"):
            rest = list(t[3:])
            if rest and rest[0] in ("A", "F"):
                rest = rest[1:]
            target = rest[0]
            dest = rest[2] if len(rest) >= 3 and rest[1] == "-" else None
            src = dr.point(target)
            if dest is None:
                to, end = src, 15.0
            else:
                to, end = _mid(src, dr.point(dest)), 4.0
            body = _link(here, to, color, "7,4" if verb == "S" else "2,4", end)
            fail_at = _mid(here, to)
        elif verb == "R":  # retreat
            there = dr.point(t[3])
            body = _arrow(here, there, color, "", 2.5)
            fail_at = _mid(here, there)
        elif verb == "D":  # disband or removal
            body = _cross(*here, size=10)
        elif verb == "B":  # build: the new unit, ghosted, in a dashed ring
            x, y = dr.point(t[1])
            body = (
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="16" fill="none" stroke="#000"'
                ' stroke-width="2" stroke-dasharray="4,3"/>'
                + _unit_symbol(t[0], style, x, y, ' opacity="0.6"')
                if style
                else ""
            )
            fail_at = (x + 12, y - 12)
    except (KeyError, IndexError):
        body = ""  # an order naming a place the drawing does not know: listed, not drawn
    if o.failed and fail_at is not None:
        body += _cross(*fail_at)
    return f"<g {attrs}>{body}</g>"


def _legend(pos: Position, dr: Drawing, gm, date: str | None, orders) -> str:
    x0 = dr.width
    out = [
        f'<g id="legend" transform="translate({x0},0)" font-size="12">',
        f'<rect width="{LEGEND_WIDTH}" height="{dr.height}" fill="#fbfaf6" stroke="#6b6258"/>',
        f'<text x="12" y="26" font-size="15" font-weight="bold">{escape(gm.title)}</text>',
        f'<text x="12" y="48" font-size="14" data-legend="phase" data-phase="{pos.phase}">'
        f"{escape(pos.phase.long_name)}</text>",
    ]
    y = 68
    if date:
        out.append(f'<text x="12" y="{y}" data-legend="date">{escape(date)}</text>')
        y += 20
    y += 8
    out.append(
        f'<text x="12" y="{y}" font-weight="bold">Power</text>'
        f'<text x="150" y="{y}" font-weight="bold" text-anchor="end">SCs</text>'
        f'<text x="200" y="{y}" font-weight="bold" text-anchor="end">Units</text>'
    )
    y += 8
    for key, power in gm.powers.items():
        s = dr.powers.get(key)
        if s is None:
            continue
        n = len(pos.centers.get(key, ()))
        units = len(pos.units_of(key))
        out.append(
            f'<g data-power="{key}" data-centers="{n}" data-units="{units}"'
            f' transform="translate(12,{y})">'
            f'<rect width="22" height="16" fill="{s.tint}" stroke="#000"/>'
            f'<rect width="22" height="16" fill="url(#pat-{key})"/>'
            f'<circle cx="11" cy="8" r="6.5" fill="{s.color}" stroke="#000"/>'
            f'<text x="11" y="12" font-size="9" font-weight="bold" text-anchor="middle"'
            f' fill="{s.ink}">{escape(s.letter)}</text>'
            f'<text x="30" y="13">{escape(power.name)}</text>'
            f'<text x="138" y="13" text-anchor="end">{n}</text>'
            f'<text x="188" y="13" text-anchor="end">{units}</text></g>'
        )
        y += 22
    y += 14
    key_style = dr.powers.get(next(iter(gm.powers), ""), None)
    out.append(f'<text x="12" y="{y}" font-weight="bold">Key</text>')
    y += 10
    rows = []
    if key_style:
        rows.append((_unit_symbol("A", key_style, 22, 0), "Army"))
        rows.append((_unit_symbol("F", key_style, 22, 2), "Fleet"))
    ink = "#555"
    rows += [
        (_arrow((2, 0), (46, 0), ink, "", 3.0, 0), "Move"),
        (_arrow((2, 0), (46, 0), ink, "10,4", 3.0, 0), "Move by convoy"),
        (_link((-8, 0), (46, 0), ink, "7,4", 4.0), "Support"),
        (_link((-8, 0), (46, 0), ink, "2,4", 4.0), "Convoy"),
        (
            '<circle cx="22" cy="0" r="10" fill="none" stroke="#000" stroke-width="2.5"/>',
            "Hold",
        ),
        (_cross(22, 0), "Failed order"),
        (
            f'<circle cx="22" cy="0" r="10" fill="none" stroke="{FAIL}" stroke-width="2"'
            ' stroke-dasharray="4,2"/>',
            "Dislodged unit",
        ),
        (
            '<circle cx="22" cy="0" r="5" fill="#fff" stroke="#000"/>'
            '<circle cx="22" cy="0" r="2.6" fill="#000"/>',
            "Supply centre",
        ),
    ]
    for symbol, label in rows:
        y += 26
        out.append(
            f'<g transform="translate(12,{y})" text-anchor="middle" font-weight="bold">{symbol}'
            f'<text x="62" y="4" text-anchor="start" font-weight="normal">{label}</text></g>'
        )
    if orders:
        failed = sum(o.failed for o in orders)
        y += 30
        out.append(
            f'<text x="12" y="{y}" data-legend="orders">{len(orders)} orders,'
            f" {failed} failed</text>"
        )
    out.append("</g>")
    return "".join(out)
