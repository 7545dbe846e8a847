"""Orders held for a later phase (njudge's PHASE, njudge.md section 4): which phases may
be named, the check of held lines now, the list later replies show, and their entry when
their phase starts, as if mailed then."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.engine.notation import NotationError, parse_order
from judge.engine.phase import Phase
from judge.game import conditions
from judge.game.errors import CommandError
from judge.replies import Reply
from judge.store import games, pending
from judge.variants.problem_text import reason_text

YEARS_AHEAD = 5  # njudge's reach: a PHASE up to five years after the current one
MAX_HELD_LINES = 100  # lines one power may hold for one phase, all mails together

# How a power's held lines are entered: (seat, order lines) -> the order status.
Submit = Callable[[games.Seat, list[str]], Any]


def phase_refusal(current: str, wanted: str) -> CommandError | None:
    """Why orders may not be held for `wanted` while the game is in `current` (both
    codes), or None: it must come later, and at most YEARS_AHEAD years later."""
    now, then = Phase.parse(current), Phase.parse(wanted)
    if then.sort_key < now.sort_key:
        return CommandError("phase_past", phase=wanted, current=current)
    if then.year > now.year + YEARS_AHEAD:
        return CommandError("phase_too_far", phase=wanted, current=current, years=YEARS_AHEAD)
    return None


@dataclass(frozen=True)
class Checked:
    """Held lines after the check: those kept, and the orders refused with why."""

    kept: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]  # (the line, the reason in words)


def check(gm: GameMap, phase: str, lines: Sequence[str]) -> Checked:
    """The syntax check of held lines, as far as the map allows without the position:
    each order must read as an order of that phase's kind; the IFs must make a program
    (CommandError if not, and nothing is kept)."""
    kind = Phase.parse(phase).kind
    kept: list[str] = []
    refused: list[tuple[str, str]] = []
    for line in lines:
        if line.partition(" ")[0] in ("IF", "ELSE", "ENDIF"):
            kept.append(line)
            continue
        try:
            parse_order(line, gm, kind)
        except NotationError as e:
            refused.append((line, reason_text(e.problem)))
            continue
        kept.append(line)
    conditions.program(kept, gm)
    return Checked(tuple(kept), tuple(refused))


def keep(
    db: sqlite_utils.Database, game: games.Game, power: str, phase: str, lines: list[str], now: Any
) -> None:
    """Store checked lines after those held before; CommandError past MAX_HELD_LINES."""
    before = sum(len(h.lines) for h in pending.held(db, game.id, power) if h.phase == phase)
    if before + len(lines) > MAX_HELD_LINES:
        raise CommandError("held_too_many", phase=phase, limit=MAX_HELD_LINES)
    pending.hold(db, game.id, power, phase, lines, now)


def listing(db: sqlite_utils.Database, game: games.Game, power: str) -> list[dict[str, Any]]:
    """What a power holds, by phase in the order they come: {phase, lines}."""
    by_phase: dict[str, list[str]] = {}
    for h in pending.held(db, game.id, power):
        by_phase.setdefault(h.phase, []).extend(h.lines)
    ordered = sorted(by_phase, key=lambda p: Phase.parse(p).sort_key)
    return [{"phase": p, "lines": by_phase[p]} for p in ordered]


def enter(
    db: sqlite_utils.Database, game: games.Game, position: Position, submit: Submit
) -> list[Reply]:
    """At the start of the phase of `position`: each power's held lines for it, their
    conditions evaluated on `position`, entered by `submit` as if mailed now; a "Pending
    Orders" mail to each. Lines for this phase or earlier ones are dropped."""
    now = position.phase
    by_power: dict[str, list[str]] = {}
    done: list[int] = []
    for h in pending.held(db, game.id):
        if Phase.parse(h.phase).sort_key > now.sort_key:
            continue
        done.append(h.id)
        if h.phase == str(now):
            by_power.setdefault(h.power, []).extend(h.lines)
    pending.drop(db, done)
    seats = {s.power: s for s in games.seats(db, game, games.PLAYER) if s.power}
    mails = []
    for power, lines in by_power.items():
        seat = seats.get(power)
        if seat is None:  # the power's player left: nobody to enter them for
            continue
        try:
            program = conditions.program(lines, position.game_map)
        except CommandError:  # checked when held: a map changed since cannot happen
            continue
        status = submit(seat, conditions.orders_of(program, position))
        context = {"game": game.name, "phase": str(now), "status": status}
        mails.append(Reply((seat.address,), "pending_orders", context, "notice", False))
    return mails
