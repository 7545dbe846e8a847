"""One phase from orders to outcome: read, check, resolve, and the next position.

`adjudicate(position, orders)` takes each power's orders as text (or order objects) and
returns every order's result and the position at the start of the next phase in which
somebody has something to order: a retreat or adjustment phase with nothing to do is
skipped, with supply centres changing hands after Fall as usual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .adjustments import resolve_adjustments
from .board import Dislodged, Position, Unit
from .legality import IllegalOrder, MovementLegality
from .movement import MovementOutcome, resolve_movement
from .notation import NotationError, parse_order
from .orders import Convoy, Hold, Move, Order, Support, order_text
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from .results import (
    BOUNCE,
    CUT,
    DISLODGED,
    DISRUPTED,
    NO_CONVOY,
    OK,
    VOID,
    Entry,
    OrderResult,
)
from .retreats import resolve_retreats, retreat_options
from .rules import DEFAULT_RULES, Rules


@dataclass(frozen=True)
class Adjudication:
    phase: Phase
    results: tuple[OrderResult, ...]
    dislodged: tuple[Dislodged, ...]  # every unit dislodged this phase, with its retreats
    position: Position  # the position at the start of the next phase
    builds: Mapping[str, int]  # when the next phase is adjustments: +n builds, -n removals
    winner: str | None


def adjudicate(
    position: Position,
    orders: Mapping[str, Sequence[str | Order]],
    rules: Rules = DEFAULT_RULES,
) -> Adjudication:
    """Adjudicate one phase. Unknown powers raise ValueError; bad orders never do."""
    gm = position.game_map
    for power in orders:
        if power not in gm.powers:
            raise ValueError(f"unknown power {power!r}")
    entries = [_read(power, line, position) for power, lines in orders.items() for line in lines]
    kind = position.phase.kind
    if kind == MOVEMENT:
        return _movement(position, entries, rules)
    if kind == RETREATS:
        outcome = resolve_retreats(position, entries, rules)
    else:
        outcome = resolve_adjustments(position, entries, rules)
    results, units = outcome
    return _advance(position, tuple(results), units, (), rules)


def _read(power: str, line: str | Order, position: Position) -> Entry:
    if not isinstance(line, str):
        return Entry(power, order_text(line), parsed=line)
    entry = Entry(power, line)
    try:
        parsed = parse_order(line, position.game_map, position.phase.kind)
    except NotationError as e:
        entry.error = str(e)
        return entry
    entry.parsed, entry.notes = parsed.order, parsed.notes
    return entry


# -- movement ---------------------------------------------------------------------------


def _movement(position: Position, entries: list[Entry], rules: Rules) -> Adjudication:
    legality = MovementLegality(position)
    effective: dict[str, Entry] = {}  # province -> the entry that orders its unit
    for e in entries:
        if e.parsed is None:
            continue
        try:
            e.legal = legality.check(e.parsed, e.power)
        except IllegalOrder as err:
            e.error = str(err)
            continue
        prov = e.legal.unit.province  # type: ignore[union-attr]
        earlier = effective.get(prov)
        if earlier is not None:  # two orders for one unit: the last legal one counts
            earlier.error = "A later order for the same unit replaces this one."
            earlier.legal = None
        effective[prov] = e
    legal: dict[str, Order] = {}
    for unit in position.units:
        e = effective.get(unit.province)
        legal[unit.province] = e.legal if e else Hold(unit)  # type: ignore[assignment]
    outcome = resolve_movement(position, legal)

    occupied = position.occupied
    results = []
    named: set[tuple[str, str]] = set()
    for e in entries:
        ref = getattr(e.parsed, "unit", None)
        prov = ref.location.partition("/")[0] if ref is not None else None
        if prov is not None:
            named.add((e.power, prov))
        results.append(_movement_result(e, prov, occupied, outcome))
    moved, dislodged_from = outcome.moved, outcome.dislodged
    units: list[Unit] = []
    for unit in position.units:
        p = unit.province
        # A unit no order line named holds; one named only illegally is reported there.
        if p not in effective and (unit.power, p) not in named:
            code = DISLODGED if p in dislodged_from else OK
            results.append(OrderResult(unit.power, "", f"{unit.kind} {unit.location} H", code))
        if p in dislodged_from:
            continue
        if p in moved:
            units.append(Unit(unit.power, unit.kind, legal[p].dest))  # type: ignore[union-attr]
        else:
            units.append(unit)
    dislodged = tuple(
        Dislodged(
            position.occupied[p],
            retreat_options(position, p, attacker, outcome, units, rules),
        )
        for p, attacker in sorted(outcome.dislodged.items())
    )
    return _advance(position, tuple(results), units, dislodged, rules)


_new = tuple.__new__  # a NamedTuple without its Python-level __new__ (see notation.py)


def _movement_result(
    e: Entry, prov: str | None, occupied: Mapping[str, Unit], outcome: MovementOutcome
) -> OrderResult:
    """The result code of one order line (`prov`: the province of the unit it names)."""
    order = e.legal
    shown = order or e.parsed
    text = order_text(shown) if shown is not None else e.given
    unit = occupied.get(prov) if prov else None
    if unit is not None and unit.power == e.power and prov in outcome.dislodged:
        return _new(OrderResult, (e.power, e.given, text, DISLODGED, e.error, e.notes))
    if order is None:
        return _new(OrderResult, (e.power, e.given, text, VOID, e.error, e.notes))
    kind = type(order)
    if kind is Move:
        if prov in outcome.moved:
            code = OK
        elif prov in outcome.no_route:
            code = NO_CONVOY
        elif prov in outcome.disrupted:
            code = DISRUPTED
        else:
            code = BOUNCE
    elif kind is Support:
        code = VOID if prov in outcome.void else CUT if prov in outcome.cut else OK
    elif kind is Convoy:
        code = VOID if prov in outcome.void else OK
    else:
        code = OK
    error = _unmatched_reason(order) if code == VOID else e.error
    return _new(OrderResult, (e.power, e.given, text, code, error, e.notes))


def _unmatched_reason(order: Order) -> str:
    if isinstance(order, Support):
        if order.dest is None:
            return f"{order.supported} moved, so the support to hold did not match."
        return f"{order.supported} was not ordered to {order.dest}; the support did not match."
    if isinstance(order, Convoy):
        return f"{order.army} was not ordered to {order.dest} by a route through this fleet."
    return "The order did not match."


# -- after the phase: the next phase with something to order ----------------------------


def _advance(
    position: Position,
    results: tuple[OrderResult, ...],
    units: list[Unit],
    dislodged: tuple[Dislodged, ...],
    rules: Rules,
) -> Adjudication:
    gm = position.game_map
    phase = position.phase
    centers = dict(position.centers)
    winner = None
    retreating = tuple(d for d in dislodged if d.retreats)
    nxt = phase.following()
    if phase.kind == MOVEMENT and retreating:
        new = Position(gm, nxt, tuple(units), centers, retreating)
        return Adjudication(phase, results, dislodged, new, {}, None)
    if phase.kind == MOVEMENT:
        nxt = nxt.following()  # no retreats to make
    if phase.season == "F" and phase.kind in (MOVEMENT, RETREATS):
        centers = _capture(position, units)
        winner = _winner(position, centers)
    builds: dict[str, int] = {}
    new = Position(gm, nxt, tuple(units), centers)
    if nxt.kind == ADJUSTMENTS:
        count = Counter(u.power for u in units)
        builds = {p: n for p in gm.powers if (n := len(centers.get(p, ())) - count[p])}
        if not any(_has_adjustment(new, p, n) for p, n in builds.items()):
            new = Position(gm, nxt.following(), tuple(units), centers)
            builds = {}
    return Adjudication(phase, results, dislodged, new, builds, winner)


def _has_adjustment(position: Position, power: str, n: int) -> bool:
    if n < 0:
        return True
    gm = position.game_map
    owned = position.centers.get(power, frozenset())
    return any(h in owned and position.unit_in(h) is None for h in gm.powers[power].home_centers)


def _capture(position: Position, units: list[Unit]) -> dict[str, frozenset[str]]:
    """Supply centres change hands at the end of Fall, to the unit standing in them."""
    gm = position.game_map
    owner = {c: p for p, cs in position.centers.items() for c in cs}
    for u in units:
        if u.province in gm.supply_centers:
            owner[u.province] = u.power
    centers: dict[str, set[str]] = {p: set() for p in gm.powers}
    for c, p in owner.items():
        centers.setdefault(p, set()).add(c)
    return {p: frozenset(cs) for p, cs in centers.items()}


def _winner(position: Position, centers: Mapping[str, frozenset[str]]) -> str | None:
    need = position.game_map.victory_centers
    leaders = [p for p, cs in centers.items() if len(cs) >= need]
    return leaders[0] if len(leaders) == 1 else None
