"""One phase from orders to outcome: read, check, resolve, and the next position.

`adjudicate(position, orders)` takes each power's orders as text (or order objects) and
returns every order's result and the position at the start of the next phase in which
somebody has something to order: a retreat or adjustment phase with nothing to do is
skipped, with supply centres changing hands after Fall as usual.

A map's neutral powers (a variant for fewer players) are never ordered: their orders are
void, their units hold, a dislodged one is disbanded at once, and they build nothing.
Victory is a player's: on maps where one player plays several powers it goes to the
player's group of powers (`Adjudication.winners`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from .adjustments import resolve_adjustments
from .board import Dislodged, Position, Unit, placed_unit
from .geography import GameMap
from .legality import IllegalOrder, MovementLegality
from .movement import MovementOutcome, resolve_movement
from .notation import CACHED_ORDER_CHARS, NotationError, parse_kept_order, parse_order
from .orders import Convoy, Hold, Move, Order, Support, UnitLike, order_text
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from .problems import Problem
from .results import (
    BOUNCE,
    CUT,
    DISLODGED,
    DISRUPTED,
    NO_CONVOY,
    OK,
    REPLACED,
    VOID,
    Entry,
    OrderResult,
)
from .retreats import resolve_retreats, retreat_options
from .rules import DEFAULT_RULES, Rules, binds_order_sets

if TYPE_CHECKING:  # imported where a game's rules need it (_movement)
    from . import order_sets


class Adjudication(NamedTuple):
    """One phase's outcome. A NamedTuple, as the orders are: as immutable as a frozen
    dataclass, made at a fraction of its cost (once a phase), and no code generated for
    it at each start."""

    phase: Phase
    results: tuple[OrderResult, ...]
    dislodged: tuple[Dislodged, ...]  # every unit dislodged this phase, with its retreats
    position: Position  # the position at the start of the next phase
    builds: Mapping[str, int]  # when the next phase is adjustments: +n builds, -n removals
    winner: str | None  # the winning power; for a player of several, their keys joined by "+"
    winners: tuple[str, ...] = ()  # every power of the winning player


def adjudicate(
    position: Position,
    orders: Mapping[str, Sequence[str | Order]],
    rules: Rules = DEFAULT_RULES,
    players: Sequence[Sequence[str]] | None = None,
) -> Adjudication:
    """Adjudicate one phase. Unknown powers raise ValueError; bad orders never do.
    `players`: the powers each player plays, where the game's differ from the map's
    (the two-player game once Italy has joined a side); victory is counted for them."""
    gm = position.game_map
    for power in orders:
        if power not in gm.powers:
            raise ValueError(f"unknown power {power!r}")
    if players is not None:
        players = tuple(tuple(g) for g in players)
        for power in (p for g in players for p in g):
            if power not in gm.powers:
                raise ValueError(f"unknown power {power!r} in the players")
    paths = rules.convoy_path_specification != "ignored"  # DATC 4.A.6
    entries = read_orders(orders, gm, position.phase.kind, paths)
    neutral = gm.neutral_in(position.phase)
    if neutral:
        for e in entries:
            if e.power in neutral:
                e.parsed = e.legal = None
                e.error = neutral_error(gm, e.power)
    kind = position.phase.kind
    if kind == MOVEMENT:
        return _movement(position, entries, rules, players)
    if kind == RETREATS:
        outcome = resolve_retreats(position, entries, rules)
    else:
        outcome = resolve_adjustments(position, entries, rules)
    results, units = outcome
    return _advance(position, tuple(results), units, (), rules, players)


def neutral_error(gm: GameMap, power: str) -> Problem:
    """Why an order for a neutral power's unit is void."""
    return Problem("power_neutral", {"power": gm.powers[power].name})


