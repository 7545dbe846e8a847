"""The players' commands: create, join, sign on or observe a game; orders, waiting,
password, address, preferences, absences, draws, concessions and resigning."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from judge.commands.blocks import close_block, players_needed, too_many_passwords
from judge.commands.ending import end_game
from judge.commands.gunboat import join_mismatch
from judge.commands.language import GUNBOAT, Command, nearest_command
from judge.commands.powers import power_key
from judge.commands.run import (
    PLAYING,
    Block,
    Run,
    deadline_mail,
    need_block,
    need_player,
    refuse,
)
from judge.commands.signon import WINDOW, minute_words, sign_on, wrong_code
from judge.commands.takeover import first_forming, free_group, orders_refused, take_over
from judge.engine.geography import GameMap, MapError
from judge.game import observers, play
from judge.game.anonymity import hidden, secret
from judge.game.assignment import parse_preference
from judge.game.dates import (
    DateError,
    check_within_reach,
    format_moment,
    parse_moment,
    push_past_absence,
)
from judge.game.errors import CommandError, as_written
from judge.game.passwords import hash_password
from judge.game.rules import may_wait
from judge.game.vacancies import free_groups
from judge.mail.addresses import Undeliverable, deliverable
from judge.replies import Reply
from judge.store import games, guesses, takeovers
from judge.store.audit import iso
from judge.variants.maps import load_map, map_names

# Observer seats of one game. Each observer gets every results mail and broadcast, and
# OBSERVE seats the From: address, which anyone can forge: without a cap one stranger's
# mails made a game a mailing list of any size pointed at anyone. 50 is several times
# the audience of any game njudge's users report, and keeps a phase's mail under ~60.
# A game over it (seated before the cap) keeps its observers and takes no more.
MAX_OBSERVERS = 50
# Games one address may CREATE: anyone may, and each is a row, a LIST line and a master
# seat that PROCESSes and TERMINATEs at will. Forming ones (created, not yet started):
# njudge's masters open one or two at a time; a day's: a busy master's fortnight.
MAX_FORMING_CREATED = 5
MAX_CREATED_PER_DAY = 10


def create(run: Run, cmd: Command) -> None:
    """CREATE ?name password [variant] [gunboat]: a new game, the sender its master."""
    close_block(run)
    name, password, *rest = cmd.args
    named = [w for w in rest if w != GUNBOAT]  # language.variant_words: a variant, options
    variant = named[0] if named else "standard"
    if not games.valid_game_name(name):
        run.event("game_name_bad", cmd, game=name[:40], limit=games.MAX_GAME_NAME)
        return
    master = _sender_of_record(run, cmd)
    if master is None:
        return
    try:
        load_map(variant)
    except MapError:
        run.event("create_bad", cmd, variant=variant, variants=map_names())
        return
    if games.find_game(run.ctx.db, name) is not None:
        run.event("create_taken", cmd, game=name)
        return
    if _created_too_many(run, cmd, master):
        return
    game = games.create_game(run.ctx.db, name, variant, run.ctx.now, created_by=master)
    if GUNBOAT in rest:
        gunboat = replace(game.settings, gunboat=True)
        game = games.update_game(run.ctx.db, game, run.ctx.now, settings=gunboat)
    seat = games.add_seat(
        run.ctx.db, game, games.MASTER, master, hash_password(password), run.ctx.now
    )
    run.block = Block(game, seat)
    title = load_map(variant).title
    needed = players_needed(game)
    run.event("created", cmd, game=name, variant=title, needed=needed, gunboat=GUNBOAT in rest)


def _created_too_many(run: Run, cmd: Command, address: str) -> bool:
    """Whether `address` has CREATEd as many games as it may (refused, the limit named):
    MAX_FORMING_CREATED still forming, or MAX_CREATED_PER_DAY in the last day."""
    forming, today = games.games_created(run.ctx.db, address, run.ctx.now - timedelta(days=1))
    if forming >= MAX_FORMING_CREATED:
        refuse(run, cmd, "create_forming", limit=MAX_FORMING_CREATED)
        return True
    if today >= MAX_CREATED_PER_DAY:
        refuse(run, cmd, "create_per_day", limit=MAX_CREATED_PER_DAY)
        return True
    return False


def join(run: Run, cmd: Command) -> None:
    """SIGNON ?name password [variant] [gunboat]: a seat in a forming game; in a started
    one, its first free power taken over, else observing. Joining as a player names the
    game's variant words (a gunboat game: gunboat), else refused as njudge does. SIGNON ?
    password: the first game still forming."""
    close_block(run)
    name, password, *words = cmd.args
    db, now = run.ctx.db, run.ctx.now
    address = _sender_of_record(run, cmd)
    if address is None:
        return
    game = games.find_game(db, name) if name else first_forming(db, address)
    name = game.name if game is not None else name
    free = free_groups(db, game) if game is not None and game.state in PLAYING else []
    if game is not None and len(free) > 1:  # one taken over this phase already goes last
        free.sort(key=lambda group: takeovers.left_this_phase(db, game, group))
    joining = game is not None and (free or game.state == games.FORMING)
    # Joining a named game as a player names its variant words (SIGNON ? password: any).
    mismatch = join_mismatch(game, tuple(words)) if game and joining and cmd.args[0] else None
    if mismatch is not None:
        refuse(run, cmd, "variant_differs", **mismatch)
        return
    if game is not None and game.state in PLAYING:
        if free:
            take_over(run, cmd, game, free[0], password)
        else:
            observe(run, cmd)  # a started game with no free power: join it as an observer
        return
    if game is None or game.state != games.FORMING:
        run.event("join_failed", cmd, game=as_written(name), reason="no_game")
        return
    players = games.seats(db, game, games.PLAYER)
    if any(s.address == address for s in players):
        run.event("join_failed", cmd, game=name, reason="already")
        return
    seat = games.add_seat(db, game, games.PLAYER, address, hash_password(password), now)
    run.block = Block(game, seat)
    joined, needed = len(players) + 1, players_needed(game)
    run.event(
        "joined", cmd, game=name, joined=joined, needed=needed, secret=secret(game) and hidden(game)
    )


def _sender_of_record(run: Run, cmd: Command) -> str | None:
    """The sender's address in its normal form, to be an address of record; None (and an
    error for the reply) when the judge could not be sure to deliver to it."""
    address = deliverable(run.sub.sender)
    if isinstance(address, Undeliverable):
        run.event("address_bad", cmd, address=address.address, reason=address.reason, own=True)
        return None
    return address


def signon(run: Run, cmd: Command) -> None:
    """SIGNON Xname password: the lines after it act for that power (or master, observer)."""
    close_block(run)
    who, name, password = cmd.args
    game = games.find_game(run.ctx.db, name)
    group = free_group(run.ctx.db, game, who) if game and who not in "MO" else None
    if game is not None and group is not None:  # a free power: taken over, no check
        take_over(run, cmd, game, group, password)
        return
    outcome = sign_on(
        run.ctx, run.sub.sender, who, name, password, run.passwords_left, run.sub.references
    )
    run.passwords_left -= max(1, outcome.checks)
    run.mails += outcome.notices
    seat, game = outcome.seat, outcome.game
    if seat is not None and seat.unconfirmed:
        # Its answers would go to an address that has not asked for them, unlimited.
        run.refused = True
        refuse(run, cmd, "observer_unconfirmed", game=name, role=seat.role)
        return
    if seat is None or game is None:
        run.refused = True
        if outcome.refused == "budget":
            too_many_passwords(run, cmd)
        elif outcome.refused == "locked":
            # The same words whether the password was right or not: it was not checked.
            run.event("signon_locked", cmd, who=who, game=name, until=outcome.until)
        else:
            # The same words whether the game, the power or the password was wrong.
            run.event("signon_failed", cmd, who=who, game=name)
        return
    run.refused = False
    run.signed_on = True
    run.block = Block(game, seat)
    if seat.address != run.sub.sender:
        run.copy(seat)
    power = load_map(game.variant).powers[seat.power].name if seat.power else None
    run.event(
        "signed_on",
        cmd,
        game=game.name,
        power=power,
        role=seat.role,
        judge_master=outcome.judge_master,
    )


def order(run: Run, cmd: Command) -> None:
    """An order line: kept for the block's power, stored when the block closes."""
    block = run.block
    if block is None:
        hint = nearest_command(cmd.text)
        if hint:
            run.event("unknown", cmd, suggestion=hint)
        else:
            run.event("after_refused" if run.refused else "needs_signon", cmd)
        return
    if block.seat.role != games.PLAYER or block.game.state not in PLAYING:
        hint = nearest_command(cmd.text)
        run.event("unknown" if hint else "not_now", cmd, suggestion=hint, game=block.game.name)
        return
    if orders_refused(run, cmd, block):  # a newcomer the master has not approved (SET APPROVAL)
        return
    block.lines.append(cmd.text)
    block.touched = True


