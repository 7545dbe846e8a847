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

from collections import Counter
from dataclasses import dataclass, field

from .board import ARMY, FLEET, Position, Unit
from .civil_disorder import removal_order
from .coasts import CoastError, build_coast
from .legality import unit_ref
from .orders import Build, Disband, Order, UnitLike, Waive, order_text
from .place_names import name
from .problems import Problem, ProblemError
from .results import DISBAND, OK, VOID, Entry, OrderResult
from .rules import Rules


def resolve_adjustments(
    position: Position, entries: list[Entry], rules: Rules
) -> tuple[list[OrderResult], list[Unit]]:
    """Carry out the adjustment orders: (results, units on the board afterwards)."""
    gm = position.game_map
    count = Counter([u.power for u in position.units])  # counted once, not once per power
    due = {p: len(position.centers.get(p, ())) - count[p] for p in gm.powers}  # adjustment()
    tally = _Tally(due, dict.fromkeys(gm.powers, 0))
    for e in entries:
        if e.parsed is None:
            continue
        try:
            e.legal = _adjust(position, e.power, e.parsed, tally, rules)
        except _No as why:
            e.error = why.problem
    results = [e.result(OK if e.legal is not None else VOID) for e in entries]
    results += _civil_disorder_removals(position, tally, rules)
    units = [u for u in position.units if u.province not in tally.removed] + tally.built
    return results, units


@dataclass(slots=True, repr=False, eq=False)  # never shown or compared: less code made at start
class _Tally:
    """What the phase's orders have done so far (filled in order by order)."""

    due: dict[str, int]  # power -> builds (+n) or removals (-n) due
    used: dict[str, int]  # power -> builds, waives or removals ordered so far
    built: list[Unit] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)  # provinces built in this phase
    removed: set[str] = field(default_factory=set)


def _adjust(position: Position, power: str, order: Order, tally: _Tally, rules: Rules) -> Order:
    """The order as carried out (its unit bound), recorded in `tally`; or _No, why not."""
    n = tally.due.get(power, 0)
    if isinstance(order, Build | Waive):
        if n <= 0:
            raise _No(Problem("no_builds"))
        if tally.used[power] >= n:
            raise _No(Problem("too_many_builds", {"count": str(n)}))
        legal: Order = order
        if isinstance(order, Build):
            unit = _build(position, power, order.unit, tally.taken, rules)
            tally.built.append(unit)
            tally.taken.add(unit.province)
            legal = Build(unit_ref(unit))
        elif not rules.waiving_builds:
            raise _No(Problem("waiving_not_allowed"))  # DATC 4.D.7 b
        tally.used[power] += 1
        return legal
    if isinstance(order, Disband):
        return _remove(position, power, order, n, tally)
    raise _No(Problem("not_an_adjustment_order"))


def _remove(position: Position, power: str, order: Disband, n: int, tally: _Tally) -> Order:
    """A removal the power owes (`n` < 0), or _No."""
    if n >= 0:
        raise _No(Problem("no_removals"))
    unit = position.unit_in(order.unit.province)
    if unit is None or unit.power != power:
        raise _No(Problem("no_own_unit", {"place": name(position.game_map, order.unit.province)}))
    if unit.province in tally.removed:
        raise _No(Problem("already_removed"))
    if tally.used[power] >= -n:
        raise _No(Problem("too_many_removals", {"count": str(-n)}))
    tally.removed.add(unit.province)
    tally.used[power] += 1
    return Disband(unit_ref(unit))


def _civil_disorder_removals(position: Position, tally: _Tally, rules: Rules) -> list[OrderResult]:
    """The removals owed and not ordered, made by the civil-disorder rule (DATC 4.D.8)."""
    results = []
    for power, n in tally.due.items():
        missing = -n - tally.used[power] if n < 0 else 0
        if missing > 0:
            removed = tally.removed
            left = [u for u in position.units_of(power) if u.province not in removed]
            owned = position.centers.get(power, frozenset())
            distance = rules.civil_disorder_removal_distance  # DATC 4.D.8
            doomed = removal_order(position.game_map, power, left, owned, distance, position.units)
            for unit in doomed[:missing]:
                removed.add(unit.province)
                results.append(OrderResult(power, "", order_text(Disband(unit_ref(unit))), DISBAND))
    return results


class _No(ProblemError):
    """An adjustment order refused; `problem` says why."""


def _build(position: Position, power: str, ref: UnitLike, taken: set[str], rules: Rules) -> Unit:
    gm = position.game_map
    prov, _, coast = ref.location.partition("/")
    province = gm.provinces[prov]
    if prov not in gm.powers[power].home_centers and not gm.build_anywhere:
        raise _No(Problem("not_a_home_centre", {"place": province.name}))
    if prov not in position.centers.get(power, ()):
        raise _No(Problem("centre_not_controlled", {"place": province.name}))
    if position.unit_in(prov) is not None or prov in taken:
        raise _No(Problem("build_site_occupied", {"place": province.name}))
    kind = ref.kind
    if kind is None:
        if province.kind == "land":
            kind = ARMY
        elif coast:
            kind = FLEET
        else:
            raise _No(Problem("build_kind_needed", {"place": province.name}))
    if kind == ARMY:
        return Unit(power, ARMY, prov)
    if province.kind != "coast":
        raise _No(Problem("fleet_built_inland", {"place": province.name}))
    if province.coasts:
        try:  # a missing coast fails, or is the map's default coast (DATC 4.B.7)
            coast = build_coast(gm, province, coast, rules)
        except CoastError as why:
            raise _No(why.problem) from None
        return Unit(power, FLEET, f"{prov}/{coast}")
    return Unit(power, FLEET, prov)
