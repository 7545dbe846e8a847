"""Pictures drawn from a map's cached layers (judge/render/layers.py, pixels.py) in the
map's colours (judge/render/palette.py) against the same pictures drawn whole.

`draw_board` on a plain CairoCanvas still draws every element in order, as all pictures
were drawn before the layers: OLD_PIXELS are the hashes of those pixels, computed by the
code before the layers (commit bc07e75), for each picture of tests/render_cases.py. A
picture from the layers differs from them only
- on the antialiased fringe of a border where a province its owner tints meets another
  (the whole drawing strokes each border right after its province's fill, so that a
  neighbour filled later covers half of the line; the layers draw the tinted provinces
  over the board nobody owns, so their own border lies on top), and
- by at most 2 levels of a channel where a cached part (the names, a centre, a unit, an
  order's line) is laid over the picture instead of drawn on it (the rounding of the
  second composite)."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from render_cases import cases

from judge.engine.board import starting_position
from judge.render import canvas, layers, palette
from judge.render.board import draw_board, occupants, province_fills, scene_for
from judge.render.canvas import CairoCanvas
from judge.render.layers import picture_size
from judge.render.legend import layout_key
from judge.render.lru import Lru
from judge.render.palette import as_image
from judge.render.pixels import draw_pixels
from judge.render.png import render_png
from judge.variants import maps
from judge.variants.maps import load_map

ROOT = Path(__file__).resolve().parent.parent
CASES = cases()
OLD_PIXELS = {
    "opening": "f7386b1fbdf71b5f",
    "spring 1901, before": "7f729d7c8a7f98fe",
    "spring 1901, after": "ef1342a7abb59e5c",
    "retreat": "e41c7d585a946aed",
    "build": "413cd89140e6c5a1",
    "chaos opening": "cc42710d041cb3eb",
    "chaos holds, after": "d1ed55c76a6d3f59",
    "schematic, after": "88481ef3923e1266",
    "spring 1901, after, half size": "2f1d5c01bfc97823",
}


def whole(name: str) -> Any:
    """The picture drawn whole, element by element (a cairocffi surface)."""
    args, kw = CASES[name]
    scale = kw.get("scale", 1.0)
    kw = {k: v for k, v in kw.items() if k != "scale"}
    s = scene_for(*args, **kw)
    canvas = CairoCanvas(*picture_size(s.before.game_map, s.dr), scale)
    draw_board(canvas, *args, **kw)
    return canvas.pixels()


def layered(name: str) -> Any:
    """The picture drawn from the cached layers (a cairocffi surface)."""
    args, kw = CASES[name]
    kw = dict(kw)
    scale = kw.pop("scale", 1.0)
    return draw_pixels(scene_for(*args, **kw), scale)


def copied(surface: Any) -> Image.Image:
    """A surface's pixels copied (`as_image` reads them in place: the surface is held
    here until the copy is made)."""
    return as_image(surface).copy()


def borders(name: str) -> Image.Image:
    """A mask of the pixels within 1.5 pixels of a province's outline."""
    args, kw = CASES[name]
    scale = kw.get("scale", 1.0)
    s = scene_for(*args, **{k: v for k, v in kw.items() if k != "scale"})
    canvas = CairoCanvas(*picture_size(s.before.game_map, s.dr), scale, transparent=True)
    for pd in s.dr.provinces.values():
        canvas.shape(pd.rings, None, "#000", 3.0 / scale)
    surface = canvas.pixels()
    size = (surface.get_width(), surface.get_height())
    data = surface.get_data()
    alpha = Image.frombuffer("RGBA", size, data, "raw", "BGRA", surface.get_stride(), 1)
    return alpha.getchannel("A").point(lambda v: 255 if v else 0)


def most(diff: Image.Image) -> Image.Image:
    """The largest difference of any channel, per pixel."""
    r, g, b = diff.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


@pytest.mark.parametrize("name", list(CASES))
def test_the_whole_drawing_is_todays_picture(name: str) -> None:
    surface = whole(name)  # kept: its data is read in place
    assert hashlib.sha256(bytes(surface.get_data())).hexdigest()[:16] == OLD_PIXELS[name]


@pytest.mark.parametrize("name", list(CASES))
def test_a_picture_from_the_layers_differs_only_on_borders_and_by_rounding(name: str) -> None:
    old, new = copied(whole(name)), copied(layered(name))
    assert old.size == new.size
    diff = most(ImageChops.difference(old, new))
    beyond_rounding = diff.point(lambda v: 255 if v > 2 else 0)
    assert ImageChops.subtract(beyond_rounding, borders(name)).getbbox() is None
    changed = diff.point(lambda v: 255 if v else 0).histogram()[255]
    assert changed < 0.03 * old.width * old.height  # 1.3% at full size, 2.5% at half


