"""Legality: binding a written order to the board (DATC 4.E.1 choice d).

An order is legal when it can be valid in the current position: the unit is there and
is the power's, the move is possible for it (by land, or by a chain of fleets now at
sea), a supported move is one the supported unit could make and the supporter could
reach, a convoy lies on a chain of fleets from the army to its destination. Illegal
orders raise IllegalOrder with the reason as a Problem (its words, templates/problems/,
one sentence a beginner understands); the unit holds.
Coasts follow DATC 4.B: a needed coast missing fails (4.B.1 a), the only possible coast
is taken (4.B.2 a), an impossible coast fails (4.B.3 b), a wrong coast of the ordered
unit or an irrelevant coast is ignored (4.B.5 b, 4.B.6 b); a game may choose otherwise
on 4.B.1-4.B.4 (coasts.py). Orders refused here may still be legal, but void, under a
game's other 4.E.1 choices (invalid_orders.py).
"""

from __future__ import annotations

from .board import ARMY, FLEET, Position, Unit
from .coasts import CoastError, move_coast, support_coast
from .convoy import convoy_route_exists, sea_on_route
from .geography import LAND, SEA, GameMap
from .orders import Convoy, Hold, Move, MovementOrder, Order, Support, UnitLike
from .place_names import name
from .problems import Problem, ProblemError, Value
from .rules import DEFAULT_RULES, Rules


class IllegalOrder(ProblemError):
    """An order that cannot be valid in this position; `problem` says why."""


def unit_ref(unit: Unit) -> Unit:
    """What a bound order names: the board's own unit (it reads like a UnitRef)."""
    return unit


def own_unit(position: Position, power: str, ref: UnitLike) -> Unit:
    """The unit an order of `power` names, or IllegalOrder."""
    gm = position.game_map
    unit = position.unit_in(ref.province)
    if unit is None:
        raise IllegalOrder(Problem("no_unit", {"place": name(gm, ref.province)}))
    if unit.power != power:
        owner = gm.powers[unit.power].adjective if unit.power in gm.powers else unit.power
        raise IllegalOrder(
            Problem("not_your_unit", {"place": name(gm, unit.province), "owner": owner})
        )
    return unit


_new = tuple.__new__  # a NamedTuple without its Python-level __new__ (see notation.py)
_MOVEMENT_KINDS = frozenset({Move, Support, Hold, Convoy})  # what a movement phase's units may do


