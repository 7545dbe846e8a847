"""`judge adjudicate` on maps of 100+ provinces: a generated grid of 150 provinces and 20
powers, and (when the `diplomacy` package, a test dependency, is installed) its largest
map file, known_world_901 (269 provinces, 16 powers), imported by `judge import-map`.

Two figures per map: a whole `judge adjudicate` process (start-up, map read, one
movement phase with every unit ordered, answer), and the phases of ten years played
in-process by `adjudicate_line` (Contract 1 JSON in and out), by phase kind. The orders
are seeded random moves, supports and holds; builds fill vacant home centres; retreats
and removals are left to civil disorder. Prints figures; asserts nothing.

    python benchmarks/bigmap.py [--years 10] [--runs 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.engine.geography import GameMap  # noqa: E402
from judge.variants import maps  # noqa: E402
from judge.variants.json_contract import adjudicate_line  # noqa: E402
from judge.variants.map_import import checked_toml  # noqa: E402

ROWS, COLUMNS = 10, 15  # 150 provinces
INITIALS = "ABCDEFGHIJKLNPQRSTUV"  # 20 powers (M and O are the master's and observers')


def grid_map(name: str) -> dict[str, Any]:
    """A 10 x 15 grid: every fourth row a sea broken by land bridges, the rest land
    (coast where it touches a sea); 20 powers of three home centres, 20 neutral centres."""
    cells = {(r, c) for r in range(ROWS) for c in range(COLUMNS)}
    sea = {(r, c) for r, c in cells if r % 4 == 2 and c % 5 != 2}

    def key(cell: tuple[int, int]) -> str:
        return f"{'ABCDEFGHIJ'[cell[0]]}{cell[1]:02d}"

    def near(cell: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = cell
        return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]

    coast = {cell for cell in cells - sea if any(n in sea for n in near(cell))}
    provinces: dict[str, Any] = {}
    for cell in sorted(cells):
        table: dict[str, Any] = {"name": f"Sector {key(cell)}"}
        if cell in sea:
            table |= {
                "kind": "sea",
                "fleet": sorted(key(n) for n in near(cell) if n in sea | coast),
            }
        else:
            table |= {"kind": "coast" if cell in coast else "land"}
            table["army"] = sorted(key(n) for n in near(cell) if n not in sea)
            if cell in coast:
                fleet = [n for n in near(cell) if n in sea or (n in coast and _shore(n, cell, sea))]
                table["fleet"] = sorted(key(n) for n in fleet)
        provinces[key(cell)] = table
    land = [key(cell) for cell in sorted(cells - sea, key=lambda rc: (rc[1], rc[0]))]
    powers: dict[str, Any] = {}
    for i, initial in enumerate(INITIALS):
        homes = land[i * 6 : i * 6 + 3]  # three of every six land provinces, column-wise
        units = [
            f"{'F' if provinces[h]['kind'] == 'coast' and j == 0 else 'A'} {h}"
            for j, h in enumerate(homes)
        ]
        powers[f"P{i + 1:02d}"] = {
            "name": f"Power {initial}",
            "adjective": f"Power {initial}'s",
            "initial": initial,
            "home_centers": homes,
            "units": units,
        }
    centres = {h for p in powers.values() for h in p["home_centers"]}
    centres |= set(land[3::6][:20])
    for c in centres:
        provinces[c]["supply_center"] = True
    data = {"name": name, "title": "Grid of 150", "first_year": 1901}
    return data | {
        "victory_centers": len(centres) // 2 + 1,
        "powers": powers,
        "provinces": provinces,
    }


def _shore(a: tuple[int, int], b: tuple[int, int], sea: set[tuple[int, int]]) -> bool:
    """Whether two neighbouring coasts lie on one shore: the same sea side of both is sea
    (so that a fleet sails along it from one to the other)."""
    dr, dc = b[1] - a[1], b[0] - a[0]  # a side perpendicular to the step from a to b
    return any(
        (a[0] + s * dr, a[1] + s * dc) in sea and (b[0] + s * dr, b[1] + s * dc) in sea
        for s in (-1, 1)
    )


def _movement_orders(gm: GameMap, units: dict[str, list[str]], rng: random.Random) -> dict:
    """Every unit ordered: 60% a move to a neighbour, 20% a support of a unit beside it
    holding, the rest holds."""
    where = {u.split()[1].split("/")[0]: u for us in units.values() for u in us}
    orders: dict[str, list[str]] = {}
    for power, us in units.items():
        for unit in us:
            kind, location = unit.split()
            province = location.split("/")[0]
            moves = sorted(gm.army_moves[province] if kind == "A" else gm.fleet_moves[location])
            beside = [where[m.split("/")[0]] for m in moves if m.split("/")[0] in where]
            roll = rng.random()
            if moves and roll < 0.6:
                order = f"{unit} - {rng.choice(moves)}"
            elif beside and roll < 0.8:
                order = f"{unit} S {rng.choice(beside)}"
            else:
                order = f"{unit} H"
            orders.setdefault(power, []).append(order)
    return orders


def _build_orders(gm: GameMap, outcome: dict, units: dict[str, list[str]]) -> dict:
    """Builds in the vacant owned home centres, as many as allowed."""
    occupied = {u.split()[1].split("/")[0] for us in units.values() for u in us}
    orders: dict[str, list[str]] = {}
    for power, count in outcome.get("builds", {}).items():
        owned = set(outcome["centers"].get(power, []))
        free = sorted(h for h in gm.powers[power].home_centers & owned if h not in occupied)
        orders[power] = [f"A {h} B" for h in free[: max(count, 0)]]
    return orders


def play(name: str, years: int, seed: int = 1) -> dict[str, list[float]]:
    """Seconds per phase, by kind (M, R, A), over `years` years played in-process."""
    gm = maps.load_map(name)
    rng = random.Random(seed)
    line: dict[str, Any] = {
        "map": name,
        "phase": f"S{gm.first_year:04d}M",
        "units": {k: list(p.units) for k, p in gm.powers.items()},
        "centers": {k: sorted(p.starting_centers or p.home_centers) for k, p in gm.powers.items()},
    }
    line["centers"] = {k: v for k, v in line["centers"].items() if v}
    times: dict[str, list[float]] = {"M": [], "R": [], "A": []}
    orders: dict = _movement_orders(gm, line["units"], rng)
    last_year = gm.first_year + years
    while int(line["phase"][1:-1]) < last_year:
        start = time.perf_counter()
        outcome = adjudicate_line(json.dumps(line | {"orders": orders}))
        times[line["phase"][-1]].append(time.perf_counter() - start)
        if "error" in outcome:
            raise SystemExit(f"{name} {line['phase']}: {outcome['error']}")
        line = {
            "map": name,
            "phase": outcome["next_phase"],
            "units": outcome["units"],
            "centers": outcome["centers"],
            "retreats": outcome["retreats"],
        }
        kind = line["phase"][-1]
        if kind == "M":
            orders = _movement_orders(gm, line["units"], rng)
        elif kind == "A":
            orders = _build_orders(gm, outcome, line["units"])
        else:
            orders = {}
    return times


def whole_process(folder: Path, name: str, runs: int) -> list[float]:
    """Seconds for `judge adjudicate --maps folder` to start and answer one movement
    phase with every unit ordered, `runs` times."""
    gm = maps.load_map(name)
    units = {k: list(p.units) for k, p in gm.powers.items()}
    centers = {k: sorted(p.starting_centers or p.home_centers) for k, p in gm.powers.items()}
    line = {
        "map": name,
        "phase": f"S{gm.first_year:04d}M",
        "units": units,
        "centers": {k: v for k, v in centers.items() if v},
        "orders": _movement_orders(gm, units, random.Random(2)),
    }
    judge = [sys.executable, "-m", "judge.ops.cli", "adjudicate", "--maps", str(folder)]
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(judge, input=json.dumps(line) + "\n", capture_output=True, text=True)
        seconds.append(time.perf_counter() - start)
        if proc.returncode != 0 or "error" in json.loads(proc.stdout or "{}"):
            raise SystemExit(f"{name}: {proc.stdout[:300]} {proc.stderr[-300:]}")
    return seconds


def bare_start(runs: int) -> list[float]:
    """Seconds for `judge adjudicate` to start and end with no input: the part of the
    whole-process figure that is no map's."""
    judge = [sys.executable, "-m", "judge.ops.cli", "adjudicate"]
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(judge, input="", capture_output=True, text=True, check=True)
        seconds.append(time.perf_counter() - start)
    return seconds


