"""The map: provinces, coasts, adjacency, supply centres, powers and their names.

A map's data (read from a TOML file by judge/variants/maps.py, see maps/README.md) is
built into an immutable `GameMap` here; the engine reads no file.
Nothing here knows the standard map by name: a second map needs only a second file. A
variant file names its `base` map and gives only what differs (starting units and
centres, build sites, neutral powers, closed provinces, player groups, victory).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypedDict

from .phase import Phase

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
    default_coast: str | None = None  # for games that fill in a missing coast (DATC 4.B)
    port: bool = False  # a coast whose fleet may convoy as at sea (DPjudge's PORT)


@dataclass(frozen=True)
class Power:
    key: str
    name: str
    adjective: str
    initial: str
    home_centers: frozenset[str]  # where it may build (unless the map builds anywhere)
    units: tuple[str, ...]  # starting units, canonical short form
    starting_centers: frozenset[str] | None = None  # owned at the start (None: the homes)


def squash(text: str) -> str:
    """The form names are compared in: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


# eq=False: a GameMap is equal to itself only, and hashed by identity (its Mappings are
# not hashable by value); identity is what caches on a map are keyed by.
@dataclass(frozen=True, eq=False)
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
    sea_adjacent: Mapping[str, frozenset[str]]  # sea or port -> provinces it borders (convoys)
    # -- variant rules (maps/README.md); the defaults are the standard game's ----------
    base: str | None = None  # the full map file a variant is built on (None: this is one)
    build_anywhere: bool = False  # build in any owned centre; civil disorder counts them home
    player_groups: tuple[tuple[str, ...], ...] = ()  # the powers each player plays
    victory_by_player: bool = False  # victory counts a player's powers' centres together
    neutral_powers: frozenset[str] = frozenset()  # powers no player orders (while neutral)
    neutral_until: Phase | None = None  # the phase from which they are neutral no more
    neutral_joins: str = ""  # "coin_flip": before neutral_until they join one player
    closed_provinces: frozenset[str] = frozenset()  # not to be entered while neutrals are
    # (location, province) -> fleet_reaches, for every pair with some reach: worked out
    # once per map, as every support and fleet move of every phase asks it.
    fleet_reach: Mapping[tuple[str, str], tuple[str, ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        table: dict[tuple[str, str], tuple[str, ...]] = {}
        for location, moves in self.fleet_moves.items():
            for province in {self.province_of(m) for m in moves}:
                reach = tuple(loc for loc in self.fleet_locations(province) if loc in moves)
                if reach:
                    table[location, province] = reach
        object.__setattr__(self, "fleet_reach", MappingProxyType(table))

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
        # `in` then `[]`: a read-only view's get() is a method call by name, twice the
        # cost (every fleet move and support of every phase asks).
        if (location, province) in self.fleet_reach:
            return self.fleet_reach[location, province]
        moves = self.fleet_moves.get(location, frozenset())
        return tuple(loc for loc in self.fleet_locations(province) if loc in moves)

    def can_reach(self, kind: str, location: str, province: str) -> bool:
        """Whether a unit of `kind` at `location` can move to some part of `province`."""
        if kind == "A":
            moves = self.army_moves  # `in` then `[]`, not get(): see fleet_reaches
            return location in moves and province in moves[location]
        return (location, province) in self.fleet_reach or bool(
            self.fleet_reaches(location, province)
        )

    def sea_neighbours(self, province: str) -> frozenset[str]:
        """Provinces (any kind) a fleet in the sea `province` borders."""
        return self.sea_adjacent[province]

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].kind == SEA

    def convoys_at(self, province: str) -> bool:
        """Whether a fleet in `province` may convoy: at sea, or in a port."""
        p = self.provinces[province]
        return p.kind == SEA or p.port

    # -- variant rules ------------------------------------------------------------------
    def build_sites(self, power: str, owned: Collection[str]) -> frozenset[str]:
        """The centres `power` may build in (when vacant) while it owns `owned`: its
        owned home centres, or every owned centre on a build-anywhere map."""
        if self.build_anywhere:
            return frozenset(owned)
        return self.powers[power].home_centers.intersection(owned)

    def civil_disorder_homes(self, power: str, owned: Collection[str]) -> frozenset[str]:
        """The centres civil-disorder removals measure distance from: the home centres,
        or on a build-anywhere map every centre the power owns (DATC 11.A)."""
        if self.build_anywhere:
            return frozenset(owned)
        return self.powers[power].home_centers

    def neutral_in(self, phase: Phase) -> frozenset[str]:
        """The powers that are neutral in `phase`: their units hold, are never ordered,
        disband when dislodged, and they build nothing."""
        until = self.neutral_until
        if until is not None and phase.sort_key >= until.sort_key:
            return frozenset()
        return self.neutral_powers

    def closed_in(self, phase: Phase) -> frozenset[str]:
        """The provinces no unit may move, retreat, be supported or convoyed into in
        `phase` (the WWI game's Italy while Italy is neutral)."""
        if not self.closed_provinces or not self.neutral_in(phase):
            return frozenset()
        return self.closed_provinces

    def players(self, phase: Phase | None = None) -> tuple[tuple[str, ...], ...]:
        """The powers each player plays: `player_groups`, and every other power not
        neutral in `phase` as a player of its own."""
        grouped = {p for g in self.player_groups for p in g}
        neutral = self.neutral_powers if phase is None else self.neutral_in(phase)
        alone = tuple((p,) for p in self.powers if p not in grouped and p not in neutral)
        return self.player_groups + alone


def build_map(data: Mapping[str, Any]) -> GameMap:
    """Build a GameMap from parsed TOML data, refusing inconsistent geography."""
    names = _Names()
    provinces, army, fleet = _provinces(data["provinces"], names)
    _check_both_ways("army", army)
    _check_both_ways("fleet", fleet)
    powers, power_names = _powers(data["powers"], provinces, army, fleet, names)
    variant = _variant_rules(data, powers, provinces)
    return GameMap(
        name=data["name"],
        title=data.get("title", data["name"]),
        first_year=int(data.get("first_year", 1901)),
        victory_centers=int(data["victory_centers"]),
        powers=MappingProxyType(powers),
        provinces=MappingProxyType(provinces),
        army_moves=MappingProxyType({k: frozenset(v) for k, v in army.items()}),
        fleet_moves=MappingProxyType({k: frozenset(v) for k, v in fleet.items()}),
        names=MappingProxyType(names.keys),
        power_names=MappingProxyType(power_names),
        spellings=tuple(names.spellings),
        supply_centers=frozenset(k for k, p in provinces.items() if p.supply_center),
        sea_adjacent=MappingProxyType(
            {
                k: frozenset(d.split("/", 1)[0] for d in fleet[k])
                for k, p in provinces.items()
                if p.kind == SEA or p.port
            }
        ),
        **variant,
    )


@dataclass(repr=False, eq=False)  # a builder, never shown or compared: less code made at start
class _Names:
    """The names of a map being built: squashed name -> province, and every spelling."""

    keys: dict[str, str] = field(default_factory=dict)
    spellings: list[str] = field(default_factory=list)

    def add(self, alias: str, key: str) -> None:
        """Name province `key` `alias`; one name names one province only."""
        self.spellings.append(alias)
        s = squash(alias)
        if not s:
            return
        if self.keys.get(s, key) != key:
            raise MapError(f"name {alias!r} is used for both {self.keys[s]} and {key}")
        self.keys[s] = key


_Moves = dict[str, set[str]]  # location -> locations a unit there may move to


def _provinces(
    data: Mapping[str, Any], names: _Names
) -> tuple[dict[str, Province], _Moves, _Moves]:
    """The provinces, army moves and fleet moves of the map's [provinces] tables."""
    provinces: dict[str, Province] = {}
    army: _Moves = {}
    fleet: _Moves = {}
    for key, p in data.items():
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
            default_coast=p.get("default_coast"),
            port=bool(p.get("port", False)),
        )
        if p.get("port") and (kind != COAST or coasts):
            raise MapError(f"{key}: a port is a coast province with no coasts of its own")
        if p.get("default_coast") is not None and p["default_coast"] not in coasts:
            raise MapError(f"{key}: default_coast must be one of its coasts {coasts}")
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
        names.add(key, key)
        names.add(p["name"], key)
        for alias in p.get("aliases", []):
            names.add(alias, key)
    return provinces, army, fleet


