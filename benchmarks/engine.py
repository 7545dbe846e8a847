"""Engine speed: movement phases per second from order text to outcome, and the DATC suite.

Positions are mid-game (1903-1906) positions reached by seeded random play from the
opening, each with a full order set for every unit written the way players write them
("A Par-Bur", "F Nth S A Lon - Bel", "F Nth C A Lon-Bel"): parsing, legality and
resolution are all measured. Prints figures; asserts nothing.

    python benchmarks/engine.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.engine.adjudication import adjudicate  # noqa: E402
from judge.engine.board import ARMY, Position, starting_position  # noqa: E402
from judge.engine.geography import GameMap  # noqa: E402
from judge.engine.phase import ADJUSTMENTS, MOVEMENT, RETREATS  # noqa: E402
from judge.variants.maps import load_map  # noqa: E402


def _short(gm: GameMap, location: str) -> str:
    """How a player abbreviates a place: `Par`, `StP(nc)`."""
    prov, _, coast = location.partition("/")
    text = prov.title() if prov != "STP" else "StP"
    return f"{text}({coast.lower()})" if coast else text


def _unit_text(gm: GameMap, unit) -> str:
    return f"{unit.kind} {_short(gm, unit.location)}"


def _orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """A full, plausible order set: mostly moves, with supports, some convoys and holds."""
    gm = position.game_map
    orders: dict[str, list[str]] = {}
    units = list(position.units)
    planned: dict[str, str] = {}  # province -> destination province for moves
    for u in units:
        if u.kind == ARMY:
            dests = sorted(gm.army_moves[u.province])
        else:
            dests = sorted(gm.fleet_moves[u.location])
        if dests and rng.random() < 0.6:
            planned[u.province] = rng.choice(dests)
    for u in units:
        text = _unit_text(gm, u)
        if u.province in planned:
            order = f"{text}-{_short(gm, planned[u.province])}"
        else:
            choice = rng.random()
            neighbours = [
                v for v in units if v is not u and gm.can_reach(u.kind, u.location, v.province)
            ]
            movers = [
                (v, planned[v.province])
                for v in units
                if v.province in planned
                and gm.can_reach(u.kind, u.location, gm.province_of(planned[v.province]))
                and gm.province_of(planned[v.province]) != u.province
            ]
            if movers and choice < 0.6:
                v, dest = rng.choice(movers)
                order = f"{text} S {_unit_text(gm, v)} - {_short(gm, gm.province_of(dest))}"
            elif neighbours and choice < 0.85:
                v = rng.choice(neighbours)
                order = f"{text} S {_unit_text(gm, v)}"
            elif u.kind != ARMY and gm.is_sea(u.province) and choice < 0.95:
                armies = [
                    v
                    for v in units
                    if v.kind == ARMY and v.province in gm.sea_neighbours(u.province)
                ]
                coasts = sorted(
                    p for p in gm.sea_neighbours(u.province) if gm.provinces[p].kind == "coast"
                )
                if armies and coasts:
                    a = rng.choice(armies)
                    dest = rng.choice([c for c in coasts if c != a.province] or coasts)
                    order = f"{text} C {_unit_text(gm, a)}-{_short(gm, dest)}"
                else:
                    order = f"{text} H"
            else:
                order = f"{text} H"
        orders.setdefault(u.power, []).append(order)
    return orders


def _other_phase_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    gm = position.game_map
    orders: dict[str, list[str]] = {}
    if position.phase.kind == RETREATS:
        for d in position.dislodged:
            text = _unit_text(gm, d.unit)
            if d.retreats and rng.random() < 0.8:
                order = f"{text} R {_short(gm, rng.choice(d.retreats))}"
            else:
                order = f"{text} D"
            orders.setdefault(d.unit.power, []).append(order)
    elif position.phase.kind == ADJUSTMENTS:
        for power in gm.powers:
            n = position.adjustment(power)
            if n > 0:
                free = [
                    h
                    for h in sorted(gm.powers[power].home_centers)
                    if h in position.centers.get(power, ()) and position.unit_in(h) is None
                ]
                for h in free[:n]:
                    kind = "A" if gm.provinces[h].kind == "land" or rng.random() < 0.5 else "F"
                    loc = h if kind == "A" or not gm.provinces[h].coasts else f"{h}/NC"
                    orders.setdefault(power, []).append(f"Build {kind} {_short(gm, loc)}")
    return orders


def mid_game_positions(count: int, seed: int = 1901) -> list[tuple[Position, dict[str, list[str]]]]:
    """`count` movement positions from 1903 to 1906 of seeded random games, with orders."""
    gm = load_map("standard")
    rng = random.Random(seed)
    out: list[tuple[Position, dict[str, list[str]]]] = []
    while len(out) < count:
        position = starting_position(gm)
        while position.phase.year < 1907 and len(out) < count:
            if position.phase.kind == MOVEMENT:
                orders = _orders(position, rng)
                if position.phase.year >= 1903:
                    out.append((position, orders))
            else:
                orders = _other_phase_orders(position, rng)
            position = adjudicate(position, orders).position
    return out


def bench_movement(seconds: float) -> tuple[float, int, float]:
    """(phases per second, phases in the set, mean units per phase)."""
    phases = mid_game_positions(200)
    mean_units = sum(len(p.units) for p, _ in phases) / len(phases)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for position, orders in phases:
            adjudicate(position, orders)
        done += len(phases)
    elapsed = time.perf_counter() - start
    return done / elapsed, len(phases), mean_units


def bench_datc() -> float:
    """Seconds for the DATC suite (158 cases) run by pytest, best of three."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_datc.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        best = min(best, time.perf_counter() - start)
    return best


def bench_datc_engine() -> float:
    """Seconds to adjudicate every DATC case's phases in-process, no test runner."""
    sys.path.insert(0, str(ROOT / "tests"))
    import datc_cases  # noqa: PLC0415
    import test_datc  # noqa: PLC0415

    start = time.perf_counter()
    for case in test_datc.CASES:
        position = datc_cases.position(case, case["phase"][0]["phase"])
        for step in case["phase"]:
            orders = {p: [t for t, _ in lines] for p, lines in step.get("orders", {}).items()}
            position = adjudicate(position, orders).position
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rate, n, units = bench_movement(args.seconds)
    print(f"movement phases/second (text to outcome, one core): {rate:,.0f}")
    print(f"  over {n} mid-game positions, {units:.1f} units and orders each on average")
    print(f"DATC suite, 158 cases adjudicated in-process: {bench_datc_engine() * 1000:.0f} ms")
    print(f"DATC suite under pytest (start-up included), best of 3: {bench_datc():.2f} s")


if __name__ == "__main__":
    main()
