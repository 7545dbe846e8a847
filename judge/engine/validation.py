"""Checking one power's orders on arrival, the way the phase will adjudicate them.

The judge answers every order set at once with each order as it will be adjudicated or
the reason it will not be. This runs the same legality code as adjudication, for one
power alone: what it accepts is exactly what the phase will use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import order_sets
from .adjudication import neutral_error
from .adjustments import resolve_adjustments
from .board import Position
from .legality import IllegalOrder, MovementLegality
from .notation import NotationError, parse_order
from .orders import Waive, order_text
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS
from .problems import Problem, Reason
from .results import REPLACED, Entry
from .retreats import resolve_retreats
from .rules import DEFAULT_RULES, Rules


@dataclass(frozen=True)
class CheckedOrder:
    given: str
    order: str | None  # canonical short form, when the judge understood the line
    error: Reason | None  # why it will not be used (None: it will be)
    key: str | None  # what it orders (a unit's province, a build site, "WAIVE n")
    notes: tuple[Reason, ...] = ()  # how a misspelling was read, what a rule made of it
    # Legal, but a later order for the same unit replaces it (a warning). Kept apart
    # from `error`, which the reply turns into words.
    replaced: bool = False

    @property
    def accepted(self) -> bool:
        return self.error is None and self.order is not None


def check_orders(
    position: Position, power: str, lines: Sequence[str], rules: Rules = DEFAULT_RULES
) -> list[CheckedOrder]:
    """Each line checked against the position, in order. Two orders for one unit: the
    last legal one counts (the earlier is marked replaced); too many builds or removals:
    the first legal ones count (DATC 4.D.4, 4.D.6)."""
    kind = position.phase.kind
    gm = position.game_map
    if power in gm.neutral_in(position.phase):
        return [CheckedOrder(line, None, neutral_error(gm, power), None) for line in lines]
    paths = rules.convoy_path_specification != "ignored"  # DATC 4.A.6
    entries = []
    for line in lines:
        e = Entry(power, line)
        try:
            e.parsed, e.notes = parse_order(line, position.game_map, kind, paths)
        except NotationError as err:
            e.error = err.problem
        entries.append(e)
    if kind == MOVEMENT and order_sets.applies(rules):  # 4.E.1 a-c, 4.E.5 b (order_sets.py)
        order_sets.check_for_reply(position, entries, MovementLegality(position, rules), rules)
    elif kind == MOVEMENT:
        legality = MovementLegality(position, rules)
        latest: dict[str, Entry] = {}
        for e in entries:
            if e.parsed is None:
                continue
            try:
                e.legal = legality.check(e.parsed, power)
            except IllegalOrder as err:
                e.error = err.problem
                continue
            prov = e.legal.unit.province
            if prov in latest:
                latest[prov].error = REPLACED
            latest[prov] = e
    elif kind == RETREATS:
        resolve_retreats(position, entries, rules)
    elif kind == ADJUSTMENTS:
        resolve_adjustments(position, entries, rules)
    out = []
    waives = 0
    for e in entries:
        shown = e.legal or e.parsed
        key = None
        if e.legal is not None:
            if isinstance(e.legal, Waive):
                waives += 1
                key = f"WAIVE {waives}"
            else:  # every other order is for a unit
                key = e.legal.unit.location.partition("/")[0]
        error = e.error if (e.error or e.legal is None) else None
        if e.legal is None and error is None:
            error = Problem("wrong_phase")
        text = order_text(shown) if shown is not None else None
        replaced = error == REPLACED
        out.append(CheckedOrder(e.given, text, error, key, tuple(e.notes), replaced))
    return out


def orders_due(position: Position, power: str) -> tuple[set[str], int]:
    """What a power must order this phase: (unit provinces needing an order, adjustments
    owed). Movement: every unit; retreats: every dislodged unit; adjustments: the number of
    builds it can make (limited by its free home centres) or removals it owes."""
    kind = position.phase.kind
    if power in position.game_map.neutral_in(position.phase):
        return set(), 0  # a neutral power is never ordered
    if kind == MOVEMENT:
        return {u.province for u in position.units if u.power == power}, 0
    if kind == RETREATS:
        return {d.unit.province for d in position.dislodged if d.unit.power == power}, 0
    n = position.adjustment(power)
    if n > 0:
        owned = position.centers.get(power, frozenset())
        sites = position.game_map.build_sites(power, owned)
        free = [h for h in sites if position.unit_in(h) is None]
        return set(), min(n, len(free))
    return set(), n