def _check_both_ways(what: str, moves: _Moves) -> None:
    """Every move leads to a place of the same table, and is listed back from there."""
    kind = "a land province" if what == "army" else "a fleet location"
    for src, dests in moves.items():
        for d in dests:
            if d not in moves:
                raise MapError(f"{what} move {src}-{d}: {d} is not {kind}")
            if src not in moves[d]:
                raise MapError(f"{what} move {src}-{d} is not listed both ways")


# The most powers a map may have: Chaos's 34, each with an initial SIGNON reads as one
# character, a letter or a digit other than the master's M and the observers' O.
MAX_POWERS = 34


def is_initial(text: str) -> bool:
    """Whether `text` can be a power's initial: one ASCII letter or digit, either case."""
    return len(text) == 1 and text.isascii() and text.isalnum()


def _powers(
    data: Mapping[str, Any],
    provinces: Mapping[str, Province],
    army: _Moves,
    fleet: _Moves,
    names: _Names,
) -> tuple[dict[str, Power], dict[str, str]]:
    """The powers of the map's [powers] tables, and their names (squashed -> key)."""
    if not 1 <= len(data) <= MAX_POWERS:
        raise MapError(f"a map has 1 to {MAX_POWERS} powers, not {len(data)}")
    powers: dict[str, Power] = {}
    power_names: dict[str, str] = {}
    owned_at_start: dict[str, str] = {}
    by_initial: dict[str, str] = {}
    for key, p in data.items():
        # A player signs on by initial (SIGNON Ename): one initial, one power. It is one
        # character, so that SIGNON's first character is the power whatever the game's
        # name: a letter or a digit (njudge's Chaos: A-Z without M and O, then 0-9).
        initial = str(p["initial"]).upper()
        if not is_initial(initial):
            raise MapError(f"{key}: initial {p['initial']!r} is not one letter or digit")
        if by_initial.setdefault(initial, key) != key:
            raise MapError(f"{by_initial[initial]} and {key} have one initial {initial!r}")
        homes = frozenset(p["home_centers"])
        for h in homes:
            if h not in provinces or not provinces[h].supply_center:
                raise MapError(f"{key}: home centre {h} is not a supply centre")
        starting = frozenset(p.get("starting_centers", homes))
        for c in starting:
            if c not in provinces or not provinces[c].supply_center:
                raise MapError(f"{key}: starting centre {c} is not a supply centre")
            if c in owned_at_start:
                raise MapError(f"{c} is a starting centre of both {owned_at_start[c]} and {key}")
            owned_at_start[c] = key
        for unit in p["units"]:
            kind, _, loc = unit.partition(" ")
            if loc not in (army if kind == "A" else fleet if kind == "F" else ()):
                raise MapError(f"{key}: the starting unit {unit!r} cannot stand there")
        powers[key] = Power(
            key=key,
            name=p["name"],
            adjective=p["adjective"],
            initial=p["initial"],
            home_centers=homes,
            units=tuple(p["units"]),
            starting_centers=starting,
        )
        for alias in (key, p["name"], p["adjective"], *p.get("aliases", [])):
            power_names[squash(alias)] = key
            names.spellings.append(alias)
    return powers, power_names


