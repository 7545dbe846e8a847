"""`judge export NAME`: a game's history in the saved-game format of the `diplomacy`
Python package, so that its own loader (`from_saved_game_format`) reads it."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import sqlite_utils

from judge.engine.geography import GameMap
from judge.store import games

_UNIT = re.compile(r"^[AF] [A-Z]{3}(/[NSEW]C)?$")


def export_game(db: sqlite_utils.Database, game: games.Game) -> dict[str, Any]:
    """The game's history in the saved-game format of the `diplomacy` package
    (`diplomacy.utils.export.from_saved_game_format` reads it): one entry per phase with
    the position at its start, and for every processed phase the orders that were
    adjudicated and their results. The current phase's orders are secret until it is
    processed and are left out. Press is exported as messages (grey press, and press from
    the master or observers, as from SYSTEM); a finished game ends with a COMPLETED phase."""
    from judge.variants.maps import load_map

    gm = load_map(game.variant)
    rules = ["NO_PRESS"] if game.settings.press == "none" else []
    messages = _press_messages(db, game, gm)
    influence: dict[str, list[str]] = {p: [] for p in gm.powers}
    phases = []
    owed: dict[str, int] = {}  # the last outcome's builds (+) and removals (-)
    outcome = None
    for stored in games.phase_history(db, game):
        phase, position = stored.phase, stored.position
        state = _state(gm, game.name, phase, position, stored.started_at, rules, influence)
        if phase.endswith("A"):
            state["builds"] = _builds(gm, position, owed)
        outcome = stored.results
        orders, results = _orders_and_results(gm, outcome) if outcome else ({}, {})
        if outcome:
            owed = dict(outcome.get("builds", {}))
        phases.append(
            {
                "name": phase,
                "state": state,
                "orders": orders,
                "results": results,
                "messages": messages.get(phase, []),
            }
        )
    if game.state == "finished" and outcome:
        end = {"units": outcome.get("units", {}), "centers": outcome.get("centers", {})}
        state = _state(gm, game.name, "COMPLETED", end, None, rules, influence)
        phases.append(
            {"name": "COMPLETED", "state": state, "orders": {}, "results": {}, "messages": []}
        )
    return {"id": game.name, "map": gm.name, "rules": rules, "phases": phases}


def _orders_and_results(
    gm: GameMap, outcome: dict[str, Any]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """A processed phase's orders (those given and used, in canonical form) per power, and
    the results per unit (`[]` for success, else the result code)."""
    orders: dict[str, list[str]] = {p: [] for p in gm.powers}
    results: dict[str, list[str]] = {}
    for power, items in outcome.get("results", {}).items():
        for item in items:
            order = item.get("order", "")
            if item.get("given") and not item.get("error"):
                orders.setdefault(power, []).append(order)
            unit = " ".join(order.split()[:2])
            if not _UNIT.match(unit):
                continue  # WAIVE, or a line the judge could not read
            code = [] if item.get("result") == "ok" else [item.get("result", "")]
            if unit not in results or not item.get("error"):
                results[unit] = code
    return orders, results


def _state(
    gm: GameMap,
    game_id: str,
    phase: str,
    position: dict[str, Any],
    started_at: str | None,
    rules: list[str],
    influence: dict[str, list[str]],
) -> dict[str, Any]:
    """One phase's `state` in the diplomacy package's form: every power listed (the
    loader resets only the powers it is given), dislodged units marked `*` in `units`
    with their retreats in `retreats`, and `influence` (the provinces each power's units
    stood in last) carried along the history as that package keeps it."""
    units = position.get("units", {})
    retreats = position.get("retreats", {})
    for power in gm.powers:
        located = [u.split()[1][:3] for u in units.get(power, [])]
        located += [u.split()[1][:3] for u in retreats.get(power, {})]
        for province in located:
            for other in influence.values():
                if province in other:
                    other.remove(province)
            influence[power].append(province)
    timestamp = 0
    if started_at:
        timestamp = int(datetime.fromisoformat(started_at).timestamp() * 1_000_000)
    return {
        "timestamp": timestamp,
        "note": "",
        "name": phase,
        "units": {
            p: list(units.get(p, [])) + [f"*{u}" for u in retreats.get(p, {})] for p in gm.powers
        },
        "retreats": {p: dict(retreats.get(p, {})) for p in gm.powers},
        "centers": {p: list(position.get("centers", {}).get(p, [])) for p in gm.powers},
        "homes": {p: sorted(gm.powers[p].home_centers) for p in gm.powers},
        "influence": {p: list(influence[p]) for p in gm.powers},
        "civil_disorder": {p: 0 for p in gm.powers},
        "builds": {p: {"count": 0, "homes": []} for p in gm.powers},
        "game_id": game_id,
        "map": gm.name,
        "rules": rules,
    }


def _builds(
    gm: GameMap, position: dict[str, Any], owed: dict[str, int]
) -> dict[str, dict[str, Any]]:
    """Builds (+) or removals (-) and the free home centres to build in, per power."""
    occupied = {u.split()[1][:3] for us in position.get("units", {}).values() for u in us}
    out = {}
    for power in gm.powers:
        centres = position.get("centers", {}).get(power, [])
        n = owed.get(power, len(centres) - len(position.get("units", {}).get(power, [])))
        homes: list[str] = []
        if n > 0:
            homes = sorted(h for h in gm.build_sites(power, centres) if h not in occupied)
            n = min(n, len(homes))
        out[power] = {"count": n, "homes": homes}
    return out


def _press_messages(
    db: sqlite_utils.Database, game: games.Game, gm: GameMap
) -> dict[str, list[dict[str, Any]]]:
    """Press per phase as the diplomacy package's messages: one per recipient (GLOBAL for
    a broadcast), each with a distinct time_sent (the package keys messages by it)."""
    out: dict[str, list[dict[str, Any]]] = {}
    last = 0
    for press in games.phased_press(db, game):
        power, phase, to = press.power, press.phase, press.recipients
        sender = (
            power if press.role == "player" and power in gm.powers and not press.grey else "SYSTEM"
        )
        targets = ["GLOBAL"] if "*" in to else [r for r in to if r in gm.powers]
        for target in targets:
            moment = int(datetime.fromisoformat(press.sent_at).timestamp() * 1_000_000)
            last = max(moment, last + 1)
            out.setdefault(phase, []).append(
                {
                    "sender": sender,
                    "recipient": target,
                    "time_sent": last,
                    "phase": phase,
                    "message": press.text,
                }
            )
    return out
