"""`judge import-map FILE --format dpjudge|njudge --name NAME [--maps DIR]`: another
judge's map file written into the operator's map folder as `NAME.toml`, in the project's
format."""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.ops.console import fail, load, out
from judge.variants import maps
from judge.variants.import_dpjudge import read_dpjudge
from judge.variants.import_njudge import STANDARD_POWERS, read_njudge
from judge.variants.map_import import MapFileError, checked_toml, read_source

# Each source format in words, for the written file's first line.
SOURCES = {"dpjudge": "a DPjudge map file", "njudge": "an njudge map file"}
_POWER_NAMES = re.compile(r"([0-9A-Z])=([A-Za-z][A-Za-z' -]{0,39}):([A-Za-z][A-Za-z' -]{0,39})")


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
    source = f"{SOURCES[args.format]}, {Path(args.file).name}"
    try:
        text = checked_toml(_read(args, name), f"{name}: imported from {source}")
    except MapFileError as e:
        where = args.file if e.source is None else Path(args.file).parent / e.source
        if e.source == "seed":
            where = _seed_file(args)
        return fail(f"{where}: {e}")
    except ValueError as e:  # --powers
        return fail(str(e))
    try:
        _write(target, text)
    except OSError as e:  # a read-only folder, or a folder where the file would go
        return fail(f"cannot write {target}: {e.strerror}")
    maps.use_operator_folder(folder)  # read again from the folder the map is in
    game_map = maps.load_map(name)
    out(
        f"wrote {target}: {len(game_map.provinces)} provinces, {len(game_map.powers)} powers, "
        f"{len(game_map.supply_centers)} supply centres, {game_map.victory_centers} to win, "
        f"first year {game_map.first_year}"
    )
    return 0


def _read(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """The map's tables, read from FILE (and for njudge its seed file)."""
    text = read_source(Path(args.file))
    if args.format == "dpjudge":
        return read_dpjudge(text, name, _beside(Path(args.file).parent))
    seed = _seed_file(args)
    names = STANDARD_POWERS | _power_names(args.powers or [])
    return read_njudge(text, name, None if seed is None else read_source(seed), names)


def _beside(folder: Path) -> Callable[[str], str]:
    """What reads a file a DPjudge map USEs: by its name, in the map file's folder only
    (the reader has checked the name is a plain file name)."""

    def read(file: str) -> str:
        return read_source(folder / file)

    return read


def _seed_file(args: argparse.Namespace) -> Path | None:
    """njudge's seed file: --seed, else `seed.X` beside a FILE named `map.X`."""
    if args.seed is not None:
        return Path(args.seed)
    source = Path(args.file)
    if source.name.startswith("map."):
        beside = source.with_name("seed." + source.name[4:])
        return beside if beside.is_file() else None
    return None


def _power_names(given: list[str]) -> dict[str, tuple[str, str]]:
    """The powers' names given as `L=Name:Adjective` (comma-separated, or repeated)."""
    names = {}
    for item in (i.strip() for g in given for i in g.split(",")):
        match = _POWER_NAMES.fullmatch(item)
        if match is None:
            raise ValueError(f"--powers {item[:60]!r}: L=Name:Adjective, L a power's letter")
        names[match[1]] = (match[2].strip(), match[3].strip())
    return names


def _write(target: Path, text: str) -> None:
    """`text` into `target` whole or not at all: written beside it, then renamed."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".import-", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # as any file the operator writes, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
