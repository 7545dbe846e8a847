"""Two back ends for one drawing: SVG text, and Cairo pixels (cairocffi, for the PNG).

The board is drawn once, by judge/render/board.py, through the few calls below; each back
end turns them into its own output. The SVG carries `attrs` (data-unit, data-order, ...)
on its elements so that tests and tools can read the picture; Cairo ignores them. Points
are (x, y) in map units; a fill is a colour ("#rrggbb") or a `Hatch` (a power's pattern).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

from judge.render.lru import Lru

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom
Ring = Sequence[Point]
FONT = "DejaVu Sans"

# A pattern tile is 8 x 8 units; each pattern is line segments and dots inside the tile.
_DIAG = (((-2, 2), (2, -2)), ((0, 8), (8, 0)), ((6, 10), (10, 6)))
_ANTI = (((-2, 6), (2, 10)), ((0, 0), (8, 8)), ((6, -2), (10, 2)))
PATTERNS: dict[str, tuple[tuple[tuple[Point, Point], ...], tuple[Point, ...]]] = {
    "diagonal": (_DIAG, ()),
    "antidiagonal": (_ANTI, ()),
    "horizontal": ((((0, 4), (8, 4)),), ()),
    "vertical": ((((4, 0), (4, 8)),), ()),
    "crosshatch": (_DIAG + _ANTI, ()),
    "grid": ((((0, 4), (8, 4)), ((4, 0), (4, 8))), ()),
    "dots": ((), ((4, 4),)),
}
TILE = 8


@dataclass(frozen=True)
class Hatch:
    """A fill with a power's pattern: `pattern` (a PATTERNS key) drawn in `color`."""

    key: str  # the power key: the SVG pattern's id is pat-KEY
    pattern: str
    color: str


class Canvas(Protocol):
    """The calls judge/render/board.py draws with; SvgCanvas and CairoCanvas answer them.
    `begin` opens a group (an SVG <g> with `attrs`, drawn at `opacity`), `end` closes it."""

    def begin(self, attrs: Mapping[str, str] | None = None, opacity: float = 1.0) -> None: ...

    def end(self) -> None: ...

    def shape(
        self,
        rings: Iterable[Ring],
        fill: str | Hatch | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        closed: bool = True,
        attrs: Mapping[str, str] | None = None,
        data: str | None = None,
    ) -> None: ...

    def circle(
        self,
        center: Point,
        r: float,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        attrs: Mapping[str, str] | None = None,
    ) -> None: ...

    def text(
        self,
        at: Point,
        text: str,
        size: float,
        color: str = "#000",
        anchor: str = "middle",
        bold: bool = False,
        italic: bool = False,
        halo: str | None = None,
        attrs: Mapping[str, str] | None = None,
    ) -> None: ...

    def stamp(self, key: Hashable, box: Box, draw: Callable[[Canvas], None]) -> None:
        """What `draw` draws on this canvas, all of it inside `box`; the same `key` must
        draw the same (CairoCanvas keeps its pixels and paints them again)."""
        ...


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def path_data(rings: Iterable[Ring], closed: bool = True) -> str:
    out = []
    for ring in rings:
        if not ring:
            continue
        d = "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in ring)
        out.append(d + " Z" if closed else d)
    return " ".join(out)


@lru_cache(maxsize=1024)
def _rgb(color: str) -> tuple[float, float, float]:
    c = color.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255


@dataclass(frozen=True)
class Mask:
    """What a shape's fill or stroke covers, as an 8-bit Cairo surface placed at (x, y)
    in the picture's pixels (made by `shape_mask`)."""

    surface: Any  # a cairocffi ImageSurface (cairocffi is untyped)
    x: int
    y: int


