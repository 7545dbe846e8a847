"""Binding a movement phase's orders under the order-set rule options of DATC section 4.

With the DATC's preferences every order line is bound to the board on its own
(legality.py): an order that cannot be valid in this position is illegal, thrown away,
and its unit holds; a unit nobody ordered holds; a power orders only its own units; and
any holding unit may be supported to hold. A game may choose otherwise:

- 4.E.1 a-c: more orders are *legal* (invalid_orders.py). A legal order that cannot be
  valid is not thrown away: it stays the unit's order (it replaces earlier ones, DATC
  4.D.3) and is void, and an impossible move still counts as a move, so the unit cannot
  be supported to hold.
- 4.E.3 a: a unit of a power that ordered it nothing moves as that power's own support
  or convoy order for it says (an implicit order).
- 4.E.5 b: a power may order another power's unit in its own orders; the order is used
  when the unit's own power gave it no legal order.
- 4.D.9 a: a support to hold a unit of a power in civil disorder (it sent no orders at
  all this phase) fails.

The resolver (movement.py) is not changed by any of this: it is given, for each unit,
the order that has the effect the option asks for (a hold for an impossible move, with
the hold supports to it taken away).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .board import Position, Unit
from .invalid_orders import STRICT, Kept, KeptOrder, keep_invalid, loose_kept, read_loosely
from .legality import IllegalOrder, MovementLegality, own_unit
from .orders import (
    Convoy,
    Hold,
    Move,
    MovementOrder,
    Order,
    Support,
    UnitRef,
    order_text,
    ordered_unit,
)
from .problems import Problem, Reason
from .results import DISLODGED, REPLACED, VOID, Entry, OrderResult
from .rules import Rules, binds_order_sets


def applies(rules: Rules) -> bool:
    """Whether the game chose otherwise than the DATC on any option bound here."""
    return binds_order_sets(rules)


class Report(NamedTuple):
    """How to report the order a unit follows, where the resolver's result is not all."""

    error: Reason
    void: bool = True  # the result is void (dislodged still shows); False: as resolved
    text: str | None = None  # the order as shown, when the judge read only its unit


@dataclass
class Binding:
    effective: dict[str, Entry]  # province -> the entry whose order its unit follows
    resolver: dict[str, Order] = field(default_factory=dict)  # province -> order to resolve
    reports: dict[str, Report] = field(default_factory=dict)  # province -> how to report
    implicit: list[Entry] = field(default_factory=list)  # engine-made entries (4.E.3 a)


def bind(
    position: Position,
    entries: list[Entry],
    legality: MovementLegality,
    rules: Rules,
    whole_phase: bool = True,
) -> Binding:
    """Bind every entry; the last legal order for a unit counts (DATC 4.D.3). With
    `whole_phase` False (one power's orders checked on arrival) only what that power's
    own lines settle is done: no implicit orders, no civil disorder, and a replaced
    order keeps its bound form."""
    binder = _Binder(position, legality, rules, whole_phase)
    for e in entries:
        binder.add(e)
    binder.settle_proxies()
    binding = Binding(binder.effective)
    if whole_phase and rules.implicit_orders:
        implicit = _implicit_moves(position, legality, binder.effective, binder.kept)
        binding.implicit = list(implicit.values())
        binding.effective.update(implicit)
    no_hold = _kept_forms(binding, binder.kept)
    if whole_phase and not rules.hold_support_for_civil_disorder:
        no_hold.update(_in_civil_disorder(position, entries, binding.effective))
    _fail_hold_supports(binding, no_hold)
    return binding


def check_for_reply(
    position: Position, entries: list[Entry], legality: MovementLegality, rules: Rules
) -> None:
    """One power's orders as the reply to them shows them: an order that is legal
    under the game's choices but cannot succeed is accepted, with a note saying why."""
    binding = bind(position, entries, legality, rules, whole_phase=False)
    for prov, e in binding.effective.items():
        report = binding.reports.get(prov)
        if report is not None:
            e.notes = (*e.notes, report.error)


def report(result: OrderResult, how: Report) -> OrderResult:
    """The result of an order the binding reports itself."""
    code = VOID if how.void and result.result != DISLODGED else result.result
    return result._replace(result=code, error=how.error, order=how.text or result.order)


