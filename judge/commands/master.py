"""The master's commands that move or change a game: PROCESS, PAUSE, RESUME, TERMINATE,
PREDICT, EJECT, REPLACE, BECOME, PROMOTE, FORCE BEGIN and ROLLBACK."""

from __future__ import annotations

import secrets
import zlib
from dataclasses import replace
from datetime import datetime, timedelta

from judge.commands.address_args import other_address
from judge.commands.blocks import close_block
from judge.commands.ending import end_game
from judge.commands.language import Command
from judge.commands.phases import arrived_during, phase_named, rollback_target
from judge.commands.powers import power_key, seat_of
from judge.commands.run import Block, Run, active, everyone, need_block, need_master, refuse
from judge.engine.adjudication import adjudicate
from judge.engine.phase import Phase
from judge.game import observers, play, proxies
from judge.game.dates import format_moment
from judge.game.errors import CommandError, as_written
from judge.game.outgoing import public_copy
from judge.game.passwords import hash_password
from judge.game.pictures import of_prediction
from judge.game.report import format_deadline, results_by_power
from judge.game.rules import rules_of, starts_itself
from judge.replies import Reply
from judge.store import games
from judge.store.audit import iso
from judge.variants.json_contract import outcome_to_json, position_from_json
from judge.variants.maps import load_map


def process(run: Run, cmd: Command) -> None:
    """PROCESS [phase]: process the current phase now. A master command that moves a
    phase must be meant for the phase it moves: with a phase named (PROCESS S1901M, or
    njudge's PROCESS Fall 1905 Retreat) only that one; alone, the phase current when the
    mail arrived. A late or duplicated PROCESS can never move the next phase."""
    block = need_master(run, cmd)
    if not block:
        return
    if block.game.state == games.FORMING and not starts_itself(block.game) and not cmd.args:
        _begin(run, games.get_game(run.ctx.db, block.game.id))  # SET MANUAL START's start
        return
    if block.game.state != games.ACTIVE:
        run.event("not_now", cmd, game=block.game.name)
        return
    close_block(run)
    game = games.get_game(run.ctx.db, block.game.id)
    phase = game.phase
    assert phase is not None  # an active game is in some phase
    if cmd.args:
        named = phase_named(" ".join(cmd.args))
        if named is None:
            refuse(run, cmd, "not_a_phase", named=" ".join(cmd.args)[:40], phase=phase)
            return
        if named != phase:
            run.event(
                "process_refused",
                cmd,
                game=game.name,
                now=phase,
                named=named,
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
                now=phase,
                arrived=arrived,
                code=phase,
            )
            return
    run.mails += play.process_phase(run.ctx.db, run.ctx.config, game, run.ctx.now)
    run.event("processed", cmd, game=game.name, phase=phase)


def pause(run: Run, cmd: Command) -> None:
    """PAUSE stops the clock (orders are still taken); RESUME restarts it with the time
    that was left."""
    block = need_master(run, cmd)
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
        run.mails.append(everyone(run, game, "game_paused", {}))
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
        run.mails.append(everyone(run, game, "game_resumed", {"deadline": shown}))
        run.to_process.add(game.id)
    block.game = game
    run.event(cmd.name.lower(), cmd, game=game.name)


def terminate(run: Run, cmd: Command) -> None:
    """TERMINATE: the game ends now, with no winner."""
    block = need_master(run, cmd)
    if block and active(run, cmd, block):
        run.mails += end_game(run, block.game, {"terminated": True})
        run.event("terminated", cmd, game=block.game.name)


