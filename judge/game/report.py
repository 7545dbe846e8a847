"""What the judge's mails show, in the words PBEM players know: orders in full
(`Army Paris -> Burgundy.`), outcome tags (`(*bounce*)`), retreat options, centre
ownership, adjustments. Plain data for the templates; no mail text lives here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.engine.notation import NotationError, parse_order
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

_KIND = {"A": "Army", "F": "Fleet"}
_TAG = {
    "ok": "",
    "bounce": "(*bounce*)",
    "cut": "(*cut*)",
    "dislodged": "(*dislodged*)",
    "void": "(*void*)",
    "no convoy": "(*no convoy*)",
    "disrupted": "(*disrupted*)",
    "disband": "(*disband*)",
}
_SEASON = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KIND_TITLE = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}


def place(gm: GameMap, location: str) -> str:
    """`STP/NC` -> `St Petersburg (north coast)`."""
    prov, _, coast = location.partition("/")
    coasts = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
    name = gm.provinces[prov].name if prov in gm.provinces else prov
    return f"{name} ({coasts.get(coast, coast)})" if coast else name


def unit_name(gm: GameMap, unit: UnitLike) -> str:
    return f"{_KIND.get(unit.kind or '', 'Unit')} {place(gm, unit.location)}"


def describe(gm: GameMap, order: Order) -> str:
    """An order in full words."""
    if isinstance(order, Hold):
        return f"{unit_name(gm, order.unit)} HOLD"
    if isinstance(order, Move):
        via = " via convoy" if order.via_convoy else ""
        return f"{unit_name(gm, order.unit)} -> {place(gm, order.dest)}{via}"
    if isinstance(order, Support):
        target = unit_name(gm, order.supported)
        if order.dest is None:
            return f"{unit_name(gm, order.unit)} SUPPORT {target}"
        return f"{unit_name(gm, order.unit)} SUPPORT {target} -> {place(gm, order.dest)}"
    if isinstance(order, Convoy):
        return (
            f"{unit_name(gm, order.unit)} CONVOY {unit_name(gm, order.army)}"
            f" -> {place(gm, order.dest)}"
        )
    if isinstance(order, Retreat):
        return f"{unit_name(gm, order.unit)} -> {place(gm, order.dest)}"
    if isinstance(order, Disband):
        return f"{unit_name(gm, order.unit)} DISBAND"
    if isinstance(order, Build):
        return f"Build {unit_name(gm, order.unit)}"
    if isinstance(order, Waive):
        return "Waive a build"
    raise TypeError(order)


def describe_text(gm: GameMap, text: str, phase_kind: str | None = None) -> str:
    """A canonical order text in full words (the text itself if it cannot be read)."""
    try:
        order = parse_order(text, gm, phase_kind).order
    except NotationError:
        return text
    if phase_kind == ADJUSTMENTS and isinstance(order, Disband):
        return f"Remove {unit_name(gm, order.unit)}"
    return describe(gm, order)


def phase_title(phase: Phase) -> str:
    """`Movement results for Spring of 1901` style: `Spring of 1901` plus the kind."""
    return f"{_SEASON[phase.season]} of {phase.year}"


def phase_kind_title(phase: Phase) -> str:
    return _KIND_TITLE[phase.kind]


def format_deadline(deadline: str | None, zone: str) -> str:
    """A stored (UTC ISO) deadline as every mail shows times: in full, in the judge's zone."""
    if not deadline:
        return "none set"
    return format_moment(datetime.fromisoformat(deadline), ZoneInfo(zone))


def listing(names: Sequence[str], last: str = "and") -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def results_by_power(gm: GameMap, results: Mapping[str, list[dict]], phase: Phase) -> list[dict]:
    """[{power, adjective, lines: [{text, tag, error}]}] in map order."""
    out = []
    for power in gm.powers:
        lines = []
        for r in results.get(power, []):
            tag = _TAG.get(r["result"], f"(*{r['result']}*)")
            if r["result"] == "disband" and not r["given"]:
                # The judge's own order: no retreat ordered, or a civil-disorder removal.
                tag = (
                    "(*civil disorder*)" if phase.kind == ADJUSTMENTS else "(*no retreat ordered*)"
                )
            lines.append(
                {
                    "text": describe_text(gm, r["order"], phase.kind),
                    "tag": tag,
                    "error": r.get("error") if r["result"] == "void" else None,
                    "given": r["given"],
                }
            )
        if lines:
            out.append({"power": gm.powers[power].name, "lines": lines})
    return out


def retreat_options(gm: GameMap, retreats: Mapping[str, Mapping[str, list[str]]]) -> list[dict]:
    """[{power, adjective, unit, places}] for dislodged units that may retreat."""
    out = []
    for power in gm.powers:
        for unit, places in retreats.get(power, {}).items():
            kind, loc = unit.split()
            out.append(
                {
                    "power": gm.powers[power].name,
                    "adjective": gm.powers[power].adjective,
                    "unit": f"{_KIND[kind]} in {place(gm, loc)}",
                    "unit_short": unit,
                    "places": listing([place(gm, p) for p in places], "or"),
                }
            )
    return out


def destroyed_units(
    gm: GameMap, dislodged: Sequence[dict], neutral: frozenset[str] = frozenset()
) -> list[str]:
    """Dislodged units with nowhere to go (or of a neutral power, which never
    retreats), in words."""
    out = []
    for d in dislodged:
        if d["retreats"] and d["power"] not in neutral:
            continue
        power = gm.powers[d["power"]]
        unit = f"The {power.adjective} {_KIND[d['unit'].split()[0]]} in "
        unit += place(gm, d["unit"].split()[1])
        if d["power"] in neutral:
            out.append(f"{unit} was disbanded: {power.name} is neutral.")
        else:
            out.append(f"{unit} had nowhere to retreat and was destroyed.")
    return out


def ownership(gm: GameMap, position: Position, builds: Mapping[str, int]) -> list[dict]:
    """[{power, centers, count, units, adjustment}] for every power with centres or units."""
    out = []
    for power in gm.powers:
        owned = sorted(position.centers.get(power, ()), key=lambda c: gm.provinces[c].name)
        units = len(position.units_of(power))
        if not owned and not units:
            continue
        n = builds.get(power, len(owned) - units if position.phase.kind == ADJUSTMENTS else 0)
        free = len(free_home_centres(gm, position, power)) if n > 0 else 0
        if n > 0 and free == 0:
            adjustment = f"builds 0 of {n} (no home centre free)"
        elif 0 < free < n:
            adjustment = f"builds {free} of {n} ({free} home centre{'s' if free != 1 else ''} free)"
        elif n > 0:
            adjustment = f"builds {n} unit{'s' if n != 1 else ''}"
        elif n < 0:
            adjustment = f"removes {-n} unit{'s' if n != -1 else ''}"
        else:
            adjustment = "no change"
        out.append(
            {
                "power": gm.powers[power].name,
                "centers": listing([gm.provinces[c].name for c in owned]),
                "count": len(owned),
                "units": units,
                "adjustment": adjustment,
            }
        )
    return out


def units_list(gm: GameMap, position: Position, power: str) -> list[str]:
    return [unit_name(gm, u) for u in position.units_of(power)]


def free_home_centres(gm: GameMap, position: Position, power: str) -> list[str]:
    owned = position.centers.get(power, frozenset())
    return sorted(place(gm, h) for h in gm.build_sites(power, owned) if position.unit_in(h) is None)


def is_retreat(phase: Phase) -> bool:
    return phase.kind == RETREATS
