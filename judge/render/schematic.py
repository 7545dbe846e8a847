"""A schematic board for a map with no drawing file: a `Drawing` computed from the map.

Each province is a node placed by judge/render/layout.py (a stress layout of the
adjacency graph): land a rounded square, sea a blue circle, impassable land a small grey
square. Adjacency is drawn as lines under the nodes: brown where armies move, dashed blue
where only fleets do, dark where both do. A multi-coast province has a blue mark per
coast, set towards the provinces that coast reaches and named by the coast ("nc"); a
fleet on that coast stands on its mark, and its moves start there. Supply centres are the
standard board's ring and dot inside the node; a home centre is ringed in its power's
colour. Names are the provinces' abbreviations, above their nodes; the layout keeps
every node's box, its name and coast marks included, apart from every other's.

The board is then drawn by judge/render/board.py like the standard one: owners' tints,
units, orders, legend. The same map gives the same drawing (the layout is deterministic),
computed once per process and map.
"""

from __future__ import annotations

import colorsys
import math
from functools import lru_cache

from judge.engine.geography import IMPASSABLE, SEA, GameMap
from judge.render.canvas import PATTERNS, Hatch, Point, path_data
from judge.render.drawing import (
    Drawing,
    Mark,
    PowerStyle,
    ProvinceDrawing,
    Word,
    drawing_for,
    has_drawing,
    ink,
    mix,
)
from judge.render.layout import Box, lay_out

NODE = 21.0  # a node's half-size
LABEL_SIZE = 9.5  # the board's name size (judge/render/board.py)
LABEL_CHARS = 10  # a longer abbreviation is cut to this many characters, with "…"
COAST_SIZE = 8.0
COAST_SLOTS = 7  # places for coast marks round a node (more if it has more coasts)
COAST_AT = NODE + 5.0  # a coast mark's distance from its node's point
COAST_WORD_AT = NODE + 27.0  # its name's, beyond a fleet standing on the mark
SPACING = 105.0  # an edge's length before the nodes are pushed apart
MARGIN = 24.0
LEGEND_ROWS = 510  # the legend's height besides its table of powers (two caption lines)
POWER_ROW = 22

SEA_FILL, LAND_FILL, ROCK_FILL = "#b9d5ea", "#f3ecd9", "#b8b2a7"
ARMY_LINK, FLEET_LINK, BOTH_LINK = "#b39b6b", "#4f86b8", "#6b6258"
PALETTE = (
    "#d62728",
    "#1f77b4",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#7f7f7f",
    "#393b79",
    "#637939",
)


def picture_drawing(game_map: GameMap) -> Drawing:
    """The drawing a map's pictures are drawn from: its drawing file (or its base map's)
    where it has one, otherwise its schematic."""
    return drawing_for(game_map) if has_drawing(game_map) else schematic_drawing(game_map)


@lru_cache(maxsize=32)
def schematic_drawing(game_map: GameMap) -> Drawing:
    """The schematic board of a map (see the module's docstring), once per map object."""
    keys = sorted(game_map.provinces)
    index = {k: i for i, k in enumerate(keys)}
    edges = sorted({tuple(sorted((index[a], index[b]))) for a, b in _neighbours(game_map)})
    boxes = [_footprint(game_map, k) for k in keys]
    layout = lay_out(len(keys), [(a, b) for a, b in edges], boxes, SPACING, MARGIN)
    at = dict(zip(keys, layout.points, strict=True))
    powers = power_styles(game_map)
    provinces = {k: _province(game_map, k, at) for k in keys}
    legend = LEGEND_ROWS + POWER_ROW * len(powers)
    return Drawing(
        name=f"{game_map.name} (schematic)",
        width=int(layout.width),
        height=int(max(layout.height, legend)),
        sea_color=SEA_FILL,
        land_color=LAND_FILL,
        impassable_color=ROCK_FILL,
        border_color="#6b6258",
        powers=powers,
        provinces=provinces,
        decor=(),
        background="#fbfbf8",
        under=_links(game_map, provinces),
        over=_home_rings(game_map, at, powers)
        + _coast_marks(game_map, provinces)
        + _impassable_names(game_map, provinces),
    )


def label_text(key: str) -> str:
    """A province's name on the schematic: its abbreviation, cut to LABEL_CHARS."""
    return key if len(key) <= LABEL_CHARS else key[: LABEL_CHARS - 1] + "…"


def text_width(text: str, size: float) -> float:
    """A generous width of `text` in the board's font (DejaVu Sans): no character of it
    is wider than 1.0 em, and only a few are wider than 0.8 em."""
    return sum(1.0 if c in "MWmw@%…" or not c.isascii() else 0.8 for c in text) * size


