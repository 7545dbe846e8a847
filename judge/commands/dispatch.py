"""The dispatcher: runs a submission's commands against the store and says what to answer.

Every submission is answered at once with one acknowledgement listing, line by line,
what the judge did: games created and joined, each SIGNON's orders as they will be
adjudicated (or why not), the units still without orders, WAIT and the deadline.
The dispatcher records *events*; the words are in templates/acknowledgement.txt.
"""

from __future__ import annotations

import logging
import re
import zlib
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from judge.commands import signon
from judge.commands.context import Context
from judge.commands.language import Command, masked_line, nearest_command, read_commands
from judge.engine.geography import MapError
from judge.engine.phase import Phase
from judge.failures import failure_reason, is_transient
from judge.game import play
from judge.game.assignment import parse_preference
from judge.game.dates import (
    DateError,
    check_within_reach,
    format_moment,
    parse_duration,
    parse_moment,
    parse_time_of_day,
    parse_weekdays,
    push_past_absence,
)
from judge.game.failure import pause_failed
from judge.game.passwords import hash_password
from judge.game.player_groups import groups_of, partners, route_lines
from judge.mail.addresses import Undeliverable, deliverable
from judge.mail.message import Submission, reply_address
from judge.replies import SIGNED_REPLY, Reply
from judge.store import games, inbox
from judge.store.audit import iso
from judge.store.db import transaction
from judge.variants.maps import load_map, map_names

__all__ = ["Context", "Reply", "dispatch"]
_PLAYING = (games.ACTIVE, games.PAUSED)  # orders are taken while a game is paused

log = logging.getLogger("judge.dispatch")


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
    refused: bool = False  # the last SIGNON was refused: its lines are not used
    to_process: set[int] = field(default_factory=set)  # game ids whose orders changed
    passwords_left: int = 0  # password checks and hashes this mail may still make
    signed_on: bool = False  # some SIGNON in the mail had the right password

    def event(self, kind: str, command: Command | None = None, **data: object) -> None:
        if command is not None:
            data.setdefault("line", command.line)
            data.setdefault("text", command.text)
        self.events.append({"kind": kind, **data})


def dispatch(sub: Submission, ctx: Context) -> list[Reply]:
    run = _Run(sub, ctx, passwords_left=ctx.config.passwords_per_mail)
    for command in read_commands(sub.body):
        handler = _HANDLERS.get(command.name)
        if handler is None:
            message = command.args[0] if command.args else "I don't understand this line."
            run.event("error", command, message=message)
        elif command.name in _PASSWORD_COMMANDS and not _spend_password(run, command):
            continue
        else:
            handler(run, command)
    _close_block(run)
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
    errors = any(e["kind"] in _ERROR_KINDS for e in run.events) or any(
        e["kind"] == "orders" and e["status"].has_errors for e in run.events
    )
    # The subject is echoed in the answer's: "SIGNON Fwar1 secret" there is masked too.
    shown = replace(sub, subject=masked_line(sub.subject))
    context = {"sub": shown, "events": run.events, "errors": errors}
    to = (reply_address(sub),)
    # The answer to a mail that signed on with a right password is never held back by
    # the limits on replies: a forger (who has no password) cannot use them to silence
    # the player, and an autoresponder never has the password (it is never echoed).
    kind = SIGNED_REPLY if run.signed_on else "reply"
    replies = [Reply(to, "acknowledgement", context, kind)]
    others = tuple(sorted(run.copy_to - set(to)))
    if others:
        copy = {**context, "copy_for": sub.sender}
        replies.append(Reply(others, "acknowledgement", copy, kind))
    return replies + run.mails


# Commands that check or hash a password (scrypt, ~40 ms each): a mail may carry at most
# `passwords_per_mail` of them. Several games in one mail stay possible; 300 guesses do not.
_PASSWORD_COMMANDS = {
    "SIGNON",
    "CREATE",
    "JOIN",
    "OBSERVE",
    "SET PASSWORD",
    "REPLACE POWER",
    "PROMOTE",
}


