"""Abandoned powers (njudge.md section 5): a power whose player missed the end of grace.

The player keeps his seat (every mail of the game still reaches him, and he may play on),
but the power is free for takeover (judge/game/vacancies.py): his own SIGNON makes it his
again, a newcomer's takeover makes him leave the seat. A seat's `abandoned_at` keeps it.
Plain values only: the words are templates/abandoned.txt (to the player),
abandoned_notice.txt (to the others, an NMR game) and abandoned_replaced.txt.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlite_utils

from judge.game import anonymity
from judge.game.failure import pause_telling_masters
from judge.replies import Reply
from judge.store import games
from judge.store.audit import iso
from judge.variants.maps import load_map


def abandoned(seat: games.Seat) -> bool:
    """Whether the seat's power is abandoned (its player missed the end of grace)."""
    return seat.abandoned_at is not None


def abandon(
    db: sqlite_utils.Database,
    game: games.Game,
    late: Sequence[games.Seat],
    phase: str,
    now: datetime,
) -> list[Reply]:
    """Mark the `late` seats' powers abandoned at the end of `phase`'s grace (a seat that
    is already keeps its first moment), and the mails: each late player told how to come
    back; in an NMR game (the phase was processed with them in civil disorder) the others
    told too (abandoned_notice): the masters with his address, players and observers (not
    in a QUIET game) without it in a gunboat game. In a game without NMR the others hear
    of it by Waiting for Replacements (vacancies.replacements_notice)."""
    if not late:
        return []
    for seat in late:
        if not abandoned(seat):
            games.update_seat(db, seat, now, abandoned_at=iso(now))
    gm = load_map(game.variant)
    mails = []
    by_player: dict[str, list[str]] = {}
    for seat in late:
        if seat.power:
            by_player.setdefault(seat.address, []).append(seat.power)
    context = {"game": game.name, "phase": phase, "nmr": bool(game.settings.nmr)}
    for address, powers in by_player.items():
        mine = {
            **context,
            "powers": [gm.powers[p].name for p in powers],
            "initial": gm.powers[powers[0]].initial,
        }
        mails.append(Reply((address,), "abandoned", mine, "notice", False))
    if game.settings.nmr:
        mails += _notices(db, game, by_player, context)
    return mails


def _notices(
    db: sqlite_utils.Database,
    game: games.Game,
    by_player: dict[str, list[str]],
    context: dict[str, object],
) -> list[Reply]:
    """abandoned_notice to everyone but the late players: the masters see who they were;
    the others (unless QUIET) see no address in a gunboat game."""
    gm = load_map(game.variant)
    seats = [s for s in games.seats(db, game) if s.address not in by_player]
    masters = tuple(dict.fromkeys(s.address for s in seats if s.role == games.MASTER))
    others = tuple(
        a
        for a in dict.fromkeys(s.address for s in seats if s.role != games.MASTER)
        if a not in masters
    )
    mails = []
    for to, is_master in ((masters, True), (others, False)):
        if not to or not anonymity.announced_to(game, reader_is_master=is_master):
            continue
        shown = not anonymity.hidden_from(game, reader_is_master=is_master)
        entries = [
            {
                "power": gm.powers[p].name,
                "initial": gm.powers[p].initial,
                "player": a if shown else "",
            }
            for a, powers in by_player.items()
            for p in powers
        ]
        told = {**context, "abandoned": entries, "gunboat": game.settings.gunboat}
        mails.append(Reply(to, "abandoned_notice", told, "notice", False))
    return mails


def come_back(db: sqlite_utils.Database, seats: Sequence[games.Seat], now: datetime) -> bool:
    """The player of `seats` plays on: his abandoned powers are his again (True if any
    was abandoned)."""
    back = [s for s in seats if abandoned(s)]
    for seat in back:
        games.update_seat(db, seat, now, abandoned_at=None)
    return bool(back)


def abandoned_seats(
    db: sqlite_utils.Database, game: games.Game, group: Sequence[str]
) -> list[games.Seat]:
    """The seats of the powers of `group` whose player abandoned them."""
    return [s for s in games.seats(db, game, games.PLAYER) if s.power in group and abandoned(s)]


def replace_player(
    db: sqlite_utils.Database, game: games.Game, old: Sequence[games.Seat], now: datetime
) -> list[Reply]:
    """A newcomer took the abandoned powers of the `old` seats over: the old player leaves
    them (left_at, as a resignation does), and is told in one mail (abandoned_replaced),
    which names nobody."""
    gm = load_map(game.variant)
    for seat in old:
        games.update_seat(db, seat, now, left_at=iso(now))
    mails = []
    for address in dict.fromkeys(s.address for s in old):
        powers = [gm.powers[s.power].name for s in old if s.address == address and s.power]
        context = {"game": game.name, "powers": powers}
        mails.append(Reply((address,), "abandoned_replaced", context, "notice", False))
    return mails


def pause_unplayed(
    db: sqlite_utils.Database, game: games.Game, phase: str, now: datetime, abandoned: bool
) -> list[Reply]:
    """An NMR game just processed in civil disorder with no power played: every power
    abandoned before the phase (`abandoned`), or none with a player at all (FORCE BEGIN
    with nobody, everyone resigned). Played out so it would mail its absent players,
    masters and observers every phase for ever (with STALE and MAXYEARS off). Paused,
    its clock kept, and its masters told: RESUME plays on (a phase more; paused again if
    still nobody comes back), and a newcomer may take a power over meanwhile."""
    context: dict[str, object] = {"phase": phase, "abandoned": abandoned}
    return pause_telling_masters(db, game, now, "game_unplayed", context)