class MovementLegality:
    """Checks movement-phase orders against one position (built once per phase)."""

    def __init__(self, position: Position, rules: Rules = DEFAULT_RULES) -> None:
        self.position = position
        self.rules = rules
        self.occupied = position.unit_table()  # every order of the phase looks up its unit
        self.gm = position.game_map
        self.closed = self.gm.closed_in(position.phase)  # a variant's closed provinces
        convoying = self.gm.sea_adjacent  # keyed by the seas and ports: gm.convoys_at, no call
        self.fleet_seas = frozenset(
            {u.province for u in position.units if u.kind == FLEET and u.province in convoying}
        )

    def check(self, order: Order, power: str) -> MovementOrder:
        """The order bound to the board (real unit types and locations), or IllegalOrder."""
        # `type() is`, not isinstance: twice as fast, on every order of every phase.
        if type(order) not in _MOVEMENT_KINDS:
            raise IllegalOrder(Problem("not_a_movement_order"))
        # The unit of `power` the order names, or IllegalOrder (own_unit) saying why not.
        ref = order.unit  # type: ignore[union-attr]  # no Waive: refused above
        unit = self.occupied.get(ref.location.partition("/")[0])
        if unit is None or unit.power != power:
            unit = own_unit(self.position, power, ref)  # raises with the reason
        if type(order) is Move:
            # An army's move to a place it borders, as move_destination binds it, here
            # without the call (most moves of a phase): anything else is its.
            dest = order.dest.partition("/")[0]
            if (
                unit.kind == ARMY
                and not order.path
                and dest != unit.province
                and dest not in self.closed
                and dest in self.gm.army_moves[unit.province]  # never a sea (build_map)
            ):
                return _new(Move, (unit, dest, order.via_convoy, ()))
            dest, _ = self.move_destination(unit, order.dest)
            # VIA stays only where the player wrote it; a move between places that do
            # not border each other goes by convoy anyway. A fleet is never convoyed, so
            # a path written for one means nothing.
            if unit.kind != ARMY:
                return _new(Move, (unit, dest, False, ()))
            if order.path:
                self._check_path(unit, dest, order.path)
            return _new(Move, (unit, dest, order.via_convoy, order.path))
        if type(order) is Hold:
            return _new(Hold, (unit,))
        if type(order) is Support:
            return self._support(unit, order)
        return self._convoy(unit, order)  # type: ignore[arg-type]  # the last of _MOVEMENT_KINDS

    # -- moves ----------------------------------------------------------------------------
    def move_destination(
        self, unit: Unit, written: str, exclude_sea: str | None = None
    ) -> tuple[str, bool]:
        """(location, needs convoy) for a move of `unit` to `written`, or IllegalOrder."""
        gm = self.gm
        dest = written.partition("/")[0]  # gm.province_of, without a call on every move
        if dest == unit.province:
            raise IllegalOrder(Problem("move_to_own_place"))
        if dest in self.closed:
            raise IllegalOrder(closed_message(gm, dest))
        kind = gm.provinces[dest].kind
        if unit.kind == FLEET:
            return fleet_destination(gm, unit.location, written, self.rules), False
        if kind == SEA:
            raise IllegalOrder(Problem("army_into_sea", {"place": name(gm, dest)}))
        if dest in gm.army_moves[unit.province]:
            return dest, False
        if gm.provinces[unit.province].kind == LAND or kind == LAND:
            places = {"origin": name(gm, unit.province), "dest": name(gm, dest)}
            raise IllegalOrder(Problem("not_adjacent", places))
        seas = self.fleet_seas - {exclude_sea} if exclude_sea else self.fleet_seas
        if convoy_route_exists(gm, unit.province, dest, seas):
            return dest, True
        places = {"origin": name(gm, unit.province), "dest": name(gm, dest)}
        raise IllegalOrder(Problem("no_convoy_chain", places))

    def _check_path(self, unit: Unit, dest: str, path: tuple[str, ...]) -> None:
        """A written convoy path (DATC 4.A.6) must be a chain of seas, each holding a
        fleet now, from the army's place to its destination; else the move cannot be
        valid in this position (4.E.1 d)."""
        gm = self.gm
        steps = (unit.province, *path, dest)
        if all(
            sea in self.fleet_seas
            and steps[i - 1] in gm.sea_neighbours(sea)
            and steps[i + 1] in gm.sea_neighbours(sea)
            for i, sea in enumerate(path, 1)
        ):
            return
        route = tuple(name(gm, p) for p in steps)
        raise IllegalOrder(Problem("path_not_chain", {"route": route, "unit": str(unit)}))

    # -- support --------------------------------------------------------------------------
    def _support(self, unit: Unit, order: Support) -> Support:
        gm = self.gm
        supported = order.supported.location.partition("/")[0]  # its province
        target = self.occupied.get(supported)
        if target is None:
            place = name(gm, supported)
            raise IllegalOrder(Problem("support_no_unit", {"place": place}))
        if target.province == unit.province:
            raise IllegalOrder(Problem("support_self"))
        if order.dest is None:
            if not gm.can_reach(unit.kind, unit.location, target.province):
                values = {
                    "unit": str(unit),
                    "target": str(target),
                    "place": name(gm, target.province),
                }
                raise IllegalOrder(Problem("support_hold_unreachable", values))
            return _new(Support, (unit, target, None))  # unit_ref(unit), unit_ref(target)
        dest = order.dest.partition("/")[0]  # gm.province_of, without a call
        if dest == unit.province:
            raise IllegalOrder(Problem("support_own_place"))
        if dest in self.closed:
            raise IllegalOrder(closed_message(gm, dest))
        # gm.can_reach, without its call where it holds (most supports): the tables it
        # reads first, and the call only where they say no.
        moves = gm.army_moves
        reachable = (
            (unit.location, dest) in gm.fleet_reach
            if unit.kind == FLEET
            else unit.location in moves and dest in moves[unit.location]
        )
        if not reachable and not gm.can_reach(unit.kind, unit.location, dest):
            values = {"unit": str(unit), "place": name(gm, dest)}
            raise IllegalOrder(Problem("support_move_unreachable", values))
        # The supported move must be one the supported unit could make (4.E.1 d). A fleet
        # cannot both support and convoy, so the supporter's own sea is no convoy route.
        # The coast may be left out of a support; written, it must be reachable (4.B.4 d).
        if target.kind == FLEET:
            written = self._fleet_destination(unit, target, dest, order.dest.partition("/")[2])
            return _new(Support, (unit, target, written))
        # An army supported into a place it borders moves there by land, as
        # move_destination says, here without the call (most supports of a phase).
        if target.kind == ARMY and dest in gm.army_moves[target.province]:
            return _new(Support, (unit, target, dest))
        exclude = unit.province if unit.kind == FLEET else None
        try:
            self.move_destination(target, dest, exclude_sea=exclude)
        except IllegalOrder as e:
            why: dict[str, Value] = {
                "target": str(target),
                "place": name(gm, dest),
                "why": e.problem,
            }
            raise IllegalOrder(Problem("supported_cannot_move", why)) from None
        return _new(Support, (unit, target, dest))

    def _fleet_destination(self, unit: Unit, target: Unit, dest: str, coast: str) -> str:
        """Where the supported fleet `target` may move in `dest` (with `coast` written):
        the support's destination, or IllegalOrder."""
        gm = self.gm
        reach = gm.fleet_reaches(target.location, dest)
        coasts = gm.provinces[dest].coasts
        if coast not in coasts:
            coast = ""  # an irrelevant coast is ignored (4.B.6 b)
        written = f"{dest}/{coast}" if coast else dest
        checked = self.rules.coast_in_support != "ignored"  # 4.B.4 e ignores it
        if not reach or (coast and checked and written not in reach):
            values = {"target": str(target), "place": name(gm, written)}
            raise IllegalOrder(Problem("supported_fleet_cannot_move", values))
        if coasts:  # the coast may be left out of a support, or not (4.B.4)
            own = target.power == unit.power
            try:
                written = support_coast(gm, dest, coast, reach, self.rules, own)
            except CoastError as e:
                raise IllegalOrder(e.problem) from None
        return written

    # -- convoy ---------------------------------------------------------------------------
    def _convoy(self, unit: Unit, order: Convoy) -> Convoy:
        gm = self.gm
        if unit.kind != FLEET or not gm.convoys_at(unit.province):
            raise IllegalOrder(Problem("convoy_not_fleet_at_sea"))
        army = self.position.unit_in(order.army.province)
        if army is None:
            place = name(gm, order.army.province)
            raise IllegalOrder(Problem("convoy_no_unit", {"place": place}))
        if army.kind != ARMY:
            raise IllegalOrder(Problem("convoy_not_army"))
        dest = gm.province_of(order.dest)
        if dest in self.closed:
            raise IllegalOrder(closed_message(gm, dest))
        if gm.provinces[dest].kind == SEA or dest == army.province:
            raise IllegalOrder(Problem("convoy_bad_destination", {"place": name(gm, dest)}))
        if gm.provinces[dest].kind == LAND or gm.provinces[army.province].kind == LAND:
            raise IllegalOrder(Problem("convoy_not_coastal"))
        if not sea_on_route(gm, unit.province, army.province, dest, self.fleet_seas):
            values = {
                "unit": str(unit),
                "origin": name(gm, army.province),
                "dest": name(gm, dest),
            }
            raise IllegalOrder(Problem("convoy_off_route", values))
        return Convoy(unit_ref(unit), unit_ref(army), dest)


