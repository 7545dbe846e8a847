"""Maps and variants as files: `maps/<name>.toml` read and built into the engine's
`GameMap`. A variant file names its `base` map and gives only what differs; its data
is laid over its base's before the engine builds and checks it.

The files are looked for in the operator's map folder first (configuration `maps`, or
`--maps DIR`), then in the bundled maps/: an operator's file of the same name wins, and
an operator's variant may name a bundled map as its base."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from judge.engine.geography import GameMap, MapError, build_map
from judge.paths import data_dir
from judge.variants import map_snapshot

# tomllib is imported where a file is read as TOML: the bundled standard map is read from
# its snapshot (kept_data), and `judge adjudicate` starts without the parser.

MAPS_DIR = data_dir("maps")  # the bundled maps
_operator_folder: Path | None = None  # set once at start-up by the command line


def use_operator_folder(folder: Path | None) -> None:
    """From now on look for maps in `folder` before the bundled maps/ (None: the bundled
    maps only). Maps read before are read again when next asked for."""
    global _operator_folder
    _operator_folder = folder
    _load_map.cache_clear()


def folders() -> tuple[Path, ...]:
    """Where maps are looked for, first first."""
    return (MAPS_DIR,) if _operator_folder is None else (_operator_folder, MAPS_DIR)


def map_file(name: str) -> Path | None:
    """The file `<name>.toml` in the first folder that has it; None if none has."""
    for folder in folders():
        path = folder / f"{name}.toml"
        if path.is_file():
            return path
    return None


def load_map(name: str = "standard") -> GameMap:
    """Load the map or variant `maps/<name>.toml` (once per process; the name is read
    case-insensitively) and check it is consistent."""
    return _load_map(str(name).strip().lower())


@cache
def _load_map(name: str) -> GameMap:
    gm = build_map(_map_data(name, ()))
    if gm.name != name:
        raise MapError(f"maps/{name}.toml calls itself {gm.name!r}")
    return gm


def map_names() -> list[str]:
    """Every map and variant in the operator's folder and maps/, by name (drawing files
    left out)."""
    return sorted(
        {
            p.stem
            for folder in folders()
            for p in folder.glob("*.toml")
            if not p.stem.endswith("_drawing") and _NAME.fullmatch(p.stem)
        }
    )


_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}")  # at most 100: a file name has room


def valid_name(name: str) -> bool:
    """Whether `name` (lower case) may name a map: letters, digits, - and _, not a
    drawing's (so that `<name>.toml` is a file of the map folder, never elsewhere)."""
    return bool(_NAME.fullmatch(name)) and not name.endswith("_drawing")


# Keys a variant may not take from its base: it names and describes itself.
_OWN_KEYS = ("name", "title", "base")


def _map_data(name: str, seen: tuple[str, ...]) -> dict[str, Any]:
    """The TOML data of map `name`, with a variant's changes laid over its base's data."""
    if not _NAME.fullmatch(name) or name.endswith("_drawing"):
        # A name too long for a file name is unknown too (exists() would raise OSError).
        raise MapError(f"unknown map {name[:100]!r}")
    path = map_file(name)
    if path is None:
        raise MapError(f"unknown map {name!r}")
    raw = path.read_bytes()
    data = kept_data(raw)
    if data is None:
        import tomllib

        try:
            data = tomllib.loads(raw.decode())  # as tomllib.load reads a file
        except tomllib.TOMLDecodeError as e:
            raise MapError(f"maps/{name}.toml: {e}") from None
    data.setdefault("name", name)
    base = data.get("base")
    if base is None:
        return data
    if not isinstance(base, str) or base in seen or base == name:
        raise MapError(f"maps/{name}.toml: bad base map {base!r}")
    if "title" not in data:
        raise MapError(f"maps/{name}.toml: a variant needs its own title")
    parent = _map_data(base, (*seen, name))
    replaced = _replaced_tables(name, data)
    kept = {k: v for k, v in parent.items() if k not in _OWN_KEYS and k not in replaced}
    merged = _overlay(kept, {k: v for k, v in data.items() if k != "replace"})
    merged["base"] = parent.get("base", parent["name"])  # the full map at the root
    return merged


def kept_data(raw: bytes) -> dict[str, Any] | None:
    """The data of a map file whose bytes are `raw`, from the snapshot of a bundled map
    (map_snapshot.py) made from exactly these bytes: a fresh copy, as the TOML parser
    would give. None for any other file."""
    for name, source in map_snapshot.SOURCE.items():
        if source.encode() == raw:
            data: dict[str, Any] = json.loads(map_snapshot.DATA[name])
            return data
    return None


# The base's tables a variant may replace whole (`replace = ["powers"]`): Chaos keeps the
# standard board and puts 34 powers of its own in place of the seven.
_REPLACEABLE = ("powers",)


def _replaced_tables(name: str, data: dict[str, Any]) -> tuple[str, ...]:
    """The tables the variant `data` replaces whole; MapError for any other `replace`."""
    replace = data.get("replace", [])
    if not isinstance(replace, list) or any(t not in _REPLACEABLE for t in replace):
        raise MapError(f"maps/{name}.toml: replace may list only {list(_REPLACEABLE)}")
    for table in replace:
        if not isinstance(data.get(table), dict):
            raise MapError(f"maps/{name}.toml: replace lists {table} but gives no [{table}]")
    return tuple(replace)


def _overlay(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`base` with `changes` laid over it: tables merge key by key, anything else
    (numbers, strings, lists) is replaced whole."""
    out = dict(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _overlay(out[key], value)
        else:
            out[key] = value
    return out


def map_data(name: str) -> dict[str, Any]:
    """The TOML data of map `name` (a variant laid over its base), once `load_map` has
    checked it: what `judge export-map` writes out."""
    load_map(name)
    return _map_data(str(name).strip().lower(), ())
