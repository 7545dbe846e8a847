"""What the judge's mails show, as plain values for the templates: orders (`OrderWords`:
what an order does, to which unit and place), result codes, retreat options, centre
ownership, adjustments due. templates/words.txt puts them in the words PBEM players know
(`Army Paris -> Burgundy.`, `(*bounce*)`); no mail text lives here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.engine.notation import MAX_ORDER_CHARS, NotationError, parse_order
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    UnitLike,
    Waive,
)
from judge.engine.phase import ADJUSTMENTS, RETREATS, Phase
from judge.game.dates import format_moment

# The characters kept, stored and echoed of an order line too long to be read (longer
# than engine/notation.MAX_ORDER_CHARS): a mail of 100 lines of 10,000 characters was
# stored whole and echoed whole in its answer.
ECHOED_CHARS = 60


def echoed(line: str) -> str:
    """An order line as the judge keeps and repeats it: as given, or, when too long to
    be read, its first ECHOED_CHARS characters and "..."."""
    given = line.strip()
    return given[:ECHOED_CHARS] + "..." if len(given) > MAX_ORDER_CHARS else line


@dataclass(frozen=True)
class PlaceWords:
    """A place as the mails name it (templates/words.txt `place`): the province's name
    and, for a fleet on one coast, the coast."""

    name: str  # the province's name on the map (its key when the map has none)
    coast: str = ""  # NC, SC, EC or WC; "" for none


@dataclass(frozen=True)
class UnitWords:
    """A unit as the mails name it (templates/words.txt `unit`, `unit_in`)."""

    kind: str  # "A" or "F"; "" when an order left it out
    place: PlaceWords


@dataclass(frozen=True)
class OrderWords:
    """An order as the mails say it in full (templates/words.txt `order`)."""

    verb: str  # hold, move, support, convoy, retreat, disband, remove, build, waive; "" unread
    unit: UnitWords | None = None  # the unit ordered (None for a waive or an unread text)
    dest: PlaceWords | None = None  # where it moves, retreats, or supports or convoys to
    other: UnitWords | None = None  # the unit supported or convoyed
    via_convoy: bool = False
    text: str = ""  # the order as written, when the judge could not read it


def place(gm: GameMap, location: str) -> PlaceWords:
    """`STP/NC` -> St Petersburg, north coast."""
    prov, _, coast = location.partition("/")
    return PlaceWords(gm.provinces[prov].name if prov in gm.provinces else prov, coast)


def unit_name(gm: GameMap, unit: UnitLike) -> UnitWords:
    return UnitWords(unit.kind or "", place(gm, unit.location))


def describe(gm: GameMap, order: Order) -> OrderWords:
    """An order in full words."""
    if isinstance(order, Waive):
        return OrderWords("waive")
    unit = unit_name(gm, order.unit)
    if isinstance(order, Hold):
        return OrderWords("hold", unit)
    if isinstance(order, Move):
        return OrderWords("move", unit, place(gm, order.dest), via_convoy=order.via_convoy)
    if isinstance(order, Support):
        dest = place(gm, order.dest) if order.dest is not None else None
        return OrderWords("support", unit, dest, unit_name(gm, order.supported))
    if isinstance(order, Convoy):
        return OrderWords("convoy", unit, place(gm, order.dest), unit_name(gm, order.army))
    if isinstance(order, Retreat):
        return OrderWords("retreat", unit, place(gm, order.dest))
    if isinstance(order, Disband):
        return OrderWords("disband", unit)
    if isinstance(order, Build):
        return OrderWords("build", unit)
    raise TypeError(order)


def describe_text(gm: GameMap, text: str, phase_kind: str | None = None) -> OrderWords:
    """A canonical order text in full words (the text itself if it cannot be read)."""
    try:
        order = parse_order(text, gm, phase_kind).order
    except NotationError:
        return OrderWords("", text=text)
    if phase_kind == ADJUSTMENTS and isinstance(order, Disband):
        return OrderWords("remove", unit_name(gm, order.unit))
    return describe(gm, order)


def format_deadline(deadline: str | None, zone: str) -> str:
    """A stored (UTC ISO) deadline as every mail shows times: in full, in the judge's zone."""
    if not deadline:
        return "none set"
    return format_moment(datetime.fromisoformat(deadline), ZoneInfo(zone))