def clear(run: Run, cmd: Command) -> None:
    """CLEAR: this phase's orders are discarded (with those of this mail before it)."""
    block = need_player(run, cmd)
    if block:
        block.lines.clear()
        block.clear = True
        block.touched = True


def merge_or_replace(run: Run, cmd: Command) -> None:
    """MERGE or REPLACE: what this mail's orders do to those on file."""
    block = need_player(run, cmd)
    if block:
        block.mode = cmd.name.lower()


def set_wait(run: Run, cmd: Command) -> None:
    """SET WAIT: wait for the deadline; SET NOWAIT: process when all orders are in."""
    block = need_player(run, cmd)
    if block:
        wait = cmd.name == "SET WAIT"
        if wait and not may_wait(run.ctx.db, block.game, block.seat):  # SET STRICT WAIT
            refuse(run, cmd, "wait_not_allowed")
            return
        block.seat = games.update_seat(run.ctx.db, block.seat, run.ctx.now, wait=int(wait))
        run.event("wait", cmd, game=block.game.name, on=wait)
        if not wait:
            run.to_process.add(block.game.id)


def set_password(run: Run, cmd: Command) -> None:
    """SET PASSWORD new: the seat's new password."""
    block = need_block(run, cmd)
    if block:
        block.seat = games.update_seat(
            run.ctx.db, block.seat, run.ctx.now, password_hash=hash_password(cmd.args[0])
        )
        run.event("password", cmd, game=block.game.name)


