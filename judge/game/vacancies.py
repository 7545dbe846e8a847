"""Free powers (njudge.md section 5): a power of a game under way that nobody plays (its
player resigned or was ejected, or FORCE BEGIN left it in civil disorder), or whose
player abandoned it (missed the end of grace: judge/game/abandonment.py), and that is
still in the game. A newcomer may take it over; a game without NMR waits for one.
Plain values only: the words are templates/replacements_waiting.txt's."""

from __future__ import annotations

from datetime import datetime

import sqlite_utils

from judge.engine.board import Position
from judge.engine.validation import orders_due
from judge.game import anonymity
from judge.game.player_groups import groups_of
from judge.game.rules import processes_itself
from judge.replies import Reply
from judge.store import games
from judge.variants.json_contract import position_from_json

PLAYING = (games.ACTIVE, games.PAUSED)
NOTICE = "replacements"  # the notice kind: Waiting for Replacements, once a phase and power


def _position(db: sqlite_utils.Database, game: games.Game) -> Position:
    position, _, _ = position_from_json(games.phase_position(db, game, game.phase or ""))
    return position


def free_groups(db: sqlite_utils.Database, game: games.Game) -> list[tuple[str, ...]]:
    """The powers a newcomer could take, as the groups one player plays (one power each
    in most games), in map order: no member has a player who has not abandoned it, and
    some member still has a unit or a supply centre (an eliminated power is never taken
    over). Empty for a game not under way."""
    if game.state not in PLAYING or not game.phase:
        return []
    position = _position(db, game)
    played = {
        s.power for s in games.seats(db, game, games.PLAYER) if s.power and not s.abandoned_at
    }
    alive = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    return [
        group
        for group in groups_of(game, position.game_map, position.phase)
        if not played & set(group) and alive & set(group)
    ]


def nobody_plays(db: sqlite_utils.Database, game: games.Game) -> bool:
    """Whether every power still in the game (a unit or a supply centre) is free: no
    player of record plays any of them, each resigned, ejected or abandoned. False for a
    game not under way, or one whose powers are all out."""
    if game.state not in PLAYING or not game.phase:
        return False
    position = _position(db, game)
    played = {
        s.power for s in games.seats(db, game, games.PLAYER) if s.power and not s.abandoned_at
    }
    alive = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    return bool(alive) and not played & alive


def waiting_for(db: sqlite_utils.Database, game: games.Game) -> list[str]:
    """The free powers a game without NMR waits for (njudge's NoNMR: the phase is not
    processed until each is taken over, or its abandoning player comes back): those with
    something to order this phase.
    Empty with NMR (civil disorder, as before) and in a game its master processes."""
    if game.settings.nmr or not processes_itself(game):
        return []
    free = [p for group in free_groups(db, game) for p in group]
    if not free:
        return []
    position = _position(db, game)
    return [p for p in free if _owes_orders(position, p)]


def _owes_orders(position: Position, power: str) -> bool:
    units, owed = orders_due(position, power)
    return bool(units) or owed != 0


def replacements_notice(
    db: sqlite_utils.Database, game: games.Game, now: datetime
) -> list[Reply] | None:
    """At or after the deadline: None when the game waits for no replacement; else
    njudge's `Waiting for Replacements: X` notice to everyone in the game (the masters
    alone in a QUIET game), once for each power waited for (empty when each was named
    before): the phase is not processed meanwhile. Where a power was abandoned, the
    masters' copy says that they may PROCESS the phase instead."""
    waiting = waiting_for(db, game)
    if not waiting:
        return None
    kinds = [f"{NOTICE}:{p}" for p in waiting]
    if all(games.notice_sent(db, game, k) for k in kinds):
        return []
    for kind in kinds:
        if not games.notice_sent(db, game, kind):
            games.record_notice(db, game, kind, now)
    gm = _position(db, game).game_map
    left = {s.power for s in games.seats(db, game, games.PLAYER) if s.abandoned_at}
    context = {
        "game": game.name,
        "phase": game.phase,
        "initials": "".join(gm.powers[p].initial for p in waiting),
        "powers": [gm.powers[p].name for p in waiting],
        "vacant": [gm.powers[p].name for p in waiting if p not in left],
        "abandoned": [gm.powers[p].name for p in waiting if p in left],
        "gunboat": game.settings.gunboat,
    }
    seats = games.seats(db, game)
    masters = tuple(dict.fromkeys(s.address for s in seats if s.role == games.MASTER))
    # SET QUIET: abandoned powers are announced to the masters alone (njudge.md section 2).
    others = tuple(
        a
        for a in dict.fromkeys(s.address for s in seats if s.role != games.MASTER)
        if a not in masters and anonymity.announced_to(game, reader_is_master=False)
    )
    mails = []
    for to, master in ((masters, True), (others, False)):
        if to:
            told = {**context, "master": master}
            mails.append(Reply(to, "replacements_waiting", told, "notice", False))
    return mails