@pytest.mark.parametrize("name", ["opening", "spring 1901, after", "chaos holds, after"])
def test_the_png_keeps_the_flat_colours_exact_and_the_rest_close(name: str) -> None:
    args, kw = CASES[name]
    drawn = copied(layered(name))
    decoded = Image.open(io.BytesIO(render_png(*args, **kw))).convert("RGB")
    commonest = sorted(drawn.getcolors(1 << 20), reverse=True)[:8]
    for _, colour in commonest:  # the sea, land, legend, tints: each pixel kept exactly
        solid = Image.new("RGB", drawn.size, colour)
        where = most(ImageChops.difference(drawn, solid)).point(lambda v: 0 if v else 255)
        wrong = most(ImageChops.difference(decoded, solid)).point(lambda v: 255 if v else 0)
        assert ImageChops.multiply(where, wrong).getbbox() is None, colour
    diff = ImageChops.difference(drawn, decoded)
    counts = diff.histogram()  # once: each call counts every pixel again
    mean = sum(counts[i] * (i % 256) for i in range(768)) / (3 * diff.width * diff.height)
    assert mean < 0.6


def test_maps_met_in_any_order_draw_the_same_bytes_as_in_a_fresh_process() -> None:
    """Each map's layers, colours and stamps are its own: standard, then Chaos, then a
    schematic, then the standard map again give the bytes a process drawing only the
    standard map gives."""
    args, kw = CASES["spring 1901, after"]
    first = render_png(*args, **kw)
    for name in ("chaos holds, after", "schematic, after", "spring 1901, after, half size"):
        render_png(*CASES[name][0], **CASES[name][1])
    assert render_png(*args, **kw) == first
    script = (
        "import sys; sys.path.insert(0, 'tests'); from render_cases import cases;"
        "from judge.render.png import render_png;"
        "a, k = cases()['spring 1901, after']; sys.stdout.buffer.write(render_png(*a, **k))"
    )
    env = dict(os.environ, PYTHONHASHSEED="54321")
    fresh = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True, env=env, cwd=ROOT
    ).stdout
    assert fresh == first


def test_a_map_read_again_under_the_same_name_never_gets_the_old_maps_layers(
    tmp_path: Path,
) -> None:
    """An operator's map folder with its own `standard` (the sea another colour): the map
    read from it is a new map object, whose pictures are drawn from layers of its own."""
    before = render_png(starting_position(load_map()))
    old_sea = (0xCF, 0xE3, 0xF0)
    bundled = maps.MAPS_DIR
    (tmp_path / "standard.toml").write_text((bundled / "standard.toml").read_text())
    drawing = (bundled / "standard_drawing.toml").read_text()
    assert 'sea_color = "#cfe3f0"' in drawing
    (tmp_path / "standard_drawing.toml").write_text(
        drawing.replace('sea_color = "#cfe3f0"', 'sea_color = "#40a0ff"')
    )
    maps.use_operator_folder(tmp_path)
    try:
        after = render_png(starting_position(load_map()))
    finally:
        maps.use_operator_folder(None)
    colours = {c for _, c in Image.open(io.BytesIO(after)).convert("RGB").getcolors(1 << 20)}
    assert (0x40, 0xA0, 0xFF) in colours and old_sea not in colours
    assert render_png(starting_position(load_map())) == before  # the bundled map again


def test_the_caches_keep_at_most_their_sizes() -> None:
    """Pictures of many legend layouts (captions of 1 to 9 lines) and maps: no cache
    grows past its bound."""
    position = starting_position(load_map())
    for lines in range(1, 10):
        render_png(position, caption="\n".join(["Game x"] * lines))
    for name in ("chaos opening", "schematic, after"):
        render_png(*CASES[name][0], **CASES[name][1])
    assert len(layers._grounds.entries) <= layers.GROUNDS
    assert len(layers._overlays_cache.entries) <= layers.OVERLAYS
    assert len(palette._palettes.entries) <= palette.PALETTES


def test_a_weighed_cache_drops_the_least_recently_used_until_within_its_size() -> None:
    cache: Lru[str, str] = Lru(10, weigh=len)
    assert cache.get("a", lambda: "aaaa") == "aaaa"
    cache.get("b", lambda: "bbbb")
    assert cache.get("a", lambda: "made again") == "aaaa"  # kept; now the most recent
    cache.get("c", lambda: "ccccc")  # 13 in all: b, the least recently used, dropped
    assert list(cache.entries) == ["a", "c"] and cache.weight == 9
    cache.get("d", lambda: "d" * 20)  # heavier than the whole: kept alone
    assert list(cache.entries) == ["d"] and cache.weight == 20
    cache.clear()
    assert not cache.entries and cache.weight == 0