def text_box(at: Point, text: str, size: float) -> Box:
    """The box (left, top, right, bottom) a centred word drawn at `at` lies in, its
    white halo included."""
    half = text_width(text, size) / 2 + 1.5
    return (at[0] - half, at[1] - 0.95 * size - 1.5, at[0] + half, at[1] + 0.25 * size + 1.5)


def _neighbours(game_map: GameMap) -> list[tuple[str, str]]:
    """Every pair of provinces an army or a fleet moves between (either way)."""
    pairs = [(a, b) for a, ends in game_map.army_moves.items() for b in ends]
    for loc, ends in game_map.fleet_moves.items():
        pairs += [(game_map.province_of(loc), game_map.province_of(e)) for e in ends]
    return [
        (a, b) for a, b in pairs if a != b and a in game_map.provinces and b in game_map.provinces
    ]


def _footprint(game_map: GameMap, key: str) -> Box:
    """A node's box, from its point: the node, its name above, its coast marks around."""
    reach = COAST_WORD_AT + 10.0 if len(game_map.provinces[key].coasts) > 1 else NODE + 3.0
    name = text_box((0.0, -NODE - 5.0), label_text(key), LABEL_SIZE)
    return (min(-reach, name[0]), min(-reach, name[1]), max(reach, name[2]), reach)


def _shape(kind: str, at: Point) -> tuple[tuple[Point, ...], ...]:
    """A node's outline: a circle for a sea, a rounded square for land, a smaller square
    for impassable land."""
    x, y = at
    if kind == SEA:
        steps = 28
        return (
            tuple(
                (
                    round(x + NODE * math.cos(2 * math.pi * s / steps), 2),
                    round(y + NODE * math.sin(2 * math.pi * s / steps), 2),
                )
                for s in range(steps)
            ),
        )
    r, c = (NODE * 0.7, 3.0) if kind == IMPASSABLE else (NODE, 7.0)
    corners = ((r - c, -r), (r, -r + c), (r, r - c), (r - c, r))
    ring = [(x + dx, y + dy) for dx, dy in corners]
    ring += [(x - dx, y + dy) for dx, dy in reversed(corners)]
    return (tuple(ring),)


def _province(game_map: GameMap, key: str, at: dict[str, Point]) -> ProvinceDrawing:
    """A node as the board draws a province: outline, unit point, centre, name, coasts."""
    prov = game_map.provinces[key]
    x, y = at[key]
    rings = _shape(prov.kind, (x, y))
    return ProvinceDrawing(
        rings=rings,
        path=path_data(rings),
        label=(x, y - NODE - 5.0),
        label_text=label_text(key),
        unit=(x, y),
        center=(x - 12.0, y + 12.0) if prov.supply_center else None,
        coasts=_coast_points(game_map, key, at) if len(prov.coasts) > 1 else {},
    )


def _coast_points(game_map: GameMap, key: str, at: dict[str, Point]) -> dict[str, Point]:
    """Where each coast of a multi-coast province is marked: on one of its node's slots
    (from its right round its bottom to its left: the name is above), the free slot
    nearest the direction of the provinces that coast reaches; coasts in name order."""
    x, y = at[key]
    coasts = sorted(game_map.provinces[key].coasts)
    count = max(COAST_SLOTS, len(coasts))
    slots = [math.radians(-20 + 220 * s / (count - 1)) for s in range(count)]
    out = {}
    for coast in coasts:
        ends = sorted(game_map.fleet_moves.get(f"{key}/{coast}", ()))
        dx = sum(at[game_map.province_of(e)][0] - x for e in ends)
        dy = sum(at[game_map.province_of(e)][1] - y for e in ends)
        want = math.atan2(dy, dx) if (dx or dy) else math.pi / 2

        def turn(angle: float, want: float = want) -> tuple[float, float]:
            return (round(abs((angle - want + math.pi) % (2 * math.pi) - math.pi), 9), angle)

        angle = min(slots, key=turn)
        slots.remove(angle)
        point = (x + COAST_AT * math.cos(angle), y + COAST_AT * math.sin(angle))
        out[coast] = (round(point[0], 2), round(point[1], 2))
    return out


def coast_words(game_map: GameMap, provinces: dict[str, ProvinceDrawing]) -> list[Word]:
    """The names of the coast marks ("nc"), beyond each mark from its node."""
    words = []
    for key in sorted(provinces):
        pd = provinces[key]
        for coast, (cx, cy) in sorted(pd.coasts.items()):
            x, y = pd.unit
            d = math.hypot(cx - x, cy - y) or 1.0
            ux, uy = (cx - x) / d, (cy - y) / d
            wx, wy = x + ux * COAST_WORD_AT, y + uy * COAST_WORD_AT + COAST_SIZE * 0.35
            words.append(
                Word(
                    (round(wx, 2), round(wy, 2)), label_text(coast.lower()), COAST_SIZE, FLEET_LINK
                )
            )
    return words