def set_address(run: Run, cmd: Command) -> None:
    """SET ADDRESS: the seat's new address of record (the old one gets a copy)."""
    block = need_block(run, cmd)
    if block:
        address = deliverable(cmd.args[0], run.ctx.config.address)
        if isinstance(address, Undeliverable):
            run.event("address_bad", cmd, address=address.address, reason=address.reason)
            return
        run.copy(block.seat)
        if block.seat.role == games.OBSERVER and address != block.seat.address:
            _observer_moves(run, cmd, block, address)
            return
        if address != block.seat.address:
            _seat_moves(run, cmd, block, address)
            return
        if block.seat.pending_address is not None:  # back to the address of record
            block.seat = games.forget_pending(run.ctx.db, block.seat, run.ctx.now)
        run.event("address", cmd, game=block.game.name, address=address)


def _seat_moves(run: Run, cmd: Command, block: Block, address: str) -> None:
    """A player's or master's new address waits, pending, for the code mailed to it to
    come back from there (CONFIRM); the seat's mail goes on to its address of record
    until then. Else SET ADDRESS pointed the game's results, with their picture, at
    anyone. One move a mail (each is a code mailed to another address); a later mail's
    replaces the one pending."""
    if block.seat.id in run.moved:
        refuse(run, cmd, "address_pending_already", address=block.seat.pending_address)
        return
    run.moved.add(block.seat.id)
    code = observers.new_code()
    block.seat = games.ask_to_move(run.ctx.db, block.seat, address, code, run.ctx.now)
    context = {
        "game": block.game.name,
        "code": code,
        "days": observers.UNCONFIRMED_DAYS,
        "role": block.seat.role,
        "power": _power_name(block),
    }
    # A reply as the answers are (capped an hour per address), and the only mail the
    # pending address gets: it has not asked for anything yet.
    run.mails.append(Reply((address,), "address_confirm", context, in_reply=False))
    run.event(
        "address_pending",
        cmd,
        game=block.game.name,
        address=address,
        old=block.seat.address,
        days=observers.UNCONFIRMED_DAYS,
    )


def _power_name(block: Block) -> str | None:
    """The full name of the block's power; None for a master's block."""
    if block.seat.power is None:
        return None
    return load_map(block.game.variant).powers[block.seat.power].name


def _observer_moves(run: Run, cmd: Command, block: Block, address: str) -> None:
    """An observer's new address confirms itself as OBSERVE's does: until it sends back
    the code mailed to it (CONFIRM), the seat gets no mail; else a confirmed observer's
    SET ADDRESS pointed a game's mail at anyone."""
    code = observers.new_code()
    now = run.ctx.now
    block.seat = games.move_unconfirmed(run.ctx.db, block.seat, address, code, now)
    context = {"game": block.game.name, "code": code, "days": observers.UNCONFIRMED_DAYS}
    # A reply as the answers are (capped an hour per address): it goes to an address
    # that has not asked for anything yet.
    run.mails.append(Reply((address,), "observer_confirm", context, in_reply=False))
    run.event("observer_address", cmd, game=block.game.name, address=address)


def set_preference(run: Run, cmd: Command) -> None:
    """SET PREFERENCE: the powers a player wants, while the game is forming."""
    block = need_block(run, cmd)
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
    except CommandError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    block.seat = games.update_seat(run.ctx.db, block.seat, run.ctx.now, preference=preference)
    run.event("preference", cmd, game=block.game.name, powers=_preference_words(gm, preference))


