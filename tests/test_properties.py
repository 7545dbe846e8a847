"""Property-based tests of the rules engine (hypothesis).

Random positions on the standard map with random orders drawn from what each unit could
be ordered, random garbage order text, and short random games from the opening
position. Every run is derandomized and database-free, so CI sees the same examples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from judge.engine.adjudication import Adjudication, adjudicate
from judge.engine.board import Position, Unit, starting_position
from judge.engine.phase import Phase
from judge.variants.maps import load_map

GM = load_map("standard")
POWERS = tuple(sorted(GM.powers))
PLACEABLE = tuple(sorted(k for k, p in GM.provinces.items() if p.kind != "impassable"))
COASTAL = frozenset(k for k, p in GM.provinces.items() if p.kind == "coast")
SUPPLY_CENTERS = tuple(sorted(GM.supply_centers))
CODES = {"ok", "bounce", "cut", "dislodged", "void", "no convoy", "disrupted"}
RETREAT_CODES = {"ok", "bounce", "void", "disband"}
ADJUSTMENT_CODES = {"ok", "void", "disband"}

HOME_CENTERS = {p: frozenset(pw.home_centers) for p, pw in GM.powers.items()}

PROFILE = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}

Draw = Callable[[st.SearchStrategy], object]


# -- helpers --------------------------------------------------------------------------


def unit_key(u: Unit) -> tuple[str, str, str]:
    return (u.power, u.kind, u.location)


def result_key(r) -> tuple:
    return (r.power, r.given, r.order, r.result, r.error or "", r.notes)


def occupied_provinces(units) -> Counter:
    return Counter(u.province for u in units)


def neighbours(unit: Unit) -> list[str]:
    """Locations the unit could move to by its own adjacency (sorted, deterministic)."""
    if unit.kind == "A":
        return sorted(GM.army_moves[unit.province])
    return sorted(GM.fleet_moves[unit.location])


def fleet_seas(units) -> frozenset[str]:
    return frozenset(u.province for u in units if u.kind == "F" and GM.is_sea(u.province))


def sea_component(start: str, seas: frozenset[str]) -> set[str]:
    """The seas among `seas` connected to `start` (itself one of them)."""
    seen = {start}
    frontier = [start]
    while frontier:
        sea = frontier.pop()
        for s in GM.sea_neighbours(sea):
            if s in seas and s not in seen:
                seen.add(s)
                frontier.append(s)
    return seen


def convoy_destinations(origin: str, seas: frozenset[str]) -> list[str]:
    """Coastal provinces an army in `origin` could reach by a chain of the fleets `seas`."""
    if origin not in COASTAL:
        return []
    out: set[str] = set()
    for sea in seas:
        if origin in GM.sea_neighbours(sea):
            for s in sea_component(sea, seas):
                out |= GM.sea_neighbours(s)
    return sorted(p for p in out if p in COASTAL and p != origin)


# -- strategies: positions ----------------------------------------------------------------


def show(position: Position) -> str:
    """A readable position for failure reports (the GameMap's repr is pages long)."""
    units = ", ".join(f"{u.power[:3]} {u}" for u in position.units)
    out = f"{position.phase} [{units}]"
    if position.dislodged:
        out += (
            " dislodged ["
            + ", ".join(f"{d.unit} -> {d.retreats}" for d in position.dislodged)
            + "]"
        )
    return out


class Case(tuple):
    """(position, orders, ...) that hypothesis prints readably."""

    def __repr__(self) -> str:
        return (
            "Case(" + ", ".join(show(x) if isinstance(x, Position) else repr(x) for x in self) + ")"
        )


PROVINCE_NEIGHBOURS = {
    p: sorted(
        (
            set(GM.army_moves.get(p, ()))
            | {GM.province_of(x) for loc in GM.fleet_locations(p) for x in GM.fleet_moves[loc]}
        )
        - {p}
    )
    for p in PLACEABLE
}


def draw_provinces(draw: Draw, min_size: int, max_size: int) -> list[str]:
    """Distinct provinces: scattered over the map, or (more often) a cluster grown from
    one province, so that units meet and the resolver has work to do."""
    n = draw(st.integers(min_size, max_size))
    if draw(st.integers(0, 3)) == 0:
        return draw(st.lists(st.sampled_from(PLACEABLE), min_size=n, max_size=n, unique=True))
    chosen = [draw(st.sampled_from(PLACEABLE))]
    while len(chosen) < n:
        frontier = sorted({q for p in chosen for q in PROVINCE_NEIGHBOURS[p]} - set(chosen))
        chosen.append(draw(st.sampled_from(frontier)))
    return chosen


def draw_units(draw: Draw, min_size: int = 1, max_size: int = 34) -> tuple[Unit, ...]:
    units = []
    for prov in draw_provinces(draw, min_size, max_size):
        kind = GM.provinces[prov].kind
        power = draw(st.sampled_from(POWERS))
        if kind == "land":
            units.append(Unit(power, "A", prov))
        elif kind == "sea":
            units.append(Unit(power, "F", prov))
        elif draw(st.booleans()):
            units.append(Unit(power, "A", prov))
        else:
            units.append(Unit(power, "F", draw(st.sampled_from(GM.fleet_locations(prov)))))
    return tuple(units)


@st.composite
def movement_positions(draw, max_units: int = 34) -> Position:
    units = draw_units(draw, 1, max_units)
    phase = Phase.parse(draw(st.sampled_from(["S1901M", "F1901M"])))
    return Position(GM, phase, units, dict(HOME_CENTERS))


# -- strategies: orders -------------------------------------------------------------------


def movement_orders(draw: Draw, position: Position) -> dict[str, list[str]]:
    """At most one order per unit (an unordered unit holds), each one the unit could be
    given: holds, moves by its own adjacency, army moves by convoy (with or without
    VIA), supports of neighbours' holds or moves, convoys by fleets at sea of armies next
    to them. Convoys are planned first and supports drawn mostly from the moves actually
    ordered, so that they match often and the resolver has real work to do."""
    units = sorted(position.units, key=lambda u: u.province)
    seas = fleet_seas(units)
    intent = {u.province: draw(st.sampled_from("HMMMSSC")) for u in units}
    moves: dict[str, str] = {}  # province -> destination location
    text: dict[str, str] = {}

    def possible_moves(u: Unit) -> list[tuple[str, bool]]:
        out = [(loc, False) for loc in neighbours(u)]
        if u.kind == "A":
            out += [(p, True) for p in convoy_destinations(u.province, seas)]
        return out

    # Convoys: a fleet at sea carries an army next to it somewhere its chain reaches.
    plans: dict[str, list[str]] = {}  # army province -> planned destinations
    for u in units:
        p = u.province
        if intent[p] != "C" or p not in seas:
            continue
        touches = set().union(*(GM.sea_neighbours(s) for s in sea_component(p, seas)))
        options = [
            (v, dest)
            for v in units
            if v.kind == "A" and v.province in GM.sea_neighbours(p)
            for dest in convoy_destinations(v.province, seas)
            if dest in touches
        ]
        if options:
            v, dest = draw(st.sampled_from(options))
            text[p] = f"{u} C {v} - {dest}"
            plans.setdefault(v.province, []).append(dest)

    for u in units:
        p = u.province
        if intent[p] == "M" or (p in plans and draw(st.integers(0, 3)) > 0):
            if p in plans and draw(st.integers(0, 3)) > 0:
                dest, by_convoy = draw(st.sampled_from(plans[p])), True
            else:
                options = possible_moves(u)
                if not options:
                    continue
                dest, by_convoy = draw(st.sampled_from(options))
            via = (by_convoy or p in plans) and draw(st.booleans())
            moves[p] = dest
            text[p] = f"{u} - {dest}" + (" VIA" if via else "")

    for u in units:
        p = u.province
        if intent[p] == "S" and p not in text:
            ordered, holding, others = [], [], []
            for v in units:
                if v is u:
                    continue
                if GM.can_reach(u.kind, u.location, v.province):
                    holding.append(f"{u} S {v}")  # matches unless v moves
                if v.province in moves:
                    dp = GM.province_of(moves[v.province])
                    if dp != p and GM.can_reach(u.kind, u.location, dp):
                        ordered.append(f"{u} S {v} - {moves[v.province]}")
                for dest, _ in possible_moves(v):
                    dp = GM.province_of(dest)
                    if dp != p and GM.can_reach(u.kind, u.location, dp):
                        others.append(f"{u} S {v} - {dest}")  # any move v could make
            pick = draw(st.integers(0, 9))
            first = ordered if pick < 6 else holding if pick < 8 else others
            for options in (first, ordered, holding, others):
                if options:
                    text[p] = draw(st.sampled_from(options))
                    break
        if p not in text and draw(st.booleans()):
            text[p] = f"{u} H"  # otherwise left unordered: the unit holds by default

    orders: dict[str, list[str]] = {}
    for u in units:
        if u.province in text:
            orders.setdefault(u.power, []).append(text[u.province])
    return orders


def retreat_orders(draw: Draw, position: Position) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for d in position.dislodged:
        choices = [f"{d.unit} R {loc}" for loc in d.retreats] + [f"{d.unit} D", None]
        # Now and then a retreat to the first place it borders, allowed or not.
        choices.append(f"{d.unit} R {neighbours(d.unit)[0]}")
        line = draw(st.sampled_from(choices))
        if line is not None:
            orders.setdefault(d.unit.power, []).append(line)
    return orders


def adjustment_orders(draw: Draw, position: Position) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power in POWERS:
        n = position.adjustment(power)
        lines: list[str] = []
        if n > 0:
            owned = position.centers.get(power, frozenset())
            free = sorted(h for h in HOME_CENTERS[power] if h in owned and not position.unit_in(h))
            options = ["WAIVE"]
            for h in free:
                options.append(f"A {h} B")
                for loc in GM.fleet_locations(h):
                    options.append(f"F {loc} B")
            # Sometimes one more than allowed, or a build somewhere not allowed.
            options.append(f"A {draw(st.sampled_from(SUPPLY_CENTERS))} B")
            k = draw(st.integers(0, n + 1))
            lines = [draw(st.sampled_from(options)) for _ in range(k)]
        elif n < 0:
            own = sorted(position.units_of(power), key=unit_key)
            k = draw(st.integers(0, -n + 1))  # the engine removes any left out
            lines = [f"{draw(st.sampled_from(own))} D" for _ in range(k)]
        if lines:
            orders[power] = lines
    return orders


GARBAGE_WORDS = (
    [*PLACEABLE, "STP/NC", "STP/SC", "SPA/NC", "BUL/EC", "/NC", "(nc)", "nc", "sc"]
    + ["A", "F", "-", "->", "H", "S", "C", "VIA", "R", "D", "B", "WAIVE", "BUILD", "REMOVE"]
    + ["army", "fleet", "supports", "convoys", "to", "holds", "retreat", "disband", "via"]
    + ["convoy", "build", "remove", "waive", "by", "of", "French", "England", "/", "(", ")"]
    + ["Paris", "St Petersburg", "north coast", "Pariz", "", " ", "0", "1901", "\t", ";"]
)
garbage_lines = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(GARBAGE_WORDS), max_size=8).map(" ".join),
    st.lists(st.sampled_from(GARBAGE_WORDS), max_size=6).map("".join),
)


