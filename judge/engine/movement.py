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
still bounces (4.A.7). Every one is settled once, when the orders are set up in
tables (order_tables.py), so the decisions themselves stay as fast as under the DATC's
preferences.
"""

from __future__ import annotations

from typing import NamedTuple

from . import paradox
from .board import Position
from .order_tables import OrderTables
from .orders import Convoy, Move, Order, Support
from .rules import DEFAULT_RULES, Rules

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_NO_ARMIES: frozenset[str] = frozenset()


class MovementOutcome(NamedTuple):
    """What happened to each unit (keyed by the province it started in). A NamedTuple,
    as the orders are: as immutable as a frozen dataclass, made at a fraction of its
    cost (once a phase), and no code generated for it at each start."""

    moved: frozenset[str]  # provinces whose unit moved
    dislodged: dict[str, str]  # province -> province the dislodging unit came from
    dislodged_by_convoy: frozenset[str]  # dislodged provinces whose attacker came by convoy
    cut: frozenset[str]  # provinces whose support was cut (and not dislodged)
    void: frozenset[str]  # supports and convoys that did not match, provinces
    no_route: frozenset[str]  # convoyed moves without any complete ordered route
    disrupted: frozenset[str]  # convoyed moves whose every route was broken, or paradox
    contested: frozenset[str]  # provinces left empty by a standoff: no retreat there


class _Adjudicator(OrderTables):
    """One movement phase's decisions, on its orders' tables (order_tables.py).

    `fixed_path` and `all_hold`: what an earlier pass settled about paradoxes
    (paradox.second_look)."""

    __slots__ = (  # as OrderTables's
        "given_fixed",
        "fixed_path",
        "paradox",
        "all_hold",
        "cores",
        "state",
        "result",
        "deps",
    )

    def __init__(
        self,
        position: Position,
        orders: dict[str, Order],
        rules: Rules = DEFAULT_RULES,
        by_land: frozenset[str] = _NO_ARMIES,
        fixed_path: dict[str, bool] | None = None,
        all_hold: frozenset[str] = _NO_ARMIES,
    ) -> None:
        super().__init__(position, orders, rules, by_land)
        # Paradox rules (paradox.py): armies whose PATH a rule has settled, and what
        # this pass broke by the Szykman rule, for a second look.
        self.given_fixed: dict[str, bool] = fixed_path or {}  # never changed
        self.fixed_path: dict[str, bool] = dict(fixed_path) if fixed_path else {}
        self.paradox: set[str] = {a for a, ok in self.fixed_path.items() if not ok}
        self.all_hold = all_hold
        self.cores: list[frozenset[str]] = []

        self.state: dict[str, int] = {}
        self.result: dict[str, bool] = {}
        self.deps: list[str] = []

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
            if type(o := self.order[q]) is Convoy and q not in self.void
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
        for q in self.moves_to[dest]:  # noqa: SIM110  # a loop, not all(): no generator per move
            if q != p and attack <= self.prevent_strength(q):
                return False
        return True

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
        for q in self.moves_to.get(p, ()):  # noqa: SIM110  # a loop, not any(): no generator
            if self.resolve(q):
                return True
        return False

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
        bordering = self.gm.sea_adjacent  # sea_neighbours, without a call per sea
        dest = self.target[p]
        frontier = [s for s in seas if p in bordering[s]]
        seen: set[str] = set()
        allowed = set(seas)
        while frontier:
            sea = frontier.pop()
            if sea in seen:
                continue
            seen.add(sea)
            if not self.resolve(sea):
                continue
            neighbours = bordering[sea]
            if dest in neighbours:
                return True
            frontier.extend([s for s in neighbours if s in allowed and s not in seen])
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
        strength = 1  # a loop, not sum() of a generator: asked for most moves of a phase
        for s in self.hold_support.get(province, ()):
            if self.resolve(s):
                strength += 1
        return strength

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
        moved = frozenset([p for p in self.target if self.result[p]])
        dislodged: dict[str, str] = {}
        by_convoy = set()
        for dest, movers in self.moves_to.items():
            if dest in self.unit and dest not in moved:
                for q in movers:
                    if q in moved:
                        dislodged[dest] = q
                        if q in self.convoyed:
                            by_convoy.add(dest)
        cut = {
            p
            for p in self.supports
            if p not in self.void and p not in dislodged and not self.result[p]
        }
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
            cut=frozenset(cut),
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