class _VariantRules(TypedDict):
    """The GameMap fields of a variant's rules."""

    base: str | None
    build_anywhere: bool
    player_groups: tuple[tuple[str, ...], ...]
    victory_by_player: bool
    neutral_powers: frozenset[str]
    neutral_until: Phase | None
    neutral_joins: str
    closed_provinces: frozenset[str]


def _variant_rules(
    data: Mapping[str, Any], powers: Mapping[str, Power], provinces: Mapping[str, Province]
) -> _VariantRules:
    """The GameMap fields for the variant rules, checked against the map."""

    def known_powers(keys: list[str], what: str) -> tuple[str, ...]:
        for k in keys:
            if k not in powers:
                raise MapError(f"{what}: unknown power {k!r}")
        return tuple(keys)

    neutral = frozenset(known_powers(data.get("neutral_powers", []), "neutral_powers"))
    until = None
    if "neutral_until" in data:
        try:
            until = Phase.parse(str(data["neutral_until"]))
        except ValueError as e:
            raise MapError(f"neutral_until: {e}") from None
    joins = str(data.get("neutral_joins", ""))
    if joins not in ("", "coin_flip"):
        raise MapError(f'neutral_joins must be "coin_flip" or left out, not {joins!r}')
    if joins and until is None:
        raise MapError("neutral_joins needs neutral_until: the phase they join in")
    closed = frozenset(data.get("closed_provinces", []))
    for c in closed:
        if c not in provinces:
            raise MapError(f"closed_provinces: unknown province {c!r}")
    if closed and not neutral:
        raise MapError("closed_provinces are closed while neutral_powers are neutral: name them")
    if "players" in data:
        groups = tuple(known_powers(g, "players") for g in data["players"])
    else:  # one player per power, none for the neutral powers
        groups = tuple((k,) for k in powers if k not in neutral)
    seen: set[str] = set()
    for g in groups:
        if not g or seen & set(g) or len(set(g)) != len(g):
            raise MapError("players: each power in at most one player's group, none empty")
        seen |= set(g)
    if until is None and seen & neutral:
        raise MapError("players: a power neutral for the whole game is played by nobody")
    victory = int(data["victory_centers"])
    if not 0 < victory <= sum(p.supply_center for p in provinces.values()):
        raise MapError(f"victory_centers {victory} is not a number of supply centres")
    return {
        "base": data.get("base"),
        "build_anywhere": bool(data.get("build_anywhere", False)),
        "player_groups": groups,
        "victory_by_player": bool(data.get("victory_by_player", False)),
        "neutral_powers": neutral,
        "neutral_until": until,
        "neutral_joins": joins,
        "closed_provinces": closed,
    }