def shape_mask(rings: Sequence[Ring], scale: float, stroke: float | None = None) -> Mask | None:
    """The pixels the closed `rings` (even-odd) cover, filled or (`stroke`: the line's
    width) stroked, at `scale`, as CairoCanvas.shape would draw them; None for no rings."""
    import cairocffi as cairo

    points = [p for ring in rings for p in ring]
    if not points:
        return None
    grow = (stroke or 0) / 2 + 2  # the line's half width and antialiasing, in map units
    x0 = math.floor((min(x for x, _ in points) - grow) * scale)
    y0 = math.floor((min(y for _, y in points) - grow) * scale)
    x1 = math.ceil((max(x for x, _ in points) + grow) * scale)
    y1 = math.ceil((max(y for _, y in points) + grow) * scale)
    surface = cairo.ImageSurface(cairo.FORMAT_A8, x1 - x0, y1 - y0)
    ctx = cairo.Context(surface)
    ctx.translate(-x0, -y0)  # whole pixels: the same coverage as drawn in place
    ctx.scale(scale, scale)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    for ring in rings:
        if ring:
            ctx.move_to(*ring[0])
            for p in ring[1:]:
                ctx.line_to(*p)
            ctx.close_path()
    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
    if stroke is None:
        ctx.fill()
    else:
        ctx.set_line_width(stroke)
        ctx.stroke()
    surface.flush()
    return Mask(surface, x0, y0)


def painted(layers: Sequence[tuple[Mask, str | Hatch]], scale: float) -> Mask:
    """What painting each paint through its mask in turn paints (CairoCanvas.lay_mask of
    each), on a transparent surface just covering the masks, placed in whole pixels."""
    import cairocffi as cairo

    x0, y0, x1, y1 = _extent([m for m, _ in layers])
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, x1 - x0, y1 - y0)
    ctx = cairo.Context(surface)
    for mask, paint in layers:
        if isinstance(paint, Hatch):  # its pattern set in the picture's own user space
            ctx.translate(-x0, -y0)
            ctx.scale(scale, scale)
            ctx.set_source(_hatch(paint, scale))
            ctx.identity_matrix()
        else:
            ctx.set_source_rgb(*_rgb(paint))
        ctx.mask_surface(mask.surface, mask.x - x0, mask.y - y0)
    surface.flush()
    return Mask(surface, x0, y0)


def _extent(masks: Sequence[Mask]) -> tuple[int, int, int, int]:
    """The pixels `masks` cover together: left, top, right, bottom."""
    return (
        min(m.x for m in masks),
        min(m.y for m in masks),
        max(m.x + m.surface.get_width() for m in masks),
        max(m.y + m.surface.get_height() for m in masks),
    )


def layer_of(draw: Callable[[Canvas], None], scale: float) -> Mask | None:
    """What `draw` draws at `scale` on a transparent surface only as large as what it
    covers, placed in whole pixels (None: it draws nothing)."""
    measure = CairoCanvas(1, 1, scale, transparent=True, recording=True)
    draw(measure)
    x, y, w, h = measure.surface.ink_extents()
    if w <= 0 or h <= 0:
        return None
    box = ((x - 1) / scale, (y - 1) / scale, (x + w + 1) / scale, (y + h + 1) / scale)
    return _stamp(box, draw, scale)


def _stamp(box: Box, draw: Callable[[Canvas], None], scale: float) -> Mask | None:
    """What `draw` draws inside `box`, at `scale`, on a transparent surface placed in
    whole pixels (None: an empty box)."""
    x0, y0 = math.floor(box[0] * scale), math.floor(box[1] * scale)
    x1, y1 = math.ceil(box[2] * scale), math.ceil(box[3] * scale)
    if x1 <= x0 or y1 <= y0:
        return None
    canvas = CairoCanvas((x1 - x0) / scale, (y1 - y0) / scale, scale, transparent=True)
    canvas.ctx.identity_matrix()
    canvas.ctx.translate(-x0, -y0)  # whole pixels: the same coverage as drawn in place
    canvas.ctx.scale(scale, scale)
    draw(canvas)
    return Mask(canvas.pixels(), x0, y0)


