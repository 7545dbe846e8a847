"""Milliseconds per board picture, SVG text and PNG bytes, for the opening, a Spring 1901
results map (moves, supports, a convoy, bounces, a dislodgement) drawn on the board before
the phase, and the same results drawn on the board after it (the results mail's picture).
The PNG is split into drawing (Cairo) and encoding (Pillow: 256 colours, zlib).

    .venv/bin/python benchmarks/render.py [repeats]

Target: under 100 ms per PNG.
"""

from __future__ import annotations

import json
import sys
import time

from judge.engine.adjudication import adjudicate
from judge.engine.board import starting_position
from judge.render.board import draw_board, render_svg
from judge.render.drawing import drawing_for
from judge.render.legend import LEGEND_WIDTH
from judge.render.png import PngUnavailable, encode_palette, render_png
from judge.variants.json_contract import adjudicate_line, position_from_json
from judge.variants.maps import load_map

SPRING = {
    "phase": "S1901M",
    "units": {
        "FRANCE": ["A PAR", "A MAR", "F BRE"],
        "GERMANY": ["A MUN", "F KIE", "A BER"],
        "ENGLAND": ["A LON", "F NTH", "F EDI"],
        "ITALY": ["A VEN", "F ROM", "A TYR"],
        "AUSTRIA": ["A TRI", "A VIE"],
        "RUSSIA": ["F STP/SC", "A WAR"],
        "TURKEY": ["F BUL/EC", "A CON"],
    },
    "orders": {
        "FRANCE": ["A Par-Bur", "A Mar S A Par - Bur", "F Bre H"],
        "GERMANY": ["A Mun-Bur", "F Kie-Hol", "A Ber S A Mun"],
        "ENGLAND": ["A Lon-Bel", "F NTH C A Lon - Bel", "F Edi - NWG"],
        "ITALY": ["A Ven - Tri", "F Rom - TYS", "A Tyr S A Ven - Tri"],
        "AUSTRIA": ["A Vie - Gal", "A Tri H"],
        "RUSSIA": ["F StP/sc - Bot", "A War - Gal"],
        "TURKEY": ["F Bul/ec - Bla", "A Con - Bul"],
    },
}


def timed(fn, repeats: int) -> float:
    fn()  # warm-up: loads the map and drawing data once
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) * 1000 / repeats


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    opening = starting_position(load_map())
    spring, orders, rules = position_from_json(SPRING)
    results = adjudicate_line(json.dumps(SPRING))
    after = adjudicate(spring, orders, rules).position
    cases = {
        "opening": (opening, None, None),
        "spring 1901, before": (spring, results, None),
        "spring 1901, after": (spring, results, after),
    }
    for name, (pos, res, aft) in cases.items():
        svg_ms = timed(lambda pos=pos, res=res, aft=aft: render_svg(pos, res, after=aft), repeats)
        size = len(render_svg(pos, res, after=aft))
        try:
            png_ms = timed(
                lambda pos=pos, res=res, aft=aft: render_png(pos, res, after=aft), repeats
            )
            png = render_png(pos, res, after=aft)
            draw_ms, encode_ms = _split(pos, res, aft, repeats)
            text = (
                f"PNG {png_ms:6.1f} ms ({len(png) // 1024} KiB; draw {draw_ms:.1f},"
                f" encode {encode_ms:.1f})"
            )
        except PngUnavailable as e:
            text = f"PNG unavailable ({e})"
        print(f"{name:20s} SVG {svg_ms:5.2f} ms ({size // 1024} KiB)   {text}")


def _split(pos, res, aft, repeats: int) -> tuple[float, float]:
    from judge.render.canvas import CairoCanvas

    dr = drawing_for(pos.game_map)

    def draw():
        canvas = CairoCanvas(dr.width + LEGEND_WIDTH, dr.height)
        draw_board(canvas, pos, res, after=aft, drawing=dr)
        return canvas.pixels()

    image = draw()
    data = bytes(image.get_data())
    size = (image.get_width(), image.get_height(), image.get_stride())
    return timed(draw, repeats), timed(lambda: encode_palette(data, *size), repeats)


if __name__ == "__main__":
    main()