def _preference_words(gm: GameMap, preference: str) -> list[str]:
    """ "A[IT]E" -> ["Austria", "Italy or Turkey", "England"]: brackets group equals."""
    by_initial = {p.initial: p.name for p in gm.powers.values()}
    groups = re.findall(r"\[([^\]]*)\]|(.)", preference)
    words = []
    for group, single in groups:
        names = [by_initial[i] for i in (group or single) if i in by_initial]
        if names:
            words.append(" or ".join(names))
    return words


def resign(run: Run, cmd: Command) -> None:
    """RESIGN: the player leaves the game; the masters are told."""
    block = need_player(run, cmd)
    if block:
        db = run.ctx.db
        games.update_seat(db, block.seat, run.ctx.now, left_at=run.ctx.now.isoformat())
        power = (
            load_map(block.game.variant).powers[block.seat.power].name if block.seat.power else None
        )
        # The block's orders are stored only when it closes, which a resignation skips:
        # the answer says they are not kept, or they would vanish without a word.
        dropped = len(block.lines) + sum(len(lines) for lines in block.held.values())
        run.event("resigned", cmd, game=block.game.name, dropped=dropped)
        masters = tuple(s.address for s in games.seats(db, block.game, games.MASTER))
        if masters:
            context = {"game": block.game.name, "power": power, "address": block.seat.address}
            run.mails.append(Reply(masters, "resigned_master", context, "notice", False))
        run.block = None


# njudge's rule: three absences pending at most per player (an absence that has ended
# frees its place). Without it, one mail of 52 absences each pushing the deadline by the
# game's most (7 days) moved it a year, and told every seat 52 times.
MAX_PENDING_ABSENCES = 3


def set_absence(run: Run, cmd: Command) -> None:
    """SET ABSENCE from TO to: deadlines inside it are pushed past it (within limits)."""
    block = need_player(run, cmd)
    if not block:
        return
    text = cmd.args[0]
    parts = re.split(r"\s+(?:to|until|till|-)\s+", text, maxsplit=1, flags=re.IGNORECASE)
    if len(parts) != 2:
        refuse(run, cmd, "absence_syntax")
        return
    zone, now = run.ctx.config.zone, run.ctx.now
    try:
        starts = check_within_reach(_absence_moment(parts[0], now, zone), now, zone)
        ends = check_within_reach(parse_moment(parts[1], now, zone), now, zone)
    except DateError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    if ends <= starts:
        refuse(run, cmd, "absence_backwards")
        return
    if games.pending_absences(run.ctx.db, block.seat, now) >= MAX_PENDING_ABSENCES:
        refuse(run, cmd, "absence_slots", most=MAX_PENDING_ABSENCES)
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
            run.mails.append(deadline_mail(run, game, new))
    run.event("absence", cmd, game=game.name, starts=shown[0], ends=shown[1], moved=moved)


def cancel_absence(run: Run, cmd: Command) -> None:
    """SET NOABSENCE date: cancel the first of the player's pending absences that
    includes the date (njudge's), freeing its place (MAX_PENDING_ABSENCES). A deadline it
    moved stays where it is."""
    block = need_player(run, cmd)
    if not block:
        return
    zone, now = run.ctx.config.zone, run.ctx.now
    try:
        moment = check_within_reach(_absence_moment(cmd.args[0], now, zone), now, zone)
    except DateError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    cancelled = games.cancel_absence(run.ctx.db, block.seat, moment, now)
    if cancelled is None:
        refuse(run, cmd, "no_absence", day=format_moment(moment, zone))
        return
    starts, ends = (format_moment(m, zone) for m in cancelled)
    run.event("absence_cancelled", cmd, game=block.game.name, starts=starts, ends=ends)