class SvgCanvas:
    """Collects SVG elements; `svg()` returns the document."""

    def __init__(self, width: int, height: int, attrs: Mapping[str, str] | None = None) -> None:
        self.width, self.height = width, height
        self.attrs = dict(attrs or {})
        self.parts: list[str] = []
        self.hatches: dict[str, Hatch] = {}

    def _a(self, attrs: Mapping[str, str] | None) -> str:
        return "".join(f" {k}={quoteattr(str(v))}" for k, v in (attrs or {}).items())

    def _paint(self, fill: str | Hatch | None) -> str:
        if fill is None:
            return "none"
        if isinstance(fill, Hatch):
            self.hatches[fill.key] = fill
            return f"url(#pat-{fill.key})"
        return fill

    def _stroke(self, stroke: str | None, width: float, dash: Sequence[float] | None) -> str:
        if stroke is None:
            return ' stroke="none"'
        out = f' stroke="{stroke}" stroke-width="{_f(width)}"'
        if dash:
            out += f' stroke-dasharray="{",".join(_f(d) for d in dash)}"'
        return out

    def begin(self, attrs: Mapping[str, str] | None = None, opacity: float = 1.0) -> None:
        extra = f' opacity="{_f(opacity)}"' if opacity < 1 else ""
        self.parts.append(f"<g{self._a(attrs)}{extra}>")

    def end(self) -> None:
        self.parts.append("</g>")

    def shape(
        self,
        rings: Iterable[Ring],
        fill: str | Hatch | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        closed: bool = True,
        attrs: Mapping[str, str] | None = None,
        data: str | None = None,
    ) -> None:
        """Polygons (closed) or polylines; `data`: the path data when already made."""
        d = data if data is not None else path_data(rings, closed)
        rule = ' fill-rule="evenodd"' if closed and fill is not None else ""
        self.parts.append(
            f'<path{self._a(attrs)} fill="{self._paint(fill)}"{rule}'
            f'{self._stroke(stroke, width, dash)} d="{d}"/>'
        )

    def circle(
        self,
        center: Point,
        r: float,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        attrs: Mapping[str, str] | None = None,
    ) -> None:
        self.parts.append(
            f'<circle{self._a(attrs)} cx="{_f(center[0])}" cy="{_f(center[1])}" r="{_f(r)}"'
            f' fill="{self._paint(fill)}"{self._stroke(stroke, width, dash)}/>'
        )

    def text(
        self,
        at: Point,
        text: str,
        size: float,
        color: str = "#000",
        anchor: str = "middle",
        bold: bool = False,
        italic: bool = False,
        halo: str | None = None,
        attrs: Mapping[str, str] | None = None,
    ) -> None:
        style = f' font-size="{_f(size)}" fill="{color}"'
        if anchor != "start":
            style += f' text-anchor="{anchor}"'
        if bold:
            style += ' font-weight="bold"'
        if italic:
            style += ' font-style="italic"'
        if halo:
            style += f' stroke="{halo}" stroke-width="2.6" stroke-linejoin="round"'
            style += ' paint-order="stroke"'
        self.parts.append(
            f'<text{self._a(attrs)} x="{_f(at[0])}" y="{_f(at[1])}"{style}>{escape(text)}</text>'
        )

    def stamp(self, key: Hashable, box: Box, draw: Callable[[Canvas], None]) -> None:
        draw(self)

    def svg(self) -> str:
        defs = []
        for key, h in sorted(self.hatches.items()):
            lines, dots = PATTERNS.get(h.pattern, PATTERNS["dots"])
            body = ""
            if lines:
                d = " ".join(f"M{a[0]},{a[1]} L{b[0]},{b[1]}" for a, b in lines)
                body += f'<path d="{d}"/>'
            body += "".join(f'<circle cx="{x}" cy="{y}" r="1.6" stroke="none"/>' for x, y in dots)
            defs.append(
                f'<pattern id="pat-{key}" width="{TILE}" height="{TILE}"'
                ' patternUnits="userSpaceOnUse">'
                f'<g stroke="{h.color}" fill="{h.color}" stroke-width="1.4" opacity="0.75">'
                f"{body}</g></pattern>"
            )
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}"'
            f' viewBox="0 0 {self.width} {self.height}" font-family="{FONT}, Arial, sans-serif"'
            f' stroke-linecap="round" stroke-linejoin="round"{self._a(self.attrs)}>'
        )
        return head + "<defs>" + "".join(defs) + "</defs>" + "".join(self.parts) + "</svg>"


