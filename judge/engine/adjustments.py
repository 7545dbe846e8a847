"""Adjustments: builds, removals and waives after Fall.

Builds only in vacant home centres the power owns (any owned centre on a map that
builds anywhere, DATC 11), at most as many as it has centres
more than units; the first legal ones count (DATC 4.D.4 b, 4.D.5 b). A build names a
fleet or army; with the type left out, an inland centre gets an army and a coastal one
needs a coast written to get a fleet (4.C.3 c); a fleet in St Petersburg needs its coast
(4.B.7 a), or takes the map's default coast where the game chose so (4.B.7 b). Waiving a
build is allowed unless the game chose otherwise (4.D.7); a build neither ordered nor
waived is simply not made. Removals the player leaves out are made by the
civil-disorder rule (4.D.8).
"""

from __future__ import annotations

from .board import ARMY, FLEET, Position, Unit
from .civil_disorder import removal_order
from .coasts import CoastError, build_coast
from .legality import unit_ref
from .orders import Build, Disband, UnitRef, Waive, order_text
from .place_names import name
from .results import DISBAND, OK, VOID, Entry, OrderResult
from .rules import Rules


def resolve_adjustments(
    position: Position, entries: list[Entry], rules: Rules
) -> tuple[list[OrderResult], list[Unit]]:
    """Carry out the adjustment orders: (results, units on the board afterwards)."""
    gm = position.game_map
    due = {p: position.adjustment(p) for p in gm.powers}
    used = dict.fromkeys(gm.powers, 0)
    built: list[Unit] = []
    taken: set[str] = set()  # provinces built in this phase
    removed: set[str] = set()
    for e in entries:
        order = e.parsed
        if order is None:
            continue
        n = due.get(e.power, 0)
        try:
            if isinstance(order, Build | Waive):
                if n <= 0:
                    raise _No("You have no builds to make this year.")
                if used[e.power] >= n:
                    raise _No(f"You may build only {n}; this order is one too many.")
                if isinstance(order, Build):
                    unit = _build(position, e.power, order.unit, taken, rules)
                    built.append(unit)
                    taken.add(unit.province)
                    e.legal = Build(unit_ref(unit))
                else:
                    if not rules.waiving_builds:
                        raise _No("Builds cannot be waived in this game.")  # DATC 4.D.7 b
                    e.legal = order
                used[e.power] += 1
            elif isinstance(order, Disband):
                if n >= 0:
                    raise _No("You have no units to remove this year.")
                unit = position.unit_in(order.unit.province)
                if unit is None or unit.power != e.power:
                    raise _No(f"You have no unit in {name(gm, order.unit.province)}.")
                if unit.province in removed:
                    raise _No("This unit is already removed.")
                if used[e.power] >= -n:
                    raise _No(f"You must remove only {-n}; this order is one too many.")
                removed.add(unit.province)
                used[e.power] += 1
                e.legal = Disband(unit_ref(unit))
            else:
                raise _No("In the adjustment phase, write Build, Remove or Waive.")
        except _No as why:
            e.error = str(why)

    results = [e.result(OK if e.legal is not None else VOID) for e in entries]
    for power, n in due.items():
        missing = -n - used[power] if n < 0 else 0
        if missing > 0:
            left = [u for u in position.units_of(power) if u.province not in removed]
            owned = position.centers.get(power, frozenset())
            distance = rules.civil_disorder_removal_distance  # DATC 4.D.8
            doomed = removal_order(gm, power, left, owned, distance, position.units)
            for unit in doomed[:missing]:
                removed.add(unit.province)
                results.append(OrderResult(power, "", order_text(Disband(unit_ref(unit))), DISBAND))
    units = [u for u in position.units if u.province not in removed] + built
    return results, units


class _No(Exception):
    pass


def _build(position: Position, power: str, ref: UnitRef, taken: set[str], rules: Rules) -> Unit:
    gm = position.game_map
    prov, _, coast = ref.location.partition("/")
    province = gm.provinces[prov]
    if prov not in gm.powers[power].home_centers and not gm.build_anywhere:
        raise _No(f"{province.name} is not one of your home supply centres.")
    if prov not in position.centers.get(power, ()):
        raise _No(f"You do not control {province.name} now.")
    if position.unit_in(prov) is not None or prov in taken:
        raise _No(f"{province.name} is occupied.")
    kind = ref.kind
    if kind is None:
        if province.kind == "land":
            kind = ARMY
        elif coast:
            kind = FLEET
        else:
            raise _No(f"Say whether to build an army or a fleet in {province.name}.")
    if kind == ARMY:
        return Unit(power, ARMY, prov)
    if province.kind != "coast":
        raise _No(f"A fleet cannot be built inland in {province.name}.")
    if province.coasts:
        try:  # a missing coast fails, or is the map's default coast (DATC 4.B.7)
            coast = build_coast(gm, province, coast, rules)
        except CoastError as why:
            raise _No(str(why)) from None
        return Unit(power, FLEET, f"{prov}/{coast}")
    return Unit(power, FLEET, prov)
