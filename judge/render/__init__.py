"""Pictures of the board: SVG and PNG from a position, its orders and their results."""

from judge.render.board import render_svg
from judge.render.drawing import drawing_for, load_drawing
from judge.render.png import PngUnavailable, png_available, render_png
from judge.render.schematic import picture_drawing, schematic_drawing

__all__ = [
    "PngUnavailable",
    "drawing_for",
    "load_drawing",
    "picture_drawing",
    "png_available",
    "render_png",
    "render_svg",
    "schematic_drawing",
]
