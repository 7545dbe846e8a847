"""The engine against the MILA `diplomacy` package on the same phases.

Plays coordinated random games with the package (each unit picks one of its legal orders;
then units support or convoy orders already chosen, as allies would), recording every
phase as a Contract 1 input line. Then times, each as one process started from nothing:

- `judge adjudicate` reading every recorded line (process start included; the judge's
  modules compiled to bytecode first, as an installed package's are, and as the
  package's own are in site-packages: with PYTHONDONTWRITEBYTECODE set, an editable
  install would otherwise compile every module from source in each run);
- a Python process that imports the package and replays the same games phase by phase
  (`set_orders` and `process`, its way of adjudicating; process start included).

It also compares each phase's outcome (the units after it, the dislodged units, the
centres) and prints how many agree. Prints figures, asserts nothing.

    .venv/bin/python benchmarks/versus_mila.py [--games 40] [--phases 20] [--seed 1]

Needs the `diplomacy` package (a test dependency that `make test` installs).
"""

from __future__ import annotations

import argparse
import compileall
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JUDGE = Path(sys.executable).with_name("judge")

# The package's side: replay recorded games, one line of orders per phase per game.
REPLAY = """
import json, sys
from diplomacy import Game
for line in open(sys.argv[1]):
    game = Game()
    for phase in json.loads(line):
        for power, orders in phase.items():
            game.set_orders(power, orders)
        game.process()
"""


def choose_orders(game: Any, rng: random.Random) -> dict[str, list[str]]:
    """Every orderable unit's order: random legal ones, then supports and convoys of
    orders already chosen (allies helping), so that supports and convoys matter."""
    possible = game.get_all_possible_orders()
    chosen: dict[str, dict[str, str]] = {}
    for power in game.powers:
        locations = game.get_orderable_locations(power)
        chosen[power] = {
            loc: rng.choice(sorted(possible[loc])) for loc in sorted(locations) if possible[loc]
        }
    if game.get_current_phase().endswith("A"):
        return _adjustments(game, chosen, rng)
    every = {order for orders in chosen.values() for order in orders.values()}
    for orders in chosen.values():
        for loc in orders:
            helping = [o for o in sorted(possible[loc]) if _helps(o, every)]
            if helping and rng.random() < 0.5:
                orders[loc] = rng.choice(helping)
    return {power: list(orders.values()) for power, orders in chosen.items()}


def _adjustments(
    game: Any, chosen: dict[str, dict[str, str]], rng: random.Random
) -> dict[str, list[str]]:
    """As many builds or removals as each power has to make (more would be void)."""
    builds = game.get_state()["builds"]
    out: dict[str, list[str]] = {}
    for power, orders in chosen.items():
        count = abs(builds.get(power, {}).get("count", 0))
        picked = rng.sample(list(orders.values()), min(count, len(orders)))
        if picked:
            out[power] = picked
    return out


def _helps(order: str, chosen: set[str]) -> bool:
    """Whether `order` supports or convoys one of the orders chosen."""
    words = order.split()
    if len(words) < 5 or words[2] not in ("S", "C"):
        return False
    helped = " ".join(words[3:])
    return helped in chosen or f"{helped} VIA" in chosen or f"{helped} H" in chosen


def contract_line(game: Any, orders: dict[str, list[str]]) -> dict[str, Any]:
    """The package's current phase as a Contract 1 input line with `orders`."""
    state = game.get_state()
    units = {p: [u for u in us if not u.startswith("*")] for p, us in state["units"].items()}
    line: dict[str, Any] = {
        "map": "standard",
        "phase": game.get_current_phase(),
        "units": {p: us for p, us in units.items() if us},
        "centers": {p: cs for p, cs in state["centers"].items() if cs},
        "orders": {p: os for p, os in orders.items() if os},
    }
    retreats = {p: r for p, r in state["retreats"].items() if r}
    if retreats:
        line["retreats"] = retreats
    return line


