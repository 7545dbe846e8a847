"""A DPjudge (and MILA `diplomacy` package) `.map` file read into the project's map data
(the tables `maps/*.toml` hold). The source's province abbreviations and power names are
kept; what the project's format cannot state is refused with its line number.

The format, as this reader takes it: `Full Name = abb alias...` names a place;
`WATER|LAND|COAST|SHUT ABB ABUTS loc...` gives its terrain and neighbours (an abbreviation
in lower case: no fleet there or no fleet move to it; `Abb`: no army move to it; `ABB/XC`:
one coast of a multi-coast province); `POWER [(Adjective[:L])] centre...` starts a power
with its home centres, followed by its units (`A BUD`, `F STP/SC`) and optionally `OWNS`,
`CENTERS`, `HOME`/`INHABITS`, `UNITS`; `UNOWNED`/`NEUTRAL` list the other supply centres;
`VICTORY n` and `BEGIN SPRING year MOVEMENT` are the game's; `RULE BUILD_ANY` builds
anywhere; `USE file`, `MAP name` read another file beside this one first, `UNPLAYED`
forgets powers; `DUMMY` powers, which no player controls, become neutral powers (their
units hold). A `PORT` space (a coast whose fleets may convoy as at sea) is a coast with
`port = true`. `# ...` lines are comments."""

from __future__ import annotations

import re
from collections.abc import Callable
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

# PORT: a coast whose fleets may also convoy, as at sea (DPjudge's map-file syntax).
_TERRAINS = {
    "WATER": "sea",
    "LAND": "land",
    "COAST": "coast",
    "PORT": "coast",
    "SHUT": "impassable",
}
# Directives of the format whose effect the project's maps cannot state.
_REFUSED = {
    "DROP": "DROP is not supported: import a map without the dropped places",
    "DIRECTIVE": "DIRECTIVE stanzas are not supported",
    "END": "DIRECTIVE stanzas are not supported",
}
_ABBREVIATION = re.compile(r"[A-Za-z0-9]{1,8}(/[A-Za-z]{1,3})?")
_INCLUDED = re.compile(r"[A-Za-z0-9_-]{1,100}(\.[A-Za-z]{1,10})?")  # a file beside this one
MAX_FILES = 10  # the map file and those it reads (USE, MAP)
# An included file's line N is numbered N + its index * _STRIDE while the files are read,
# so that a refusal made once all are read still says which file the line is in.
_STRIDE = 10_000_000
_POWER = re.compile(r"(_*[A-Za-z+][A-Za-z0-9_+-]{0,39})\s*(?:\(([^()]*)\))?(?:\s+(.*))?")


@dataclass
class _Terrain:
    """A location's terrain line (mutable while the file is read)."""

    kind: str
    port: bool
    line: int
    fleets_stand: bool  # the abbreviation in upper case: a fleet may stand there
    abuts: tuple[str, ...]


@dataclass
class _Power:
    """A power as the file gives it."""

    name: str
    adjective: str
    initial: str
    line: int
    homes: list[tuple[str, int]] = field(default_factory=list)
    owns: list[tuple[str, int]] | None = None
    units: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class _Reading:
    """What has been read so far."""

    places: dict[str, tuple[str, list[str], int]] = field(default_factory=dict)
    terrain: dict[str, _Terrain] = field(default_factory=dict)
    powers: dict[str, _Power] = field(default_factory=dict)
    current: str | None = None
    unowned: list[tuple[str, int]] = field(default_factory=list)
    victory: int | None = None
    first_year: int = 1901
    build_anywhere: bool = False
    not_centres: set[str] = field(default_factory=set)  # `UNOWNED -WAR`
    include: Include | None = None
    files: list[str] = field(default_factory=lambda: [""])  # index 0: the file itself
    open: list[str] = field(default_factory=list)  # the files being read, outermost first
    dummies: list[str] = field(default_factory=list)  # powers no player controls


# A file named in USE or MAP -> its text (MapFileError if it cannot be read): the command
# line's, which reads only files beside the one imported.
Include = Callable[[str], str]


