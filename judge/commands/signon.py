"""SIGNON's check: which seat a mail may act as, within the limits on wrong passwords.

Every password check costs ~40 ms of scrypt, and a From: line is easy to forge, so:
- a power of a game (and M, O) and a sender may each have at most
  `wrong_passwords_per_hour` wrong passwords in the last hour; past that, a SIGNON for
  that power or from that sender is refused *without checking the password*, in words
  that do not depend on it (no oracle, no CPU). Refused SIGNONs do not count, so the
  real player's password works again at most an hour after the last wrong one;
- the player of record is told, once an hour, when their power reaches the limit;
- a mail spends one of its `passwords_per_mail` on each check (dispatch counts them).

The judge's own masters (`judge.masters` in the configuration) may sign on as the master
of any game, from a listed address and with `judge.master_password`: the address alone
is no authority. They act through the game's own master seat, whose address of record
gets a copy of the acknowledgement.
"""

from __future__ import annotations

import hmac
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from judge.commands.context import Context
from judge.game.dates import format_moment
from judge.game.passwords import check_password, normal_form
from judge.mail import compose
from judge.replies import Reply
from judge.store import games, guesses, limits
from judge.variants.maps import load_map

log = logging.getLogger("judge.signon")
WINDOW = timedelta(hours=1)  # the limit on wrong passwords counts over this long
KEY_LIFETIME = timedelta(days=1)  # how long an answer to a notice passes the locks


@dataclass(frozen=True)
class Outcome:
    """What a SIGNON gets: a seat, or why not (`refused`: wrong, locked, budget)."""

    seat: games.Seat | None
    game: games.Game | None
    refused: str | None = None
    until: str | None = None  # locked: when SIGNONs are checked again, in words
    judge_master: bool = False  # signed on as one of the judge's masters
    checks: int = 0  # password checks made (the mail's budget pays for them)
    # To the player of record when their power reaches the limit, and to the sender
    # when their address does: each answerable to pass the lock (guesses.answers_notice).
    notices: tuple[Reply, ...] = ()


def sign_on(
    ctx: Context,
    sender: str,
    who: str,
    name: str,
    password: str,
    left: int,
    references: tuple[str, ...] = (),
) -> Outcome:
    """Check a SIGNON for power `who` (or M, O) of game `name` from `sender`, making at
    most `left` password checks. `references` are the mail's In-Reply-To and References:
    a mail that answers a wrong-password notice sent to its sender passes the locks that
    notice is about (the sender's own, and those of powers the sender is of record for),
    so a forger who sends wrong passwords in a player's name cannot keep the player out."""
    db, now, limit = ctx.db, ctx.now, ctx.config.wrong_passwords_per_hour
    power_key, sender_key = guesses.power_key(name, who), guesses.sender_key(sender)
    keys = [power_key, sender_key]
    game = games.find_game(db, name)
    candidates = _candidates(ctx, game, who, sender) if game else []
    proven = guesses.answers_notice(db, sender, references, now)
    # A lock holds unless the mail answers a notice sent to its sender; a power's lock
    # only for the player (or master) of record of that power.
    of_record = proven and any(s.address == sender for s in candidates)
    held = [k for k, passed in ((power_key, of_record), (sender_key, proven)) if not passed]
    until = guesses.locked_until(db, held, limit, now, WINDOW)
    if until is not None:
        return Outcome(None, None, "locked", minute_words(ctx, until))
    checks = 0
    for seat in candidates:
        if checks >= left:
            return Outcome(None, game, "budget", checks=checks)
        checks += 1
        if check_password(password, seat.password_hash):
            return Outcome(seat, game, checks=checks)
    if game and who == "M" and sender in ctx.config.masters and ctx.config.master_password:
        if checks >= left:
            return Outcome(None, game, "budget", checks=checks)
        checks += 1
        own = games.seats(db, game, games.MASTER)
        if own and _is_master_password(password, ctx.config.master_password):
            return Outcome(own[0], game, judge_master=True, checks=checks)
    guesses.record_wrong(db, keys, now, WINDOW)
    for key in keys:  # the operator hears of it once, as the limit is reached
        if guesses.count(db, key, now, WINDOW) == limit:
            log.warning("%s: %d wrong passwords in an hour; SIGNONs refused unchecked", key, limit)
    notices: list[Reply] = []
    told = [s for s in candidates if s.role != games.OBSERVER]
    if (
        told
        and game is not None
        and guesses.count(db, power_key, now, WINDOW) >= limit
        and limits.first_notice(db, power_key, now, WINDOW)
    ):
        notices.append(_notice(ctx, game, told, power_key))
    if guesses.count(db, sender_key, now, WINDOW) >= limit and limits.first_notice(
        db, sender_key, now, WINDOW
    ):
        notices.append(_sender_notice(ctx, sender, sender_key))
    return Outcome(None, game, "wrong", checks=checks, notices=tuple(notices))


