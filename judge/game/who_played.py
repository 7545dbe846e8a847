"""Who held each seat of a game from which phase (SUMMARY): the players of each power,
replacements and resignations included, and the masters, PROMOTE's included. Read
from the seats' times against the phases' starts; plain values for the templates."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlite_utils

from judge.engine.geography import GameMap
from judge.game.anonymity import somebody
from judge.store import games


def phase_at(marks: list[games.PhaseMark], moment: str) -> str:
    """The phase under way at `moment` (a stored UTC ISO time): the last one started by
    then; before the first, the first ("" if the game has not started)."""
    at = datetime.fromisoformat(moment)
    under_way = [m.phase for m in marks if datetime.fromisoformat(m.started_at) <= at]
    if under_way:
        return under_way[-1]
    return marks[0].phase if marks else ""


def who_played(db: sqlite_utils.Database, game: games.Game, gm: GameMap) -> dict[str, Any]:
    """{players: [{power, spans}], masters: [span]}: a span is {address, start, left},
    the phases in which the seat was taken and left ("" for none: not started, or held
    still). Each power in map order, with its players in the order they took it."""
    marks = games.phase_marks(db, game)
    by_power: dict[str, list[dict[str, str]]] = {power: [] for power in gm.powers}
    masters: list[dict[str, str]] = []
    for seat in games.seat_spans(db, game):
        span = {
            "address": seat.address,
            "start": phase_at(marks, seat.joined_at),
            "left": phase_at(marks, seat.left_at) if seat.left_at else "",
        }
        if seat.role == games.MASTER:
            masters.append(span)
        elif seat.role == games.PLAYER and seat.power in by_power:
            by_power[seat.power].append(span)
    players = [{"power": gm.powers[k].name, "spans": spans} for k, spans in by_power.items()]
    return {"players": players, "masters": masters}


def as_read(played: dict[str, Any], reader: str | None) -> dict[str, Any]:
    """who_played's value with every player's address but the reader's own given as
    "Somebody" (a gunboat game, to a player or an observer: judge/game/anonymity.py);
    "Somebody #n" where a power had several players, to tell them apart. The masters
    stay named."""
    players = []
    for power in played["players"]:
        spans = power["spans"]
        several = len(spans) > 1
        hidden = [
            span
            if reader is not None and span["address"].lower() == reader.lower()
            else {**span, "address": somebody(n if several else None)}
            for n, span in enumerate(spans, start=1)
        ]
        players.append({**power, "spans": hidden})
    return {**played, "players": players}
