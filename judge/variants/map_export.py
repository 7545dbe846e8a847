"""A map of the project's format written back in another judge's format: DPjudge's `.map`
file, or njudge's `map.X` with its `seed.X`, as `import_dpjudge`/`import_njudge` read them
(so that an exported map imports again as the same map). What the target format cannot
state is left out, and said as a warning; what it cannot write at all is refused."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine.geography import COAST, IMPASSABLE, LAND, SEA, GameMap, squash
from judge.variants.import_njudge import STANDARD_POWERS  # njudge's program names them

_TERRAIN = {SEA: "WATER", LAND: "LAND", COAST: "COAST", IMPASSABLE: "SHUT"}
_DPJUDGE_POWER = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
_NJUDGE_WORD = re.compile(r"[A-Za-z0-9]{2,8}")
_NJUDGE_LETTER = re.compile(r"[0-9A-LNP-Z]")
_RECORD_LINE = 60  # letters of njudge's record of owners on one line of the seed file


class MapExportError(Exception):
    """A map the target format cannot write (a name it cannot hold, say)."""


@dataclass(frozen=True)
class Exported:
    """A map written out: the file's text, njudge's seed file (None for DPjudge), and
    what was left out."""

    text: str
    seed: str | None
    warnings: tuple[str, ...]


def _aliases(data: Mapping[str, Any], key: str) -> list[str]:
    return list(data["provinces"][key].get("aliases", []))


def _dropped_features(gm: GameMap, data: Mapping[str, Any], dpjudge: bool) -> list[str]:
    """The warnings for what neither format states (and, for njudge, what only DPjudge
    does)."""
    said = []
    if any(p.get("aliases") for p in data["powers"].values()):
        said.append("the powers' aliases are not written")
    if any(p.sort_name != p.name for p in gm.provinces.values()):
        said.append("the provinces' sort names are not written")
    if any(p.default_coast for p in gm.provinces.values()):
        said.append("the default coasts are not written")
    if any(len(g) > 1 for g in gm.player_groups) or gm.victory_by_player:
        said.append("the player groups are not written: one player per power")
    if gm.neutral_until is not None or gm.closed_provinces:
        said.append("neutral_until and closed_provinces are not written")
    if not dpjudge:
        if gm.neutral_powers:
            said.append("the neutral powers are not written: each is a power of its own")
        if gm.build_anywhere:
            said.append("build_anywhere is not written: builds in home centres")
        centres = len(gm.supply_centers)
        if gm.victory_centers != centres // 2 + 1:
            said.append(
                f"the victory count {gm.victory_centers} is not written: "
                f"more than half the centres, {centres // 2 + 1}"
            )
    return said


# -- DPjudge ------------------------------------------------------------------------


def to_dpjudge(gm: GameMap, data: Mapping[str, Any]) -> Exported:
    """`gm` (its aliases from its TOML `data`) as a DPjudge map file."""
    warnings = _dropped_features(gm, data, dpjudge=True)
    lines = [f"# {gm.name}: written by judge export-map", ""]
    for key, province in gm.provinces.items():
        lines.append(_place_line(province.name, key, _aliases(data, key), warnings))
    lines.append("")
    for key in gm.provinces:
        lines += _terrain_lines(gm, key)
    lines.append("")
    raw = {k: _dpjudge_power(k, p.name, warnings) for k, p in gm.powers.items()}
    for key, power in gm.powers.items():
        lines += _power_lines(raw[key], power.adjective, power.initial, warnings)
        lines[-1] += "".join(f" {c}" for c in sorted(power.home_centers))
        lines += [f"  {unit}" for unit in power.units]
        if power.starting_centers is not None and power.starting_centers != power.home_centers:
            lines.append("  CENTERS" + "".join(f" {c}" for c in sorted(power.starting_centers)))
    owned = {c for p in gm.powers.values() for c in p.home_centers | (p.starting_centers or set())}
    if gm.supply_centers - owned:
        lines.append("UNOWNED " + " ".join(sorted(gm.supply_centers - owned)))
    if gm.neutral_powers:
        lines.append("DUMMIES " + " ".join(raw[k] for k in gm.powers if k in gm.neutral_powers))
    lines += ["", f"VICTORY {gm.victory_centers}", f"BEGIN SPRING {gm.first_year} MOVEMENT"]
    if gm.build_anywhere:
        lines.append("RULE BUILD_ANY")
    return Exported("\n".join(lines) + "\n", None, tuple(warnings))


def _place_line(name: str, key: str, aliases: list[str], warnings: list[str]) -> str:
    """`Full Name = KEY alias+words...`; an alias DPjudge cannot hold is left out."""
    if "=" in name or not name.strip() or name.lstrip().startswith("#"):
        raise MapExportError(f"{key}: the name {name[:60]!r} cannot be written in a DPjudge map")
    words = []
    for alias in aliases:
        word = "+".join(alias.split())
        if not word or any(c in word for c in "=?") or "+" in alias or not word.isprintable():
            warnings.append(f"{key}: the alias {alias[:60]!r} is not written")
        else:
            words.append(word)
    return " ".join([name, "=", key, *words])


def _terrain_lines(gm: GameMap, key: str) -> list[str]:
    """The terrain line of province `key` (and one per coast, first), with its neighbours
    written in the case that says which units move there."""
    province = gm.provinces[key]
    terrain = "PORT" if province.port else _TERRAIN[province.kind]
    if province.kind == IMPASSABLE:
        return [f"SHUT {key}"]
    if province.coasts:
        lines = [
            f"COAST {key}/{c} ABUTS " + " ".join(sorted(gm.fleet_moves[f"{key}/{c}"]))
            for c in province.coasts
        ]
        armies = sorted(gm.army_moves.get(key, ()))
        return [*lines, f"COAST {_cased(key, 'lower')} ABUTS " + " ".join(armies)]
    words = [_abut(gm, key, target) for target in _neighbours(gm, key)]
    return [f"{terrain} {key} ABUTS " + " ".join(w for w in words if w)]


def _neighbours(gm: GameMap, key: str) -> list[str]:
    """The locations a unit in `key` moves to: army targets and fleet targets."""
    army = set(gm.army_moves.get(key, ()))
    fleet = set(gm.fleet_moves.get(key, ()))
    return sorted(army | fleet | {t.split("/")[0] for t in fleet if "/" in t})


def _abut(gm: GameMap, key: str, target: str) -> str:
    """How `key`'s line names `target`: upper case for armies and fleets, lower for
    armies only, `Abb` for fleets only (between two army provinces)."""
    army = target in gm.army_moves.get(key, ())
    fleet = target in gm.fleet_moves.get(key, ())
    if "/" in target:  # a coast: fleets only
        province, _, coast = target.partition("/")
        return f"{_cased(province, 'capital')}/{coast}" if key in gm.army_moves else target
    if gm.provinces[target].coasts:  # the province of a coast: armies only
        return _cased(target, "lower") if army else ""
    if army and not fleet and target in gm.fleet_moves and key in gm.fleet_moves:
        return _cased(target, "lower")
    if fleet and not army and target in gm.army_moves and key in gm.army_moves:
        return _cased(target, "capital")
    return target


def _cased(key: str, case: str) -> str:
    """`key` in lower case or as `Abb`, refused when its letters cannot show the case."""
    word = key.lower() if case == "lower" else key[0] + key[1:].lower()
    letters = [c for c in key if c.isalpha()]
    if case == "lower" and not letters or case == "capital" and len(letters) < 2:
        raise MapExportError(f"{key}: too few letters to write its moves in a DPjudge map")
    if case == "capital" and not key[0].isalpha():
        raise MapExportError(f"{key}: its moves cannot be written in a DPjudge map")
    return word


def _dpjudge_power(key: str, name: str, warnings: list[str]) -> str:
    """The power's name as written, so that DPjudge reads back its key and name."""
    if not _DPJUDGE_POWER.fullmatch(key):
        raise MapExportError(f"the power {key[:40]} cannot be named in a DPjudge map")
    if name == key.capitalize() or name.upper() != key or name.isupper():
        if name != key.capitalize():
            warnings.append(f"{key}: the power's name {name!r} is not written")
        return key
    if not _DPJUDGE_POWER.fullmatch(name):
        warnings.append(f"{key}: the power's name {name!r} is not written")
        return key
    # `+x` is read as `X`: the capitals after the first letter
    return name[0] + "".join(f"+{c}" if c.isupper() else c for c in name[1:])