def wrong_code(ctx: Context, sender: str) -> Reply | None:
    """A wrong code (CONFIRM) from `sender`, counted as a wrong password against the
    sender; the notice to the sender, answerable to pass the lock, when its address
    reaches the limit (once an hour), else None."""
    db, now, limit = ctx.db, ctx.now, ctx.config.wrong_passwords_per_hour
    key = guesses.sender_key(sender)
    guesses.record_wrong(db, [key], now, WINDOW)
    if guesses.count(db, key, now, WINDOW) < limit or not limits.first_notice(db, key, now, WINDOW):
        return None
    log.warning("%s: %d wrong passwords in an hour; SIGNONs refused unchecked", key, limit)
    return _sender_notice(ctx, sender, key)


def _is_master_password(password: str, master_password: str) -> bool:
    """Whether `password` is the judge's master password, in whatever normal form
    either was typed (the mail program's, the operator's editor's)."""
    typed, configured = normal_form(password).encode(), normal_form(master_password).encode()
    return hmac.compare_digest(typed, configured)


@dataclass(frozen=True)
class FirstCheck:
    """What sign_on would do first for a SIGNON, as far as its mail's checks ahead need."""

    stored: str | None  # the hash checked first; None if none would be checked
    keys: tuple[str, str]  # the limits on wrong passwords a wrong one counts against
    most: int  # the most checks it may make (what it may take of the mail's budget)


def first_check(ctx: Context, sender: str, who: str, name: str) -> FirstCheck:
    """The stored hash sign_on would check a SIGNON as `who` of game `name` from `sender`
    against first (None if it would check none: no such game or seat, or a lock on
    wrong passwords holds; a mail answering a notice may pass it: sign_on decides), the
    keys of the limits it counts against, and the most checks it may make."""
    keys = (guesses.power_key(name, who), guesses.sender_key(sender))
    game = games.find_game(ctx.db, name)
    if game is None:
        return FirstCheck(None, keys, 1)
    candidates = _candidates(ctx, game, who, sender)
    master = who == "M" and sender in ctx.config.masters and bool(ctx.config.master_password)
    most = max(1, len(candidates) + master)
    limit = ctx.config.wrong_passwords_per_hour
    if not candidates or guesses.locked_until(ctx.db, list(keys), limit, ctx.now, WINDOW):
        return FirstCheck(None, keys, most)
    return FirstCheck(candidates[0].password_hash, keys, most)


def _candidates(ctx: Context, game: games.Game, who: str, sender: str) -> list[games.Seat]:
    """The seats a SIGNON as `who` may mean, the sender's own first (an observer writing
    from their address is found with one check however many observers there are)."""
    by_initial = {p.initial: key for key, p in load_map(game.variant).powers.items()}
    seats = [
        s
        for s in games.seats(ctx.db, game, unconfirmed=True)  # refused by the caller
        if (who == "M" and s.role == games.MASTER)
        or (who == "O" and s.role == games.OBSERVER)
        or (s.role == games.PLAYER and s.power is not None and s.power == by_initial.get(who))
    ]
    return sorted(seats, key=lambda s: s.address != sender)


def _notice(ctx: Context, game: games.Game, seats: list[games.Seat], key: str) -> Reply:
    """The notice to a power's player of record that it reached the limit."""
    seat = seats[0]
    gm = load_map(game.variant)
    power = gm.powers[seat.power].name if seat.power else seat.role
    until = guesses.locked_until(
        ctx.db, [key], ctx.config.wrong_passwords_per_hour, ctx.now, WINDOW
    )
    context = {
        "game": game.name,
        "power": power,
        "limit": ctx.config.wrong_passwords_per_hour,
        "until": minute_words(ctx, until or ctx.now),
    }
    to = tuple(dict.fromkeys(s.address for s in seats))
    return _answerable(ctx, to, "wrong_passwords", context)


def _sender_notice(ctx: Context, sender: str, key: str) -> Reply:
    """The notice to a sender that their address reached the limit."""
    until = guesses.locked_until(
        ctx.db, [key], ctx.config.wrong_passwords_per_hour, ctx.now, WINDOW
    )
    context = {
        "address": sender,
        "limit": ctx.config.wrong_passwords_per_hour,
        "until": minute_words(ctx, until or ctx.now),
    }
    return _answerable(ctx, (sender,), "wrong_passwords_sender", context)


def _answerable(
    ctx: Context, to: tuple[str, ...], template: str, context: dict[str, object]
) -> Reply:
    """A notice whose secret Message-ID, answered from one of `to`, passes the locks."""
    message_id = compose.secret_message_id(ctx.config)
    for address in to:
        guesses.add_notice_key(ctx.db, address, message_id, ctx.now, KEY_LIFETIME)
    return Reply(to, template, context, "notice", False, message_id=message_id)


def minute_words(ctx: Context, moment: datetime) -> str:
    """The moment in words, rounded up to the minute (the words show no seconds)."""
    up = moment.replace(second=0, microsecond=0)
    if up < moment:
        up += timedelta(minutes=1)
    return format_moment(up, ctx.config.zone)