def read_dpjudge(text: str, name: str, include: Include | None = None) -> dict[str, Any]:
    """The map data (as `maps/<name>.toml` holds it) of the DPjudge map file `text`, the
    files it USEs read by `include` (None: refused); MapFileError, with the line (and the
    file, when it is another), for anything malformed or not supported."""
    reading = _Reading(include=include)
    try:
        _read_file(reading, text, 0)
        return _map_data(reading, name)
    except MapFileError as e:
        if e.line is None or e.line < _STRIDE:
            raise
        index, line = divmod(e.line, _STRIDE)
        raise MapFileError(line, e.reason, reading.files[index]) from None


def _read_file(reading: _Reading, text: str, index: int) -> None:
    """Take the lines of file number `index` (0: the imported file) into `reading`."""
    try:
        lines = list(numbered_lines(text))
    except MapFileError as e:
        raise MapFileError((e.line or 0) + index * _STRIDE, e.reason) from None
    for number, line in lines:
        _read_line(reading, number + index * _STRIDE, line)


def _use(reading: _Reading, number: int, words: list[str]) -> None:
    """`USE file...`, `MAP name`: the lines of those files (beside this one) read here."""
    if reading.include is None:
        raise MapFileError(number, "a map that reads another file (USE, MAP) is not supported")
    for word in words:
        if not _INCLUDED.fullmatch(word):
            raise MapFileError(number, f"{word[:40]!r}: name a file beside this one")
        file = word if "." in word else f"{word}.map"
        if file in reading.open:
            raise MapFileError(number, f"{file} would read itself, round about")
        if len(reading.files) == MAX_FILES:
            raise MapFileError(number, f"{file}: more than {MAX_FILES} files")
        try:
            text = reading.include(file)
        except MapFileError as e:
            raise MapFileError(number, f"{file}: {e}") from None
        reading.files.append(file)
        reading.open.append(file)
        _read_file(reading, text, len(reading.files) - 1)
        reading.open.pop()
        reading.current = None  # the included file's last power is not this file's


def _unplayed(reading: _Reading, number: int, words: list[str]) -> None:
    """`UNPLAYED [ALL [EXCEPT]] power...`: powers forgotten, with their centres and units
    (a centre stays one if UNOWNED lists it)."""
    names = [_power_key(w) for w in " ".join(words).replace(",", " ").split()]
    everyone = names[:1] == ["ALL"]
    if everyone:
        names = names[2:] if names[1:2] == ["EXCEPT"] else names[1:]
    elif not names and reading.current is not None:
        names = [reading.current]
    for key in names:
        if key not in reading.powers:
            raise MapFileError(number, f"UNPLAYED: no power {key[:40]}")
    gone = [k for k in reading.powers if (k not in names) == everyone]
    for key in gone:
        del reading.powers[key]
    reading.dummies = [k for k in reading.dummies if k not in gone]
    if reading.current in gone:
        reading.current = None


def _dummies(reading: _Reading, number: int, words: list[str]) -> None:
    """`DUMMY` (the current power), `DUMMY|DUMMIES [ALL [EXCEPT]] power...`: powers no
    player controls (DPjudge's map-file syntax), neutral powers here."""
    names = [_power_key(w) for w in " ".join(words[1:]).replace(",", " ").split()]
    if not names:
        if words[0].upper() == "DUMMIES":
            raise MapFileError(number, "DUMMIES takes the powers, or ALL")
        power = _current(reading, number, "DUMMY")
        names = [k for k, p in reading.powers.items() if p is power]
    everyone = names[0] == "ALL"
    if everyone:
        if names[1:2] not in ([], ["EXCEPT"]) or names[1:] == ["EXCEPT"]:
            raise MapFileError(number, "DUMMY ALL EXCEPT takes the powers not made dummies")
        names = names[2:]
    elif len(words) > 1:
        reading.current = None
    for key in names:
        if key not in reading.powers:
            raise MapFileError(number, f"DUMMY: no power {key[:40]}")
    if everyone:
        reading.dummies = [k for k in reading.powers if k not in names]
    else:
        reading.dummies += [k for k in names if k not in reading.dummies]


