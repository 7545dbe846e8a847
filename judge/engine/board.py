"""The board position: units, dislodged units awaiting retreat, supply-centre ownership."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from .geography import GameMap
from .phase import Phase

ARMY, FLEET = "A", "F"


@dataclass(frozen=True)
class Unit:
    power: str
    kind: str  # ARMY or FLEET
    location: str  # province key, or KEY/XC for a fleet on one coast
    province: str = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)  # `A PAR`, `F STP/SC`

    def __post_init__(self) -> None:
        # Looked up constantly by the resolver, and written in every order's text (as
        # an attribute, not str(): no Python call): computed once.
        object.__setattr__(self, "province", self.location.split("/", 1)[0])
        object.__setattr__(self, "text", f"{self.kind} {self.location}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Dislodged:
    """A unit dislodged in the last movement phase, and where it may retreat."""

    unit: Unit
    retreats: tuple[str, ...]  # locations, sorted


@dataclass(frozen=True, init=False)
class Position:
    """Everything the rules need to know at the start of a phase."""

    game_map: GameMap
    phase: Phase
    units: tuple[Unit, ...]
    centers: Mapping[str, frozenset[str]]  # power -> owned supply centres
    dislodged: tuple[Dislodged, ...] = ()

    def __init__(
        self,
        game_map: GameMap,
        phase: Phase,
        units: tuple[Unit, ...],
        centers: Mapping[str, frozenset[str]],
        dislodged: tuple[Dislodged, ...] = (),
    ) -> None:
        # The generated __init__ of a frozen dataclass sets each field by a call to
        # object.__setattr__: a third of this cost, on two or three positions a phase.
        fields = self.__dict__
        fields["game_map"] = game_map
        fields["phase"] = phase
        fields["units"] = units
        fields["centers"] = centers
        fields["dislodged"] = dislodged

    def _by_province(self) -> MappingProxyType[str, Unit]:
        """province -> unit, made at first need and kept: the position after a phase is
        mostly only written out (`judge adjudicate`), and never looked up."""
        table: MappingProxyType[str, Unit] | None = self.__dict__.get("_units_by_province")
        if table is None:
            table = MappingProxyType({u.province: u for u in self.units})
            object.__setattr__(self, "_units_by_province", table)
        return table

    def unit_in(self, province: str) -> Unit | None:
        return self._by_province().get(province)

    @property
    def occupied(self) -> Mapping[str, Unit]:
        return self._by_province()

    def unit_table(self) -> dict[str, Unit]:
        """A fresh dict of `occupied`, province -> unit: for the loops over every order of
        a phase, as a dict answers get() at a third of the read-only view's cost (and
        dict() of the view copies it key by key)."""
        return self._by_province().copy()

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def owner_of(self, center: str) -> str | None:
        for power, owned in self.centers.items():
            if center in owned:
                return power
        return None

    def adjustment(self, power: str) -> int:
        """Builds (+n) or removals (-n) due to `power` in an adjustment phase."""
        return len(self.centers.get(power, ())) - len(self.units_of(power))


@lru_cache(maxsize=8192)
def placed_unit(power: str, kind: str, location: str) -> Unit:
    """The unit of `power` of `kind` at `location`. Made once each: a Unit is frozen, so
    shared, and every phase moves dozens of units to places units have stood before."""
    return Unit(power, kind, location)


def parse_unit(game_map: GameMap, power: str, text: str) -> Unit:
    """`A PAR`, `F STP/SC` -> Unit; ValueError if the unit cannot stand there."""
    if len(text) <= _CACHED_TEXT:
        return _parse_unit_cached(game_map, power, text)
    return _parse_unit(game_map, power, text)


def parse_units(game_map: GameMap, power: str, texts: Iterable[str]) -> list[Unit]:
    """Units of `power`, each read as parse_unit reads it; ValueError at the first that
    cannot stand where it is put, or is not a text at all."""
    known = _units_read(game_map, power)
    try:  # one dictionary look-up per unit: a position's units are read on every phase
        return [known[t] for t in texts]
    except (KeyError, TypeError):  # some text not read before (or no text at all)
        return [_read_and_kept(known, game_map, power, t) for t in texts]


def parse_units_by_power(game_map: GameMap, powers: Mapping[str, Iterable[str]]) -> list[Unit]:
    """Every power's units, each read as parse_unit reads it: parse_units for all the
    powers of a position in one call; ValueError as parse_units."""
    tables = [(_units_read(game_map, power), texts) for power, texts in powers.items()]
    try:  # one dictionary look-up per unit, as in parse_units
        return [known[t] for known, texts in tables for t in texts]
    except (KeyError, TypeError):  # some text not read before (or no text at all)
        return [u for power, texts in powers.items() for u in parse_units(game_map, power, texts)]


KEPT_UNIT_TEXTS = 4096  # per map and power; the table is emptied when full


@lru_cache(maxsize=256)
def _units_read(game_map: GameMap, power: str) -> dict[str, Unit]:
    """The units of `power` read so far on `game_map`, by their text (kept, and added
    to, by parse_units)."""
    return {}


def _read_and_kept(known: dict[str, Unit], game_map: GameMap, power: str, text: str) -> Unit:
    if type(text) is not str:  # from JSON, say: a number, a list
        raise ValueError(f"not a unit: {text!r} (expected e.g. 'A PAR' or 'F STP/SC')")
    unit = known.get(text)
    if unit is None:
        unit = _parse_unit(game_map, power, text)
        if len(text) <= _CACHED_TEXT:  # a long text is never a unit: not kept
            if len(known) >= KEPT_UNIT_TEXTS:
                known.clear()
            known[text] = unit
    return unit


# Positions are read by the thousand (each phase of `judge adjudicate`, each game's step)
# and name the same few hundred units: each is read once. A Unit is frozen, so shared;
# a map is hashed by identity. Only short texts are kept: a long one is never a unit.
_CACHED_TEXT = 16


@lru_cache(maxsize=8192)
def _parse_unit_cached(game_map: GameMap, power: str, text: str) -> Unit:
    return _parse_unit(game_map, power, text)


def _parse_unit(game_map: GameMap, power: str, text: str) -> Unit:
    parts = text.split()
    if len(parts) != 2 or parts[0].upper() not in (ARMY, FLEET):
        raise ValueError(f"not a unit: {text!r} (expected e.g. 'A PAR' or 'F STP/SC')")
    kind, loc = parts[0].upper(), parts[1].upper()
    prov = loc.split("/", 1)[0]
    if prov not in game_map.provinces:
        raise ValueError(f"unknown province in unit {text!r}")
    if kind == ARMY and (loc not in game_map.army_moves):
        raise ValueError(f"an army cannot stand in {loc}")
    if kind == FLEET and loc not in game_map.fleet_moves:
        raise ValueError(f"a fleet cannot stand in {loc}")
    return Unit(power, kind, loc)


def starting_position(game_map: GameMap) -> Position:
    """The map's opening position: the starting units, each power owning its starting
    centres (its home centres, unless a variant such as 1898 says otherwise)."""
    units = tuple(
        parse_unit(game_map, power, text)
        for power, p in game_map.powers.items()
        for text in p.units
    )
    centers = {
        power: p.home_centers if p.starting_centers is None else p.starting_centers
        for power, p in game_map.powers.items()
    }
    return Position(game_map, Phase(game_map.first_year, "S", "M"), units, centers)