# The stamps kept, by their pixels' bytes: a unit 5.5 KiB at scale 1, a move's arrow
# between neighbours about 30 KiB, a tinted province 10-160 KiB. A thousand games'
# Spring 1901 pictures drew 536 different lines: 18 MiB with the units and centres.
STAMP_BYTES = 24 * 1024 * 1024
# A drawing larger than this (pixels) is drawn in place, not kept: a convoy's long arrow
# would take a hundredth of the stamps' bytes, for the rare picture it recurs in.
STAMP_PIXELS = 160 * 160


def _weight(mask: Mask | None) -> int:
    """A stamp's bytes (what STAMP_BYTES bounds)."""
    return 64 if mask is None else mask.surface.get_stride() * mask.surface.get_height() + 64


_stamps: Lru[tuple[Hashable, float], Mask | None] = Lru(STAMP_BYTES, _weight)


def forget_stamps() -> None:
    """Drop every stamp kept (tests; benchmarks/render.py's picture sharing no part)."""
    _stamps.clear()


class CairoCanvas:
    """Draws straight onto a Cairo image surface, `scale` times the map's size: on white,
    or on a copy of `base` (a cached layer of the same size, judge/render/layers.py), or
    (`transparent`) on nothing, to be laid over another; with `stamps`, what is drawn by
    `stamp` is painted from kept pixels. `pixels()` returns the surface."""

    def __init__(
        self,
        width: float,
        height: float,
        scale: float = 1.0,
        *,
        base: Any = None,  # a cairocffi ImageSurface (cairocffi is untyped)
        transparent: bool = False,
        stamps: bool = False,
        recording: bool = False,
    ) -> None:
        import cairocffi as cairo  # OSError when libcairo2 is missing

        self.cairo = cairo
        kind = cairo.FORMAT_ARGB32 if transparent else cairo.FORMAT_RGB24
        if recording:  # only to learn where the drawing reaches (`layer_of`)
            self.surface = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None)
        else:
            self.surface = cairo.ImageSurface(kind, round(width * scale), round(height * scale))
        self.ctx = cairo.Context(self.surface)
        if base is not None:
            self.ctx.set_operator(cairo.OPERATOR_SOURCE)  # a copy: nothing to blend
            self.ctx.set_source_surface(base, 0, 0)
            self.ctx.paint()
            self.ctx.set_operator(cairo.OPERATOR_OVER)
        elif not transparent:
            self.ctx.set_source_rgb(1, 1, 1)
            self.ctx.paint()
        self.ctx.scale(scale, scale)
        self.scale = scale
        self.stamps = stamps
        self.ctx.set_line_cap(cairo.LINE_CAP_ROUND)
        self.ctx.set_line_join(cairo.LINE_JOIN_ROUND)
        self.fonts: dict[tuple[bool, bool], object] = {}
        # Each open group: its opacity and, for one drawn at less than 1, the context it
        # was begun on and the recording of what is drawn in it.
        self.groups: list[tuple[float, Any, Any]] = []

    def stamp(self, key: Hashable, box: Box, draw: Callable[[Canvas], None]) -> None:
        """Paint the pixels `draw` draws, drawn once per process, key and scale onto a
        transparent surface of `box` and kept (STAMP_BYTES of them at most): a centre's,
        a unit's or an order's dozen Cairo calls become one. Painted over the picture
        they differ from drawing in place only by the rounding of that second composite,
        at antialiased edges. Without `stamps` (the canvas's argument), or for a `box`
        over STAMP_PIXELS, `draw` draws in place."""
        width, height = (box[2] - box[0]) * self.scale, (box[3] - box[1]) * self.scale
        if not self.stamps or width * height > STAMP_PIXELS:
            draw(self)
            return
        self._lay_kept(key, lambda: _stamp(box, draw, self.scale))

    def clip(self, box: Box) -> None:
        """Draw only inside `box` (map units) until `unclip`."""
        self.ctx.save()
        self.ctx.rectangle(box[0], box[1], box[2] - box[0], box[3] - box[1])
        self.ctx.clip()

    def unclip(self) -> None:
        self.ctx.restore()

    def lay_mask(self, mask: Mask, paint: str | Hatch) -> None:
        """Paint `paint` through `mask`: what filling or stroking its shape paints."""
        self._source(paint)  # a pattern keeps the user space it was set in
        ctx = self.ctx
        ctx.save()
        ctx.identity_matrix()
        ctx.mask_surface(mask.surface, mask.x, mask.y)
        ctx.restore()

    def lay_painted(self, layers: tuple[tuple[Mask, str | Hatch], ...]) -> None:
        """What `lay_mask` of each (mask, paint) in turn paints: from kept pixels, as
        `stamp` keeps them (one composite for a tinted province's fill, border and
        pattern; over STAMP_PIXELS, painted in place)."""
        x0, y0, x1, y1 = _extent([m for m, _ in layers])
        if (x1 - x0) * (y1 - y0) > STAMP_PIXELS:
            for mask, paint in layers:
                self.lay_mask(mask, paint)
            return
        # Keyed by the masks themselves: one map's.
        self._lay_kept(("painted", layers), lambda: painted(layers, self.scale))

    def _lay_kept(self, key: Hashable, make: Callable[[], Mask | None]) -> None:
        """Lay the stamp kept for `key` at this scale, made by `make()` when there is none
        (None: nothing to lay)."""
        found = _stamps.get((key, self.scale), make)
        if found is not None:
            self.lay(found)

    def lay(self, layer: Mask) -> None:
        """Paint `layer` (a transparent surface, placed in this one's pixels) over it."""
        ctx = self.ctx
        ctx.save()
        ctx.identity_matrix()
        ctx.set_source_surface(layer.surface, layer.x, layer.y)
        ctx.paint()
        ctx.restore()

    def _source(self, paint: str | Hatch) -> None:
        if isinstance(paint, Hatch):
            self.ctx.set_source(_hatch(paint, self.scale))
        else:
            self.ctx.set_source_rgb(*_rgb(paint))

    def _finish(
        self,
        fill: str | Hatch | None,
        stroke: str | None,
        width: float,
        dash: Sequence[float] | None,
    ) -> None:
        ctx = self.ctx
        if fill is not None:
            self._source(fill)
            if stroke is None:
                ctx.fill()
            else:
                ctx.fill_preserve()
        if stroke is not None:
            self._source(stroke)
            ctx.set_line_width(width)
            ctx.set_dash(list(dash) if dash else [])
            ctx.stroke()
        else:
            ctx.new_path()

    def begin(self, attrs: Mapping[str, str] | None = None, opacity: float = 1.0) -> None:
        if opacity >= 1:
            self.groups.append((opacity, None, None))
            return
        # What the group draws is recorded, then composited at `opacity` within the
        # pixels it covers: a group as large as the picture cost about 1 ms to clear and
        # composite, for an order's few hundred pixels.
        cairo, outer = self.cairo, self.ctx
        recording = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None)
        self.groups.append((opacity, outer, recording))
        self.ctx = cairo.Context(recording)
        self.ctx.set_matrix(outer.get_matrix())
        self.ctx.set_line_cap(cairo.LINE_CAP_ROUND)
        self.ctx.set_line_join(cairo.LINE_JOIN_ROUND)

    def end(self) -> None:
        opacity, outer, recording = self.groups.pop()
        if outer is None:
            return
        self.ctx = outer
        x, y, w, h = recording.ink_extents()
        if w <= 0 or h <= 0:
            return  # nothing was drawn
        x0, y0 = math.floor(x), math.floor(y)
        outer.save()
        outer.identity_matrix()
        outer.rectangle(x0, y0, math.ceil(x + w) - x0, math.ceil(y + h) - y0)
        outer.clip()
        outer.push_group()
        outer.set_source_surface(recording, 0, 0)
        outer.paint()
        outer.pop_group_to_source()
        outer.paint_with_alpha(opacity)
        outer.restore()

    def shape(
        self,
        rings: Iterable[Ring],
        fill: str | Hatch | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        closed: bool = True,
        attrs: Mapping[str, str] | None = None,
        data: str | None = None,
    ) -> None:
        ctx = self.ctx
        move, line = ctx.move_to, ctx.line_to
        for ring in rings:
            if not ring:
                continue
            move(*ring[0])
            for p in ring[1:]:
                line(*p)
            if closed:
                ctx.close_path()
        if closed:
            ctx.set_fill_rule(self.cairo.FILL_RULE_EVEN_ODD)
        self._finish(fill, stroke, width, dash)

    def circle(
        self,
        center: Point,
        r: float,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        attrs: Mapping[str, str] | None = None,
    ) -> None:
        self.ctx.new_sub_path()
        self.ctx.arc(center[0], center[1], r, 0, 6.283185307)
        self._finish(fill, stroke, width, dash)

    def text(
        self,
        at: Point,
        text: str,
        size: float,
        color: str = "#000",
        anchor: str = "middle",
        bold: bool = False,
        italic: bool = False,
        halo: str | None = None,
        attrs: Mapping[str, str] | None = None,
    ) -> None:
        ctx, cairo = self.ctx, self.cairo
        key = (bold, italic)
        face = self.fonts.get(key)
        if face is None:
            face = self.fonts[key] = cairo.ToyFontFace(
                FONT,
                cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
                cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL,
            )
        ctx.set_font_face(face)
        ctx.set_font_size(size)
        x, y = at
        if anchor != "start":
            advance = ctx.text_extents(text)[4]
            x -= advance / 2 if anchor == "middle" else advance
        ctx.move_to(x, y)
        if halo:
            ctx.text_path(text)
            self._source(halo)
            ctx.set_line_width(2.6)
            ctx.set_dash([])
            ctx.stroke_preserve()
            self._source(color)
            ctx.fill()
        else:
            self._source(color)
            ctx.show_text(text)

    def pixels(self) -> Any:  # a cairocffi ImageSurface (cairocffi is untyped)
        self.surface.flush()
        return self.surface


