"""Taking over a free power (njudge.md section 5): `SIGNON Xgame newpassword` for the
free power X, `SIGNON ?game password` for the first free one; and the master's vetting
of newcomers, `SET [NO] APPROVAL` and `SET [NOT] APPROVE letters`.

A free power has no player (judge/game/vacancies.py), or one who abandoned it
(judge/game/abandonment.py): the newcomer's password becomes the power's, and the old
player's (whose seat leaves the game) no longer signs on. An abandoning player's own
password is checked first: with it, the power is his again. A power with a player is
never free, and the limits on wrong passwords still hold: a locked sender or power takes
nothing over."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import sqlite_utils

from judge.commands.blocks import too_many_passwords
from judge.commands.language import Command
from judge.commands.run import Block, Run, need_master, refuse
from judge.commands.signon import WINDOW, minute_words
from judge.engine.phase import Phase
from judge.game import abandonment, anonymity, play, vacancies
from judge.game.dates import format_moment
from judge.game.passwords import check_password, hash_password
from judge.game.player_groups import partners, seat_the_group
from judge.mail.addresses import Undeliverable, deliverable
from judge.replies import Reply
from judge.store import games, guesses, takeovers
from judge.variants.maps import load_map

MAX_LETTERS = 40  # SET APPROVE's letters: longer is refused (and never echoed whole)


def free_group(db: sqlite_utils.Database, game: games.Game, who: str) -> tuple[str, ...] | None:
    """The free group (judge/game/vacancies.py) with the power of initial `who`, if any."""
    gm = load_map(game.variant)
    keys = [k for k, p in gm.powers.items() if p.initial.upper() == who.upper()]
    played = {s.power for s in games.seats(db, game, games.PLAYER) if not s.abandoned_at}
    if not keys or keys[0] in played:  # the usual SIGNON: no position is read
        return None
    for group in vacancies.free_groups(db, game):
        if keys[0] in group:
            return group
    return None


def take_over(
    run: Run, cmd: Command, game: games.Game, group: tuple[str, ...], password: str
) -> None:
    """The sender takes the free `group` of `game` with `password`: WAIT set for them,
    everyone else told, the master asked to approve them in a game with APPROVAL, and
    the deadline pushed out when no power is free any more. Refused to a sender who
    plays in the game already, or while a lock on wrong passwords holds."""
    db, now = run.ctx.db, run.ctx.now
    gm = load_map(game.variant)
    lead = gm.powers[group[0]]
    address = deliverable(run.sub.sender)
    if isinstance(address, Undeliverable):
        run.refused = True
        run.event("address_bad", cmd, address=address.address, reason=address.reason, own=True)
        return
    if _locked(run, cmd, game, lead.initial):
        return
    if cmd.name == "SIGNON" and _returned(run, cmd, game, group, address, password):
        return
    if _taken_this_phase(run, cmd, game, group):
        return
    if any(s.address == address for s in games.seats(db, game, games.PLAYER)):
        run.refused = True
        refuse(run, cmd, "takeover_playing", game=game.name)
        return
    if cmd.name == "SIGNON":  # the hash below costs as a check (dispatch paid JOIN's)
        if run.passwords_left < 1:
            run.refused = True
            too_many_passwords(run, cmd)
            return
        run.passwords_left -= 1
    # An abandoned power's player leaves it now, and is told (no one else learns who).
    run.mails += abandonment.replace_player(
        db, game, abandonment.abandoned_seats(db, game, group), now
    )
    seat = games.add_seat(db, game, games.PLAYER, address, hash_password(password), now)
    seat_the_group(db, game, seat, group, now)
    for s in partners(db, game, games.get_seat(db, seat.id)):
        games.update_seat(db, s, now, wait=1)  # njudge: WAIT set for the newcomer
    approval = game.settings.approval
    if approval:
        unapproved = tuple(dict.fromkeys((*game.settings.unapproved, *group)))
        settings = replace(game.settings, unapproved=unapproved)
        game = games.update_game(db, game, now, settings=settings)
    run.refused, run.signed_on = False, True
    run.block = Block(game, games.get_seat(db, seat.id))
    names = [gm.powers[p].name for p in group]
    run.event("taken_over", cmd, game=game.name, powers=names, approval=approval)
    run.mails += _notices(run, game, lead.name, lead.initial, address)
    if not vacancies.free_groups(db, game):
        _push_deadline(run, game)


def _notices(run: Run, game: games.Game, power: str, initial: str, newcomer: str) -> list[Reply]:
    """njudge's `New Player Signon` to everyone else in the game, and in a game with
    APPROVAL the masters' request to approve. Who took the power over is in the
    `newcomer` variable alone: the masters are told the address; in a gunboat game the
    players and observers `someone@somewhere`, and with SET QUIET nothing at all."""
    db = run.ctx.db
    context = {"game": game.name, "power": power, "initial": initial, "newcomer": newcomer}
    seats = [s for s in games.seats(db, game) if s.address != newcomer]
    masters = tuple(dict.fromkeys(s.address for s in seats if s.role == games.MASTER))
    mails = [Reply(masters, "takeover_notice", context, "notice", False)] if masters else []
    if anonymity.announced_to(game, reader_is_master=False):
        shown = anonymity.shown_address(game, newcomer, reader=None, reader_is_master=False)
        others = tuple(dict.fromkeys(s.address for s in seats if s.role != games.MASTER))
        others = tuple(a for a in others if a not in masters)
        if others:
            told = {**context, "newcomer": shown}
            mails.append(Reply(others, "takeover_notice", told, "notice", False))
    if game.settings.approval and masters:
        mails.append(Reply(masters, "approval_wanted", context, "notice", False))
    return mails


def _returned(
    run: Run, cmd: Command, game: games.Game, group: tuple[str, ...], address: str, password: str
) -> bool:
    """njudge's "returned": the player who left the free power signs on again with their
    own password, and has it back as it was (no takeover, no notice). False, having
    changed nothing, for anyone else or another password."""
    db, now = run.ctx.db, run.ctx.now
    if abandonment.abandoned_seats(db, game, group):
        return _came_back(run, cmd, game, group, address, password)
    old = games.left_seat(db, game, group[0], address)
    if old is None or run.passwords_left < 1:
        return False
    run.passwords_left -= 1  # a password check
    if not check_password(password, old.password_hash):
        return False
    seat = games.update_seat(db, old, now, left_at=None)
    run.refused, run.signed_on = False, True
    run.block = Block(game, seat)
    power = load_map(game.variant).powers[group[0]].name
    run.event("returned", cmd, game=game.name, power=power, abandoned=False)
    if not vacancies.free_groups(db, game):
        _push_deadline(run, game)
    return True


def _came_back(
    run: Run, cmd: Command, game: games.Game, group: tuple[str, ...], address: str, password: str
) -> bool:
    """The player who abandoned a power of `group` signs on with his password, from any
    address (as SIGNON is): the power is his again, no longer abandoned, and a game that
    waited past its deadline gets a new one. From his own address with a wrong password,
    refused as a wrong SIGNON is (it counts towards the locks): True, handled. False,
    having changed nothing, for anyone else: a newcomer."""
    db, now = run.ctx.db, run.ctx.now
    [seat, *_] = abandonment.abandoned_seats(db, game, group)
    if run.passwords_left < 1:
        return False
    run.passwords_left -= 1  # a password check
    initial = load_map(game.variant).powers[group[0]].initial
    if not check_password(password, seat.password_hash):
        if seat.address != address:
            return False
        keys = [guesses.power_key(game.name, initial), guesses.sender_key(run.sub.sender)]
        guesses.record_wrong(db, keys, now, WINDOW)
        run.refused = True
        run.event("signon_failed", cmd, who=initial, game=game.name)
        return True
    abandonment.come_back(db, partners(db, game, seat), now)
    run.refused, run.signed_on = False, True
    run.block = Block(game, games.get_seat(db, seat.id))
    if seat.address != run.sub.sender:
        run.copy(seat)
    power = load_map(game.variant).powers[group[0]].name
    run.event("returned", cmd, game=game.name, power=power, abandoned=True)
    waited = bool(game.deadline) and now >= datetime.fromisoformat(game.deadline or "")
    if waited and not vacancies.free_groups(db, game):
        _push_deadline(run, game)  # the game waited for him: a new deadline, not at once
    return True


def _taken_this_phase(run: Run, cmd: Command, game: games.Game, group: tuple[str, ...]) -> bool:
    """Whether the group was taken over in this phase already, by a player who has left it
    since (an error for the reply if so). Each takeover told every seat (New Player
    Signon) and pushed the deadline a phase's length out: a stranger's mail that took a
    free power over and RESIGNed it sent some 16 mails, and again and again held the
    game's deadline off for ever. Once a phase: the power is free again at the next."""
    if not takeovers.left_this_phase(run.ctx.db, game, group):
        return False
    run.refused = True
    power = load_map(game.variant).powers[group[0]].name
    refuse(run, cmd, "takeover_again", game=game.name, power=power)
    return True