# -- binding the entries ------------------------------------------------------------------


class _Binder:
    def __init__(
        self, position: Position, legality: MovementLegality, rules: Rules, whole_phase: bool
    ) -> None:
        self.position = position
        self.legality = legality
        self.level = rules.illegal_orders
        self.proxy = rules.proxy_orders == "in_order_set"
        self.whole_phase = whole_phase
        self.neutral = position.game_map.neutral_in(position.phase)  # nobody orders them
        self.effective: dict[str, Entry] = {}
        self.proxies: dict[str, dict[str, Entry]] = {}  # province -> power -> its order
        self.kept: dict[int, Kept] = {}  # id(entry) -> why its legal order cannot be valid
        # ids of entries of which only the unit was read -> the order as read
        self.loose: dict[int, KeptOrder] = {}

    def add(self, e: Entry) -> None:
        order = e.parsed
        if order is None and self.level == "any_format" and e.power not in self.neutral:
            order = self._read_loosely(e)
        if order is None:
            return
        try:
            prov = self._check(e, order, e.power)
        except IllegalOrder as err:
            ref = ordered_unit(order)
            unit = self.position.unit_in(ref.province) if ref is not None else None
            if not (
                self.proxy
                and unit is not None
                and unit.power != e.power
                and unit.power not in self.neutral
            ):
                self._refuse(e, err.problem)
                return
            try:  # 4.E.5 b: checked as an order of the unit's own power
                self._check(e, order, unit.power)
            except IllegalOrder as again:
                self._refuse(e, again.problem)
                return
            by_power = self.proxies.setdefault(unit.province, {})
            self._replace(by_power.get(e.power))
            by_power[e.power] = e
            return
        self._replace(self.effective.get(prov))
        self.effective[prov] = e

    def _check(self, e: Entry, order: Order, power: str) -> str:
        """Set e.legal (and self.kept for an order that cannot be valid) and return the
        province of its unit, or raise. `order` is e.parsed."""
        loose = self.loose.get(id(e))
        if loose is not None:
            unit = own_unit(self.position, power, loose.unit)
            bound = loose._replace(unit=unit)
            self.kept[id(e)] = loose_kept(e, bound, unit)
            e.legal, e.error = bound, None
            return unit.province
        legal: MovementOrder
        try:
            legal = self.legality.check(order, power)
            self.kept.pop(id(e), None)
        except IllegalOrder as err:
            kept = None
            if self.level != STRICT:
                kept = keep_invalid(self.position, self.legality, order, power, self.level, err)
            if kept is None:
                raise
            legal = kept.order
            self.kept[id(e)] = kept
        e.legal, e.error = legal, None
        return legal.unit.province

    def _refuse(self, e: Entry, error: Problem) -> None:
        e.legal = None
        if id(e) in self.loose:  # keep the reason the line could not be read
            del self.loose[id(e)]
            e.parsed = None
            return
        e.error = error

    def _replace(self, earlier: Entry | None) -> None:
        if earlier is not None:
            earlier.error = REPLACED
            if self.whole_phase:
                earlier.legal = None

    def settle_proxies(self) -> None:
        """A proxy order is used when the unit's own power gave it no legal order and
        no third power ordered it too (two powers' proxies cancel: the unit holds)."""
        gm = self.position.game_map
        for prov, by_power in self.proxies.items():
            owner = self.position.occupied[prov].power  # a proxy names a unit on the board
            adjective = gm.powers[owner].adjective
            chosen = None
            if prov in self.effective:
                reason = Problem("proxy_overridden", {"adjective": adjective})
            elif len(by_power) > 1:
                reason = Problem("proxy_contested")
            else:
                chosen = next(iter(by_power.values()))
            for e in by_power.values():
                if e is not chosen:
                    e.error, e.legal = reason, None
            if chosen is not None:
                self.effective[prov] = chosen
                note = (
                    Problem("proxy_used", {"adjective": adjective})
                    if self.whole_phase
                    else Problem(
                        "proxy_pending", {"adjective": adjective, "power": gm.powers[owner].name}
                    )
                )
                chosen.notes = (*chosen.notes, note)

    def _read_loosely(self, e: Entry) -> KeptOrder | None:
        """4.E.1 a: a line that names one of the board's units and then a move, support
        or convoy sign is an order, whatever follows (set as e.parsed, and returned)."""
        order = read_loosely(e.given, self.position)
        if order is None:
            return None
        e.parsed = order
        self.loose[id(e)] = order
        return order


