"""PRESS and BROADCAST with njudge's options: white or grey, to some powers (the master
`M`, the observers `O`) or everyone but some, faked as a broadcast or as to others.

Readers see what they are meant to believe; the masters' copy tells the truth (the
sender when grey, the real readers when faked). Broadcast press also goes to the judge's
broadcast address and the game's own list; other press never does. The rules that
refuse press are judge/game/press_rules.py's and the checks below.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from judge.commands.language import Command
from judge.commands.powers import sender_name
from judge.commands.run import Run, need_block, refuse
from judge.engine.geography import GameMap
from judge.game import anonymity, press_rules
from judge.game.errors import CommandError
from judge.game.outgoing import public_copy
from judge.game.press_rules import Addressed, PressOptions, Readers
from judge.replies import Reply
from judge.store import games, held_press, press_count
from judge.variants.maps import load_map

_TO_MASTER = Readers((), True, False)

# Press sent by one mail, and by one seat an hour, across mails (counted from the press
# stored: a restart resets nothing). A press to everyone is a mail to each seat, the
# observers and the game's list, and the reply limits do not hold press back, so one
# mail of 100 press blocks sent some 700 mails. 10 a mail is more than a player's
# usual mail (one to each power), and 60 an hour, one a minute, more than talk needs.
PRESS_PER_MAIL = 10
PRESS_PER_HOUR = 60
# One press's text, as one DIARY entry's: a press goes to every seat, observer and list,
# so a mail-sized press (1 MB) to everyone was some 58 MB of mail, sixty times an hour.
PRESS_MAX_CHARS = 20_000


@dataclass(frozen=True)
class _Message:
    """One message as read: its options, its real readers (None: everyone), the readers
    it pretends to (None: as it is), and whether it is grey."""

    options: PressOptions
    real: Readers | None
    fake: Readers | None
    grey: bool


def press(run: Run, cmd: Command) -> None:
    """PRESS options or BROADCAST [options] from the open block's seat, if the game's
    press settings allow it; press to the master alone and the master's press always."""
    block = need_block(run, cmd)
    if not block:
        return
    game, seat = games.get_game(run.ctx.db, block.game.id), block.seat
    gm = load_map(game.variant)
    kind, written, text = cmd.args
    if kind == "PRESS" and not written.strip():
        refuse(run, cmd, "press_no_options")
        return
    if not text.strip():
        refuse(run, cmd, "press_empty")
        return
    if len(text) > PRESS_MAX_CHARS:
        refuse(run, cmd, "press_too_long", limit=PRESS_MAX_CHARS)
        return
    try:
        message = _read(gm, game, seat, written)
    except CommandError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    if message.real == _TO_MASTER:  # shown as it is, whatever the game's fakes
        if message.options.fake in ("broadcast", "list"):
            run.event("press_fake_dropped", cmd)  # njudge scolds, and sends it as it is
        options = replace(message.options, fake="no", fake_to=None)
        message = replace(message, fake=None, options=options)
    checked = seat.role != games.MASTER and message.real != _TO_MASTER
    if checked and _refused(run, cmd, game, seat, message):
        return
    if _over_limit(run, cmd, game, seat):
        return
    # Postal press (POSTAL PRESS, or all press under SET POSTAL PRESS) waits for the
    # results; the master's and press to the master never do.
    postal = kind == "POSTAL" or game.settings.postal_press
    held = postal and seat.role != games.MASTER and message.real != _TO_MASTER
    _send(run, cmd, gm, (game, seat), message, (text, held))
    run.press_sent += 1


