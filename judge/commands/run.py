"""The state of one submission's run: the mail, its answer's events and the open block.

Every handler (judge/commands/player.py, master.py, ...) works on a Run; the helpers
here say who may use a command and build the notices several handlers send.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from judge.commands.context import Context
from judge.commands.language import Command
from judge.game.dates import format_moment
from judge.mail.message import Submission
from judge.replies import Reply
from judge.store import games
from judge.store.settings import GameSettings

PLAYING = (games.ACTIVE, games.PAUSED)  # orders are taken while a game is paused
# Who may use a command, as judge/commands/table.py's CommandSpec.who says: the master,
# or the game's settings, which in an unmoderated game (SET UNMODERATED) every player
# may change too. The decision is may_use's.
MASTER_ONLY = "master"
SETTINGS = "master, or any player if unmoderated"


@dataclass
class Block:
    """The commands after one SIGNON: one power (or the master) of one game."""

    game: games.Game
    seat: games.Seat
    lines: list[str] = field(default_factory=list)
    mode: str | None = None  # MERGE / REPLACE for this mail
    clear: bool = False
    touched: bool = False  # orders or CLEAR were given
    # PHASE (judge/commands/phase_orders.py): the phase the lines below are held for
    # (None: the current one; "": a refused PHASE's, ignored), and each phase's lines.
    holding: str | None = None
    held: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Run:
    """One submission being run: what its answer will say and the mail it causes."""

    sub: Submission
    ctx: Context
    events: list[dict[str, Any]] = field(default_factory=list)  # what Run.event recorded
    mails: list[Reply] = field(default_factory=list)
    block: Block | None = None
    # Addresses of record to copy, each with the seats whose lines its copy shows: only
    # those (and the lines outside any block), never another seat's orders or overview.
    copy_to: dict[str, set[int]] = field(default_factory=dict)
    refused: bool = False  # the last SIGNON was refused: its lines are not used
    to_process: set[int] = field(default_factory=set)  # game ids whose orders changed
    passwords_left: int = 0  # password checks and hashes this mail may still make
    signed_on: bool = False  # some SIGNON in the mail had the right password
    who: str = MASTER_ONLY  # who may use the command running (its CommandSpec.who)
    # Game id -> its settings before this mail's first SET of them: the changes are
    # announced to the game once, at the end (master_settings.parameters_notices).
    settings_before: dict[int, GameSettings] = field(default_factory=dict)
    closing: Block | None = None  # the block being closed (blocks.close_block): its events
    event_seats: list[int | None] = field(default_factory=list)  # each event's block's seat
    press_sent: int = 0  # press messages this mail has sent (commands/press.py's limit)
    # The questions asked (LIST, HELP, ...: commands/answers.py), each by its line.
    asked: dict[tuple[object, ...], int] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)  # seats given a pending address (SET ADDRESS)

    def event(self, kind: str, command: Command | None = None, **data: object) -> None:
        """Record an event of the acknowledgement (with the line of `command`, if given),
        and the seat of the block it belongs to (None: outside any)."""
        if command is not None:
            data.setdefault("line", command.line)
            data.setdefault("text", command.text)
        self.events.append({"kind": kind, **data})
        block = self.block or self.closing
        self.event_seats.append(block.seat.id if block else None)

    def copy(self, seat: games.Seat) -> None:
        """Copy the answer to `seat`'s address of record, with that seat's lines."""
        self.copy_to.setdefault(seat.address, set()).add(seat.id)

    def events_for(self, seats: set[int]) -> list[dict[str, Any]]:
        """The events a copy for `seats` shows: theirs and those outside any block."""
        return [
            e for e, s in zip(self.events, self.event_seats, strict=True) if s in seats | {None}
        ]


def need_block(run: Run, cmd: Command) -> Block | None:
    """The open block; None (and an error for the reply) after no or a refused SIGNON,
    or after an OBSERVE not yet confirmed: its From: may be forged, and a PRESS or a
    DIARY after it would act in the name of an address that never asked to observe."""
    if run.block is None:
        run.event("after_refused" if run.refused else "needs_signon", cmd)
    elif run.block.seat.unconfirmed:
        refuse(run, cmd, "observer_unconfirmed", game=run.block.game.name, role=run.block.seat.role)
        return None
    return run.block


def need_player(run: Run, cmd: Command) -> Block | None:
    """The open block if it is a player's in a game under way; else None and an error."""
    block = need_block(run, cmd)
    if block and (block.seat.role != games.PLAYER or block.game.state not in PLAYING):
        run.event("not_now", cmd, game=block.game.name)
        return None
    return block


def need_master(run: Run, cmd: Command) -> Block | None:
    """The open block if its seat may use the command running (may_use: the master's,
    or, for a game setting in an unmoderated game, a player's too); else None and an
    error for the reply."""
    block = need_block(run, cmd)
    if block and not may_use(run.who, block):
        run.event("master_only", cmd, what=cmd.name)
        return None
    return block


def may_use(who: str, block: Block) -> bool:
    """Whether the seat of `block` may use a command of the master's that `who` (the
    table's CommandSpec.who) may use: the master always; a player only a game setting
    (SETTINGS), and only in an unmoderated game, as njudge has it."""
    if block.seat.role == games.MASTER:
        return True
    unmoderated = not block.game.settings.moderated
    return who == SETTINGS and unmoderated and block.seat.role == games.PLAYER


def active(run: Run, cmd: Command, block: Block) -> bool:
    """Whether the block's game is under way and not paused; if not, an error."""
    if block.game.state not in (games.ACTIVE,):
        run.event("not_now", cmd, game=block.game.name)
        return False
    return True


def everyone(run: Run, game: games.Game, template: str, context: dict[str, object]) -> Reply:
    """A notice `template` about `game` to everyone seated in it."""
    to = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
    return Reply(to, template, {"game": game.name, **context}, "notice", False)


def deadline_mail(run: Run, game: games.Game, moment: datetime) -> Reply:
    """The notice to everyone in `game` that its deadline is now `moment`."""
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
    return Reply(
        everyone,
        "deadline_changed",
        {"game": game.name, "deadline": format_moment(moment, run.ctx.config.zone)},
        "notice",
        False,
    )


def refuse(run: Run, cmd: Command | None, code: str, **values: object) -> None:
    """An ERROR line in the reply: templates/errors/<code>.txt, worded from `values`."""
    run.event("error", cmd, code=code, **values)
