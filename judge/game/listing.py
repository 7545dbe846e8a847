"""A game's full report, as njudge's `LIST name` gives it, in plain values for
templates/list_report.txt: the turn and deadline, the deadline settings, flags and press,
the comments, each power's player with the state of its orders, and the position (for
the master, also the orders on file). No mail text lives here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.engine.rules import Rules, describe
from judge.engine.validation import orders_due
from judge.game import anonymity, proxies
from judge.game.dates import MONTH_NAMES, WEEKDAY_NAMES
from judge.game.play import current_position, power_complete
from judge.game.report import describe_text, units_list
from judge.game.rules import end_rules, end_rules_text, rules_of
from judge.store import games
from judge.store.settings import GameSettings
from judge.variants.maps import load_map

# njudge's order status of a power's player (`   France     move  3/3  addr`).
MOVE = "move"  # orders are due and none are on file, before the deadline
LATE = "late"  # the same after the deadline
PART = "part"  # some of the orders due are on file
CD = "CD"  # the power has no player: civil disorder
ABANDON = "abandon"  # its player left (RESIGN, EJECT) or missed the end of grace (abandoned)
# njudge's days of the week, Sunday first: capital when deadlines may fall on it.
_DAY_LETTERS = "SMTWTFS"


def njudge_time(moment: datetime, zone: ZoneInfo) -> str:
    """`Mon Nov 23 2026 12:08:00 +0000`: njudge's ptime (strftime `%a %b %d %Y %H:%M:%S
    %z`) in the judge's zone, with English names whatever the locale."""
    local = moment.astimezone(zone)
    return (
        f"{WEEKDAY_NAMES[local.weekday()][:3]} {MONTH_NAMES[local.month - 1][:3]} "
        f"{local:%d %Y %H:%M:%S %z}"
    )


@dataclass(frozen=True)
class Reader:
    """Who reads a report: the address of the seat signed on to the game (None: someone
    not signed on to it), and whether that seat is a master's (who sees everything)."""

    address: str | None = None
    master: bool = False


def game_report(
    db: sqlite_utils.Database,
    game: games.Game,
    zone: ZoneInfo,
    now: datetime,
    orders: bool,
    reader: Reader = Reader(),  # noqa: B008 (frozen: one shared value is safe)
) -> dict[str, Any]:
    """What templates/list_report.txt shows of `game` to `reader` (with the orders on
    file when `orders`: for its master); in a gunboat game the other players' addresses
    as judge/game/anonymity.py lets the reader see them."""
    gm = load_map(game.variant)
    seats = games.seats(db, game)
    position = current_position(db, game) if game.phase else None
    deadline = datetime.fromisoformat(game.deadline) if game.deadline else None
    players = [s for s in seats if s.role == games.PLAYER]
    shown = _players(db, game, gm, position, now)
    quiet = anonymity.quiet(game) and not reader.master
    return {
        "name": game.name,
        "state": game.state,
        "variant": gm.title + (", Gunboat" if game.settings.gunboat else ""),
        "turn": len(games.phase_marks(db, game)),
        "phase": game.phase or "",
        "deadline": njudge_time(deadline, zone) if deadline else "",
        "needed": max(len(gm.powers) - len(players), 0),
        "secret": anonymity.secret(game) and anonymity.hidden_from(game, reader.master),
        "settings": _settings(game.settings),
        "anonymity": _anonymity_flags(game),
        "rules": describe(rules_of(game)),  # the DATC choices that are not the preferred ones
        "end": end_rules_text(end_rules(game, gm)),
        "comment": game.settings.comment,
        "long_comment": game.settings.long_comment.splitlines(),
        "masters": [s.address for s in seats if s.role == games.MASTER],
        "players": _as_read(game, shown, reader, quiet),
        "late": sum(p["status"] == LATE for p in shown) if quiet else 0,
        "abandoned": sum(p["status"] == ABANDON for p in shown) if quiet else 0,
        "position": _position(gm, position),
        "orders": _orders(db, game, gm, position) if orders and position else [],
    }


def _settings(settings: GameSettings) -> dict[str, Any]:
    """The deadline settings (hours as decimals, days as njudge's -MTWTF-), flags, press."""
    weekdays = range(7) if settings.weekdays is None else settings.weekdays
    days = "".join(
        letter if (i - 1) % 7 in weekdays else "-" for i, letter in enumerate(_DAY_LETTERS)
    )
    return {
        "move": settings.move_hours,
        "retreat": settings.retreat_hours,
        "adjust": settings.adjust_hours,
        "grace": settings.grace_hours,
        "delay": settings.delay_minutes / 60,
        "time": settings.deadline_time or "",
        "days": days,
        "nmr": settings.nmr,
        "listed": settings.listed,
        "orders": settings.orders,
        "map": settings.map,
        "victory": settings.victory,
        "press": settings.press,
        "partial": settings.partial,
        "observer_press": settings.observer_press,
    }


def _anonymity_flags(game: games.Game) -> list[str]:
    """njudge's words on the Flags line for gunboat's settings (`Gunboat, Quiet,
    NoReveal, No Show, Secret`): each only where it differs from a plain game's."""
    settings = game.settings
    words = [
        ("Gunboat", settings.gunboat),
        ("Quiet", settings.quiet),
        ("NoReveal", not settings.reveal),
        ("No Show", not anonymity.shows_changer(game)),
        ("Secret", settings.secret),
    ]
    return [word for word, on in words if on]


def _as_read(
    game: games.Game, players: list[dict[str, Any]], reader: Reader, quiet: bool
) -> list[dict[str, Any]]:
    """The players' lines as `reader` may see them: other players' addresses hidden in a
    gunboat game; with QUIET no power named late or abandoned (counted instead); with
    SECRET, before the start, no line but the reader's own (the lines would count them)."""
    out = []
    for line in players:
        address = anonymity.shown_address(
            game, line["address"], reader=reader.address, reader_is_master=reader.master
        )
        hidden = line["address"] and address == anonymity.SOMEONE
        if hidden and not line["power"] and anonymity.secret(game):
            continue  # a forming game's player who is not the reader
        status = "" if quiet and line["status"] in (LATE, ABANDON) else line["status"]
        out.append({**line, "address": address if line["address"] else "", "status": status})
    return out


def _players(
    db: sqlite_utils.Database,
    game: games.Game,
    gm: GameMap,
    position: Position | None,
    now: datetime,
) -> list[dict[str, Any]]:
    """[{power, status, centres, units, address}]: each power by map order (before the
    powers are assigned, each player as "" power), its player's address or ""."""
    held = {s.power: s for s in games.seats(db, game, games.PLAYER) if s.power}
    if position is None:
        return [
            {"power": "", "status": "", "centres": 0, "units": 0, "address": s.address}
            for s in games.seats(db, game, games.PLAYER)
        ]
    left = {p.power for p in games.players_ever(db, game) if p.left_at and p.power}
    effective = games.effective_orders(db, game, game.phase or "")
    rules = proxies.engine_rules(rules_of(game))
    late = game.deadline is not None and datetime.fromisoformat(game.deadline) <= now
    out = []
    for power in gm.powers:
        centres = len(position.centers.get(power, ()))
        units = len(position.units_of(power))
        seat = held.get(power)
        if seat is None and not centres and not units:
            continue  # out of the game, and nobody's
        if seat is None:
            status = ABANDON if power in left else CD
        elif game.state != games.ACTIVE and game.state != games.PAUSED:
            status = ""
        elif seat.abandoned_at:
            status = ABANDON  # its player keeps the seat until someone takes it over
        else:
            status = _status(position, power, effective.get(power, []), rules, late)
        address = seat.address if seat else ""
        name = gm.powers[power].name
        out.append(
            {
                "power": name,
                "status": status,
                "centres": centres,
                "units": units,
                "address": address,
            }
        )
    return out


def _status(position: Position, power: str, on_file: list[str], rules: Rules, late: bool) -> str:
    """move, late or part while the power owes orders; "" when it owes none or all are in."""
    units_due, owed = orders_due(position, power)
    if not units_due and not owed:
        return ""
    if power_complete(position, power, on_file, rules):
        return ""
    if on_file:
        return PART
    return LATE if late else MOVE


def _position(gm: GameMap, position: Position | None) -> list[dict[str, Any]]:
    """[{power, units}]: each power's units on the board (a retreat phase's dislodged
    units are in its results, not here)."""
    if position is None:
        return []
    out = []
    for power in gm.powers:
        units = units_list(gm, position, power)
        if units:
            out.append({"power": gm.powers[power].name, "units": units})
    return out


def _orders(
    db: sqlite_utils.Database, game: games.Game, gm: GameMap, position: Position
) -> list[dict[str, Any]]:
    """[{power, orders}]: the orders on file for each power, by map order."""
    effective = games.effective_orders(db, game, game.phase or "")
    kind = position.phase.kind
    return [
        {
            "power": gm.powers[power].name,
            "orders": [describe_text(gm, o, kind) for o in effective.get(power, [])],
        }
        for power in gm.powers
        if power in effective
    ]
