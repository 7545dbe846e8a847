"""`judge games` and `judge game NAME`: the games, and one game in detail."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

import sqlite_utils

from judge.config import Config
from judge.ops.console import fail, find_game, game_name, out, plural, table, when, with_database
from judge.store.games import Game

if TYPE_CHECKING:  # the engine and the maps are imported when a command needs them
    from judge.engine.board import Position
    from judge.engine.geography import GameMap


def list_games(args: argparse.Namespace) -> int:
    """`judge games`: one line per game."""
    return with_database(args, _list_games)


def _list_games(config: Config, db: sqlite_utils.Database) -> int:
    from judge.engine.geography import MapError
    from judge.store import games
    from judge.variants.maps import load_map

    every = games.all_games(db)
    damaged = games.unreadable_games(db)
    if not every and not damaged:
        out("no games")
        return 0
    rows = [
        [row.name, row.variant, row.state, row.phase or "-", "(its row does not read)", "?"]
        for row in damaged
    ]
    for game in every:
        players = games.seats(db, game, games.PLAYER)
        try:
            n_powers = str(len(load_map(game.variant).powers))
        except MapError:
            n_powers = "?"
        rows.append(
            [
                game.name,
                game.variant,
                game.state,
                game.phase or "-",
                _deadline_text(game, config.timezone),
                f"{len(players)}/{n_powers}",
            ]
        )
    rows.sort(key=lambda row: row[0])  # the damaged among the others, by name
    for line in table(["NAME", "VARIANT", "STATE", "PHASE", "DEADLINE", "PLAYERS"], rows):
        out(line)
    return 0


def _deadline_text(game: Game, zone: str) -> str:
    """The deadline in the judge's zone; what is left of it while paused; `-` when over."""
    if game.state == "paused" and game.paused_remaining is not None:
        minutes = int(game.paused_remaining // 60)
        return f"paused, {minutes // 60}h{minutes % 60:02d} left"
    if game.state == "finished":
        return "-"
    return when(game.deadline, zone)


def show_game(args: argparse.Namespace) -> int:
    """`judge game NAME`: its settings, seats and position."""
    return with_database(args, lambda config, db: _show_game(config, db, args.name))


def _show_game(config: Config, db: sqlite_utils.Database, name: str) -> int:
    from judge.variants.maps import load_map

    game = find_game(db, name)
    if game is None:
        return fail(f"no game {game_name(name)!r}")
    gm = load_map(game.variant)
    _show_header(config, game, gm)
    out("Seats:")
    for line in table(["POWER", "ADDRESS", "WAIT", "ORDERS"], _seat_rows(db, game, gm)):
        out("  " + line)
    shown = _shown_position(db, game)
    if shown is not None:
        _show_position(*shown, gm)
    return 0


def _show_header(config: Config, game: Game, gm: GameMap) -> None:
    """The game's variant, state, phase, deadline and settings."""
    from judge.engine.phase import Phase

    phase_text = game.phase or "-"
    if game.phase:
        phase_text += f" ({Phase.parse(game.phase).long_name})"
    out(f"Game {game.name}")
    out(f"  variant:  {game.variant} ({gm.title})")
    out(f"  state:    {game.state}")
    out(f"  phase:    {phase_text}")
    out(f"  deadline: {_deadline_text(game, config.timezone)}")
    if game.process_at:
        out(f"  processing early at {when(game.process_at, config.timezone)}")
    out("Settings:")
    for key, value in sorted(_listed_settings(game).items()):
        out(f"  {key} = {json.dumps(value)}")


def _listed_settings(game: Game) -> dict[str, Any]:
    """The settings as listed: with the game's state that older judges kept among them
    and that has its own columns now, shown as it was: the result always, the proxies
    and the World War I coin's joins once there are any."""
    listed = {**game.settings.to_json(), "result": game.result.to_json() if game.result else None}
    if game.proxies:
        listed["proxies"] = game.proxies.to_json()
    if game.joined:
        listed["joined"] = dict(game.joined)
    return listed


def _seat_rows(db: sqlite_utils.Database, game: Game, gm: GameMap) -> list[list[str]]:
    """A row per seat, the players first in the map's order: power, address, WAIT and
    how far the current phase's orders are in."""
    from judge.store import games
    from judge.variants.json_contract import position_from_json

    position = None
    effective: dict[str, list[str]] = {}
    if game.phase and game.state != games.FINISHED:
        position, _, _ = position_from_json(games.phase_position(db, game, game.phase))
        effective = games.effective_orders(db, game, game.phase)
    rows = []
    order = list(gm.powers)
    seated = sorted(
        games.seats(db, game, unconfirmed=True),
        key=lambda s: (s.role != games.PLAYER, order.index(s.power) if s.power in order else 99),
    )
    for seat in seated:
        if seat.role != games.PLAYER:
            role = f"{seat.role} (unconfirmed)" if seat.unconfirmed else seat.role
            rows.append([role, seat.address, "", ""])
            continue
        power = seat.power
        who = gm.powers[power].name if power is not None and power in gm.powers else "(unassigned)"
        orders = "-"
        if position is not None and power:
            orders = _orders_in(game, position, power, effective.get(power, []))
        rows.append([who, seat.address, "yes" if seat.wait else "no", orders])
    return rows


def _orders_in(game: Game, position: Position, power: str, mine: list[str]) -> str:
    """How far `power`'s orders for the phase are in: nothing due, complete, partial, none."""
    from judge.engine.validation import orders_due
    from judge.game.play import power_complete
    from judge.game.rules import rules_of

    units, owed = orders_due(position, power)
    if not units and owed == 0:
        return "nothing due"
    if power_complete(position, power, mine, rules_of(game)):
        return "complete"
    return "partial" if mine else "none"


def _show_position(label: str, data: dict[str, Any], gm: GameMap) -> None:
    """Each power's centres and units, then the dislodged units and where they may go."""
    out(f"Position {label}:")
    units, centres = data.get("units", {}), data.get("centers", {})
    rows = []
    for power in gm.powers:
        mine_units = ", ".join(units.get(power, [])) or "-"
        mine_centres = centres.get(power, [])
        rows.append(
            [
                gm.powers[power].name,
                plural(len(mine_centres), "centre"),
                ", ".join(mine_centres) or "-",
                f"units: {mine_units}",
            ]
        )
    for line in table(["", "", "", ""], rows)[1:]:
        out("  " + line)
    for power, entries in sorted(data.get("retreats", {}).items()):
        for unit, places in entries.items():
            where = ", ".join(places) or "nowhere"
            out(f"  dislodged: {gm.powers[power].name} {unit}, may retreat to {where}")


def _shown_position(db: sqlite_utils.Database, game: Game) -> tuple[str, dict[str, Any]] | None:
    """The current phase's position; for a game won, the position at the end (its last
    stored phase holds the outcome, and no row exists for the phase after it)."""
    from judge.store import games

    last = games.last_phase(db, game)
    if last is None:
        return None
    if last.results is not None and last.phase != game.phase:
        return f"at the end (after {last.phase})", last.results
    return f"at {last.phase}", last.position
