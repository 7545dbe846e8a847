"""Observers who confirm their address: OBSERVE seats the From: address, which anyone can
forge, so a new observer seat gets no mail (results, broadcasts, press, diaries,
deadline notices) until the address sends back the one-time code mailed to it in the
answer to its OBSERVE (`CONFIRM name code`). Only someone who reads that address's mail
knows the code. Who gets mail is decided by `judge.store.games.seats`, which leaves
unconfirmed seats out unless asked for them.

The same code confirms the other addresses one mail names for a game's mail: a PROMOTEd
master's seat starts unconfirmed as an observer's does, and the new address of a player
or master (SET ADDRESS, REPLACE) waits as the seat's pending address while its mail goes
on to its address of record (judge/commands/player.py, judge/commands/master.py)."""

from __future__ import annotations

import hmac
import secrets
from datetime import datetime, timedelta

import sqlite_utils

from judge.replies import Reply
from judge.store import games
from judge.store.codes import code_hash
from judge.variants.maps import load_map

# How long an unconfirmed observer seat is kept: it still counts toward the game's
# observers (else forged OBSERVEs grew the table without bound), so one never confirmed
# is dropped when the game's next phase is processed or at the next OBSERVE after this.
UNCONFIRMED_DAYS = 7
# The code's letters: capitals and digits without the ones read for each other (0 O,
# 1 I L), so a code copied by hand reads back. 16 of 31 letters is about 79 bits: the
# store keeps only a fast hash of it (judge/store/codes.py), and 8 letters (40 bits)
# all hashed take one core 2 days (OpenSSL, 4.6 million a second here), a GPU minutes.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 16


def new_code() -> str:
    """A one-time confirmation code, random from `secrets`."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def code_matches(written: str, seat: games.Seat) -> bool:
    """Whether `written` is the seat's code, read leniently (any case, spaces and dashes
    left out): its hash compared in constant time with the one stored."""
    if seat.confirm_hash is None:
        return False
    typed = "".join(c for c in written.upper() if c not in " -")
    return hmac.compare_digest(code_hash(typed).encode(), seat.confirm_hash.encode())


def drop_stale(db: sqlite_utils.Database, game: games.Game, now: datetime) -> list[Reply]:
    """The game's seats and pending addresses left unconfirmed over UNCONFIRMED_DAYS
    dropped; the notices of it (`lapsed`)."""
    dropped = games.drop_unconfirmed(db, game, now - timedelta(days=UNCONFIRMED_DAYS), now)
    return lapsed(db, game, dropped)


def lapsed(db: sqlite_utils.Database, game: games.Game, dropped: list[games.Seat]) -> list[Reply]:
    """Who is told of each address that never confirmed: of a new address for a power
    or a master (REPLACE, SET ADDRESS), the address its mail still goes to (the master's,
    after a REPLACE: else the master kept a power's mail unawares); of a PROMOTEd master,
    the game's masters. An observer nobody: it asked for nothing anyone else knows of."""
    if not dropped:  # the common case, at every phase processed: no query
        return []
    masters = tuple(s.address for s in games.seats(db, game, games.MASTER))
    mails = []
    for seat in dropped:
        if seat.role == games.OBSERVER:
            continue
        power = load_map(game.variant).powers[seat.power] if seat.power else None
        context = {
            "game": game.name,
            "role": seat.role,
            "power": power.name if power else None,
            "initial": power.initial if power else None,
            "address": seat.pending_address or seat.address,
            "days": UNCONFIRMED_DAYS,
            "kept": seat.pending_address is not None,
            "by_master": seat.pending_address is not None and seat.address in masters,
        }
        to = (seat.address,) if seat.pending_address else masters
        if to:
            mails.append(Reply(to, "unconfirmed_lapsed", context, "notice", False))
    return mails