def _unowned(reading: _Reading, number: int, words: list[str]) -> None:
    """`UNOWNED centre...`: supply centres of no power; `-WAR`: WAR is no centre."""
    reading.current = None
    for word in words:
        key = _location(word.removeprefix("-"), number)
        if word.startswith("-"):
            reading.unowned = [(c, n) for c, n in reading.unowned if c != key]
            reading.not_centres.add(key)
        else:
            reading.unowned.append((key, number))
            reading.not_centres.discard(key)


def _read_line(reading: _Reading, number: int, line: str) -> None:
    """Take one line of the file into `reading`."""
    words = line.split()
    word = words[0].upper()
    if "=" in line:
        _place(reading, number, line)
    elif word in ("USE", "USES", "MAP"):
        _use(reading, number, words[1:])
    elif word == "UNPLAYED":
        _unplayed(reading, number, words[1:])
    elif word in ("DUMMY", "DUMMIES"):
        _dummies(reading, number, words)
    elif word in _REFUSED:
        raise MapFileError(number, _REFUSED[word])
    elif word in _TERRAINS:
        _terrain(reading, number, words)
    elif word in _POWER_DIRECTIVES:
        _POWER_DIRECTIVES[word](reading, number, words[1:])
    elif word in ("UNOWNED", "NEUTRAL") or (word == "CENTERS" and reading.current is None):
        _unowned(reading, number, words[1:])
    elif word == "VICTORY":
        _victory(reading, number, words[1:])
    elif word == "BEGIN":
        _begin(reading, number, words[1:])
    elif word in ("RULE", "RULES"):
        _rules(reading, number, words[1:])
    elif len(words) == 2 and word in ("A", "F"):
        _unit(reading, number, words)
    else:
        _power(reading, number, line)


def _location(word: str, number: int) -> str:
    """An abbreviation of the file, upper case; refused if it cannot be one."""
    if not _ABBREVIATION.fullmatch(word):
        raise MapFileError(number, f"{word[:40]!r} is not a place's abbreviation")
    return word.upper()


def _place(reading: _Reading, number: int, line: str) -> None:
    """`Full Name = abb alias...`: a place's name and the other names players may use."""
    full, _, rest = line.partition("=")
    names = rest.split()
    if "=" in rest or not full.strip() or not names:
        raise MapFileError(number, "a place line is `Full Name = abbreviation alias...`")
    key = _location(names[0], number)
    if "/" in key:  # a coast's own names: the project's maps name provinces only
        return
    if key in reading.places:
        raise MapFileError(number, f"{key} is named twice (first on line {reading.places[key][2]})")
    # `+` joins the words of an alias; `?` marks an ambiguous one, which is left out
    aliases = [a.replace("+", " ") for a in names[1:] if not a.endswith("?")]
    reading.places[key] = (" ".join(full.split()), aliases, number)


def _terrain(reading: _Reading, number: int, words: list[str]) -> None:
    """`COAST ABB ABUTS loc...`: a location's terrain and the locations it abuts."""
    if len(words) < 2 or (len(words) > 2 and words[2].upper() != "ABUTS"):
        raise MapFileError(number, f"a terrain line is `{words[0]} ABB ABUTS place...`")
    where = _location(words[1], number)
    for w in words[3:]:
        _location(w, number)
        if _case(w) is None:
            raise MapFileError(number, f"{w!r}: upper, lower or capitalised case only")
    reading.terrain[where] = _Terrain(
        kind=_TERRAINS[words[0].upper()],
        port=words[0].upper() == "PORT",
        line=number,
        fleets_stand=_case(words[1]) == "upper",
        abuts=tuple(words[3:]),
    )


def _case(word: str) -> str | None:
    """How an abbreviation is written: "upper", "lower", "capital" (Abb), None (mixed)."""
    letters = [c for c in word.split("/")[0] if c.isalpha()]
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return "capital"
    return None


def _victory(reading: _Reading, number: int, words: list[str]) -> None:
    """`VICTORY n...`: the centres to win (one count for every year)."""
    # ASCII digits: isdigit() passes "²", which int() refuses.
    if not words or not all(w.isascii() and w.isdigit() and len(w) < 5 for w in words):
        raise MapFileError(number, "VICTORY takes a number of centres")
    if len(set(words)) > 1:
        raise MapFileError(number, "a victory count that changes by year is not supported")
    reading.victory = int(words[0])