def _over_limit(run: Run, cmd: Command, game: games.Game, seat: games.Seat) -> bool:
    """Whether the press is past a limit on press, and if so an ERROR naming it (its
    text is not sent). Every press counts alike, the master's and press to the master
    too (never refused sooner than other press); only press sent counts, not refused."""
    if run.press_sent >= PRESS_PER_MAIL:
        refuse(run, cmd, "press_per_mail", limit=PRESS_PER_MAIL)
        return True
    since = run.ctx.now - timedelta(hours=1)
    if press_count.sent_since(run.ctx.db, seat, since) >= PRESS_PER_HOUR:
        refuse(run, cmd, "press_per_hour", game=game.name, limit=PRESS_PER_HOUR, power=None)
        return True
    # A power's seats count together: RESIGN and a takeover of the power freed (a new
    # seat, one mail, any From:) made the limit an hour ten press a mail, without end.
    if seat.power and press_count.sent_as_power_since(run.ctx.db, seat, since) >= PRESS_PER_HOUR:
        power = load_map(game.variant).powers[seat.power].name
        refuse(run, cmd, "press_per_hour", game=game.name, limit=PRESS_PER_HOUR, power=power)
        return True
    return False


def _read(gm: GameMap, game: games.Game, seat: games.Seat, written: str) -> _Message:
    """The message's options and readers; CommandError for options that cannot be read."""
    options = press_rules.read_options(written.split())
    real = press_rules.readers(gm, options.to) if options.to else None
    fake = press_rules.readers(gm, options.fake_to) if options.fake_to else None
    if seat.role == games.MASTER or real == _TO_MASTER:
        grey = options.grey is True and real != _TO_MASTER  # to the master: always white
    else:
        grey = press_rules.default_grey(game.settings) if options.grey is None else options.grey
    return _Message(options, real, fake, grey)


def _refused(run: Run, cmd: Command, game: games.Game, seat: games.Seat, m: _Message) -> bool:
    """Whether a player's or observer's press breaks a setting; the reply says which."""
    settings, observer = game.settings, seat.role == games.OBSERVER
    if game.state == games.PAUSED:
        refuse(run, cmd, "press_paused", game=game.name)
        return True
    reason = (
        "none"
        if settings.press == "none"
        else "observer"
        if observer and not settings.observer_press
        else "partial"
        if m.real is not None and not settings.partial
        else None
    )
    if reason:  # the refusals this judge had before njudge's settings
        run.event("press_refused", cmd, game=game.name, reason=reason)
        return True
    try:
        press_rules.check(settings, m.options, observer)
        _check_phase(run, game, seat)
    except CommandError as e:
        refuse(run, cmd, e.code, game=game.name)
        return True
    return False


def _check_phase(run: Run, game: games.Game, seat: games.Seat) -> None:
    """CommandError for SET NO MINOR PRESS (no press in retreat and build phases) and SET
    NO LATE PRESS (none from a player with no orders on file once the deadline passed)."""
    settings, phase = game.settings, game.phase or ""
    if not settings.minor_press and phase[-1:] in ("R", "A"):
        raise CommandError("press_no_minor")
    if settings.late_press or seat.role != games.PLAYER or not game.deadline or not phase:
        return
    if datetime.fromisoformat(game.deadline) > run.ctx.now:
        return
    if not games.effective_orders(run.ctx.db, game, phase).get(seat.power or ""):
        raise CommandError("press_no_late")


def _named(gm: GameMap, addressed: Addressed | None) -> list[str]:
    """The names a list of readers gives, as the press says them (for ALL BUT, those left
    out): powers, then the master, the observers."""
    if addressed is None:
        return []
    named = press_rules.readers(gm, replace(addressed, all_but=False))
    names = [gm.powers[p].name for p in named.powers]
    return names + ["the master"] * named.master + ["the observers"] * named.observers