def _coast_marks(
    game_map: GameMap, provinces: dict[str, ProvinceDrawing]
) -> tuple[Mark | Word, ...]:
    """Each coast of a multi-coast province: a blue dot on its node's rim, and its name."""
    marks: list[Mark | Word] = []
    for key in sorted(provinces):
        for _, (cx, cy) in sorted(provinces[key].coasts.items()):
            steps = 12
            ring = tuple(
                (
                    round(cx + 5 * math.cos(2 * math.pi * s / steps), 2),
                    round(cy + 5 * math.sin(2 * math.pi * s / steps), 2),
                )
                for s in range(steps)
            )
            marks.append(Mark((ring,), SEA_FILL, FLEET_LINK, 1.5))
    return tuple(marks) + tuple(coast_words(game_map, provinces))


def _impassable_names(game_map: GameMap, provinces: dict[str, ProvinceDrawing]) -> tuple[Word, ...]:
    """The names of impassable provinces (the board names only those units may enter)."""
    return tuple(
        Word(pd.label, pd.label_text or key, LABEL_SIZE, "#555")
        for key, pd in sorted(provinces.items())
        if game_map.provinces[key].kind == IMPASSABLE
    )


def _links(game_map: GameMap, provinces: dict[str, ProvinceDrawing]) -> tuple[Mark, ...]:
    """The adjacency lines: one per pair of places a unit moves between; an army's and
    a fleet's move between the same two points drawn once, as both."""
    kinds: dict[tuple[Point, Point], set[str]] = {}

    def add(a: str, b: str, kind: str) -> None:
        pa, pb = _point(provinces, a), _point(provinces, b)
        kinds.setdefault((min(pa, pb), max(pa, pb)), set()).add(kind)

    for a, ends in game_map.army_moves.items():
        for b in ends:
            if a in provinces and b in provinces:
                add(a, b, "army")
    for a, ends in game_map.fleet_moves.items():
        for b in ends:
            if game_map.province_of(a) in provinces and game_map.province_of(b) in provinces:
                add(a, b, "fleet")
    out = []
    for (pa, pb), kind in sorted(kinds.items()):
        if kind == {"army", "fleet"}:
            out.append(Mark(((pa, pb),), None, BOTH_LINK, 2.2, None, False))
        elif kind == {"army"}:
            out.append(Mark(((pa, pb),), None, ARMY_LINK, 2.2, None, False))
        else:
            out.append(Mark(((pa, pb),), None, FLEET_LINK, 2.0, (6.0, 4.0), False))
    return tuple(out)


def _point(provinces: dict[str, ProvinceDrawing], location: str) -> Point:
    """A location's point on the schematic: its coast mark, or its node's point."""
    key, _, coast = location.partition("/")
    pd = provinces[key]
    return pd.coasts.get(coast, pd.unit) if coast else pd.unit


def _home_rings(
    game_map: GameMap, at: dict[str, Point], powers: dict[str, PowerStyle]
) -> tuple[Mark | Word, ...]:
    """Each home centre's node ringed in its power's colour (the first power by key,
    should two powers share one)."""
    home: dict[str, str] = {}
    for key in sorted(game_map.powers, reverse=True):
        for c in game_map.powers[key].home_centers:
            home[c] = key
    out: list[Mark | Word] = []
    for c in sorted(home):
        if c in at:
            rings = _shape(game_map.provinces[c].kind, at[c])
            out.append(Mark(rings, None, powers[home[c]].color, 3.5))
    return tuple(out)


def power_styles(game_map: GameMap) -> dict[str, PowerStyle]:
    """A colour, pattern and letter for each power, in the map's order: the palette's
    twelve colours first, then hues a golden angle apart; the patterns in turn."""
    patterns = list(PATTERNS)
    out = {}
    for n, (key, power) in enumerate(game_map.powers.items()):
        if n < len(PALETTE):
            color = PALETTE[n]
        else:
            r, g, b = colorsys.hls_to_rgb((n * 0.381966) % 1.0, 0.45, 0.65)
            color = "#" + "".join(f"{round(v * 255):02x}" for v in (r, g, b))
        pattern = patterns[n % len(patterns)]
        out[key] = PowerStyle(
            color=color,
            tint=mix(color, 0.55),
            ink=ink(color),
            pattern=pattern,
            letter=(power.initial or key[:1])[:2],
            hatch=Hatch(key, pattern, color),
        )
    return out
