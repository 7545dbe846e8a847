"""The palette PNG the pictures are written as (judge/render/png_write.encode_rows, zlib-ng):
read back by Pillow, it is exactly the pixels and colours given."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image
from render_cases import cases

from judge.render.board import scene_for
from judge.render.palette import as_image, mapped, palette_for
from judge.render.pixels import draw_pixels
from judge.render.png import render_png
from judge.render.png_write import PNG_SIGNATURE, encode_rows


def _rows(indices: bytes, width: int, height: int) -> bytes:
    """`indices` as a PNG's rows: each led by its filter type, 0 (none)."""
    return b"".join(b"\x00" + indices[y * width : (y + 1) * width] for y in range(height))


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (1220, 800), (33, 200)])
def test_the_indices_and_colours_read_back_exactly(size: tuple[int, int]) -> None:
    width, height = size
    rng = random.Random(width * 1000 + height)
    colours = bytes(rng.randrange(256) for _ in range(3 * 5))
    # Runs and noise, as a picture has: flat fills and antialiased edges.
    indices = bytes(
        rng.randrange(5) if rng.random() < 0.2 else (x // 40 + y // 30) % 5
        for y in range(height)
        for x in range(width)
    )
    data = encode_rows(_rows(indices, width, height), width, height, colours)
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert (image.mode, image.size) == ("P", size)
    assert image.tobytes() == indices
    assert bytes(image.getpalette() or [])[: len(colours)] == colours


def test_every_chunk_is_whole_and_checked() -> None:
    data = encode_rows(_rows(bytes([0, 1, 1, 0]), 2, 2), 2, 2, bytes([0, 0, 0, 255, 255, 255]))
    at, kinds = len(PNG_SIGNATURE), []
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        crc = int.from_bytes(data[at + 8 + length : at + 12 + length], "big")
        assert crc == zlib.crc32(kind + body), kind
        kinds.append(kind)
        at += 12 + length
    assert at == len(data)
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


def test_the_results_picture_is_pillows_own_quantization_pixel_for_pixel() -> None:
    args, kw = cases()["spring 1901, after"]
    scene = scene_for(*args, **kw)
    mine = Image.open(io.BytesIO(render_png(*args, **kw))).convert("RGB")
    pal = palette_for(scene.before.game_map, scene.dr)
    pillows = as_image(draw_pixels(scene)).quantize(palette=pal.matching, dither=0)
    pillows.putpalette(pal.colours)
    assert mine.tobytes() == pillows.convert("RGB").tobytes()


@pytest.mark.parametrize("case", sorted(cases()))
def test_the_pixels_read_in_place_map_as_pillows_quantize_maps_them(case: str) -> None:
    args, kw = cases()[case]
    scale = kw.pop("scale", 1.0)
    scene = scene_for(*args, **kw)
    surface = draw_pixels(scene, scale)
    pal = palette_for(scene.before.game_map, scene.dr)
    pillows = as_image(surface).quantize(palette=pal.matching, dither=0).tobytes()
    assert mapped(surface, pal).tobytes() == pillows