def _begin(reading: _Reading, number: int, words: list[str]) -> None:
    """`BEGIN SPRING year MOVEMENT`: the first year (the first phase is Spring movement)."""
    if len(words) != 3 or not (words[1].isascii() and words[1].isdigit()) or len(words[1]) > 4:
        raise MapFileError(number, "BEGIN is `BEGIN SPRING year MOVEMENT`")
    if (words[0].upper(), words[2].upper()) != ("SPRING", "MOVEMENT"):
        raise MapFileError(number, "a game that begins other than in Spring movement")
    reading.first_year = int(words[1])


def _rules(reading: _Reading, number: int, words: list[str]) -> None:
    """`RULE BUILD_ANY`: builds in any owned supply centre; no other rule is supported."""
    for rule in words:
        if rule.upper() != "BUILD_ANY":
            raise MapFileError(number, f"the rule {rule[:40]!r} is not supported")
        reading.build_anywhere = True


def _power(reading: _Reading, number: int, line: str) -> None:
    """`POWER [(Adjective[:L])] centre...`: a power, its home centres; the power whose
    units and centres the next lines give."""
    match = _POWER.fullmatch(line)
    if match is None:
        raise MapFileError(number, f"not a line of a map file: {line[:60]!r}")
    raw, own, centres = match.groups()
    shown = _shown(raw)
    key = shown.upper()
    adjective, _, initial = (own or "").partition(":")
    adjective = adjective.replace("+", " ").strip() or shown
    power = reading.powers.get(key)
    if power is None:
        if len(reading.powers) == MAX_POWERS:
            raise MapFileError(number, f"more than {MAX_POWERS} powers")
        power = _Power(
            name=shown if not shown.isupper() else shown.capitalize(),
            adjective=adjective if not adjective.isupper() else adjective.capitalize(),
            initial=(initial.strip() or adjective[0]).upper(),
            line=number,
        )
        reading.powers[key] = power
    for word in (centres or "").split():
        centre = _location(word.removeprefix("-"), number)
        if word.startswith("-"):  # no home centre of this power any more, but a centre
            power.homes = [(c, n) for c, n in power.homes if c != centre]
            reading.unowned.append((centre, number))
        else:
            power.homes.append((centre, number))
    reading.current = key


def _shown(raw: str) -> str:
    """A power's name as shown: `_` only orders the powers; `+` makes the next letter a
    capital."""
    return re.sub(r"\+(.)", lambda m: m.group(1).upper(), raw.lstrip("_")).replace("+", "")


def _power_key(word: str) -> str:
    return _shown(word).upper()


def _current(reading: _Reading, number: int, what: str) -> _Power:
    if reading.current is None:
        raise MapFileError(number, f"{what} before the power it belongs to")
    return reading.powers[reading.current]


def _unit(reading: _Reading, number: int, words: list[str]) -> None:
    """`A BUD`, `F STP/SC`: a starting unit of the current power."""
    power = _current(reading, number, "a unit")
    power.units.append((f"{words[0].upper()} {_location(words[1], number)}", number))


def _owns(reading: _Reading, number: int, words: list[str]) -> None:
    """`OWNS centre...`: starting centres of the current power, added to those given."""
    power = _current(reading, number, "OWNS")
    power.owns = (power.owns or []) + [(_location(w, number), number) for w in words]


def _centers(reading: _Reading, number: int, words: list[str]) -> None:
    """`CENTERS centre...` after a power: its starting centres, replacing those given."""
    _current(reading, number, "CENTERS").owns = []
    _owns(reading, number, words)


def _homes(reading: _Reading, number: int, words: list[str]) -> None:
    """`HOME centre...`, `INHABITS centre...`: the current power's home centres."""
    _current(reading, number, "HOME").homes = [(_location(w, number), number) for w in words]


def _units(reading: _Reading, number: int, words: list[str]) -> None:
    """`UNITS`: forget the current power's units given so far."""
    if words:
        raise MapFileError(number, "UNITS takes nothing: the units follow one a line")
    _current(reading, number, "UNITS").units = []


_POWER_DIRECTIVES = {
    "OWNS": _owns,
    "INHABITS": _homes,
    "HOME": _homes,
    "HOMES": _homes,
    "UNITS": _units,
}


