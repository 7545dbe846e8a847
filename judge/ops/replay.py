"""`judge replay NAME`: adjudicate a game's history again and report every difference."""

from __future__ import annotations

import argparse
import json
from typing import Any

import sqlite_utils

from judge.ops.console import fail, find_game, game_name, out, plural, with_database


def replay(args: argparse.Namespace) -> int:
    """`judge replay NAME`: exit status 1 when any processed phase comes out differently."""
    return with_database(args, lambda config, db: _replay(db, args.name))


def _replay(db: sqlite_utils.Database, name: str) -> int:
    from judge.store import games

    game = find_game(db, name)
    if game is None:
        return fail(f"no game {game_name(name)!r}")
    rows = [p for p in games.phase_history(db, game) if p.processed_at is not None]
    out(f"{game.name}: {plural(len(rows), 'processed phase')}, adjudicated again")
    differing = 0
    for row in rows:
        phase = row.phase
        # By power: the order the adjudicator sees them in is the same at every replay.
        orders = dict(sorted(games.effective_orders(db, game, phase).items()))
        stored = row.results if row.results is not None else {}
        position = {**row.position, "rules": dict(game.settings.rules)}
        differences = replay_phase(position, orders, stored)
        if differences:
            differing += 1
            out(f"{phase}: different")
            for line in differences:
                out(f"  {line}")
        else:
            out(f"{phase}: same")
    if differing:
        out(f"{plural(differing, 'phase')} of {len(rows)} came out differently")
        return 1
    out("every phase came out the same")
    return 0


def replay_phase(
    position: dict[str, Any], orders: dict[str, list[str]], stored: dict[str, Any]
) -> list[str]:
    """Adjudicate a stored phase again; the differences from the stored outcome, in words
    (an empty list when it comes out the same)."""
    from judge.engine.adjudication import adjudicate
    from judge.variants.json_contract import outcome_to_json, position_from_json

    try:
        pos, _, rules = position_from_json(position)
        now = outcome_to_json(pos, adjudicate(pos, orders, rules))
    except Exception as e:  # a stored position the current engine cannot read
        return [f"cannot be adjudicated now: {type(e).__name__}: {e}"]
    lines = []
    for power in sorted(set(stored.get("results", {})) | set(now["results"])):
        before = _results(stored.get("results", {}).get(power, []))
        after = _results(now["results"].get(power, []))
        for key in sorted(set(before) | set(after)):
            if before.get(key) != after.get(key):
                lines.append(
                    f"{power} {key}: stored {before.get(key, 'absent')}, "
                    f"now {after.get(key, 'absent')}"
                )
    for field in ("units", "centers"):
        lines += _per_power_difference(field, stored.get(field, {}), now[field])
    retreats_before = _flat_retreats(stored.get("retreats", {}))
    retreats_after = _flat_retreats(now["retreats"])
    if retreats_before != retreats_after:
        lines.append(
            f"retreats: stored {retreats_before or 'none'}, now {retreats_after or 'none'}"
        )
    for field in ("next_phase", "builds", "winner"):
        if stored.get(field) != now[field]:
            lines.append(
                f"{field.replace('_', ' ')}: stored {json.dumps(stored.get(field))}, "
                f"now {json.dumps(now[field])}"
            )
    return lines


def _results(items: list[dict[str, Any]]) -> dict[str, str]:
    """Order -> its result (with the error, if any); a repeated order is numbered."""
    out: dict[str, str] = {}
    for item in items:
        key = item.get("order", "")
        if item.get("given") and item.get("given") != key:
            key = f"{key} (given {item['given']!r})"
        n = 2
        base = key
        while key in out:
            key = f"{base} #{n}"
            n += 1
        out[key] = item.get("result", "") + (f" ({item['error']})" if item.get("error") else "")
    return out


def _per_power_difference(
    field: str, before: dict[str, list[str]], after: dict[str, list[str]]
) -> list[str]:
    """A line for each power whose `field` (units, centres) differs."""
    lines = []
    for power in sorted(set(before) | set(after)):
        old, new = set(before.get(power, [])), set(after.get(power, []))
        if old != new:
            lines.append(
                f"{field} of {power}: stored only {', '.join(sorted(old - new)) or '-'}; "
                f"now only {', '.join(sorted(new - old)) or '-'}"
            )
    return lines


def _flat_retreats(retreats: dict[str, dict[str, list[str]]]) -> str:
    """Every dislodged unit and where it may retreat, on one line."""
    return "; ".join(
        f"{power} {unit} to {', '.join(places) or 'nowhere'}"
        for power, entries in sorted(retreats.items())
        for unit, places in sorted(entries.items())
    )
