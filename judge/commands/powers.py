"""Powers as commands name them: by initial or name, and the seat that plays one."""

from __future__ import annotations

from judge.commands.run import Run
from judge.engine.geography import GameMap
from judge.game.errors import CommandError
from judge.store import games
from judge.variants.maps import load_map


def power_key(gm: GameMap, text: str) -> str | None:
    """The key of the power `text` names, by initial or name; None if none."""
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    return by_initial.get(text.upper()) or gm.power_names.get(text.lower())


def seat_of(run: Run, game: games.Game, text: str) -> games.Seat | None:
    """The player's seat of the power `text` names in `game`, if it has one."""
    key = power_key(load_map(game.variant), text)
    for seat in games.seats(run.ctx.db, game, games.PLAYER):
        if seat.power == key:
            return seat
    return None


def powers_named(gm: GameMap, text: str) -> list[str]:
    """PRESS TO's powers, by name or initials (`FGR`; Chaos's digits too, `Z05`), each
    once; CommandError if one is not the game's."""
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    out: list[str] = []
    for word in text.replace(",", " ").split():
        key = gm.power_names.get(word.lower().replace("-", ""))
        if key is None and word.isalnum() and all(c.upper() in by_initial for c in word):
            out += [by_initial[c.upper()] for c in word]
            continue
        if key is None:
            raise CommandError("unknown_power", power=word)
        out.append(key)
    return list(dict.fromkeys(out))


def sender_name(gm: GameMap, seat: games.Seat) -> str:
    """Who sent press, as its readers (the masters, or everyone when white) see it."""
    if seat.role == games.MASTER:
        return "the master"
    if seat.role == games.OBSERVER:
        return "an observer"
    return gm.powers[seat.power].name if seat.power else "a player"