# -- checks shared by the random positions and the random games ---------------------------


def results_of_units(adj: Adjudication) -> dict[tuple[str, str], object]:
    """(power, 'A PAR') -> the one result that names that unit."""
    out: dict[tuple[str, str], object] = {}
    for r in adj.results:
        words = r.order.split()
        key = (r.power, " ".join(words[:2]))
        assert key not in out, f"two results for one unit: {out[key]} and {r}"
        out[key] = r
    return out


def check_movement(
    position: Position,
    orders: Mapping[str, list[str]],
    adj: Adjudication,
    one_order_per_unit: bool = True,
) -> None:
    """Properties 2, 3, 4 and 6 for one adjudicated movement phase. Where a unit may
    have several order lines (garbage among them), the where-it-went check is left out."""
    before = position.units
    after = adj.position.units
    dislodged = [d.unit for d in adj.dislodged]

    # 4: a result for every order given, and only the result codes of Contract 1.
    given = Counter(line for lines in orders.values() for line in lines)
    assert given <= Counter(r.given for r in adj.results), "an order has no result"
    for r in adj.results:
        assert r.result in CODES, r
        if r.result == "void":
            assert r.error, f"void without a reason: {r}"

    # 2: one unit per province after the phase; dislodged units came from distinct
    # provinces, each now held by the unit that dislodged it.
    counts = occupied_provinces(after)
    assert all(n == 1 for n in counts.values()), f"two units in one province: {after}"
    assert len({u.province for u in dislodged}) == len(dislodged)
    for u in dislodged:
        assert u in before, f"dislodged unit {u} was not on the board"
        assert counts[u.province] == 1, f"{u} dislodged but nobody took its place"
        winner = adj.position.unit_in(u.province)
        assert winner not in before, f"{u} dislodged by a unit that did not move"
        assert winner.power != u.power, f"{u} dislodged by its own power"
    if adj.position.phase.kind == "R":
        assert set(adj.position.dislodged) == {d for d in adj.dislodged if d.retreats}
        assert len({d.unit.province for d in adj.position.dislodged}) == len(adj.position.dislodged)
    else:
        assert all(not d.retreats for d in adj.dislodged)

    # 3: movement creates and destroys nothing but by dislodgement.
    assert len(after) + len(dislodged) == len(before)

    # 4: every unit is where it was, or at the destination of its own successful move.
    if one_order_per_unit:
        by_unit = results_of_units(adj)
        expected = []
        for u in before:
            if u in dislodged:
                continue
            r = by_unit.get((u.power, str(u)))
            assert r is not None, f"no result for {u}"
            words = r.order.split()
            if len(words) >= 4 and words[2] == "-" and r.result == "ok":
                expected.append(Unit(u.power, u.kind, words[3]))
            else:
                expected.append(u)
        assert sorted(after, key=unit_key) == sorted(expected, key=unit_key)

    # 6: no retreat into an occupied province or the province the unit was in; only
    # to places the unit could move to.
    occupied = {u.province for u in after}
    for d in adj.dislodged:
        assert list(d.retreats) == sorted(set(d.retreats))
        for loc in d.retreats:
            prov = GM.province_of(loc)
            assert prov not in occupied, f"{d.unit} may retreat to occupied {loc}"
            assert prov != d.unit.province, f"{d.unit} may retreat to its own place"
            assert loc in neighbours(d.unit), f"{d.unit} may retreat to non-adjacent {loc}"