def _send(
    run: Run,
    cmd: Command,
    gm: GameMap,
    where: tuple[games.Game, games.Seat],
    m: _Message,
    written: tuple[str, bool],
) -> None:
    """Store the press, mail it to its readers and the masters (or hold the mails until
    the phase is processed), and say so in the reply."""
    (game, seat), (text, held) = where, written
    db, settings = run.ctx.db, game.settings
    broadcast = press_rules.shown_broadcast(settings, m.options, m.real is None)
    listed = m.options.fake_to if m.fake is not None else m.options.to
    all_but = listed is not None and listed.all_but
    sender = sender_name(gm, seat)
    # A gunboat game's white press names the power, never the player (njudge.md section
    # 2): the readers' and the lists' copies carry no address; the masters' says who.
    hidden = anonymity.hidden(game) and seat.role != games.MASTER
    context: dict[str, Any] = {
        "game": game.name,
        "sender": None if m.grey else sender,
        "address": None if hidden else seat.address,
        "broadcast": broadcast,
        "to": [] if broadcast else _named(gm, listed),
        "all_but": all_but and not broadcast,
        "text": text,
    }
    powers = [] if m.real is None else list(m.real.powers)
    games.add_press(db, game, seat, ["*"] if m.real is None else powers, m.grey, text, run.ctx.now)
    mails = _readers_mails(db, game, seat, m, context)
    truth = (sender, _really(gm, m, broadcast), m.grey or hidden)
    mails += _masters_copy(db, game, seat, m, context, truth)
    if m.real is None:
        mails += public_copy(run.ctx.config, game.name, settings.list, Reply((), "press", context))
    if held:
        held_press.hold(db, game, mails, run.ctx.now)
    else:
        run.mails += mails
    run.event(
        "press_sent",
        cmd,
        game=game.name,
        to=_named(gm, m.options.to),
        all_but=bool(m.options.to and m.options.to.all_but),
        broadcast=m.real is None,
        grey=m.grey,
        held=held,
        shown=None if m.fake is None and broadcast == (m.real is None) else context,
    )


def _really(gm: GameMap, m: _Message, broadcast: bool) -> str | None:
    """The real readers for the masters' copy when the readers are shown others; else None."""
    if m.fake is None and broadcast == (m.real is None):
        return None
    if m.real is None:
        return "everyone"
    names = ", ".join(_named(gm, m.options.to))
    return f"all but {names}" if m.options.to and m.options.to.all_but else names


def _readers_mails(
    db: Any, game: games.Game, seat: games.Seat, m: _Message, context: dict[str, Any]
) -> list[Reply]:
    """The press to its real readers other than the masters and the sender: one mail for
    them all, or one each when grey (a shared To: line would give the sender away)."""
    seats = [s for s in games.seats(db, game) if s.id != seat.id and s.role != games.MASTER]
    if m.real is None:
        chosen = seats
    else:
        real = m.real
        chosen = [
            s
            for s in seats
            if (s.role == games.PLAYER and s.power in real.powers)
            or (s.role == games.OBSERVER and real.observers)
        ]
    to = tuple(dict.fromkeys(s.address for s in chosen))
    if to and m.grey:
        return [Reply((a,), "press", context, "press", False) for a in to]
    return [Reply(to, "press", context, "press", False)] if to else []


def _masters_copy(
    db: Any,
    game: games.Game,
    seat: games.Seat,
    m: _Message,
    context: dict[str, Any],
    truth: tuple[str, str | None, bool],
) -> list[Reply]:
    """The masters' truthful copy: the sender's address and power when grey or when the
    readers were not shown the address (gunboat), the real readers when faked.
    Under SET NORMAL PRESS only broadcasts and press to the master; none of their own."""
    if seat.role == games.MASTER:
        return []
    if m.real is not None and not m.real.master and not game.settings.all_press:
        return []
    masters = tuple(
        dict.fromkeys(s.address for s in games.seats(db, game) if s.role == games.MASTER)
    )
    if not masters:
        return []
    sender, really, named = truth
    copy = {
        "sender": sender,
        "address": seat.address,
        "grey": m.grey,
        "named": named,  # the copy says [from addr as France]
        "really": really,
    }
    return [Reply(masters, "press", {**context, "copy": copy}, "press", False)]
