"""`judge import-map FILE --format dpjudge --name NAME [--maps DIR]`: another judge's map
file written into the operator's map folder as `NAME.toml`, in the project's format."""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.ops.console import fail, load, out
from judge.variants import maps
from judge.variants.import_dpjudge import read_dpjudge
from judge.variants.map_import import MapFileError, checked_toml, read_source

# Each source format: its reader (text, map name -> the map's tables) and its name in words.
READERS: dict[str, tuple[Callable[[str, str], dict[str, Any]], str]] = {
    "dpjudge": (read_dpjudge, "a DPjudge map file"),
}


def import_map(args: argparse.Namespace) -> int:
    """Read FILE, and write it as NAME.toml into the map folder; exit status 1, with the
    line and the reason, and nothing written, when the file or the name is refused."""
    name = str(args.name).lower()
    if not maps.valid_name(name):
        return fail(f"--name {args.name[:100]!r}: letters, digits, - and _ (at most 100)")
    folder = args.maps
    if folder is None:
        config = load(args)
        if config is None:
            return 2
        folder = config.maps
    if folder is None:
        return fail("no map folder: give --maps DIR or set judge.maps in the configuration")
    if not folder.is_dir():
        return fail(f"the map folder {folder} is no folder")
    target = folder / f"{name}.toml"
    if (maps.MAPS_DIR / target.name).exists():
        return fail(f"{name} is a bundled map: choose another name")
    if target.exists() and not args.force:
        return fail(f"{target} exists: --force to replace it")
    reader, source = READERS[args.format]
    try:
        data = reader(read_source(Path(args.file)), name)
        text = checked_toml(data, f"{name}: imported from {source}, {Path(args.file).name}")
    except MapFileError as e:
        return fail(f"{args.file}: {e}")
    _write(target, text)
    maps.use_operator_folder(folder)  # read again from the folder the map is in
    game_map = maps.load_map(name)
    out(
        f"wrote {target}: {len(game_map.provinces)} provinces, {len(game_map.powers)} powers, "
        f"{len(game_map.supply_centers)} supply centres, {game_map.victory_centers} to win, "
        f"first year {game_map.first_year}"
    )
    return 0


def _write(target: Path, text: str) -> None:
    """`text` into `target` whole or not at all: written beside it, then renamed."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".import-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