def _spend_password(run: _Run, cmd: Command) -> bool:
    """Whether the mail may still check or hash a password for `cmd`; if not, the command
    is refused unread (and the lines after a refused SIGNON are not used). A SIGNON pays
    for its checks itself (one or more)."""
    if run.passwords_left < 1:
        _too_many_passwords(run, cmd)
        return False
    if cmd.name != "SIGNON":
        run.passwords_left -= 1
    return True


def _too_many_passwords(run: _Run, cmd: Command) -> None:
    if cmd.name in ("SIGNON", "CREATE", "JOIN", "OBSERVE"):
        _close_block(run)  # the orders before it are reported before it
        run.refused = True
    run.event("too_many_passwords", cmd, limit=run.ctx.config.passwords_per_mail)


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
    "preference_bad",
    "master_only",
    "not_now",
    "process_refused",
    "rollback_refused",
}


# -- commands ---------------------------------------------------------------------------


def _create(run: _Run, cmd: Command) -> None:
    _close_block(run)
    name, password, *rest = cmd.args
    variant = rest[0] if rest else "standard"
    if not games.valid_game_name(name):
        run.event("game_name_bad", cmd, game=name[:40], limit=games.MAX_GAME_NAME)
        return
    master = _sender_of_record(run, cmd)
    if master is None:
        return
    try:
        load_map(variant)
    except MapError:
        known = ", ".join(map_names())
        run.event(
            "create_bad", cmd, message=f"there is no variant called {variant} (there are: {known})"
        )
        return
    if games.find_game(run.ctx.db, name) is not None:
        run.event("create_taken", cmd, game=name)
        return
    game = games.create_game(run.ctx.db, name, variant, run.ctx.now)
    seat = games.add_seat(
        run.ctx.db, game, games.MASTER, master, hash_password(password), run.ctx.now
    )
    run.block = _Block(game, seat)
    run.event("created", cmd, game=name, variant=load_map(variant).title, needed=_needed(game))


def _join(run: _Run, cmd: Command) -> None:
    _close_block(run)
    name, password = cmd.args
    db, now = run.ctx.db, run.ctx.now
    address = _sender_of_record(run, cmd)
    if address is None:
        return
    game = games.find_game(db, name)
    if game is not None and game.state in _PLAYING:
        admin.observe(run, cmd)  # a started game: join it as an observer
        return
    if game is None or game.state != games.FORMING:
        run.event("join_failed", cmd, game=name, reason="no_game")
        return
    players = games.seats(db, game, games.PLAYER)
    if any(s.address == address for s in players):
        run.event("join_failed", cmd, game=name, reason="already")
        return
    seat = games.add_seat(db, game, games.PLAYER, address, hash_password(password), now)
    run.block = _Block(game, seat)
    joined, needed = len(players) + 1, _needed(game)
    run.event("joined", cmd, game=name, joined=joined, needed=needed)


def _sender_of_record(run: _Run, cmd: Command) -> str | None:
    """The sender's address in its normal form, to be an address of record; None (and an
    error for the reply) when the judge could not be sure to deliver to it."""
    address = deliverable(run.sub.sender)
    if isinstance(address, Undeliverable):
        run.event("address_bad", cmd, address=address.address, reason=address.reason, own=True)
        return None
    return address


def _start_if_full(run: _Run, game: games.Game) -> None:
    db = run.ctx.db
    game = games.get_game(db, game.id)
    if game.state != games.FORMING or len(games.seats(db, game, games.PLAYER)) < _needed(game):
        return
    seed = zlib.crc32(f"{game.name}|{run.ctx.now.isoformat()}".encode())
    run.mails += play.start_game(db, run.ctx.config, game, run.ctx.now, seed)
    run.event("started", game=game.name)


def _needed(game: games.Game) -> int:
    """Players needed to start: one per group of powers (one per power normally)."""
    return len(groups_of(game, load_map(game.variant), None))


