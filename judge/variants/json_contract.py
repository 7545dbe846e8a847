"""Contract 1, the codec: one JSON position with orders in, one outcome out.

A line that cannot be adjudicated (bad JSON, an unknown map, power, province or phase,
a unit that cannot stand where it is put) gets `{"error": "..."}`: adjudicate_line never
raises. Reading the lines of a stream, one output line per input line, is
`judge adjudicate`'s loop (judge/ops/adjudicate.py).

`map` names a map or a variant file in maps/ (`standard-1898`, `standard-2`, ...). On a
map where players play several powers, the input may give `"players"` (lists of power
keys, one per player) where the game's groups differ from the map's, e.g. once the
two-player game's coin flip has given Italy to a side; `winner` is then the winning
player's powers joined by "+" (`"AUSTRIA+GERMANY+TURKEY"`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from itertools import chain, repeat
from typing import Any, NamedTuple, TypeVar

from judge.engine.adjudication import Adjudication, adjudicate
from judge.engine.board import Dislodged, Position, Unit, parse_unit, parse_units_by_power
from judge.engine.geography import GameMap, MapError
from judge.engine.phase import RETREATS, Phase
from judge.engine.rules import Rules
from judge.variants.maps import load_map
from judge.variants.outcome_text import encode, outcome_text
from judge.variants.problem_text import reason_text

MAX_NUMBER_DIGITS = 100  # a longer JSON number is an error (Python refuses 4,300 digits)
MAX_MAP_NAME = 100  # a longer map name is unknown (the file name would be too long)


T = TypeVar("T")  # what an outcome is written as: an object, or JSON text


class InputError(ValueError):
    """The input line does not describe a position."""


def position_from_json(data: dict[str, Any]) -> tuple[Position, dict[str, list[str]], Rules]:
    """Contract 1 input -> (position, orders per power, rules); InputError, naming the
    first thing wrong, for input that does not describe a position."""
    if not isinstance(data, dict):
        raise InputError("each line must be a JSON object")
    gm = _map_from_json(data.get("map", "standard"))
    try:
        phase = Phase.parse(str(data.get("phase", "")))
    except ValueError as e:
        raise InputError(str(e)) from None
    units = _units_from_json(gm, data.get("units", {}))
    centers = _centers_from_json(gm, data.get("centers", {}))
    dislodged = _retreats_from_json(gm, data.get("retreats", {}))
    if dislodged and phase.kind != RETREATS:
        raise InputError(f"retreats are given, but {phase} is not a retreat phase")
    orders = _power_map(gm, data.get("orders", {}), "orders")
    _lists_of_strings(orders, "orders")
    rules = _rules_from_json(data.get("rules"))
    position = Position(gm, phase, tuple(units), centers, tuple(dislodged))
    return position, orders, rules


def _map_from_json(name: Any) -> GameMap:
    if not isinstance(name, str):
        raise InputError("map must be a string, the name of a map")
    if len(name) > MAX_MAP_NAME:
        raise InputError(f"unknown map {name[:20]!r}... (a map name is at most {MAX_MAP_NAME})")
    try:
        return load_map(name)
    except MapError as e:
        raise InputError(str(e)) from None


def _units_from_json(gm: GameMap, value: Any) -> list[Unit]:
    """The units, at most one in a province."""
    powers = _power_map(gm, value, "units")
    units = []
    if not set(map(type, powers.values())) - {list}:  # lists, read a power's at a time
        try:  # parse_units_by_power refuses a text that is no unit, or no text
            units = parse_units_by_power(gm, powers)
        except ValueError:
            units = []
    if not units or len({u.province for u in units}) != len(units):
        units = _units_one_by_one(gm, powers)  # names the first thing wrong, if anything
    return units


def _units_one_by_one(gm: GameMap, powers: dict[str, Any]) -> list[Unit]:
    """The units read one by one: InputError naming the first thing wrong."""
    units = []
    seen: dict[str, str] = {}
    for power, texts in powers.items():
        for text in _strings(texts, "units", power):
            try:
                unit = parse_unit(gm, power, text)
            except ValueError as e:
                raise InputError(str(e)) from None
            if unit.province in seen:
                raise InputError(f"two units in {unit.province}: {seen[unit.province]} and {text}")
            seen[unit.province] = text
            units.append(unit)
    return units


def _centers_from_json(gm: GameMap, value: Any) -> dict[str, frozenset[str]]:
    """The supply centres each power owns, each owned by one power at most: the last
    line's read again (a fresh dict of them) when this line's `centers` equal its."""
    global _last_centers
    # A JSON value equal to one read without error (an object of lists of strings) is
    # alike in every way but its keys' order, compared apart: the same keys, lists of
    # the same strings in the same order (no string equals a non-string).
    kept = _last_centers  # read once: a whole entry, replaced whole
    if value == kept.value and gm is kept.gm and list(value) == kept.powers:
        return dict(kept.centers)
    centers = _read_centers(gm, value)
    # A copy of the lists: the caller's may change after (a tool's, a stored position).
    copied = {power: list(cs) for power, cs in value.items()}
    _last_centers = _LastCenters(gm, copied, list(value), centers)
    return dict(centers)


class _LastCenters(NamedTuple):
    """The `centers` of the last line read without error, and what they were read as:
    lines in a game's order give the same centres three times in four (they change hands
    after Fall), and reading them again was 2% of `judge adjudicate`'s work."""

    gm: GameMap | None
    value: Any
    powers: list[str]  # the keys of `value`, in order
    centers: dict[str, frozenset[str]]


