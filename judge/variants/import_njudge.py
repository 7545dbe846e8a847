"""A classic email judge's (njudge's) `map.<variant>` file, with its `seed.<variant>`,
read into the project's map data. The abbreviations (the first of each area) and the
power letters are kept; what the project's format cannot state is refused with its line.

The map file, as this reader takes it, is three parts each ended by a line `-1`: the areas
(`Full Name, T abb abb...`, T being `l` land, `w` water, `x` a supply centre, or a power's
letter for its home centre), the moves (`abb-mv: ...` an army's, `abb-xc: ...` a fleet's,
`abb-nc: ...` a fleet's from that coast, targets `abb` or `abb/nc`), and the options (only
the summary list of centres is taken; the rest is refused). The seed file gives the first
phase (`S1901M`), the units (`E: F Edinburgh`) up to a `-1`, and optionally each area's
owner at the start (`.` or a power's letter, one per area in the map's order). njudge
keeps the powers' names in its program, not in the map: they are given by letter."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.geography import squash
from judge.variants.map_import import (
    MAX_POWERS,
    MAX_PROVINCES,
    MapFileError,
    both_ways,
    checked_unit,
    numbered_lines,
)

# The standard game's letters; any other power's name is given by the operator.
STANDARD_POWERS = {
    "A": ("Austria", "Austrian"),
    "E": ("England", "English"),
    "F": ("France", "French"),
    "G": ("Germany", "German"),
    "I": ("Italy", "Italian"),
    "R": ("Russia", "Russian"),
    "T": ("Turkey", "Turkish"),
}
_REFUSED_TYPES = {
    "h": "high seas (any number of fleets) are not supported",
    "g": "gateways are not supported",
    "r": "railways are not supported",
    "v": "arctic waters (iced in the fall) are not supported",
}
_AREA = re.compile(r"([^,]+),\s*(\S+)\s+(.+)")
_MOVES = re.compile(r"([A-Za-z0-9]+)-([a-z]{2}):(.*)")
_COASTS = ("ec", "nc", "sc", "wc")
_POWER_LETTER = re.compile(r"[0-9A-LNP-Z]")
_Line = tuple[int, str]


@dataclass(frozen=True)
class _Area:
    """An area of the map file."""

    key: str
    name: str
    kind: str  # "l", "w", "x" or a power's letter
    aliases: tuple[str, ...]
    line: int
    port: bool = False  # `lw`, `xw`, `Aw`: land whose fleets convoy as at sea


@dataclass
class _Moves:
    """The moves read (each with its line), and the coasts of multi-coast provinces."""

    army: dict[tuple[str, str], int] = field(default_factory=dict)
    fleet: dict[tuple[str, str], int] = field(default_factory=dict)
    fleet_words: list[tuple[str, str, int]] = field(default_factory=list)
    coasts: dict[str, list[str]] = field(default_factory=dict)
    single: set[str] = field(default_factory=set)  # provinces with an `-xc` line


def read_njudge(
    text: str, name: str, seed: str | None, powers: Mapping[str, tuple[str, str]]
) -> dict[str, Any]:
    """The map data of njudge's map file `text` and seed file `seed` (its text), the
    powers named by letter in `powers`; MapFileError for anything malformed."""
    parts = _parts(list(numbered_lines(text)))
    areas = _areas(parts[0])
    by_name = {squash(a): area.key for area in areas.values() for a in (area.key, *area.aliases)}
    moves = _moves(parts[1], by_name)
    _options(parts[2] if len(parts) > 2 else [], by_name)
    provinces = _provinces(areas, moves)
    if seed is None:
        raise MapFileError(None, "no seed file: the starting units are in seed.<variant>")
    start = _seed(seed, areas, by_name | _full_names(areas))
    return {
        "name": name,
        "title": name,
        "first_year": start.first_year,
        "victory_centers": sum("supply_center" in p for p in provinces.values()) // 2 + 1,
        "powers": _powers(areas, start, powers, provinces),
        "provinces": provinces,
    }


def _split(lines: list[_Line]) -> list[list[_Line]]:
    """The lines between lines `-1` (the last part: those after the last `-1`)."""
    parts: list[list[_Line]] = [[]]
    for number, line in lines:
        if line == "-1":
            parts.append([])
        else:
            parts[-1].append((number, line))
    return parts


def _parts(lines: list[_Line]) -> list[list[_Line]]:
    """The map file's parts, each ended by a line `-1`: areas, moves, options."""
    parts = _split(lines)
    if len(parts) < 3 or parts[-1]:
        last = lines[-1][0] if lines else None
        raise MapFileError(last, "each part (areas, moves, options) ends with a line -1")
    return parts[:-1]


