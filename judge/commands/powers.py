"""Powers as commands name them: by initial or name, and the seat that plays one."""

from __future__ import annotations

from judge.commands.run import CommandError, Run
from judge.store import games
from judge.variants.maps import load_map


def power_key(gm, text: str) -> str | None:
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    return by_initial.get(text.upper()) or gm.power_names.get(text.lower())


def seat_of(run: Run, game: games.Game, text: str) -> games.Seat | None:
    key = power_key(load_map(game.variant), text)
    for seat in games.seats(run.ctx.db, game, games.PLAYER):
        if seat.power == key:
            return seat
    return None


def powers_named(gm, text: str) -> list[str]:
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    out = []
    for word in text.replace(",", " ").split():
        key = gm.power_names.get(word.lower().replace("-", ""))
        if key is None and word.isalpha() and all(c.upper() in by_initial for c in word):
            out += [by_initial[c.upper()] for c in word]
            continue
        if key is None:
            raise CommandError("unknown_power", power=word)
        out.append(key)
    return list(dict.fromkeys(out))


def sender_name(gm, seat: games.Seat) -> str:
    if seat.role == games.MASTER:
        return "the master"
    if seat.role == games.OBSERVER:
        return "an observer"
    return gm.powers[seat.power].name if seat.power else "a player"
