"""How a game ends after a phase: victory, a set last year, or the DPTG's rules
(chapter II: seven years with no supply centre changing hands, thirty-five years).

A "player" here is a group of powers played by one person: one power in the ordinary
game, several in the standard map's games for fewer players (rulebook XV.3), where
victory counts the centres of all of a player's powers together.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from judge.engine.board import Position
from judge.engine.geography import GameMap
from judge.engine.phase import ADJUSTMENTS, RETREATS
from judge.game.player_groups import groups_of
from judge.game.rules import EndRules
from judge.game.who_played import who_played
from judge.store import games


@dataclass(frozen=True)
class Ending:
    how: str  # victory, end_year, most_centres, stale, max_years
    winners: tuple[str, ...]  # power keys: one player's powers (a win) or the draw's
    # For the results mail's words (templates/words.txt end_reason): the set last year
    # (end_year), or how many years were played (max_years) or stood still (stale).
    years: int | None = None
    tie: bool = False  # end_year: a tie for the most centres, so a draw


def centres_counted(before: Position, after: Position) -> bool:
    """Supply centres changed hands in this phase: a Fall that is over (after its
    movement, or after its retreats)."""
    return (
        before.phase.season == "F"
        and before.phase.kind != ADJUSTMENTS
        and after.phase.kind != RETREATS
    )


def survivors(gm: GameMap, position: Position) -> list[str]:
    """Powers with a unit or a supply centre, in map order."""
    alive = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    return [p for p in gm.powers if p in alive]


def ending(
    db: sqlite_utils.Database,
    game: games.Game,
    end: EndRules,
    before: Position,
    after: Position,
    centres: dict[str, Any],
) -> Ending | None:
    """The game's end after the phase `before` -> `after` (`centres`: the outcome's
    ownership), or None when it goes on."""
    gm = after.game_map
    if centres_counted(before, after):
        counts = {}
        for group in groups_of(game, gm, None):
            sizes = [len(after.centers.get(p, ())) for p in group]
            counts[group] = sum(sizes) if gm.victory_by_player else max(sizes, default=0)
        best = max(counts.values(), default=0)
        leaders = [g for g, n in counts.items() if n == best]
        if best >= end.victory_centers and len(leaders) == 1:  # a tie wins nothing yet
            return Ending("victory", leaders[0])
        if end.end_year is not None and before.phase.year >= end.end_year:
            living = set(survivors(gm, after))
            if end.end_mode == "most":
                winners = tuple(p for g in leaders for p in g)
                if len(leaders) == 1:
                    return Ending("most_centres", winners)
                tied = tuple(p for p in winners if p in living)
                return Ending("end_year", tied, end.end_year, tie=True)
            return Ending("end_year", tuple(p for p in gm.powers if p in living), end.end_year)
    if after.phase.year == before.phase.year:
        return None
    alive = tuple(survivors(gm, after))
    if end.max_years is not None and after.phase.year - gm.first_year >= end.max_years:
        return Ending("max_years", alive, end.max_years)
    if end.stale_years is not None and _stale(db, game, before, centres, end.stale_years):
        return Ending("stale", alive, end.stale_years)
    return None


def _stale(
    db: sqlite_utils.Database,
    game: games.Game,
    before: Position,
    centres: dict[str, Any],
    years: int,
) -> bool:
    """Whether the centres have stood still for `years` years: the ownership at the end
    of each of the last `years` + 1 years the same. Reads those years' phases only."""
    since = before.phase.year - years
    by_year = {
        year: _canonical(owners)
        for year, owners in games.year_end_centres(db, game, since).items()
        if year < before.phase.year
    }
    by_year[before.phase.year] = _canonical(centres)
    if len(by_year) <= years:
        return False
    return len(set(by_year.values())) == 1


def _canonical(centres: dict[str, Any]) -> str:
    return json.dumps(centres, sort_keys=True)


def revealed(
    db: sqlite_utils.Database, game: games.Game, gm: GameMap
) -> list[dict[str, Any]] | None:
    """Who played each power of a gunboat game that has ended, for its end mails:
    [{power, players: [address, ...] in the order they took it}] in map order, powers
    nobody played left out. None for a game that is not gunboat (its players were never
    hidden) and for one whose master SET NO REVEAL (they stay hidden)."""
    if not (game.settings.gunboat and game.settings.reveal):
        return None
    players = who_played(db, game, gm)["players"]
    listed = [
        {"power": p["power"], "players": list(dict.fromkeys(s["address"] for s in p["spans"]))}
        for p in players
    ]
    return [p for p in listed if p["players"]]