def results_by_power(
    gm: GameMap, results: Mapping[str, list[dict[str, Any]]], phase: Phase
) -> list[dict[str, Any]]:
    """[{power, lines: [{order, result, given, judges, error}]}] in map order; a line's
    `judges` is set for a disband the judge ordered itself (templates/words.txt `tag`)."""
    out = []
    for power in gm.powers:
        lines = []
        for r in results.get(power, []):
            own = r["result"] == "disband" and not r["given"]
            lines.append(
                {
                    "order": describe_text(gm, r["order"], phase.kind),
                    "result": r["result"],
                    # No retreat ordered, or a removal by the civil-disorder rule.
                    "judges": ("civil_disorder" if phase.kind == ADJUSTMENTS else "no_retreat")
                    if own
                    else None,
                    "error": r.get("error") if r["result"] == "void" else None,
                    "given": r["given"],
                }
            )
        if lines:
            out.append({"power": gm.powers[power].name, "lines": lines})
    return out


def retreat_options(
    gm: GameMap, retreats: Mapping[str, Mapping[str, list[str]]]
) -> list[dict[str, Any]]:
    """[{power, adjective, unit, unit_short, places}] for dislodged units that may retreat."""
    out = []
    for power in gm.powers:
        for unit, places in retreats.get(power, {}).items():
            kind, loc = unit.split()
            out.append(
                {
                    "power": gm.powers[power].name,
                    "adjective": gm.powers[power].adjective,
                    "unit": UnitWords(kind, place(gm, loc)),
                    "unit_short": unit,
                    "places": [place(gm, p) for p in places],
                }
            )
    return out


def destroyed_units(
    gm: GameMap, dislodged: Sequence[dict[str, Any]], neutral: frozenset[str] = frozenset()
) -> list[dict[str, Any]]:
    """[{power, adjective, unit, neutral}]: dislodged units with nowhere to go, or of a
    neutral power, which never retreats."""
    out = []
    for d in dislodged:
        if d["retreats"] and d["power"] not in neutral:
            continue
        power = gm.powers[d["power"]]
        kind, loc = d["unit"].split()
        out.append(
            {
                "power": power.name,
                "adjective": power.adjective,
                "unit": UnitWords(kind, place(gm, loc)),
                "neutral": d["power"] in neutral,
            }
        )
    return out


def ownership(gm: GameMap, position: Position, builds: Mapping[str, int]) -> list[dict[str, Any]]:
    """[{power, centers, count, units, builds, free}] for every power with centres or
    units: `builds` is the adjustment due (+ builds, - removals), `free` the free home
    centres when builds are due (templates/words.txt `adjustment`)."""
    out = []
    for power in gm.powers:
        owned = sorted(position.centers.get(power, ()), key=lambda c: gm.provinces[c].name)
        units = len(position.units_of(power))
        if not owned and not units:
            continue
        n = builds.get(power, len(owned) - units if position.phase.kind == ADJUSTMENTS else 0)
        out.append(
            {
                "power": gm.powers[power].name,
                "centers": [gm.provinces[c].name for c in owned],
                "count": len(owned),
                "units": units,
                "builds": n,
                "free": len(free_home_centres(gm, position, power)) if n > 0 else 0,
            }
        )
    return out


def units_list(gm: GameMap, position: Position, power: str) -> list[UnitWords]:
    return [unit_name(gm, u) for u in position.units_of(power)]


def free_home_centres(gm: GameMap, position: Position, power: str) -> list[PlaceWords]:
    """The home centres `power` may build in now, by name."""
    owned = position.centers.get(power, frozenset())
    free = [place(gm, h) for h in gm.build_sites(power, owned) if position.unit_in(h) is None]
    # By name, then coast: the order of the names as written ("north" before "south").
    return sorted(free, key=lambda p: (p.name, p.coast))


def is_retreat(phase: Phase) -> bool:
    return phase.kind == RETREATS