def _signon(run: _Run, cmd: Command) -> None:
    _close_block(run)
    who, name, password = cmd.args
    outcome = signon.sign_on(
        run.ctx, run.sub.sender, who, name, password, run.passwords_left, run.sub.references
    )
    run.passwords_left -= max(1, outcome.checks)
    run.mails += outcome.notices
    seat, game = outcome.seat, outcome.game
    if seat is None or game is None:
        run.refused = True
        if outcome.refused == "budget":
            _too_many_passwords(run, cmd)
        elif outcome.refused == "locked":
            # The same words whether the password was right or not: it was not checked.
            run.event("signon_locked", cmd, who=who, game=name, until=outcome.until)
        else:
            # The same words whether the game, the power or the password was wrong.
            run.event("signon_failed", cmd, who=who, game=name)
        return
    run.refused = False
    run.signed_on = True
    run.block = _Block(game, seat)
    if seat.address != run.sub.sender:
        run.copy_to.add(seat.address)
    power = load_map(game.variant).powers[seat.power].name if seat.power else None
    run.event(
        "signed_on",
        cmd,
        game=game.name,
        power=power,
        role=seat.role,
        judge_master=outcome.judge_master,
    )


def _order(run: _Run, cmd: Command) -> None:
    block = run.block
    if block is None:
        hint = nearest_command(cmd.text)
        if hint:
            run.event("unknown", cmd, suggestion=hint)
        else:
            run.event("after_refused" if run.refused else "needs_signon", cmd)
        return
    if block.seat.role != games.PLAYER or block.game.state not in _PLAYING:
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
        address = deliverable(cmd.args[0])
        if isinstance(address, Undeliverable):
            run.event("address_bad", cmd, address=address.address, reason=address.reason)
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
        # Neutral powers (the games for fewer players) are nobody's to prefer.
        initials = {k: p.initial for k, p in gm.powers.items() if k not in gm.neutral_powers}
        preference = parse_preference(" ".join(cmd.args), initials, names=gm.power_names)
    except ValueError as e:
        run.event("preference_bad", cmd, message=str(e))
        return
    block.seat = games.update_seat(run.ctx.db, block.seat, run.ctx.now, preference=preference)
    run.event("preference", cmd, game=block.game.name, powers=_preference_words(gm, preference))


def _preference_words(gm, preference: str) -> list[str]:
    """ "A[IT]E" -> ["Austria", "Italy or Turkey", "England"]: brackets group equals."""
    by_initial = {p.initial: p.name for p in gm.powers.values()}
    groups = re.findall(r"\[([^\]]*)\]|(.)", preference)
    words = []
    for group, single in groups:
        names = [by_initial[i] for i in (group or single) if i in by_initial]
        if names:
            words.append(" or ".join(names))
    return words


def _resign(run: _Run, cmd: Command) -> None:
    block = _need_player(run, cmd)
    if block:
        db = run.ctx.db
        games.update_seat(db, block.seat, run.ctx.now, left_at=run.ctx.now.isoformat())
        power = (
            load_map(block.game.variant).powers[block.seat.power].name if block.seat.power else None
        )
        run.event("resigned", cmd, game=block.game.name)
        masters = tuple(s.address for s in games.seats(db, block.game, games.MASTER))
        if masters:
            context = {"game": block.game.name, "power": power, "address": block.seat.address}
            run.mails.append(Reply(masters, "resigned_master", context, "notice", False))
        run.block = None


def _help(run: _Run, cmd: Command) -> None:
    run.event("help", cmd)


def _orders_rule(run: _Run, cmd: Command) -> None:
    block = _need_master(run, cmd)
    if block:
        settings = replace(block.game.settings, orders=cmd.args[0].lower())
        block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
        run.event("orders_rule", cmd, game=block.game.name, rule=cmd.args[0].lower())