def comparable(adj: Adjudication) -> tuple:
    pos = adj.position
    return (
        adj.phase,
        sorted(map(result_key, adj.results)),
        sorted((unit_key(d.unit), d.retreats) for d in adj.dislodged),
        str(pos.phase),
        sorted(map(unit_key, pos.units)),
        {p: frozenset(c) for p, c in pos.centers.items() if c},
        sorted((unit_key(d.unit), d.retreats) for d in pos.dislodged),
        dict(adj.builds),
        adj.winner,
    )


@st.composite
def positions_and_orders(draw, max_units: int = 34):
    position = draw(movement_positions(max_units))
    return Case((position, movement_orders(draw, position)))


# -- the properties -----------------------------------------------------------------------


@settings(max_examples=300, **PROFILE)
@given(positions_and_orders())
def test_random_legal_orders_never_raise_and_keep_the_board_sound(case) -> None:
    """Properties 1-4 and 6: legal orders in random positions are adjudicated without an
    exception; after the phase one unit per province, units + dislodged = units before,
    every unit stayed or made its own successful move, retreats go to empty places."""
    position, orders = case
    adj = adjudicate(position, orders)
    check_movement(position, orders, adj)


@settings(max_examples=200, **PROFILE)
@given(positions_and_orders(max_units=14))
def test_small_dense_positions(case) -> None:
    """The same properties with few units, which shrink to readable counterexamples."""
    position, orders = case
    check_movement(position, orders, adjudicate(position, orders))


