"""The map: provinces, coasts, adjacency, supply centres, powers and their names.

A map is read from a TOML data file (see maps/README.md) into an immutable `GameMap`.
Nothing here knows the standard map by name: a second map needs only a second file.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType


def _maps_dir() -> Path:
    """maps/ beside the package in a source checkout, else the installed copy under
    <prefix>/share/judge/maps (pyproject's data-files). The engine calls nothing outside
    itself, so it looks for itself."""
    source = Path(__file__).resolve().parents[2] / "maps"
    installed = Path(sys.prefix) / "share" / "judge" / "maps"
    return source if source.is_dir() or not installed.is_dir() else installed


MAPS_DIR = _maps_dir()

LAND, COAST, SEA, IMPASSABLE = "land", "coast", "sea", "impassable"
_KINDS = (LAND, COAST, SEA, IMPASSABLE)


class MapError(ValueError):
    """The map file is missing or inconsistent."""


@dataclass(frozen=True)
class Province:
    key: str
    name: str
    kind: str
    supply_center: bool
    coasts: tuple[str, ...]  # ("NC", "SC") for two-coast provinces, () otherwise
    sort_name: str


@dataclass(frozen=True)
class Power:
    key: str
    name: str
    adjective: str
    initial: str
    home_centers: frozenset[str]
    units: tuple[str, ...]


def squash(text: str) -> str:
    """The form names are compared in: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass(frozen=True)
class GameMap:
    """An immutable map. Locations are province keys or `KEY/XC` for one coast."""

    name: str
    title: str
    first_year: int
    victory_centers: int
    powers: Mapping[str, Power]
    provinces: Mapping[str, Province]
    army_moves: Mapping[str, frozenset[str]]  # province -> provinces an army may move to
    fleet_moves: Mapping[str, frozenset[str]]  # location -> locations a fleet may move to
    names: Mapping[str, str]  # squashed name or alias -> province key
    power_names: Mapping[str, str]  # squashed power name, adjective or alias -> power key
    spellings: tuple[str, ...]  # every name and alias as written in the file
    supply_centers: frozenset[str]
    sea_adjacent: Mapping[str, frozenset[str]]  # sea -> provinces it borders (for convoys)

    # -- derived, cheap look-ups -------------------------------------------------------
    def province_of(self, location: str) -> str:
        """The province a location lies in (`STP/NC` -> `STP`)."""
        return location.split("/", 1)[0]

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet can stand in a province: its coasts, or the province itself."""
        p = self.provinces[province]
        if p.kind in (LAND, IMPASSABLE):
            return ()
        if p.coasts:
            return tuple(f"{province}/{c}" for c in p.coasts)
        return (province,)

    def fleet_reaches(self, location: str, province: str) -> tuple[str, ...]:
        """The locations in `province` a fleet at `location` can move to."""
        moves = self.fleet_moves.get(location, frozenset())
        return tuple(loc for loc in self.fleet_locations(province) if loc in moves)

    def can_reach(self, kind: str, location: str, province: str) -> bool:
        """Whether a unit of `kind` at `location` can move to some part of `province`."""
        if kind == "A":
            return province in self.army_moves.get(location, frozenset())
        return bool(self.fleet_reaches(location, province))

    def sea_neighbours(self, province: str) -> frozenset[str]:
        """Provinces (any kind) a fleet in the sea `province` borders."""
        return self.sea_adjacent[province]

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].kind == SEA


# GameMap holds Mappings, which are not hashable by value; identity is what we cache on.
GameMap.__hash__ = object.__hash__  # type: ignore[method-assign]
GameMap.__eq__ = object.__eq__  # type: ignore[method-assign]


@cache
def load_map(name: str = "standard") -> GameMap:
    """Load `maps/<name>.toml` (once per process) and check it is consistent."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise MapError(f"unknown map {name!r}")
    path = MAPS_DIR / f"{name}.toml"
    if not path.exists():
        raise MapError(f"unknown map {name!r}")
    with path.open("rb") as f:
        return build_map(tomllib.load(f))


def build_map(data: dict) -> GameMap:
    """Build a GameMap from parsed TOML data, refusing inconsistent geography."""
    provinces: dict[str, Province] = {}
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    spellings: list[str] = []

    def add_name(alias: str, key: str) -> None:
        spellings.append(alias)
        s = squash(alias)
        if not s:
            return
        if names.get(s, key) != key:
            raise MapError(f"name {alias!r} is used for both {names[s]} and {key}")
        names[s] = key

    for key, p in data["provinces"].items():
        kind = p.get("kind")
        if kind not in _KINDS:
            raise MapError(f"{key}: kind must be one of {_KINDS}")
        coasts = tuple(sorted(p.get("coasts", {})))
        provinces[key] = Province(
            key=key,
            name=p["name"],
            kind=kind,
            supply_center=bool(p.get("supply_center", False)),
            coasts=coasts,
            sort_name=p.get("sort_name", p["name"]),
        )
        if kind in (LAND, COAST):
            army[key] = set(p.get("army", []))
        elif p.get("army"):
            raise MapError(f"{key}: a {kind} province has no army moves")
        if coasts:
            if p.get("fleet"):
                raise MapError(f"{key}: two-coast provinces list fleet moves per coast")
            for c in coasts:
                fleet[f"{key}/{c}"] = set(p["coasts"][c].get("fleet", []))
        elif kind in (COAST, SEA):
            fleet[key] = set(p.get("fleet", []))
        add_name(key, key)
        add_name(p["name"], key)
        for alias in p.get("aliases", []):
            add_name(alias, key)

    for src, dests in army.items():
        for d in dests:
            if d not in army:
                raise MapError(f"army move {src}-{d}: {d} is not a land province")
            if src not in army[d]:
                raise MapError(f"army move {src}-{d} is not listed both ways")
    for src, dests in fleet.items():
        for d in dests:
            if d not in fleet:
                raise MapError(f"fleet move {src}-{d}: {d} is not a fleet location")
            if src not in fleet[d]:
                raise MapError(f"fleet move {src}-{d} is not listed both ways")

    powers: dict[str, Power] = {}
    power_names: dict[str, str] = {}
    for key, p in data["powers"].items():
        homes = frozenset(p["home_centers"])
        for h in homes:
            if h not in provinces or not provinces[h].supply_center:
                raise MapError(f"{key}: home centre {h} is not a supply centre")
        powers[key] = Power(
            key=key,
            name=p["name"],
            adjective=p["adjective"],
            initial=p["initial"],
            home_centers=homes,
            units=tuple(p["units"]),
        )
        for alias in (key, p["name"], p["adjective"], *p.get("aliases", [])):
            power_names[squash(alias)] = key
            spellings.append(alias)

    return GameMap(
        name=data["name"],
        title=data.get("title", data["name"]),
        first_year=int(data.get("first_year", 1901)),
        victory_centers=int(data["victory_centers"]),
        powers=MappingProxyType(powers),
        provinces=MappingProxyType(provinces),
        army_moves=MappingProxyType({k: frozenset(v) for k, v in army.items()}),
        fleet_moves=MappingProxyType({k: frozenset(v) for k, v in fleet.items()}),
        names=MappingProxyType(names),
        power_names=MappingProxyType(power_names),
        spellings=tuple(spellings),
        supply_centers=frozenset(k for k, p in provinces.items() if p.supply_center),
        sea_adjacent=MappingProxyType(
            {
                k: frozenset(d.split("/", 1)[0] for d in fleet[k])
                for k, p in provinces.items()
                if p.kind == SEA
            }
        ),
    )
