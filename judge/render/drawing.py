"""The drawing data of a map (`maps/<map>_drawing.toml`), read once per process.

Nothing here names a province or a power: a second map needs only its own drawing file.
The file's layout is described in maps/README.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from judge.engine.geography import GameMap, MapError
from judge.render.canvas import Hatch, Point, path_data
from judge.variants import maps
from judge.variants.maps import map_file


@dataclass(frozen=True)
class PowerStyle:
    color: str
    tint: str  # the colour mixed with white, for province fills
    ink: str  # black or white: the letter drawn on the colour
    pattern: str
    letter: str
    hatch: Hatch


@dataclass(frozen=True)
class ProvinceDrawing:
    rings: tuple[tuple[Point, ...], ...]  # outline; a ring inside another is a hole
    path: str  # the same as SVG path data
    label: Point
    label_text: str | None  # None: the province key in the map's usual case
    unit: Point
    center: Point | None
    coasts: Mapping[str, Point]


@dataclass(frozen=True)
class Decor:
    name: str
    rings: tuple[tuple[Point, ...], ...]
    path: str
    kind: str  # "land" (drawn like an impassable place) or "lake" (drawn like sea)


@dataclass(frozen=True)
class Mark:
    """A fixed line or shape of a drawing beyond its provinces (a schematic board's
    adjacency lines, coasts and home rings): drawn as `Canvas.shape` draws it."""

    rings: tuple[tuple[Point, ...], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    dash: tuple[float, ...] | None = None
    closed: bool = True


@dataclass(frozen=True)
class Word:
    """A fixed word of a drawing beyond the provinces' names (a schematic coast's name),
    centred on `at` (its baseline)."""

    at: Point
    text: str
    size: float
    color: str


@dataclass(frozen=True)
class Drawing:
    name: str
    width: int
    height: int
    sea_color: str
    land_color: str
    impassable_color: str
    border_color: str
    powers: Mapping[str, PowerStyle]
    provinces: Mapping[str, ProvinceDrawing]
    decor: tuple[Decor, ...]
    # A schematic board's (judge/render/schematic.py); a drawing file has none of these.
    background: str | None = None  # behind everything; None: the sea colour
    under: tuple[Mark, ...] = ()  # drawn under the provinces
    over: tuple[Mark | Word, ...] = ()  # drawn over the provinces, under the centres

    def point(self, location: str) -> Point:
        """Where a unit at `location` (`PAR`, `STP/SC`) is drawn."""
        prov, _, coast = location.partition("/")
        p = self.provinces[prov]
        return p.coasts.get(coast, p.unit) if coast else p.unit


def mix(color: str, amount: float) -> str:
    """`color` mixed with white: amount 0 is the colour, 1 is white."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in (r, g, b))


def ink(color: str) -> str:
    """Black or white, whichever reads better on `color`."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _rings(shape: Sequence[Sequence[Sequence[float]]]) -> tuple[tuple[Point, ...], ...]:
    """A drawing file's rings of [x, y] pairs as points; empty rings left out."""
    return tuple(tuple((float(x), float(y)) for x, y in ring) for ring in shape if ring)


def _point(value: Sequence[float]) -> Point:
    """A drawing file's [x, y] as a point."""
    return (float(value[0]), float(value[1]))


def has_drawing(game_map: GameMap) -> bool:
    """Whether `drawing_for(game_map)` finds a drawing."""
    names = (game_map.name, getattr(game_map, "base", None))
    return any(name and _path(name).exists() for name in names)


def drawing_for(game_map: GameMap) -> Drawing:
    """The drawing of a loaded map: its own drawing file or, for a variant that has none
    (maps/standard-6.toml), the drawing of the full map it is built on (its `base`)."""
    for name in (game_map.name, getattr(game_map, "base", None)):
        if name and _path(name).exists():
            return load_drawing(name)
    raise MapError(f"no drawing for map {game_map.name!r}")


def _path(name: str) -> Path:
    """maps/<name>_drawing.toml (the operator's map folder first); MapError for a name that
    is no plain word. A path that does not exist when no folder has the file."""
    if not name.replace("_", "").replace("-", "").isalnum():
        raise MapError(f"no drawing for map {name!r}")
    return map_file(f"{name}_drawing") or maps.MAPS_DIR / f"{name}_drawing.toml"


def load_drawing(name: str = "standard") -> Drawing:
    """Read `maps/<name>_drawing.toml` (once per process and file)."""
    path = _path(name)
    if not path.exists():
        raise MapError(f"no drawing for map {name!r}")
    return _read_drawing(name, path)


@cache
def _read_drawing(name: str, path: Path) -> Drawing:
    with path.open("rb") as f:
        data = tomllib.load(f)
    powers = {}
    for key, p in data.get("powers", {}).items():
        color = p["color"].lower()
        pattern = p.get("pattern", "dots")
        powers[key] = PowerStyle(
            color=color,
            tint=mix(color, float(p.get("tint", 0.55))),
            ink=ink(color),
            pattern=pattern,
            letter=p.get("letter", key[:1]),
            hatch=Hatch(key, pattern, color),
        )
    provinces = {}
    for key, p in data["provinces"].items():
        rings = _rings(p["shape"])
        unit = _point(p["unit"])
        provinces[key] = ProvinceDrawing(
            rings=rings,
            path=path_data(rings),
            label=_point(p.get("label", unit)),
            label_text=p.get("label_text"),
            unit=unit,
            center=_point(p["center"]) if "center" in p else None,
            coasts={c: _point(v) for c, v in p.get("coasts", {}).items()},
        )
    decor = []
    for d in data.get("decor", []):
        rings = _rings(d["shape"])
        decor.append(Decor(d.get("name", ""), rings, path_data(rings), d.get("kind", "land")))
    return Drawing(
        name=name,
        width=int(data.get("width", 1000)),
        height=int(data.get("height", 800)),
        sea_color=data.get("sea_color", "#cfe3f0"),
        land_color=data.get("land_color", "#f3ecd9"),
        impassable_color=data.get("impassable_color", "#b8b2a7"),
        border_color=data.get("border_color", "#6b6258"),
        powers=powers,
        provinces=provinces,
        decor=tuple(decor),
    )