def _areas(lines: list[_Line]) -> dict[str, _Area]:
    """The areas, by their first abbreviation (upper case)."""
    areas: dict[str, _Area] = {}
    taken: dict[str, str] = {}
    for number, line in lines:
        match = _AREA.fullmatch(line)
        if match is None:
            raise MapFileError(number, "an area is `Full Name, type abbreviation...`")
        full, kind, words = match.groups()
        if kind in _REFUSED_TYPES:
            raise MapFileError(number, _REFUSED_TYPES[kind])
        port = len(kind) == 2 and kind[1] == "w" and kind[0] != "w"
        kind = kind[0] if port else kind
        if len(kind) > 1:
            raise MapFileError(number, f"the area type {kind[:10]!r}: l, w, x or a power's letter")
        if kind not in "lwx" and not _POWER_LETTER.fullmatch(kind):
            raise MapFileError(number, f"the area type {kind!r}: l, w, x or a power's letter")
        names = words.split()
        for word in names:
            if not re.fullmatch(r"[A-Za-z0-9]{2,8}", word):
                raise MapFileError(number, f"{word[:40]!r} is not an abbreviation")
            if taken.setdefault(word.lower(), names[0].upper()) != names[0].upper():
                raise MapFileError(number, f"{word!r} is also {taken[word.lower()]}'s")
        key = names[0].upper()
        full = " ".join(full.split())
        aliases = tuple(n for n in names[1:] if squash(n) not in (squash(key), squash(full)))
        areas[key] = _Area(key, full, kind, aliases, number, port)
        if len(areas) > MAX_PROVINCES:
            raise MapFileError(number, f"more than {MAX_PROVINCES} areas")
    return areas


def _full_names(areas: Mapping[str, _Area]) -> dict[str, str]:
    """Each area's full name (squashed) -> its key: the seed file names areas so."""
    return {squash(area.name): area.key for area in areas.values()}


def _area(word: str, by_name: Mapping[str, str], number: int) -> str:
    key = by_name.get(squash(word))
    if key is None:
        raise MapFileError(number, f"{word[:40]!r} is no area of the map")
    return key


def _moves(lines: list[_Line], by_name: Mapping[str, str]) -> _Moves:
    """The army and fleet moves of the moves part."""
    moves = _Moves()
    for number, line in lines:
        match = _MOVES.fullmatch(line)
        if match is None:
            raise MapFileError(number, "a move line is `abb-mv: abb...` (or -xc, -nc, ...)")
        source, kind, targets = match.groups()
        key = _area(source, by_name, number)
        if kind == "mv":
            for word in targets.split():
                target = _area(_plain(word, number)[0], by_name, number)
                if target != key:  # `swi-mv: swi`: no move at all
                    moves.army[(key, target)] = number
        elif kind == "xc" or kind in _COASTS:
            where = key if kind == "xc" else f"{key}/{kind.upper()}"
            if kind == "xc":
                moves.single.add(key)
            elif kind.upper() not in moves.coasts.setdefault(key, []):
                moves.coasts[key].append(kind.upper())
            moves.fleet_words += [(where, w, number) for w in targets.split()]
        else:
            raise MapFileError(number, f"the move type -{kind} is not supported")
    _fleet_targets(moves, by_name)
    return moves