def _power_lines(raw: str, adjective: str, initial: str, warnings: list[str]) -> list[str]:
    """`POWER (Adjective:L)`, the adjective's spaces written `+`."""
    own = "+".join(adjective.split())
    if not own or any(c in adjective for c in "():+") or adjective.isupper():
        warnings.append(f"the adjective {adjective[:40]!r} is not written")
        own = ""
    return ["", f"{raw} ({own}:{initial})"]


# -- njudge ---------------------------------------------------------------------------


def to_njudge(gm: GameMap, data: Mapping[str, Any]) -> Exported:
    """`gm` (its aliases from its TOML `data`) as njudge's map file and seed file."""
    warnings = _dropped_features(gm, data, dpjudge=False)
    home_of = _homes_by_letter(gm)
    lines = [f"# {gm.name}: written by judge export-map"]
    taken: set[str] = set()
    for key in gm.provinces:
        lines.append(_area_line(gm, key, home_of, _aliases(data, key), taken, warnings))
    lines.append("-1")
    for key in gm.provinces:
        lines += _move_lines(gm, key)
    lines += ["-1", "-1"]
    warnings += _power_names_hint(gm)
    return Exported("\n".join(lines) + "\n", _seed(gm), tuple(warnings))


def _homes_by_letter(gm: GameMap) -> dict[str, str]:
    """Each home centre's power letter; one power each, letters njudge can read."""
    home_of: dict[str, str] = {}
    for key, power in gm.powers.items():
        if not _NJUDGE_LETTER.fullmatch(power.initial.upper()):
            raise MapExportError(f"{key}: the initial {power.initial!r} is not an njudge letter")
        for centre in power.home_centers:
            if home_of.setdefault(centre, power.initial.upper()) != power.initial.upper():
                raise MapExportError(f"{centre} is a home centre of two powers")
    return home_of