@settings(max_examples=150, **PROFILE)
@given(positions_and_orders(), st.data())
def test_adjudication_is_deterministic_and_order_independent(case, data) -> None:
    """Property 5: the same input gives the same outcome; neither the order of the
    powers, nor of each power's orders, nor of the units on the board matters."""
    position, orders = case
    first = adjudicate(position, orders)
    again = adjudicate(position, orders)
    assert first == again

    units = data.draw(st.permutations(position.units))
    shuffled_position = Position(GM, position.phase, tuple(units), position.centers)
    powers = data.draw(st.permutations(sorted(orders)))
    shuffled_orders = {p: data.draw(st.permutations(orders[p])) for p in powers}
    shuffled = adjudicate(shuffled_position, shuffled_orders)
    assert comparable(shuffled) == comparable(first)


@st.composite
def garbage_cases(draw):
    position = draw(movement_positions())
    orders = movement_orders(draw, position)
    mixed: dict[str, list[str]] = {}
    for power in draw(st.lists(st.sampled_from(POWERS), unique=True, max_size=7)):
        lines = orders.get(power, []) + draw(st.lists(garbage_lines, min_size=1, max_size=6))
        mixed[power] = draw(st.permutations(lines))
    return Case((position, orders, mixed))


def check_garbage(position: Position, orders: Mapping[str, list[str]]) -> Adjudication:
    adj = adjudicate(position, orders)
    given = Counter(line for lines in orders.values() for line in lines)
    assert given <= Counter(r.given for r in adj.results), "an order has no result"
    codes = {"M": CODES, "R": RETREAT_CODES, "A": ADJUSTMENT_CODES}[position.phase.kind]
    for r in adj.results:
        assert r.result in codes, r
        if r.result == "void":
            assert r.error, f"void without a reason: {r}"
    assert all(n == 1 for n in occupied_provinces(adj.position.units).values())
    return adj