def _map_data(reading: _Reading, name: str) -> dict[str, Any]:
    """The map's tables, once everything the file said is checked."""
    if not reading.terrain:
        raise MapFileError(None, "the file gives no places (no WATER, LAND or COAST line)")
    if len(reading.terrain) > MAX_PROVINCES:
        raise MapFileError(None, f"more than {MAX_PROVINCES} places")
    if len(reading.powers) < 2:
        raise MapFileError(None, "a map needs two powers or more")
    provinces = _provinces(reading)
    centres = _supply_centres(reading, provinces)
    for key in centres:
        provinces[key]["supply_center"] = True
    data: dict[str, Any] = {
        "name": name,
        "title": name,
        "first_year": reading.first_year,
        "victory_centers": reading.victory or len(centres) // 2 + 1,
    }
    if reading.victory is not None and not 0 < reading.victory <= len(centres):
        raise MapFileError(None, f"VICTORY {reading.victory}: the map has {len(centres)} centres")
    if reading.build_anywhere:
        data["build_anywhere"] = True
    if reading.dummies:
        data["neutral_powers"] = [k for k in reading.powers if k in reading.dummies]
    data["powers"] = _powers(reading, provinces)
    data["provinces"] = provinces
    return data


def _supply_centres(reading: _Reading, provinces: dict[str, Any]) -> list[str]:
    """Every supply centre: home, starting and unowned centres; each must be a province."""
    listed = list(reading.unowned)
    for power in reading.powers.values():
        listed += power.homes + (power.owns or [])
    for key, number in listed:
        if key not in provinces or provinces[key]["kind"] == "impassable":
            raise MapFileError(number, f"the supply centre {key} is no province of the map")
        if key in reading.not_centres:
            raise MapFileError(number, f"{key} is a centre here, but `UNOWNED -{key}` says not")
    return sorted({key for key, _ in listed})


def _provinces(reading: _Reading) -> dict[str, dict[str, Any]]:
    """Every province's table: name, kind, aliases, army and fleet moves, coasts."""
    for key, (_, _, number) in reading.places.items():
        if key not in reading.terrain:
            raise MapFileError(number, f"{key} is named but has no terrain line")
    coasts = _coasts(reading)
    army, fleet = _moves(reading, coasts)
    names = _names(reading)
    provinces: dict[str, dict[str, Any]] = {}
    for key, terrain in reading.terrain.items():
        if "/" in key:
            continue
        table: dict[str, Any] = {"name": names[key][0], "kind": terrain.kind}
        if names[key][1]:
            table["aliases"] = names[key][1]
        if terrain.kind in ("land", "coast"):
            table["kind"] = "coast" if key in coasts else terrain.kind
            table["army"] = sorted(army.get(key, ()))
        if key in coasts:
            table["coasts"] = {
                c: {"fleet": sorted(fleet.get(f"{key}/{c}", ()))} for c in coasts[key]
            }
        elif key in fleet or _stands(terrain):
            table["fleet"] = sorted(fleet.get(key, ()))
        if terrain.port:
            if key in coasts or not _stands(terrain):
                raise MapFileError(terrain.line, f"PORT {key}: a port is one coast, upper case")
            table["port"] = True
        provinces[key] = table
    return provinces


def _names(reading: _Reading) -> dict[str, tuple[str, list[str]]]:
    """Each province's full name and the aliases kept, taken in the order of the file (so
    that a name given twice is refused on the line that gives it the second time)."""
    spellings = _Spellings()
    named = {
        key: reading.places.get(key, (key, [], terrain.line))
        for key, terrain in reading.terrain.items()
        if "/" not in key
    }
    return {
        key: (full, spellings.add(key, full, aliases, number))
        for key, (full, aliases, number) in sorted(named.items(), key=lambda kv: kv[1][2])
    }


def _stands(terrain: _Terrain) -> bool:
    """Whether a fleet may stand on a province without coasts of its own."""
    return terrain.kind == "sea" or (terrain.kind == "coast" and terrain.fleets_stand)


