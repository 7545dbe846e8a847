"""The parts of a map's picture that no position changes, drawn once per process and
kept: a picture is a copy of them with only what the position changes drawn on it.

- `ground`, per map, scale and legend layout (judge/render/legend.py `layout_key`): the
  board nobody owns (the sea, every province in its plain colour with its border, the
  schematic's lines under them) and the legend's fixed part (its frame, title, the
  powers' swatches and names, the key); opaque, the picture's size;
- per map and scale (`Overlays`): `decor`, the drawing's decor and marks (a
  schematic's), and `labels`, the provinces' names, each transparent and only as large
  as what it covers; and `masks`, what each province an owner may tint covers, its fill
  and its border, 8 bits a pixel.
The picture's own drawing (judge/render/pixels.py) goes between them, in the order of
judge/render/board.py `draw_board`: owned provinces (their colours painted through their
masks), `decor`, the centres, `labels`, units and orders, the legend's changing lines.

An entry is keyed by the map object itself (a GameMap is hashed by identity), its drawing
object's identity (the entry keeps the drawing, so that identity is not reused while the
entry lives) and the scale: a map read again, even under the same name (an operator's map
folder), is a new object and never meets another map's layers. At most GROUNDS grounds
and OVERLAYS sets of overlays are kept, the least recently used dropped first. The
standard map at scale 1 (1220 x 800): a ground 3.7 MiB, its overlays 7.0 MiB (decor 2.8,
labels 2.7, masks 1.6); a worker drawing its results and start pictures holds about
14.5 MiB, at most (4 grounds, 2 sets of overlays) about 30 MiB; Chaos's ground, with the
wider legend, 4.3 MiB."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from judge.engine.board import Position
from judge.engine.geography import IMPASSABLE, SEA, GameMap
from judge.render.board import BORDER, draw_decor, draw_ground, draw_labels
from judge.render.canvas import CairoCanvas, Mask, layer_of, shape_mask
from judge.render.drawing import Drawing
from judge.render.legend import draw_legend, legend_width
from judge.render.lru import Lru
from judge.render.orders import Order

GROUNDS = 4  # the grounds kept: (map, scale, legend layout)
OVERLAYS = 2  # the sets of overlays kept: (map, scale)


@dataclass(frozen=True)
class Overlays:
    drawing: Drawing  # kept so that the key's id(drawing) is not reused while cached
    decor: Mask | None  # None: nothing drawn
    labels: Mask | None
    masks: Mapping[str, tuple[Mask, Mask]]  # province -> what its fill and border cover


@dataclass(frozen=True)
class Layers:
    """The cached layers of one map, scale and legend layout (see the module's docstring)."""

    drawing: Drawing
    ground: Any  # a cairocffi ImageSurface (cairocffi is untyped)
    decor: Mask | None
    labels: Mask | None
    masks: Mapping[str, tuple[Mask, Mask]]


_grounds: Lru[tuple[GameMap, int, float, Hashable], tuple[Drawing, Any]] = Lru(GROUNDS)
_overlays_cache: Lru[tuple[GameMap, int, float], Overlays] = Lru(OVERLAYS)


def picture_size(gm: GameMap, dr: Drawing) -> tuple[int, int]:
    """The picture's size in map units: the drawing and the legend beside it."""
    return dr.width + legend_width(gm), dr.height


def layers(
    before: Position,
    board: Position,
    dr: Drawing,
    scale: float,
    legend: tuple[str | None, list[Order], bool],
    layout: Hashable,
) -> Layers:
    """The layers of `before`'s map drawn with `dr` at `scale`, with the legend's fixed
    part for `layout` (`legend`: the caption, orders and whether drawn after, which the
    fixed part's place depends on; `layout` says what of them it depends on)."""
    gm = before.game_map
    overlays = _overlays_cache.get((gm, id(dr), scale), lambda: _overlays(gm, dr, scale))

    def ground() -> tuple[Drawing, Any]:
        width, height = picture_size(gm, dr)
        canvas = CairoCanvas(width, height, scale)
        draw_ground(canvas, gm, dr, {}, {})
        # The legend's frame line over the board's edge is drawn with each picture
        # (judge/render/pixels.py), over what it draws there.
        canvas.clip((dr.width, 0, width, height))
        draw_legend(canvas, before, board, dr, *legend, part="fixed")
        canvas.unclip()
        return dr, canvas.pixels()

    _, surface = _grounds.get((gm, id(dr), scale, layout), ground)
    return Layers(dr, surface, overlays.decor, overlays.labels, overlays.masks)


def _overlays(gm: GameMap, dr: Drawing, scale: float) -> Overlays:
    """The decor and the labels, each on a transparent layer as large as what it covers."""
    decor = layer_of(partial(draw_decor, dr=dr), scale) if dr.decor or dr.over else None
    labels = layer_of(partial(draw_labels, gm=gm, dr=dr), scale)
    return Overlays(dr, decor, labels, _masks(gm, dr, scale))


def _masks(gm: GameMap, dr: Drawing, scale: float) -> dict[str, tuple[Mask, Mask]]:
    """What each province an owner can tint covers: its fill and its border (a picture
    paints them in its owner's colours instead of drawing the shapes again)."""
    out = {}
    for key, prov in gm.provinces.items():
        pd = dr.provinces.get(key)
        if pd is None or (prov.kind in (SEA, IMPASSABLE) and key not in gm.supply_centers):
            continue
        fill, border = shape_mask(pd.rings, scale), shape_mask(pd.rings, scale, BORDER)
        if fill is not None and border is not None:
            out[key] = (fill, border)
    return out


def forget() -> None:
    """Drop every cached layer (tests; an operator's map folder changed)."""
    _grounds.clear()
    _overlays_cache.clear()
