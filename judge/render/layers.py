"""The parts of a map's picture that no position changes, drawn once per process and
kept: a picture is a copy of them with only what the position changes drawn on it.

Three layers per map, size and legend layout (judge/render/legend.py `layout_key`):
- `ground`: the board nobody owns (the sea, every province in its plain colour with its
  border, the schematic's lines under them) and the legend's fixed part (its frame,
  title, the powers' swatches and names, the key), opaque;
- `decor`: the drawing's decor and marks (a schematic's), transparent, laid over the
  provinces an owner tints (None when the drawing has none);
- `labels`: the provinces' names, transparent, laid over the centres.
The picture's own drawing (judge/render/pixels.py) goes between them, in the order of
judge/render/board.py `draw_board`: owned provinces, `decor`, the centres, `labels`,
units and orders, the legend's phase, caption and counts.

A cache entry is keyed by the map object itself (a GameMap is hashed by identity), its
drawing object's identity (the entry keeps the drawing, so the identity is not reused
while the entry lives), the scale and the layout: a map loaded later, even under the same
name, never meets another map's layers. At most LAYER_SETS entries are kept (the least
recently used goes first); one costs 4 bytes a pixel for each of its three layers
(the standard map's 1220 x 800 picture: 11.7 MB; the two overlays are shared by the
layouts of one map and scale, see `_overlays`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine.board import Position
from judge.engine.geography import IMPASSABLE, SEA, GameMap
from judge.render.board import BORDER, draw_decor, draw_ground, draw_labels
from judge.render.canvas import CairoCanvas, Mask, shape_mask
from judge.render.drawing import Drawing
from judge.render.legend import draw_legend, legend_width
from judge.render.lru import Lru
from judge.render.orders import Order

GROUNDS = 6  # the opaque ground layers kept: (map, scale, legend layout)
OVERLAYS = 3  # the pairs of transparent layers kept: (map, scale)


@dataclass(frozen=True)
class Overlays:
    drawing: Drawing  # kept so that the key's id(drawing) is not reused while cached
    decor: Any  # cairocffi ImageSurfaces (cairocffi is untyped); None: nothing drawn
    labels: Any
    masks: Mapping[str, tuple[Mask, Mask]]  # province -> what its fill and border cover


@dataclass(frozen=True)
class Layers:
    """The cached layers of one map, scale and legend layout (see the module's docstring)."""

    drawing: Drawing
    ground: Any  # a cairocffi ImageSurface
    decor: Any
    labels: Any
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
    """The decor (with every centre unowned) and the labels, each on a transparent layer."""
    decor = None
    if dr.decor or dr.over:
        canvas = CairoCanvas(*picture_size(gm, dr), scale, transparent=True)
        draw_decor(canvas, dr)
        decor = canvas.pixels()
    labels = CairoCanvas(*picture_size(gm, dr), scale, transparent=True)
    draw_labels(labels, gm, dr)
    return Overlays(dr, decor, labels.pixels(), _masks(gm, dr, scale))


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