def _area_line(
    gm: GameMap,
    key: str,
    home_of: Mapping[str, str],
    aliases: list[str],
    taken: set[str],
    warnings: list[str],
) -> str:
    """`Full Name, T abb alias...`: the area's type and names (the aliases that are one
    word of letters and digits; the others left out)."""
    province = gm.provinces[key]
    if "," in province.name or not _NJUDGE_WORD.fullmatch(key):
        raise MapExportError(f"{key}: {province.name[:60]!r} cannot be an njudge area")
    if province.kind == SEA:
        kind = "w"
    elif province.supply_center:
        kind = home_of.get(key, "x")
    else:
        kind = "l"
    if province.port:  # land that fleets convoy through
        kind += "w"
    taken.add(key.lower())
    words = [key.lower()]
    for alias in aliases:
        if _NJUDGE_WORD.fullmatch(alias) and alias.lower() not in taken:
            taken.add(alias.lower())
            if squash(alias) not in (squash(key), squash(province.name)):
                words.append(alias)
        else:
            warnings.append(f"{key}: the alias {alias[:60]!r} is not written")
    return f"{province.name}, {kind} " + " ".join(words)


def _move_lines(gm: GameMap, key: str) -> list[str]:
    """`abb-mv:` the army's moves, `abb-xc:` (or `-nc` and the like per coast) the
    fleet's; `abb-mv: abb` for an impassable area."""
    province = gm.provinces[key]
    if province.kind == IMPASSABLE:
        return [f"{key.lower()}-mv: {key.lower()}"]
    lines = []
    if province.kind != SEA:
        lines.append(f"{key.lower()}-mv: " + " ".join(sorted(gm.army_moves[key])).lower())
    for location in gm.fleet_locations(key):
        coast = location.partition("/")[2] or "XC"
        targets = " ".join(sorted(gm.fleet_moves[location])).lower()
        lines.append(f"{key.lower()}-{coast.lower()}: {targets}")
    return [line.rstrip() for line in lines]


def _seed(gm: GameMap) -> str:
    """The seed file: the first phase, the units by letter, and (when a power starts
    with other centres than its homes) the record of each area's owner."""
    lines = [f"S{gm.first_year}M"]
    for power in gm.powers.values():
        lines += [f"{power.initial.upper()}: {unit.lower()}" for unit in power.units]
    lines.append("-1")
    owner = {c: p.initial.upper() for p in gm.powers.values() for c in p.starting_centers or ()}
    if any(p.starting_centers != p.home_centers for p in gm.powers.values()):
        record = "".join(owner.get(key, ".") for key in gm.provinces)
        lines += [record[i : i + _RECORD_LINE] for i in range(0, len(record), _RECORD_LINE)]
    lines.append("-1")
    return "\n".join(lines) + "\n"


def _power_names_hint(gm: GameMap) -> list[str]:
    """njudge's map files do not name the powers: the `--powers` that names them again."""
    given = [
        f"{p.initial.upper()}={p.name}:{p.adjective}"
        for p in gm.powers.values()
        if STANDARD_POWERS.get(p.initial.upper()) != (p.name, p.adjective)
    ]
    if not given:
        return []
    return ["njudge's map files do not name the powers: import with --powers " + ",".join(given)]