def _process(run: _Run, cmd: Command) -> None:
    """PROCESS [phase]: process the current phase now. A master command that moves a
    phase must be meant for the phase it moves: with a phase named (PROCESS S1901M, or
    njudge's PROCESS Fall 1905 Retreat) only that one; alone, the phase current when the
    mail arrived. A late or duplicated PROCESS can never move the next phase."""
    block = _need_master(run, cmd)
    if not block:
        return
    if block.game.state != games.ACTIVE:
        run.event("not_now", cmd, game=block.game.name)
        return
    _close_block(run)
    game = games.get_game(run.ctx.db, block.game.id)
    phase = game.phase
    if cmd.args:
        named = phase_named(" ".join(cmd.args))
        if named is None:
            message = f"{' '.join(cmd.args)[:40]} is not a phase; write e.g. PROCESS {phase}."
            run.event("error", cmd, message=message)
            return
        if named != phase:
            run.event(
                "process_refused",
                cmd,
                game=game.name,
                now=phase_words(phase),
                named=phase_words(named),
                code=phase,
            )
            return
    else:
        arrived = arrived_during(run, game)
        if arrived is not None:
            run.event(
                "process_refused",
                cmd,
                game=game.name,
                now=phase_words(phase),
                arrived=phase_words(arrived) if arrived else None,
                code=phase,
            )
            return
    run.mails += play.process_phase(run.ctx.db, run.ctx.config, game, run.ctx.now)
    run.event("processed", cmd, game=game.name, phase=phase)


_PHASE_CODE = re.compile(r"([SFWU])(\d{4})([MRAB])", re.IGNORECASE)
_PHASE_WORDS = re.compile(r"([a-z]+)\s+(\d{4})\s+([a-z]+)", re.IGNORECASE)


def phase_named(text: str) -> str | None:
    """A phase as a master names it, in our terms (`S1901M`, `W1901A`), or None. Accepts
    our codes, njudge's (`F1901B` for the adjustments) and njudge's words, of which only
    the first letters count (`Fall 1905 Retreat`, `Winter 1905 Build`)."""
    text = text.strip()
    if m := _PHASE_CODE.fullmatch(text):
        season, year, kind = m.group(1).upper(), m.group(2), m.group(3).upper()
    elif m := _PHASE_WORDS.fullmatch(text):
        season = {"A": "F"}.get(m.group(1)[0].upper(), m.group(1)[0].upper())  # Autumn
        year, kind = m.group(2), m.group(3)[0].upper()
    else:
        return None
    if kind in "AB":  # adjustments: njudge's F1901B, "Winter 1901 Build", our W1901A
        season, kind = "W", "A"
    try:
        return str(Phase.parse(f"{season}{year}{kind}"))
    except ValueError:
        return None


def arrived_during(run: _Run, game: games.Game) -> str | None:
    """None if the game's current phase was already under way when this mail arrived;
    else the phase that was (or "" if the game had not started). A phase moved by an
    earlier command of the same mail started after the mail arrived, too."""
    if run.ctx.inbound_id is None:  # not from a stored mail (the operator's own tools)
        return None
    arrived = inbox.received_at(run.ctx.db, run.ctx.inbound_id)
    if arrived is None:
        return None
    received = datetime.fromisoformat(arrived)
    if games.phase_started(run.ctx.db, game) < received:
        return None
    before = [
        (datetime.fromisoformat(mark.started_at), mark.phase)
        for mark in games.phase_marks(run.ctx.db, game)
        if datetime.fromisoformat(mark.started_at) < received
    ]
    return max(before)[1] if before else ""


def phase_words(phase: str) -> str:
    """`Spring 1901 Movement (S1901M)`, for replies that name a phase."""
    return f"{Phase.parse(phase).long_name} ({phase})"


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
    game = games.get_game(run.ctx.db, block.game.id)  # it may have ended meanwhile
    if block.seat.role == games.MASTER and game.state in _PLAYING:
        _master_overview(run, block)
        return
    # A player's orders are reported only where the game was already under way when
    # the block began (a seventh player's join starts the game: no status for that).
    if block.seat.role != games.PLAYER or block.game.state not in _PLAYING:
        return
    if game.state not in _PLAYING:
        return
    seat = games.get_seat(run.ctx.db, block.seat.id)
    mine = partners(run.ctx.db, game, seat)  # a player of several powers orders them all
    by_power = {s.power: s for s in mine}
    if not block.touched:
        for s in mine:
            run.event("orders", status=play.order_status(run.ctx.db, run.ctx.config, game, s))
        return
    mode = block.mode or game.settings.orders
    routed = {seat.power: block.lines}
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