def predict(run: Run, cmd: Command) -> None:
    """A trial adjudication of the orders on file, for the master only."""
    block = need_master(run, cmd)
    if not block or not active(run, cmd, block):
        return
    db, game = run.ctx.db, games.get_game(run.ctx.db, block.game.id)
    raw = games.phase_position(db, game, game.phase or "")
    position, _, _ = position_from_json(raw)
    orders = games.effective_orders(db, game, game.phase or "")
    orders = proxies.effective(game, position, orders)
    outcome = adjudicate(position, orders, proxies.engine_rules(rules_of(game)))
    results = outcome_to_json(position, outcome)
    gm = position.game_map
    context = {
        "game": game.name,
        "done": str(position.phase),  # the phase predicted, by its code
        "orders": results_by_power(gm, results["results"], position.phase),
    }
    picture = of_prediction(game, raw, results)  # None with SET MAP OFF
    run.mails.append(Reply((run.sub.sender,), "prediction", context, "reply", picture=picture))
    run.event("predicted", cmd, game=game.name)


def eject(run: Run, cmd: Command) -> None:
    """EJECT power: its player leaves the game and is told. EJECT address: that
    observer leaves it (eject_observer)."""
    block = need_master(run, cmd)
    if not block:
        return
    if "@" in cmd.args[0]:
        eject_observer(run, cmd, block.game)
        return
    seat = seat_of(run, block.game, cmd.args[0])
    if seat is None:
        refuse(run, cmd, "no_player", power=cmd.args[0], game=block.game.name)
        return
    games.update_seat(run.ctx.db, seat, run.ctx.now, left_at=iso(run.ctx.now))
    assert seat.power is not None  # seat_of finds a seat by its power
    name = load_map(block.game.variant).powers[seat.power].name
    run.mails.append(
        Reply((seat.address,), "ejected", {"game": block.game.name, "power": name}, "notice", False)
    )
    run.event("ejected", cmd, game=block.game.name, power=name)


def eject_observer(run: Run, cmd: Command, game: games.Game) -> None:
    """EJECT address (njudge's): the observer of that address leaves the game, its seat
    free for another (player.MAX_OBSERVERS). OBSERVE seats a From: anyone can forge, and
    an observer cannot leave: without it a stranger's fifty forged observers held a
    game's list full, and got its mail, for good. Not told: the address may be forged
    (a mail to it is one more to a stranger); the master's answer says it."""
    address = cmd.args[0].strip("<>").lower()
    seats = games.seats(run.ctx.db, game, games.OBSERVER, unconfirmed=True)
    gone = [s for s in seats if s.address.lower() == address]
    if not gone:
        refuse(run, cmd, "no_observer", address=as_written(address), game=game.name)
        return
    for seat in gone:
        games.update_seat(run.ctx.db, seat, run.ctx.now, left_at=iso(run.ctx.now))
    run.event("observer_ejected", cmd, game=game.name, address=gone[0].address)


def replace_power(run: Run, cmd: Command) -> None:
    """REPLACE power address: the power goes to a new player, who gets a password."""
    block = need_master(run, cmd)
    if not block:
        return
    initial, written = cmd.args
    gm = load_map(block.game.variant)
    key = power_key(gm, initial)
    if key is None or "@" not in written:
        refuse(run, cmd, "replace_syntax")
        return
    address = other_address(run, cmd, written)
    if not address:
        return  # refused
    db, now = run.ctx.db, run.ctx.now
    old = seat_of(run, block.game, initial)
    if old is not None:
        games.update_seat(db, old, now, left_at=iso(now))
    if old is not None and old.address != block.seat.address:  # not the master, who knows
        taken = {"game": block.game.name, "power": gm.powers[key].name}
        run.mails.append(Reply((old.address,), "ejected", taken, "notice", False))
    password = secrets.token_urlsafe(8)
    # A stranger's address until it sends back its code: the power's mail goes to the
    # master meanwhile (who sees its press already and may BECOME it), and the power is
    # held as any other, its orders and deadlines as before.
    known = {block.seat.address, old.address if old else block.seat.address}
    code = None if address in known else observers.new_code()
    games.add_seat(
        db,
        block.game,
        games.PLAYER,
        block.seat.address if code else address,
        hash_password(password),
        now,
        power=key,
        code=code,
        pending_address=address if code else None,
    )
    power = gm.powers[key]
    context = {
        "game": block.game.name,
        "power": power.name,
        "initial": power.initial,
        "password": password,
        "deadline": format_deadline(block.game.deadline, run.ctx.config.timezone),
        "code": code,
        "days": observers.UNCONFIRMED_DAYS,
    }
    # A reply, capped as answers are, while the address has not confirmed.
    kind = "reply" if code else "notice"
    run.mails.append(Reply((address,), "replacement", context, kind, False))
    names = {"game": block.game.name, "power": power.name, "address": address}
    run.event("replaced", cmd, **names, master=block.seat.address if code else None)