def _plain(word: str, number: int) -> tuple[str, str]:
    """(area, coast or "") of a move's target; other modifiers are refused."""
    area, _, modifier = word.partition("/")
    if modifier and modifier.lower() not in _COASTS:
        raise MapFileError(number, f"the move modifier /{modifier[:10]} is not supported")
    return area, modifier.upper()


def _fleet_targets(moves: _Moves, by_name: Mapping[str, str]) -> None:
    """The fleet moves, once every coast is known: to a coast, or to a one-coast area."""
    for where, word, number in moves.fleet_words:
        area, coast = _plain(word, number)
        key = _area(area, by_name, number)
        if key == where:
            continue  # `alb-xc: alb`: no move at all
        if coast and coast not in moves.coasts.get(key, []):
            raise MapFileError(number, f"{key} has no coast {coast}")
        if not coast and key in moves.coasts:
            raise MapFileError(number, f"{where} moves to {key}: name its coast")
        moves.fleet[(where, f"{key}/{coast}" if coast else key)] = number


def _options(lines: list[_Line], by_name: Mapping[str, str]) -> None:
    """The options part: only the summary list of centres (left out) is accepted."""
    for number, line in lines:
        if line.lower().startswith("center order"):
            continue
        if any(squash(w) not in by_name for w in line.split()):
            raise MapFileError(number, f"the option {line[:40]!r} is not supported")


def _provinces(areas: Mapping[str, _Area], moves: _Moves) -> dict[str, dict[str, Any]]:
    """Each province's table; an area with moves for neither armies nor fleets is
    impassable, a land area with fleet moves a coast."""
    army = both_ways(moves.army, "an army")
    fleet = both_ways(moves.fleet, "a fleet")
    provinces: dict[str, dict[str, Any]] = {}
    for key, area in areas.items():
        table: dict[str, Any] = {"name": area.name}
        fleets = key in moves.single or key in moves.coasts
        if area.kind == "w":
            if key in army:
                raise MapFileError(area.line, f"{key} is water: no army moves there")
            table |= {"kind": "sea", "fleet": sorted(fleet.get(key, ()))}
        elif key not in army and not fleets:
            table["kind"] = "impassable"
        else:
            table |= {"kind": "coast" if fleets else "land", "army": sorted(army.get(key, ()))}
        if key in moves.coasts:
            if len(moves.coasts[key]) < 2 or key in moves.single:
                raise MapFileError(area.line, f"{key}: one -xc line, or two coasts or more")
            table["coasts"] = {
                c: {"fleet": sorted(fleet.get(f"{key}/{c}", ()))} for c in moves.coasts[key]
            }
        elif table["kind"] == "coast":
            table["fleet"] = sorted(fleet.get(key, ()))
        if area.kind != "l" and area.kind != "w":
            if table["kind"] == "impassable":
                raise MapFileError(area.line, f"the supply centre {key} has no moves")
            table["supply_center"] = True
        if area.port:
            if table["kind"] != "coast" or key in moves.coasts:
                raise MapFileError(area.line, f"{key}: land fleets convoy through has one coast")
            table["port"] = True
        if area.aliases:
            table["aliases"] = list(area.aliases)
        provinces[key] = table
    return provinces


_PHASE = re.compile(r"([SFUW])(\d{1,4})([MRAB])", re.IGNORECASE)
_UNIT = re.compile(r"([0-9A-Z])\s*:\s*([AFaf])\s+(.+)")


@dataclass(frozen=True)
class _Seed:
    """What the seed file gives: the first year, the units by power letter (each with its
    line), and the owner of each centre at the start (None: the home centres)."""

    first_year: int
    units: dict[str, list[tuple[str, int]]]
    owners: dict[str, str] | None