def _master_overview(run: _Run, block: _Block) -> None:
    """Masters see every power's orders on file in their acknowledgement."""
    db = run.ctx.db
    game = games.get_game(db, block.game.id)
    statuses = [
        play.order_status(db, run.ctx.config, game, seat)
        for seat in games.seats(db, game, games.PLAYER)
        if seat.power
    ]
    run.event("overview", game=game.name, statuses=statuses)


def _need_block(run: _Run, cmd: Command) -> _Block | None:
    if run.block is None:
        run.event("after_refused" if run.refused else "needs_signon", cmd)
    return run.block


def _need_player(run: _Run, cmd: Command) -> _Block | None:
    block = _need_block(run, cmd)
    if block and (block.seat.role != games.PLAYER or block.game.state not in _PLAYING):
        run.event("not_now", cmd, game=block.game.name)
        return None
    return block


def _need_master(run: _Run, cmd: Command) -> _Block | None:
    block = _need_block(run, cmd)
    if block and block.seat.role != games.MASTER:
        run.event("master_only", cmd, what=cmd.name)
        return None
    return block


# -- deadlines (master), absences (players) --------------------------------------------


def _deadline(run: _Run, cmd: Command) -> None:
    block = _need_master(run, cmd)
    if not block or not _active(run, cmd, block):
        return
    try:
        zone = run.ctx.config.zone
        moment = check_within_reach(parse_moment(cmd.args[0], run.ctx.now, zone), run.ctx.now, zone)
    except DateError as e:
        run.event("error", cmd, message=str(e))
        return
    game = games.update_game(run.ctx.db, block.game, run.ctx.now, deadline=iso(moment))
    games.clear_notices(run.ctx.db, game)
    block.game = game
    run.event("deadline", cmd, game=game.name, deadline=format_moment(moment, run.ctx.config.zone))
    run.mails.append(_deadline_mail(run, game, moment))


def _deadline_mail(run: _Run, game: games.Game, moment: datetime) -> Reply:
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
    return Reply(
        everyone,
        "deadline_changed",
        {"game": game.name, "deadline": format_moment(moment, run.ctx.config.zone)},
        "notice",
        False,
    )


_SETTING_LENGTHS = {
    "SET GRACE": ("grace_hours", 60),
    "SET MOVE LENGTH": ("move_hours", 60),
    "SET RETREAT LENGTH": ("retreat_hours", 60),
    "SET ADJUST LENGTH": ("adjust_hours", 60),
    "SET REMINDER": ("reminder_hours", 60),
    "SET DELAY": ("delay_minutes", 1),
}


def _setting(run: _Run, cmd: Command) -> None:
    """The master's game settings: lengths, time of day, days, NMR."""
    block = _need_master(run, cmd)
    if not block:
        return
    settings = block.game.settings
    try:
        if cmd.name in _SETTING_LENGTHS:
            key, per_unit = _SETTING_LENGTHS[cmd.name]
            length = parse_duration(cmd.args[0])
            settings = settings.with_value(key, length.total_seconds() / 60 / per_unit)
            shown = _length_words(length)
        elif cmd.name == "SET TIME":
            if cmd.args[0].upper() == "NONE":
                settings, shown = replace(settings, deadline_time=None), "any time of day"
            else:
                t = parse_time_of_day(cmd.args[0])
                shown = t.strftime("%H:%M")
                settings = replace(settings, deadline_time=shown)
        elif cmd.name == "SET DAYS":
            days = parse_weekdays(cmd.args[0])
            settings = replace(settings, weekdays=tuple(sorted(days)) if len(days) < 7 else None)
            shown = ", ".join(_DAY_NAMES[d] for d in sorted(days))
        else:  # SET NMR / SET NONMR
            settings = replace(settings, nmr=cmd.name == "SET NMR")
            shown = "processed with the orders on file" if settings.nmr else "wait for you"
    except DateError as e:
        run.event("error", cmd, message=str(e))
        return
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=block.game.name, setting=cmd.name, value=shown)