_last_centers = _LastCenters(None, None, [], {})


def _read_centers(gm: GameMap, value: Any) -> dict[str, frozenset[str]]:
    """_centers_from_json's reading: InputError naming the first thing wrong."""
    powers = _power_map(gm, value, "centers")
    lists = powers.values()
    try:  # the usual input: lists of the map's keys, as they are (upper case)
        owned = set().union(*lists)
    except TypeError:  # something other than lists of strings
        return _centers_one_by_one(gm, powers)
    if (
        set(map(type, lists)) - {list}
        or sum(map(len, lists)) != len(owned)  # a centre owned twice
        or not owned <= gm.supply_centers  # not a centre, or in lower case
    ):
        return _centers_one_by_one(gm, powers)  # reads them, or says what is wrong
    return {power: frozenset(cs) for power, cs in powers.items()}


def _centers_one_by_one(gm: GameMap, powers: dict[str, Any]) -> dict[str, frozenset[str]]:
    """The centres checked one by one: InputError naming the first one wrong."""
    centers: dict[str, frozenset[str]] = {}
    owners: dict[str, str] = {}
    supply_centers = gm.supply_centers
    for power, cs in powers.items():
        keys = [c.upper() for c in _strings(cs, "centers", power)]
        for c in keys:
            if c not in supply_centers:
                raise InputError(f"{c} is not a supply centre")
            if c in owners:
                raise InputError(f"{c} is owned by both {owners[c]} and {power}")
            owners[c] = power
        centers[power] = frozenset(keys)
    return centers


def _retreats_from_json(gm: GameMap, value: Any) -> list[Dislodged]:
    """The dislodged units and the places each may retreat to."""
    if type(value) is dict and not value:  # none (most lines): nothing to look at
        return []
    dislodged = []
    for power, entries in _power_map(gm, value, "retreats").items():
        if not isinstance(entries, dict):
            raise InputError(f"retreats of {power} must map units to places")
        for text, places in entries.items():
            unit = _unit(gm, power, text)
            locs = tuple(sorted(p.upper() for p in _strings(places, "retreats", text)))
            for loc in locs:
                if gm.province_of(loc) not in gm.provinces:
                    raise InputError(f"unknown place {loc} in the retreats of {text}")
            dislodged.append(Dislodged(unit, locs))
    return dislodged


def _unit(gm: GameMap, power: str, text: str) -> Unit:
    try:
        return parse_unit(gm, power, text)
    except ValueError as e:
        raise InputError(str(e)) from None


def _rules_from_json(value: Any) -> Rules:
    if isinstance(value, dict):
        for key, choice in value.items():
            if isinstance(choice, list | dict):  # unhashable: no option's choice
                raise InputError(f"rule option {key} must be one choice, not a list or object")
    try:
        return Rules.from_json(value)
    except ValueError as e:
        raise InputError(str(e)) from None


def players_from_json(gm: GameMap, data: dict[str, Any]) -> tuple[tuple[str, ...], ...] | None:
    """The input's optional `players`: the powers each player plays (None: the map's)."""
    value = data.get("players")
    if value is None:
        return None
    if not isinstance(value, list):
        raise InputError("players must be a list of lists of powers")
    groups = []
    for group in value:
        keys = tuple(p.upper() for p in _strings(group, "each player's powers"))
        for key in keys:
            if key not in gm.powers:
                raise InputError(f"unknown power {key!r} in players")
        groups.append(keys)
    return tuple(groups)


def _power_map(gm: GameMap, value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{what} must be an object keyed by power")
    if value.keys() <= gm.powers.keys():  # the usual input: the map's own keys, as they are
        return value
    out = {}
    for power, v in value.items():
        key = str(power).upper()
        if key not in gm.powers:
            raise InputError(f"unknown power {power!r} in {what}")
        out[key] = v
    return out


def _lists_of_strings(powers: dict[str, Any], what: str) -> None:
    """InputError unless every power's value is a list of strings (checked for all at
    once; then power by power, to name the first that is not)."""
    values = powers.values()
    if set(map(type, values)) - {list} or set(map(type, chain.from_iterable(values))) - {str}:
        for power, value in powers.items():
            _strings(value, what, power)


def _strings(value: Any, what: str, whose: str | None = None) -> list[str]:
    """`value`, a list of strings; else InputError saying so of `what` (of `whose`)."""
    # map() rather than a generator: no Python frame per item, on every list of every line
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(str))):
        what = what if whose is None else f"{what} of {whose}"
        raise InputError(f"{what} must be a list of strings")
    return value


