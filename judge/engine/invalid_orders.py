"""Orders that are legal under a looser DATC 4.E.1 choice but cannot be valid now.

With the DATC's preference (4.E.1 d) an order that cannot be valid in the current
position is illegal and thrown away (legality.py). A game may make more orders legal:
any order of the right format, even naming no place (a), any naming places on the map
(b), or any that some position could make valid (c). Such an order is kept: it is void,
but it is the unit's order, and a move stays a move. This module says whether a refused
order is kept and what the resolver is given for it (order_sets.py binds it).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .board import ARMY, FLEET, Position, Unit
from .coasts import CoastError, support_coast
from .convoy import convoy_route_exists, seas_on_routes
from .geography import COAST, GameMap
from .legality import IllegalOrder, MovementLegality
from .notation import NotationError, parse_order
from .orders import Convoy, Hold, Move, Order, Support, UnitRef
from .phase import MOVEMENT
from .problems import Problem, Reason
from .results import Entry

STRICT = "invalid_in_current_position"  # 4.E.1 d, the DATC's preference
_LETTER = {"any_format": "a", "valid_places": "b", "valid_geography": "c"}


KeptOrder = Move | Support | Convoy  # the orders a looser 4.E.1 choice may keep


class Kept(NamedTuple):
    """An order legal under the game's 4.E.1 choice that cannot be valid now."""

    order: KeptOrder  # as understood, its unit bound to the board
    form: Order  # what the resolver is given for it
    why: Problem
    text: str | None = None  # set when only the unit was read (4.E.1 a)


def loose_kept(e: Entry, legal: KeptOrder, unit: Unit) -> Kept:
    """4.E.1 a: the line e.given, of which only its unit was read, kept as its order
    (`legal`, bound to `unit`)."""
    moving = isinstance(e.parsed, Move)
    return Kept(
        legal,
        Hold(unit),
        _consequence(e.error or Problem("cannot_be_carried_out"), "a", moving),
        e.given.strip(),
    )


_LOOSE = re.compile(
    r"(?P<unit>.+?)\s*(?P<sign>->|=>|→|–|—|-|\b(?:to|moves?|supports?|s|convoys?|c)\b)"
    r"\s*(?P<rest>\S.*)",
    re.IGNORECASE,
)


def read_loosely(text: str, position: Position) -> KeptOrder | None:
    """`A Mun - Oz` as a move of the army in Munich to a place not on the map (and so
    with a support or convoy sign); None unless a unit on the board is named first."""
    m = _LOOSE.fullmatch(text.strip())
    if m is None:
        return None
    try:
        head = parse_order(m["unit"], position.game_map, MOVEMENT).order
    except NotationError:
        return None
    if not isinstance(head, Hold) or position.unit_in(head.unit.province) is None:
        return None
    sign, rest = m["sign"].lower(), m["rest"].strip().upper()
    if sign[0] == "s":
        return Support(head.unit, UnitRef(None, rest), None)
    if sign[0] == "c":
        return Convoy(head.unit, UnitRef(None, rest), "")
    return Move(head.unit, rest)


def keep_invalid(
    position: Position,
    legality: MovementLegality,
    order: Order,
    power: str,
    level: str,
    error: IllegalOrder,
) -> Kept | None:
    """The order refused with `error` as it stands under 4.E.1 `level`, or None when it
    is illegal there too. (a, b): any order of the power's own unit naming places on the
    map; (c): only one that some position could make valid, that is one refused for the
    fleets now at sea or a unit not there now."""
    ref = getattr(order, "unit", None)
    unit = position.unit_in(ref.province) if ref is not None else None
    if unit is None or unit.power != power:
        return None  # no unit of the power's own: nothing the order could do
    letter = _LETTER[level]
    geography_only = level == "valid_geography"
    if isinstance(order, Move):
        dest = position.game_map.province_of(order.dest)
        if _fleets_missing(legality, unit, dest):
            move = order._replace(unit=unit, dest=dest)
            why = Problem("kept_awaiting_convoy", {"error": error.problem, "letter": letter})
            return Kept(move, move, why)
        if geography_only:
            return None
        kept = _consequence(error.problem, letter, True)
        return Kept(order._replace(unit=unit), Hold(unit), kept)
    if isinstance(order, Support):
        if geography_only and not _support_possible(position, legality, unit, order):
            return None
        kept = _consequence(error.problem, letter, False)
        return Kept(order._replace(unit=unit), Hold(unit), kept)
    if isinstance(order, Convoy):
        if geography_only and not _convoy_possible(legality, unit, order):
            return None
        form = _convoy_form(position, legality, unit, order)
        return Kept(order._replace(unit=unit), form, _consequence(error.problem, letter, False))
    return None