def _absence_moment(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    """An absence may start now ("now", "today") or at any future moment."""
    if text.strip().lower() in ("now", "today"):
        return now
    return parse_moment(text, now, zone)


def observe(run: Run, cmd: Command) -> None:
    """OBSERVE name password (or SIGNON ?name password on a started game)."""
    close_block(run)
    name, password = cmd.args[:2]  # a SIGNON's variant words (gunboat) come after them
    game = games.find_game(run.ctx.db, name)
    if game is None or game.state == games.FORMING:
        run.event("join_failed", cmd, game=as_written(name), reason="no_game")
        return
    run.mails += observers.drop_stale(run.ctx.db, game, run.ctx.now)  # places free again
    seated = games.seats(run.ctx.db, game, games.OBSERVER, unconfirmed=True)
    if any(s.address == run.sub.sender for s in seated):
        # One seat an address: each more was another diary's room and its own password.
        run.event("join_failed", cmd, game=name, reason="observing")
        return
    if len(seated) >= MAX_OBSERVERS:  # refused before the password is hashed
        refuse(run, cmd, "observers_full", game=name, limit=MAX_OBSERVERS)
        return
    code = observers.new_code()  # mailed to the From: address alone, in this answer
    seat = games.add_seat(
        run.ctx.db,
        game,
        games.OBSERVER,
        run.sub.sender,
        hash_password(password),
        run.ctx.now,
        code=code,
    )
    run.block = Block(game, seat)
    run.event("observing", cmd, game=name, code=code, days=observers.UNCONFIRMED_DAYS)


def confirm(run: Run, cmd: Command) -> None:
    """CONFIRM name code: the sender's seat of the game confirmed with the code mailed to
    it (OBSERVE's answer, PROMOTE's, REPLACE's or SET ADDRESS's mail); from now on the
    sender gets the seat's mail. A wrong code counts as a wrong password against the
    sender (the limits on guesses)."""
    close_block(run)
    name, written = cmd.args
    db, now = run.ctx.db, run.ctx.now
    game = games.find_game(db, name)
    waiting = [
        s
        for s in (games.seats(db, game, unconfirmed=True) if game else [])
        if (s.address == run.sub.sender and s.unconfirmed) or s.pending_address == run.sub.sender
    ]
    if game is None or not waiting:
        refuse(run, cmd, "confirm_nothing", game=as_written(name))
        return
    key, limit = guesses.sender_key(run.sub.sender), run.ctx.config.wrong_passwords_per_hour
    # As SIGNON's: an answer to the notice mailed to the sender passes the lock, so that a
    # forger guessing codes in the observer's name cannot keep it from confirming.
    proven = guesses.answers_notice(db, run.sub.sender, run.sub.references, now)
    until = None if proven else guesses.locked_until(db, [key], limit, now, WINDOW)
    if until is not None:  # refused unchecked, in words that do not depend on the code
        refuse(run, cmd, "confirm_locked", until=minute_words(run.ctx, until))
        return
    # The sender may wait on more than one seat of the game (an observer's and a new
    # address for a power): the code says which.
    seat = next((s for s in waiting if observers.code_matches(written, s)), None)
    if seat is None:
        notice = wrong_code(run.ctx, run.sub.sender)
        run.mails += [notice] if notice else []
        refuse(run, cmd, "confirm_wrong", game=game.name)
        return
    old = seat.address if seat.pending_address else None
    games.confirm_seat(db, seat, now)
    power = load_map(game.variant).powers[seat.power].name if seat.power else None
    run.event("confirmed", cmd, game=game.name, role=seat.role, power=power, old=old)


def draw_vote(run: Run, cmd: Command) -> None:
    """SET DRAW / SET NODRAW: when every survivor votes for it, the game is drawn."""
    block = need_player(run, cmd)
    if not block:
        return
    db = run.ctx.db
    vote = cmd.name == "SET DRAW"
    games.set_draw(db, block.seat, vote)
    game = games.get_game(db, block.game.id)
    run.event("draw_vote", cmd, game=game.name, on=vote)
    if not vote:
        return
    position = play.current_position(db, game)
    survivors = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    if survivors and survivors <= games.draw_votes(db, game):
        names = [
            position.game_map.powers[p].name for p in position.game_map.powers if p in survivors
        ]
        run.mails += end_game(run, game, {"draw": names})
        run.event("drawn", game=game.name, powers=names)


def concede(run: Run, cmd: Command) -> None:
    """SET CONCEDE X: when every other surviving power concedes to X, X wins."""
    block = need_player(run, cmd)
    if not block:
        return
    db = run.ctx.db
    gm = load_map(block.game.variant)
    if cmd.name == "SET NOCONCEDE":
        games.set_concede(db, block.seat, None)
        run.event("concede", cmd, game=block.game.name, to=None)
        return
    to = power_key(gm, cmd.args[0].strip())
    if to is None or to == block.seat.power:
        refuse(run, cmd, "concede_to", power=as_written(cmd.args[0]))
        return
    games.set_concede(db, block.seat, to)
    game = games.get_game(db, block.game.id)
    run.event("concede", cmd, game=game.name, to=gm.powers[to].name)
    position = play.current_position(db, game)
    survivors = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    others = survivors - {to}
    conceded = games.concessions(db, game)
    if to in survivors and others and all(conceded.get(p) == to for p in others):
        run.mails += end_game(run, game, {"conceded_to": gm.powers[to].name})
        run.event("conceded", game=game.name, to=gm.powers[to].name)
