"""The dispatcher: runs a submission's commands against the store and says what to answer.

Every submission is answered at once with one acknowledgement listing, line by line,
what the judge did: games created and joined, each SIGNON's orders as they will be
adjudicated (or why not), the units still without orders, WAIT and the deadline.
The dispatcher records *events*; the words are in templates/acknowledgement.txt.
The commands and their handlers are in judge/commands/table.py; the state the handlers
share in run.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from judge.commands.answers import asked_before
from judge.commands.blocks import close_block, too_many_passwords
from judge.commands.context import Context
from judge.commands.language import Command, masked_line, read_commands
from judge.commands.master_settings import parameters_notices, remember_settings
from judge.commands.run import Run, refuse
from judge.commands.table import BY_NAME, announced
from judge.engine.geography import MapError
from judge.failures import failure_reason, is_transient
from judge.game import njudge_lines, play
from judge.game.failure import pause_failed
from judge.mail.message import Submission, reply_address
from judge.replies import SIGNED_REPLY, Reply
from judge.store import games
from judge.store.db import transaction
from judge.variants.maps import load_map

__all__ = ["Context", "Reply", "dispatch"]

log = logging.getLogger("judge.dispatch")


def dispatch(sub: Submission, ctx: Context) -> list[Reply]:
    """Run every command of `sub`; the acknowledgement (and its copies) first, then
    every other mail the commands caused."""
    run = Run(sub, ctx, passwords_left=ctx.config.passwords_per_mail)
    signed_game: int | None = None  # the game of the last block opened: the answer's header
    for command in read_commands(sub.body):
        spec = BY_NAME.get(command.name)
        if spec is None:
            if command.error is not None:  # the command reader's (judge/commands/language.py)
                refuse(run, command, command.error.code, **command.error.values)
            else:
                refuse(run, command, "not_understood")
        elif (spec.password and not _spend_password(run, command)) or asked_before(run, command):
            continue  # refused: past the mail's passwords, or a question it asked already
        else:
            run.who = spec.who  # need_master reads it (run.may_use)
            if announced(spec):
                remember_settings(run)
            _guarded(run, command, partial(spec.handler, run, command))
        if run.block is not None:
            signed_game = run.block.game.id
    _guarded(run, None, lambda: close_block(run))  # the last block's orders are stored here
    run.mails += parameters_notices(run)
    # The header shows the game as the commands left it, before any processing they caused.
    header = _header(ctx, signed_game)
    for game_id in sorted(run.to_process):
        game = games.get_game(ctx.db, game_id)
        try:
            with transaction(ctx.db):  # a savepoint: a failing game is rolled back alone
                mails = play.orders_changed(ctx.db, ctx.config, game, ctx.now)
        except Exception as e:
            if is_transient(e):
                raise  # the whole message is tried again
            # A fault of ours in this game's processing: the orders stay stored, the game
            # is paused and its masters told, and the rest of the mail is answered.
            reason = failure_reason(e)
            log.exception("game %s, phase %s: processing raised %s", game.name, game.phase, reason)
            run.mails += pause_failed(ctx.db, game, ctx.now, reason)
            run.event("game_failed", game=game.name)
            continue
        if mails:
            run.mails += mails
            run.event("processed", game=game.name, phase=game.phase)
    # The subject is echoed in the answer's: "SIGNON Fwar1 secret" there is masked too.
    shown = replace(sub, subject=masked_line(sub.subject))
    context = {"sub": shown, "events": run.events, "errors": _errors(run.events), **header}
    to = (reply_address(sub),)
    kind = _answer_kind(run)
    replies = [Reply(to, "acknowledgement", context, kind)]
    for address in sorted(set(run.copy_to) - set(to)):
        # Each address of record sees its own seats' lines: not another power's orders,
        # nor the master's overview of them (BECOME), that the same mail also held.
        events = run.events_for(run.copy_to[address])
        copy = {**context, "events": events, "errors": _errors(events), "copy_for": sub.sender}
        replies.append(Reply((address,), "acknowledgement", copy, kind))
    return replies + run.mails


def _answer_kind(run: Run) -> str:
    """SIGNED_REPLY when the mail signed on with a right password from the address of
    record of a seat it acted as: such an answer is never held back by the limits on
    replies, so a forger (who has no password) cannot use them to silence the player, and
    an autoresponder never has the password (it is never echoed). From another address
    it is a reply like any other: the From: can be forged and anyone may observe a game,
    so a stranger's own observer password made the answers to any address he wrote in
    the From: unlimited (30 KB for each mail of 131 bytes, every mail)."""
    if not run.signed_on:
        return "reply"
    seats = {seat for seat in run.event_seats if seat is not None}
    of_record = {games.get_seat(run.ctx.db, seat).address for seat in seats}
    return SIGNED_REPLY if run.sub.sender in of_record else "reply"


def _errors(events: list[dict[str, Any]]) -> bool:
    """Whether the events refuse anything (the answer's subject says [Error Flag])."""
    return any(e["kind"] in _ERROR_KINDS for e in events) or any(
        e["kind"] == "orders" and e["status"].has_errors for e in events
    )


def _guarded(run: Run, command: Command | None, step: Callable[[], None]) -> None:
    """Run `step`, a command's handler or the closing of a block. A game whose stored
    state does not read (a disk fault, a hand edit) refuses the line, and is paused and
    its masters told; the rest of the mail is answered: tried again, the mail would fail
    the same way. No savepoint: the store raises as the step reads the game, before it
    writes anything for it, and a SIGNON's closing of the block before it (another
    game's orders, acknowledged already) must stay."""
    try:
        step()
    except games.UnreadableGame as e:
        if run.block is not None and run.block.game.name == e.name:
            run.block = None  # its orders could not be checked: nothing of it is stored
        reason = failure_reason(e)
        log.error("game %s does not read: %s", e.name, reason)
        refuse(run, command, "game_unreadable", game=e.name)
        _pause(run, games.find_game_row(run.ctx.db, e.name), reason)
    except MapError as e:
        # A game whose map file was removed (or broken) since it began: tried again, the
        # mail would fail the same way, so it is refused at once, as an unreadable game.
        row = _without_map(run, command)
        if row is None:
            raise  # no game of this line lacks its map: a fault of ours, tried again
        if run.block is not None and run.block.game.id == row.id:
            run.block = None  # its orders could not be checked: nothing of it is stored
        # else the line named another game (LIST war2 in war1's orders): war1's block and
        # its orders stay, or they vanished without a line of the answer
        reason = failure_reason(e)
        log.error("game %s has no map: %s", row.name, reason)
        paused = _pause(run, row, reason)
        refuse(run, command, "game_map_missing", game=row.name, map=row.variant, paused=paused)


def _pause(run: Run, row: games.GameRow | None, reason: str) -> bool:
    """Pause the game of `row` (if it is under way) and queue its masters' notice; it is
    not looked at again until it changes. Whether it was paused."""
    if row is None:
        return False
    notices = pause_failed(run.ctx.db, row, run.ctx.now, reason)
    run.mails += notices
    games.set_next_event(run.ctx.db, row, None)  # until it is put right
    return games.game_row(run.ctx.db, row.id).state == games.PAUSED


def _without_map(run: Run, command: Command | None) -> games.GameRow | None:
    """The game of the open block, or one the line names, whose map does not load."""
    names = [b.game.name for b in (run.block, run.closing) if b is not None]
    names += _named_games(command) if command else []
    for name in dict.fromkeys(names):
        row = games.find_game_row(run.ctx.db, name) if games.valid_game_name(name) else None
        if row is not None and not _map_loads(row.variant):
            return row
    return None


# The argument of a line with a password that names its game; other lines with one
# name none (their block's), and a password is never looked up as a game's name.
_GAME_ARGUMENT = {"SIGNON": 1, "JOIN": 0, "OBSERVE": 0}


def _named_games(command: Command) -> list[str]:
    """The names of games `command`'s arguments may be."""
    args = [a.lstrip("?") for a in command.args]
    spec = BY_NAME.get(command.name)
    if spec is None or not spec.password:
        return args
    at = _GAME_ARGUMENT.get(command.name)
    return [args[at]] if at is not None and at < len(args) else []


def _map_loads(variant: str) -> bool:
    try:
        load_map(variant)
    except MapError:
        return False
    return True


def _header(ctx: Context, game_id: int | None) -> dict[str, object]:
    """The answer's `::` header values and the time left (judge/game/njudge_lines.py):
    of the game the mail signed on to, or none (`head` None) for someone not signed on."""
    if game_id is None:
        return {"head": None, "time_left": None}
    game = games.get_game(ctx.db, game_id)
    return {
        "head": njudge_lines.head(ctx.config, game),
        "time_left": njudge_lines.time_left(game, ctx.now),
    }


def _spend_password(run: Run, cmd: Command) -> bool:
    """Whether the mail may still check or hash a password for `cmd` (scrypt, ~40 ms
    each: a mail may carry at most `passwords_per_mail` of them; several games in one
    mail stay possible, 300 guesses do not); if not, the command
    is refused unread (and the lines after a refused SIGNON are not used). A SIGNON pays
    for its checks itself (one or more)."""
    if run.passwords_left < 1:
        too_many_passwords(run, cmd)
        return False
    if cmd.name != "SIGNON":
        run.passwords_left -= 1
    return True


_ERROR_KINDS = {
    "too_many_passwords",
    "signon_locked",
    "after_refused",
    "press_refused",
    "error",
    "unknown",
    "signon_failed",
    "needs_signon",
    "create_taken",
    "create_bad",
    "game_name_bad",
    "address_bad",
    "join_failed",
    "master_only",
    "not_now",
    "process_refused",
    "rollback_refused",
}
