"""The board as PNG bytes: drawn straight onto a Cairo surface (cairocffi, which needs
Debian's `libcairo2`) by the same drawing code as the SVG, then encoded.

Going through SVG and an SVG renderer (CairoSVG) cost about 130 ms a picture, nearly all
of it parsing the SVG in Python; drawing directly costs a quarter of that; drawing only
what the position changes on a copy of the map's cached layers (judge/render/pixels.py,
judge/render/layers.py) a tenth. The pixels are then mapped to the map's 256 colours
(judge/render/palette.py) and written as an 8-bit PNG: about a third of the bytes of an
RGB PNG, for a mail attachment. Without Pillow the RGB pixels are written with zlib.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from judge.render.png_write import PNG_SIGNATURE, chunk

if TYPE_CHECKING:  # the engine is imported when a picture is drawn
    from judge.engine.board import Position


class PngUnavailable(RuntimeError):
    """cairocffi or the Cairo library it loads is not installed."""


def png_available() -> bool:
    """Whether PNG pictures can be drawn here (cairocffi and libcairo2 installed)."""
    try:
        import cairocffi  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def render_png(
    position: Position | Mapping[str, Any],
    results: Mapping[str, Any] | None = None,
    *,
    after: Position | Mapping[str, Any] | None = None,
    caption: str | None = None,
    scale: float = 1.0,
) -> bytes:
    """The board as PNG bytes, `scale` times the drawing's size (arguments as
    judge.render.board.render_svg)."""
    from judge.render.board import scene_for

    scene = scene_for(position, results, after=after, caption=caption)
    try:
        from judge.render.pixels import draw_pixels

        surface = draw_pixels(scene, scale)
    except (ImportError, OSError) as e:  # OSError: libcairo2 missing
        raise PngUnavailable(f"PNG pictures need cairocffi and libcairo2: {e}") from None
    try:
        import PIL  # noqa: F401
    except ImportError:
        return _encode_rgb(surface)
    from judge.render.palette import encode

    return encode(surface, scene.before.game_map, scene.dr)


def _encode_rgb(surface: Any) -> bytes:
    """A Cairo surface's pixels as an RGB PNG (without Pillow)."""
    data = bytes(surface.get_data())
    return encode_rgb(data, surface.get_width(), surface.get_height(), surface.get_stride())


def encode_rgb(data: bytes, width: int, height: int, stride: int, level: int = 6) -> bytes:
    """Opaque Cairo RGB24/ARGB32 pixels (native-endian words) -> an RGB PNG."""
    rows = (
        data
        if stride == width * 4
        else b"".join(data[y * stride : y * stride + width * 4] for y in range(height))
    )
    rgb = bytearray(width * height * 3)
    r, g, b = (2, 1, 0) if sys.byteorder == "little" else (1, 2, 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = rows[r::4], rows[g::4], rows[b::4]
    line = width * 3
    raw = b"".join(b"\x00" + rgb[y * line : (y + 1) * line] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, level))
        + chunk(b"IEND", b"")
    )


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