def closed_message(gm: GameMap, province: str) -> Problem:
    """Why no unit may enter `province` now (a variant's closed provinces)."""
    names = tuple(gm.powers[p].name for p in sorted(gm.neutral_powers))
    return Problem("province_closed", {"place": name(gm, province), "neutrals": names})


def fleet_destination(gm: GameMap, source: str, written: str, rules: Rules = DEFAULT_RULES) -> str:
    """The location a fleet at `source` moves to when ordered to `written` (DATC 4.B)."""
    prov, _, coast = written.partition("/")
    reach = gm.fleet_reaches(source, prov)
    if gm.provinces[prov].kind == LAND:
        raise IllegalOrder(Problem("fleet_inland", {"place": name(gm, prov)}))
    if not reach:
        places = {"origin": name(gm, source), "place": name(gm, prov)}
        raise IllegalOrder(Problem("fleet_unreachable", places))
    coasts = gm.provinces[prov].coasts
    if not coasts:
        return prov  # a coast written for a one-coast province is ignored (4.B.6 b)
    try:  # a coast missing or out of reach (4.B.1-4.B.3; an unknown one is ignored, 4.B.6 b)
        return move_coast(gm, source, prov, coast if coast in coasts else "", reach, rules)
    except CoastError as e:
        raise IllegalOrder(e.problem) from None
