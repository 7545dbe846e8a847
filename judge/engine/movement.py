"""Movement resolution: the decisions of DATC section 5.

Each legal order of a movement phase gets one decision: MOVE (moves / fails) for a
move, SUPPORT (given / cut) for a support, DISLODGE (sustains / dislodged) for a
convoying fleet. The numeric decisions (ATTACK, HOLD, PREVENT and DEFEND STRENGTH) and
PATH are computed from them when asked. Decisions are made on demand, recursively; a
decision that depends on itself is first guessed both ways (the method of DATC 5.D and
Kruijswijk's "The Math of Adjudication"): if both guesses give the same outcome it is
the outcome; otherwise the dependency cycle is a circular movement (all its moves
succeed) or a convoy paradox, settled by the Szykman rule (DATC 4.A.2 d): the convoyed
armies of the paradox fail and have no effect on the place they were ordered to.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import ARMY, Position, Unit
from .convoy import seas_on_routes
from .geography import GameMap
from .orders import Convoy, Move, Order, Support

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


@dataclass(frozen=True)
class MovementOutcome:
    """What happened to each unit (keyed by the province it started in)."""

    moved: frozenset[str]  # provinces whose unit moved
    dislodged: dict[str, str]  # province -> province the dislodging unit came from
    dislodged_by_convoy: frozenset[str]  # dislodged provinces whose attacker came by convoy
    cut: frozenset[str]  # provinces whose support was cut (and not dislodged)
    void: frozenset[str]  # supports and convoys that did not match, provinces
    no_route: frozenset[str]  # convoyed moves without any complete ordered route
    disrupted: frozenset[str]  # convoyed moves whose every route was broken, or paradox
    contested: frozenset[str]  # provinces left empty by a standoff: no retreat there


class _Adjudicator:
    """One movement phase's decisions. Keys are province keys of the ordered units."""

    def __init__(self, position: Position, orders: dict[str, Order]) -> None:
        gm: GameMap = position.game_map
        self.gm = gm
        self.unit: dict[str, Unit] = dict(position.occupied)
        self.order = orders  # province -> legal order (every unit has one)
        self.target: dict[str, str] = {}  # mover -> destination province
        self.moves_to: dict[str, list[str]] = {}  # destination -> movers
        self.convoyed: set[str] = set()  # movers going by convoy
        self.convoyers: dict[str, list[str]] = {}  # mover -> seas with matching convoys
        self.hold_support: dict[str, list[str]] = {}
        self.move_support: dict[str, list[str]] = {}
        self.opponent: dict[str, str] = {}  # head-to-head partner
        self.void: set[str] = set()
        self.paradox: set[str] = set()  # convoyed moves failed by the Szykman rule

        target, moves_to = self.target, self.moves_to
        supports: list[tuple[str, Support]] = []
        convoys: list[tuple[str, Convoy]] = []
        for p, o in orders.items():
            kind = type(o)
            if kind is Move:
                dest = o.dest.partition("/")[0]
                target[p] = dest
                if dest in moves_to:
                    moves_to[dest].append(p)
                else:
                    moves_to[dest] = [p]
            elif kind is Support:
                supports.append((p, o))
            elif kind is Convoy:
                convoys.append((p, o))
        self.supports = [p for p, _ in supports]
        self.convoys = [p for p, _ in convoys]
        for p, o in supports:
            s = o.supported.province
            so = orders.get(s)
            if o.dest is None:
                if type(so) is Move:
                    self.void.add(p)
                else:
                    self.hold_support.setdefault(s, []).append(p)
            elif (
                type(so) is Move
                and target[s] == o.dest.partition("/")[0]
                and ("/" not in o.dest or o.dest == so.dest)
            ):
                self.move_support.setdefault(s, []).append(p)
            else:
                self.void.add(p)
        for p, o in convoys:
            a = o.army.province
            if type(orders.get(a)) is Move and target[a] == o.dest:
                self.convoyers.setdefault(a, []).append(p)
            else:
                self.void.add(p)
        # Intent to convoy (4.A.3 d) is shown by a legal, matching convoy order of a fleet
        # of the army's power, even one that no ordered route passes through (6.G.6).
        self.convoy_orders = {a: list(seas) for a, seas in self.convoyers.items()}
        for a, seas in list(self.convoyers.items()):
            on_route = seas_on_routes(gm, a, self.target[a], seas)
            for sea in seas:
                if sea not in on_route:
                    self.void.add(sea)
            self.convoyers[a] = [s for s in seas if s in on_route]
        army_moves = gm.army_moves
        for p, dest in target.items():
            if (dest not in army_moves.get(p, ()) or p in self.convoyers) and self._goes_by_convoy(
                p, orders[p]
            ):
                self.convoyed.add(p)
        for p, dest in self.target.items():
            q = self.unit.get(dest) and dest
            if q and self.target.get(q) == p and p not in self.convoyed and q not in self.convoyed:
                self.opponent[p] = q

        self.state: dict[str, int] = {}
        self.result: dict[str, bool] = {}
        self.deps: list[str] = []

    def _goes_by_convoy(self, p: str, order: Move) -> bool:
        """DATC 4.A.3 d: a move between adjacent places goes by convoy only when the
        player said `via convoy` or a fleet of the army's own power is ordered to convoy
        it, and a complete route of convoying fleets is ordered."""
        if self.unit[p].kind != ARMY:
            return False
        adjacent = self.target[p] in self.gm.army_moves[p]
        if not adjacent:
            return True
        if not self.convoyers.get(p):
            return False  # no complete route ordered: the land route (6.G.8)
        power = self.unit[p].power
        return order.via_convoy or any(self.unit[s].power == power for s in self.convoy_orders[p])

    # -- the guessing machinery (Math of Adjudication) ------------------------------------
    def resolve(self, p: str) -> bool:
        state = self.state.get(p, _UNRESOLVED)
        if state == _RESOLVED:
            return self.result[p]
        if state == _GUESSING:
            # Record every read of a guess, even a repeated one: the reader's outcome
            # rests on the guess and must not be taken as final.
            self.deps.append(p)
            return self.result[p]
        mark = len(self.deps)
        self.result[p], self.state[p] = False, _GUESSING
        first = self._decide(p)
        if len(self.deps) == mark:
            if self.state[p] != _RESOLVED:
                self.result[p], self.state[p] = first, _RESOLVED
            return self.result[p]
        if self.deps[mark] != p:
            # Depends on a guess made further up: part of a larger cycle.
            self.deps.append(p)
            self.result[p] = first
            return first
        for q in self.deps[mark:]:
            self.state[q] = _UNRESOLVED
        del self.deps[mark:]
        self.result[p], self.state[p] = True, _GUESSING
        second = self._decide(p)
        if first == second:
            for q in self.deps[mark:]:
                self.state[q] = _UNRESOLVED
            del self.deps[mark:]
            self.result[p], self.state[p] = first, _RESOLVED
            return first
        self._break_cycle(self.deps[mark:])
        del self.deps[mark:]
        return self.resolve(p)

    def _break_cycle(self, cycle: list[str]) -> None:
        """A cycle with no single outcome: convoy paradox (Szykman) or circular movement."""
        armies = {
            self.order[q].army.province  # type: ignore[union-attr]
            for q in cycle
            if type(self.order[q]) is Convoy and q not in self.void
        }
        armies &= self.convoyed
        if armies:
            for q in cycle:
                self.state[q] = _UNRESOLVED
            for a in armies:
                self.paradox.add(a)
                self.result[a], self.state[a] = False, _RESOLVED
            return
        for q in cycle:
            if q in self.target:
                self.result[q], self.state[q] = True, _RESOLVED
            else:
                self.state[q] = _UNRESOLVED

    def _decide(self, p: str) -> bool:
        order = self.order[p]
        if type(order) is Move:
            return self.move_decision(p)
        if type(order) is Support:
            return self.support_decision(p)
        return not self.dislodge_decision(p)  # a convoying fleet: sustains?

    # -- decisions --------------------------------------------------------------------
    def move_decision(self, p: str) -> bool:
        """MOVE: True when the unit in `p` moves."""
        attack = self.attack_strength(p)
        if attack == 0:
            return False
        dest = self.target[p]
        opp = self.opponent.get(p)
        if opp is not None:
            if attack <= self.defend_strength(opp):
                return False
        elif attack <= self.hold_strength(dest):
            return False
        return all(attack > self.prevent_strength(q) for q in self.moves_to[dest] if q != p)

    def support_decision(self, p: str) -> bool:
        """SUPPORT: True when the support of the unit in `p` is given (not cut)."""
        if p in self.void:
            return False
        order = self.order[p]
        into = self.gm.province_of(order.dest) if order.dest else None  # type: ignore[union-attr]
        power = self.unit[p].power
        for q in self.moves_to.get(p, ()):
            # An attack from the place the support goes into never cuts it (4.A.4 a).
            if q == into or self.unit[q].power == power:
                continue
            if self.path_decision(q):
                return False
        return not self.dislodge_decision(p)

    def dislodge_decision(self, p: str) -> bool:
        """DISLODGE: True when the unit in `p` is dislodged."""
        if p in self.target and self.resolve(p):
            return False
        return any(self.resolve(q) for q in self.moves_to.get(p, ()))

    def path_decision(self, p: str) -> bool:
        """PATH: whether the mover in `p` has a way to its destination."""
        if p not in self.convoyed:
            return True
        if p in self.paradox:
            return False
        seas = self.convoyers.get(p)
        if not seas:
            return False
        gm = self.gm
        dest = self.target[p]
        frontier = [s for s in seas if p in gm.sea_neighbours(s)]
        seen: set[str] = set()
        allowed = set(seas)
        while frontier:
            sea = frontier.pop()
            if sea in seen:
                continue
            seen.add(sea)
            if not self.resolve(sea):
                continue
            neighbours = gm.sea_neighbours(sea)
            if dest in neighbours:
                return True
            frontier.extend(s for s in neighbours if s in allowed and s not in seen)
        return False

    # -- strengths ----------------------------------------------------------------------
    def _supports(self, p: str, exclude_power: str | None = None) -> int:
        n = 0
        for s in self.move_support.get(p, ()):
            if exclude_power is not None and self.unit[s].power == exclude_power:
                continue
            if self.resolve(s):
                n += 1
        return n

    def attack_strength(self, p: str) -> int:
        if not self.path_decision(p):
            return 0
        dest = self.target[p]
        defender = self.unit.get(dest)
        if defender is None or (
            dest in self.target and self.opponent.get(p) != dest and self.resolve(dest)
        ):
            return 1 + self._supports(p)
        if defender.power == self.unit[p].power:
            return 0
        return 1 + self._supports(p, exclude_power=defender.power)

    def hold_strength(self, province: str) -> int:
        if province not in self.unit:
            return 0
        if province in self.target:
            return 0 if self.resolve(province) else 1
        return 1 + sum(1 for s in self.hold_support.get(province, ()) if self.resolve(s))

    def prevent_strength(self, p: str) -> int:
        if not self.path_decision(p):
            return 0
        opp = self.opponent.get(p)
        if opp is not None and self.resolve(opp):
            return 0
        return 1 + self._supports(p)

    def defend_strength(self, p: str) -> int:
        return 1 + self._supports(p)

    # -- the outcome ------------------------------------------------------------------
    def _standoffs(self, moved: frozenset[str], dislodged: dict[str, str]) -> frozenset[str]:
        """Places left empty by a standoff, where no unit may retreat. Only needed when
        some unit was dislodged."""
        occupied_after = {
            self.target[p] if p in moved else p for p in self.unit if p not in dislodged
        }
        contested = set()
        for dest, movers in self.moves_to.items():
            if dest in occupied_after:
                continue
            for q in movers:
                if q in moved or not self.path_decision(q):
                    continue
                if self.opponent.get(q) == dest and dest in moved and q in dislodged:
                    continue  # lost a head-to-head battle: no standoff in the winner's place
                contested.add(dest)
        return frozenset(contested)

    def outcome(self) -> MovementOutcome:
        void = self.void
        for group in (self.target, self.supports, self.convoys):
            for p in group:
                if p not in void:
                    self.resolve(p)
        moved = frozenset(p for p in self.target if self.result[p])
        dislodged: dict[str, str] = {}
        by_convoy = set()
        for dest, movers in self.moves_to.items():
            if dest in self.unit and dest not in moved:
                for q in movers:
                    if q in moved:
                        dislodged[dest] = q
                        if q in self.convoyed:
                            by_convoy.add(dest)
        cut = frozenset(
            p
            for p, o in self.order.items()
            if type(o) is Support
            and p not in self.void
            and p not in dislodged
            and not self.result[p]
        )
        no_route = set()
        disrupted = set()
        for p in self.convoyed:
            if p in moved:
                continue
            if p in self.paradox:
                disrupted.add(p)
            elif not self.convoyers.get(p):
                no_route.add(p)
            elif not self.path_decision(p):
                disrupted.add(p)
        contested = self._standoffs(moved, dislodged) if dislodged else frozenset()
        return MovementOutcome(
            moved=moved,
            dislodged=dislodged,
            dislodged_by_convoy=frozenset(by_convoy),
            cut=cut,
            void=frozenset(self.void),
            no_route=frozenset(no_route),
            disrupted=frozenset(disrupted),
            contested=frozenset(contested),
        )


def resolve_movement(position: Position, orders: dict[str, Order]) -> MovementOutcome:
    """Adjudicate legal orders (province -> order; every unit ordered, Hold by default)."""
    return _Adjudicator(position, orders).outcome()
