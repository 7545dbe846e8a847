"""PRESS and BROADCAST: press to some powers or to everyone, white or grey.

Broadcast press also goes to the judge's broadcast address and the game's own list;
private press never does. The masters see all press, with its sender.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from judge.commands.language import Command
from judge.commands.powers import powers_named, sender_name
from judge.commands.run import Run, need_block, refuse
from judge.game.errors import CommandError
from judge.game.outgoing import public_copy
from judge.replies import Reply
from judge.store import games
from judge.variants.maps import load_map


def press(run: Run, cmd: Command) -> None:
    """PRESS or BROADCAST from the open block's seat, if the game's press settings allow it."""
    block = need_block(run, cmd)
    if not block:
        return
    db, game, seat = run.ctx.db, games.get_game(run.ctx.db, block.game.id), block.seat
    gm = load_map(game.variant)
    to_text, text = cmd.args
    settings = game.settings
    master = seat.role == games.MASTER
    if not text.strip():
        refuse(run, cmd, "press_empty")
        return
    if settings.press == "none" and not master:
        run.event("press_refused", cmd, game=game.name, reason="none")
        return
    if seat.role == games.OBSERVER and not settings.observer_press:
        run.event("press_refused", cmd, game=game.name, reason="observer")
        return
    broadcast = to_text == "*"
    if broadcast:
        powers: list[str] = []
    else:
        try:
            powers = powers_named(gm, to_text)
        except CommandError as e:
            refuse(run, cmd, e.code, **e.values)
            return
        if not settings.partial and not master:
            run.event("press_refused", cmd, game=game.name, reason="partial")
            return
    grey = settings.press == "grey" and not master
    games.add_press(db, game, seat, ["*"] if broadcast else powers, grey, text, run.ctx.now)
    sender = sender_name(gm, seat)
    names = [gm.powers[p].name for p in powers]
    context = {
        "game": game.name,
        "sender": None if grey else sender,
        "to": names,
        "broadcast": broadcast,
        "text": text,
    }
    run.mails += _press_mails(db, game, seat, powers, context, sender, grey=grey)
    if broadcast:
        run.mails += public_copy(
            run.ctx.config, game.name, settings.list, Reply((), "press", context)
        )
    run.event("press_sent", cmd, game=game.name, to=names, broadcast=broadcast, grey=grey)


def _press_mails(
    db: Database,
    game: games.Game,
    seat: games.Seat,
    powers: list[str],
    context: dict[str, Any],
    sender: str,
    grey: bool,
) -> list[Reply]:
    """The press to its readers (everyone but the masters for a broadcast), and a copy
    to the masters naming the sender, unless a master sent it."""
    master, broadcast = seat.role == games.MASTER, context["broadcast"]
    mails: list[Reply] = []
    seats = games.seats(db, game)
    masters = [s.address for s in seats if s.role == games.MASTER]
    if broadcast:
        to = tuple(
            dict.fromkeys(s.address for s in seats if s.id != seat.id and s.role != games.MASTER)
        )
    else:
        to = tuple(
            dict.fromkeys(s.address for s in seats if s.power in powers and s.role == games.PLAYER)
        )
    if to and grey:  # one mail each: a shared To: line would give the sender away
        mails += [Reply((a,), "press", context, "press", False) for a in to]
    elif to:
        mails.append(Reply(to, "press", context, "press", False))
    # The master sees all press, with the sender even when it is grey.
    if masters and not master:
        mails.append(
            Reply(
                tuple(masters), "press", {**context, "sender": sender, "copy": True}, "press", False
            )
        )
    return mails
