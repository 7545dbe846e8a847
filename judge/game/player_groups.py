"""Players who play several powers (the standard map's games for fewer players,
rulebook XV.3): which powers each player has, handing groups out at the start, routing
one mail's orders to the right power, and the World War I game's coin flip.

A player with several powers has one seat per power, all with the same address and
password, so signing on as any of them reaches all of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime

import sqlite_utils

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.engine.notation import NotationError, parse_order
from judge.engine.orders import Build
from judge.engine.phase import Phase
from judge.store import games


def groups_of(game: games.Game, gm: GameMap, phase: Phase | None) -> tuple[tuple[str, ...], ...]:
    """The powers each player plays in `phase` (at the start when None), with any
    neutral power that has joined a player (the coin flip) in that player's group."""
    groups = [list(g) for g in gm.players(phase)]
    for power, partner in game.joined.items():
        groups = [g for g in groups if g != [power]]
        for g in groups:
            if partner in g and power not in g:
                g.append(power)
    return tuple(tuple(g) for g in groups)


def group_preferences(groups: Sequence[tuple[str, ...]], gm: GameMap, preference: str) -> str:
    """A player's preference list of power initials as a list over groups: each initial
    stands for the group it is in, written as the group's first power's initial."""
    lead = {p: gm.powers[g[0]].initial for g in groups for p in g}
    by_initial = {power.initial: key for key, power in gm.powers.items()}
    out: list[str] = []
    for ch in preference:
        key = by_initial.get(ch)
        if key is None:
            if ch in "[]*":
                out.append(ch)
            continue
        if key in lead and lead[key] not in out:
            out.append(lead[key])
    text = "".join(out).replace("[]", "")
    return text


def seat_the_group(
    db: sqlite_utils.Database,
    game: games.Game,
    seat: games.Seat,
    group: tuple[str, ...],
    now: datetime,
) -> None:
    """Give `seat`'s player every power of `group`: the seat takes the first, and a
    seat with the same address and password is added for each other one."""
    games.update_seat(db, seat, now, power=group[0])
    for power in group[1:]:
        games.add_seat(db, game, games.PLAYER, seat.address, seat.password_hash, now, power)


def partners(db: sqlite_utils.Database, game: games.Game, seat: games.Seat) -> list[games.Seat]:
    """Every seat of the player at `seat` (itself first): same address and password."""
    same = [
        s
        for s in games.seats(db, game, games.PLAYER)
        if s.id != seat.id and s.power and (s.address, s.password_hash) == seat_key(seat)
    ]
    return [seat, *same]


def seat_key(seat: games.Seat) -> tuple[str, str]:
    return (seat.address, seat.password_hash)


def route_lines(
    position: Position, powers: Sequence[str], lines: Sequence[str]
) -> dict[str, list[str]]:
    """One mail's order lines for a player of several powers -> {power: lines}. A line
    that is a power's name alone ("France:") sends the lines after it to that power;
    otherwise a line goes to the power whose unit (or, for a build, whose build site)
    it names, and to the first power when that cannot be told."""
    gm = position.game_map
    out: dict[str, list[str]] = {p: [] for p in powers}
    heading: str | None = None
    for line in lines:
        named = gm.power_names.get(_squash(line.rstrip(":")))
        if named in out:
            heading = named
            continue
        out[heading or _owner(position, powers, line) or powers[0]].append(line)
    return {p: ls for p, ls in out.items() if ls}


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _owner(position: Position, powers: Sequence[str], line: str) -> str | None:
    gm = position.game_map
    try:
        order = parse_order(line, gm, position.phase.kind).order
    except NotationError:
        return None
    if isinstance(order, Build):
        province = order.unit.location.split("/")[0]
        for power in powers:
            if province in gm.build_sites(power, position.centers.get(power, ())):
                return power
        return None
    unit_ref = getattr(order, "unit", None)
    if unit_ref is None:
        return None
    province = unit_ref.location.split("/")[0]
    unit = position.unit_in(province)
    if unit is None:
        unit = next((d.unit for d in position.dislodged if d.unit.province == province), None)
    return unit.power if unit is not None and unit.power in powers else None


def flip_coin(
    db: sqlite_utils.Database, game: games.Game, gm: GameMap, after: Phase, now: datetime
) -> tuple[list[str], tuple[str, ...]] | None:
    """The World War I game's coin: once the game reaches the adjustments before the
    neutral power's first phase (or that phase itself), the neutral power joins one
    player, drawn by a coin seeded by the game's name. Returns (the neutral powers'
    names, the winner's group) when the coin was flipped now."""
    until = gm.neutral_until
    if gm.neutral_joins != "coin_flip" or until is None or game.joined:
        return None
    if after.sort_key < Phase(until.year - 1, "W", "A").sort_key:
        return None
    groups = groups_of(game, gm, None)
    coin = random.Random(f"{game.name}|coin").randrange(len(groups))
    winner = groups[coin]
    joined = {p: winner[0] for p in sorted(gm.neutral_powers)}
    games.update_game(db, game, now, joined=joined)
    by_power = {s.power: s for s in games.seats(db, game, games.PLAYER)}
    lead = by_power[winner[0]]
    for power in sorted(gm.neutral_powers):
        games.add_seat(db, game, games.PLAYER, lead.address, lead.password_hash, now, power)
    return [gm.powers[p].name for p in sorted(gm.neutral_powers)], winner