def _line_orders(name: str) -> int:
    """How many of a case's orders are lines (moves, retreats, supports, convoys)."""
    args, kw = CASES[name]
    s = scene_for(*args, **{k: v for k, v in kw.items() if k != "scale"})
    return sum(1 for o in s.orders if len(o.tokens) >= 4 and o.tokens[2] in ("-", "R", "S", "C"))


def test_an_orders_line_is_drawn_once_and_its_pixels_painted_again() -> None:
    """Each line order of the Spring picture is kept as a stamp (keyed by what it draws,
    not by its text); the picture drawn again paints them and gives the same bytes."""
    args, kw = CASES["spring 1901, after"]
    canvas._stamps.clear()
    first = render_png(*args, **kw)
    kept = [k for k in canvas._stamps.entries if k[0][0] == "order"]
    assert len(kept) == _line_orders("spring 1901, after") == 16
    assert canvas._stamps.weight <= canvas.STAMP_BYTES
    assert render_png(*args, **kw) == first
    assert [k for k in canvas._stamps.entries if k[0][0] == "order"] == kept


def test_a_drawing_larger_than_the_stamps_bound_is_drawn_in_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a bound no order's line fits in, none is kept, and the picture differs from
    the one painted from stamps by rounding alone."""
    name = "spring 1901, after"
    stamped = copied(layered(name))
    monkeypatch.setattr(canvas, "STAMP_PIXELS", 40 * 40)  # a unit fits; no arrow does
    canvas._stamps.clear()
    in_place = copied(layered(name))
    assert not [k for k in canvas._stamps.entries if k[0][0] == "order"]
    assert [k for k in canvas._stamps.entries if k[0][0] == "unit"]
    diff = most(ImageChops.difference(stamped, in_place))
    assert diff.getbbox() is not None  # the arrows were drawn otherwise
    assert diff.point(lambda v: 255 if v > 2 else 0).getbbox() is None


@pytest.mark.parametrize("name", ["spring 1901, after", "spring 1901, after, half size"])
def test_a_tinted_province_painted_from_its_stamp_is_its_three_masks_painted(name: str) -> None:
    """Each owned province's fill, border and pattern, painted as one kept stamp, match
    the three painted one after another on the board within rounding, its pattern on the
    picture's grid (a pattern set in the stamp's own space would be shifted)."""
    args, kw = CASES[name]
    kw = dict(kw)
    scale = kw.pop("scale", 1.0)
    s = scene_for(*args, **kw)
    legend = (s.caption, s.orders, s.with_after)
    ly = layers.layers(
        s.before, s.board, s.dr, scale, legend, layout_key(s.before, s.board, *legend)
    )
    size = picture_size(s.before.game_map, s.dr)
    each, stamped = (CairoCanvas(*size, scale, base=ly.ground) for _ in range(2))
    canvas._stamps.clear()
    fills = province_fills(s.before.game_map, s.dr, s.owner, occupants(s.board), only_changed=True)
    tinted = [f for f in fills if f.key in ly.masks]
    for f in tinted:
        fill, border = ly.masks[f.key]
        paints = [(fill, f.color), (border, s.dr.border_color)]
        paints += [(fill, f.hatch)] if f.hatch is not None else []
        for mask, paint in paints:
            each.lay_mask(mask, paint)
        stamped.lay_painted(tuple(paints))
    kept = [k for k in canvas._stamps.entries if k[0][0] == "painted"]
    assert len(tinted) == 27 and len(kept) == 27 - (3 if scale == 1.0 else 0)  # STP, MOS, SEV
    diff = most(ImageChops.difference(copied(each.pixels()), copied(stamped.pixels())))
    assert diff.getbbox() is not None  # painted otherwise: rounding differs
    assert diff.point(lambda v: 255 if v > 2 else 0).getbbox() is None


def test_a_map_warmed_up_draws_its_first_results_picture_from_what_it_readied() -> None:
    """pictures.warm_up (a picture worker's start, service/picture_pool.py) makes the
    map's colours, its overlays and the ground of a results picture's legend layout: the
    first real results picture then makes none of them again."""
    from judge.game import pictures

    caches = {
        "grounds": layers._grounds,
        "overlays": layers._overlays_cache,
        "palettes": palette._palettes,
    }

    def kept() -> dict[str, list[object]]:
        return {name: list(cache.entries) for name, cache in caches.items()}

    for cache in caches.values():
        cache.clear()
    pictures.warm_up("standard")
    made = kept()
    assert all(len(keys) == 1 for keys in made.values())
    args, kw = CASES["spring 1901, after"]
    render_png(*args, **kw)  # a one-line caption, as a game's results have
    assert kept() == made
