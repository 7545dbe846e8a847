"""A map's 256 colours, chosen once per process and map, and a picture's pixels written
as an 8-bit PNG in them.

Choosing colours for each picture (Pillow's FASTOCTREE over its million pixels) cost
about 7-11 ms a picture. A map's pictures all share their colours: its sea, land, borders,
names, each power's colour, tint and pattern, the units and orders drawn in them, and the
antialiased blends between these. So the colours are chosen once, from a sample picture
of the map (its opening with every unit's order drawn, half of them failed, and a
dislodged and a removed unit) by FASTOCTREE, and the colours that cover most of the
sample (flat fills: the ones a reader compares) are put in exactly; each picture's pixels
are then only mapped to their nearest colour (about 1 ms).

The PNG was written by Pillow at zlib's level 1: about 3.8 ms for the standard map's
results picture instead of 7.8 ms at level 6, for a fifth more bytes (about 108 KiB
instead of 90; zlib's run-length strategy, 3.4 ms, wrote 148 KiB). It is now written by
judge/render/png_write.encode_rows with zlib-ng: smaller and faster than either."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from judge.engine.board import Position, starting_position
from judge.engine.geography import GameMap
from judge.render.board import draw_board
from judge.render.canvas import CairoCanvas
from judge.render.drawing import Drawing
from judge.render.layers import picture_size
from judge.render.lru import Lru
from judge.render.png_write import encode_rows

EXACT = 64  # the sample's most common colours, kept exactly
PALETTES = 8  # maps whose palettes are kept


@dataclass(frozen=True)
class Palette:
    """A map's colours: `colours` (flat RGB, 256 entries) are written in the PNG;
    `matching` is the palette image Pillow maps pixels with (see `_palette`)."""

    colours: list[int]
    matching: Any  # a PIL Image in mode "P"
    matching_bgr: Any  # the same with each entry's red and blue swapped (`mapped`)

    @property
    def rgb(self) -> bytes:
        """`colours` as the bytes of a PNG's PLTE chunk."""
        return bytes(self.colours)


_palettes: Lru[tuple[GameMap, int], tuple[Drawing, Palette]] = Lru(PALETTES)


def as_image(surface: Any) -> Any:  # cairocffi ImageSurface -> PIL Image (both untyped)
    """A Cairo RGB24 surface's pixels as a Pillow RGB image, which reads the surface's
    memory: the caller keeps the surface while the image is used (or copies it)."""
    from PIL import Image

    order = "BGRX" if sys.byteorder == "little" else "XRGB"
    size = (surface.get_width(), surface.get_height())
    data = surface.get_data()
    return Image.frombuffer("RGB", size, data, "raw", order, surface.get_stride(), 1)


def encode(surface: Any, gm: GameMap, dr: Drawing) -> bytes:
    """A picture of `gm` drawn with `dr` as an 8-bit PNG in the map's colours (ImportError
    without Pillow)."""
    from PIL import Image

    palette = palette_for(gm, dr)
    width, height = surface.get_width(), surface.get_height()
    # Each row led by its PNG filter type, 0 (none): a zero column pasted before the
    # pixels, by Pillow in C (a row at a time in Python cost about half a millisecond).
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(mapped(surface, palette), (1, 0))
    return encode_rows(rows.tobytes(), width, height, palette.rgb)


def mapped(surface: Any, palette: Palette) -> Any:  # a PIL Image in mode "P"
    """A Cairo RGB24 surface's pixels mapped to `palette`'s entries: what Pillow's
    `quantize(palette=palette.matching)` of `as_image(surface)` gives.

    Pillow copies the surface into an RGB image (Cairo keeps a pixel's bytes as B, G, R,
    unused), about 1.5 ms of a 15 ms picture. Read in place instead as RGBX, its pixels'
    red and blue are swapped: so they are mapped against the palette with red and blue
    swapped. Pillow refuses to quantize an RGBX image, so this calls what its `quantize`
    calls; a Pillow without that call, or a big-endian machine, takes the copy."""
    from PIL import Image

    if sys.byteorder == "little":
        size = (surface.get_width(), surface.get_height())
        data = surface.get_data()
        view = Image.frombuffer("RGBX", size, data, "raw", "RGBX", surface.get_stride(), 1)
        try:
            return view._new(view.im.convert("P", Image.Dither.NONE, palette.matching_bgr.im))
        except (AttributeError, TypeError, ValueError):  # Pillow's internals changed
            pass
    return as_image(surface).quantize(palette=palette.matching, dither=Image.Dither.NONE)


def palette_for(gm: GameMap, dr: Drawing) -> Palette:
    """The map's colours (once per process, map and drawing)."""
    return _palettes.get((gm, id(dr)), lambda: (dr, _palette(gm, dr)))[1]


def _palette(gm: GameMap, dr: Drawing) -> Palette:
    """The colours of `_sample`: its EXACT commonest, then FASTOCTREE's for the rest.

    Pillow maps a pixel to the entry nearest its colour with each channel's two low bits
    cleared (a cache of 64 levels a channel), which would map a flat colour to a near
    neighbour. So the pixels are mapped against the colours with those bits cleared, and
    the picture's palette then set to the colours themselves: each exact colour maps to
    itself. Of two colours alike but for those bits only the commoner is kept."""
    from PIL import Image

    sample = _sample(gm, dr)
    counts = sample.getcolors(sample.width * sample.height)
    common = [c for _, c in sorted(counts, key=lambda nc: (-nc[0], nc[1]))]
    octree = sample.quantize(256 - EXACT, Image.Quantize.FASTOCTREE, dither=0)
    flat = octree.getpalette() or []
    rest = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    colours: dict[tuple[int, ...], tuple[int, ...]] = {}  # cleared -> the colour
    for c in [*common[:EXACT], *rest]:
        colours.setdefault(_cleared(c), c)
    kept = list(colours.items())[:256]
    matching, matching_bgr = Image.new("P", (1, 1)), Image.new("P", (1, 1))
    matching.putpalette([v for cleared, _ in kept for v in cleared])
    matching_bgr.putpalette([v for cleared, _ in kept for v in cleared[::-1]])
    matching_bgr.load()
    return Palette([v for _, c in kept for v in c], matching, matching_bgr)


def _cleared(colour: tuple[int, ...]) -> tuple[int, ...]:
    """`colour` with each channel's two low bits cleared (what Pillow maps by)."""
    return tuple(v & ~3 for v in colour)


def _sample(gm: GameMap, dr: Drawing) -> Any:
    """The map's opening with every unit's order drawn (a hold; every other one failed),
    the first unit dislodged and the second removed: a picture with every power's
    colours on land, sea and the legend, and the red and dark marks."""
    start = starting_position(gm)
    results: dict[str, list[dict[str, str]]] = {}
    for i, u in enumerate(start.units):
        result = "dislodged" if i < 2 else "bounce" if i % 2 else "ok"
        results.setdefault(u.power, []).append({"order": f"{u} H", "result": result})
    # Drawn whole, not from the cached layers: the sample's legend layout is no
    # picture's, and its ground would only take a place in their cache.
    canvas = CairoCanvas(*picture_size(gm, dr))
    draw_board(canvas, start, {"results": results}, after=_without(start, 1), drawing=dr)
    return as_image(canvas.pixels()).copy()


def _without(position: Position, n: int) -> Position:
    """`position` with its first `n` units gone (dislodged units drawn as destroyed)."""
    from dataclasses import replace

    return replace(position, units=position.units[n:])
