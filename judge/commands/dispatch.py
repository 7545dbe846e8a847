"""The dispatcher: runs a submission's commands against the store and says what to answer.

Every submission is answered at once with one acknowledgement listing, line by line,
what the judge did: games created and joined, each SIGNON's orders as they will be
adjudicated (or why not), the units still without orders, WAIT and the deadline.
The dispatcher records *events*; the words are in templates/acknowledgement.txt.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from judge import play
from judge.assignment import parse_preference
from judge.commands.language import Command, nearest_command, read_commands
from judge.commands.replies import Context, Reply
from judge.engine.geography import MapError, load_map
from judge.mail.message import Submission, reply_address
from judge.passwords import check_password, hash_password
from judge.store import games

__all__ = ["Context", "Reply", "dispatch"]


@dataclass
class _Block:
    """The commands after one SIGNON: one power (or the master) of one game."""

    game: games.Game
    seat: games.Seat
    lines: list[str] = field(default_factory=list)
    mode: str | None = None  # MERGE / REPLACE for this mail
    clear: bool = False
    touched: bool = False  # orders or CLEAR were given


@dataclass
class _Run:
    sub: Submission
    ctx: Context
    events: list[dict] = field(default_factory=list)
    mails: list[Reply] = field(default_factory=list)
    block: _Block | None = None
    copy_to: set[str] = field(default_factory=set)  # addresses of record to copy
    to_process: set[int] = field(default_factory=set)  # game ids whose orders changed

    def event(self, kind: str, command: Command | None = None, **data: object) -> None:
        if command is not None:
            data.setdefault("line", command.line)
            data.setdefault("text", command.text)
        self.events.append({"kind": kind, **data})


def dispatch(sub: Submission, ctx: Context) -> list[Reply]:
    run = _Run(sub, ctx)
    for command in read_commands(sub.body):
        handler = _HANDLERS.get(command.name)
        if handler is None:
            run.event("error", command, message=command.args[0])
        else:
            handler(run, command)
    _close_block(run)
    for game_id in sorted(run.to_process):
        game = games.get_game(ctx.db, game_id)
        if play.ready_to_process(ctx.db, game):
            run.mails += play.process_phase(ctx.db, ctx.config, game, ctx.now)
            run.event("processed", game=game.name, phase=game.phase)
    errors = any(e["kind"] in _ERROR_KINDS for e in run.events) or any(
        e["kind"] == "orders" and e["status"].has_errors for e in run.events
    )
    context = {"sub": sub, "events": run.events, "errors": errors, "lines": sub.body.strip()}
    to = (reply_address(sub),)
    replies = [Reply(to, "acknowledgement", context)]
    others = tuple(sorted(run.copy_to - set(to)))
    if others:
        replies.append(Reply(others, "acknowledgement", {**context, "copy_for": sub.sender}))
    return replies + run.mails


_ERROR_KINDS = {
    "error",
    "unknown",
    "signon_failed",
    "needs_signon",
    "create_taken",
    "create_bad",
    "join_failed",
    "preference_bad",
    "master_only",
    "not_now",
}


# -- commands ---------------------------------------------------------------------------


def _create(run: _Run, cmd: Command) -> None:
    _close_block(run)
    name, password, *rest = cmd.args
    variant = rest[0] if rest else "standard"
    if not name.isalnum() or len(name) > 20:
        run.event("create_bad", cmd, message="a game name is up to 20 letters and digits")
        return
    try:
        load_map(variant)
    except MapError:
        run.event("create_bad", cmd, message=f"there is no variant called {variant}")
        return
    if games.find_game(run.ctx.db, name) is not None:
        run.event("create_taken", cmd, game=name)
        return
    game = games.create_game(run.ctx.db, name, variant, run.ctx.now)
    seat = games.add_seat(
        run.ctx.db, game, games.MASTER, run.sub.sender, hash_password(password), run.ctx.now
    )
    run.block = _Block(game, seat)
    run.event("created", cmd, game=name, variant=load_map(variant).title, needed=_needed(game))


def _join(run: _Run, cmd: Command) -> None:
    _close_block(run)
    name, password = cmd.args
    db, now = run.ctx.db, run.ctx.now
    game = games.find_game(db, name)
    if game is None or game.state != games.FORMING:
        run.event("join_failed", cmd, game=name, reason="no_game")
        return
    players = games.seats(db, game, games.PLAYER)
    if any(s.address == run.sub.sender for s in players):
        run.event("join_failed", cmd, game=name, reason="already")
        return
    seat = games.add_seat(db, game, games.PLAYER, run.sub.sender, hash_password(password), now)
    run.block = _Block(game, seat)
    joined, needed = len(players) + 1, _needed(game)
    run.event("joined", cmd, game=name, joined=joined, needed=needed)


def _start_if_full(run: _Run, game: games.Game) -> None:
    db = run.ctx.db
    game = games.get_game(db, game.id)
    if game.state != games.FORMING or len(games.seats(db, game, games.PLAYER)) < _needed(game):
        return
    seed = zlib.crc32(f"{game.name}|{run.ctx.now.isoformat()}".encode())
    run.mails += play.start_game(db, run.ctx.config, game, run.ctx.now, seed)
    run.event("started", game=game.name)


def _needed(game: games.Game) -> int:
    return len(load_map(game.variant).powers)


def _signon(run: _Run, cmd: Command) -> None:
    _close_block(run)
    who, name, password = cmd.args
    db = run.ctx.db
    game = games.find_game(db, name)
    seat = None
    if game is not None:
        gm = load_map(game.variant)
        by_initial = {p.initial: key for key, p in gm.powers.items()}
        for s in games.seats(db, game):
            mine = (who == "M" and s.role == games.MASTER) or (
                s.role == games.PLAYER and s.power is not None and s.power == by_initial.get(who)
            )
            if mine and check_password(password, s.password_hash):
                seat = s
                break
    if seat is None or game is None:
        # The same words whether the game, the power or the password was wrong.
        run.event("signon_failed", cmd, who=who, game=name)
        return
    run.block = _Block(game, seat)
    if seat.address != run.sub.sender:
        run.copy_to.add(seat.address)
    power = load_map(game.variant).powers[seat.power].name if seat.power else None
    run.event("signed_on", cmd, game=game.name, power=power, master=seat.role == games.MASTER)


def _order(run: _Run, cmd: Command) -> None:
    block = run.block
    if block is None:
        hint = nearest_command(cmd.text)
        if hint:
            run.event("unknown", cmd, suggestion=hint)
        else:
            run.event("needs_signon", cmd)
        return
    if block.seat.role != games.PLAYER or block.game.state != games.ACTIVE:
        hint = nearest_command(cmd.text)
        run.event("unknown" if hint else "not_now", cmd, suggestion=hint, game=block.game.name)
        return
    block.lines.append(cmd.text)
    block.touched = True


def _clear(run: _Run, cmd: Command) -> None:
    block = _need_player(run, cmd)
    if block:
        block.lines.clear()
        block.clear = True
        block.touched = True


def _mode(run: _Run, cmd: Command) -> None:
    block = _need_player(run, cmd)
    if block:
        block.mode = cmd.name.lower()


def _wait(run: _Run, cmd: Command) -> None:
    block = _need_player(run, cmd)
    if block:
        wait = cmd.name == "SET WAIT"
        block.seat = games.update_seat(run.ctx.db, block.seat, run.ctx.now, wait=int(wait))
        run.event("wait", cmd, game=block.game.name, on=wait)
        if not wait:
            run.to_process.add(block.game.id)


def _password(run: _Run, cmd: Command) -> None:
    block = _need_block(run, cmd)
    if block:
        block.seat = games.update_seat(
            run.ctx.db, block.seat, run.ctx.now, password_hash=hash_password(cmd.args[0])
        )
        run.event("password", cmd, game=block.game.name)


def _address(run: _Run, cmd: Command) -> None:
    block = _need_block(run, cmd)
    if block:
        address = cmd.args[0].strip("<>").lower()
        if "@" not in address or " " in address:
            run.event("error", cmd, message=f"{cmd.args[0]} is not a mail address.")
            return
        run.copy_to.add(block.seat.address)
        block.seat = games.update_seat(run.ctx.db, block.seat, run.ctx.now, address=address)
        run.event("address", cmd, game=block.game.name, address=address)


def _preference(run: _Run, cmd: Command) -> None:
    block = _need_block(run, cmd)
    if not block:
        return
    if block.game.state != games.FORMING or block.seat.role != games.PLAYER:
        run.event("not_now", cmd, game=block.game.name)
        return
    gm = load_map(block.game.variant)
    try:
        initials = {k: p.initial for k, p in gm.powers.items()}
        preference = parse_preference(" ".join(cmd.args), initials, names=gm.power_names)
    except ValueError as e:
        run.event("preference_bad", cmd, message=str(e))
        return
    block.seat = games.update_seat(run.ctx.db, block.seat, run.ctx.now, preference=preference)
    names = [p.name for i in preference for p in gm.powers.values() if p.initial == i]
    run.event("preference", cmd, game=block.game.name, powers=names)


def _resign(run: _Run, cmd: Command) -> None:
    block = _need_block(run, cmd)
    if block:
        games.update_seat(run.ctx.db, block.seat, run.ctx.now, left_at=run.ctx.now.isoformat())
        run.event("resigned", cmd, game=block.game.name)
        run.block = None


def _help(run: _Run, cmd: Command) -> None:
    run.event("help", cmd)


def _orders_rule(run: _Run, cmd: Command) -> None:
    block = _need_master(run, cmd)
    if block:
        settings = {**block.game.settings, "orders": cmd.args[0].lower()}
        block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
        run.event("orders_rule", cmd, game=block.game.name, rule=cmd.args[0].lower())


def _process(run: _Run, cmd: Command) -> None:
    block = _need_master(run, cmd)
    if not block:
        return
    if block.game.state != games.ACTIVE:
        run.event("not_now", cmd, game=block.game.name)
        return
    _close_block(run)
    game = games.get_game(run.ctx.db, block.game.id)
    phase = game.phase
    run.mails += play.process_phase(run.ctx.db, run.ctx.config, game, run.ctx.now)
    run.event("processed", cmd, game=game.name, phase=phase)


def _create_or_join_done(run: _Run) -> None:
    block = run.block
    if block and block.game.state == games.FORMING and block.seat.role == games.PLAYER:
        _start_if_full(run, block.game)


def _close_block(run: _Run) -> None:
    """At the next SIGNON or the end: store the block's orders and report on them."""
    block = run.block
    if block is None:
        return
    _create_or_join_done(run)
    run.block = None
    if block.seat.role != games.PLAYER or block.game.state != games.ACTIVE:
        return
    game = games.get_game(run.ctx.db, block.game.id)
    seat = games.get_seat(run.ctx.db, block.seat.id)
    if not block.touched:
        status = play.order_status(run.ctx.db, run.ctx.config, game, seat)
    else:
        mode = block.mode or game.settings.get("orders", "replace")
        status = play.submit_orders(
            run.ctx.db,
            run.ctx.config,
            game,
            seat,
            block.lines,
            mode,
            block.clear,
            run.ctx.inbound_id,
            run.ctx.now,
        )
        run.to_process.add(game.id)
    run.event("orders", status=status)


def _need_block(run: _Run, cmd: Command) -> _Block | None:
    if run.block is None:
        run.event("needs_signon", cmd)
    return run.block


def _need_player(run: _Run, cmd: Command) -> _Block | None:
    block = _need_block(run, cmd)
    if block and (block.seat.role != games.PLAYER or block.game.state != games.ACTIVE):
        run.event("not_now", cmd, game=block.game.name)
        return None
    return block


def _need_master(run: _Run, cmd: Command) -> _Block | None:
    block = _need_block(run, cmd)
    if block and block.seat.role != games.MASTER:
        run.event("master_only", cmd, what=cmd.name)
        return None
    return block


_HANDLERS = {
    "CREATE": _create,
    "JOIN": _join,
    "SIGNON": _signon,
    "ORDER": _order,
    "CLEAR": _clear,
    "MERGE": _mode,
    "REPLACE": _mode,
    "SET WAIT": _wait,
    "SET NOWAIT": _wait,
    "SET PASSWORD": _password,
    "SET ADDRESS": _address,
    "SET PREFERENCE": _preference,
    "SET ORDERS": _orders_rule,
    "RESIGN": _resign,
    "HELP": _help,
    "PROCESS": _process,
}