def read_orders(
    orders: Mapping[str, Sequence[str | Order]], gm: GameMap, phase_kind: str, paths: bool
) -> list[Entry]:
    """Every power's order lines read, in order: an Entry each (as _read gives it)."""
    entries: list[Entry] = []
    add = entries.append
    for power, lines in orders.items():
        for line in lines:
            # A short text read here as _read reads it, without its two calls: a phase
            # has dozens of orders, and every one takes this path.
            if type(line) is not str or len(line) > CACHED_ORDER_CHARS:
                add(_read(power, line, gm, phase_kind, paths))
                continue
            try:
                parsed = parse_kept_order(line, gm, phase_kind, paths)
            except NotationError as e:
                add(Entry(power, line, error=e.problem))
                continue
            add(Entry(power, line, parsed.order, None, None, parsed.notes))
    return entries


def _read(power: str, line: str | Order, gm: GameMap, phase_kind: str, paths: bool) -> Entry:
    if not isinstance(line, str):
        return Entry(power, order_text(line), parsed=line)
    try:
        parsed = parse_order(line, gm, phase_kind, paths)
    except NotationError as e:
        return Entry(power, line, error=e.problem)
    return Entry(power, line, parsed.order, None, None, parsed.notes)


# -- movement ---------------------------------------------------------------------------


def _movement(
    position: Position,
    entries: list[Entry],
    rules: Rules,
    players: tuple[tuple[str, ...], ...] | None,
) -> Adjudication:
    legality = MovementLegality(position, rules)
    binding = None
    if binds_order_sets(rules):  # other choices than the DATC's on 4.D.9, 4.E.1/3/5
        from . import order_sets  # here: under the DATC's choices, never imported

        binding = order_sets.bind(position, entries, legality, rules)
        effective = binding.effective
        entries = [*entries, *binding.implicit]
    else:
        effective = _bind(entries, legality)
    legal: dict[str, Order] = {}
    for unit in position.units:
        entry = effective.get(unit.province)
        order = entry.legal if entry is not None else None
        legal[unit.province] = order if order is not None else Hold(unit)
    if binding is not None:
        legal.update(binding.resolver)  # what kept or failing orders do
    outcome = resolve_movement(position, legal, rules)
    results = _movement_results(position, entries, effective, binding, outcome)
    units = _units_after(position, legal, outcome)
    neutral = position.game_map.neutral_in(position.phase)  # disbanded when dislodged
    dislodged = tuple(
        Dislodged(
            position.occupied[p],
            ()
            if position.occupied[p].power in neutral
            else retreat_options(position, p, attacker, outcome, units, rules),
        )
        for p, attacker in sorted(outcome.dislodged.items())
    )
    return _advance(position, tuple(results), units, dislodged, rules, players)


def _bind(entries: list[Entry], legality: MovementLegality) -> dict[str, Entry]:
    """Each entry bound to the board under the DATC's choices: province -> the entry
    whose order its unit follows (the last legal one, DATC 4.D.3)."""
    effective: dict[str, Entry] = {}
    for e in entries:
        if e.parsed is None:
            continue
        try:
            legal = e.legal = legality.check(e.parsed, e.power)
        except IllegalOrder as err:
            e.error = err.problem
            continue
        prov = legal.unit.province
        earlier = effective.get(prov)
        if earlier is not None:  # two orders for one unit: the last legal one counts
            earlier.error = REPLACED
            earlier.legal = None
        effective[prov] = e
    return effective