def outcome_of(game: Any) -> dict[str, Any]:
    """The package's position after a phase, in the form compared."""
    state = game.get_state()
    units = sorted(u for us in state["units"].values() for u in us if not u.startswith("*"))
    dislodged = sorted(u[1:] for us in state["units"].values() for u in us if u.startswith("*"))
    centers = {p: sorted(cs) for p, cs in state["centers"].items() if cs}
    return {"units": units, "dislodged": dislodged, "centers": centers}


def our_outcome(out: dict[str, Any]) -> dict[str, Any]:
    units = sorted(u for us in out.get("units", {}).values() for u in us)
    dislodged = sorted(u for r in out.get("retreats", {}).values() for u in r)
    centers = {p: sorted(cs) for p, cs in out.get("centers", {}).items() if cs}
    return {"units": units, "dislodged": dislodged, "centers": centers}


def play(games: int, phases: int, seed: int) -> tuple[list[str], list[str], list[dict]]:
    """Recorded games: Contract 1 lines, replay lines and the package's outcomes."""
    from diplomacy import Game

    rng = random.Random(seed)
    lines: list[str] = []
    replays: list[str] = []
    outcomes: list[dict[str, Any]] = []
    for _ in range(games):
        game = Game()
        record = []
        for _ in range(phases):
            if game.is_game_done:
                break
            orders = choose_orders(game, rng)
            lines.append(json.dumps(contract_line(game, orders)))
            record.append(orders)
            for power, power_orders in orders.items():
                game.set_orders(power, power_orders)
            game.process()
            outcomes.append(outcome_of(game))
        replays.append(json.dumps(record))
    return lines, replays, outcomes


def supports_against_own(line: str) -> bool:
    """Whether a power supports a move into a province its own unit holds: DATC 6.D.12,
    6.D.13 and 6.E.3 say such support never dislodges that unit; the package counts it."""
    data = json.loads(line)
    owner = {u.split()[1].split("/")[0]: p for p, us in data["units"].items() for u in us}
    for power, orders in data["orders"].items():
        for order in orders:
            words = order.split()
            supported_move = len(words) >= 7 and words[2] == "S" and words[5] == "-"
            if supported_move and owner.get(words[6].split("/")[0]) == power:
                return True
    return False


def timed(command: list[str], stdin: bytes | None = None) -> tuple[float, float, bytes]:
    """Wall time, CPU time (user and system: steadier on a shared machine) and output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--phases", type=int, default=20, help="phases per game at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines, replays, outcomes = play(args.games, args.phases, args.seed)
    compileall.compile_dir(ROOT / "judge", quiet=1)  # as installed: see the docstring
    with tempfile.TemporaryDirectory() as tmp:
        games_file = Path(tmp) / "games.jsonl"
        games_file.write_text("\n".join(replays) + "\n")
        ours, ours_cpu, out = timed([str(JUDGE), "adjudicate"], ("\n".join(lines) + "\n").encode())
        theirs, theirs_cpu, _ = timed([sys.executable, "-c", REPLAY, str(games_file)])
    results = [json.loads(r) for r in out.decode().splitlines()]
    errors = sum(1 for r in results if "error" in r)
    differ = [
        line for line, r, o in zip(lines, results, outcomes, strict=True) if our_outcome(r) != o
    ]
    own = sum(1 for line in differ if supports_against_own(line))
    kinds = {k: sum(1 for line in lines if json.loads(line)["phase"][-1] == k) for k in "MRA"}
    print(
        f"{len(lines)} phases of {args.games} coordinated random games "
        f"({kinds['M']} movement, {kinds['R']} retreat, {kinds['A']} adjustment; seed {args.seed})"
    )
    print(f"judge adjudicate, one process, start included: {ours:.2f} s ({ours_cpu:.2f} s CPU)")
    print(
        "the diplomacy package replaying them, one process, start included: "
        f"{theirs:.2f} s ({theirs_cpu:.2f} s CPU)"
    )
    print(
        f"ratio: {theirs / ours:.1f} times as fast in wall time, "
        f"{theirs_cpu / ours_cpu:.1f} in CPU time (target: 10)"
    )
    print(f"outcomes equal: {len(lines) - len(differ)} of {len(lines)}; error lines: {errors}")
    print(f"of the {len(differ)} that differ, {own} have a power supporting a move on its own unit")


if __name__ == "__main__":
    main()
