"""Milliseconds per board picture: SVG text, and SVG -> PNG, for the opening and a
Spring 1901 results map (moves, supports, a convoy, bounces, a dislodgement).

    .venv/bin/python benchmarks/render.py [repeats]

Target: under 100 ms per map for each.
"""

from __future__ import annotations

import json
import sys
import time

from judge.adjudicate import adjudicate_line, position_from_json
from judge.engine.board import starting_position
from judge.engine.geography import load_map
from judge.render.board_svg import render_svg
from judge.render.png import PngUnavailable, svg_to_png

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
    spring = position_from_json(SPRING)[0]
    results = adjudicate_line(json.dumps(SPRING))
    cases = {"opening": (opening, None), "spring 1901 results": (spring, results)}
    for name, (pos, res) in cases.items():
        svg_ms = timed(lambda pos=pos, res=res: render_svg(pos, res), repeats)
        svg = render_svg(pos, res)
        try:
            png_ms = timed(lambda svg=svg: svg_to_png(svg), repeats)
            png = f"{png_ms:7.1f} ms"
        except PngUnavailable as e:
            png = f"unavailable ({e})"
        print(f"{name:22s} SVG {svg_ms:6.2f} ms ({len(svg) // 1024} KiB)   PNG {png}")


if __name__ == "__main__":
    main()
