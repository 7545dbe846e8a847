"""Orders held for a later phase (njudge's PHASE, njudge.md section 4): which phases may
be named, the check of held lines now, the list later replies show, and their entry when
their phase starts, as if mailed then."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlite_utils

from judge.engine.board import Position
from judge.engine.geography import GameMap, squash
from judge.engine.notation import NotationError, parse_order
from judge.engine.phase import Phase
from judge.game import conditions
from judge.game.errors import CommandError
from judge.game.player_groups import partners, route_lines
from judge.game.report import echoed
from judge.game.rules import may_wait
from judge.replies import Reply
from judge.store import games, pending
from judge.variants.problem_text import reason_text

YEARS_AHEAD = 5  # njudge's reach: a PHASE up to five years after the current one
MAX_HELD_LINES = 100  # lines one power may hold for one phase, all mails together
_WAITS = {"SET WAIT": True, "SET NOWAIT": False}  # held too (njudge: WAIT after PHASE)

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
        heading = gm.power_names.get(squash(line.rstrip(":")))  # "France:", several powers'
        if line.partition(" ")[0] in ("IF", "ELSE", "ENDIF") or line in _WAITS or heading:
            kept.append(line)
            continue
        try:
            parse_order(line, gm, kind)
        except NotationError as e:
            refused.append((echoed(line), reason_text(e.problem)))
            continue
        kept.append(line)
    conditions.program(kept, gm)
    return Checked(tuple(kept), tuple(refused))


def keep(
    db: sqlite_utils.Database,
    game: games.Game,
    seat: games.Seat,
    phase: str,
    lines: list[str],
    now: datetime,
) -> None:
    """Store checked lines after those held before; CommandError past MAX_HELD_LINES."""
    before = sum(len(h.lines) for h in pending.held(db, game.id, seat.id) if h.phase == phase)
    if before + len(lines) > MAX_HELD_LINES:
        raise CommandError("held_too_many", phase=phase, limit=MAX_HELD_LINES)
    pending.hold(db, game.id, seat.id, seat.power or "", phase, lines, now)


def listing(db: sqlite_utils.Database, game: games.Game, seat: games.Seat) -> list[dict[str, Any]]:
    """What a seat holds, by phase in the order they come: {phase, lines}."""
    by_phase: dict[str, list[str]] = {}
    for h in pending.held(db, game.id, seat.id):
        by_phase.setdefault(h.phase, []).extend(h.lines)
    ordered = sorted(by_phase, key=lambda p: Phase.parse(p).sort_key)
    return [{"phase": p, "lines": by_phase[p]} for p in ordered]


def enter(
    db: sqlite_utils.Database,
    game: games.Game,
    position: Position,
    submit: Submit,
    now: datetime,
) -> list[Reply]:
    """At the start of the phase of `position`: each power's held lines for it, their
    conditions evaluated on `position`, entered by `submit` as if mailed now; a "Pending
    Orders" mail to each. Lines for this phase or earlier ones are dropped."""
    phase = position.phase
    by_seat: dict[int, list[str]] = {}
    done: list[int] = []
    for h in pending.held(db, game.id):
        if Phase.parse(h.phase).sort_key > phase.sort_key:
            continue
        done.append(h.id)
        if h.phase == str(phase):
            by_seat.setdefault(h.seat_id, []).extend(h.lines)
    pending.drop(db, done)
    seats = {s.id: s for s in games.seats(db, game, games.PLAYER) if s.power}
    mails = []
    for seat_id, lines in by_seat.items():
        seat = seats.get(seat_id)
        if seat is None:  # the player left (resigned, replaced): not entered for another
            continue
        try:
            program = conditions.program(lines, position.game_map)
        except CommandError:  # checked when held: a map changed since cannot happen
            continue
        chosen = conditions.orders_of(program, position)
        mails += _entered(db, game, position, seat, chosen, submit, now)
    return mails


def _entered(
    db: sqlite_utils.Database,
    game: games.Game,
    position: Position,
    seat: games.Seat,
    chosen: list[str],
    submit: Submit,
    now: datetime,
) -> list[Reply]:
    """The chosen lines of one player entered: a held WAIT set (where the game allows
    it), the orders routed to the player's powers as one mail's would be; a "Pending
    Orders" mail for each power given orders."""
    waits = [_WAITS[line] for line in chosen if line in _WAITS]
    orders = [line for line in chosen if line not in _WAITS]
    if waits and (not waits[-1] or may_wait(db, game, seat)):
        games.update_seat(db, seat, now, wait=int(waits[-1]))
    mine = partners(db, game, seat)  # a player of several powers orders them all
    routed = route_lines(position, [s.power for s in mine if s.power], orders)
    mails = []
    for s in mine:
        if s.power and (routed.get(s.power) or (s.id == seat.id and waits)):
            status = submit(s, routed.get(s.power, []))
            context = {"game": game.name, "phase": str(position.phase), "status": status}
            mails.append(Reply((s.address,), "pending_orders", context, "notice", False))
    return mails
