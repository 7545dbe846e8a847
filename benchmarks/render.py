"""Milliseconds per board picture, SVG text and PNG bytes, for each picture of
tests/render_cases.py: the standard opening, a Spring 1901 results map (moves, supports,
a convoy, bounces, a dislodgement) drawn on the board before the phase and on the board
after it (the results mail's picture), a retreat and a build phase, Chaos's 34 powers and
a schematic map (a map with no drawing file).

    .venv/bin/python benchmarks/render.py [repeats]

Each PNG is timed warm (the map's cached layers and colours made: judge/render/layers.py,
judge/render/palette.py), as the best and worst of 5 rounds of `repeats` pictures in CPU
time, split into drawing (Cairo, on a copy of the cached layers) and encoding (mapping to
the map's 256 colours and zlib); then, as `unshared`, with no stamp kept from the picture
before (each unit, centre, order's line and tinted province drawn anew, as a picture whose
parts no other picture of the process had); then the cold first picture of a map in a
fresh process: its layers and colours made, the drawing file or schematic layout read.
A picture timed again and again reuses its own stamps: `PNG` is a picture all of whose
parts were drawn before (the opening moves of a thousand games' burst come close).

Target: the results mail's picture of the standard map at most 15 ms warm.
"""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from render_cases import cases  # noqa: E402  (tests/render_cases.py)

from judge.render.board import render_svg, scene_for  # noqa: E402
from judge.render.canvas import forget_stamps  # noqa: E402
from judge.render.palette import encode  # noqa: E402
from judge.render.pixels import draw_pixels  # noqa: E402
from judge.render.png import PngUnavailable, render_png  # noqa: E402

ROUNDS = 5
COLD = ("opening", "chaos opening", "schematic, after")


def timed(fn, repeats: int) -> tuple[float, float]:
    """The best and worst of ROUNDS rounds of `repeats` calls, ms of CPU per call."""
    fn()  # warm-up: the map, its drawing, its layers and colours
    rounds = []
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(repeats):
            fn()
        rounds.append((time.process_time() - start) * 1000 / repeats)
    return min(rounds), max(rounds)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    if len(sys.argv) > 2:  # one cold picture, in this fresh process
        print(_cold(sys.argv[2]))
        return
    for name, (args, kw) in cases().items():
        scale = kw.get("scale", 1.0)
        svg_kw = {k: v for k, v in kw.items() if k != "scale"}
        svg_ms = timed(lambda a=args, k=svg_kw: render_svg(*a, **k), repeats)
        try:
            png_ms = timed(lambda a=args, k=kw: render_png(*a, **k), repeats)
            unshared_ms = timed(lambda a=args, k=kw: _unshared(a, k), repeats)
            png = render_png(*args, **kw)
            scene = scene_for(*args, **svg_kw)
            surface = draw_pixels(scene, scale)
            draw_ms = timed(lambda s=scene, x=scale: draw_pixels(s, x), repeats)
            gm, dr = scene.before.game_map, scene.dr
            encode_ms = timed(lambda s=surface, g=gm, d=dr: encode(s, g, d), repeats)
            text = (
                f"PNG {_ms(png_ms)} ({len(png) // 1024} KiB; draw {_ms(draw_ms)},"
                f" encode {_ms(encode_ms)}; unshared {_ms(unshared_ms)})"
            )
        except PngUnavailable as e:
            text = f"PNG unavailable ({e})"
        print(f"{name:30s} SVG {svg_ms[0]:5.2f} ms   {text}", flush=True)
    for name in COLD:
        out = subprocess.run(
            [sys.executable, __file__, "1", name], capture_output=True, text=True, check=True
        )
        print(f"cold, first picture of a process: {name:18s} {out.stdout.strip()}", flush=True)


def _unshared(args: tuple, kw: dict) -> bytes:
    """The PNG drawn with no stamp kept from another picture."""
    forget_stamps()
    return render_png(*args, **kw)


def _cold(name: str) -> str:
    """The first PNG of `name` in this process: ms of wall time, from the map loaded."""
    args, kw = cases()[name]
    start = time.perf_counter()
    png = render_png(*args, **kw)
    ms = (time.perf_counter() - start) * 1000
    return f"{ms:6.1f} ms ({len(io.BytesIO(png).getvalue()) // 1024} KiB)"


def _ms(span: tuple[float, float]) -> str:
    return f"{span[0]:.1f}-{span[1]:.1f} ms"


if __name__ == "__main__":
    main()
