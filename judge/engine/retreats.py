"""Retreats: where a dislodged unit may go, and the retreat phase itself.

A dislodged unit may retreat to a place it could move to, except an occupied place,
the place its attacker came from (unless the attack came by convoy, DATC 4.A.5 b), and
a place left empty by a standoff. Two retreats to one place both fail; a unit with no
valid retreat order disbands.
"""

from __future__ import annotations

from .board import ARMY, FLEET, Position, Unit, placed_unit
from .coasts import CoastError, move_coast
from .geography import GameMap
from .legality import unit_ref
from .movement import MovementOutcome
from .orders import Disband, Retreat, order_text
from .place_names import name
from .problems import Problem
from .results import BOUNCE, DISBAND, OK, REPLACED, VOID, Entry, OrderResult
from .rules import Rules


def retreat_options(
    position: Position,
    province: str,
    attacker: str,
    outcome: MovementOutcome,
    units_after: list[Unit],
    rules: Rules,
) -> tuple[str, ...]:
    """The locations the unit dislodged from `province` by the unit from `attacker` may
    retreat to, sorted."""
    gm = position.game_map
    unit = position.occupied[province]
    occupied = {u.province for u in units_after}
    if unit.kind == ARMY:
        candidates = gm.army_moves[province]
    else:
        candidates = gm.fleet_moves[unit.location]
    by_convoy = province in outcome.dislodged_by_convoy
    closed = gm.closed_in(position.phase)  # a variant's provinces no unit may enter
    out = []
    for loc in candidates:
        prov = gm.province_of(loc)
        if prov in occupied or prov in outcome.contested or prov in closed:
            continue
        if prov == attacker and not (rules.retreat_to_convoying_attacker_origin and by_convoy):
            continue
        out.append(loc)
    return tuple(sorted(out))


def resolve_retreats(
    position: Position, entries: list[Entry], rules: Rules
) -> tuple[list[OrderResult], list[Unit]]:
    """Carry out the retreat orders: (results, units on the board afterwards)."""
    gm = position.game_map
    dislodged = {d.unit.province: d for d in position.dislodged}
    chosen: dict[str, tuple[Entry, str | None]] = {}  # province -> (entry, dest or None)
    for e in entries:
        order = e.parsed
        if order is None:
            continue
        if not isinstance(order, Retreat | Disband):
            e.error = Problem("not_a_retreat_order")
            continue
        d = dislodged.get(order.unit.province)
        if d is None or d.unit.power != e.power:
            e.error = Problem("no_dislodged_unit", {"place": name(gm, order.unit.province)})
            continue
        if isinstance(order, Disband):
            dest = None
        else:
            dest = _retreat_location(gm, d.unit, order.dest, d.retreats, e, rules)
            if dest is None:
                continue
        if order.unit.province in chosen:
            earlier = chosen[order.unit.province][0]
            earlier.error = REPLACED
            earlier.legal = None
        e.legal = Retreat(unit_ref(d.unit), dest) if dest else Disband(unit_ref(d.unit))
        chosen[order.unit.province] = (e, dest)

    targets: dict[str, int] = {}
    for _, dest in chosen.values():
        if dest:
            targets[gm.province_of(dest)] = targets.get(gm.province_of(dest), 0) + 1
    units = list(position.units)
    results: list[OrderResult] = []
    for e in entries:
        if e.legal is None:
            results.append(e.result(VOID))
            continue
        retreat = e.legal if isinstance(e.legal, Retreat) else None
        dest = retreat.dest if retreat is not None else None
        if dest and targets[gm.province_of(dest)] > 1:
            results.append(e.result(BOUNCE, Problem("retreats_clash")))
        else:
            if retreat is not None and dest:
                u = dislodged[retreat.unit.province].unit
                units.append(placed_unit(u.power, u.kind, dest))
            results.append(e.result(OK))
    for prov, d in sorted(dislodged.items()):
        if prov not in chosen:
            results.append(
                OrderResult(d.unit.power, "", order_text(Disband(unit_ref(d.unit))), DISBAND)
            )
    return results, units


def _retreat_location(
    gm: GameMap, unit: Unit, written: str, allowed: tuple[str, ...], e: Entry, rules: Rules
) -> str | None:
    """The allowed location a retreat order names, or None with e.error set."""
    prov, _, coast = written.partition("/")
    here = [loc for loc in allowed if gm.province_of(loc) == prov]
    if not here:
        places = tuple(name(gm, a) for a in allowed)  # none: it must disband
        e.error = Problem(
            "retreat_not_allowed", {"unit": str(unit), "place": name(gm, prov), "places": places}
        )
        return None
    coasts = gm.provinces[prov].coasts
    if unit.kind != FLEET or not coasts:
        return here[0]  # one place to go there; a coast written means nothing (4.B.6 b)
    try:  # a coast missing or out of reach, settled as for moves (DATC 4.B.1-4.B.3)
        return move_coast(gm, unit.location, prov, coast if coast in coasts else "", here, rules)
    except CoastError as why:
        if coast in coasts:
            e.error = Problem("retreat_coast", {"unit": str(unit), "place": name(gm, written)})
        else:
            e.error = why.problem  # a coast missing or out of reach: coasts.py's reason
        return None
