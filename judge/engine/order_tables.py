"""A movement phase's orders as the decisions of DATC section 5 read them (movement.py).

Who moves where (and who meets head to head), which supports and convoys match the
order they name, which fleets convoy each army and which moves go by convoy, and the
tables the rule options of DATC 4.A change: all settled once, when the orders are set
up, so the decisions themselves stay as fast as under the DATC's preferences.
"""

from __future__ import annotations

from . import paradox
from .board import ARMY, Position, Unit
from .convoy import seas_on_routes, seas_on_simple_routes
from .geography import GameMap
from .orders import Convoy, Move, Order, Support
from .rules import Rules


class OrderTables:
    """One movement phase's orders in tables. Keys are province keys of the ordered
    units.

    `by_land`: armies that take the land route because their convoy failed (4.A.3 c and
    Alexander IV.5.e)."""

    # Slots: the decisions read these attributes thousands of times a phase, and an
    # instance dict of this many keys is measurably slower to read (about 10%).
    __slots__ = (
        "gm",
        "rules",
        "unit",
        "order",
        "moves",
        "target",
        "moves_to",
        "convoyed",
        "convoyers",
        "whole_route",
        "hold_support",
        "support_into",
        "move_support",
        "opponent",
        "void",
        "by_land",
        "route_pending",
        "supports",
        "convoys",
        "convoy_orders",
        "prevent_partner",
        "cut_from_target",
        "shielded",
    )

    def __init__(
        self,
        position: Position,
        orders: dict[str, Order],
        rules: Rules,
        by_land: frozenset[str],
    ) -> None:
        gm: GameMap = position.game_map
        self.gm = gm
        self.rules = rules
        self.unit: dict[str, Unit] = position.unit_table()
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

        supports, convoys = self._sort_orders()
        self._match_supports(supports)
        self._match_convoys(convoys)
        self._choose_routes()
        self._apply_options()

    # -- setting up the orders ----------------------------------------------------------
    def _sort_orders(self) -> tuple[list[tuple[str, Support]], list[tuple[str, Convoy]]]:
        """Moves into `target` and `moves_to`; the supports and convoys, to be matched."""
        target, moves_to, moves = self.target, self.moves_to, self.moves
        supports: list[tuple[str, Support]] = []
        convoys: list[tuple[str, Convoy]] = []
        for p, o in self.order.items():
            # `type() is`, not isinstance: twice as fast, on every order of every phase.
            if type(o) is Move:
                moves[p] = o
                dest = o.dest.partition("/")[0]
                target[p] = dest
                if dest in moves_to:
                    moves_to[dest].append(p)
                else:
                    moves_to[dest] = [p]
            elif type(o) is Support:
                supports.append((p, o))
            elif type(o) is Convoy:
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
            # the province (gm.province_of), read without a call on every support
            self.support_into[p] = o.dest.partition("/")[0] if o.dest else None
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
        army_moves = self.gm.army_moves  # `in` then `[]`: a read-only view's get() costs more
        for p, dest in target.items():
            move = moves[p]
            if (
                p not in army_moves
                or dest not in army_moves[p]
                or p in self.convoyers
                or move.via_convoy
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