def _coasts(reading: _Reading) -> dict[str, list[str]]:
    """The coasts of each multi-coast province, checked against its own line."""
    coasts: dict[str, list[str]] = {}
    for location, terrain in reading.terrain.items():
        province, _, coast = location.partition("/")
        if not coast:
            continue
        if terrain.port:
            raise MapFileError(terrain.line, f"PORT {location}: a port is one coast, upper case")
        own = reading.terrain.get(province)
        if own is None:
            raise MapFileError(
                terrain.line, f"{location} is a coast of {province}, which has no line"
            )
        if terrain.kind != "coast" or own.kind not in ("coast", "land") or own.fleets_stand:
            raise MapFileError(
                own.line,
                f"{province} has coasts: its line is `COAST {province.lower()}` (lower case) "
                f"and each coast's `COAST {location}`",
            )
        coasts.setdefault(province, []).append(coast)
    for province, its in coasts.items():
        if len(its) < 2:
            raise MapFileError(reading.terrain[province].line, f"{province} has only one coast")
    for location, terrain in reading.terrain.items():
        if terrain.kind == "coast" and not terrain.fleets_stand and location not in coasts:
            raise MapFileError(terrain.line, f"no fleet may stand in {location}: give its coasts")
    return coasts


def _moves(
    reading: _Reading, coasts: dict[str, list[str]]
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(army moves by province, fleet moves by fleet location), each listed both ways."""
    armies = {k for k, t in reading.terrain.items() if "/" not in k and t.kind in ("land", "coast")}
    fleets = {k for k, t in reading.terrain.items() if "/" in k or (k not in coasts and _stands(t))}
    army: dict[tuple[str, str], int] = {}
    fleet: dict[tuple[str, str], int] = {}
    for location, terrain in reading.terrain.items():
        if terrain.kind == "impassable":
            continue
        for word in terrain.abuts:
            target, case = word.upper(), _case(word)
            if target not in reading.terrain:
                raise MapFileError(terrain.line, f"{location} abuts {target}, which has no line")
            province = target.split("/")[0]
            if location in armies and province in armies and case != "capital":
                army[(location, province)] = terrain.line
            if location in fleets and case != "lower":
                if target in fleets:
                    fleet[(location, target)] = terrain.line
                elif target in coasts:
                    raise MapFileError(terrain.line, f"{location} abuts {target}: name its coast")
    return both_ways(army, "an army"), both_ways(fleet, "a fleet")


@dataclass
class _Spellings:
    """The names given so far (squashed -> province), so that no name names two."""

    taken: dict[str, str] = field(default_factory=dict)

    def add(self, key: str, full: str, aliases: list[str], number: int) -> list[str]:
        """Take province `key`'s abbreviation and full name (refused if another province
        has either) and those aliases no other province has; the aliases kept."""
        for own in (key, full):
            other = self.taken.setdefault(squash(own), key)
            if other != key:
                raise MapFileError(number, f"the name {own!r} is also {other}'s")
        kept = []
        for alias in aliases:
            s = squash(alias)
            if s and self.taken.setdefault(s, key) == key and alias not in kept:
                kept.append(alias)
        return [a for a in kept if squash(a) not in (squash(key), squash(full))]


def _powers(reading: _Reading, provinces: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Every power's table, its units and centres checked against the provinces."""
    tables: dict[str, Any] = {}
    initials: dict[str, str] = {}
    owner: dict[str, str] = {}
    standing: set[str] = set()
    for key, power in reading.powers.items():
        if initials.setdefault(power.initial, key) != key:
            raise MapFileError(power.line, f"{key} and {initials[power.initial]} have one initial")
        if not (power.homes or power.owns or power.units):
            raise MapFileError(power.line, f"{key}: a power with no centres and no units")
        homes = list(dict.fromkeys(c for c, _ in power.homes))
        table: dict[str, Any] = {
            "name": power.name,
            "adjective": power.adjective,
            "initial": power.initial,
            "home_centers": homes,
            "units": [checked_unit(u, n, provinces, standing) for u, n in power.units],
        }
        starting = power.homes if power.owns is None else power.owns
        for centre, number in starting:
            if owner.setdefault(centre, key) != key:
                raise MapFileError(number, f"{centre} is a starting centre of {owner[centre]} too")
        if power.owns is not None and [c for c, _ in power.owns] != homes:
            table["starting_centers"] = list(dict.fromkeys(c for c, _ in power.owns))
        tables[key] = table
    return tables