def _seed(text: str, areas: Mapping[str, _Area], by_name: Mapping[str, str]) -> _Seed:
    """The seed file read; its errors say "seed" as their file."""
    try:
        parts = _split(list(numbered_lines(text)))
        if len(parts) < 2 or not parts[0]:
            raise MapFileError(None, "the seed file is the first phase and units, then -1")
        number, first = parts[0][0]
        phase = _PHASE.fullmatch(first)
        if phase is None:
            raise MapFileError(number, "the first line is the first phase, like S1901M")
        if (phase[1].upper(), phase[3].upper()) != ("S", "M"):
            raise MapFileError(number, "a game that begins other than in Spring movement")
        units: dict[str, list[tuple[str, int]]] = {}
        for number, line in parts[0][1:]:
            unit = _UNIT.fullmatch(line)
            if unit is None:
                raise MapFileError(number, "a unit is `L: A Area` (L the power's letter)")
            area, _, coast = unit[3].partition("/")
            where = _area(area, by_name, number) + (f"/{coast.upper()}" if coast else "")
            units.setdefault(unit[1], []).append((f"{unit[2].upper()} {where}", number))
        return _Seed(int(phase[2]), units, _owners(parts[1] if len(parts) > 1 else [], areas))
    except MapFileError as e:
        raise MapFileError(e.line, e.reason, "seed") from None


def _owners(lines: list[_Line], areas: Mapping[str, _Area]) -> dict[str, str] | None:
    """Each centre's owner at the start, from the record of one letter per area."""
    if not lines:
        return None
    record = "".join(line for _, line in lines)
    if len(record) != len(areas):
        raise MapFileError(lines[0][0], f"the record has {len(record)} letters, not {len(areas)}")
    owners = {}
    for letter, area in zip(record, areas.values(), strict=True):
        if letter == ".":
            continue
        if area.kind in "lw" or not _POWER_LETTER.fullmatch(letter):
            raise MapFileError(lines[0][0], f"{area.key} cannot be owned by {letter!r}")
        owners[area.key] = letter
    return owners


def _powers(
    areas: Mapping[str, _Area],
    seed: _Seed,
    names: Mapping[str, tuple[str, str]],
    provinces: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """Each power's table, named by its letter."""
    first_line = {a.kind: a.line for a in reversed(list(areas.values()))}
    letters = list(dict.fromkeys([a.kind for a in areas.values() if a.kind not in "lwx"]))
    letters += [letter for letter in seed.units if letter not in letters]
    if len(letters) > MAX_POWERS:
        raise MapFileError(None, f"more than {MAX_POWERS} powers")
    tables: dict[str, Any] = {}
    standing: set[str] = set()
    for letter in letters:
        if letter not in names:
            raise MapFileError(
                first_line.get(letter),
                f"the power {letter} has no name: give --powers {letter}=Name:Adjective",
            )
        name, adjective = names[letter]
        homes = [k for k, a in areas.items() if a.kind == letter]
        table: dict[str, Any] = {
            "name": name,
            "adjective": adjective,
            "initial": letter,
            "home_centers": homes,
            "units": _units(seed.units.get(letter, []), provinces, standing),
        }
        if seed.owners is not None:
            owned = [k for k, owner in seed.owners.items() if owner == letter]
            if owned != homes:
                table["starting_centers"] = owned
        tables[re.sub(r"[^A-Z0-9_-]", "", name.upper().replace(" ", "_"))] = table
    return tables


def _units(
    units: list[tuple[str, int]], provinces: dict[str, dict[str, Any]], standing: set[str]
) -> list[str]:
    """A power's starting units, each where it can stand; errors are the seed file's."""
    try:
        return [checked_unit(unit, number, provinces, standing) for unit, number in units]
    except MapFileError as e:
        raise MapFileError(e.line, e.reason, "seed") from None