def become(run: Run, cmd: Command) -> None:
    """BECOME power: the master acts as that power; its player gets a copy. BECOME
    MASTER: become_master."""
    if cmd.args == ("master",):
        become_master(run, cmd)
        return
    block = need_master(run, cmd)
    if not block:
        return
    seat = seat_of(run, block.game, cmd.args[0])
    if seat is None:
        refuse(run, cmd, "no_player", power=cmd.args[0], game=block.game.name)
        return
    close_block(run)
    run.block = Block(block.game, seat)
    run.copy(seat)
    assert seat.power is not None  # seat_of finds a seat by its power
    power = load_map(block.game.variant).powers[seat.power].name
    run.event("became", cmd, game=block.game.name, power=power)


# Masters of one game (CREATE's and those PROMOTEd). A master gets every results mail and
# all press, as an observer and more, and CREATE is open to anyone: without a cap a
# stranger's game, its players forged, PROMOTEd any number of addresses (four a mail, the
# passwords' budget) past the observers' cap (player.MAX_OBSERVERS). Ten is several
# times the co-masters any game needs.
MAX_MASTERS = 10


def promote(run: Run, cmd: Command) -> None:
    """PROMOTE address: another master, who gets a password of their own."""
    block = need_master(run, cmd)
    if not block:
        return
    address = other_address(run, cmd, cmd.args[0])
    if not address:
        return  # refused
    masters = games.seats(run.ctx.db, block.game, games.MASTER, unconfirmed=True)
    if any(s.address.lower() == address.lower() for s in masters):
        # Another seat would only be another password mailed to the same address.
        refuse(run, cmd, "promote_already", address=address, game=block.game.name)
        return
    if len(masters) >= MAX_MASTERS:
        refuse(run, cmd, "masters_full", game=block.game.name, limit=MAX_MASTERS)
        return
    password = secrets.token_urlsafe(8)
    # The new master's seat gets no mail (results, press) until the address sends back
    # the code mailed to it: else one mail from a forged master pointed them at anyone.
    code = observers.new_code()
    games.add_seat(
        run.ctx.db,
        block.game,
        games.MASTER,
        address,
        hash_password(password),
        run.ctx.now,
        code=code,
    )
    context = {
        "game": block.game.name,
        "password": password,
        "by": run.sub.sender,
        "code": code,
        "days": observers.UNCONFIRMED_DAYS,
    }
    # A reply, capped as answers are: the address has not asked for anything yet.
    run.mails.append(Reply((address,), "promoted", context, "reply", False))
    run.event("promoted", cmd, game=block.game.name, address=address)


def force_begin(run: Run, cmd: Command) -> None:
    """Start a forming game with the players seated; the other powers are in civil disorder."""
    block = need_master(run, cmd)
    if not block:
        return
    game = games.get_game(run.ctx.db, block.game.id)
    if game.state != games.FORMING:
        run.event("not_now", cmd, game=game.name)
        return
    _begin(run, game)


def _begin(run: Run, game: games.Game) -> None:
    """Start the forming `game` now with the players seated (FORCE BEGIN, or PROCESS in
    a manual-start game); everyone is told."""
    seed = zlib.crc32(f"{game.name}|{run.ctx.now.isoformat()}".encode())
    run.mails += play.start_game(run.ctx.db, run.ctx.config, game, run.ctx.now, seed)
    run.event("started", game=game.name)


