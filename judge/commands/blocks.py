"""Closing a block (the commands after one SIGNON): orders stored and reported, a full
game started, the master shown every power's orders."""

from __future__ import annotations

import zlib
from datetime import datetime

from judge.commands.language import Command
from judge.commands.phase_orders import close_held
from judge.commands.run import PLAYING, Block, Run
from judge.game import play
from judge.game.player_groups import groups_of, partners, route_lines
from judge.game.rules import starts_itself, waits_for_start_date
from judge.replies import Reply
from judge.store import games
from judge.variants.maps import load_map


def close_block(run: Run) -> None:
    """At the next SIGNON or the end: store the block's orders and report on them (the
    report belongs to the block: a copy for another seat does not show it)."""
    block = run.block
    if block is None:
        return
    run.closing = block
    try:
        _close(run, block)
    finally:
        run.closing = None


def _close(run: Run, block: Block) -> None:
    """close_block's work, the block still open."""
    _create_or_join_done(run)
    run.block = None
    game = games.get_game(run.ctx.db, block.game.id)  # it may have ended meanwhile
    if block.seat.role == games.MASTER and game.state in PLAYING:
        _master_overview(run, block)
        return
    # A player's orders are reported only where the game was already under way when
    # the block began (a seventh player's join starts the game: no status for that).
    if block.seat.role != games.PLAYER or block.game.state not in PLAYING:
        return
    if game.state not in PLAYING:
        return
    seat = games.get_seat(run.ctx.db, block.seat.id)
    mine = partners(run.ctx.db, game, seat)  # a player of several powers orders them all
    by_power = {s.power: s for s in mine if s.power}  # in a game under way, all have one
    if not block.touched:
        for s in mine:
            run.event("orders", status=play.order_status(run.ctx.db, run.ctx.config, game, s))
        close_held(run, block, game, seat)  # orders held by PHASE, and the list of them
        return
    mode = block.mode or game.settings.orders
    routed: dict[str, list[str]] = {seat.power: block.lines} if seat.power else {}
    if len(mine) > 1:
        routed = route_lines(play.current_position(run.ctx.db, game), list(by_power), block.lines)
    for power, s in by_power.items():
        lines = routed.get(power, [])
        if not lines and not block.clear:
            run.event("orders", status=play.order_status(run.ctx.db, run.ctx.config, game, s))
            continue
        status = play.submit_orders(
            run.ctx.db,
            run.ctx.config,
            game,
            s,
            lines,
            mode,
            block.clear,
            run.ctx.inbound_id,
            run.ctx.now,
        )
        run.event("orders", status=status)
    run.to_process.add(game.id)
    close_held(run, block, game, seat)


def _create_or_join_done(run: Run) -> None:
    """A player's block in a forming game: start the game if it is now full."""
    block = run.block
    if block and block.game.state == games.FORMING and block.seat.role == games.PLAYER:
        start_if_full(run, block.game)


def start_if_full(run: Run, game: games.Game) -> None:
    """Start `game` (and tell everyone) once it has the players it needs."""
    db = run.ctx.db
    game = games.get_game(db, game.id)
    if game.state != games.FORMING or len(games.seats(db, game, games.PLAYER)) < players_needed(
        game
    ):
        return
    # SET MANUAL START: the master starts it; SET START date: the clock does, then.
    if not starts_itself(game) or waits_for_start_date(game, run.ctx.now):
        _start_waiting(run, game)
        return
    seed = start_seed(game, run.ctx.now)
    run.mails += play.start_game(db, run.ctx.config, game, run.ctx.now, seed)
    run.event("started", game=game.name)


def start_seed(game: games.Game, now: datetime) -> int:
    """The seed of the powers' assignment of `game` started at `now`."""
    return zlib.crc32(f"{game.name}|{now.isoformat()}".encode())


def _start_waiting(run: Run, game: games.Game) -> None:
    """Everyone in the manual-start `game` is told it waits for its master, once: when
    this mail's JOIN filled it."""
    filled = any(
        e["kind"] == "joined" and e["game"] == game.name and e["joined"] == e["needed"]
        for e in run.events
    )
    if filled:
        everyone = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
        run.mails.append(Reply(everyone, "start_waiting", {"game": game.name}, "notice", False))


def players_needed(game: games.Game) -> int:
    """Players needed to start: one per group of powers (one per power normally)."""
    return len(groups_of(game, load_map(game.variant), None))


def _master_overview(run: Run, block: Block) -> None:
    """Masters see every power's orders on file in their acknowledgement."""
    db = run.ctx.db
    game = games.get_game(db, block.game.id)
    statuses = [
        play.order_status(db, run.ctx.config, game, seat)
        for seat in games.seats(db, game, games.PLAYER)
        if seat.power
    ]
    run.event("overview", game=game.name, statuses=statuses)


def too_many_passwords(run: Run, cmd: Command) -> None:
    """The mail's passwords are spent: `cmd` is refused (and a SIGNON's lines with it)."""
    if cmd.name in ("SIGNON", "CREATE", "JOIN", "OBSERVE"):
        close_block(run)  # the orders before it are reported before it
        run.refused = True
    run.event("too_many_passwords", cmd, limit=run.ctx.config.passwords_per_mail)