def _consequence(error: Reason, letter: str, moving: bool) -> Problem:
    """The reason a legal order cannot succeed (`error`, wrapped), and what it does
    instead."""
    values = {"error": error, "letter": letter}
    return Problem("kept_as_move", values) if moving else Problem("kept_void", values)


def _all_seas(gm: GameMap) -> frozenset[str]:
    return frozenset(gm.sea_adjacent)


def _fleets_missing(legality: MovementLegality, unit: Unit, dest: str) -> bool:
    """An army move between coasts that some chain of fleets could convoy, but no chain
    of the fleets at sea now: legal under 4.E.1 a-c, and failing for want of a convoy."""
    gm = legality.gm
    origin = unit.province
    return (
        unit.kind == ARMY
        and dest != origin
        and dest not in legality.closed
        and gm.provinces[origin].kind == COAST
        and gm.provinces[dest].kind == COAST
        and dest not in gm.army_moves[origin]
        and convoy_route_exists(gm, origin, dest, _all_seas(gm))
        and not convoy_route_exists(gm, origin, dest, legality.fleet_seas)
    )


def _support_possible(
    position: Position, legality: MovementLegality, unit: Unit, order: Support
) -> bool:
    """4.E.1 c: whether some position would make the support valid (a unit of the right
    kind in the supported place, fleets at sea where a convoy needs them)."""
    gm = legality.gm
    where = order.supported.province
    into = where if order.dest is None else gm.province_of(order.dest)
    if unit.province in (where, into) or into in legality.closed:
        return False
    if not gm.can_reach(unit.kind, unit.location, into):
        return False
    if order.dest is None:
        return True
    target = position.unit_in(where)
    if target is not None:
        kinds = [target.kind]
    else:
        kinds = [order.supported.kind] if order.supported.kind else [ARMY, FLEET]
    # A fleet cannot convoy the move it supports (DATC 6.D.31).
    seas = _all_seas(gm) - {unit.province}
    for kind in kinds:
        if kind == ARMY and _army_could_move(gm, where, into, seas):
            return True
        if kind == FLEET and target is None and _fleet_could_move(legality, where, order.dest):
            return True
    return False


def _army_could_move(gm: GameMap, origin: str, dest: str, seas: frozenset[str]) -> bool:
    """Whether an army in `origin` could move to `dest`, by land or through `seas`."""
    if dest in gm.army_moves.get(origin, ()):
        return True
    kinds = (gm.provinces[origin].kind, gm.provinces[dest].kind)
    return kinds == (COAST, COAST) and convoy_route_exists(gm, origin, dest, seas)


def _fleet_could_move(legality: MovementLegality, origin: str, written: str) -> bool:
    """Whether a fleet somewhere in `origin` could move to `written` (a support's
    destination), coasts read as the game's 4.B.4 choice reads them."""
    gm = legality.gm
    prov, _, coast = written.partition("/")
    coasts = gm.provinces[prov].coasts
    for location in gm.fleet_locations(origin):
        reach = gm.fleet_reaches(location, prov)
        if not reach:
            continue
        if not coasts:
            return True
        try:
            support_coast(gm, prov, coast if coast in coasts else "", reach, legality.rules, True)
        except CoastError:
            continue
        return True
    return False


def _convoy_possible(legality: MovementLegality, unit: Unit, order: Convoy) -> bool:
    """4.E.1 c: whether some position would make the convoy valid: the fleet at sea on
    a chain of seas from one coast to another."""
    gm = legality.gm
    origin, dest = order.army.province, gm.province_of(order.dest)
    return (
        unit.kind == FLEET
        and gm.convoys_at(unit.province)
        and dest != origin
        and dest not in legality.closed
        and gm.provinces[origin].kind == COAST
        and gm.provinces[dest].kind == COAST
        and unit.province in seas_on_routes(gm, origin, dest, _all_seas(gm))
    )


def _convoy_form(
    position: Position, legality: MovementLegality, unit: Unit, order: Convoy
) -> Order:
    """A legal convoy that cannot be valid goes to the resolver as a convoy when it is
    one in form (a fleet at sea, an army between coasts): it is void there, but may still
    show the army's intent to be convoyed (DATC 4.A.3 d, 6.G.7). Otherwise, a hold."""
    gm = legality.gm
    army = position.unit_in(order.army.province)
    if (
        unit.kind != FLEET
        or not gm.convoys_at(unit.province)
        or army is None
        or army.kind != ARMY
        or order.dest not in gm.provinces
    ):
        return Hold(unit)
    dest = order.dest
    if (
        dest == army.province
        or dest in legality.closed
        or gm.provinces[army.province].kind != COAST
        or gm.provinces[dest].kind != COAST
    ):
        return Hold(unit)
    return Convoy(unit, army, dest)