def _locked(run: Run, cmd: Command, game: games.Game, initial: str) -> bool:
    """Whether a lock on wrong passwords holds for the power or the sender (an error for
    the reply if so): a takeover checks no password, but is no way round the locks."""
    keys = [guesses.power_key(game.name, initial), guesses.sender_key(run.sub.sender)]
    limit = run.ctx.config.wrong_passwords_per_hour
    until = guesses.locked_until(run.ctx.db, keys, limit, run.ctx.now, WINDOW)
    if until is None:
        return False
    run.refused = True
    words = minute_words(run.ctx, until)
    run.event("signon_locked", cmd, who=initial, game=game.name, until=words)
    return True


def _push_deadline(run: Run, game: games.Game) -> None:
    """The last free power taken: the deadline (and so the grace) pushed out to a whole
    phase's length from now, WAIT set for every player, and everyone told (njudge's
    `Deadline for 'game' advanced to ...`). A paused game keeps its remaining time."""
    db, now, config = run.ctx.db, run.ctx.now, run.ctx.config
    game = games.get_game(db, game.id)
    if not game.deadline or not game.phase:
        return
    for seat in games.seats(db, game, games.PLAYER):
        if not seat.wait:
            games.update_seat(db, seat, now, wait=1)
    new = play.deadline_for(
        game, Phase.parse(game.phase), now, config.timezone, games.absences(db, game)
    )
    if datetime.fromisoformat(new) <= datetime.fromisoformat(game.deadline):
        return
    game = games.update_game(db, game, now, deadline=new)
    games.clear_notices(db, game)  # the reminder and late notices are due again
    if run.block is not None and run.block.game.id == game.id:
        run.block.game = game
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
    shown = format_moment(datetime.fromisoformat(new), config.zone)
    # SET QUIET: the notice does not say that a power had no player.
    context = {"game": game.name, "deadline": shown, "quiet": anonymity.quiet(game)}
    run.mails.append(Reply(everyone, "deadline_advanced", context, "notice", False))