def position_to_json(position: Position) -> dict[str, Any]:
    """A Position -> the Contract 1 input shape (without orders); position_from_json reads it."""
    units: dict[str, list[str]] = {}
    for u in position.units:
        units.setdefault(u.power, []).append(u.text)
    retreats: dict[str, dict[str, list[str]]] = {}
    for d in position.dislodged:
        retreats.setdefault(d.unit.power, {})[str(d.unit)] = list(d.retreats)
    data: dict[str, Any] = {
        "map": position.game_map.name,
        "phase": str(position.phase),
        "units": {p: sorted(us) for p, us in sorted(units.items())},
        "centers": {p: sorted(cs) for p, cs in sorted(position.centers.items()) if cs},
    }
    if retreats:
        data["retreats"] = retreats
    return data


def outcome_to_json(position: Position, outcome: Adjudication) -> dict[str, Any]:
    """An Adjudication -> the Contract 1 output object."""
    results: dict[str, list[dict[str, str]]] = {}
    for power, given, order, result, error, _ in outcome.results:  # each OrderResult
        item = {"order": order, "given": given, "result": result}
        if error:
            item["error"] = reason_text(error)
        results.setdefault(power, []).append(item)
    after = position_to_json(outcome.position)
    return {
        "phase": str(position.phase),
        "next_phase": after["phase"],
        "results": results,
        "units": after["units"],
        "centers": after["centers"],
        "retreats": after.get("retreats", {}),
        "builds": dict(sorted(outcome.builds.items())),
        "winner": outcome.winner,
    }


def adjudicate_line(line: str | bytes) -> dict[str, Any]:
    """One input line -> one output object (an error object when the line is bad).
    Never raises: a fault of ours on one line is that line's error, told on stderr."""
    return _guarded(line, outcome_to_json)


def adjudicate_line_text(line: str | bytes) -> str:
    """One input line -> one output line: adjudicate_line's object as compact JSON
    text, an outcome written directly (outcome_text.py). Never raises."""
    out = _guarded(line, outcome_text)
    return out if isinstance(out, str) else encode(out)


def _guarded(line: str | bytes, write: Callable[[Position, Adjudication], T]) -> T | dict[str, Any]:
    """The line's outcome as `write` gives it, or an error object; never raises."""
    try:
        return _adjudicate_line(line, write)
    except RecursionError:
        return {"error": "the line is nested too deeply to read"}
    except Exception as e:
        import traceback  # here: only a fault of ours needs it (3 ms at each start)

        traceback.print_exc(file=sys.stderr)
        return {"error": f"internal error ({type(e).__name__}); the line was not adjudicated"}


def _adjudicate_line(
    line: str | bytes, write: Callable[[Position, Adjudication], T]
) -> T | dict[str, Any]:
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return {
                "error": f"the line is not UTF-8 (byte {line[e.start]:#04x} at position {e.start})"
            }
    if not line or line.isspace():  # as `not line.strip()`, without copying the line
        return {"error": "an empty line: expected a JSON object"}
    try:
        data = _decode(line)
    except json.JSONDecodeError as e:
        return {"error": f"not valid JSON: {e.msg} at column {e.colno}"}
    except InputError as e:
        return {"error": str(e)}
    try:
        position, orders, rules = position_from_json(data)
        players = players_from_json(position.game_map, data)
        outcome = adjudicate(position, orders, rules, players)
    except (InputError, ValueError) as e:
        return {"error": str(e)}
    return write(position, outcome)


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise InputError(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return int(text)


# Made once: json.loads with an argument makes a decoder, and its scanner, per line.
_decoder = json.JSONDecoder(parse_int=_integer)
# The decoder's C scanner: a JSON value from an index.
_scan: Callable[[str, int], tuple[Any, int]] = _decoder.scan_once  # type: ignore[attr-defined]  # set by JSONDecoder.__init__; not in typeshed's stub


def _decode(line: str) -> Any:
    """json's decode of `line`: the usual line (an object, then only its newline) read
    by the scanner alone, without decode's two calls and two matches of its whitespace
    pattern; anything else by decode itself, which says what is wrong just as before."""
    try:
        value, end = _scan(line, 0)
    except StopIteration:  # no value at the start (leading blanks, say): decode's
        return _decoder.decode(line)
    if end == len(line) or line[end:] in _JSON_LINE_ENDS:
        return value
    return _decoder.decode(line)


_JSON_LINE_ENDS = frozenset({"\n", "\r\n"})  # JSON's whitespace after the value, as read
