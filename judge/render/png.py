"""The board as PNG bytes: drawn straight onto a Cairo surface (cairocffi, which needs
Debian's `libcairo2`) by the same drawing code as the SVG, then encoded here.

Going through SVG and an SVG renderer (CairoSVG) cost about 130 ms a picture, nearly all
of it parsing the SVG in Python; drawing directly costs a quarter of that. The pixels are
then reduced to a palette of 256 colours by Pillow (a board picture has few colours beyond
its antialiased edges) and written as an 8-bit PNG: about a third of the bytes of an RGB
PNG, for a mail attachment, in less time than Cairo's own PNG writer takes. Without
Pillow the RGB pixels are written with zlib.
"""

from __future__ import annotations

import io
import struct
import sys
import zlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine is imported when a picture is drawn
    from judge.engine.board import Position

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


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
    from judge.render.board import as_position, draw_board
    from judge.render.legend import legend_width
    from judge.render.schematic import picture_drawing

    try:
        from judge.render.canvas import CairoCanvas

        before = as_position(position)
        dr = picture_drawing(before.game_map)
        canvas = CairoCanvas(dr.width + legend_width(before.game_map), dr.height, scale)
    except (ImportError, OSError) as e:  # OSError: libcairo2 missing
        raise PngUnavailable(f"PNG pictures need cairocffi and libcairo2: {e}") from None
    draw_board(canvas, before, results, after=after, caption=caption, drawing=dr)
    image = canvas.pixels()
    data = bytes(image.get_data())
    size = (image.get_width(), image.get_height(), image.get_stride())
    try:
        return encode_palette(data, *size)
    except ImportError:
        return encode_rgb(data, *size)


def encode_palette(data: bytes, width: int, height: int, stride: int) -> bytes:
    """Cairo RGB24 pixels -> an 8-bit palette PNG, by Pillow (ImportError without it)."""
    from PIL import Image

    order = "BGRX" if sys.byteorder == "little" else "XRGB"
    image = Image.frombuffer("RGB", (width, height), data, "raw", order, stride, 1)
    quantized = image.quantize(256, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, "PNG", compress_level=6)
    return out.getvalue()


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

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

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