def orders_refused(run: Run, cmd: Command, block: Block) -> bool:
    """Whether the block's power waits for the master's approval (SET APPROVAL): then
    its orders are refused with njudge's words, and True."""
    if block.seat.power not in block.game.settings.unapproved:
        return False
    refuse(run, cmd, "not_approved", game=block.game.name)
    return True


def set_approval(run: Run, cmd: Command) -> None:
    """SET [NO] APPROVAL: whether newcomers taking over a power wait for the master's
    SET APPROVE before their orders are taken (SET NO APPROVAL approves everyone)."""
    block = need_master(run, cmd)
    if not block:
        return
    on = cmd.args[0] == "ON"
    settings = replace(block.game.settings, approval=on)
    if not on:
        settings = replace(settings, unapproved=())
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=block.game.name, setting="SET APPROVAL", said="on_off", on=on)


def set_approve(run: Run, cmd: Command) -> None:
    """SET APPROVE letters: those powers' newcomers may order, and are mailed `Player
    moves approved`; SET NOT APPROVE letters: their orders are refused again."""
    block = need_master(run, cmd)
    if not block:
        return
    letters, value = cmd.args
    gm = load_map(block.game.variant)
    by_initial = {p.initial.upper(): key for key, p in gm.powers.items()}
    wrong = [c for c in letters.upper() if c not in by_initial]
    if len(letters) > MAX_LETTERS or wrong:
        refuse(run, cmd, "approve_letters", letters=letters[:MAX_LETTERS], game=block.game.name)
        return
    keys = list(dict.fromkeys(by_initial[c] for c in letters.upper()))
    db, now, game = run.ctx.db, run.ctx.now, block.game
    seated = {s.power: s for s in games.seats(db, game, games.PLAYER) if s.power}
    if value == "ON":
        unapproved = tuple(p for p in game.settings.unapproved if p not in keys)
        for key in keys:
            if key in game.settings.unapproved and key in seated:
                context = {"game": game.name, "power": gm.powers[key].name}
                run.mails.append(
                    Reply((seated[key].address,), "moves_approved", context, "notice", False)
                )
    else:
        added = [k for k in keys if k in seated]
        unapproved = tuple(dict.fromkeys((*game.settings.unapproved, *added)))
    settings = replace(game.settings, unapproved=unapproved)
    block.game = games.update_game(db, game, now, settings=settings)
    names = [gm.powers[k].name for k in keys]
    run.event("approved", cmd, game=game.name, powers=names, on=value == "ON")


def first_forming(db: sqlite_utils.Database, address: str) -> games.Game | None:
    """SIGNON ? password: the first game still forming (in the order they were created)
    that LIST shows and `address` has not joined; None if there is none."""
    for game in sorted(games.all_games(db), key=lambda g: g.id):
        if game.state != games.FORMING or not game.settings.listed:
            continue
        if not any(s.address == address for s in games.seats(db, game, games.PLAYER)):
            return game
    return None