def _movement_results(
    position: Position,
    entries: list[Entry],
    effective: dict[str, Entry],
    binding: order_sets.Binding | None,
    outcome: MovementOutcome,
) -> list[OrderResult]:
    """Every order line's result, then a hold for each unit no line named."""
    occupied = position.unit_table()
    dislodged, void = outcome.dislodged, outcome.void
    results = []
    for e in entries:
        order = e.legal
        if order is not None:  # bound to the unit in the province the line names
            prov: str | None = order.unit.province  # type: ignore[union-attr]  # no Waive bound
            text = order.text()  # order_text, one call less
        else:  # _named_province, inline
            ref: UnitLike | None = getattr(e.parsed, "unit", None)
            prov = ref.location.partition("/")[0] if ref is not None else None
            text = e.parsed.text() if e.parsed is not None else e.given
        # The result code of the line, here rather than a call per order.
        why = e.error
        # The unit's own order, or a proxy order for it (DATC 4.E.5 b), shows it dislodged
        # (its unit looked up only where one was dislodged: most places have none).
        if (
            prov in dislodged
            and (unit := occupied.get(prov)) is not None
            and (unit.power == e.power or order is not None)
        ):
            code = DISLODGED
        elif order is None:
            code = VOID
        elif type(order) is Move:
            code = _move_code(prov, outcome)
        elif type(order) is Support:
            # Only a support or a convoy is void here: it did not match the order it names
            # (_unmatched_reason, inline: a third of all orders in random games).
            if prov in void:
                code, why = VOID, _unmatched(order.supported.text, order.dest, "support")
            else:
                code = CUT if prov in outcome.cut else OK
        elif type(order) is Convoy:
            if prov in void:
                code, why = VOID, _unmatched_reason(order)
            else:
                code = CUT if prov in outcome.cut else OK  # a convoy is never cut
        else:
            code = OK
        result = _new(OrderResult, (e.power, e.given, text, code, why, e.notes))
        if binding is not None and prov in binding.reports and effective.get(prov) is e:
            from .order_sets import report  # imported already: binding is its

            result = report(result, binding.reports[prov])
        results.append(result)
    results.extend(_unordered_holds(position, entries, effective, outcome))
    return results


def _move_code(prov: str | None, outcome: MovementOutcome) -> str:
    """The result code of a legal move whose unit was not dislodged."""
    if prov in outcome.moved:
        return OK
    if prov in outcome.no_route:
        return NO_CONVOY
    return DISRUPTED if prov in outcome.disrupted else BOUNCE


def _unordered_holds(
    position: Position,
    entries: list[Entry],
    effective: dict[str, Entry],
    outcome: MovementOutcome,
) -> list[OrderResult]:
    """A hold for each unit no order line named; one named only illegally is reported
    there."""
    unordered = [unit for unit in position.units if unit.province not in effective]
    if not unordered:  # most phases have none: every unit follows an order
        return []
    lines = {(e.power, _named_province(e)) for e in entries}
    return [
        OrderResult(
            unit.power,
            "",
            f"{unit.text} H",
            DISLODGED if unit.province in outcome.dislodged else OK,
        )
        for unit in unordered
        if (unit.power, unit.province) not in lines
    ]


def _named_province(e: Entry) -> str | None:
    """The province of the unit an order line names (None for WAIVE, or nothing read)."""
    ref: UnitLike | None = getattr(e.parsed, "unit", None)
    return ref.location.partition("/")[0] if ref is not None else None


def _units_after(
    position: Position, legal: Mapping[str, Order], outcome: MovementOutcome
) -> list[Unit]:
    """The units left on the board, the movers in their new places."""
    units: list[Unit] = []
    for unit in position.units:
        p = unit.province
        if p in outcome.dislodged:
            continue
        order = legal[p]
        if p in outcome.moved and type(order) is Move:  # not isinstance: no call
            units.append(placed_unit(unit.power, unit.kind, order.dest))
        else:
            units.append(unit)
    return units


_new = tuple.__new__  # a NamedTuple without its Python-level __new__ (see notation.py)


def _unmatched_reason(order: Support | Convoy) -> Problem:
    """Why a legal support or convoy was void: the order it names was not given."""
    if isinstance(order, Support):
        return _unmatched(order.supported.text, order.dest, "support")
    return _unmatched(order.army.text, order.dest, "convoy")


@lru_cache(maxsize=4096)
def _unmatched(unit: str, dest: str | None, kind: str) -> Problem:
    # Made once each and shared (a Problem is immutable): random and real games void
    # the same few hundred supports, a third of all orders here, phase after phase.
    if kind == "convoy":
        return Problem("convoy_unmatched", {"army": unit, "dest": str(dest)})
    if dest is None:
        return Problem("support_hold_unmatched", {"supported": unit})
    return Problem("support_move_unmatched", {"supported": unit, "dest": dest})