_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _length_words(length: timedelta) -> str:
    minutes = int(length.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    return " ".join(f"{n} {word}{'s' if n != 1 else ''}" for n, word in parts if n) or "0 minutes"


def _pause(run: _Run, cmd: Command) -> None:
    block = _need_master(run, cmd)
    if not block:
        return
    db, now, game = run.ctx.db, run.ctx.now, games.get_game(run.ctx.db, block.game.id)
    if cmd.name == "PAUSE":
        if game.state != games.ACTIVE:
            run.event("not_now", cmd, game=game.name)
            return
        remaining = (datetime.fromisoformat(game.deadline or iso(now)) - now).total_seconds()
        game = games.update_game(
            db, game, now, state=games.PAUSED, paused_remaining=max(0.0, remaining), process_at=None
        )
        run.mails.append(_everyone(run, game, "game_paused", {}))
    else:
        if game.state != games.PAUSED:
            run.event("not_now", cmd, game=game.name)
            return
        deadline = now + timedelta(seconds=game.paused_remaining or 0)
        game = games.update_game(
            db, game, now, state=games.ACTIVE, deadline=iso(deadline), paused_remaining=None
        )
        games.clear_notices(db, game)
        shown = format_moment(deadline, run.ctx.config.zone)
        run.mails.append(_everyone(run, game, "game_resumed", {"deadline": shown}))
        run.to_process.add(game.id)
    block.game = game
    run.event(cmd.name.lower(), cmd, game=game.name)


def _everyone(run: _Run, game: games.Game, template: str, context: dict) -> Reply:
    to = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
    return Reply(to, template, {"game": game.name, **context}, "notice", False)


def _absence(run: _Run, cmd: Command) -> None:
    block = _need_player(run, cmd)
    if not block:
        return
    text = cmd.args[0]
    parts = re.split(r"\s+(?:to|until|till|-)\s+", text, maxsplit=1, flags=re.IGNORECASE)
    if len(parts) != 2:
        run.event("error", cmd, message="Expected SET ABSENCE <from> TO <to>.")
        return
    zone, now = run.ctx.config.zone, run.ctx.now
    try:
        starts = check_within_reach(_absence_moment(parts[0], now, zone), now, zone)
        ends = check_within_reach(parse_moment(parts[1], now, zone), now, zone)
    except DateError as e:
        run.event("error", cmd, message=str(e))
        return
    if ends <= starts:
        run.event("error", cmd, message="The absence must end after it starts.")
        return
    game = block.game
    games.add_absence(run.ctx.db, block.seat, starts, ends, now)
    shown = (format_moment(starts, zone), format_moment(ends, zone))
    moved = None
    if game.deadline:
        old = datetime.fromisoformat(game.deadline)
        cap = timedelta(days=float(game.settings.absence_max_days))
        new = push_past_absence(old, games.absences(run.ctx.db, game), cap)
        if new != old:
            block.game = game = games.update_game(run.ctx.db, game, now, deadline=iso(new))
            moved = format_moment(new, zone)
            run.mails.append(_deadline_mail(run, game, new))
    run.event("absence", cmd, game=game.name, starts=shown[0], ends=shown[1], moved=moved)


def _absence_moment(text: str, now: datetime, zone) -> datetime:
    """An absence may start now ("now", "today") or at any future moment."""
    if text.strip().lower() in ("now", "today"):
        return now
    return parse_moment(text, now, zone)


def _active(run: _Run, cmd: Command, block: _Block) -> bool:
    if block.game.state not in (games.ACTIVE,):
        run.event("not_now", cmd, game=block.game.name)
        return False
    return True


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
    "PAUSE": _pause,
    "RESUME": _pause,
    "SET DEADLINE": _deadline,
    "SET GRACE": _setting,
    "SET MOVE LENGTH": _setting,
    "SET RETREAT LENGTH": _setting,
    "SET ADJUST LENGTH": _setting,
    "SET REMINDER": _setting,
    "SET DELAY": _setting,
    "SET TIME": _setting,
    "SET DAYS": _setting,
    "SET NMR": _setting,
    "SET NONMR": _setting,
    "SET ABSENCE": _absence,
}


# Masters, press, observers, draws and information commands live in their own module.
from judge.commands import admin, house_rules  # noqa: E402

_HANDLERS.update(admin.HANDLERS)
_HANDLERS.update(house_rules.HANDLERS)
