"""A picture's pixels: a copy of its map's cached layers (judge/render/layers.py) with
only what its position changes drawn on it, in the order judge/render/board.py
`draw_board` draws the whole picture in."""

from __future__ import annotations

from typing import Any

from judge.render.board import (
    Scene,
    draw_centers,
    draw_pieces,
    occupants,
    province_fills,
)
from judge.render.canvas import CairoCanvas
from judge.render.layers import Layers, layers, picture_size
from judge.render.legend import draw_legend, layout_key


def draw_pixels(s: Scene, scale: float = 1.0) -> Any:  # a cairocffi ImageSurface
    """The picture of `s`, `scale` times the drawing's size, as a Cairo RGB24 surface
    (ImportError or OSError without cairocffi or libcairo2)."""
    gm, dr = s.before.game_map, s.dr
    legend = (s.caption, s.orders, s.with_after)
    layout = layout_key(s.before, s.board, *legend)
    ly = layers(s.before, s.board, dr, scale, legend, layout)
    canvas = CairoCanvas(*picture_size(gm, dr), scale, base=ly.ground, stamps=True)
    # The board's own drawing stays left of the legend, which was drawn over it: what
    # reaches past its edge is hidden, and its frame's line lies over the board's edge.
    frame = [[(dr.width, 0.0), (dr.width, float(dr.height))]]
    canvas.clip((0, 0, dr.width, dr.height))
    _draw_board(canvas, s, ly)
    canvas.shape(frame, None, dr.border_color, 1.0, closed=False)
    canvas.unclip()
    draw_legend(canvas, s.before, s.board, dr, *legend, part="varying")
    return canvas.pixels()


def _draw_board(canvas: CairoCanvas, s: Scene, ly: Layers) -> None:
    """What the position changes on the board, over its cached layers."""
    gm, dr = s.before.game_map, s.dr
    for f in province_fills(gm, dr, s.owner, occupants(s.board), only_changed=True):
        masks = ly.masks.get(f.key)
        if masks is None:
            continue  # a province drawn with no outline: nothing to fill
        fill, border = masks
        hatch = ((fill, f.hatch),) if f.hatch is not None else ()
        canvas.lay_painted(((fill, f.color), (border, dr.border_color), *hatch))
    if ly.decor is not None:
        canvas.lay(ly.decor)
    draw_centers(canvas, gm, dr, s.owner)
    if ly.labels is not None:
        canvas.lay(ly.labels)
    draw_pieces(canvas, s)
