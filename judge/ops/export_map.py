"""`judge export-map NAME --format dpjudge|njudge [--maps DIR] [-o FILE]`: a map (bundled
or the operator's) written back in another judge's format, as `judge import-map` reads
it; what that format cannot state is said on standard error."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.engine.geography import MapError
from judge.ops.console import fail, load, out
from judge.variants import maps
from judge.variants.map_export import Exported, MapExportError, to_dpjudge, to_njudge


def export_map(args: argparse.Namespace) -> int:
    """Write map NAME in the format asked: DPjudge's to FILE or standard output, njudge's
    to FILE (default `map.NAME`) and its seed file beside it; exit status 1, with the
    reason, when the map is unknown or cannot be written in that format."""
    if args.maps is not None:
        if not args.maps.is_dir():
            return fail(f"the map folder {args.maps} is no folder")
        maps.use_operator_folder(args.maps)
    elif load(args) is None:  # the configuration's map folder, if it names one
        return 2
    try:
        game_map = maps.load_map(args.name)
        data = maps.map_data(args.name)
        write = to_dpjudge if args.format == "dpjudge" else to_njudge
        exported = write(game_map, data)
    except (MapError, MapExportError) as e:
        return fail(str(e))
    for warning in exported.warnings:
        print(f"judge: warning: {warning}", file=sys.stderr, flush=True)
    try:
        return _write(args, exported, game_map.name)
    except OSError as e:
        return fail(f"cannot write {e.filename}: {e.strerror}")


def _write(args: argparse.Namespace, exported: Exported, name: str) -> int:
    """The exported text where -o says (DPjudge: standard output without it)."""
    if exported.seed is None:
        if args.output is None:
            sys.stdout.write(exported.text)
            sys.stdout.flush()
            return 0
        Path(args.output).write_text(exported.text, encoding="utf-8")
        out(f"wrote {args.output}")
        return 0
    target = Path(args.output or f"map.{name}")
    seed = seed_file(target)
    target.write_text(exported.text, encoding="utf-8")
    seed.write_text(exported.seed, encoding="utf-8")
    out(f"wrote {target} and {seed}")
    return 0


def seed_file(target: Path) -> Path:
    """njudge's seed file for map file `target`: `seed.X` beside `map.X` (where `judge
    import-map` looks for it), else `FILE.seed`."""
    if target.name.startswith("map.") and len(target.name) > 4:
        return target.with_name("seed." + target.name[4:])
    return target.with_name(target.name + ".seed")
