"""Maps and variants as files: `maps/<name>.toml` read and built into the engine's
`GameMap`. A variant file names its `base` map and gives only what differs; its data
is laid over its base's before the engine builds and checks it."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from typing import Any

from judge.engine.geography import GameMap, MapError, build_map
from judge.paths import data_dir

MAPS_DIR = data_dir("maps")


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
    """Every map and variant in maps/, by name (drawing files left out)."""
    return sorted(
        p.stem
        for p in MAPS_DIR.glob("*.toml")
        if not p.stem.endswith("_drawing") and _NAME.fullmatch(p.stem)
    )


_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}")  # at most 100: a file name has room
# Keys a variant may not take from its base: it names and describes itself.
_OWN_KEYS = ("name", "title", "base")


def _map_data(name: str, seen: tuple[str, ...]) -> dict[str, Any]:
    """The TOML data of map `name`, with a variant's changes laid over its base's data."""
    if not _NAME.fullmatch(name) or name.endswith("_drawing"):
        # A name too long for a file name is unknown too (exists() would raise OSError).
        raise MapError(f"unknown map {name[:100]!r}")
    path = MAPS_DIR / f"{name}.toml"
    if not path.exists():
        raise MapError(f"unknown map {name!r}")
    with path.open("rb") as f:
        try:
            data = tomllib.load(f)
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
    merged = _overlay({k: v for k, v in parent.items() if k not in _OWN_KEYS}, data)
    merged["base"] = parent.get("base", parent["name"])  # the full map at the root
    return merged


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