def rollback(run: Run, cmd: Command) -> None:
    """ROLLBACK [phase]: restore an earlier phase (default: the one before); everyone is told."""
    block = need_master(run, cmd)
    if not block or not active(run, cmd, block):
        return
    db, now, game = run.ctx.db, run.ctx.now, games.get_game(run.ctx.db, block.game.id)
    assert game.phase is not None  # an active game is in some phase
    marks = games.phase_marks(db, game)
    names = [m.phase for m in marks]
    # ROLLBACK alone means one back from the phase current when the mail arrived: if
    # the game has moved since (a late or duplicated mail), it is refused, not applied.
    arrived = None if cmd.args else arrived_during(run, game)
    if arrived is not None:
        back = names.index(arrived) - 1 if arrived in names else 0
        run.event(
            "rollback_refused",
            cmd,
            game=game.name,
            now=game.phase,
            arrived=arrived,
            code=names[max(back, 0)],
        )
        return
    before = names[-2] if len(names) > 1 else None
    try:
        target = rollback_target(cmd.args[0], names) if cmd.args else before
    except CommandError as e:
        refuse(run, cmd, e.code, game=game.name, **e.values)
        return
    if target not in names or target == game.phase:
        refuse(run, cmd, "no_earlier_phase", game=game.name, phase=as_written(target or ""))
        return
    games.rewind(db, game, next(m for m in marks if m.phase == target))
    phase = Phase.parse(target)
    deadline = play.deadline_for(game, phase, now, run.ctx.config.timezone)
    game = games.update_game(db, game, now, phase=target, deadline=deadline, process_at=None)
    games.clear_notices(db, game)
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
    context = {
        "game": game.name,
        "phase": target,
        "deadline": format_deadline(deadline, run.ctx.config.timezone),
    }
    notice = Reply(everyone, "rolled_back", context, "notice", False)
    run.mails += [
        notice,
        *public_copy(run.ctx.config, game.name, game.settings.list, notice),
    ]
    run.event("rolled_back", cmd, game=game.name, phase=target)


def unstart(run: Run, cmd: Command) -> None:
    """UNSTART: before the first phase is processed, the game goes back to forming with
    its players seated but no powers, and becomes manual-start (the master starts it
    with FORCE BEGIN, or PROCESS); everyone is told. Refused once a phase is processed."""
    block = need_master(run, cmd)
    if not block:
        return
    db, now, game = run.ctx.db, run.ctx.now, games.get_game(run.ctx.db, block.game.id)
    if game.state not in (games.ACTIVE, games.PAUSED):
        run.event("not_now", cmd, game=game.name)
        return
    marks = games.phase_marks(db, game)
    if len(marks) != 1 or games.processed_phases(db, game):
        refuse(run, cmd, "unstart_too_late", game=game.name, phase=game.phase or "")
        return
    game = games.unstart(db, game, now)
    settings = replace(game.settings, manual_start=True)
    game = games.update_game(db, game, now, settings=settings)
    block.game = game
    run.mails.append(everyone(run, game, "unstarted", {}))
    run.event("unstarted", cmd, game=game.name)


def become_master(run: Run, cmd: Command) -> None:
    """BECOME MASTER: the sole player of a forming game becomes its master (their seat a
    master's, with their password), and the game is moderated."""
    block = need_block(run, cmd)
    if not block:
        return
    db, now, game = run.ctx.db, run.ctx.now, games.get_game(run.ctx.db, block.game.id)
    players = games.seats(db, game, games.PLAYER)
    alone = [s.id for s in players] == [block.seat.id]
    if game.state != games.FORMING or block.seat.role != games.PLAYER or not alone:
        refuse(run, cmd, "become_master_not_alone", game=game.name)
        return
    block.seat = games.update_seat(db, block.seat, now, role=games.MASTER, power=None)
    settings = replace(game.settings, moderated=True)
    block.game = games.update_game(db, game, now, settings=settings)
    run.event("became_master", cmd, game=game.name)
