"""`judge map NAME [PHASE]`: a game's board as PNG or SVG."""

from __future__ import annotations

import argparse
from pathlib import Path

import sqlite_utils

from judge.config import Config
from judge.ops.console import fail, find_game, game_name, out, with_database, write_failure


def draw_map(args: argparse.Namespace) -> int:
    """`judge map NAME [PHASE]`: the board as PNG (or SVG). A processed phase is drawn as
    its results mail's picture (the board it led to, with its orders and their results);
    the current phase as its position."""
    from judge.game.pictures import after_of
    from judge.render import PngUnavailable, render_png, render_svg
    from judge.store import games

    def work(config: Config, db: sqlite_utils.Database) -> int:
        game = find_game(db, args.name)
        if game is None:
            return fail(f"no game {game_name(args.name)!r}")
        rows = games.phase_history(db, game)
        if not rows:
            return fail(f"{game.name} has not started: there is no board to draw")
        if args.phase:
            chosen = [r for r in rows if r.phase == args.phase.upper()]
            if not chosen:
                return fail(f"{game.name} has no phase {args.phase.upper()}")
            row = chosen[0]
        else:
            processed = [r for r in rows if r.results is not None]
            row = processed[-1] if processed else rows[-1]
        phase, position, results = row.phase, row.position, row.results
        after = after_of(position, results) if results else None
        caption = f"Game {game.name}"
        target = Path(args.output or f"{game.name}-{phase}.png")
        try:
            if target.suffix.lower() == ".svg":
                drawing: str | bytes = render_svg(position, results, after=after, caption=caption)
            else:
                drawing = render_png(position, results, after=after, caption=caption)
        except (PngUnavailable, ValueError) as e:  # ValueError: a map without a drawing
            return fail(str(e))
        if problem := write_failure(target, drawing):
            return fail(problem)
        out(f"wrote {target} ({phase})")
        return 0

    return with_database(args, work)