# -- after the phase: the next phase with something to order ----------------------------


def _advance(
    position: Position,
    results: tuple[OrderResult, ...],
    units: list[Unit],
    dislodged: tuple[Dislodged, ...],
    rules: Rules,
    players: tuple[tuple[str, ...], ...] | None,
) -> Adjudication:
    gm = position.game_map
    phase = position.phase
    centers = dict(position.centers)
    winners: tuple[str, ...] = ()
    retreating = tuple([d for d in dislodged if d.retreats])  # a list: no generator
    nxt = phase.following()
    if phase.kind == MOVEMENT and retreating:
        new = Position(gm, nxt, tuple(units), centers, retreating)
        return Adjudication(phase, results, dislodged, new, {}, None)
    if phase.kind == MOVEMENT:
        nxt = nxt.following()  # no retreats to make
    if phase.season == "F" and phase.kind in (MOVEMENT, RETREATS):
        centers = _capture(position, units)
        winners = _winner(position, centers, players)
    builds: dict[str, int] = {}
    new = Position(gm, nxt, tuple(units), centers)
    if nxt.kind == ADJUSTMENTS:
        count = Counter([u.power for u in units])
        neutral = gm.neutral_in(nxt)  # neutral powers build nothing
        builds = {
            p: n
            for p in gm.powers
            if (n := len(centers.get(p, ())) - count[p]) and not (n > 0 and p in neutral)
        }
        if not any(_has_adjustment(new, p, n) for p, n in builds.items()):
            new = Position(gm, nxt.following(), tuple(units), centers)
            builds = {}
    winner = "+".join(winners) or None
    return Adjudication(phase, results, dislodged, new, builds, winner, winners)


def _has_adjustment(position: Position, power: str, n: int) -> bool:
    if n < 0:
        return True
    owned = position.centers.get(power, frozenset())
    sites = position.game_map.build_sites(power, owned)
    return any(position.unit_in(h) is None for h in sites)


def _capture(position: Position, units: list[Unit]) -> dict[str, frozenset[str]]:
    """Supply centres change hands at the end of Fall, to the unit standing in them."""
    gm = position.game_map
    centers = dict.fromkeys(gm.powers, _NO_CENTERS)  # every power, in the map's order
    centers.update(zip(position.centers, map(frozenset, position.centers.values()), strict=True))
    supply = gm.supply_centers
    # The centres a unit stands in that its power does not own yet: most years, a few.
    taken = {
        u.province: u.power
        for u in units
        if u.province in supply and u.province not in centers.get(u.power, _NO_CENTERS)
    }
    if not taken:
        return centers
    for power in taken.values():
        centers.setdefault(power, _NO_CENTERS)  # a power not of the map, as it was given
    return {
        p: cs.difference(taken).union([c for c, q in taken.items() if q == p])
        for p, cs in centers.items()
    }


_NO_CENTERS: frozenset[str] = frozenset()


def _winner(
    position: Position,
    centers: Mapping[str, frozenset[str]],
    players: tuple[tuple[str, ...], ...] | None,
) -> tuple[str, ...]:
    """The powers of the one player with the victory centres, or (). A player of several
    powers counts their centres together where the map says so (victory_by_player),
    else one of them must reach the count alone."""
    gm = position.game_map
    need = gm.victory_centers
    if not gm.victory_by_player and max(map(len, centers.values()), default=0) < need:
        return ()  # no power has the count alone: most years of most games
    combine = sum if gm.victory_by_player else max
    leaders = [
        g
        for g in (players if players is not None else gm.players(position.phase))
        if g and combine(len(centers.get(p, ())) for p in g) >= need
    ]
    return leaders[0] if len(leaders) == 1 else ()
