"""PHASE and the conditional orders after it (njudge.md section 4): the lines after a
PHASE line are held for that phase, checked now and stored when the block closes, and
listed under "Pending orders" in later replies; CLEAR after PHASE clears that phase's."""

from __future__ import annotations

from collections.abc import Callable

from judge.commands.language import Command
from judge.commands.phases import phase_named
from judge.commands.run import Block, Run, need_block, need_player, refuse
from judge.game import pending_orders
from judge.game.errors import CommandError
from judge.store import games, pending
from judge.variants.maps import load_map

Handler = Callable[[Run, Command], None]


def phase(run: Run, cmd: Command) -> None:
    """PHASE phase: the lines below, up to the next PHASE, are held for that phase (the
    current phase's: they are current orders). A past, unreadable or too distant one is
    refused, and the lines below it up to the next PHASE are ignored."""
    block = need_player(run, cmd)
    if block is None:
        return
    block.holding = ""
    named = phase_named(cmd.args[0])
    current = block.game.phase or ""
    if named is None:
        refuse(run, cmd, "phase_unreadable", written=cmd.args[0][:40])
        return
    if named == current:
        block.holding = None
        run.event("holding", cmd, phase=named, current=True)
        return
    e = pending_orders.phase_refusal(current, named)
    if e is not None:
        refuse(run, cmd, e.code, **e.values)
        return
    block.holding = named
    block.held.setdefault(named, [])
    run.event("holding", cmd, phase=named, current=False)


def held_or(handler: Handler) -> Handler:
    """ORDER, CLEAR, SET WAIT and SET NOWAIT: after a PHASE, for the phase named (a line
    after a refused PHASE is ignored); otherwise `handler`, the current phase's."""

    def run_it(run: Run, cmd: Command) -> None:
        block = run.block
        if block is None or block.holding is None:
            handler(run, cmd)
        elif block.holding and cmd.name == "CLEAR":
            _clear(run, cmd, block, block.holding)
        elif block.holding:  # a WAIT is held by its name (SET NO WAIT is SET NOWAIT)
            block.held[block.holding].append(cmd.text if cmd.name == "ORDER" else cmd.name)

    return run_it


def conditional(run: Run, cmd: Command) -> None:
    """IF, ELSE [IF] and ENDIF: held with the orders (read into a program when the
    block closes); only after a PHASE for a later phase."""
    block = need_block(run, cmd)
    if block is None or block.holding == "":
        return
    if block.holding is None:
        refuse(run, cmd, "condition_needs_phase")
        return
    block.held[block.holding].append(" ".join((cmd.name, *cmd.args)))


def _clear(run: Run, cmd: Command, block: Block, phase: str) -> None:
    """CLEAR after PHASE: the orders held for that phase, this mail's before it too."""
    pending.clear(run.ctx.db, block.game.id, block.seat.id, phase)
    block.held[phase] = []
    run.event("held_cleared", cmd, phase=phase)


def close_held(run: Run, block: Block, game: games.Game, seat: games.Seat) -> None:
    """At the block's close: each phase's held lines checked and stored (or refused),
    then everything the power holds listed under "Pending orders"."""
    gm = load_map(game.variant)
    for phase_code, lines in block.held.items():
        if not lines:
            continue
        try:
            checked = pending_orders.check(gm, phase_code, lines)
            for line, reason in checked.refused:
                refuse(run, None, "held_order_bad", phase=phase_code, order=line, reason=reason)
            if checked.kept:
                pending_orders.keep(
                    run.ctx.db, game, seat, phase_code, list(checked.kept), run.ctx.now
                )
        except CommandError as e:
            refuse(run, None, "held_refused", phase=phase_code, why=e.code, **e.values)
    held = pending_orders.listing(run.ctx.db, game, seat)
    if held:
        run.event("pending_orders", game=game.name, phases=held)