@settings(max_examples=150, **PROFILE)
@given(garbage_cases(), st.data())
def test_garbage_orders_never_raise(case, data) -> None:
    """Property 7: random text and random mixes of names and keywords, alone or among
    legal orders, in movement, retreat and adjustment phases, become void results with
    a reason; they never raise."""
    position, legal, mixed = case
    adj = check_garbage(position, mixed)
    check_movement(position, mixed, adj, one_order_per_unit=False)

    # The phase after a legal movement phase: retreats, adjustments or movement.
    following = adjudicate(position, legal).position
    garbage = {
        p: data.draw(st.lists(garbage_lines, max_size=5))
        for p in data.draw(st.lists(st.sampled_from(POWERS), unique=True))
    }
    note(f"following: {show(following)}")
    check_garbage(following, garbage)

    # An adjustment phase with random centre ownership.
    owner = {c: data.draw(st.sampled_from((None, *POWERS))) for c in SUPPLY_CENTERS}
    centers = {p: frozenset(c for c, o in owner.items() if o == p) for p in POWERS}
    winter = Position(GM, Phase.parse("W1901A"), position.units, centers)
    garbage = {
        p: data.draw(st.lists(st.one_of(garbage_lines, st.sampled_from(["WAIVE"])), max_size=5))
        for p in data.draw(st.lists(st.sampled_from(POWERS), unique=True))
    }
    check_garbage(winter, garbage)


def expected_capture(before: Position, units) -> dict[str, frozenset[str]]:
    """Centre ownership after Fall, by an independent reading of the rules."""
    owner = {c: p for p, cs in before.centers.items() for c in cs}
    for u in units:
        if u.province in GM.supply_centers:
            owner[u.province] = u.power
    return {p: frozenset(c for c, o in owner.items() if o == p) for p in POWERS}


def nonempty(centers: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    return {p: frozenset(c) for p, c in centers.items() if c}


def check_centers(position: Position) -> None:
    owned = [c for cs in position.centers.values() for c in cs]
    assert len(owned) == len(set(owned)), "a centre owned by two powers"
    assert set(owned) <= GM.supply_centers
    assert set(position.centers) <= set(POWERS)


@settings(max_examples=80, **PROFILE)
@given(st.data())
def test_short_random_game(data) -> None:
    """Property 8: six phases from the opening with random orders (moves, retreats,
    builds, removals, waives): one unit per province throughout, centre ownership as the
    rules say, builds as centres minus units, and no power with more units than centres
    once adjustments are done."""
    position = starting_position(GM)
    for _ in range(6):
        kind = position.phase.kind
        if kind == "M":
            orders = movement_orders(data.draw, position)
        elif kind == "R":
            orders = retreat_orders(data.draw, position)
        else:
            orders = adjustment_orders(data.draw, position)
        note(f"{show(position)}: {orders}")
        adj = adjudicate(position, orders)
        new = adj.position
        assert adj.phase == position.phase
        assert new.phase.sort_key > position.phase.sort_key
        assert all(n == 1 for n in occupied_provinces(new.units).values()), new.units
        for r in adj.results:
            if r.result == "void":
                assert r.error, r
        if kind == "M":
            check_movement(position, orders, adj)
        elif kind == "R":
            assert set(RETREAT_CODES) >= {r.result for r in adj.results}
            # Every unit that stayed on the board, plus at most one per dislodged unit.
            assert set(position.units) <= set(new.units)
            assert len(new.units) <= len(position.units) + len(position.dislodged)
            assert not new.dislodged
        else:
            assert set(ADJUSTMENT_CODES) >= {r.result for r in adj.results}
            assert not new.dislodged

        check_centers(new)
        if position.phase.season == "F" and kind in "MR" and new.phase.kind != "R":
            assert nonempty(new.centers) == nonempty(expected_capture(position, new.units))
        else:
            assert nonempty(new.centers) == nonempty(position.centers)
        if new.phase.kind == "A":
            for p in POWERS:
                n = len(new.centers.get(p, ())) - len(new.units_of(p))
                assert adj.builds.get(p, 0) == n, (p, adj.builds)
        if kind == "A" or (new.phase.season == "S" and position.phase.season == "F"):
            # Adjustments done (or skipped as there was nothing to do).
            for p in POWERS:
                assert len(new.units_of(p)) <= len(new.centers.get(p, ())), p
                if kind == "A" and position.adjustment(p) < 0:
                    assert len(new.units_of(p)) == len(new.centers.get(p, ())), p
        position = new