@lru_cache(maxsize=256)
def _hatch(h: Hatch, scale: float) -> Any:  # a cairocffi SurfacePattern (cairocffi is untyped)
    """A power's pattern as a Cairo source, made once per process, pattern and scale
    (a pattern is only read by the pictures that use it)."""
    import cairocffi as cairo

    # One tile in device pixels, repeated without resampling (which is slow).
    side = max(1, round(TILE * scale))
    tile = cairo.ImageSurface(cairo.FORMAT_ARGB32, side, side)
    c = cairo.Context(tile)
    c.scale(side / TILE, side / TILE)
    c.set_source_rgba(*_rgb(h.color), 0.75)
    c.set_line_width(1.4)
    c.set_line_cap(cairo.LINE_CAP_ROUND)
    lines, dots = PATTERNS.get(h.pattern, PATTERNS["dots"])
    for a, b in lines:
        c.move_to(*a)
        c.line_to(*b)
    c.stroke()
    for x, y in dots:
        c.arc(x, y, 1.6, 0, 6.2832)
        c.fill()
    pattern = cairo.SurfacePattern(tile)
    pattern.set_extend(cairo.EXTEND_REPEAT)
    pattern.set_filter(cairo.FILTER_NEAREST)
    pattern.set_matrix(cairo.Matrix(xx=side / TILE, yy=side / TILE))
    return pattern
