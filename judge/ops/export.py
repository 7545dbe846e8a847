"""`judge export NAME`: a game's history as JSON in the diplomacy package's format."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import sqlite_utils

from judge.config import Config
from judge.game.export import export_game
from judge.ops.console import fail, find_game, game_name, out, with_database, write_failure


def export(args: argparse.Namespace) -> int:
    """`judge export NAME [-o FILE]`: one line of JSON, to FILE or standard output."""

    def work(config: Config, db: sqlite_utils.Database) -> int:
        game = find_game(db, args.name)
        if game is None:
            return fail(f"no game {game_name(args.name)!r}")
        if not game.phase:
            return fail(f"{game.name} has not started: there is no history to export")
        text = json.dumps(export_game(db, game), separators=(",", ":"))
        if args.output and args.output != "-":
            if problem := write_failure(Path(args.output), text + "\n"):
                return fail(problem)
            print(f"wrote {args.output}", file=sys.stderr)
        else:
            out(text)
        return 0

    return with_database(args, work)
