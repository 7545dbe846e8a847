"""Pictures of the board: SVG (board_svg) and PNG (png) from a position and its orders."""

from judge.render.board_svg import load_drawing, render_svg

__all__ = ["load_drawing", "render_svg"]
