"""Movement resolution: the decisions of DATC section 5.

Each legal order of a movement phase gets one decision: MOVE (moves / fails) for a
move, SUPPORT (given / cut) for a support, DISLODGE (sustains / dislodged) for a
convoying fleet. The numeric decisions (ATTACK, HOLD, PREVENT and DEFEND STRENGTH) and
PATH are computed from them when asked. Decisions are made on demand, recursively; a
decision that depends on itself is first guessed both ways (the method of DATC 5.D and
Kruijswijk's "The Math of Adjudication"): if both guesses give the same outcome it is
the outcome; otherwise the dependency cycle is a circular movement (all its moves
succeed) or a convoy paradox, settled by the game's paradox rule (paradox.py; by
default Szykman, DATC 4.A.2 d: the convoyed armies of the paradox fail and have no
effect on the place they were ordered to).

The rule options of DATC 4.A (rules.py) change single decisions: which routes count
(4.A.1), land or sea to an adjacent place (4.A.3), whether a convoyed attack from the
supported place cuts (4.A.4), written convoy paths (4.A.6) and whether a dislodged unit
still bounces (4.A.7). Every one is settled once, when the orders are set up, so the
decisions themselves stay as fast as under the DATC's preferences.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import paradox
from .board import ARMY, Position, Unit
from .convoy import seas_on_routes, seas_on_simple_routes
from .geography import GameMap
from .orders import Convoy, Move, Order, Support
from .rules import DEFAULT_RULES, Rules

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_NO_ARMIES: frozenset[str] = frozenset()


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
    """One movement phase's decisions. Keys are province keys of the ordered units.

    `by_land`: armies that take the land route because their convoy failed (4.A.3 c and
    Alexander IV.5.e). `fixed_path` and `all_hold`: what an earlier pass settled about
    paradoxes (paradox.second_look)."""

    def __init__(
        self,
        position: Position,
        orders: dict[str, Order],
        rules: Rules = DEFAULT_RULES,
        by_land: frozenset[str] = _NO_ARMIES,
        fixed_path: dict[str, bool] | None = None,
        all_hold: frozenset[str] = _NO_ARMIES,
    ) -> None:
        gm: GameMap = position.game_map
        self.gm = gm
        self.rules = rules
        self.unit: dict[str, Unit] = dict(position.occupied)
        self.order = orders  # province -> legal order (every unit has one)
        self.moves: dict[str, Move] = {}  # mover -> its order
        self.target: dict[str, str] = {}  # mover -> destination province
        self.moves_to: dict[str, list[str]] = {}  # destination -> movers
        self.convoyed: set[str] = set()  # movers going by convoy
        self.convoyers: dict[str, list[str]] = {}  # mover -> seas with matching convoys
        self.whole_route: dict[str, tuple[str, ...]] = {}  # mover -> fleets that must all hold
        self.hold_support: dict[str, list[str]] = {}
        self.support_into: dict[str, str | None] = {}  # supporter -> where it supports
        self.move_support: dict[str, list[str]] = {}
        self.opponent: dict[str, str] = {}  # head-to-head partner
        self.void: set[str] = set()
        self.by_land = by_land
        self.route_pending: set[str] = set()  # armies whose route waits on their convoy
        # Paradox rules (paradox.py): armies whose PATH a rule has settled, and what
        # this pass broke by the Szykman rule, for a second look.
        self.given_fixed: dict[str, bool] = fixed_path or {}  # never changed
        self.fixed_path: dict[str, bool] = dict(fixed_path) if fixed_path else {}
        self.paradox: set[str] = {a for a, ok in self.fixed_path.items() if not ok}
        self.all_hold = all_hold
        self.cores: list[frozenset[str]] = []

        supports, convoys = self._sort_orders()
        self._match_supports(supports)
        self._match_convoys(convoys)
        self._choose_routes()
        self._apply_options()

        self.state: dict[str, int] = {}
        self.result: dict[str, bool] = {}
        self.deps: list[str] = []

    # -- setting up the orders ----------------------------------------------------------
    def _sort_orders(self) -> tuple[list[tuple[str, Support]], list[tuple[str, Convoy]]]:
        """Moves into `target` and `moves_to`; the supports and convoys, to be matched."""
        target, moves_to, moves = self.target, self.moves_to, self.moves
        supports: list[tuple[str, Support]] = []
        convoys: list[tuple[str, Convoy]] = []
        for p, o in self.order.items():
            if isinstance(o, Move):
                moves[p] = o
                dest = o.dest.partition("/")[0]
                target[p] = dest
                if dest in moves_to:
                    moves_to[dest].append(p)
                else:
                    moves_to[dest] = [p]
            elif isinstance(o, Support):
                supports.append((p, o))
            elif isinstance(o, Convoy):
                convoys.append((p, o))
        self.supports = [p for p, _ in supports]
        self.convoys = [p for p, _ in convoys]
        return supports, convoys

    def _match_supports(self, supports: list[tuple[str, Support]]) -> None:
        """A support counts only for the order it names; otherwise it is void."""
        moves, target = self.moves, self.target
        for p, o in supports:
            s = o.supported.province
            so = moves.get(s)
            self.support_into[p] = self.gm.province_of(o.dest) if o.dest else None
            if o.dest is None:
                if so is not None:
                    self.void.add(p)
                else:
                    self.hold_support.setdefault(s, []).append(p)
            elif (
                so is not None
                and target[s] == o.dest.partition("/")[0]
                and ("/" not in o.dest or o.dest == so.dest)
            ):
                self.move_support.setdefault(s, []).append(p)
            else:
                self.void.add(p)

    def _match_convoys(self, convoys: list[tuple[str, Convoy]]) -> None:
        """Each army's convoying fleets: matching convoy orders on a route (a written
        path and 4.A.1 a narrow them down). Convoy orders that match no move or lie on no
        route are void."""
        target = self.target
        for p, o in convoys:
            a = o.army.province
            if a in target and target[a] == o.dest:
                self.convoyers.setdefault(a, []).append(p)
            else:
                self.void.add(p)
        # Intent to convoy (4.A.3 d) is shown by a legal, matching convoy order of a fleet
        # of the army's power, even one that no ordered route passes through (6.G.6).
        self.convoy_orders = {a: list(seas) for a, seas in self.convoyers.items()}
        if self.rules.convoy_path_specification != "ignored":
            self._follow_written_paths()
        for a, seas in list(self.convoyers.items()):
            on_route = seas_on_routes(self.gm, a, target[a], seas)
            for sea in seas:
                if sea not in on_route:
                    self.void.add(sea)
            self.convoyers[a] = [s for s in seas if s in on_route]
        if self.rules.multi_route_convoy_disruption == "any_route":
            self._count_every_route()

    def _choose_routes(self) -> None:
        """Which moves go by convoy (4.A.3), and so which meet head to head."""
        moves, target = self.moves, self.target
        army_moves = self.gm.army_moves
        for p, dest in target.items():
            move = moves[p]
            if (
                dest not in army_moves.get(p, ()) or p in self.convoyers or move.via_convoy
            ) and self._goes_by_convoy(p, move):
                self.convoyed.add(p)
        for p, dest in target.items():
            q = self.unit.get(dest) and dest
            if q and target.get(q) == p and p not in self.convoyed and q not in self.convoyed:
                self.opponent[p] = q

    def _apply_options(self) -> None:
        """The tables the 4.A.2, 4.A.4 and 4.A.7 options change."""
        rules, target = self.rules, self.target
        # 4.A.7: whose failed move no longer bounces anyone in the place its attacker
        # left. b (DATC): a unit that lost a head-to-head battle; a: any unit dislodged
        # by the unit it was moving against, by land or by convoy.
        self.prevent_partner = self.opponent
        if rules.dislodged_unit_affects_attacker_origin == "never":
            self.prevent_partner = {
                p: dest for p, dest in target.items() if dest in target and target[dest] == p
            }
        # 4.A.4: an attack from the place a support goes into cuts it only if it came by
        # convoy, and then only under choice b.
        self.cut_from_target: set[str] = (
            self.convoyed if rules.convoyed_attack_on_supporter_cuts else set()
        )
        # 4.A.2 a-c: supports the 1971, 1982 or 2000 rule keeps from certain convoyed
        # armies (support province -> those armies).
        self.shielded: dict[str, frozenset[str]] = {}
        if rules.convoy_paradox in paradox.SUPPORT_RULES:
            self.shielded = paradox.shielded_supports(self)

    # -- the convoy options ---------------------------------------------------------------
    def _follow_written_paths(self) -> None:
        """DATC 4.A.6 b, c: a move with a written path goes only along it, through
        fleets ordered to convoy it; under c a move without a path has no convoy route.
        Convoy orders off the route are left unused (void)."""
        required = self.rules.convoy_path_specification == "required"
        for a, seas in list(self.convoyers.items()):
            path = self.moves[a].path
            if path:
                route = list(path) if all(s in seas for s in path) else []
            elif required:
                route = []
            else:
                continue
            self.void.update(s for s in seas if s not in route)
            if route:
                self.convoyers[a] = route
                self.whole_route[a] = tuple(route)  # one route: broken if any fleet is
            else:
                del self.convoyers[a]

    def _count_every_route(self) -> None:
        """DATC 4.A.1 a: a convoy is disrupted when any of its routes is. As the DPTG
        has it (6.F.10, 6.F.20), foreign fleets are left out when the army's own fleets
        make a route on their own."""
        for a, seas in self.convoyers.items():
            if a in self.whole_route:
                continue  # a written path is the only route
            dest, power = self.target[a], self.unit[a].power
            own = [s for s in seas if self.unit[s].power == power]
            route = seas_on_simple_routes(self.gm, a, dest, own)
            if not route:
                route = seas_on_simple_routes(self.gm, a, dest, seas)
            self.whole_route[a] = tuple(sorted(route))

    def route_fleets(self, a: str) -> tuple[str, ...] | list[str]:
        """The fleets the army in `a` is convoyed by: those whose dislodgement counts."""
        return self.whole_route.get(a) or self.convoyers.get(a, [])

    def _goes_by_convoy(self, p: str, order: Move) -> bool:
        """An army to a place it does not border always goes by convoy; to one it
        borders, as 4.A.3 says. A fleet never does."""
        if self.unit[p].kind != ARMY:
            return False
        if self.target[p] not in self.gm.army_moves[p]:
            return True
        return self._convoyed_to_adjacent(p, order)

    def _convoyed_to_adjacent(self, p: str, order: Move) -> bool:
        """DATC 4.A.3: whether an army ordered to a place it borders goes by convoy."""
        rule = self.rules.convoy_to_adjacent_place
        routed = bool(self.convoyers.get(p))  # a complete route of convoy orders
        if rule == "explicit_via":  # e: by convoy only with VIA, and then only by convoy
            return order.via_convoy
        if not routed:
            return False  # no complete route ordered: the land route (6.G.8)
        if rule == "2000_intent":  # d: VIA, or a fleet of the army's own power convoys it
            power = self.unit[p].power
            return order.via_convoy or any(
                self.unit[s].power == power for s in self.convoy_orders[p]
            )
        if rule == "convoy_route":  # a: the convoy route whenever there is one
            return True
        q = self.target[p]
        opposite = q in self.unit and self.target.get(q) == p
        if rule == "land_unless_opposite":  # b
            return opposite
        # c: by convoy when the unit there moves the other way and the convoy holds;
        # Alexander IV.5.e: by convoy with VIA, by land again if every route is broken.
        # Whether the convoy holds is settled by a first pass (resolve_movement).
        wants = opposite if rule == "land_unless_opposite_and_convoy" else order.via_convoy
        if wants:
            self.route_pending.add(p)
        return wants and p not in self.by_land

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
        """A cycle with no single outcome: convoy paradox or circular movement."""
        armies = {
            o.army.province
            for q in cycle
            if isinstance(o := self.order[q], Convoy) and q not in self.void
        }
        # An army whose PATH a paradox rule has already settled no longer hangs on its
        # fleets: they are only in a cycle of some other kind.
        armies = {a for a in armies if a in self.convoyed and a not in self.fixed_path}
        if armies:
            for q in cycle:
                self.state[q] = _UNRESOLVED
            if paradox.holds_all(self.rules, armies, self.all_hold):
                # 'All Hold' (4.A.2 e, and the fallback of a and c): every move of
                # the paradox fails, the convoyed armies with no effect.
                for q in cycle:
                    if q in self.target:
                        self.result[q], self.state[q] = False, _RESOLVED
            else:
                self.cores.append(frozenset(armies))
            for a in armies:  # under either rule the convoyed armies fail, with no effect
                self.fixed_path[a] = False
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
        into = self.support_into[p]
        power = self.unit[p].power
        shield = self.shielded.get(p) if self.shielded else None
        for q in self.moves_to.get(p, ()):
            # An attack from the place the support goes into does not cut it, unless
            # it came by convoy and the game takes choice b of 4.A.4.
            if (q == into and q not in self.cut_from_target) or self.unit[q].power == power:
                continue
            if shield is not None and q in shield:
                continue  # the 1971, 1982 or 2000 paradox rule (4.A.2 a-c)
            if self.path_decision(q):
                return False
        if shield is not None:
            # Those rules also take precedence over the dislodge rule (6.F.17): the
            # army they shield from does not take the support away by dislodging.
            return not any(self.resolve(q) for q in self.moves_to[p] if q not in shield)
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
        fixed = self.fixed_path.get(p)
        if fixed is not None:
            return fixed  # settled by a paradox rule
        return self.route_open(p)

    def route_open(self, p: str) -> bool:
        """Whether the convoy of the army in `p` holds: a route of fleets that sustain,
        or, where every route counts (4.A.1 a, a written path), all of them sustain."""
        seas = self.convoyers.get(p)
        if not seas:
            return False
        whole = self.whole_route.get(p)
        if whole is not None:
            return all(self.resolve(s) for s in whole)
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
        # No effect on the place its attacker came from, for a unit dislodged by it
        # (4.A.7): a head-to-head loser, or under choice a any unit that failed while
        # the unit it moved against came the other way (DATC 5.B.6).
        opp = self.prevent_partner.get(p)
        if opp is not None and self.resolve(opp) and (p in self.opponent or not self.resolve(p)):
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
                if self.prevent_partner.get(q) == dest and dest in moved and q in dislodged:
                    continue  # dislodged from where it was going: no standoff there (4.A.7)
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


def resolve_movement(
    position: Position, orders: dict[str, Order], rules: Rules = DEFAULT_RULES
) -> MovementOutcome:
    """Adjudicate legal orders (province -> order; every unit ordered, Hold by default)
    under the game's rules."""
    adj, outcome = _adjudicate(position, orders, rules, _NO_ARMIES)
    if adj.route_pending:
        # 4.A.3 c, Alexander IV.5.e: the convoy is adjudicated first, as if taken; an
        # army whose convoy fails goes by land. Which way it goes moves no other unit,
        # so the convoys come out the same in the second pass (DATC 5.B.10).
        by_land = frozenset(p for p in adj.route_pending if not adj.path_decision(p))
        if by_land:
            adj, outcome = _adjudicate(position, orders, rules, by_land)
    return outcome


def _adjudicate(
    position: Position, orders: dict[str, Order], rules: Rules, by_land: frozenset[str]
) -> tuple[_Adjudicator, MovementOutcome]:
    """One pass, and more while the paradox rule asks for them: the DPTG and Alexander
    rules judge a Szykman resolution after the fact and may settle a paradox otherwise."""
    adj = _Adjudicator(position, orders, rules, by_land)
    outcome = adj.outcome()
    while adj.cores:
        again = paradox.second_look(adj)
        if again is None:
            break
        fixed, all_hold = again
        adj = _Adjudicator(position, orders, rules, by_land, fixed, all_hold)
        outcome = adj.outcome()
    return adj, outcome