def _kept_forms(binding: Binding, kept: dict[int, Kept]) -> dict[str, Problem]:
    """Give the resolver each kept order's form; returns the units whose impossible
    move stands as a hold, which no support may hold."""
    no_hold: dict[str, Problem] = {}
    for prov, e in binding.effective.items():
        k = kept.get(id(e))
        if k is None:
            continue
        binding.resolver[prov] = k.form
        moving = type(k.form) is Move
        binding.reports[prov] = Report(k.why, void=not moving, text=k.text)
        if isinstance(e.legal, Move) and not moving:
            no_hold[prov] = Problem("moved_not_held", {"unit": str(e.legal.unit)})
    return no_hold


# -- 4.D.9 a: civil disorder ------------------------------------------------------------


def _in_civil_disorder(
    position: Position, entries: list[Entry], effective: dict[str, Entry]
) -> dict[str, Problem]:
    """The units of powers that sent no orders at all this phase (and that nobody
    ordered by proxy): province -> why a support to hold it fails. A variant's neutral
    powers are not played at all rather than in disorder: their units keep the rule."""
    gm = position.game_map
    ordering = {e.power for e in entries} | gm.neutral_in(position.phase)
    out = {}
    for u in position.units:
        if u.power not in ordering and u.province not in effective:
            who = gm.powers[u.power].name if u.power in gm.powers else u.power
            out[u.province] = Problem("civil_disorder_hold", {"power": who})
    return out


def _fail_hold_supports(binding: Binding, no_hold: dict[str, Problem]) -> None:
    """Supports to hold the units in `no_hold` fail: their supporters hold instead."""
    if not no_hold:
        return
    for prov, e in binding.effective.items():
        order = binding.resolver.get(prov, e.legal)
        if type(order) is Support and order.dest is None:
            why = no_hold.get(order.supported.province)
            if why is not None:
                binding.resolver[prov] = Hold(order.unit)
                binding.reports[prov] = Report(why)


# -- 4.E.3 a: implicit orders -------------------------------------------------------------


def _implicit_moves(
    position: Position,
    legality: MovementLegality,
    effective: dict[str, Entry],
    kept: dict[int, Kept],
) -> dict[str, Entry]:
    """Moves deduced from a power's own legal supports and convoys for its own units it
    gave no order (explicit orders win): province -> the entry of the move. Orders that
    disagree on where the unit goes deduce nothing, and nothing is deduced from another
    power's orders."""
    wanted: dict[str, list[tuple[str, Support | Convoy]]] = {}
    for e in effective.values():
        order = e.legal
        if id(e) in kept or not isinstance(order, Support | Convoy) or order.dest is None:
            continue  # not legal and valid, or a support to hold: nothing to deduce
        if not isinstance(order.unit, Unit) or order.unit.power != e.power:
            continue  # a proxy order (4.E.5 b) deduces nothing for the owner
        ref = order.supported if isinstance(order, Support) else order.army
        unit = position.unit_in(ref.province)
        if unit is None or unit.power != e.power or unit.province in effective:
            continue
        wanted.setdefault(unit.province, []).append((order.dest, order))
    out = {}
    for prov, claims in wanted.items():
        dest = _one_destination([d for d, _ in claims])
        unit = position.unit_in(prov)
        if dest is None or unit is None:
            continue
        move = Move(UnitRef(unit.kind, unit.location), dest)
        try:
            legal = legality.check(move, unit.power)
        except IllegalOrder:
            continue  # an impossible deduction is no order
        source = order_text(claims[0][1])
        note = Problem("implicit_order", {"source": source})
        out[prov] = Entry(unit.power, "", parsed=move, legal=legal, notes=(note,))
    return out


def _one_destination(dests: list[str]) -> str | None:
    """The one place the claims agree on (a coast named by any of them counts), or None."""
    provinces = {d.partition("/")[0] for d in dests}
    coasts = {d for d in dests if "/" in d}
    if len(provinces) != 1 or len(coasts) > 1:
        return None
    return next(iter(coasts)) if coasts else provinces.pop()