def _package_map(folder: Path, stem: str) -> str | None:
    """The `diplomacy` package's map file `stem` imported into `folder`; None without
    the package."""
    spec = importlib.util.find_spec("diplomacy")
    if spec is None or not spec.submodule_search_locations:
        return None
    source = Path(next(iter(spec.submodule_search_locations))) / "maps" / f"{stem}.map"
    name = stem.replace("_", "-")
    command = [sys.executable, "-m", "judge.ops.cli", "import-map", str(source)]
    command += ["--format", "dpjudge", "--name", name, "--maps", str(folder)]
    subprocess.run(command, check=True, capture_output=True)
    return name


def _report(name: str, folder: Path, years: int, runs: int) -> None:
    maps.use_operator_folder(folder)
    gm = maps.load_map(name)
    units = sum(len(p.units) for p in gm.powers.values())
    print(
        f"{name}: {len(gm.provinces)} provinces, {len(gm.powers)} powers, "
        f"{len(gm.supply_centers)} centres, {units} starting units"
    )
    process = whole_process(folder, name, runs)
    print(
        f"  judge adjudicate, process start to answer, one movement phase: "
        f"{min(process) * 1000:.0f}-{max(process) * 1000:.0f} ms "
        f"(median {statistics.median(process) * 1000:.0f} ms, {runs} runs)"
    )
    times = play(name, years)
    for kind, label in (("M", "movement"), ("R", "retreats"), ("A", "adjustments")):
        if times[kind]:
            ms = [t * 1000 for t in times[kind]]
            print(
                f"  {label}: {len(ms)} phases in-process, median {statistics.median(ms):.1f} ms "
                f"(min {min(ms):.1f}, max {max(ms):.1f}; the first reads the map)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bare = bare_start(args.runs)
    print(
        f"judge adjudicate, process start and end with no input: "
        f"{min(bare) * 1000:.0f}-{max(bare) * 1000:.0f} ms ({args.runs} runs)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "grid150.toml").write_text(checked_toml(grid_map("grid150"), "generated"))
        _report("grid150", folder, args.years, args.runs)
        package = _package_map(folder, "known_world_901")
        if package is None:
            print("known_world_901: the diplomacy package is not installed (make test installs it)")
        else:
            _report(package, folder, args.years, args.runs)


if __name__ == "__main__":
    main()
